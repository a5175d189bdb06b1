"""HLO fusions to kernels: hero choice, partitioning and the emitter of each kind.

`emit_hlo_module` emits every fusion of a module as its own kernel (entry
function named after the fusion, plus its private subgraph functions) into
one `builtin.module`; `emit_fusion` does one fusion, for the module runtime.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from xla_emit.diagnostics import UserError
from xla_emit.emitters.concatenate import emit_concatenate_entry
from xla_emit.emitters.entry import launch_dimensions_of
from xla_emit.emitters.functions import FusionFunctions, Subgraph
from xla_emit.emitters.hero import EmitterKind, FusionAnalysis, analyze_fusion
from xla_emit.emitters.in_place_dus import emit_in_place_dus_entry
from xla_emit.emitters.input_slices import emit_input_slices_entry
from xla_emit.emitters.launch import LaunchDimensions
from xla_emit.emitters.library_fusions import LIBRARY_CALLS_ATTRIBUTE, library_calls_attribute
from xla_emit.emitters.loop import emit_loop_entry
from xla_emit.emitters.partitioner import sanitize_function_name
from xla_emit.emitters.reduction import emit_reduction_entry
from xla_emit.emitters.scatter import emit_scatter_entry
from xla_emit.emitters.subgraphs import emitter_subgraphs, format_partitions
from xla_emit.emitters.transpose import emit_transpose_entry
from xla_emit.hlo.ir import HloComputation, HloInstruction, HloModule
from xla_emit.hlo.launches import Launch, is_library_fusion


@dataclass
class EmittedKernel:
    """One fusion's functions: the entry first, then its subgraphs and reducers."""

    name: str
    kind: EmitterKind
    functions: list[func.FuncOp]

    @property
    def entry(self) -> func.FuncOp:
        return self.functions[0]


def fused_computation(fusion_instruction: HloInstruction) -> HloComputation:
    if fusion_instruction.opcode != "fusion" or not fusion_instruction.called_computations:
        raise UserError(f"'{fusion_instruction.name}' is not a fusion", fusion_instruction.location)
    return fusion_instruction.called_computations[0]


@dataclass
class KernelPlan:
    """How a fused computation is emitted: its emitter kind and subgraph functions."""

    analysis: FusionAnalysis
    subgraphs: list[Subgraph]
    epilogue: Subgraph | None


def plan_kernel(computation: HloComputation) -> KernelPlan:
    """Hero choice, then the subgraphs the chosen emitter calls."""
    analysis = analyze_fusion(computation)
    subgraphs, epilogue = emitter_subgraphs(analysis)
    return KernelPlan(analysis, subgraphs, epilogue)


def emit_kernel(
    name: str,
    computation: HloComputation,
    reserved: frozenset[str] = frozenset(),
) -> EmittedKernel:
    """The kernel of a fused computation, with its entry function called `name`.

    Its other functions avoid `name` and the `reserved` names (other kernels' entries).
    """
    plan = plan_kernel(computation)
    fusion = FusionFunctions(computation, plan.subgraphs, reserved=reserved | {name})
    kind = plan.analysis.kind
    if kind is EmitterKind.TRANSPOSE:
        entry = emit_transpose_entry(name, fusion, plan.analysis, plan.epilogue)
    elif kind is EmitterKind.REDUCTION:
        entry = emit_reduction_entry(name, fusion, plan.analysis, plan.epilogue)
    elif kind is EmitterKind.CONCATENATE:
        entry = emit_concatenate_entry(name, fusion, plan.analysis, plan.epilogue)
    elif kind is EmitterKind.IN_PLACE_DUS:
        entry = emit_in_place_dus_entry(name, fusion, plan.analysis)
    elif kind is EmitterKind.INPUT_SLICES:
        entry = emit_input_slices_entry(name, fusion, plan.analysis)
    elif kind is EmitterKind.SCATTER:
        entry = emit_scatter_entry(name, fusion, plan.analysis)
    else:
        entry = emit_loop_entry(name, fusion, plan.analysis)
    return EmittedKernel(name, kind, [entry, *fusion.emit_all()])


