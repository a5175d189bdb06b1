from __future__ import annotations

import numpy as np
import pytest

from xla_emit.emitters.addition_order import AdditionTree
from xla_emit.interpreter.tile.reduce_order import (
    BlockedLayout,
    addition_tree,
    blocked_layout,
    combine_count,
    reduce_in_triton_order,
)


def _symbols(count: int) -> np.ndarray:
    return np.array([[f"x{i}" for i in range(count)]], dtype=object)  # one pid


def _spelled(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A combiner that writes down the tree it was asked to build."""
    return np.frompyfunc(lambda x, y: f"({x}+{y})", 2, 1)(a, b)


def test_threads_then_lanes_in_a_butterfly_worked_by_hand() -> None:
    layout = BlockedLayout(size_per_thread=(2,), threads_per_warp=(4,), warps=(1,))
    (result,) = reduce_in_triton_order(_symbols(8), 0, _spelled, layout)
    assert result == "(((x0+x1)+(x4+x5))+((x2+x3)+(x6+x7)))"


def test_a_thread_folds_its_runs_in_register_order() -> None:
    layout = BlockedLayout(size_per_thread=(2,), threads_per_warp=(4,), warps=(1,))
    (result,) = reduce_in_triton_order(_symbols(16), 0, _spelled, layout)
    lane0 = "(((x0+x1)+x8)+x9)"
    lane2 = "(((x4+x5)+x12)+x13)"
    assert result.startswith(f"(({lane0}+{lane2})+")


def test_warps_meet_after_the_lanes() -> None:
    layout = BlockedLayout(size_per_thread=(1,), threads_per_warp=(2,), warps=(2,))
    (result,) = reduce_in_triton_order(_symbols(4), 0, _spelled, layout)
    # warp w holds x[2w], x[2w+1]: each warp's lanes meet first.
    assert result == "((x0+x1)+(x2+x3))"


def _threads_by_hand(row: list[float], layout: BlockedLayout) -> np.float32:
    """Brute force: each thread, lane and warp written out one by one in float32."""
    per_thread, lanes, warps = (
        layout.size_per_thread[-1],
        layout.threads_per_warp[-1],
        layout.warps[-1],
    )
    covered = per_thread * lanes * warps
    partial = {}
    for warp in range(warps):
        for lane in range(lanes):
            held = [
                run * covered + (warp * lanes + lane) * per_thread + p
                for run in range(len(row) // covered)
                for p in range(per_thread)
            ]
            acc = np.float32(row[held[0]])
            for i in held[1:]:
                acc = np.float32(acc + np.float32(row[i]))
            partial[(warp, lane)] = acc
    for group, count in (("lane", lanes), ("warp", warps)):
        step = count // 2
        while step:
            partial = {k: np.float32(partial[k] + partial[_flip(k, group, step)]) for k in partial}
            step //= 2
        partial = {k: v for k, v in partial.items() if (k[1] if group == "lane" else k[0]) == 0}
    return partial[(0, 0)]


def _flip(key: tuple[int, int], group: str, step: int) -> tuple[int, int]:
    warp, lane = key
    return (warp, lane ^ step) if group == "lane" else (warp ^ step, lane)


@pytest.mark.parametrize(("length", "warps"), [(64, 1), (256, 4), (512, 2), (16, 1)])
def test_f32_sums_match_threads_written_out(length: int, warps: int) -> None:
    rng = np.random.default_rng(length)
    values = rng.standard_normal((3, length)).astype(np.float32) * 1e3
    layout = blocked_layout((length,), warps, 4)
    got = reduce_in_triton_order(values, 0, np.add, layout)
    for pid in range(3):
        expected = _threads_by_hand(values[pid].tolist(), layout)
        assert got[pid].tobytes() == expected.tobytes()


@pytest.mark.parametrize(
    ("shape", "warps", "layout"),
    [
        # The reduce operands' layouts in XLA's TTGIR (jax 0.12 dumps, layernorm backward
        # and softmax, f32).
        ((64, 256), 8, BlockedLayout((1, 4), (1, 32), (4, 2))),
        ((64, 8), 8, BlockedLayout((1, 2), (8, 4), (8, 1))),
        ((1, 512), 2, BlockedLayout((1, 1), (1, 32), (1, 2))),
        # A tile smaller than a warp: no lane holds repeated data.
        ((1, 16), 1, BlockedLayout((1, 1), (1, 16), (1, 1))),
    ],
)
def test_blocked_layout_as_in_xla_dumps(shape, warps, layout) -> None:
    assert blocked_layout(shape, warps, 4) == layout


def test_reduce_over_a_leading_axis_of_a_2d_tile() -> None:
    values = np.arange(2 * 4 * 3, dtype=np.float32).reshape(2, 4, 3)
    layout = BlockedLayout((1, 1), (4, 1), (1, 1))
    got = reduce_in_triton_order(values, 0, np.add, layout)
    assert np.array_equal(got, values.sum(axis=1))


def test_the_addition_tree_check_bounds_sums_by() -> None:
    # XLA's column sum of f32[64,8] tiles over 8 warps: 8 lanes x 8 warps down the column.
    layout = BlockedLayout((1, 2), (8, 4), (8, 1))
    assert addition_tree(layout, 0) == AdditionTree(threads=64, shuffle_rounds=2)
    assert addition_tree(layout, 1) == AdditionTree(threads=4, shuffle_rounds=1)


@pytest.mark.parametrize(
    "layout",
    [
        BlockedLayout(size_per_thread=(2,), threads_per_warp=(4,), warps=(1,)),
        BlockedLayout(size_per_thread=(1,), threads_per_warp=(32,), warps=(2,)),
        BlockedLayout(size_per_thread=(4,), threads_per_warp=(8,), warps=(4,)),
    ],
)
def test_combine_count_is_how_often_the_reduce_combines(layout: BlockedLayout) -> None:
    calls = []

    def counting(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        calls.append(1)
        return a + b

    extent = 512
    reduce_in_triton_order(np.ones((1, extent)), 0, counting, layout)
    assert combine_count(extent, 0, layout) == len(calls)
