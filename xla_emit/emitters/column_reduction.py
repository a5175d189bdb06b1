"""The column reduction emitter: `[KM, R, Km]` inputs reduced along a major dim.

A block of 32x32 threads covers 32 consecutive vectors of `V` kept minor
elements (coalesced reads; `V` from XLA's `GetVectorSizeForMlir`); each
thread folds every 32nd row into a vector of `V` partial results, which go
through a padded 32 x (32 V + 1) shared tile transposed, and a warp shuffle
finishes each column; `scf.for` loops over the vector's elements store into
the tile and read, shuffle and write. As XLA's ColumnReductionFusion.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import VectorType
from xdsl.ir import Attribute, SSAValue

from xla_emit.dialects.xla import PredicatedExtractOp
from xla_emit.dialects.xla_gpu import WARP_SIZE, SyncThreadsOp
from xla_emit.emitters.entry import insert_element
from xla_emit.emitters.reduction_parts import (
    GridValues,
    PartialResults,
    ReductionTiling,
    allocate_shared,
    emit_vector_element_loop,
    extract_element,
)
from xla_emit.emitters.work_items import BLOCK_X, grid_dim_vars
from xla_emit.indexing.affine import AffineExpr, SymbolExpr
from xla_emit.indexing.indexing_map import IndexingMap, Variable
from xla_emit.indexing.interval import Interval, ceil_div


@dataclass(frozen=True)
class ColumnComponents(ReductionTiling):
    """`[major kept, reduced, minor kept]` components, what every column tiling reads."""

    @property
    def kept(self) -> int:
        major, _, minor = self.groups.components
        return major * minor

    @property
    def reduced(self) -> int:
        return self.groups.components[1]

    @property
    def minor(self) -> int:
        return self.groups.components[2]

    @property
    def reduced_positions(self) -> int:
        return self.reduced

    @property
    def vectorized_partials(self) -> bool:
        # The vector runs along kept minor elements: one partial result each.
        return self.vector_size > 1

    @property
    def shuffle_rounds(self) -> int:
        """A column's partials meet in one shuffle, out of the shared tile."""
        return 1

    @property
    def components_shape(self) -> tuple[int, ...]:
        # [major kept, reduced, minor kept]: XLA's input_shape_.
        return self.groups.components

    @property
    def iteration_symbol(self) -> int:
        return 0

    @property
    def loop_symbols(self) -> tuple[Variable, ...]:
        """s0 over a thread's steps along the reduced rows, s1 along a vector of kept minor
        elements."""
        return (Variable(Interval(0, self.iterations - 1), "s0"), self.vector_symbol(1))

    @property
    def write_symbols(self) -> tuple[Variable, ...]:
        """The vector element the read-shuffle-write loop is at."""
        return (Variable(Interval(0, self.vector_size - 1), "s0"),)

    def shared_tile_domain(self) -> IndexingMap:
        """The domain of the shared tile's maps: th_x alone and the vector element, as XLA's
        GetThreadIndexingMap."""
        (thread, _) = grid_dim_vars(self.launch)
        return IndexingMap((thread,), self.write_symbols, (), ())


