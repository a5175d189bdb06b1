"""The Python API: compile HLO, run kernels and modules, check a pipeline stage by stage.

    import numpy as np, ml_dtypes
    from xla_emit import api

    hlo = open("examples/gelu.hlo").read()
    x = np.random.default_rng(0).standard_normal((6, 512, 4096)).astype(ml_dtypes.bfloat16)
    kernels = api.compile_hlo(hlo)                 # every fusion through xla-gpu-pipeline
    (y,) = api.run_hlo(hlo, [x])                   # the whole module on the interpreter
    (r,) = api.run_reference(hlo, [x])             # the numpy HLO evaluator
    print(api.check_hlo_pipeline(hlo, [x]).report())  # every stage against the reference

Arrays are numpy arrays of the element type (bf16 as `ml_dtypes.bfloat16`).
Errors in the input (syntax, verification, out-of-bounds accesses, races) raise
`xla_emit.diagnostics.UserError`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from xla_emit.hlo.evaluator import evaluate_module
from xla_emit.hlo.ir import HloModule
from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.interpreter import CheckOptions, Executor, LaunchGrid
from xla_emit.ir import SourceMap, parse_mlir, verify_module
from xla_emit.runtime.compare import DEFAULT_MAX_ULP
from xla_emit.runtime.kernels import KernelCache
from xla_emit.runtime.module_runtime import ModuleRuntime
from xla_emit.runtime.pipeline import DEFAULT_PIPELINE, apply_pipeline
from xla_emit.runtime.stages import PipelineCheck, check_kernel_pipeline, check_pipeline

Inputs = Sequence[np.ndarray | np.generic | int | float]

__all__ = [
    "check_hlo_pipeline",
    "check_kernel_pipeline",
    "compile_hlo",
    "parse_hlo",
    "parse_kernel",
    "run_hlo",
    "run_kernel",
    "run_reference",
]


def parse_hlo(text: str, file: str = "<hlo>") -> HloModule:
    """Parse HLO text (`UserError` with a location on bad syntax)."""
    return parse_hlo_module(text, file)


def parse_kernel(text: str, file: str = "<mlir>") -> ModuleOp:
    """Parse and verify MLIR text."""
    module, source_map = parse_mlir(text, file)
    verify_module(module, source_map)
    return module


def compile_hlo(text: str, pipeline: str = DEFAULT_PIPELINE, file: str = "<hlo>") -> ModuleOp:
    """Every fusion of an HLO module emitted as a kernel and run through `pipeline`.

    An empty `pipeline` runs no passes. The module holds today's `xla` ops;
    `xla-respell{spelling=xla_gpu}` spells it as the seed does for printing.
    """
    from xla_emit.emitters import emit_hlo_module

    module = emit_hlo_module(text, file)
    apply_pipeline(module, pipeline)
    return module


def run_kernel(
    module: ModuleOp | str,
    inputs: Inputs,
    entry: str | None = None,
    checks: CheckOptions | None = None,
    grid: LaunchGrid | None = None,
) -> list[np.ndarray]:
    """Run one kernel function (MLIR text or a module) of any pipeline stage.

    Output arguments (one per result, at the end) may be left out. The grid
    comes from the `xla.range` of the thread/block ids unless given.
    """
    locator: SourceMap | None = None
    if isinstance(module, str):
        module, locator = parse_mlir(module, "<mlir>")
    return Executor(module, checks=checks, locator=locator).run(inputs, entry=entry, grid=grid)


def run_hlo(
    text: str,
    inputs: Sequence[np.ndarray],
    pipeline: str = DEFAULT_PIPELINE,
    checks: CheckOptions | None = None,
    file: str = "<hlo>",
) -> list[np.ndarray]:
    """Run a whole HLO module: each fusion compiled through `pipeline` and interpreted."""
    module = parse_hlo_module(text, file)
    cache = KernelCache(pipeline, checks=checks if checks is not None else CheckOptions.fast())
    return ModuleRuntime(module, cache).run(inputs)


def run_reference(text: str, inputs: Sequence[np.ndarray], file: str = "<hlo>") -> list[np.ndarray]:
    """Run an HLO module in the numpy reference evaluator."""
    return evaluate_module(parse_hlo_module(text, file), inputs)


def check_hlo_pipeline(
    text: str,
    inputs: Sequence[np.ndarray],
    pipeline: str = DEFAULT_PIPELINE,
    checks: CheckOptions | None = None,
    max_ulp: int = DEFAULT_MAX_ULP,
    file: str = "<hlo>",
) -> PipelineCheck:
    """Run the module after every pass of `pipeline` and compare with the reference evaluator."""
    module = parse_hlo_module(text, file)
    expected = evaluate_module(module, inputs)
    return check_pipeline(module, inputs, expected, pipeline, checks, max_ulp)
