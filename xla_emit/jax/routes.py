"""Which way XLA:GPU takes each kernel of a bundle's optimized module, and its launch.

A fusion's `backend_config` names its route: `fusion_backend_config.kind` is
`__triton` (a block-level Triton fusion: softmax, normalizations),
`__triton_gemm` / `__triton_nested_gemm_fusion` (a Triton matmul) or a cuBLAS /
cuDNN kind; a `kCustom` fusion with none is XLA's sort kernel when it holds a
sort; any other fusion with none is one of XLA's native MLIR emitters (`kLoop`,
`kInput`, ...). A dynamic-slice fusion (jax 0.10's `__custom_fusion` named
`dynamic_slice_fusion`; jax 0.12's async `fusion-start` whose slice carries a
`dynamic_slice_config`: an offset that is a function of the loop index) launches
no kernel: its thunk (`kDynamicSliceFusion`) copies at an offset that the config
gives from the loop's trip count, so XLA writes no pass log for it. Custom calls
to `__cublas$...` and `__cudnn$...` are library kernels. The launch grid comes
from XLA's thunk sequence (`bundle.thunks`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from xla_emit.hlo.ir import HloComputation, HloInstruction, HloModule
from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.jax.bundle import GPU_HLO, PASS_LOG, Bundle, Thunk, kernel_name

NATIVE = "native emitter"
TRITON = "Triton"
TRITON_GEMM = "Triton gemm"
CUBLAS = "cuBLAS"
CUDNN = "cuDNN"
SORT = "sort emitter"
CUSTOM_FUSION = "custom fusion"
DYNAMIC_SLICE = "dynamic-slice copy"

_FUSION_ROUTES = {
    "__triton": TRITON,
    "__triton_gemm": TRITON_GEMM,
    "__triton_nested_gemm_fusion": TRITON_GEMM,
    "__cublas": CUBLAS,
    "__cudnn": CUDNN,
    "__cudnn$fusion": CUDNN,
}
# Ops whose called computations run as computations, not as one kernel.
_RUNS_COMPUTATIONS = frozenset({"call", "while", "conditional"})
_KIND = re.compile(r'"kind"\s*:\s*"([^"]+)"')


@dataclass(frozen=True)
class XlaKernel:
    """One kernel of XLA's optimized module: its instruction, route and launch."""

    name: str
    kernel: str
    fusion_kind: str | None
    route: str
    thunk: Thunk | None
    files: dict[str, str]

    @property
    def native(self) -> bool:
        return self.route == NATIVE


def fusion_route(instruction: HloInstruction) -> str:
    """XLA's route for a fusion or custom call (see the module docstring)."""
    if instruction.opcode == "custom-call":
        target = instruction.custom_call_target or ""
        if target.startswith("__cublas"):
            return CUBLAS
        if target.startswith("__cudnn"):
            return CUDNN
        return f"custom call {target}"
    config = dict(instruction.extra_attributes).get("backend_config", "")
    if _is_dynamic_slice_fusion(instruction, config):
        return DYNAMIC_SLICE
    kind = _backend_kind(config)
    if kind is None and instruction.fusion_kind == "kCustom":
        ops = {i.opcode for c in instruction.called_computations for i in c.instructions}
        return SORT if "sort" in ops else CUSTOM_FUSION
    if kind is None:
        return NATIVE
    return _FUSION_ROUTES.get(kind, kind)


def _is_dynamic_slice_fusion(instruction: HloInstruction, config: str) -> bool:
    if '"dynamic_slice_fusion"' in config:
        return True
    return any(
        "dynamic_slice_config" in dict(inner.extra_attributes).get("backend_config", "")
        for computation in instruction.called_computations
        for inner in computation.instructions
        if inner.opcode in ("dynamic-slice", "dynamic-update-slice")
    )


def _backend_kind(config: str) -> str | None:
    try:
        parsed = json.loads(config)
    except ValueError:
        match = _KIND.search(config)
        return match[1] if match else None
    if not isinstance(parsed, dict):
        return None
    fusion = parsed.get("fusion_backend_config")
    if isinstance(fusion, dict) and isinstance(fusion.get("kind"), str):
        return str(fusion["kind"])
    return None


def launched_instructions(module: HloModule) -> list[HloInstruction]:
    """The fusions and custom calls XLA launches, in program order (loop bodies too)."""
    found: list[HloInstruction] = []
    pending: list[HloComputation] = [module.entry]
    while pending:
        for instruction in pending.pop(0).instructions:
            if instruction.opcode in _RUNS_COMPUTATIONS:
                pending.extend(instruction.called_computations)
            elif instruction.opcode in ("fusion", "custom-call"):
                found.append(instruction)
    return found


def xla_kernels(bundle: Bundle) -> list[XlaKernel]:
    """Every kernel of the bundle's optimized module with XLA's route, launch and files."""
    path = bundle.file(GPU_HLO)
    module = parse_hlo_module(bundle.text(GPU_HLO), str(path))
    thunks = {thunk.kernel: thunk for thunk in bundle.thunks()}
    kernels: list[XlaKernel] = []
    for instruction in launched_instructions(module):
        kernel = kernel_name(instruction.name)
        kernels.append(
            XlaKernel(
                instruction.name,
                kernel,
                instruction.fusion_kind,
                fusion_route(instruction),
                thunks.get(kernel),
                bundle.kernel_files(instruction.name),
            )
        )
    return kernels


def format_kernels(bundle: Bundle) -> str:
    """The bundle at a glance: what was compiled, then one row per kernel of XLA's."""
    manifest = bundle.manifest
    versions = manifest.get("versions", {})
    target = manifest.get("target", {})
    lines = [
        f"{manifest.get('function', '?')} ({' '.join(manifest.get('arguments', []))}) "
        f"compiled by jax {versions.get('jax', '?')} for {target.get('description', '?')}",
        f"{'#':>3}  {'kernel':<34} {'XLA route':<15} {'grid':<14} {'threads':<12} "
        f"{'shared':>6}  XLA's files",
    ]
    for number, kernel in enumerate(xla_kernels(bundle), 1):
        route = kernel.route + (f" {kernel.fusion_kind}" if kernel.native else "")
        thunk = kernel.thunk
        grid = ",".join(map(str, thunk.grid)) if thunk else "-"
        threads = ",".join(map(str, thunk.threads)) if thunk else "-"
        shared = str(thunk.shared_memory) if thunk else "-"
        files = ", ".join(sorted(kernel.files))
        lines.append(
            f"{number:>3}  {kernel.name:<34} {route:<15} {grid:<14} {threads:<12} {shared:>6}  "
            f"{files}".rstrip()
        )
    return "\n".join(lines) + "\n"


__all__ = [
    "DYNAMIC_SLICE",
    "PASS_LOG",
    "XlaKernel",
    "format_kernels",
    "fusion_route",
    "xla_kernels",
]
