"""Linear indices, sizes and the inverse map of XLA tiled layouts, for every tiling level.

The seed defines one level of tiling as

    linear_index_with_tile(e, d, t) = linear_index((e // t, e % t), (ceil(d / t), t))

i.e. pad each tiled dim to a multiple of its tile size, split it into (tile
index, index in tile) and move all in-tile indices to the minor end. A tile
names a suffix of the physical dims; `*` entries first merge a dim into the
next more-minor one. Repeated tiling `T(a)(b)` applies `b` to the shape that
`a` produced. XLA's own `LayoutUtil::LinearIndex` and `ShapeUtil::ArraySize`
honour only the first tile; the functions here honour all of them, so padding
added by a later tile is counted too.

Coordinates may be Python ints or numpy integer arrays (element-wise), so the
interpreter can map whole index vectors at once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, Self, TypeVar

import numpy as np
import numpy.typing as npt

from xla_emit.layout.shape import COMBINE_DIMENSION, Shape, Tile

Coord = TypeVar("Coord", int, npt.NDArray[np.int64])


class Arithmetic(Protocol):
    """What tile coordinates are computed with: ints, numpy index arrays, xDSL affine exprs.

    `__radd__` lets a sum start from the int 0; `+` takes the same type because
    coordinates of several dims are added together.
    """

    def __add__(self, other: Self | int, /) -> Self: ...
    def __radd__(self, other: int, /) -> Self: ...
    def __mul__(self, other: int, /) -> Self: ...
    def __floordiv__(self, other: int, /) -> Self: ...
    def __mod__(self, other: int, /) -> Self: ...


Num = TypeVar("Num", bound=Arithmetic)


def linear_index(e: Sequence[int], d: Sequence[int]) -> int:
    """Row-major position of `e` in an array of bounds `d` (the seed's `linear_index`)."""
    position = 0
    for index, bound in zip(e, d, strict=True):
        position = position * bound + index
    return position


def linear_index_with_tile(e: Sequence[int], d: Sequence[int], t: Sequence[int]) -> int:
    """The seed's one-level formula for a tile of the array's rank (no `*` entries)."""
    tile_index = [ei // ti for ei, ti in zip(e, t, strict=True)]
    in_tile = [ei % ti for ei, ti in zip(e, t, strict=True)]
    tile_bounds = [-(-di // ti) for di, ti in zip(d, t, strict=True)]
    return linear_index(tile_index + in_tile, tile_bounds + list(t))


@dataclass(frozen=True)
class _Group:
    """Dims `first..last` of a tile's suffix, merged by `*` into one dim, tiled by `size`."""

    first: int
    last: int
    size: int


@dataclass(frozen=True)
class TilingStep:
    """One tile applied to a shape: the dims before and after, and how they correspond."""

    dims_before: tuple[int, ...]
    leading_ones: int  # the tile is longer than the shape: unit dims are prepended
    groups: tuple[_Group, ...]
    dims_after: tuple[int, ...]

    @property
    def untiled(self) -> int:
        """Number of leading dims (after prepending unit dims) the tile leaves alone."""
        return (
            len(self.dims_before)
            + self.leading_ones
            - sum(g.last - g.first + 1 for g in self.groups)
        )

    def forward(self, coords: Sequence[Num]) -> list[Num | int]:
        """Coordinates in `dims_before` -> coordinates in `dims_after`.

        The ints in the result are coordinates that depend on no input coordinate
        (unit dims the tile prepends to an empty index).
        """
        zero = coords[0] * 0 if coords else 0
        extended = [zero] * self.leading_ones + list(coords)
        bounds = (1,) * self.leading_ones + self.dims_before
        lead = extended[: self.untiled]
        outer: list[Num | int] = []
        inner: list[Num | int] = []
        for group in self.groups:
            merged = extended[group.first]
            for position in range(group.first + 1, group.last + 1):
                merged = merged * bounds[position] + extended[position]
            outer.append(merged // group.size)
            inner.append(merged % group.size)
        return lead + outer + inner

    def inverse(self, coords: Sequence[Coord]) -> tuple[list[Coord], bool | npt.NDArray[np.bool_]]:
        """Coordinates in `dims_after` -> (coordinates in `dims_before`, not-padding)."""
        bounds = (1,) * self.leading_ones + self.dims_before
        count = len(self.groups)
        lead = list(coords[: self.untiled])
        outer = coords[self.untiled : self.untiled + count]
        inner = coords[self.untiled + count :]
        valid: bool | npt.NDArray[np.bool_] = True
        recovered: list[Coord] = []
        for group, q, r in zip(self.groups, outer, inner, strict=True):
            merged = q * group.size + r
            merged_bound = math.prod(bounds[group.first : group.last + 1])
            valid = valid & (merged < merged_bound)
            parts: list[Coord] = []
            for position in range(group.last, group.first, -1):
                parts.append(merged % bounds[position])
                merged = merged // bounds[position]
            parts.append(merged)
            recovered.extend(reversed(parts))
        full = lead + recovered
        for unit in full[: self.leading_ones]:
            valid = valid & (unit == 0)
        return full[self.leading_ones :], valid


def make_tiling_step(dims: tuple[int, ...], tile: Tile) -> TilingStep:
    """How `tile` reshapes `dims` (XLA: a tile longer than the shape sees unit leading dims)."""
    leading_ones = max(0, len(tile.dims) - len(dims))
    bounds = (1,) * leading_ones + dims
    untiled = len(bounds) - len(tile.dims)
    groups: list[_Group] = []
    first = untiled
    for position, size in enumerate(tile.dims):
        if size == COMBINE_DIMENSION:
            continue
        groups.append(_Group(first, untiled + position, size))
        first = untiled + position + 1
    outer: list[int] = []
    for group in groups:
        merged = math.prod(bounds[group.first : group.last + 1])
        outer.append(-(-merged // group.size))
    dims_after = bounds[:untiled] + tuple(outer) + tuple(g.size for g in groups)
    return TilingStep(dims, leading_ones, tuple(groups), dims_after)


@dataclass(frozen=True)
class TiledLayoutMap:
    """The full map from a shape's logical index to its physical offset, and back."""

    shape: Shape
    steps: tuple[TilingStep, ...]

    @property
    def physical_dims(self) -> tuple[int, ...]:
        """Logical dims in physical (major-to-minor) order, before tiling."""
        layout = self.shape.layout_or_default()
        return tuple(self.shape.dims[d] for d in reversed(layout.minor_to_major))

    @property
    def tiled_dims(self) -> tuple[int, ...]:
        """The array shape after every tile: its row-major order is memory order."""
        return self.steps[-1].dims_after if self.steps else self.physical_dims

    @property
    def padded_element_count(self) -> int:
        """Elements in memory, padding included (tail padding alignment `L(n)` too)."""
        count = math.prod(self.tiled_dims)
        alignment = self.shape.layout_or_default().tail_padding_alignment_in_elements
        return -(-count // alignment) * alignment

    @property
    def byte_size(self) -> int:
        """Bytes in memory: padded elements times `E(n)` bits (or the type's size), rounded up."""
        return -(-self.padded_element_count * self.shape.element_bits // 8)

    def offset(self, index: Sequence[Coord]) -> Coord:
        """Physical element offset of logical `index` (ints or same-shape numpy arrays)."""
        layout = self.shape.layout_or_default()
        coords: list[Coord | int] = [index[d] for d in reversed(layout.minor_to_major)]
        for step in self.steps:
            coords = step.forward(coords)
        position: Coord = index[0] * 0 if index else 0
        for coord, bound in zip(coords, self.tiled_dims, strict=True):
            position = position * bound + coord
        return position

    def logical_index(self, offset: int) -> tuple[int, ...] | None:
        """The logical index stored at physical `offset`, or None for padding."""
        if not 0 <= offset < self.padded_element_count:
            raise ValueError(f"offset {offset} outside [0, {self.padded_element_count})")
        coords: list[int] = []
        rest = offset
        for bound in reversed(self.tiled_dims):
            coords.append(rest % bound)
            rest //= bound
        if rest != 0:
            return None  # tail padding added by L(n)
        coords.reverse()
        valid: bool = True
        for step in reversed(self.steps):
            coords, step_valid = step.inverse(coords)
            valid = valid and bool(step_valid)
        if not valid:
            return None
        layout = self.shape.layout_or_default()
        logical = [0] * self.shape.rank
        for physical_position, dim in enumerate(reversed(layout.minor_to_major)):
            logical[dim] = coords[physical_position]
        return tuple(logical)


def tiled_layout_map(shape: Shape) -> TiledLayoutMap:
    """Build the index map of `shape`'s layout (the default layout when it has none)."""
    layout = shape.layout_or_default()
    dims = tuple(shape.dims[d] for d in reversed(layout.minor_to_major))
    steps: list[TilingStep] = []
    for tile in layout.tiles:
        step = make_tiling_step(dims, tile)
        steps.append(step)
        dims = step.dims_after
    return TiledLayoutMap(shape, tuple(steps))
