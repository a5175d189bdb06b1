"""Mosaic's tiled memref layout `#tpu.tiled<(8,128)(2,1),[16,1]>` as plain data.

Tiles are XLA tiles (see `tiling`); `tile_strides` has one entry per memref
dim and says how far apart consecutive first-level tiles are along that dim,
in units of one first-level tile (or of one element along untiled leading
dims). The element at `index` lives at

    first_tile_elements * sum_d(tile_coordinate_d * tile_strides_d) + in_tile_offset

where the tile coordinate is `index_d floordiv t_d` on tiled dims and
`index_d` on leading untiled dims, and the in-tile offset applies the nested
tiles to `index mod t` inside one first-level tile. With the default strides
this equals XLA's tiled linear index. Functions accept ints, numpy arrays or
xDSL affine expressions (anything with `+ * // %`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from xla_emit.layout.shape import Tile
from xla_emit.layout.tiling import Arithmetic, make_tiling_step

T = TypeVar("T", bound=Arithmetic)


class MosaicTilingError(ValueError):
    """A tiled layout Mosaic rejects (the message is Mosaic's where it has one)."""


@dataclass(frozen=True)
class MosaicTiledLayout:
    """Tiles (first level first) and per-dim tile strides of a `#tpu.tiled` layout."""

    tiles: tuple[tuple[int, ...], ...]
    tile_strides: tuple[int, ...]

    @property
    def first_tile(self) -> tuple[int, ...]:
        return self.tiles[0] if self.tiles else ()

    @property
    def first_tile_elements(self) -> int:
        return math.prod(self.first_tile)

    def check_tiles(self) -> None:
        """Mosaic's rules on the tiles alone: positive sizes, nested tiles within the first."""
        for tile in self.tiles:
            if not tile or any(size < 1 for size in tile):
                raise MosaicTilingError(f"Invalid tile {tile}: sizes must be positive")
        current = self.first_tile
        for tile in self.tiles[1:]:
            if len(tile) > len(current):
                raise MosaicTilingError("Not implemented: Nested tiling across first tiles")
            suffix = current[len(current) - len(tile) :]
            if any(outer % inner != 0 for outer, inner in zip(suffix, tile, strict=True)):
                raise MosaicTilingError(
                    f"Nested tiles must evenly divide the first tile {_text(self.first_tile)} "
                    f"but they do not (would add padding)"
                )
            step = make_tiling_step(current, Tile(tile))
            current = step.dims_after
        for earlier, later in itertools.pairwise(self.tile_strides):
            if later > earlier:
                raise MosaicTilingError(
                    f"Tile strides must be non-increasing, but got {list(self.tile_strides)}"
                )

    def check_for_shape(self, shape: Sequence[int]) -> None:
        """Mosaic's `verifyLayout`: ranks agree with the memref's."""
        self.check_tiles()
        if len(self.first_tile) > len(shape):
            raise MosaicTilingError(
                f"The first tile {_text(self.first_tile)} has more dims than the memref rank "
                f"{len(shape)}"
            )
        if len(self.tile_strides) != len(shape):
            raise MosaicTilingError(
                f"Expected {len(shape)} tile strides for the memref rank, but got "
                f"{len(self.tile_strides)}"
            )

    def tiled_dims(self, rank: int) -> dict[int, int]:
        """Memref dim -> first-level tile size, for the dims the first tile covers."""
        first = self.first_tile
        return {rank - len(first) + j: size for j, size in enumerate(first)}

    def offset(self, index: Sequence[T]) -> T | int:
        """Element offset of `index` in memory (see the module docstring); 0 for a rank-0 index."""
        rank = len(index)
        tiled = self.tiled_dims(rank)
        outer: T | int = 0
        for dim, (coordinate, stride) in enumerate(zip(index, self.tile_strides, strict=True)):
            size = tiled.get(dim)
            tile_coordinate = coordinate // size if size is not None else coordinate
            outer = tile_coordinate * stride + outer
        inner = self._in_tile_offset([index[dim] % size for dim, size in tiled.items()])
        return outer * self.first_tile_elements + inner

    def _in_tile_offset(self, index: list[T]) -> T | int:
        dims = self.first_tile
        coords: list[T | int] = list(index)
        for tile in self.tiles[1:]:
            step = make_tiling_step(dims, Tile(tile))
            coords = step.forward(coords)
            dims = step.dims_after
        position: T | int = 0
        for coordinate, bound in zip(coords, dims, strict=True):
            position = coordinate + position * bound
        return position

    def footprint(self, shape: Sequence[int]) -> int:
        """Elements the memref spans, padding included (last offset + 1, rounded to tiles)."""
        tiled = self.tiled_dims(len(shape))
        last_tile = 0
        for dim, (bound, stride) in enumerate(zip(shape, self.tile_strides, strict=True)):
            size = tiled.get(dim)
            count = -(-bound // size) if size is not None else bound
            last_tile += (max(count, 1) - 1) * stride
        return (last_tile + 1) * max(self.first_tile_elements, 1)


def default_tile_strides(tiles: Sequence[Sequence[int]], shape: Sequence[int]) -> tuple[int, ...]:
    """Contiguous tiles: walking minor to major, multiply by the tile count (or the dim size)."""
    first = tuple(tiles[0]) if tiles else ()
    rank = len(shape)
    strides = [0] * rank
    stride = 1
    for dim in range(rank - 1, -1, -1):
        strides[dim] = stride
        position = dim - (rank - len(first))
        if position >= 0:
            stride *= -(-shape[dim] // first[position])
        else:
            stride *= shape[dim]
    return tuple(strides)


def _text(tile: Sequence[int]) -> str:
    return "(" + ",".join(map(str, tile)) + ")"


SUBLANES = 8
LANES = 128


def mosaic_default_tiles(
    shape: Sequence[int],
    bitwidth: int,
    hardware_generation: int = 6,
    is_kernel_argument: bool = True,
) -> tuple[tuple[int, ...], ...]:
    """Mosaic's default memref tiling (`tpu-infer-memref-layout`) for a shape and element bitwidth.

    rows = the second-minor size (1-D: ceil(n / 128)); packing p = 32 / bits;
    the row tile is the largest power-of-two count, from `p` (times 2 before
    generation 4) up to 8 sublanes, that `rows` needs, or the `large` tile
    when rows are a multiple of it; narrower types add the packing tile `(p,1)`.
    """
    if not shape:
        return ()
    packing = max(1, 32 // bitwidth)
    min_tiling = packing * (2 if hardware_generation < 4 else 1)
    sublane_tiling = max(SUBLANES, packing)
    rows = -(-shape[0] // LANES) if len(shape) == 1 else shape[-2]
    large = sublane_tiling
    if len(shape) >= 2:
        if bitwidth == 2:
            large = 128
        elif bitwidth == 16 and not is_kernel_argument and hardware_generation >= 6:
            large = 16
    if rows % large != 0:
        large = sublane_tiling
    if large <= rows:
        factor = large
    else:
        factor = min_tiling
        while factor < min(rows, sublane_tiling):
            factor *= 2
    if len(shape) == 1:
        if packing == 1:
            return ((factor * LANES,),)
        return ((factor * LANES,), (LANES,), (packing, 1))
    if packing == 1:
        return ((factor, LANES),)
    return ((factor, LANES), (packing, 1))


def mosaic_default_layout(
    shape: Sequence[int],
    bitwidth: int,
    hardware_generation: int = 6,
    is_kernel_argument: bool = True,
) -> MosaicTiledLayout:
    """The default tiles with contiguous (default) tile strides."""
    tiles = mosaic_default_tiles(shape, bitwidth, hardware_generation, is_kernel_argument)
    return MosaicTiledLayout(tiles, default_tile_strides(tiles, shape))
