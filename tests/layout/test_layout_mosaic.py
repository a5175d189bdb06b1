"""Mosaic's `#tpu.tiled` layouts: offsets, footprints, default tilings and the tile checks."""

import numpy as np
import pytest

from xla_emit.layout import parse_shape, tiled_layout_map
from xla_emit.layout.mosaic import (
    MosaicTiledLayout,
    MosaicTilingError,
    default_tile_strides,
    mosaic_default_tiles,
)


@pytest.mark.parametrize(
    ("xla_shape", "tiles"),
    [
        ("f32[16,256]{1,0:T(8,128)}", ((8, 128),)),
        ("bf16[32,384]{1,0:T(16,128)(2,1)}", ((16, 128), (2, 1))),
        ("s8[3,64,256]{2,1,0:T(8,128)(4,1)}", ((8, 128), (4, 1))),
        ("f32[3000]{0:T(1024)}", ((1024,),)),
        ("bf16[4096]{0:T(1024)(128)(2,1)}", ((1024,), (128,), (2, 1))),
    ],
)
def test_default_strides_give_xla_offsets(
    xla_shape: str, tiles: tuple[tuple[int, ...], ...]
) -> None:
    shape = parse_shape(xla_shape)
    layout = MosaicTiledLayout(tiles, default_tile_strides(tiles, shape.dims))
    xla = tiled_layout_map(shape)
    grid = tuple(g.astype(np.int64) for g in np.indices(shape.dims))
    np.testing.assert_array_equal(layout.offset(list(grid)), xla.offset(grid))
    assert layout.footprint(shape.dims) == xla.padded_element_count


def test_default_strides_by_hand() -> None:
    # memref<2x20x300>, tile (8,128): 3 lane tiles, 3 row tiles, then 2 planes of 9 tiles.
    assert default_tile_strides(((8, 128),), (2, 20, 300)) == (9, 3, 1)
    assert default_tile_strides((), (2, 3)) == (3, 1)


def test_custom_strides_leave_gaps() -> None:
    # Rows of tiles 5 tiles apart instead of 2: tile (1, 0) starts at 5 * 1024.
    layout = MosaicTiledLayout(((8, 128),), (5, 1))
    assert layout.offset([8, 0]) == 5 * 1024
    assert layout.offset([9, 130]) == 5 * 1024 + 1024 + 128 + 2
    assert layout.footprint((16, 256)) == (5 + 1 + 1) * 1024


@pytest.mark.parametrize(
    ("shape", "bits", "generation", "kernel_argument", "expected"),
    [
        ((4, 256), 32, 6, True, ((4, 128),)),
        ((64, 512), 32, 6, True, ((8, 128),)),
        ((1, 128), 32, 6, True, ((1, 128),)),
        ((1, 128), 32, 3, True, ((2, 128),)),
        ((3, 128), 32, 6, True, ((4, 128),)),
        ((16, 256), 16, 6, True, ((8, 128), (2, 1))),
        ((32, 256), 16, 6, False, ((16, 128), (2, 1))),
        ((8, 256), 16, 6, False, ((8, 128), (2, 1))),  # 8 rows are not a multiple of 16
        ((2, 256), 16, 6, True, ((2, 128), (2, 1))),
        ((64, 256), 8, 6, True, ((8, 128), (4, 1))),
        ((256, 256), 2, 6, True, ((128, 128), (16, 1))),
        ((2000,), 32, 6, True, ((1024,),)),
        ((100,), 32, 6, True, ((128,),)),
        ((4096,), 16, 6, True, ((1024,), (128,), (2, 1))),
    ],
)
def test_mosaic_default_tiles(
    shape: tuple[int, ...],
    bits: int,
    generation: int,
    kernel_argument: bool,
    expected: tuple[tuple[int, ...], ...],
) -> None:
    assert mosaic_default_tiles(shape, bits, generation, kernel_argument) == expected


@pytest.mark.parametrize(
    ("tiles", "strides", "message"),
    [
        (((128,), (2, 1)), (1, 1), "Not implemented: Nested tiling across first tiles"),
        (((8, 128), (3, 1)), (1, 1), "Nested tiles must evenly divide the first tile (8,128)"),
        (((8, 0),), (1, 1), "sizes must be positive"),
        (((8, 128),), (1, 2), "Tile strides must be non-increasing"),
    ],
)
def test_invalid_tilings(
    tiles: tuple[tuple[int, ...], ...], strides: tuple[int, ...], message: str
) -> None:
    with pytest.raises(MosaicTilingError, match=message.replace("(", r"\(").replace(")", r"\)")):
        MosaicTiledLayout(tiles, strides).check_tiles()


def test_layout_must_fit_the_memref_rank() -> None:
    with pytest.raises(MosaicTilingError, match="has more dims than the memref rank 1"):
        MosaicTiledLayout(((8, 128),), (1,)).check_for_shape((128,))
    with pytest.raises(
        MosaicTilingError, match="Expected 2 tile strides for the memref rank, but got 1"
    ):
        MosaicTiledLayout(((8, 128),), (1,)).check_for_shape((8, 128))
