"""The Triton route of the runtime: `__triton` fusions compiled and run as tile programs.

XLA:GPU hands softmax, layernorm and their gradients to Triton as `kind=kCustom`
fusions whose `fusion_backend_config` kind is `__triton`. Such a fusion is
emitted by `emitters.triton` (tiled by its `block_level_fusion_config`), runs
`xla-triton-pipeline`, and is launched once for all its programs in the tile
executor, with the config's `num_warps` (Triton's reduction order depends on it).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp

from xla_emit.diagnostics import UserError
from xla_emit.hlo.fusion_configs import (
    TRITON,
    TRITON_KINDS,
    block_level_config,
    fusion_backend_kind,
)
from xla_emit.hlo.ir import HloInstruction
from xla_emit.interpreter import CheckOptions
from xla_emit.interpreter.tile.executor import TileExecutor
from xla_emit.runtime.pipeline import AfterPass, apply_pipeline

TRITON_PIPELINE = "xla-triton-pipeline"

# (fusion, pipeline spec, hook after each pass) -> tile kernel module
TritonCompiler = Callable[[HloInstruction, str, AfterPass | None], ModuleOp]


def runs_as_triton(instruction: HloInstruction) -> bool:
    """A fusion XLA emits with Triton's block-level code generation that our Triton emitter
    covers: normalizations, and gemm fusions of 16-bit floats. Other gemm fusions run op by
    op, their dot a library call (an f32 dot on the Triton route multiplies TF32 values, as
    XLA:GPU does at default precision, and `--check` has no bound for that yet); a
    normalization with an op the emitter lacks runs as one kernel of the emitters."""
    kind = fusion_backend_kind(instruction)
    if kind not in TRITON_KINDS:
        return False
    if kind != TRITON and not _sixteen_bit_dots(instruction):
        return False
    return _emits(instruction)


def _sixteen_bit_dots(fusion: HloInstruction) -> bool:
    dots = [i for i in fusion.called_computations[0].instructions if i.opcode == "dot"]
    return bool(dots) and all(
        operand.array_shape.element_type.dtype.itemsize == 2
        and operand.array_shape.element_type.is_float
        for dot in dots
        for operand in dot.operands
    )


def _emits(fusion: HloInstruction) -> bool:
    """Whether the Triton emitter covers `fusion` (remembered per fusion instruction)."""
    from xla_emit.emitters.triton.emitter import emit_triton_fusion

    known = _EMITTABLE.get(id(fusion))
    if known is None or known[0] is not fusion:
        try:
            emit_triton_fusion(fusion)
            known = (fusion, True)
        except UserError:
            known = (fusion, False)
        _EMITTABLE[id(fusion)] = known
    return known[1]


_EMITTABLE: dict[int, tuple[HloInstruction, bool]] = {}


def compile_triton_fusion(
    fusion: HloInstruction, pipeline: str = TRITON_PIPELINE, after_pass: AfterPass | None = None
) -> ModuleOp:
    """Emit `fusion` as an `xtile` kernel and run `pipeline` over it."""
    from xla_emit.emitters.triton.emitter import emit_triton_fusion

    kernel = emit_triton_fusion(fusion)
    apply_pipeline(kernel, pipeline, after_pass=after_pass)
    return kernel


@dataclass
class TritonKernel:
    """A compiled tile kernel, the executor that runs it, and its launch size."""

    module: ModuleOp
    executor: TileExecutor
    programs: int
    compile_seconds: float


def make_triton_kernel(
    fusion: HloInstruction, module: ModuleOp, checks: CheckOptions, compile_seconds: float
) -> TritonKernel:
    executor = TileExecutor(module, checks, num_warps=block_level_config(fusion).num_warps)
    programs = executor.num_programs(executor.entry_function())
    return TritonKernel(module, executor, programs, compile_seconds)


def build_triton_kernel(
    fusion: HloInstruction,
    pipeline: str,
    checks: CheckOptions,
    compiler: TritonCompiler,
    after_pass: AfterPass | None = None,
) -> TritonKernel:
    started = time.perf_counter()
    module = compiler(fusion, pipeline, after_pass)
    return make_triton_kernel(fusion, module, checks, time.perf_counter() - started)
