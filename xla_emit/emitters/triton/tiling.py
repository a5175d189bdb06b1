"""Symbolic tiling of a Triton fusion: every instruction's tile, from the output tile.

XLA's `SymbolicTileAnalysis` runs from the root of a `__triton` fusion to its
parameters. Program `pid` computes one tile of the output: the output's
dimensions are cut into tiles of the `output_tiles` sizes, and the pid is
delinearized row-major over the tile counts (XLA's
`ComputeBlockIdToOutputTileIndexing`), so tile `pid` starts at
`(pid floordiv ...) * size` in each dimension. Each operand then gets the tile
its user reads: the same tile through elementwise ops, the kept dimensions
through broadcasts, the whole reduced dimensions (offset 0) through reduces,
permuted dimensions through transposes, and, through reshapes and bitcasts,
the same elements regrouped where they form a tile of the operand too. An
instruction read with two different tiles (a parameter read whole by a reduce
and tile by tile by a subtract) appears once per tile, as in XLA.

A tile's offsets are affine expressions of `d0`, the pid. Triton tensors have
power-of-two sizes: the emitted tile is `padded_sizes`, and positions past the
end of a dimension are masked (stores skip them, reduces read the init value).

This module imports no IR: the emitter turns the tiling into `xtile` ops.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from xla_emit.diagnostics import UserError
from xla_emit.hlo.fusion_configs import dot_tile_sizes
from xla_emit.hlo.ir import HloComputation, HloInstruction
from xla_emit.hlo.opcodes import ELEMENTWISE_OPS
from xla_emit.hlo.shape import ArrayShape
from xla_emit.indexing import AffineExpr, ConstantExpr, DimExpr, SymbolExpr
from xla_emit.indexing.interval import ceil_div

# Instructions whose tile is read from memory or made up, not computed from operands.
_LEAVES = frozenset({"parameter", "constant", "iota"})
_RESHAPES = frozenset({"reshape", "bitcast"})


def next_power_of_two(size: int) -> int:
    """The Triton tensor extent that holds `size` elements."""
    return 1 << max(size - 1, 0).bit_length()


@dataclass(frozen=True, eq=False)
class TiledInstruction:
    """One instruction read with one tile: its sizes, and offsets as functions of the pid."""

    instruction: HloInstruction
    sizes: tuple[int, ...]
    offsets: tuple[AffineExpr, ...]
    operands: tuple[TiledInstruction, ...]

    @property
    def shape(self) -> ArrayShape:
        return self.instruction.array_shape

    @property
    def padded_sizes(self) -> tuple[int, ...]:
        return tuple(next_power_of_two(size) for size in self.sizes)

    def offsets_at(self, pid: int) -> tuple[int, ...]:
        return tuple(int(offset.evaluate([pid])) for offset in self.offsets)


@dataclass(frozen=True)
class TiledComputation:
    """A fusion's computation tiled for `num_programs` programs.

    `instructions` holds every tiled instruction, operands before users;
    `roots` the tiled outputs in the order of the fusion's results.
    """

    computation: HloComputation
    output_tiles: tuple[tuple[int, ...], ...]
    num_programs: int
    instructions: tuple[TiledInstruction, ...]
    roots: tuple[TiledInstruction, ...]
    # A gemm fusion's dot runs over this many tiles of its contracting dimension (the
    # `k_0` of the operands' offsets, `s0` in their expressions); 0 without a dot.
    contracting_tiles: int = 0


def _fail(instruction: HloInstruction, message: str) -> UserError:
    return UserError(f"Triton tiling of '{instruction.name}': {message}", instruction.location)


def output_tile_offsets(dimensions: Sequence[int], sizes: Sequence[int]) -> tuple[AffineExpr, ...]:
    """The offsets of program d0's tile: d0 delinearized row-major over the tile counts."""
    counts = [ceil_div(dim, size) for dim, size in zip(dimensions, sizes, strict=True)]
    offsets: list[AffineExpr] = []
    for i, size in enumerate(sizes):
        inner = prod(counts[i + 1 :])
        index = DimExpr(0).floordiv(inner) if inner > 1 else DimExpr(0)
        if prod(counts[:i]) > 1:  # outer tiles exist: wrap around this dimension's count
            index = index.mod(counts[i])
        offsets.append(ConstantExpr(0) if counts[i] == 1 else index * size)
    return tuple(offsets)


