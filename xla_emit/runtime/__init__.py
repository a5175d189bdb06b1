"""Runs whole HLO modules on the interpreter: kernels per fusion, buffers, stage-by-stage checks.

The names below are loaded on first use (PEP 562): the tools import small
modules of this package (`runtime.sources`, `runtime.timing`) while starting,
and importing the package must not pull in the interpreter and every dialect.
The function `compare` is imported from `xla_emit.runtime.compare`: a lazy
name cannot share its name with a submodule.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from xla_emit.runtime.backends import BACKENDS, Backend, KernelProgram, backend_of
    from xla_emit.runtime.compare import DEFAULT_MAX_ULP, Comparison, ulp_distance
    from xla_emit.runtime.kernels import (
        FusionCompiler,
        Kernel,
        KernelCache,
        compile_fusion,
        fusion_key,
        wrap_as_fusion,
    )
    from xla_emit.runtime.module_runtime import KernelRun, ModuleRuntime, kernel_fusions
    from xla_emit.runtime.pipeline import DEFAULT_PIPELINE, apply_pipeline
    from xla_emit.runtime.stages import (
        PipelineCheck,
        StagedCompiler,
        StageResult,
        check_kernel_pipeline,
        check_pipeline,
    )

# public name -> the submodule defining it
_HOMES: dict[str, str] = {
    "BACKENDS": "backends",
    "Backend": "backends",
    "KernelProgram": "backends",
    "backend_of": "backends",
    "DEFAULT_MAX_ULP": "compare",
    "Comparison": "compare",
    "ulp_distance": "compare",
    "FusionCompiler": "kernels",
    "Kernel": "kernels",
    "KernelCache": "kernels",
    "compile_fusion": "kernels",
    "fusion_key": "kernels",
    "wrap_as_fusion": "kernels",
    "KernelRun": "module_runtime",
    "ModuleRuntime": "module_runtime",
    "kernel_fusions": "module_runtime",
    "DEFAULT_PIPELINE": "pipeline",
    "apply_pipeline": "pipeline",
    "PipelineCheck": "stages",
    "StagedCompiler": "stages",
    "StageResult": "stages",
    "check_kernel_pipeline": "stages",
    "check_pipeline": "stages",
}

__all__ = [
    "BACKENDS",
    "DEFAULT_MAX_ULP",
    "DEFAULT_PIPELINE",
    "Backend",
    "Comparison",
    "FusionCompiler",
    "Kernel",
    "KernelCache",
    "KernelProgram",
    "KernelRun",
    "ModuleRuntime",
    "PipelineCheck",
    "StageResult",
    "StagedCompiler",
    "apply_pipeline",
    "backend_of",
    "check_kernel_pipeline",
    "check_pipeline",
    "compile_fusion",
    "fusion_key",
    "kernel_fusions",
    "ulp_distance",
    "wrap_as_fusion",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
