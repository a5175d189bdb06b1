"""Our kernel's outputs against XLA's kernel's, bit for bit, on the program's own values.

The whole program runs once in the module runtime on the bundle's seeded inputs
(`record_program`); each fusion's first launch keeps its operands and our
kernel's results. XLA's kernel for that fusion, as XLA's dump holds it, then
runs in our interpreter on those same operands:

- a native emitter's fusion: the first snapshot of its `*.mlir-passes.log` (the
  emitter's output), in the executor;
- a `__triton` fusion: the first snapshot of its `*.xtile-to-triton.txt` (the
  Triton fusion emitter's output), else its TTIR, in the tile executor with our
  launch size and the fusion's `num_warps`.

Equal means every element has the same bits (two NaNs count as equal: a NaN's
payload is no result). A gemm or sort fusion and a cuBLAS/cuDNN call run in
our kernel library: no kernel of ours to compare (`LIBRARY_CALL`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects.builtin import MemRefType, ModuleOp, TensorType

from xla_emit.diagnostics import UserError
from xla_emit.hlo.evaluator import flatten_value
from xla_emit.hlo.ir import HloInstruction, HloModule
from xla_emit.hlo.launches import is_library_fusion
from xla_emit.hlo.npz import read_inputs
from xla_emit.interpreter.element_types import numpy_dtype
from xla_emit.ir.parse import parse_mlir
from xla_emit.ir.pass_log import read_pass_log
from xla_emit.ir.verify import verify_module
from xla_emit.jax.bundle import INPUTS, Bundle, read_text
from xla_emit.runtime.module_runtime import ModuleRuntime, RuntimeValue

LIBRARY_CALL = "library call"
EQUAL = "equal"
# Verdicts that are neither equal nor a difference: nothing of XLA's to run.
NO_XLA_KERNEL = "no kernel of XLA's in the bundle"
XLA_LAUNCHES_NONE = "XLA launches no kernel"


@dataclass
class Launch:
    """A fusion's first launch: what it was given and what our kernel gave back."""

    operands: list[np.ndarray]
    results: list[np.ndarray]


@dataclass
class RecordingRuntime(ModuleRuntime):
    """The module runtime, keeping each launched fusion's first operands and results."""

    launches: dict[str, Launch] = field(default_factory=dict[str, Launch])

    def launch(self, fusion: HloInstruction, operands: list[RuntimeValue]) -> RuntimeValue:
        kept = _copies(operands)
        result = super().launch(fusion, operands)
        self._keep(fusion, kept, result)
        return result

    def launch_triton(self, fusion: HloInstruction, operands: list[RuntimeValue]) -> RuntimeValue:
        kept = _copies(operands)
        result = super().launch_triton(fusion, operands)
        self._keep(fusion, kept, result)
        return result

    def _execute(self, instruction: HloInstruction, operands: list[RuntimeValue]) -> RuntimeValue:
        # A gemm or sort fusion runs op by op, launching no kernel of ours: kept here.
        if not is_library_fusion(instruction) or instruction.name in self.launches:
            return super()._execute(instruction, operands)
        kept = _copies(operands)
        result = super()._execute(instruction, operands)
        self._keep(instruction, kept, result)
        return result

    def _keep(self, fusion: HloInstruction, operands: list[np.ndarray], result: Any) -> None:
        if fusion.name not in self.launches:
            results = [np.array(leaf, copy=True) for leaf in flatten_value(result)]
            self.launches[fusion.name] = Launch(operands, results)


def _copies(operands: Sequence[RuntimeValue]) -> list[np.ndarray]:
    # Copied before the launch: an in-place kernel writes into its operand's buffer.
    return [np.array(leaf, copy=True) for leaf in flatten_value(tuple(operands))]


@dataclass(frozen=True)
class ProgramRun:
    """The program's outputs and each fusion's first launch."""

    outputs: list[np.ndarray]
    launches: dict[str, Launch]


