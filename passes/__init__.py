"""Passes of xla-emit, one module per pass.

`all_passes()` maps each pass name to a lazy loader, as xDSL's
`xdsl.transforms.get_all_passes()` does: tools start fast and a pass module is
imported only when a pipeline names it. Add one entry per new pass.
"""

from collections.abc import Callable

from xdsl.passes import ModulePass


def _load(module: str, cls: str) -> Callable[[], type[ModulePass]]:
    def loader() -> type[ModulePass]:
        import importlib

        return getattr(importlib.import_module(f"passes.{module}"), cls)

    return loader


# name -> (module under passes/, class name)
_PASSES: dict[str, tuple[str, str]] = {
    "inline": ("gpu.inline", "InlinePass"),
    "xla-erase-dead-functions": ("gpu.erase_dead_functions", "EraseDeadFunctionsPass"),
    "xla-lower-xla-to-scf": ("gpu.lower_xla_to_scf", "LowerXlaToScfPass"),
    "xla-lower-xla-loops-to-scf": ("gpu.lower_xla_loops_to_scf", "LowerXlaLoopsToScfPass"),
    "xla-flatten-tensors": ("gpu.flatten_tensors", "FlattenTensorsPass"),
    "xla-vectorize-loads-stores": ("gpu.vectorize_loads_stores", "VectorizeLoadsStoresPass"),
    "xla-gpu-optimize-loops": ("gpu.optimize_loops", "OptimizeLoopsPass"),
    "xla-simplify-arith": ("gpu.simplify_arith", "SimplifyArithPass"),
    "xla-simplify-affine": ("gpu.simplify_affine", "SimplifyAffinePass"),
    "xla-unswitch-loops": ("gpu.unswitch_loops", "UnswitchLoopsPass"),
    "xla-gpu-peel-loops": ("gpu.peel_loops", "PeelLoopsPass"),
    "xla-respell": ("gpu.respell", "RespellPass"),
    "pto-verify-target": ("pto.pto_verify_target", "PTOVerifyTargetPass"),
    "pto-to-dps": ("pto.pto_to_dps", "PTOToDPSPass"),
    "pto-materialize-tmp-tiles": ("pto.pto_materialize_tmp_tiles", "PTOMaterializeTmpTilesPass"),
    "pto-plan-memory": ("pto.pto_plan_memory", "PTOPlanMemoryPass"),
    "tpu-verify-alignment": ("tpu.tpu_verify_alignment", "TpuVerifyAlignmentPass"),
    "tpu-infer-memref-layout": ("tpu.tpu_infer_memref_layout", "TpuInferMemrefLayoutPass"),
    "tpu-realign-accesses": ("tpu.tpu_realign_accesses", "TpuRealignAccessesPass"),
}


def all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Every pass of ours, by its command-line name."""
    return {name: _load(module, cls) for name, (module, cls) in _PASSES.items()}
