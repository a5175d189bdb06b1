"""Passes of xla-emit, one module per pass.

`BUILT_IN_PASSES` names each of our passes and where it lives
(`passes.<group>.<module>:<Class>`); `pyproject.toml` publishes the same
table under the entry-point group `xla_emit.passes` (a test keeps the two
equal), and a user's package adds its own passes to `xla-emit-opt` and
`xla-emit-run` by publishing under that group. `all_passes()` maps each name
to a lazy loader, as xDSL's `xdsl.transforms.get_all_passes()` does: tools
start fast and a pass module is imported only when a pipeline names it.
`built_in_passes()` is the table alone: a pipeline of our and xDSL's passes
needs no scan of the installed packages' entry points (importing
`importlib.metadata` and scanning cost about 40 ms of every start-up).
"""

import importlib
from collections.abc import Callable
from functools import cache

from xdsl.passes import ModulePass

PASS_ENTRY_POINTS = "xla_emit.passes"

BUILT_IN_PASSES: dict[str, str] = {
    "inline": "xla_emit.passes.gpu.inline:InlinePass",
    "xla-erase-dead-functions": "xla_emit.passes.gpu.erase_dead_functions:EraseDeadFunctionsPass",
    "xla-lower-xla-to-scf": "xla_emit.passes.gpu.lower_xla_to_scf:LowerXlaToScfPass",
    "xla-lower-xla-loops-to-scf": (
        "xla_emit.passes.gpu.lower_xla_loops_to_scf:LowerXlaLoopsToScfPass"
    ),
    "xla-flatten-tensors": "xla_emit.passes.gpu.flatten_tensors:FlattenTensorsPass",
    "xla-vectorize-loads-stores": (
        "xla_emit.passes.gpu.vectorize_loads_stores:VectorizeLoadsStoresPass"
    ),
    "xla-gpu-optimize-loops": "xla_emit.passes.gpu.optimize_loops:OptimizeLoopsPass",
    "xla-simplify-arith": "xla_emit.passes.gpu.simplify_arith:SimplifyArithPass",
    "xla-safe-integer-arithmetic": (
        "xla_emit.passes.gpu.safe_integer_arithmetic:SafeIntegerArithmeticPass"
    ),
    "xla-simplify-affine": "xla_emit.passes.gpu.simplify_affine:SimplifyAffinePass",
    "xla-unswitch-loops": "xla_emit.passes.gpu.unswitch_loops:UnswitchLoopsPass",
    "xla-gpu-peel-loops": "xla_emit.passes.gpu.peel_loops:PeelLoopsPass",
    "xla-respell": "xla_emit.passes.gpu.respell:RespellPass",
    "xla-lower-tensors": "xla_emit.passes.gpu.lower_tensors:LowerTensorsPass",
    "xla-lower-to-llvm": "xla_emit.passes.gpu.lower_to_llvm:LowerToLLVMPass",
    "convert-complex-to-standard": (
        "xla_emit.passes.gpu.convert_complex_to_standard:ConvertComplexToStandardPass"
    ),
    "xla-merge-pointers": "xla_emit.passes.gpu.merge_pointers:MergePointersToSameSlicePass",
    "xla-lower-to-llvm-gpu": "xla_emit.passes.gpu.lower_to_llvm_gpu:LowerToLLVMGPUPass",
    "xla-expand-float-ops": "xla_emit.passes.gpu.expand_float_ops:ExpandFloatOpsPass",
    "xla-host-inline-calls": "xla_emit.passes.host.inline_calls:HostInlineCallsPass",
    "xla-host-thread-loops": "xla_emit.passes.host.thread_loops:HostThreadLoopsPass",
    "xla-host-serialize-atomics": "xla_emit.passes.host.serialize_atomics:HostSerializeAtomicsPass",
    "xla-host-warp-reductions": "xla_emit.passes.host.warp_reductions:HostWarpReductionsPass",
    "xla-host-widen-bf16": "xla_emit.passes.host.widen_bf16:HostWidenBf16Pass",
    "xla-host-approximate-tanh": "xla_emit.passes.host.approximate_tanh:HostApproximateTanhPass",
    "xla-host-approximate-exp": "xla_emit.passes.host.approximate_exp:HostApproximateExpPass",
    "pto-verify-target": "xla_emit.passes.pto.pto_verify_target:PTOVerifyTargetPass",
    "pto-verify-driver": "xla_emit.passes.pto.pto_verify_driver:PTOVerifyDriverPass",
    "pto-verify-pipes": "xla_emit.passes.pto.pto_verify_pipes:PTOVerifyPipesPass",
    "pto-validate-vmi-ir": "xla_emit.passes.pto.pto_validate_vmi_ir:PTOValidateVMIIRPass",
    "pto-validate-vmi-layout-ir": (
        "xla_emit.passes.pto.pto_validate_vmi_layout_ir:PTOValidateVMILayoutIRPass"
    ),
    "pto-to-dps": "xla_emit.passes.pto.pto_to_dps:PTOToDPSPass",
    "pto-materialize-tmp-tiles": (
        "xla_emit.passes.pto.pto_materialize_tmp_tiles:PTOMaterializeTmpTilesPass"
    ),
    "pto-plan-memory": "xla_emit.passes.pto.pto_plan_memory:PTOPlanMemoryPass",
    "stablehlo-lower-to-arith": (
        "xla_emit.passes.triton.stablehlo_lower_to_arith:StablehloLowerToArithPass"
    ),
    "stablehlo-lower-to-triton": (
        "xla_emit.passes.triton.stablehlo_lower_to_triton:StablehloLowerToTritonPass"
    ),
    "tpu-verify-alignment": "xla_emit.passes.tpu.tpu_verify_alignment:TpuVerifyAlignmentPass",
    "tpu-infer-memref-layout": (
        "xla_emit.passes.tpu.tpu_infer_memref_layout:TpuInferMemrefLayoutPass"
    ),
    "tpu-realign-accesses": "xla_emit.passes.tpu.tpu_realign_accesses:TpuRealignAccessesPass",
}


def _loader(target: str) -> Callable[[], type[ModulePass]]:
    """Loads `module:Class` on first call."""
    module, _, name = target.partition(":")
    return lambda: getattr(importlib.import_module(module), name)


def built_in_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Our own passes, by their command-line names."""
    return {name: _loader(target) for name, target in BUILT_IN_PASSES.items()}


@cache
def _published() -> dict[str, Callable[[], type[ModulePass]]]:
    from importlib.metadata import entry_points

    return {point.name: point.load for point in entry_points(group=PASS_ENTRY_POINTS)}


def all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Every pass published under `xla_emit.passes`, ours included, by its command-line name.

    Ours win over a published pass of the same name.
    """
    return {**_published(), **built_in_passes()}
