"""The column reduction emitter: `[KM, R, Km]` inputs reduced along a major dim.

A block of 32x32 threads covers 32 consecutive kept minor elements (coalesced
reads); each thread folds every 32nd row, the partial results go through a
padded 32x33 shared tile transposed, and a warp shuffle finishes each column.
As XLA's ColumnReductionFusion.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import tensor
from xdsl.ir import SSAValue

from dialects.xla_gpu import WARP_SIZE, SyncThreadsOp
from xla_emit.emitters.entry import insert_element
from xla_emit.emitters.reduction_parts import (
    GridValues,
    ReductionTiling,
    allocate_shared,
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
        """Blocks per kept-major element (32 minor elements each)."""
        return ceil_div(self.minor, WARP_SIZE)

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
        """Which 32 minor elements the block covers."""
        return BLOCK_X.mod(self.column_tiles)

    @property
    def major(self) -> AffineExpr:
        return BLOCK_X.floordiv(self.column_tiles)

    def kept_index(self) -> AffineExpr:
        return self.major * self.minor + self.tile * WARP_SIZE + self.lane_in_row

    def written_kept_index(self) -> AffineExpr:
        # The shared tile is read transposed: lane 0 of row y writes column y.
        return self.major * self.minor + self.tile * WARP_SIZE + self.row_in_block

    def written_in_bounds(self) -> list[tuple[AffineExpr, Interval]]:
        return [(self.tile * WARP_SIZE + self.row_in_block, Interval(0, self.minor - 1))]

    def input_linear_index(self) -> AffineExpr:
        row = self.loop_step + self.row_in_block
        return (
            (self.major * self.reduced + row) * self.minor
            + self.tile * WARP_SIZE
            + (self.lane_in_row)
        )

    def read_in_bounds(self) -> tuple[AffineExpr, Interval]:
        return self.tile * WARP_SIZE + self.lane_in_row, Interval(0, self.minor - 1)


def combine_column(
    grid: GridValues,
    tiling: ReductionTiling,
    partials: list[SSAValue],
    inits: list[SSAValue],
    reducer: str,
) -> list[SSAValue]:
    """Thread (x, y) stores its partial at [x, y] of a 32x33 tile; warp y then reads row y,
    which holds the 32 partials of column y, and shuffles them together."""
    del inits  # Every lane of a column tile holds a partial result.
    builder = grid.builder
    column = grid.value(tiling.lane_in_row)
    row = grid.value(tiling.row_in_block)
    stored: list[SSAValue] = []
    for value in partials:
        shared = allocate_shared(builder, [WARP_SIZE, WARP_SIZE + 1], value.type)
        stored.append(insert_element(builder, value, shared, [column, row]))
    synced = list(builder.insert(SyncThreadsOp(stored)).results)
    transposed: list[SSAValue] = []
    for tile, value in zip(synced, partials, strict=True):
        extract = builder.insert(tensor.ExtractOp(tile, [row, column], value.type))
        extract.results[0].name_hint = "extracted"
        transposed.append(extract.results[0])
    return shuffle_reduce(builder, transposed, reducer)
