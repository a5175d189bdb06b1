"""What a run launches for an instruction: a kernel we emit, or a call into the library.

XLA:GPU does not emit dots, cuBLAS/cuDNN custom calls or sorts: they are
library calls. A `kind=kCustom` fusion around one of them (a gemm or sort
fusion) is not one kernel either: its library op is a call and every other
op (bitcasts, parameters and constants aside) a kernel of its own. The module
runtime runs this plan and `xla-emit-opt` prints it, so both read it here.
"""

from __future__ import annotations

from dataclasses import dataclass

from xla_emit.hlo.ir import HloInstruction, HloModule
from xla_emit.hlo.library_calls import CONV_TARGETS, GEMM_TARGETS, TOPK_TARGETS
from xla_emit.hlo.opcodes import ALIASING_OPS
from xla_emit.hlo.shape import ArrayShape, Shape, flatten_shape

# Entry-level ops the runtime hands to its kernel library.
LIBRARY_CALL_OPS = frozenset(
    {
        "dot", "custom-call", "fft", "all-reduce", "all-gather", "collective-permute", "sort",
        "rng-bit-generator",
    }
)  # fmt: skip
# Ops that make a kCustom fusion a library fusion.
LIBRARY_FUSION_OPS = frozenset({"dot", "custom-call", "sort"})
# Ops that launch nothing: they alias buffers or are literals and parameters.
NOT_LAUNCHED_OPS = ALIASING_OPS | {"parameter", "constant"}
# Ops whose called computations a run executes op by op, as the entry's.
RUNS_COMPUTATIONS = frozenset({"call", "while", "conditional"})


def is_library_fusion(instruction: HloInstruction) -> bool:
    """A kCustom fusion around a library op (a gemm or sort fusion): its ops run one by one.

    A `__triton` fusion runs as a tile program instead (the runtime asks first); another
    kCustom fusion without a library op is emitted as one kernel by our native emitters,
    as XLA does without its Triton rewrite.
    """
    if instruction.opcode != "fusion" or instruction.fusion_kind != "kCustom":
        return False
    opcodes = {i.opcode for i in instruction.called_computations[0].instructions}
    return not opcodes.isdisjoint(LIBRARY_FUSION_OPS)


def wrapped_name(instruction: HloInstruction) -> str:
    """The name of the fusion an instruction outside any fusion is wrapped in."""
    return f"wrapped_{instruction.name}"


def library_launch_name(instruction: HloInstruction) -> str:
    """How a run lists a library call among its launches (`--time`)."""
    return f"{instruction.name} (library)"


def library_routine(instruction: HloInstruction) -> str:
    """The library routine a library op calls, as a user would look it up."""
    opcode = instruction.opcode
    if opcode == "dot":
        return "cuBLAS gemm"
    if opcode == "fft":
        return "cuFFT"
    if opcode == "rng-bit-generator":
        return "random bits (XLA's hash kernels, computed host-side)"
    if opcode == "sort":
        return "library sort (its comparator a kernel of ours)"
    if opcode == "custom-call":
        target = instruction.custom_call_target or ""
        if target in GEMM_TARGETS:
            return f"cuBLAS gemm ({target})"
        if target in CONV_TARGETS:
            return f"cuDNN convolution ({target})"
        if target in TOPK_TARGETS:
            return f"library TopK ({target})"
        return f"custom call {target}"
    return f"{opcode} over one device"


@dataclass(frozen=True)
class Launch:
    """One launch of a library fusion: its name in a run's launch list and what it is."""

    name: str
    instruction: HloInstruction
    # The library routine, or None for a kernel of ours.
    routine: str | None

    def describe(self) -> str:
        """`dot.4 (library): cuBLAS gemm (f32[64,128], f32[32,64]) -> f32[128,32]`."""
        what = self.routine if self.routine is not None else "kernel"
        operands = ", ".join(_shape_text(o.shape) for o in self.instruction.operands)
        return f"{self.name}: {what} ({operands}) -> {_shape_text(self.instruction.shape)}"


def library_fusion_launches(fusion: HloInstruction) -> list[Launch]:
    """What a run launches for a library fusion, in order."""
    launches: list[Launch] = []
    for instruction in fusion.called_computations[0].instructions:
        if instruction.opcode in NOT_LAUNCHED_OPS:
            continue
        if instruction.opcode in LIBRARY_FUSION_OPS:
            name = library_launch_name(instruction)
            launches.append(Launch(name, instruction, library_routine(instruction)))
        else:
            launches.append(Launch(wrapped_name(instruction), instruction, None))
    return launches


def unfused_library_calls(module: HloModule) -> list[Launch]:
    """The library calls a run of `module` makes outside any fusion, in order.

    They sit in the entry computation (or a `while` body, a `conditional` branch, a
    called computation) as XLA:GPU leaves cuBLAS/cuDNN custom calls, dots and sorts.
    """
    launches: list[Launch] = []
    pending = [module.entry]
    while pending:
        for instruction in pending.pop(0).instructions:
            if instruction.opcode in RUNS_COMPUTATIONS:
                pending.extend(instruction.called_computations)
            elif instruction.opcode in LIBRARY_CALL_OPS:
                name = library_launch_name(instruction)
                launches.append(Launch(name, instruction, library_routine(instruction)))
    return launches


def _shape_text(shape: Shape) -> str:
    """`f32[32,64]`: dimensions and type, without the layout."""
    parts = [
        f"{leaf.element_type.value}[{','.join(str(d) for d in leaf.dimensions)}]"
        for leaf in flatten_shape(shape)
    ]
    return parts[0] if isinstance(shape, ArrayShape) else f"({', '.join(parts)})"
