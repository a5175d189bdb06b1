"""Tiled linear indices against hand-worked numbers and a numpy pad/reshape/transpose oracle."""

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from xla_emit.layout import (
    COMBINE_DIMENSION,
    Layout,
    Shape,
    Tile,
    linear_index,
    linear_index_with_tile,
    parse_shape,
    tiled_layout_map,
)

PADDING = -1


def test_seed_example_gives_17() -> None:
    # The seed: element (2,3) of F32[3,5] tiled 2x2 has tile index (1,1), in-tile (0,1):
    # (1*3 + 1) * 2*2 + (0*2 + 1) = 17.
    assert linear_index_with_tile((2, 3), (3, 5), (2, 2)) == 17
    assert tiled_layout_map(parse_shape("F32[3,5]{1,0:T(2,2)}")).offset((2, 3)) == 17
    assert linear_index((1, 1, 0, 1), (2, 3, 2, 2)) == 17


def test_seed_figure_1_every_offset() -> None:
    # Tiles of 4 elements in row-major tile order; hand-worked from the seed's figure 1.
    expected = np.array(
        [
            [0, 1, 4, 5, 8],
            [2, 3, 6, 7, 10],
            [12, 13, 16, 17, 20],
        ]
    )
    layout_map = tiled_layout_map(parse_shape("f32[3,5]{1,0:T(2,2)}"))
    got = np.array([[layout_map.offset((i, j)) for j in range(5)] for i in range(3)])
    np.testing.assert_array_equal(got, expected)
    assert layout_map.padded_element_count == 24
    assert layout_map.byte_size == 96
    assert [layout_map.logical_index(o) for o in (9, 11, 17, 23)] == [None, None, (2, 3), None]


def test_seed_figure_2_repeated_tiling() -> None:
    # 4x8 tiled (2,4)(2,1): pairs of rows interleave inside each 2x4 tile.
    expected = np.array(
        [
            [0, 2, 4, 6, 8, 10, 12, 14],
            [1, 3, 5, 7, 9, 11, 13, 15],
            [16, 18, 20, 22, 24, 26, 28, 30],
            [17, 19, 21, 23, 25, 27, 29, 31],
        ]
    )
    layout_map = tiled_layout_map(parse_shape("f32[4,8]{1,0:T(2,4)(2,1)}"))
    got = np.array([[layout_map.offset((i, j)) for j in range(8)] for i in range(4)])
    np.testing.assert_array_equal(got, expected)


def test_combined_dimensions_follow_the_seed() -> None:
    # F32[2,7,8,11,10] tiled (*,*,2,*,3) is F32[112,110] tiled (2,3).
    combined = tiled_layout_map(parse_shape("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}"))
    flat = tiled_layout_map(parse_shape("f32[112,110]{1,0:T(2,3)}"))
    assert combined.tiled_dims == flat.tiled_dims == (56, 37, 2, 3)
    for index in [(0, 0, 0, 0, 0), (1, 6, 7, 10, 9), (1, 2, 3, 4, 5), (0, 5, 1, 7, 2)]:
        row = (index[0] * 7 + index[1]) * 8 + index[2]
        column = index[3] * 10 + index[4]
        assert combined.offset(index) == flat.offset((row, column))


def test_bf16_tpu_format_packs_row_pairs() -> None:
    layout_map = tiled_layout_map(parse_shape("bf16[16,256]{1,0:T(8,128)(2,1)}"))
    # Rows 2k and 2k+1 of a column are neighbours (one 32-bit word).
    assert layout_map.offset((0, 5)) + 1 == layout_map.offset((1, 5))
    # (3,200): tile (0,1) -> 1024; in tile row pair 1, column 72, parity 1 -> (1*128+72)*2+1.
    assert layout_map.offset((3, 200)) == 1024 + (128 + 72) * 2 + 1
    assert layout_map.byte_size == 16 * 256 * 2


def test_padding_of_a_later_tile_is_counted() -> None:
    # The second tile (3,1) does not divide the first (2,4): each 2x4 tile grows to 3x4.
    layout_map = tiled_layout_map(parse_shape("f32[2,4]{1,0:T(2,4)(3,1)}"))
    assert layout_map.padded_element_count == 12
    assert sum(layout_map.logical_index(o) is None for o in range(12)) == 4


def test_tail_padding_and_element_size() -> None:
    layout_map = tiled_layout_map(parse_shape("s4[3,5]{1,0:T(2,2)L(10)E(4)}"))
    assert layout_map.padded_element_count == 30
    assert layout_map.byte_size == 15
    assert layout_map.logical_index(29) is None


