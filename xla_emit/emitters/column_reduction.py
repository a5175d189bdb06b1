"""The column reduction emitter: `[KM, R, Km]` inputs reduced along a major dim.

A block of 32x32 threads covers 32 consecutive vectors of `V` kept minor
elements (coalesced reads; `V` from XLA's `GetVectorSizeForMlir`); each
thread folds every 32nd row into a vector of `V` partial results, which go
through a padded 32 x (32 V + 1) shared tile transposed, and a warp shuffle
finishes each column. As XLA's ColumnReductionFusion.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import tensor
from xdsl.dialects.builtin import VectorType
from xdsl.ir import Attribute, SSAValue

from dialects.xla_gpu import WARP_SIZE, SyncThreadsOp
from xla_emit.emitters.entry import insert_element
from xla_emit.emitters.reduction_parts import (
    GridValues,
    ReductionTiling,
    allocate_shared,
    extract_element,
    shuffle_reduce,
)
from xla_emit.emitters.work_items import BLOCK_X
from xla_emit.indexing.affine import AffineExpr
from xla_emit.indexing.interval import Interval, ceil_div


@dataclass(frozen=True)
class ColumnReductionTiling(ReductionTiling):
    """`[major, reduced, minor]` components: a warp-wide tile of minor elements per block."""

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
    def threads_per_row(self) -> int:
        return WARP_SIZE

    @property
    def rows_per_block(self) -> int:
        return WARP_SIZE

    @property
    def shuffle_rounds(self) -> int:
        """The 32 partials of a column meet in one warp shuffle."""
        return 1

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
    def reduced_positions(self) -> int:
        return self.reduced

    @property
    def vectorized_partials(self) -> bool:
        return self.vector_size > 1

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

    def written_kept_index(self, vector_element: int) -> AffineExpr:
        # The shared tile is read transposed: lane 0 of row y writes the vector of column y.
        vector = self.tile * WARP_SIZE + self.row_in_block
        return self.major * self.minor + vector * self.vector_size + vector_element

    def written_in_bounds(self) -> list[tuple[AffineExpr, Interval]]:
        return [(self.tile * WARP_SIZE + self.row_in_block, Interval(0, self.minor_vectors - 1))]

    def input_linear_index(self) -> AffineExpr:
        row = self.loop_step + self.row_in_block
        vector = self.tile * WARP_SIZE + self.lane_in_row
        return (
            (self.major * self.reduced + row) * self.minor
            + vector * self.vector_size
            + self.vector_index
        )

    def read_in_bounds(self) -> tuple[AffineExpr, Interval]:
        return self.tile * WARP_SIZE + self.lane_in_row, Interval(0, self.minor_vectors - 1)


def combine_column(
    grid: GridValues,
    tiling: ReductionTiling,
    partials: list[SSAValue],
    inits: list[SSAValue],
    reducer: str,
) -> list[list[SSAValue]]:
    """Thread (x, y) stores element e of its partials at [x, y * V + e] of a 32 x (32 V + 1)
    tile; warp y then reads row y, which holds the 32 partials of each element of column y's
    vector, and shuffles them together, one element at a time."""
    del inits  # Every lane of a column tile holds a partial result.
    builder = grid.builder
    size = tiling.vector_size
    column = grid.value(tiling.lane_in_row)
    row = grid.value(tiling.row_in_block)
    stored: list[SSAValue] = []
    for value in partials:
        tile = allocate_shared(builder, [WARP_SIZE, WARP_SIZE * size + 1], element_type(value))
        for element in range(size):
            position = grid.value(tiling.row_in_block * size + element)
            scalar = extract_element(builder, value, element)
            tile = insert_element(builder, scalar, tile, [column, position])
        stored.append(tile)
    synced = list(builder.insert(SyncThreadsOp(stored)).results)
    results: list[list[SSAValue]] = []
    for element in range(size):
        position = grid.value(tiling.lane_in_row * size + element)
        transposed: list[SSAValue] = []
        for tile, value in zip(synced, partials, strict=True):
            extract = tensor.ExtractOp(tile, [row, position], element_type(value))
            transposed.append(builder.insert(extract).results[0])
            transposed[-1].name_hint = "extracted"
        results.append(shuffle_reduce(builder, transposed, reducer))
    return results


def element_type(value: SSAValue) -> Attribute:
    """The type of one partial result (of one element of a vector of them)."""
    return value.type.element_type if isinstance(value.type, VectorType) else value.type