def record_program(module: HloModule, bundle: Bundle) -> ProgramRun:
    runtime = RecordingRuntime(module)
    outputs = runtime.run(read_inputs(str(bundle.file(INPUTS)), module.entry))
    return ProgramRun(outputs, runtime.launches)


@dataclass(frozen=True)
class KernelMatch:
    """`equal`, where the first element differs, or why nothing was compared.
    `equal` is None where nothing was compared."""

    verdict: str
    equal: bool | None


def library_call() -> KernelMatch:
    return KernelMatch(LIBRARY_CALL, None)


def match_kernel(
    fusion: HloInstruction, xla_files: Sequence[Path], triton: bool, launch: Launch | None
) -> KernelMatch:
    """Our kernel's results for `fusion` against XLA's kernel on the same operands: the
    first of `xla_files` (dump files of XLA's kernel) that our interpreter runs."""
    if not triton and (is_library_fusion(fusion) or fusion.opcode != "fusion"):
        return library_call()
    if not xla_files:
        return KernelMatch(NO_XLA_KERNEL, None)
    if launch is None:
        return KernelMatch("not launched by the program", None)
    return against_xla(fusion, xla_files, triton, launch, launch.results)


def match_tile_program(
    fusion: HloInstruction, xla_files: Sequence[Path], launch: Launch | None
) -> KernelMatch:
    """A Triton gemm fusion the runtime hands to the kernel library: our Triton emitter's
    tile program for it against XLA's Triton kernel, both in the tile executor."""
    if not xla_files or launch is None:
        return library_call()
    try:
        ours = _run_triton(fusion, _our_tile_program(fusion), launch)
    except UserError as error:
        return KernelMatch(f"{LIBRARY_CALL}; our tile program not run: {_first_line(error)}", None)
    match = against_xla(fusion, xla_files, True, launch, ours)
    return KernelMatch(f"{LIBRARY_CALL}; our tile program: {match.verdict}", match.equal)


def _first_line(error: UserError) -> str:
    return str(error).splitlines()[0]


def against_xla(
    fusion: HloInstruction,
    xla_files: Sequence[Path],
    triton: bool,
    launch: Launch,
    ours: Sequence[np.ndarray],
) -> KernelMatch:
    """`ours` against XLA's kernel on the launch's operands: the first of `xla_files` that
    our interpreter runs."""
    failures: list[str] = []
    for path in xla_files:
        try:
            module = _parse_first_snapshot(path)
            theirs = _run_triton(fusion, module, launch) if triton else _run_native(module, launch)
        except UserError as error:
            failures.append(_first_line(error))
            continue
        match = compare_results(ours, theirs)
        if path is not xla_files[0]:
            # Say which of XLA's kernels it was where it is not the emitter's output.
            return KernelMatch(f"{match.verdict} (XLA's TTIR)", match.equal)
        return match
    return KernelMatch("not run: " + failures[0], None)


def _parse_first_snapshot(path: Path) -> ModuleOp:
    """The first snapshot of a pass log, or the whole of a TTIR file (no pass log)."""
    source = read_text(path) if ".ttir.txt" in path.name else read_pass_log(path)[0].text
    module, source_map = parse_mlir(source, str(path))
    verify_module(module, source_map)
    return module


def _run_native(module: ModuleOp, launch: Launch) -> list[np.ndarray]:
    from xla_emit.interpreter import Executor

    executor = Executor(module)
    entry = executor.entry_function()
    arguments = _as_arguments(launch.operands, list(entry.function_type.inputs.data))
    return executor.run(arguments)


def _run_triton(fusion: HloInstruction, module: ModuleOp, launch: Launch) -> list[np.ndarray]:
    from xla_emit.hlo.fusion_configs import block_level_config
    from xla_emit.interpreter.tile.executor import TileExecutor

    warps = block_level_config(fusion).num_warps
    arguments = [
        np.ascontiguousarray(array).reshape(operand.array_shape.dimensions)
        for array, operand in zip(launch.operands, fusion.operands, strict=True)
    ]
    programs = _our_programs(fusion)
    return TileExecutor(module, num_warps=warps, programs=programs).run(arguments)


