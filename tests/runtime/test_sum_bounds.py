"""The reordered-sum bound follows the kernel's addition tree: it holds, and it is tight.

The tree comes from the emitters' tiling; the bound is checked against numbers
worked by hand, against bf16 sums the real kernels compute (it must hold, and
be within a small factor of the actual error, or it would let real bugs by),
and against a kernel that drops an element.
"""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from xla_emit.api import parse_hlo
from xla_emit.emitters.addition_order import IN_ORDER, AdditionTree
from xla_emit.emitters.column_reduction import ColumnReductionTiling
from xla_emit.emitters.hero import ReductionGroups
from xla_emit.emitters.reduction_parts import ReductionTiling
from xla_emit.emitters.row_reduction import RowReductionTiling
from xla_emit.indexing.indexing_map import IndexingMap
from xla_emit.indexing.interval import Interval
from xla_emit.runtime.expectations import OutputKind, output_expectations
from xla_emit.runtime.kernels import KernelCache
from xla_emit.runtime.module_runtime import ModuleRuntime
from xla_emit.runtime.sum_bounds import node_magnitudes, tree_error_bound
from xla_emit.tools.run import main

BF16_U = 2.0**-8


def sum_module(shape: tuple[int, ...], dims: tuple[int, ...], ptype: str = "bf16") -> str:
    kept = [size for d, size in enumerate(shape) if d not in dims]
    text_shape = ",".join(map(str, shape))
    return f"""HloModule sum

%add (a: {ptype}[], b: {ptype}[]) -> {ptype}[] {{
  %a = {ptype}[] parameter(0)
  %b = {ptype}[] parameter(1)
  ROOT %s = {ptype}[] add(%a, %b)
}}

ENTRY %main (x: {ptype}[{text_shape}]) -> {ptype}[{",".join(map(str, kept))}] {{
  %x = {ptype}[{text_shape}] parameter(0)
  %zero = {ptype}[] constant(0)
  ROOT %r = {ptype}[{",".join(map(str, kept))}] reduce(%x, %zero), \
dimensions={{{",".join(map(str, dims))}}}, to_apply=%add
}}
"""


# -- hand-worked ----------------------------------------------------------------------


def test_a_loop_in_order_adds_its_prefix_sums() -> None:
    # 0+1, +2, +3, +4: nodes 1, 3, 6, 10; four additions deep.
    values = np.array([[1.0, 2.0, 3.0, 4.0]])
    assert node_magnitudes(values, 0.0, IN_ORDER)[0] == 20.0
    u = 2.0**-24
    assert tree_error_bound(values, 0.0, IN_ORDER, u)[0] == pytest.approx(u * (1 + u) ** 3 * 20)


def test_a_warp_shuffle_adds_each_element_depth_times() -> None:
    # 64 ones over 32 threads: each thread adds 2 (nodes 1, 2), then the butterfly's
    # 16 + 8 + 4 + 2 + 1 nodes of 4, 8, 16, 32, 64. With one sign that is
    # sum_i depth_i |x_i| = 32 * 7 + 32 * 6 = 416.
    tree = AdditionTree(threads=32, shuffle_rounds=1)
    assert tree.depth(64) == 7
    assert node_magnitudes(np.ones((1, 64)), 0.0, tree)[0] == 32 * 3 + 5 * 64 == 416


def test_cancelling_partial_sums_shrink_the_bound() -> None:
    # 32 threads fold one element each (nodes of 1); the butterfly first adds thread t to
    # thread t + 16, +1 to -1, and every node from there on is 0.
    values = np.array([[1.0] * 16 + [-1.0] * 16])
    tree = AdditionTree(threads=32, shuffle_rounds=1)
    assert node_magnitudes(values, 0.0, tree)[0] == 32
    # With one sign: the classic depth * sum|x_i| = 6 * 32.
    assert node_magnitudes(np.abs(values), 0.0, tree)[0] == 6 * 32


