"""gather and scatter: parsing, shape checks, and the evaluator against element loops.

The oracles here are plain Python loops over every output (or update) element,
written from XLA's operation semantics page, sharing no code with the
evaluator's vectorized index arrays.
"""

from __future__ import annotations

import itertools

import ml_dtypes
import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.hlo import evaluate_module, parse_hlo_module, print_module

BF16 = ml_dtypes.bfloat16

ADD_F32 = (
    "add {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n"
)
ADD_BF16 = (
    "addb {\n  x = bf16[] parameter(0)\n  y = bf16[] parameter(1)\n  ROOT s = bf16[] add(x, y)\n}\n"
)
OVERWRITE = "over {\n  x = f32[] parameter(0)\n  ROOT y = f32[] parameter(1)\n}\n"


def module(body: str, *computations: str) -> str:
    return "HloModule t\n\n" + "\n".join(computations) + "\nENTRY e {\n" + body + "\n}\n"


def run1(text: str, *args: np.ndarray) -> np.ndarray:
    return evaluate_module(parse_hlo_module(text), list(args))[0]


def gather_loop(
    operand: np.ndarray,
    indices: np.ndarray,
    out_shape: tuple[int, ...],
    offset_dims: tuple[int, ...],
    collapsed: tuple[int, ...],
    start_index_map: tuple[int, ...],
    index_vector_dim: int,
    slice_sizes: tuple[int, ...],
) -> np.ndarray:
    """One output element at a time, as the semantics page describes it."""
    out = np.zeros(out_shape, operand.dtype)
    batch_dims = [d for d in range(len(out_shape)) if d not in offset_dims]
    window_operand_dims = [d for d in range(operand.ndim) if d not in collapsed]
    for out_index in itertools.product(*(range(n) for n in out_shape)):
        batch = [out_index[d] for d in batch_dims]
        vector = []
        for k in range(len(start_index_map)):
            position = list(batch)
            if index_vector_dim < indices.ndim:
                position.insert(index_vector_dim, k)
            vector.append(int(indices[tuple(position)]))
        full = []
        for d in range(operand.ndim):
            start = vector[start_index_map.index(d)] if d in start_index_map else 0
            start = min(max(start, 0), operand.shape[d] - slice_sizes[d])
            offset = 0
            if d in window_operand_dims:
                offset = out_index[offset_dims[window_operand_dims.index(d)]]
            full.append(start + offset)
        out[out_index] = operand[tuple(full)]
    return out


def test_embedding_lookup_clamps_out_of_range_rows() -> None:
    text = module(
        "  t = f32[5,3] parameter(0)\n  i = s32[4] parameter(1)\n"
        "  ROOT g = f32[4,3] gather(t, i), offset_dims={1}, collapsed_slice_dims={0}, "
        "start_index_map={0}, index_vector_dim=1, slice_sizes={1,3}, indices_are_sorted=false"
    )
    table = np.arange(15, dtype=np.float32).reshape(5, 3)
    indices = np.array([2, 7, -3, 4], np.int32)
    out = run1(text, table, indices)
    # Rows 2, then 7 clamped to the last row 4, -3 clamped to row 0, then 4.
    np.testing.assert_array_equal(out, table[[2, 4, 0, 4]])


@pytest.mark.parametrize(
    ("out_shape", "offset_dims", "collapsed", "start_map", "ivd", "sizes", "index_shape"),
    [
        # 2-D start vectors picking 2x2 windows, the vector in dimension 0.
        ((2, 2, 3), (0, 1), (), (0, 1), 0, (2, 2), (2, 3)),
        # One dimension indexed, windows of 3 columns, batch in the middle of the output.
        ((2, 4, 3), (0, 2), (), (1,), 1, (2, 3), (4, 1)),
        # Both dims collapsed: a point gather with a trailing implicit index vector.
        ((3, 2), (), (0, 1), (1, 0), 2, (1, 1), (3, 2, 2)),
    ],
)
def test_gather_matches_element_loop(
    out_shape: tuple[int, ...],
    offset_dims: tuple[int, ...],
    collapsed: tuple[int, ...],
    start_map: tuple[int, ...],
    ivd: int,
    sizes: tuple[int, ...],
    index_shape: tuple[int, ...],
) -> None:
    rng = np.random.default_rng(3)
    operand = rng.standard_normal((4, 5)).astype(np.float32)
    indices = rng.integers(-2, 7, index_shape).astype(np.int32)
    ints = lambda values: ",".join(map(str, values))  # noqa: E731
    index_text = ",".join(map(str, indices.shape))
    text = module(
        f"  o = f32[4,5] parameter(0)\n  i = s32[{index_text}] parameter(1)\n"
        f"  ROOT g = f32[{ints(out_shape)}] gather(o, i), offset_dims={{{ints(offset_dims)}}}, "
        f"collapsed_slice_dims={{{ints(collapsed)}}}, start_index_map={{{ints(start_map)}}}, "
        f"index_vector_dim={ivd}, slice_sizes={{{ints(sizes)}}}"
    )
    expected = gather_loop(operand, indices, out_shape, offset_dims, collapsed, start_map, ivd,
                           sizes)  # fmt: skip
    np.testing.assert_array_equal(run1(text, operand, indices), expected)


