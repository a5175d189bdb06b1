"""Tiles of a buffer at each program's offsets: extraction and insertion with masks.

`extract` gathers, for every pid at once, the tile of `sizes` (powers of two)
starting at that pid's offsets; positions past the end of a dimension are
masked and read as zero (Triton's masked load with a zero `other`). `insert`
scatters the unmasked positions back. Both are checked as the hardware would
not: a tile whose start lies outside the buffer is an error naming the pid,
and two programs writing the same element is a race.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.generic]


class TileFault(Exception):
    """A tile access no program may make; the executor locates it at the op."""


@dataclass(frozen=True)
class TileIndices:
    """Per pid and tile position: the buffer index in each dimension, and whether it is in
    bounds (shapes [pids, *sizes])."""

    indices: tuple[npt.NDArray[np.int64], ...]
    mask: npt.NDArray[np.bool_]


def tile_indices(
    shape: Sequence[int],
    offsets: npt.NDArray[np.int64],
    sizes: Sequence[int],
    pids: npt.NDArray[np.int64] | None = None,
) -> TileIndices:
    """The positions of each pid's tile (offsets: [pids, rank]) in a buffer of `shape`;
    `pids` numbers the rows of `offsets` in messages (0, 1, ... by default)."""
    count = offsets.shape[0]
    rank = len(shape)
    if offsets.shape != (count, rank) or len(sizes) != rank:
        raise TileFault(f"a rank-{rank} buffer takes rank-{rank} offsets and sizes")
    _check_starts(shape, offsets, pids)
    indices: list[npt.NDArray[np.int64]] = []
    mask = np.ones((count, *sizes), dtype=np.bool_)
    for dim, (extent, size) in enumerate(zip(shape, sizes, strict=True)):
        along = [1] * rank
        along[dim] = size
        position = offsets[:, dim].reshape(count, *[1] * rank) + np.arange(size).reshape(along)
        inside = position < extent
        mask = mask & inside
        indices.append(np.where(inside, position, 0))
    return TileIndices(tuple(np.broadcast_to(i, mask.shape) for i in indices), mask)


def _check_starts(
    shape: Sequence[int], offsets: npt.NDArray[np.int64], pids: npt.NDArray[np.int64] | None
) -> None:
    """A tile must start inside the buffer (an empty dimension has no tiles at all)."""
    outside = (offsets < 0) | (offsets >= np.asarray(shape, dtype=np.int64))
    if outside.any():
        row, dim = (int(v) for v in np.argwhere(outside)[0])
        start = [int(v) for v in offsets[row]]
        raise TileFault(
            f"pid {_pid(pids, row)}: the tile at offsets {start} starts outside the buffer "
            f"of shape {list(shape)} (dimension {dim})"
        )


def _pid(pids: npt.NDArray[np.int64] | None, row: int) -> int:
    return row if pids is None else int(pids[row])


@dataclass(frozen=True)
class TileAccess:
    """Where every pid's tile of `sizes` lies in a buffer of `shape`: the part of `extract`
    and `insert` that depends on the offsets only, so that a program whose offsets are the
    same at every launch computes (and checks) it once.

    Whole tiles at multiples of their sizes are `blocks`: the buffer seen as a grid of
    tiles (`split`, `order`) and each pid's position in it (`linear`). Other tiles are
    gathered through `flat` (each position's element, 0 where masked) and `masked` (the
    masked positions of the flattened tiles)."""

    shape: tuple[int, ...]
    sizes: tuple[int, ...]
    count: int
    split: tuple[int, ...] | None = None
    order: tuple[int, ...] | None = None
    grid: tuple[npt.NDArray[np.int64], ...] | None = None
    linear: npt.NDArray[np.int64] | None = None
    flat: npt.NDArray[np.intp] | None = None
    masked: npt.NDArray[np.intp] | None = None
    # For insert: the unmasked positions' flat buffer index and flat tile position.
    targets: npt.NDArray[np.intp] | None = None
    sources: npt.NDArray[np.intp] | None = None

    @property
    def nbytes(self) -> int:
        """The bytes of its index arrays."""
        arrays = (self.linear, self.flat, self.masked, self.targets, self.sources)
        grid = self.grid or ()
        return sum(a.nbytes for a in (*arrays, *grid) if a is not None)

    def read(self, buffer: Array) -> Array:
        """Every pid's tile of `buffer` ([pids, *sizes]); masked positions are zero."""
        if buffer.ndim == 0:
            return np.broadcast_to(buffer, (self.count,)).copy()
        if self.linear is not None:
            assert self.split is not None and self.order is not None
            view = buffer.reshape(self.split).transpose(self.order)
            return _gather_blocks(view, self.linear, len(self.shape))
        assert self.flat is not None and self.masked is not None
        tiles = buffer.reshape(-1).take(self.flat)
        tiles[self.masked] = 0
        return tiles.reshape(self.count, *self.sizes)

    def write(self, buffer: Array, tiles: Array) -> None:
        """Every pid's tile ([pids, *sizes]) into `buffer` in place (C-contiguous, as
        the executor's output buffers are), unmasked positions only."""
        if buffer.ndim == 0:
            buffer[()] = tiles[-1]
            return
        if self.linear is not None:
            assert self.split is not None and self.order is not None
            view = buffer.reshape(self.split).transpose(self.order)
            view[self.grid] = tiles
            return
        assert self.targets is not None and self.sources is not None
        buffer.reshape(-1)[self.targets] = tiles.reshape(-1)[self.sources]