def format_hlo_partitions(text: str, file: str) -> str:
    """Each fusion's emitter kind and subgraph functions, readable."""
    from xla_emit.hlo.parser import parse_hlo_module

    module = parse_hlo_module(text, file)
    sections: list[str] = []
    for fusion in _fusions_or_error(module):
        analysis = analyze_fusion(fused_computation(fusion))
        hero = f", hero {analysis.hero.name}" if analysis.kind is not EmitterKind.LOOP else ""
        sections.append(f"fusion {fusion.name}: {analysis.kind.value} emitter{hero}\n")
        sections.append(format_partitions(analysis))
    return "".join(sections)


def fusion_instructions(module: HloModule) -> list[HloInstruction]:
    """The module's fusion instructions, in the order of its computations and instructions."""
    return [
        instruction
        for computation in module.computations
        for instruction in computation.instructions
        if instruction.opcode == "fusion"
    ]


def emit_fusion(module: HloModule, fusion_instruction: HloInstruction) -> ModuleOp:
    """One fusion's kernel as a module (the entry function is named after the fusion)."""
    del module  # The fused computation is reachable from the instruction itself.
    kernel = emit_kernel(
        sanitize_function_name(fusion_instruction.name),
        fused_computation(fusion_instruction),
    )
    return ModuleOp(kernel.functions)


def fusion_launch_dimensions(kernel_module: ModuleOp) -> LaunchDimensions:
    """The launch grid of an emitted kernel module (from its entry's `xla.range` ids)."""
    for op in kernel_module.body.block.ops:
        if isinstance(op, func.FuncOp) and "xla.entry" in op.attributes:
            return launch_dimensions_of(op)
    raise ValueError("the module has no entry function")


def _fusions_or_error(module: HloModule) -> list[HloInstruction]:
    fusions = fusion_instructions(module)
    if not fusions:
        raise UserError(f"module '{module.name}' has no fusion to emit")
    return fusions


def emit_hlo_module(
    text: str, file: str, fusion: str | None = None, library_kernels: bool = True
) -> ModuleOp:
    """Parse HLO text and emit every fusion (or the one named `fusion`) as its own kernel, in
    one module (`emit_fusions_module`)."""
    from xla_emit.hlo.parser import parse_hlo_module
    from xla_emit.hlo.select_fusion import fusion_named

    module = parse_hlo_module(text, file)
    fusions = [fusion_named(module, fusion)] if fusion is not None else _fusions_or_error(module)
    return emit_fusions_module(fusions, library_kernels)


def emit_fusions_module(
    fusions: Sequence[HloInstruction],
    library_kernels: bool = True,
    unfused_library_calls: Sequence[Launch] = (),
) -> ModuleOp:
    """Every fusion's kernel in one module: fusions the Triton route runs as
    `xtile.entry_func`s, the others by the emitters; no function takes the name of another
    fusion's entry, and a function two kernels share is kept once.

    Without `library_kernels`, a library fusion (a gemm or sort fusion, which a
    run hands to the library) is listed in the module's `xla_emit.library_calls`
    attribute as the launches a run makes for it, instead of being emitted; so are
    `unfused_library_calls`, the library calls outside any fusion.
    """
    from xla_emit.emitters.triton.emitter import emit_triton_fusion
    from xla_emit.emitters.triton.route import runs_as_triton

    triton = [f for f in fusions if runs_as_triton(f)]
    others = [f for f in fusions if not runs_as_triton(f)]
    library = [] if library_kernels else [f for f in others if is_library_fusion(f)]
    emitted = [f for f in others if not any(f is g for g in library)]
    entry_names = frozenset(sanitize_function_name(f.name) for f in emitted)
    functions: list[Operation] = []
    names: set[str] = set()
    for instruction in emitted:
        name = sanitize_function_name(instruction.name)
        for function in emit_kernel(name, fused_computation(instruction), entry_names).functions:
            if function.sym_name.data not in names:
                names.add(function.sym_name.data)
                functions.append(function)
    for instruction in triton:
        tile_kernel = emit_triton_fusion(instruction)
        functions.extend(op.clone() for op in tile_kernel.body.block.ops)
    result = ModuleOp(functions)
    if library or unfused_library_calls:
        result.attributes[LIBRARY_CALLS_ATTRIBUTE] = library_calls_attribute(
            library, unfused_library_calls
        )
    return result