def tile_computation(
    computation: HloComputation,
    output_tiles: Sequence[Sequence[int]],
    contracting_tile: int | None = None,
) -> TiledComputation:
    """Tile `computation` so that each program computes one tile of each output (a dot
    without its own K tile takes `contracting_tile`)."""
    root = computation.root
    outputs = list(root.operands) if root.opcode == "tuple" else [root]
    if len(output_tiles) not in (1, len(outputs)):
        message = f"{len(output_tiles)} output tiles for {len(outputs)} outputs"
        raise _fail(root, message)
    tiles = [tuple(output_tiles[min(i, len(output_tiles) - 1)]) for i in range(len(outputs))]
    tiler = _Tiler(contracting_tile)
    counts: set[int] = set()
    roots: list[TiledInstruction] = []
    for output, sizes in zip(outputs, tiles, strict=True):
        dims = output.array_shape.dimensions
        if len(sizes) != len(dims) or any(size < 1 for size in sizes):
            raise _fail(
                output, f"the output tile {list(sizes)} does not fit the shape {list(dims)}"
            )
        counts.add(prod(ceil_div(dim, size) for dim, size in zip(dims, sizes, strict=True)))
        roots.append(tiler.tile(output, sizes, output_tile_offsets(dims, sizes)))
    if len(counts) != 1:
        raise _fail(root, f"outputs need different numbers of programs: {sorted(counts)}")
    return TiledComputation(
        computation,
        tuple(tiles),
        counts.pop(),
        tuple(tiler.ordered),
        tuple(roots),
        tiler.contracting_tiles,
    )


class _Tiler:
    """Tiles instructions depth first, once per distinct (instruction, tile)."""

    def __init__(self, contracting_tile: int | None = None) -> None:
        self.contracting_tile = contracting_tile
        self.contracting_tiles = 0
        self.ordered: list[TiledInstruction] = []
        self._seen: dict[tuple[int, tuple[int, ...], tuple[str, ...]], TiledInstruction] = {}

    def tile(
        self, instruction: HloInstruction, sizes: tuple[int, ...], offsets: tuple[AffineExpr, ...]
    ) -> TiledInstruction:
        key = (id(instruction), sizes, tuple(str(offset) for offset in offsets))
        known = self._seen.get(key)
        if known is not None:
            return known
        if instruction.opcode == "dot":
            operand_tiles, tiles = _dot_operands(instruction, sizes, offsets, self.contracting_tile)
            if self.contracting_tiles not in (0, tiles):
                raise _fail(instruction, "Triton fusions with two dots are not supported here")
            self.contracting_tiles = tiles
        else:
            operand_tiles = _operand_tiles(instruction, sizes, offsets)
        operands = tuple(
            self.tile(o, s, f)
            for o, (s, f) in zip(instruction.operands, operand_tiles, strict=True)
        )
        tiled = TiledInstruction(instruction, sizes, offsets, operands)
        self._seen[key] = tiled
        self.ordered.append(tiled)
        return tiled


Tile = tuple[tuple[int, ...], tuple[AffineExpr, ...]]


def _operand_tiles(
    instruction: HloInstruction, sizes: tuple[int, ...], offsets: tuple[AffineExpr, ...]
) -> list[Tile]:
    """The tile of each operand that `instruction`'s tile (sizes, offsets) reads."""
    opcode = instruction.opcode
    if opcode in _LEAVES:
        return []
    if opcode in ELEMENTWISE_OPS:
        return [_elementwise_operand(operand, sizes, offsets) for operand in instruction.operands]
    if opcode == "broadcast":
        dims = instruction.dimensions or ()
        return [(tuple(sizes[d] for d in dims), tuple(offsets[d] for d in dims))]
    if opcode == "transpose":
        permutation = instruction.dimensions or ()
        inverse = sorted(range(len(permutation)), key=lambda i: permutation[i])
        return [(tuple(sizes[i] for i in inverse), tuple(offsets[i] for i in inverse))]
    if opcode == "reduce":
        return _reduce_operands(instruction, sizes, offsets)
    if opcode in _RESHAPES:
        return [_reshape_operand(instruction, sizes, offsets)]
    if opcode == "slice":
        return [_slice_operand(instruction, sizes, offsets)]
    raise _fail(instruction, f"'{opcode}' is not supported in Triton fusions here")


def _elementwise_operand(
    operand: HloInstruction, sizes: tuple[int, ...], offsets: tuple[AffineExpr, ...]
) -> Tile:
    # A scalar operand of an elementwise op (clamp's bounds) is read whole.
    if operand.array_shape.rank == 0:
        return (), ()
    return sizes, offsets