def test_gather_with_batching_dims_pairs_each_batch_with_its_own_operand_row() -> None:
    # out[b, k] = operand[b, idx[b, k]]: the batch dimension is shared, not indexed.
    text = module(
        "  o = f32[3,6] parameter(0)\n  i = s32[3,2] parameter(1)\n"
        "  ROOT g = f32[3,2] gather(o, i), offset_dims={}, collapsed_slice_dims={1}, "
        "start_index_map={1}, index_vector_dim=2, slice_sizes={1,1}, "
        "operand_batching_dims={0}, start_indices_batching_dims={0}"
    )
    operand = np.arange(18, dtype=np.float32).reshape(3, 6)
    indices = np.array([[0, 5], [2, 2], [9, 1]], np.int32)
    expected = np.array([[0, 5], [8, 8], [17, 13]], np.float32)  # 9 clamps to column 5
    np.testing.assert_array_equal(run1(text, operand, indices), expected)


SCATTER_ROWS = (
    "  o = {t}[5,2] parameter(0)\n  i = s32[{n},1] parameter(1)\n  u = {t}[{n},2] parameter(2)\n"
    "  ROOT s = {t}[5,2] scatter(o, i, u), update_window_dims={{1}}, inserted_window_dims={{0}}, "
    "scatter_dims_to_operand_dims={{0}}, index_vector_dim=1, to_apply={f}"
)


def test_scatter_add_accumulates_duplicates_and_drops_out_of_range_rows() -> None:
    text = module(SCATTER_ROWS.format(t="f32", n=5, f="add"), ADD_F32)
    operand = np.ones((5, 2), np.float32)
    indices = np.array([[1], [3], [1], [5], [-1]], np.int32)
    updates = np.array([[10, 20], [30, 40], [1, 2], [100, 100], [7, 7]], np.float32)
    expected = np.ones((5, 2), np.float32)
    expected[1] += [11, 22]
    expected[3] += [30, 40]
    np.testing.assert_array_equal(run1(text, operand, indices, updates), expected)


def test_scatter_drops_a_window_that_would_stick_out() -> None:
    # Windows of 2 columns on a 3-column operand: start 2 would cover column 3, so it is dropped
    # whole (not clamped, not partly written).
    text = module(
        "  o = f32[2,3] parameter(0)\n  i = s32[2,2] parameter(1)\n  u = f32[2,2] parameter(2)\n"
        "  ROOT s = f32[2,3] scatter(o, i, u), update_window_dims={1}, inserted_window_dims={0}, "
        "scatter_dims_to_operand_dims={0,1}, index_vector_dim=1, to_apply=over",
        OVERWRITE,
    )
    operand = np.zeros((2, 3), np.float32)
    indices = np.array([[0, 1], [1, 2]], np.int32)
    updates = np.array([[5, 6], [8, 9]], np.float32)
    expected = np.array([[0, 5, 6], [0, 0, 0]], np.float32)
    np.testing.assert_array_equal(run1(text, operand, indices, updates), expected)


def test_bf16_scatter_add_rounds_after_every_update_in_order() -> None:
    text = module(SCATTER_ROWS.format(t="bf16", n=3, f="addb"), ADD_BF16)
    operand = np.zeros((5, 2), BF16)
    operand[0, 0] = 256
    indices = np.array([[0], [0], [0]], np.int32)
    updates = np.array([[1, 1], [1, 1], [2, 2]], BF16)
    out = run1(text, operand, indices, updates)
    # 256 + 1 = 257 rounds to 256 (bf16 has 8 significant bits), twice; then 256 + 2 = 258.
    assert float(out[0, 0]) == 258.0
    assert float(out[0, 1]) == 4.0