def test_bf16_stagnation_is_within_the_bound() -> None:
    # 256 + 1 rounds to 256 (a tie, to even), and so does the next + 1: the computed
    # sum is 256, the exact 258. Nodes 256, 257, 258: bound u (1+u)^2 771 = 3.03 >= 2.
    values = np.array([[256.0, 1.0, 1.0]])
    computed = np.zeros((), ml_dtypes.bfloat16)
    for value in values[0]:
        computed = (computed + ml_dtypes.bfloat16(value)).astype(ml_dtypes.bfloat16)
    assert float(computed) == 256.0
    bound = tree_error_bound(values, 0.0, IN_ORDER, BF16_U)[0]
    assert bound == pytest.approx(BF16_U * (1 + BF16_U) ** 2 * 771)
    assert 2.0 <= bound < 3.1


def test_the_tree_is_the_tiling_of_the_emitter() -> None:
    # Rows: min(1024, roundup(R / 16, 32)) threads, a second shuffle over several warps.
    row = RowReductionTiling(ReductionGroups(True, (1, 8, 4096)), (8, 4096), (8,))
    assert row.addition_tree == AdditionTree(threads=256, shuffle_rounds=2)
    assert row.addition_tree.depth(4096) == 16 + 10
    narrow = RowReductionTiling(ReductionGroups(True, (1, 8, 512)), (8, 512), (8,))
    assert narrow.addition_tree == AdditionTree(threads=32, shuffle_rounds=1)
    # Columns: every 32nd row per thread, one shuffle over the 32 partials.
    column = ColumnReductionTiling(ReductionGroups(False, (1, 1000, 64)), (1000, 64), (64,))
    assert column.addition_tree == AdditionTree(threads=32, shuffle_rounds=1)
    assert column.addition_tree.depth(1000) == 32 + 5


def test_a_bf16_sum_added_in_order_must_be_bit_exact() -> None:
    # Rows of 12 (too short for the reduction emitter, and no divisor of a warp): the loop
    # emitter adds in order, as the evaluator does.
    module = parse_hlo(sum_module((64, 12), (1,)))
    (expectation,) = output_expectations(module, [np.ones((64, 12), ml_dtypes.bfloat16)])
    assert expectation.kind is OutputKind.EXACT
    # In f32 the evaluator adds pairwise (numpy): a reordered sum, one addition per element.
    module = parse_hlo(sum_module((64, 12), (1,), "f32"))
    (expectation,) = output_expectations(module, [np.ones((64, 12), np.float32)])
    assert expectation.kind is OutputKind.REORDERED_SUM
    assert expectation.reordered is not None and expectation.reordered.depth == 12
    # Rows of 8 divide a warp: the reduction emitter, 1 + 5 additions deep.
    module = parse_hlo(sum_module((64, 8), (1,)))
    (expectation,) = output_expectations(module, [np.ones((64, 8), ml_dtypes.bfloat16)])
    assert expectation.reordered is not None and expectation.reordered.depth == 6


def test_a_sum_converted_to_integers_keeps_the_ulp_tolerance() -> None:
    text = (
        sum_module((64, 40), (1,), "f32")
        .replace("-> f32[64] {", "-> s32[64] {")
        .replace("ROOT %r = f32[64]", "%r = f32[64]")
    )
    text = text.rstrip().removesuffix("}") + "  ROOT %i = s32[64] convert(%r)\n}\n"
    module = parse_hlo(text)
    (expectation,) = output_expectations(module, [np.ones((64, 40), np.float32)])
    assert expectation.kind is OutputKind.APPROXIMATE


# -- the real kernels: the bound holds and is tight -------------------------------------