def tile_access(
    shape: Sequence[int],
    offsets: npt.NDArray[np.int64],
    sizes: Sequence[int],
    pids: npt.NDArray[np.int64] | None = None,
    writes: bool = False,
    check_races: bool = True,
) -> TileAccess:
    """The access of each pid's tile (offsets: [pids, rank]) in a buffer of `shape`; a tile
    starting outside it is a `TileFault` naming the pid, and so, for `writes`, are two pids
    writing one element (with `check_races`)."""
    shape, sizes = tuple(shape), tuple(sizes)
    count = offsets.shape[0]
    if not shape:
        if writes and check_races and count > 1:
            raise TileFault(f"race: pids {_pid(pids, 0)} and {_pid(pids, 1)} both write the scalar")
        return TileAccess(shape, sizes, count)
    blocks = _aligned_blocks(shape, offsets, sizes, pids)
    if blocks is not None:
        split, order, grid = blocks
        grid_shape = tuple(extent // size for extent, size in zip(shape, sizes, strict=True))
        if writes and check_races:
            _check_block_races(grid_shape, grid, offsets, pids)
        linear = np.ravel_multi_index(grid, grid_shape)
        return TileAccess(shape, sizes, count, split, order, grid, linear)
    where = tile_indices(shape, offsets, sizes, pids)
    flat = np.ravel_multi_index(where.indices, shape).reshape(-1)
    mask = where.mask.reshape(-1)
    if not writes:
        return TileAccess(shape, sizes, count, flat=flat, masked=np.flatnonzero(~mask))
    targets = flat[mask]
    if check_races:
        _check_races(shape, tuple(index[where.mask] for index in where.indices), where.mask, pids)
    return TileAccess(shape, sizes, count, targets=targets, sources=np.flatnonzero(mask))


def extract(
    buffer: Array,
    offsets: npt.NDArray[np.int64],
    sizes: Sequence[int],
    pids: npt.NDArray[np.int64] | None = None,
) -> Array:
    """Every pid's tile of `buffer` ([pids, *sizes]); masked positions are zero."""
    return tile_access(buffer.shape, offsets, sizes, pids).read(buffer)


def insert(
    buffer: Array,
    tiles: Array,
    offsets: npt.NDArray[np.int64],
    check_races: bool = True,
    pids: npt.NDArray[np.int64] | None = None,
) -> None:
    """Write every pid's tile ([pids, *sizes]) into `buffer` (C-contiguous) in place,
    unmasked positions only."""
    access = tile_access(buffer.shape, offsets, tiles.shape[1:], pids, True, check_races)
    work = np.ascontiguousarray(buffer)
    access.write(work, tiles)
    if work is not buffer:
        buffer[...] = work


def _aligned_blocks(
    shape: Sequence[int],
    offsets: npt.NDArray[np.int64],
    sizes: Sequence[int],
    pids: npt.NDArray[np.int64] | None,
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[npt.NDArray[np.int64], ...]] | None:
    """When every tile is whole and starts at a multiple of its sizes (a row softmax's
    [1, n] tiles), the buffer's shape split into a grid of tiles, the order that puts the
    grid's axes first ([*grid, *sizes]) and each pid's grid position: whole tiles are then
    copied as blocks instead of element by element through index arrays. None otherwise
    (masked tiles)."""
    rank = len(shape)
    if offsets.shape != (offsets.shape[0], rank) or len(sizes) != rank:
        return None
    if any(size <= 0 or extent % size for extent, size in zip(shape, sizes, strict=True)):
        return None
    _check_starts(shape, offsets, pids)
    steps = np.asarray(sizes, dtype=np.int64)
    if (offsets % steps).any():
        return None
    split = tuple(
        n for extent, size in zip(shape, sizes, strict=True) for n in (extent // size, size)
    )
    order = (*range(0, 2 * rank, 2), *range(1, 2 * rank, 2))
    return split, order, tuple(offsets[:, dim] // steps[dim] for dim in range(rank))


def _gather_blocks(view: Array, linear: npt.NDArray[np.int64], rank: int) -> Array:
    """Each pid's whole tile (`linear`: its position in the grid) from the buffer seen as a
    grid of tiles (`TileAccess`).

    With the tiles one after another in memory (tile-major), each is one contiguous copy
    (`take` of rows) instead of an element-by-element gather. Making the buffer tile-major
    costs a copy of it, worth it where the pids read at least as many elements as it has
    (a gemm's operand tiles are read by many programs); otherwise the tiles are gathered
    from the buffer as it is."""
    grid_shape, tile = view.shape[:rank], view.shape[rank:]
    tile_elements = prod(tile)
    reads = len(linear) * tile_elements
    if not view.flags.c_contiguous and view.size > reads:
        return view[np.unravel_index(linear, grid_shape)]
    by_tile = np.ascontiguousarray(view).reshape(prod(grid_shape), tile_elements)
    return by_tile.take(linear, axis=0).reshape(len(linear), *tile)


def _check_block_races(
    grid_shape: Sequence[int],
    grid: tuple[npt.NDArray[np.int64], ...],
    offsets: npt.NDArray[np.int64],
    pids: npt.NDArray[np.int64] | None,
) -> None:
    """Two pids writing the same whole tile write the same elements: its first is named."""
    linear = np.ravel_multi_index(grid, tuple(grid_shape))
    order = np.argsort(linear, kind="stable")
    repeated = np.flatnonzero(linear[order][1:] == linear[order][:-1])
    if repeated.size == 0:
        return
    first, second = int(order[repeated[0]]), int(order[repeated[0] + 1])
    element = [int(v) for v in offsets[first]]
    raise TileFault(
        f"race: pids {_pid(pids, first)} and {_pid(pids, second)} both write element {element}"
    )


def _check_races(
    shape: Sequence[int],
    targets: tuple[npt.NDArray[np.int64], ...],
    mask: npt.NDArray[np.bool_],
    pids: npt.NDArray[np.int64] | None,
) -> None:
    linear = np.ravel_multi_index(targets, tuple(shape))
    order = np.argsort(linear, kind="stable")
    repeated = np.flatnonzero(linear[order][1:] == linear[order][:-1])
    if repeated.size == 0:
        return
    pid_of = np.nonzero(mask)[0]
    first, second = order[repeated[0]], order[repeated[0] + 1]
    element = [int(v) for v in np.unravel_index(linear[first], tuple(shape))]
    raise TileFault(
        f"race: pids {int(pid_of[first])} and {int(pid_of[second])} both write element {element}"
    )
