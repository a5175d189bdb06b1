"""The small column reduction emitter: columns a warp's width divides, reduced by 128 threads.

`[KM, R, Km]` inputs whose kept minor dim `Km` divides 32 get one block per
kept major element. Its (at most) 128 threads walk the `R x Km` elements of
the block's slice linearly, `V` consecutive elements a step (a vector of
partial results, one per column the vector touches), so reads coalesce
however few the columns. The partials meet in a `[S, Km + pad]` shared tile,
`S = V * threads / Km` partials per column: thread t's element e goes to
`[(t V + e) / Km, (t V + e) mod Km]`; then `S` consecutive threads read one
column's partials, a shuffle over them (`to S / 2`) finishes it and the first
of them writes it. As XLA's SmallColumnReductionFusion.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import SSAValue

from xla_emit.dialects.xla import PredicatedExtractOp
from xla_emit.dialects.xla_gpu import WARP_SIZE, SyncThreadsOp
from xla_emit.emitters.addition_order import AdditionTree
from xla_emit.emitters.column_reduction import ColumnComponents, element_type
from xla_emit.emitters.entry import insert_element
from xla_emit.emitters.hero import ReductionGroups
from xla_emit.emitters.reduction_parts import (
    GridValues,
    PartialResults,
    ReductionTiling,
    allocate_shared,
    emit_vector_element_loop,
    extract_element,
)
from xla_emit.emitters.work_items import BLOCK_X, THREAD_X
from xla_emit.indexing.affine import AffineExpr, SymbolExpr
from xla_emit.indexing.interval import Interval, ceil_div

MAX_THREADS = 128


def is_small_column(groups: ReductionGroups) -> bool:
    """Whether XLA tiles a column reduction so: its kept minor dim divides a warp."""
    return not groups.is_row and WARP_SIZE % groups.components[2] == 0


def small_column_vector_size(groups: ReductionGroups, vector_size: int) -> int:
    """The vector size `vector_size` (XLA's choice for the slice's `R * Km` elements) halved
    until one column's partials fit a warp (XLA keeps at most 32 shared rows)."""
    minor = groups.components[2]
    while vector_size > 1 and vector_size * MAX_THREADS // minor > WARP_SIZE:
        vector_size //= 2
    return vector_size