@dataclass(frozen=True)
class ColumnReductionTiling(ColumnComponents):
    """A warp-wide tile of minor elements per block."""

    @property
    def threads_per_row(self) -> int:
        return WARP_SIZE

    @property
    def rows_per_block(self) -> int:
        return WARP_SIZE

    @property
    def column_tiles(self) -> int:
        """Blocks per kept-major element (32 vectors of minor elements each)."""
        return ceil_div(self.minor, WARP_SIZE * self.vector_size)

    @property
    def blocks(self) -> int:
        return self.groups.components[0] * self.column_tiles

    @property
    def loop_stride(self) -> int:
        return WARP_SIZE

    @property
    def lane_in_reduced(self) -> AffineExpr:
        return self.row_in_block

    @property
    def tile(self) -> AffineExpr:
        """Which 32 vectors of minor elements the block covers."""
        return BLOCK_X.mod(self.column_tiles)

    @property
    def major(self) -> AffineExpr:
        return BLOCK_X.floordiv(self.column_tiles)

    @property
    def minor_vectors(self) -> int:
        # The vector size divides the minor dim.
        return self.minor // self.vector_size

    def kept_index(self) -> AffineExpr:
        vector = self.tile * WARP_SIZE + self.lane_in_row
        return self.major * self.minor + vector * self.vector_size + self.vector_index

    def written_kept_index(self) -> AffineExpr:
        # The shared tile is read transposed: lane 0 of row y writes the vector of column y.
        vector = self.tile * WARP_SIZE + self.row_in_block
        return self.major * self.minor + vector * self.vector_size + SymbolExpr(0)

    def written_in_bounds(self) -> list[tuple[AffineExpr, Interval]]:
        return [(self.tile * WARP_SIZE + self.row_in_block, Interval(0, self.minor_vectors - 1))]

    def component_index(self) -> tuple[AffineExpr, ...]:
        row = self.loop_step + self.row_in_block
        vector = self.tile * WARP_SIZE + self.lane_in_row
        return (self.major, row, vector * self.vector_size + self.vector_index)

    def read_in_bounds(self) -> tuple[AffineExpr, Interval]:
        return self.tile * WARP_SIZE + self.lane_in_row, Interval(0, self.minor_vectors - 1)


def combine_column(
    grid: GridValues, tiling: ReductionTiling, partials: PartialResults
) -> list[SSAValue]:
    """Thread (x, y) stores element e of its partials at [x, y * V + e] of a 32 x (32 V + 1)
    tile; warp y then reads row y, which holds the 32 partials of each element of column y's
    vector, shuffles them together and writes the result, one element at a time. As XLA's,
    both steps are `scf.for` loops over the vector elements."""
    assert isinstance(tiling, ColumnReductionTiling)
    size = tiling.vector_size
    tiles = [
        allocate_shared(grid.builder, [WARP_SIZE, WARP_SIZE * size + 1], element_type(value))
        for value in partials.values
    ]

    def store(element: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        tile_grid = GridValues(grid.entry, grid.emitter, tiling.shared_tile_domain(), [element])
        column = tile_grid.value(tiling.lane_in_row)
        position = tile_grid.value(tiling.row_in_block * size + SymbolExpr(0))
        scalars = [extract_element(grid.builder, value, element) for value in partials.values]
        return [
            insert_element(grid.builder, scalar, tile, [column, position])
            for scalar, tile in zip(scalars, carried, strict=True)
        ]

    written = emit_vector_element_loop(grid, size, tiles, store)
    synced = list(grid.builder.insert(SyncThreadsOp(written)).results)

    def reduce_and_write(element: SSAValue, outputs: list[SSAValue]) -> list[SSAValue]:
        tile_grid = GridValues(grid.entry, grid.emitter, tiling.shared_tile_domain(), [element])
        row = tile_grid.value(tiling.row_in_block)
        position = tile_grid.value(tiling.lane_in_row * size + SymbolExpr(0))
        # As XLA's: a predicated read with the init as fallback, under the read map's
        # constraints, of which a column tile's has none.
        readable = tile_grid.all_hold([])
        transposed = [
            grid.builder.insert(PredicatedExtractOp(tile, [row, position], readable, init)).results[
                0
            ]
            for tile, init in zip(synced, partials.inits, strict=True)
        ]
        results = partials.shuffle(grid.builder, transposed, tiling.shuffle_distance)
        return partials.write(grid.emitter, [element], results, outputs)

    return emit_vector_element_loop(grid, size, partials.outputs, reduce_and_write)


def element_type(value: SSAValue) -> Attribute:
    """The type of one partial result (of one element of a vector of them)."""
    return value.type.element_type if isinstance(value.type, VectorType) else value.type