def _our_programs(fusion: HloInstruction) -> int:
    """Our launch size: kernels XLA printed before its pid carried `xla.range` need it."""
    from xla_emit.interpreter.tile.executor import TileExecutor

    executor = TileExecutor(_our_tile_program(fusion))
    return executor.num_programs(executor.entry_function())


def _our_tile_program(fusion: HloInstruction) -> ModuleOp:
    from xla_emit.emitters.triton.emitter import emit_triton_fusion

    return emit_triton_fusion(fusion)


def _as_arguments(operands: Sequence[np.ndarray], types: Sequence[Any]) -> list[np.ndarray]:
    """Operands in a kernel's argument types: its shapes, signless integers as its dtype."""
    arguments: list[np.ndarray] = []
    for array, type_ in zip(operands, types, strict=False):
        if not isinstance(type_, TensorType | MemRefType):
            arguments.append(array)
            continue
        dtype = numpy_dtype(type_)
        converted = np.ascontiguousarray(array)
        if converted.dtype != dtype:
            converted = converted.view(dtype)
        arguments.append(converted.reshape(tuple(type_.get_shape())))
    return arguments


def compare_results(ours: Sequence[np.ndarray], theirs: Sequence[np.ndarray]) -> KernelMatch:
    """`equal`, or the first result and element whose bits differ, both values shown."""
    if len(ours) != len(theirs):
        return KernelMatch(f"XLA's kernel has {len(theirs)} results, ours {len(ours)}", False)
    for number, (mine, xla) in enumerate(zip(ours, theirs, strict=True)):
        mine, xla = np.asarray(mine), np.asarray(xla)
        if mine.size != xla.size:
            return KernelMatch(
                f"result {number} has {xla.size} elements in XLA's kernel, {mine.size} in ours",
                False,
            )
        if mine.dtype.itemsize != xla.dtype.itemsize:
            return KernelMatch(
                f"result {number} is {xla.dtype} in XLA's kernel, {mine.dtype} in ours", False
            )
        differing = np.flatnonzero(~same_bits(mine.reshape(-1), xla.reshape(-1).view(mine.dtype)))
        if differing.size:
            flat = int(differing[0])
            index = np.unravel_index(flat, mine.shape) if mine.shape else ()
            where = f"result {number} [{', '.join(str(int(i)) for i in index)}]"
            theirs_value = xla.reshape(-1).view(mine.dtype)[flat]
            return KernelMatch(
                f"{differing.size} of {mine.size} elements differ; first at {where}: "
                f"XLA's {_value(theirs_value)}, ours {_value(mine.reshape(-1)[flat])}",
                False,
            )
    return KernelMatch(EQUAL, True)


def same_bits(ours: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """Elementwise: the same bit pattern, or both NaN."""
    width = ours.dtype.itemsize
    if ours.dtype == np.bool_:
        return ours == theirs
    equal = ours.view(f"u{width}") == theirs.view(f"u{width}")
    if ours.dtype.kind in "fV" or ours.dtype.name == "bfloat16":
        with np.errstate(invalid="ignore"):
            equal |= np.isnan(ours.astype(np.float64)) & np.isnan(theirs.astype(np.float64))
    return equal


def _value(value: Any) -> str:
    """A value and, for floats, its bits: `0.5 (0x3f000000)`."""
    array = np.asarray(value)
    if array.dtype.kind == "f" or array.dtype.name == "bfloat16":
        bits = int(array.view(f"u{array.dtype.itemsize}"))
        return f"{float(array):.9g} (0x{bits:0{2 * array.dtype.itemsize}x})"
    return str(array.item())
