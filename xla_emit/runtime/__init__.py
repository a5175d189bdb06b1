"""Runs whole HLO modules on the interpreter: kernels per fusion, buffers, stage-by-stage checks."""

from xla_emit.runtime.backends import BACKENDS, Backend, KernelProgram, backend_of
from xla_emit.runtime.compare import DEFAULT_MAX_ULP, Comparison, compare, ulp_distance
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
    "compare",
    "compile_fusion",
    "fusion_key",
    "kernel_fusions",
    "ulp_distance",
    "wrap_as_fusion",
]