@dataclass(frozen=True)
class SmallColumnReductionTiling(ColumnComponents):
    """A block per major kept element."""

    @property
    def threads(self) -> int:
        """128, fewer where even single elements would give a column more than 32 partials."""
        return min(MAX_THREADS, WARP_SIZE * self.minor // self.vector_size)

    @property
    def shared_rows(self) -> int:
        """The partial results of each column: the rows of the shared tile."""
        return self.vector_size * self.threads // self.minor

    @property
    def threads_per_row(self) -> int:
        # After the tile, `shared_rows` threads combine one column.
        return self.shared_rows

    @property
    def rows_per_block(self) -> int:
        return self.threads // self.shared_rows

    @property
    def blocks(self) -> int:
        return self.groups.components[0]

    @property
    def iterations(self) -> int:
        """Steps of `vector_size * threads` elements over the block's slice."""
        return ceil_div(self.reduced * self.minor, self.vector_size * self.threads)

    @property
    def loop_stride(self) -> int:
        # Each step moves the whole block `shared_rows` rows on.
        return self.shared_rows

    @property
    def linear_index(self) -> AffineExpr:
        """The element of the block's `R x Km` slice a thread reads at the loop's symbols."""
        step = SymbolExpr(0) * (self.vector_size * self.threads)
        return THREAD_X * self.vector_size + self.vector_index + step

    @property
    def lane_in_reduced(self) -> AffineExpr:
        return (THREAD_X * self.vector_size + self.vector_index).floordiv(self.minor)

    @property
    def shuffle_distance(self) -> int:
        # Half a column's partials.
        return self.shared_rows // 2

    @property
    def addition_tree(self) -> AdditionTree:
        return AdditionTree(self.shared_rows, self.shuffle_rounds)

    @property
    def padding(self) -> int:
        """Columns added to the shared tile against bank conflicts (XLA's minimal padding)."""
        if self.threads == WARP_SIZE and self.vector_size == 1:
            return 0
        return ceil_div(self.minor, self.threads * self.vector_size)

    def kept_index(self) -> AffineExpr:
        column = (THREAD_X * self.vector_size + self.vector_index).mod(self.minor)
        return BLOCK_X * self.minor + column

    @property
    def read_position(self) -> AffineExpr:
        """Which partial of the tile a thread reads at the vector element `s0`: consecutive
        threads read one column's `shared_rows` partials."""
        return THREAD_X + SymbolExpr(0) * self.threads

    def written_kept_index(self) -> AffineExpr:
        return BLOCK_X * self.minor + self.read_position.floordiv(self.shared_rows)

    def written_in_bounds(self) -> list[tuple[AffineExpr, Interval]]:
        return [(self.read_position.floordiv(self.shared_rows), Interval(0, self.minor - 1))]

    def component_index(self) -> tuple[AffineExpr, ...]:
        linear = self.linear_index
        return (BLOCK_X, linear.floordiv(self.minor), linear.mod(self.minor))

    def read_in_bounds(self) -> tuple[AffineExpr, Interval]:
        # The slice's linear bounds, as XLA's bitcast of the slice to the components adds
        # them (redundant with the reduced position's, which XLA keeps too).
        return self.linear_index, Interval(0, self.reduced * self.minor - 1)


def combine_small_column(
    grid: GridValues, tiling: ReductionTiling, partials: PartialResults
) -> list[SSAValue]:
    """Element e of thread t's partials goes to the tile at linear position t V + e (row-major
    over `[shared_rows, Km]`); then, one vector element at a time, thread t reads position
    (t + e * threads) of the tile read column by column, a shuffle over `shared_rows` threads
    combines a column, and its first thread writes it. Both steps are `scf.for` loops over
    the vector elements, as XLA's."""
    assert isinstance(tiling, SmallColumnReductionTiling)
    size, rows, minor = tiling.vector_size, tiling.shared_rows, tiling.minor
    tiles = [
        allocate_shared(grid.builder, [rows, minor + tiling.padding], element_type(value))
        for value in partials.values
    ]

    def store(element: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        tile_grid = GridValues(grid.entry, grid.emitter, tiling.shared_tile_domain(), [element])
        position = THREAD_X * size + SymbolExpr(0)
        index = [tile_grid.value(position.floordiv(minor)), tile_grid.value(position.mod(minor))]
        scalars = [extract_element(grid.builder, value, element) for value in partials.values]
        return [
            insert_element(grid.builder, scalar, tile, index)
            for scalar, tile in zip(scalars, carried, strict=True)
        ]

    written = emit_vector_element_loop(grid, size, tiles, store)
    synced = list(grid.builder.insert(SyncThreadsOp(written)).results)

    def reduce_and_write(element: SSAValue, outputs: list[SSAValue]) -> list[SSAValue]:
        tile_grid = GridValues(grid.entry, grid.emitter, tiling.shared_tile_domain(), [element])
        position = tiling.read_position
        index = [
            tile_grid.value(position.mod(rows)),
            tile_grid.value(position.floordiv(rows)),
        ]
        readable = tile_grid.all_hold([])
        column_partials = [
            grid.builder.insert(PredicatedExtractOp(tile, index, readable, init)).results[0]
            for tile, init in zip(synced, partials.inits, strict=True)
        ]
        results = partials.shuffle(grid.builder, column_partials, tiling.shuffle_distance)
        return partials.write(grid.emitter, [element], results, outputs)

    return emit_vector_element_loop(grid, size, partials.outputs, reduce_and_write)
