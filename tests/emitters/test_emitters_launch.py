"""Launch grids, unroll factors and work-item maps of the loop emitter.

Expected grids are worked out by hand from XLA's rules; the work-item maps are
checked by brute force: evaluated over the whole (thread, block, symbol)
domain with numpy, every output element must be written exactly once.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from xla_emit.emitters.launch import (
    DeviceInfo,
    LaunchDimensions,
    launch_dimensions,
    loop_unroll_factor,
)
from xla_emit.emitters.work_items import default_work_item_map
from xla_emit.indexing.indexing_map import IndexingMap


def test_seed_gelu_grid() -> None:
    # 6*512*4096 = 12582912 elements, a multiple of 4 and far above 2048*132 resident threads.
    unroll = loop_unroll_factor(12582912, 16)
    assert unroll == 4
    assert launch_dimensions(12582912, unroll) == LaunchDimensions(threads_x=128, blocks_x=24576)


@pytest.mark.parametrize(
    ("elements", "bits", "expected"),
    [
        # An H100's 2048 * 132 resident threads. XLA's H100 kernels (jax 0.10.2): f32[270336]
        # runs 528 blocks of 128 threads, 4 elements each; f32[270332] 2112 blocks, 1 each.
        (270336, 32, 4),  # exactly the resident-thread count: unrolled
        (270332, 32, 1),  # four fewer: not unrolled
        (270338, 32, 2),  # even but not a multiple of 4
        (270337, 32, 1),  # odd
        (100, 1, 1),  # pred is stored as a byte: nothing forces unrolling
        (100, 4, 2),  # 4-bit outputs: two per byte
    ],
)
def test_unroll_factor(elements: int, bits: int, expected: int) -> None:
    from xla_emit.emitters.launch import storage_bits

    assert loop_unroll_factor(elements, storage_bits(bits)) == expected


def test_unroll_factor_respects_vectorization_blockers() -> None:
    assert loop_unroll_factor(1 << 20, 32, may_prevent_vectorization=True) == 1


@pytest.mark.parametrize(
    ("elements", "unroll", "threads", "blocks"),
    [
        (1, 1, 1, 1),
        (0, 1, 1, 1),
        (7, 1, 7, 1),
        (128, 1, 128, 1),
        (129, 1, 128, 2),
        (1000, 4, 128, 2),
    ],
)
def test_launch_dimensions(elements: int, unroll: int, threads: int, blocks: int) -> None:
    assert launch_dimensions(elements, unroll) == LaunchDimensions(
        threads_x=threads, blocks_x=blocks
    )


def writes_per_element(indexing_map: IndexingMap, shape: tuple[int, ...]) -> np.ndarray:
    """How often each output element is written, over the map's whole domain."""
    bounds = [v.bounds for v in indexing_map.dim_vars + indexing_map.range_vars]
    grids = np.meshgrid(
        *[np.arange(b.lower, b.upper + 1, dtype=np.int64) for b in bounds], indexing="ij"
    )
    flat = [g.ravel() for g in grids]
    dims, symbols = flat[: indexing_map.num_dims], flat[indexing_map.num_dims :]
    inside = np.asarray(indexing_map.is_in_domain(dims, symbols), dtype=bool)
    inside = np.broadcast_to(inside, flat[0].shape)
    results = [
        np.broadcast_to(np.asarray(r), flat[0].shape)[inside]
        for r in indexing_map.evaluate(dims, symbols)
    ]
    for result, size in zip(results, shape, strict=True):
        assert result.min(initial=0) >= 0 and result.max(initial=0) < size, "index out of bounds"
    counts = np.zeros(shape, dtype=np.int64)
    np.add.at(counts, tuple(results), 1)
    return counts


SHAPES = [(7,), (10, 10), (6, 5, 4), (3, 1, 129), (2, 3, 4, 5), (1000,), (33, 65)]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("unroll", [1, 2, 4])
def test_work_item_map_is_a_bijection(shape: tuple[int, ...], unroll: int) -> None:
    elements = int(np.prod(shape))
    launch = launch_dimensions(elements, unroll)
    indexing_map = default_work_item_map(launch, unroll, shape)
    assert np.all(writes_per_element(indexing_map, shape) == 1)


def test_grid_is_capped_at_the_block_limit() -> None:
    device = DeviceInfo(block_dim_limit_x=5)
    assert launch_dimensions(128 * 7, 1, device) == LaunchDimensions(threads_x=128, blocks_x=5)


def test_work_item_map_with_chunks_is_a_bijection() -> None:
    # A grid smaller than the shape (blocks capped at the limit) loops over chunks.
    launch = launch_dimensions(5 * 23, 2, DeviceInfo(threads_per_warp=2, block_dim_limit_x=3))
    assert launch == LaunchDimensions(threads_x=8, blocks_x=3)
    shape = (5, 23)
    indexing_map = default_work_item_map(launch, 2, shape)
    assert [v.name for v in indexing_map.range_vars] == ["chunk_id", "vector_index"]
    assert np.all(writes_per_element(indexing_map, shape) == 1)


def test_work_item_map_is_coalesced() -> None:
    # Consecutive threads of a block write consecutive (unroll-strided) row-major positions.
    shape = (4, 256)
    indexing_map = default_work_item_map(launch_dimensions(1024, 2), 2, shape)
    for thread, vector in itertools.product(range(4), range(2)):
        row, column = indexing_map.evaluate([thread, 1], [vector])
        assert int(row) * 256 + int(column) == (thread + 128) * 2 + vector


def test_work_item_map_minor_to_major_layout() -> None:
    # Column-major layout {0,1}: the linear index runs down dim 0 first.
    shape = (3, 5)
    indexing_map = default_work_item_map(launch_dimensions(15, 1), 1, shape, minor_to_major=(0, 1))
    positions = [tuple(int(x) for x in indexing_map.evaluate([t, 0], [])) for t in range(15)]
    assert positions == [(t % 3, t // 3) for t in range(15)]


@pytest.mark.parametrize(("unroll", "symbols"), [(1, []), (2, ["vector_index"])])
def test_only_a_vectorized_work_item_map_has_a_vector_symbol(unroll: int, symbols: list) -> None:
    """XLA's loop maps: an unvectorized loop has no symbol (not one of range [0, 0])."""
    indexing_map = default_work_item_map(launch_dimensions(64, unroll), unroll, (64,))
    assert [v.name for v in indexing_map.range_vars] == symbols


def test_work_item_map_with_chunks_but_no_vector_keeps_the_chunk_symbol() -> None:
    launch = launch_dimensions(5 * 23, 1, DeviceInfo(threads_per_warp=2, block_dim_limit_x=3))
    indexing_map = default_work_item_map(launch, 1, (5, 23))
    assert [v.name for v in indexing_map.range_vars] == ["chunk_id"]
    assert np.all(writes_per_element(indexing_map, (5, 23)) == 1)