def test_multi_operand_scatter_applies_a_tuple_combiner() -> None:
    pair_max = (
        "pmax {\n  a = f32[] parameter(0)\n  b = s32[] parameter(1)\n"
        "  c = f32[] parameter(2)\n  d = s32[] parameter(3)\n"
        "  gt = pred[] compare(c, a), direction=GT\n  v = f32[] select(gt, c, a)\n"
        "  k = s32[] select(gt, d, b)\n  ROOT t = (f32[], s32[]) tuple(v, k)\n}\n"
    )
    text = module(
        "  v = f32[3] parameter(0)\n  k = s32[3] parameter(1)\n  i = s32[4,1] parameter(2)\n"
        "  uv = f32[4] parameter(3)\n  uk = s32[4] parameter(4)\n"
        "  ROOT s = (f32[3], s32[3]) scatter(v, k, i, uv, uk), update_window_dims={}, "
        "inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
        "to_apply=pmax",
        pair_max,
    )
    args = [
        np.zeros(3, np.float32),
        np.full(3, -1, np.int32),
        np.array([[2], [0], [2], [2]], np.int32),
        np.array([4, 1, 9, 3], np.float32),
        np.array([10, 11, 12, 13], np.int32),
    ]
    values, keys = evaluate_module(parse_hlo_module(text), args)
    np.testing.assert_array_equal(values, [1, 0, 9])
    np.testing.assert_array_equal(keys, [11, -1, 12])


def test_gather_and_scatter_print_and_parse_back() -> None:
    text = module(SCATTER_ROWS.format(t="f32", n=2, f="add") + ", indices_are_sorted=true",
                  ADD_F32)  # fmt: skip
    parsed = parse_hlo_module(text)
    scatter = parsed.entry.root
    assert scatter.indices_are_sorted and not scatter.unique_indices
    assert scatter.scatter_dimensions is not None
    assert scatter.scatter_dimensions.update_window_dims == (1,)
    again = parse_hlo_module(print_module(parsed))
    assert again.entry.root.scatter_dimensions == scatter.scatter_dimensions
    assert [c.name for c in again.entry.root.called_computations] == ["add"]


@pytest.mark.parametrize(
    ("attributes", "at", "message"),
    [
        (
            "offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, slice_sizes={1,3}",
            "g =",
            "'gather' needs the attribute 'index_vector_dim'",
        ),
        (
            "offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=x, "
            "slice_sizes={1,3}",
            "x,",
            "'index_vector_dim' must be an integer, found 'x'",
        ),
        (
            "offset_dims={1;}, collapsed_slice_dims={0}, start_index_map={0}, "
            "index_vector_dim=1, slice_sizes={1,3}",
            "{1;}",
            "'offset_dims' must be a list of integers like {0,1}, found '{1;}'",
        ),
        (
            "offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, "
            "slice_sizes={2,3}",
            "g =",
            "gather 'g': collapsed dimension 0 must have slice size 1",
        ),
        (
            "offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, "
            "slice_sizes={1,4}",
            "g =",
            "gather 'g': slice size 4 exceeds dimension size 3",
        ),
    ],
)
def test_gather_errors_are_located(attributes: str, at: str, message: str) -> None:
    root = f"  ROOT g = f32[4,3] gather(t, i), {attributes}"
    text = module("  t = f32[5,3] parameter(0)\n  i = s32[4] parameter(1)\n" + root)
    with pytest.raises(UserError) as caught:
        parse_hlo_module(text, "m.hlo")
    column = root.index(at) + 1
    assert str(caught.value).splitlines()[0] == f"m.hlo:7:{column}: error: {message}"


def test_scatter_shape_errors_name_the_instruction() -> None:
    rows = SCATTER_ROWS.format(t="f32", n=3, f="add")
    text = module(rows.replace("u = f32[3,2]", "u = f32[4,2]"), ADD_F32)
    with pytest.raises(UserError, match=r"scatter 's': the update's scatter dimensions \[4\] must "
                       r"match the indices' \[3\]"):  # fmt: skip
        parse_hlo_module(text)
