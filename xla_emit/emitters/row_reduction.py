"""The row reduction emitter: `[kept, reduced]` inputs reduced along the minor dim.

Each row gets `T = min(1024, roundup(ceil(R / 16), 32))` threads (about 16
elements per thread) and a block holds `256 / T` rows (one where `T > 128`; no
more than there are). Every thread
folds its strided share of the row in an `xla.loop` over the input viewed as
`[M, kept, R / V, V]`, reading vectors of `V` consecutive elements (`V` from
XLA's `GetVectorSizeForMlir`; vector `s1 * T + lane`, element `s2` of it; `s0`
runs over the reduced major component `M`, 1 unless the major dims are reduced
too: XLA's batched row reduction) into one partial result; `xla_gpu.shuffle_reduce`
combines a warp, and when a row spans several warps their results meet in
shared memory (`xla.predicated_insert` by each warp's lane 0,
`xla_gpu.sync_threads`, `xla.predicated_extract` with the init as fallback)
for a second shuffle. As XLA's RowReductionFusion.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import SSAValue

from xla_emit.dialects.xla import PredicatedExtractOp, PredicatedInsertOp
from xla_emit.dialects.xla_gpu import WARP_SIZE, SyncThreadsOp
from xla_emit.emitters.reduction_parts import (
    GridValues,
    PartialResults,
    ReductionTiling,
    allocate_shared,
    round_up,
)
from xla_emit.emitters.work_items import BLOCK_X, THREAD_X
from xla_emit.indexing.affine import AffineExpr, SymbolExpr
from xla_emit.indexing.indexing_map import Variable
from xla_emit.indexing.interval import Interval, ceil_div

MAX_THREADS_PER_ROW = 1024
ELEMENTS_PER_THREAD = 16
TARGET_THREADS_PER_BLOCK = 256


def rows_per_block(kept: int, threads_per_row: int) -> int:
    """Rows fill a block of 256 threads where a row takes at most half of it, and no more
    rows than there are (XLA's num_threads_kept: 4 rows of 32 threads launch 128)."""
    if threads_per_row * 2 > TARGET_THREADS_PER_BLOCK:
        return 1
    return min(kept, TARGET_THREADS_PER_BLOCK // threads_per_row)


@dataclass(frozen=True)
class RowReductionTiling(ReductionTiling):
    """`[major, kept, reduced]` components: a row of threads per kept element."""

    @property
    def major(self) -> int:
        """The reduced major component (each thread folds all of it)."""
        return self.groups.components[0]

    @property
    def kept(self) -> int:
        return self.groups.components[1]

    @property
    def reduced(self) -> int:
        return self.groups.components[2]

    @property
    def threads_per_row(self) -> int:
        return min(
            MAX_THREADS_PER_ROW, round_up(ceil_div(self.reduced, ELEMENTS_PER_THREAD), WARP_SIZE)
        )

    @property
    def warps_per_row(self) -> int:
        return self.threads_per_row // WARP_SIZE

    @property
    def shuffle_rounds(self) -> int:
        """One shuffle per warp, then one over the warps' results if a row has several."""
        return 1 if self.warps_per_row == 1 else 2

    @property
    def rows_per_block(self) -> int:
        return rows_per_block(self.kept, self.threads_per_row)

    @property
    def blocks(self) -> int:
        return ceil_div(self.kept, self.rows_per_block)

    @property
    def loop_stride(self) -> int:
        return self.threads_per_row

    @property
    def lane_in_reduced(self) -> AffineExpr:
        return self.lane_in_row

    @property
    def reduced_positions(self) -> int:
        # Vectors of reduced elements: the vector size divides the row.
        return self.reduced // self.vector_size

    @property
    def vectorized_partials(self) -> bool:
        return False

    def kept_index(self) -> AffineExpr:
        return BLOCK_X * self.rows_per_block + self.row_in_block

    @property
    def write_symbols(self) -> tuple[Variable, ...]:
        # The vector runs along the reduced elements: one result a row, written once.
        return ()

    def written_kept_index(self) -> AffineExpr:
        return self.kept_index()

    def written_in_bounds(self) -> list[tuple[AffineExpr, Interval]]:
        return [(self.kept_index(), Interval(0, self.kept - 1))]

    @property
    def components_shape(self) -> tuple[int, ...]:
        # [major reduced, kept, vectors of reduced elements, vector]: XLA's input_shape_.
        return (self.major, self.kept, self.reduced_positions, self.vector_size)

    def component_index(self) -> tuple[AffineExpr, ...]:
        vector = self.loop_step + self.lane_in_row
        return (SymbolExpr(0), self.kept_index(), vector, self.vector_index)

    @property
    def iteration_symbol(self) -> int:
        return 1

    @property
    def loop_symbols(self) -> tuple[Variable, ...]:
        """s0 over the major reduced component, s1 over the vectors a thread reads, s2
        along a vector."""
        return (
            Variable(Interval(0, self.major - 1), "s0"),
            Variable(Interval(0, self.iterations - 1), "s1"),
            self.vector_symbol(2),
        )

    def read_in_bounds(self) -> tuple[AffineExpr, Interval]:
        return self.kept_index(), Interval(0, self.kept - 1)


def combine_row(
    grid: GridValues, tiling: ReductionTiling, partials: PartialResults
) -> list[SSAValue]:
    """A warp shuffle; rows wider than a warp then meet in shared memory for one more."""
    results = _combine_row_partials(grid, tiling, partials)
    return partials.write(grid.emitter, (), results, partials.outputs)


def _combine_row_partials(
    grid: GridValues, tiling: ReductionTiling, partials: PartialResults
) -> list[SSAValue]:
    """Every hero's partials combined: a shuffle per hero, then (for rows of several warps)
    shared memory and one more shuffle per hero."""
    assert isinstance(tiling, RowReductionTiling)
    builder = grid.builder
    inits = partials.inits
    warp_results = partials.shuffle(builder, partials.values, tiling.shuffle_distance)
    warps = tiling.warps_per_row
    if tiling.shuffle_rounds == 1:
        return warp_results
    lane = THREAD_X.mod(WARP_SIZE)
    row = grid.value(tiling.row_in_block)
    warp = grid.value(tiling.lane_in_row.floordiv(WARP_SIZE))
    lane_value = grid.value(lane)
    is_lane_zero = grid.all_hold([(lane, Interval(0, 0))])
    stored: list[SSAValue] = []
    for value in warp_results:
        shared = allocate_shared(builder, [tiling.rows_per_block, warps], value.type)
        insert = PredicatedInsertOp(value, shared, [row, warp], is_lane_zero)
        stored.append(builder.insert(insert).results[0])
    synced = list(builder.insert(SyncThreadsOp(stored)).results)
    has_warp_result = grid.all_hold([(lane, Interval(0, warps - 1))])
    gathered = [
        builder.insert(PredicatedExtractOp(tile, [row, lane_value], has_warp_result, init)).results[
            0
        ]
        for tile, init in zip(synced, inits, strict=True)
    ]
    return partials.shuffle(builder, gathered, tiling.shuffle_distance)
