"""Brute-force checks of the transpose and reduction emitters' thread maps.

Each map is evaluated with numpy over its whole (thread, block, symbol)
domain; the properties are XLA's correctness tool's: every input element is
read exactly once and every output element written exactly once, and the
shared-memory round trip puts each input element at its transposed position.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from xla_emit.emitters.hero import ReductionGroups
from xla_emit.emitters.reduction import tiling_of_groups
from xla_emit.emitters.transpose import TransposeTiling
from xla_emit.indexing.indexing_map import IndexingMap


def domain_points(indexing_map: IndexingMap) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """All (dims, symbols) points of the map's domain, as flat int64 arrays."""
    variables = indexing_map.dim_vars + indexing_map.range_vars
    axes = [np.arange(v.bounds.lower, v.bounds.upper + 1, dtype=np.int64) for v in variables]
    flat = [g.ravel() for g in np.meshgrid(*axes, indexing="ij")]
    inside = np.broadcast_to(
        np.asarray(
            indexing_map.is_in_domain(flat[: indexing_map.num_dims], flat[indexing_map.num_dims :])
        ),
        flat[0].shape,
    )
    flat = [f[inside] for f in flat]
    return flat[: indexing_map.num_dims], flat[indexing_map.num_dims :]


def evaluate(
    indexing_map: IndexingMap, dims: list[np.ndarray], symbols: list[np.ndarray]
) -> list[np.ndarray]:
    return [
        np.broadcast_to(np.asarray(r, dtype=np.int64), dims[0].shape)
        for r in indexing_map.evaluate(dims, symbols)
    ]


def counts(indices: list[np.ndarray], shape: tuple[int, ...]) -> np.ndarray:
    for index, size in zip(indices, shape, strict=True):
        assert index.min(initial=0) >= 0 and index.max(initial=0) < size, "index out of bounds"
    result = np.zeros(shape, dtype=np.int64)
    np.add.at(result, tuple(indices), 1)
    return result


TRANSPOSES = [
    ((20, 160, 170), (2, 1, 0)),
    ((33, 70), (1, 0)),
    ((5, 40, 17), (0, 2, 1)),
    ((3, 40, 2, 50), (0, 3, 2, 1)),
    ((50, 2, 3, 40), (3, 1, 2, 0)),
]


@pytest.mark.parametrize(("shape", "permutation"), TRANSPOSES)
def test_transpose_reads_every_input_once_and_writes_every_output_once(
    shape: tuple[int, ...], permutation: tuple[int, ...]
) -> None:
    tiling = TransposeTiling(shape, permutation)
    rank = len(shape)
    read_dims, read_symbols = domain_points(tiling.read_map())
    read = evaluate(tiling.read_map(), read_dims, read_symbols)
    assert np.all(counts(read[:rank], shape) == 1)
    write_dims, write_symbols = domain_points(tiling.write_map())
    written = evaluate(tiling.write_map(), write_dims, write_symbols)
    assert np.all(counts(written, tiling.output_shape) == 1)


@pytest.mark.parametrize(("shape", "permutation"), TRANSPOSES)
def test_transpose_shared_tile_round_trip(
    shape: tuple[int, ...], permutation: tuple[int, ...]
) -> None:
    """Simulate the two loops block by block: the output gets input[perm^-1(o)]."""
    tiling = TransposeTiling(shape, permutation)
    rank = len(shape)
    source = np.arange(int(np.prod(shape))).reshape(shape)
    output = np.full(tiling.output_shape, -1)
    read_dims, read_symbols = domain_points(tiling.read_map())
    read = evaluate(tiling.read_map(), read_dims, read_symbols)
    write_dims, write_symbols = domain_points(tiling.write_map())
    written = evaluate(tiling.write_map(), write_dims, write_symbols)
    shared_index = evaluate(tiling.shared_read_map(), write_dims, write_symbols)
    assert all(
        int(s.max()) < size for s, size in zip(shared_index, tiling.shared_shape, strict=True)
    )
    for block in range(tiling.launch.blocks_x):
        shared = np.full(tiling.shared_shape, -1)
        in_block = read_dims[1] == block
        shared[tuple(i[in_block] for i in read[rank:])] = source[
            tuple(i[in_block] for i in read[:rank])
        ]
        out_block = write_dims[1] == block
        output[tuple(i[out_block] for i in written)] = shared[
            tuple(i[out_block] for i in shared_index)
        ]
    assert np.array_equal(output, np.transpose(source, permutation))


def test_transpose_seed_launch() -> None:
    tiling = TransposeTiling((20, 160, 170), (2, 1, 0))
    assert (tiling.launch.threads_x, tiling.launch.blocks_x) == (128, 960)
    assert tiling.shared_shape == (32, 1, 33)


# (groups, input shape, output shape, the narrowest input's bits, the vector size that gives)
REDUCTIONS = [
    (ReductionGroups(True, (1, 6, 10)), (6, 10), (6,), 32, 1),
    (ReductionGroups(True, (1, 5, 1000)), (5, 1000), (5,), 64, 1),
    (ReductionGroups(True, (1, 5, 1000)), (5, 1000), (5,), 32, 2),
    # 1024 threads per row, looping
    (ReductionGroups(True, (1, 3, 40000)), (3, 40000), (3,), 16, 4),
    (ReductionGroups(True, (1, 1, 700)), (700,), (), 32, 2),
    (ReductionGroups(False, (1, 100, 70)), (100, 70), (70,), 32, 2),
    (ReductionGroups(False, (1, 100, 70)), (100, 70), (70,), 16, 2),
    (ReductionGroups(False, (2, 40, 132)), (2, 40, 132), (2, 132), 16, 4),
    (ReductionGroups(False, (3, 40, 33)), (3, 40, 33), (3, 33), 32, 1),
]
REDUCTION_PARAMS = ("groups", "input_shape", "output_shape", "bits", "vector_size")