def _distance_and_bound(
    shape: tuple[int, ...], dims: tuple[int, ...], x: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    module = parse_hlo(sum_module(shape, dims))
    inputs = [x.astype(ml_dtypes.bfloat16)]
    (expectation,) = output_expectations(module, inputs)
    assert expectation.kind is OutputKind.REORDERED_SUM and expectation.reordered is not None
    (actual,) = ModuleRuntime(module, KernelCache()).run(inputs)
    distance = np.abs(actual.astype(np.float64) - expectation.reordered.exact)
    return distance, expectation.reordered.bound()


# (shape, reduced dims, how many times the largest bound may exceed the largest error).
# Rows of up to 8192 fold 16 elements a thread: within 20x. Longer runs per thread
# (32 for rows of 32768, 128 and 1024 for the columns) widen the gap: the bound counts
# every rounding at its worst, while real roundings partly cancel, more so the more of
# them there are. The columns are 48 wide: 32 (a warp's width divides it) would take XLA's
# small-column tiling, whose bf16 runs of 2048 lose most of the sum on the GPU as well.
SHAPES = [
    pytest.param((16, 4096), (1,), 20, id="rows-4096"),
    pytest.param((8, 8192), (1,), 20, id="rows-8192"),
    pytest.param((4, 32768), (1,), 50, id="rows-32768"),
    pytest.param((4096, 64), (0,), 100, id="columns-4096"),
    pytest.param((32768, 48), (0,), 300, id="columns-32768"),
]


@pytest.mark.parametrize(("shape", "dims", "factor"), SHAPES)
def test_positive_bf16_sums_are_within_the_bound_and_near_it(
    shape: tuple[int, ...], dims: tuple[int, ...], factor: float
) -> None:
    x = np.random.default_rng(1).random(shape)
    distance, bound = _distance_and_bound(shape, dims, x)
    assert (distance <= bound).all()
    assert bound.max() <= factor * distance.max()


MIXED_SHAPES = [
    pytest.param((16, 4096), (1,), 100, id="rows-4096"),
    pytest.param((4096, 64), (0,), 150, id="columns-4096"),
]


@pytest.mark.parametrize(("shape", "dims", "factor"), MIXED_SHAPES)
def test_mixed_sign_bf16_sums_are_within_the_bound(
    shape: tuple[int, ...], dims: tuple[int, ...], factor: float
) -> None:
    # Where signs mix, the exact partial sums cancel and the bound with them, but the
    # roundings cancel more, which no rigorous bound can count on: 50-100 times the error
    # here (the classic depth * u * sum|x_i| would be several hundred times).
    x = np.random.default_rng(2).standard_normal(shape)
    distance, bound = _distance_and_bound(shape, dims, x)
    assert (distance <= bound).all()
    assert bound.max() <= factor * distance.max()


# -- a wrong kernel is caught --------------------------------------------------------


def read_map_without_last_vector(self: RowReductionTiling) -> IndexingMap:
    """A broken row reduction's loop map: each row's last vector of elements is not read."""
    last = self.reduced_positions - 1
    read_map = ReductionTiling.read_map(self)
    return read_map.with_constraint(self.loop_step + self.lane_in_row, Interval(0, last - 1))


def test_a_row_sum_that_drops_its_last_element_is_caught(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Break the emitter: each row skips its last vector of 4 elements. The last element
    of each bf16 row of 4096 is 1000 (the rest 1): the kernel's sum of 4092 ones is 4096 in bf16
    where the exact one is 5095, beyond the bound of 374 for this tree (16 + 10 additions
    deep). The reference, adding in order in bf16, stalls at 256 before the 1000: 1256."""
    x = np.ones((2, 4096), ml_dtypes.bfloat16)
    x[:, -1] = 1000
    inputs = tmp_path / "in.npz"
    np.savez(inputs, arg0=x.view(np.uint16))
    hlo = tmp_path / "sum.hlo"
    hlo.write_text(sum_module((2, 4096), (1,)))
    assert main([str(hlo), "--inputs", str(inputs), "--check"]) == 0
    assert "out0: within the reordered-sum bound (off the exact sum by " in capsys.readouterr().err
    monkeypatch.setattr(RowReductionTiling, "read_map", read_map_without_last_vector)
    assert main([str(hlo), "--inputs", str(inputs), "--check"]) == 1
    err = capsys.readouterr().err
    assert (
        "emitted: DIFFERS (out0: outside the reordered-sum bound (off the exact sum by 999 "
        "where the kernel's order allows 374: 4096 bf16 elements, at most 26 additions deep; "
        "the reference is off by up to 3.84e+03), first at [0]: expected 1256.0, got 4096.0, "
        "exact sum 5095)"
    ) in err
    assert "error: outputs differ from the reference evaluator after pass 'emitted'" in err