def _reduce_operands(
    instruction: HloInstruction, sizes: tuple[int, ...], offsets: tuple[AffineExpr, ...]
) -> list[Tile]:
    """Reduced dimensions are read whole from offset 0; kept ones follow the output."""
    if not isinstance(instruction.shape, ArrayShape):
        raise _fail(instruction, "variadic reduces are not supported in Triton fusions here")
    reduced = set(instruction.dimensions or ())
    operand = instruction.operands[0].array_shape
    kept = iter(range(len(sizes)))
    tile_sizes: list[int] = []
    tile_offsets: list[AffineExpr] = []
    for dim, extent in enumerate(operand.dimensions):
        if dim in reduced:
            tile_sizes.append(extent)
            tile_offsets.append(ConstantExpr(0))
        else:
            out = next(kept)
            tile_sizes.append(sizes[out])
            tile_offsets.append(offsets[out])
    return [(tuple(tile_sizes), tuple(tile_offsets)), ((), ())]


def uses_contracting_tile(tiled: TiledInstruction) -> bool:
    """Whether the tile moves along a dot's contracting dimension (its offsets use `s0`)."""
    return any(isinstance(e, SymbolExpr) for o in tiled.offsets for e in o.walk())


def _dot_operands(
    instruction: HloInstruction,
    sizes: tuple[int, ...],
    offsets: tuple[AffineExpr, ...],
    default_k: int | None = None,
) -> tuple[list[Tile], int]:
    """The operands' tiles of a dot's output tile: batch and free dims follow the output,
    the contracting dim is read `k` elements at a time from `s0 * k` (XLA's `k_0`)."""
    dims = instruction.dot_dimensions
    assert dims is not None
    if len(dims.lhs_contracting) != 1:
        raise _fail(instruction, "dots with other than one contracting dimension are not supported")
    tile = dot_tile_sizes(instruction)
    if tile is None and default_k is not None:
        tile = (default_k,)
    if tile is None or len(tile) != 1:
        raise _fail(instruction, 'the dot has no contracting tile (backend_config={"sizes":[...]})')
    k = tile[0]
    lhs, rhs = (o.array_shape for o in instruction.operands)
    extent = lhs.dimensions[dims.lhs_contracting[0]]
    batch = len(dims.lhs_batch)
    lhs_free = [
        d for d in range(lhs.rank) if d not in dims.lhs_batch and d not in dims.lhs_contracting
    ]
    rhs_free = [
        d for d in range(rhs.rank) if d not in dims.rhs_batch and d not in dims.rhs_contracting
    ]
    contracting: tuple[int, AffineExpr] = (k, SymbolExpr(0) * k)

    def operand_tile(
        rank: int, batch_dims: tuple[int, ...], contracting_dim: int, free: list[int], first: int
    ) -> Tile:
        tile_sizes: list[int] = []
        tile_offsets: list[AffineExpr] = []
        for d in range(rank):
            if d in batch_dims:
                out = batch_dims.index(d)
                size, offset = sizes[out], offsets[out]
            elif d == contracting_dim:
                size, offset = contracting
            else:
                out = first + free.index(d)
                size, offset = sizes[out], offsets[out]
            tile_sizes.append(size)
            tile_offsets.append(offset)
        return tuple(tile_sizes), tuple(tile_offsets)

    lhs_tile = operand_tile(lhs.rank, dims.lhs_batch, dims.lhs_contracting[0], lhs_free, batch)
    rhs_tile = operand_tile(
        rhs.rank,
        dims.rhs_batch,
        dims.rhs_contracting[0],
        rhs_free,
        batch + len(lhs_free),
    )
    return [lhs_tile, rhs_tile], ceil_div(extent, k)


def _slice_operand(
    instruction: HloInstruction, sizes: tuple[int, ...], offsets: tuple[AffineExpr, ...]
) -> Tile:
    ranges = instruction.slice_ranges or ()
    if any(r.stride != 1 for r in ranges):
        raise _fail(instruction, "strided slices are not supported in Triton fusions here")
    return sizes, tuple(offset + r.start for offset, r in zip(offsets, ranges, strict=True))


def _reshape_operand(
    instruction: HloInstruction, sizes: tuple[int, ...], offsets: tuple[AffineExpr, ...]
) -> Tile:
    """The operand's tile holding the same elements. A bitcast keeps the bytes in memory
    order: the tile goes to the result's memory order, is regrouped there as a reshape,
    and comes back in the operand's logical order (a transpose when layouts differ)."""
    source = instruction.operands[0].array_shape
    target = instruction.array_shape
    source_order = physical_order(source) if instruction.opcode == "bitcast" else None
    target_order = physical_order(target) if instruction.opcode == "bitcast" else None
    source_order = source_order or list(range(source.rank))
    target_order = target_order or list(range(target.rank))
    regrouped = _regroup(
        [source.dimensions[d] for d in source_order],
        [target.dimensions[d] for d in target_order],
        [sizes[d] for d in target_order],
        [offsets[d] for d in target_order],
    )
    if regrouped is None:
        raise _fail(instruction, _reshape_message(source, target, sizes))
    operand_sizes = [1] * source.rank
    operand_offsets: list[AffineExpr] = [ConstantExpr(0)] * source.rank
    for position, dim in enumerate(source_order):
        operand_sizes[dim] = regrouped[0][position]
        operand_offsets[dim] = regrouped[1][position]
    return tuple(operand_sizes), tuple(operand_offsets)