@pytest.mark.parametrize(REDUCTION_PARAMS, REDUCTIONS)
def test_reduction_reads_every_input_once_into_its_row(
    groups: ReductionGroups,
    input_shape: tuple[int, ...],
    output_shape: tuple[int, ...],
    bits: int,
    vector_size: int,
) -> None:
    tiling = tiling_of_groups(groups, input_shape, output_shape, bits)
    assert tiling.vector_size == vector_size
    dims, symbols = domain_points(tiling.read_map())
    # The map reads the input's contiguous components, its row-major bitcast.
    components = evaluate(tiling.read_map(), dims, symbols)
    assert np.all(counts(components, tiling.components_shape) == 1)
    linear = np.ravel_multi_index(tuple(components), tiling.components_shape)
    read = list(np.unravel_index(linear, input_shape))
    assert np.all(counts(read, input_shape) == 1)
    # The bitcast map inside the loop agrees.
    bitcast = tiling.bitcast_map(input_shape)
    assert [list(r) for r in evaluate(bitcast, components, [])] == [list(r) for r in read]
    # The partial result a thread accumulates belongs to the output element of what it reads.
    kept = np.asarray(tiling.kept_index().evaluate(dims, symbols), dtype=np.int64)
    if groups.is_row:
        expected = linear // groups.components[2]
    else:
        _, reduced, minor = groups.components
        expected = (linear // (reduced * minor)) * minor + linear % minor
    assert np.array_equal(np.broadcast_to(kept, expected.shape), expected)


@pytest.mark.parametrize(REDUCTION_PARAMS, REDUCTIONS)
def test_reduction_writes_every_output_once(
    groups: ReductionGroups,
    input_shape: tuple[int, ...],
    output_shape: tuple[int, ...],
    bits: int,
    vector_size: int,
) -> None:
    """The writing lanes (lane 0 of each row, within bounds) cover each output element once:
    one element a row for rows, one per vector element for columns (the write's symbol)."""
    tiling = tiling_of_groups(groups, input_shape, output_shape, bits)
    launch = tiling.launch
    elements = 1 if groups.is_row else vector_size
    assert len(tiling.write_symbols) == (0 if groups.is_row else 1)
    threads, blocks, symbol = np.meshgrid(
        np.arange(launch.threads_x), np.arange(launch.blocks_x), np.arange(elements), indexing="ij"
    )
    dims = [threads.ravel().astype(np.int64), blocks.ravel().astype(np.int64)]
    symbols = [symbol.ravel().astype(np.int64)][: len(tiling.write_symbols)]
    # A constant lane (one thread a row) evaluates to a scalar: one per thread all the same.
    lane = np.asarray(tiling.lane_in_row.evaluate(dims, symbols))
    writes = np.broadcast_to(lane == 0, dims[0].shape).copy()
    for expr, interval in tiling.written_in_bounds():
        values = np.asarray(expr.evaluate(dims, symbols), dtype=np.int64)
        writes &= np.asarray(interval.contains(values))
    # XLA's simplified write map says the same: its tightened bounds and constraints.
    write_map = tiling.write_map()
    assert np.array_equal(
        np.broadcast_to(np.asarray(write_map.is_in_domain(dims, symbols)), writes.shape), writes
    )
    if not output_shape:
        assert int(writes.sum()) == 1
        return
    index = [
        np.broadcast_to(np.asarray(e.evaluate(dims, symbols), dtype=np.int64), writes.shape)[writes]
        for e in tiling.output_index()
    ]
    assert np.all(counts(index, output_shape) == 1)


@st.composite
def transposes(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A small shape and a permutation that moves the minor-most dim."""
    rank = draw(st.integers(2, 4))
    shape = tuple(draw(st.lists(st.integers(1, 40), min_size=rank, max_size=rank)))
    permutation = tuple(draw(st.permutations(range(rank))))
    assume(permutation[-1] != rank - 1)
    return shape, permutation


@settings(max_examples=30, deadline=None)
@given(transposes())
def test_random_transposes_round_trip_through_the_shared_tile(
    case: tuple[tuple[int, ...], tuple[int, ...]],
) -> None:
    shape, permutation = case
    test_transpose_reads_every_input_once_and_writes_every_output_once(shape, permutation)
    test_transpose_shared_tile_round_trip(shape, permutation)


@st.composite
def reductions(
    draw: st.DrawFn,
) -> tuple[ReductionGroups, tuple[int, ...], tuple[int, ...], int]:
    is_row = draw(st.booleans())
    major = draw(st.integers(1, 4)) if not is_row else 1
    kept = draw(st.integers(1, 70 if is_row else 140))
    reduced = draw(st.integers(1, 2500 if is_row else 90))
    bits = draw(st.sampled_from([8, 16, 32, 64]))
    if is_row:
        return ReductionGroups(True, (1, kept, reduced)), (kept, reduced), (kept,), bits
    groups = ReductionGroups(False, (major, reduced, kept))
    return groups, (major, reduced, kept), (major, kept), bits


@settings(max_examples=30, deadline=None)
@given(reductions())
def test_random_reductions_read_and_write_everything_once(
    case: tuple[ReductionGroups, tuple[int, ...], tuple[int, ...], int],
) -> None:
    groups, input_shape, output_shape, bits = case
    size = tiling_of_groups(groups, input_shape, output_shape, bits).vector_size
    test_reduction_reads_every_input_once_into_its_row(
        groups, input_shape, output_shape, bits, size
    )
    test_reduction_writes_every_output_once(groups, input_shape, output_shape, bits, size)