def test_vectorized_offsets_match_scalar_ones() -> None:
    layout_map = tiled_layout_map(parse_shape("bf16[5,300]{0,1:T(8,128)(2,1)}"))
    rows, columns = np.meshgrid(np.arange(5), np.arange(300), indexing="ij")
    vector = layout_map.offset((rows.astype(np.int64), columns.astype(np.int64)))
    scalar = np.array([[layout_map.offset((i, j)) for j in range(300)] for i in range(5)])
    np.testing.assert_array_equal(vector, scalar)


def test_offset_outside_memory_is_rejected() -> None:
    layout_map = tiled_layout_map(parse_shape("f32[3,5]{1,0:T(2,2)}"))
    with pytest.raises(ValueError, match=r"offset 24 outside \[0, 24\)"):
        layout_map.logical_index(24)


# ----- the oracle: tiling as pad -> reshape -> transpose on an array of element ids -----


def _apply_tile_with_numpy(array: np.ndarray, tile: tuple[int, ...]) -> np.ndarray:
    if len(tile) > array.ndim:
        array = array.reshape((1,) * (len(tile) - array.ndim) + array.shape)
    untiled = array.ndim - len(tile)
    # `*` merges a dim into the next more-minor one: a reshape.
    merged_shape = list(array.shape[:untiled])
    sizes: list[int] = []
    pending = 1
    for bound, size in zip(array.shape[untiled:], tile, strict=True):
        pending *= bound
        if size != COMBINE_DIMENSION:
            merged_shape.append(pending)
            sizes.append(size)
            pending = 1
    array = array.reshape(merged_shape)
    pads = [(0, 0)] * untiled + [
        (0, -(-bound // size) * size - bound)
        for bound, size in zip(array.shape[untiled:], sizes, strict=True)
    ]
    array = np.pad(array, pads, constant_values=PADDING)
    split: list[int] = list(array.shape[:untiled])
    for bound, size in zip(array.shape[untiled:], sizes, strict=True):
        split += [bound // size, size]
    array = array.reshape(split)
    count = len(sizes)
    order = (
        list(range(untiled))
        + [untiled + 2 * k for k in range(count)]
        + [untiled + 2 * k + 1 for k in range(count)]
    )
    return array.transpose(order)


def _numpy_memory_image(shape: Shape) -> np.ndarray:
    """Flat memory holding each element's logical row-major id, PADDING elsewhere."""
    assert shape.layout is not None
    ids = np.arange(math.prod(shape.dims), dtype=np.int64).reshape(shape.dims)
    physical = ids.transpose(list(reversed(shape.layout.minor_to_major)))
    for tile in shape.layout.tiles:
        physical = _apply_tile_with_numpy(physical, tile.dims)
    return physical.reshape(-1)


@st.composite
def tiled_shapes(draw: st.DrawFn) -> Shape:
    rank = draw(st.integers(1, 4))
    dims = tuple(draw(st.lists(st.integers(1, 6), min_size=rank, max_size=rank)))
    minor_to_major = tuple(draw(st.permutations(range(rank))))
    tiles: list[Tile] = []
    tiled_rank = rank
    for _ in range(draw(st.integers(0, 2))):
        length = draw(st.integers(1, tiled_rank + 1))
        entries = draw(st.lists(st.integers(1, 4), min_size=length, max_size=length))
        for position in range(length - 1):
            if draw(st.integers(0, 4)) == 0:
                entries[position] = COMBINE_DIMENSION
        tiles.append(Tile(tuple(entries)))
        kept = sum(1 for e in entries if e != COMBINE_DIMENSION)
        tiled_rank = max(tiled_rank, length) - len(entries) + 2 * kept
    return Shape("f32", dims, Layout(minor_to_major, tuple(tiles)))


@settings(max_examples=150, deadline=None)
@given(tiled_shapes())
def test_offsets_equal_pad_reshape_transpose(shape: Shape) -> None:
    layout_map = tiled_layout_map(shape)
    # Later tiles may pad a lot; keep each example small enough to enumerate.
    assume(layout_map.padded_element_count <= 3000)
    memory = _numpy_memory_image(shape)
    assert layout_map.padded_element_count == memory.size
    for element_id, index in enumerate(np.ndindex(*shape.dims)):
        assert memory[layout_map.offset(index)] == element_id
    for offset, element_id in enumerate(memory):
        logical = layout_map.logical_index(offset)
        if element_id == PADDING:
            assert logical is None
        else:
            assert logical == np.unravel_index(element_id, shape.dims)
