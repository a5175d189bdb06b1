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

from xla_emit.hlo.fusion_configs import triton_launch_config
from xla_emit.hlo.ir import HloInstruction
from xla_emit.interpreter import CheckOptions
from xla_emit.interpreter.tile.executor import TileExecutor
from xla_emit.runtime.pipeline import AfterPass, apply_pipeline

TRITON_PIPELINE = "xla-triton-pipeline"

# (fusion, pipeline spec, hook after each pass) -> tile kernel module
TritonCompiler = Callable[[HloInstruction, str, AfterPass | None], ModuleOp]


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
    executor = TileExecutor(module, checks, num_warps=triton_launch_config(fusion).num_warps)
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