def physical_order(shape: ArrayShape) -> list[int]:
    """The dimensions from major to minor in memory."""
    return list(reversed(shape.minor_to_major))


def _regroup(
    source: Sequence[int],
    target: Sequence[int],
    sizes: Sequence[int],
    offsets: Sequence[AffineExpr],
) -> tuple[list[int], list[AffineExpr]] | None:
    """A tile of row-major `target` dims as a tile of row-major `source` dims, group by group
    of matching dimensions (None where the elements are no tile of the source)."""
    operand_sizes = [1] * len(source)
    operand_offsets: list[AffineExpr] = [ConstantExpr(0)] * len(source)
    for source_dims, target_dims in _reshape_groups(source, target):
        if len(source_dims) == 1 and len(target_dims) == 1:
            # The same dimension on both sides: any tile, even one past its end, carries over.
            operand_sizes[source_dims[0]] = sizes[target_dims[0]]
            operand_offsets[source_dims[0]] = offsets[target_dims[0]]
            continue
        block = _contiguous_block(
            [target[d] for d in target_dims],
            [sizes[d] for d in target_dims],
            [offsets[d] for d in target_dims],
        )
        if block is None:
            return None
        length, start = block
        box = _as_box([source[d] for d in source_dims], length, start)
        if box is None:
            return None
        for dim, (size, offset) in zip(source_dims, zip(*box, strict=True), strict=True):
            operand_sizes[dim] = size
            operand_offsets[dim] = offset
    return operand_sizes, operand_offsets


def _reshape_message(source: ArrayShape, target: ArrayShape, sizes: Sequence[int]) -> str:
    return (
        f"the tile {list(sizes)} of {list(target.dimensions)} is no tile of the operand "
        f"{list(source.dimensions)}"
    )


def _reshape_groups(
    source: Sequence[int], target: Sequence[int]
) -> list[tuple[list[int], list[int]]]:
    """Runs of source and target dimensions with equal element counts (unit dims alone)."""
    groups: list[tuple[list[int], list[int]]] = []
    i = j = 0
    while i < len(source) or j < len(target):
        if i < len(source) and source[i] == 1:
            groups.append(([i], []))
            i += 1
            continue
        if j < len(target) and target[j] == 1:
            groups.append(([], [j]))
            j += 1
            continue
        source_dims, target_dims = [i], [j]
        source_count, target_count = source[i], target[j]
        i, j = i + 1, j + 1
        while source_count != target_count:
            if source_count < target_count:
                source_dims.append(i)
                source_count *= source[i]
                i += 1
            else:
                target_dims.append(j)
                target_count *= target[j]
                j += 1
        groups.append((source_dims, target_dims))
    return groups


def _contiguous_block(
    extents: Sequence[int], sizes: Sequence[int], offsets: Sequence[AffineExpr]
) -> tuple[int, AffineExpr] | None:
    """A tile of row-major dims as one run of the flattened group: (length, start), if it is
    one: whole inner dims, one partial dim dividing its extent, tiles of 1 outside."""
    length = 1
    start: AffineExpr = ConstantExpr(0)
    partial_seen = False
    for dim in reversed(range(len(extents))):
        extent, size = extents[dim], sizes[dim]
        stride = prod(extents[dim + 1 :])
        start = start + offsets[dim] * stride
        if partial_seen and size != 1:
            return None
        if size != extent:
            if extent % size != 0:
                return None
            partial_seen = True
        length *= size
    return length, start


def _as_box(
    extents: Sequence[int], length: int, start: AffineExpr
) -> tuple[list[int], list[AffineExpr]] | None:
    """The run `start .. start + length` of row-major `extents` as a tile (sizes, offsets)."""
    sizes: list[int] = []
    offsets: list[AffineExpr] = []
    remaining = length
    for dim in reversed(range(len(extents))):
        extent = extents[dim]
        stride = prod(extents[dim + 1 :])
        index = start.floordiv(stride) if stride > 1 else start
        if dim > 0:
            index = index.mod(extent)
        if remaining >= extent:
            if remaining % extent != 0:
                return None
            sizes.append(extent)
            offsets.append(ConstantExpr(0))
            remaining //= extent
        else:
            if extent % remaining != 0:
                return None
            sizes.append(remaining)
            offsets.append(index)
            remaining = 1
    sizes.reverse()
    offsets.reverse()
    return sizes, offsets
