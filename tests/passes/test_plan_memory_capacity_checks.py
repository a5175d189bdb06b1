"""PTOAS PlanMemory's capacity rule (`passes/analysis/plan_memory_capacity_checks.py`)
on kernels of ours; sizes worked out by hand (a 1xN f32 tile is 4N bytes, 32N bits)."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import ModuleOp
from xla_emit.passes.analysis.plan_memory_capacity_checks import check_planner_capacity
from xla_emit.passes.diagnostics import OpError

from xla_emit.ir import parse_mlir, verify_module


def _kernel(tile: str, target: str = "") -> ModuleOp:
    attrs = f' attributes {{pto.target_arch = "{target}"}}' if target else ""
    text = f"""module{attrs} {{
  func.func @k() {{
    %t = pto.alloc_tile : !pto.tile_buf<{tile}>
    return
  }}
}}
"""
    module, source_map = parse_mlir(text, "k.pto")
    verify_module(module, source_map)
    return module


def test_bias_at_the_planner_budget_passes() -> None:
    # 1x16384 f32 = 64 KB, the planner's bias budget (pto-isa's A2A3 table holds 1 KB).
    check_planner_capacity(_kernel("bias, 1x16384xf32"), "a3", "modern")


def test_bias_past_the_planner_budget_is_refused_at_its_function() -> None:
    # 1x32768 f32 = 128 KB = 1048576 bits; the budget is 65536 bytes = 524288 bits.
    with pytest.raises(OpError) as caught:
        check_planner_capacity(_kernel("bias, 1x32768xf32"), "a3", "modern")
    assert caught.value.message == (
        "bias overflow, requires 1048576 bits while 524288 bits available"
    )
    assert caught.value.op.name == "func.func"


def test_legacy_planner_words_it_otherwise() -> None:
    with pytest.raises(OpError, match=r"524288 bits avaliable!$"):
        check_planner_capacity(_kernel("bias, 1x32768xf32"), None)


def test_vec_budget_follows_the_target() -> None:
    # 1x53248 f32 = 208 KB: past A3's 192 KB of UB, within A5's 248 KB.
    tile = "vec, 1x53248xf32"
    with pytest.raises(OpError, match=r"^vec overflow, requires 1703936 bits while 1572864"):
        check_planner_capacity(_kernel(tile), "a3")
    check_planner_capacity(_kernel(tile), "a5")
    check_planner_capacity(_kernel(tile, target="a5"), "a3")
