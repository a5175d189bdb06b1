"""The reduction emitter: per-thread partial results, warp shuffles and shared memory.

The hero reduce's input is viewed as contiguous components (see
`hero.reduction_groups`):

- **row** reductions `[K, R]` reduce the minor dim. Each row gets
  `T = min(1024, roundup(ceil(R / 16), 32))` threads (about 16 elements per
  thread) and a block holds `max(1, 256 / T)` rows. Every thread folds its
  strided share of the row in an `xla.loop`, `xla_gpu.shuffle_reduce`
  combines a warp, and when a row spans several warps their results meet in
  shared memory (`xla.predicated_insert` by each warp's lane 0,
  `xla_gpu.sync_threads`, `xla.predicated_extract` with the init as
  fallback) for a second shuffle.
- **column** reductions `[KM, R, Km]` reduce a major dim. A block of 32x32
  threads covers 32 consecutive kept minor elements (coalesced reads); each
  thread folds every 32nd row, the partial results go through a padded
  32x33 shared tile transposed, and a warp shuffle finishes each column.

Lane 0 of each row writes the result (through the epilogue, if any).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, func, scf, tensor
from xdsl.dialects.builtin import IntegerAttr, TensorType, i1
from xdsl.ir import Attribute, Block, Region, SSAValue

from dialects.xla import PredicatedExtractOp, PredicatedInsertOp, PureCallOp, YieldOp
from dialects.xla_gpu import AllocateSharedOp, ShuffleReduceOp, SyncThreadsOp
from xla_emit.emitters.elemental import ElementalEmitter
from xla_emit.emitters.entry import (
    EntryFunction,
    begin_entry_function,
    begin_loop,
    insert_element,
)
from xla_emit.emitters.functions import FusionFunctions, Subgraph
from xla_emit.emitters.hero import FusionAnalysis, ReductionGroups, reduction_groups
from xla_emit.emitters.launch import LaunchDimensions
from xla_emit.emitters.types import builder_at_end
from xla_emit.emitters.work_items import BLOCK_X, THREAD_X, delinearize, grid_dim_vars
from xla_emit.hlo.shape import flatten_shape
from xla_emit.indexing.affine import AffineExpr, SymbolExpr
from xla_emit.indexing.indexing_map import IndexingMap, Variable
from xla_emit.indexing.interval import Interval, ceil_div

WARP_SIZE = 32
MAX_THREADS_PER_ROW = 1024
ELEMENTS_PER_THREAD = 16
TARGET_THREADS_PER_BLOCK = 256


def round_up(value: int, multiple: int) -> int:
    return ceil_div(value, multiple) * multiple


@dataclass(frozen=True)
class ReductionTiling:
    """How threads and blocks cover a `[major, reduced, minor]` or `[kept, reduced]` reduction."""

    groups: ReductionGroups
    input_shape: tuple[int, ...]
    output_shape: tuple[int, ...]

    @property
    def kept(self) -> int:
        major, _, minor = self.groups.components
        return major * minor if not self.groups.is_row else self.groups.components[1]

    @property
    def reduced(self) -> int:
        return self.groups.components[2] if self.groups.is_row else self.groups.components[1]

    @property
    def threads_per_row(self) -> int:
        if not self.groups.is_row:
            return WARP_SIZE
        return min(
            MAX_THREADS_PER_ROW, round_up(ceil_div(self.reduced, ELEMENTS_PER_THREAD), WARP_SIZE)
        )

    @property
    def rows_per_block(self) -> int:
        if not self.groups.is_row:
            return WARP_SIZE
        return max(1, TARGET_THREADS_PER_BLOCK // self.threads_per_row)

    @property
    def column_tiles(self) -> int:
        """Column reductions: blocks per kept-major element (32 minor elements each)."""
        return ceil_div(self.groups.components[2], WARP_SIZE)

    @property
    def launch(self) -> LaunchDimensions:
        threads = self.threads_per_row * self.rows_per_block
        if self.groups.is_row:
            blocks = ceil_div(self.kept, self.rows_per_block)
        else:
            blocks = self.groups.components[0] * self.column_tiles
        return LaunchDimensions(threads_x=threads, blocks_x=blocks)

    # -- thread coordinates (affine in th_x, bl_x) --------------------------------

    @property
    def lane_in_row(self) -> AffineExpr:
        return THREAD_X.mod(self.threads_per_row)

    @property
    def row_in_block(self) -> AffineExpr:
        return THREAD_X.floordiv(self.threads_per_row)

    def kept_index(self) -> AffineExpr:
        """The linear kept (output) element a thread's partial result belongs to."""
        if self.groups.is_row:
            return BLOCK_X * self.rows_per_block + self.row_in_block
        minor = self.groups.components[2]
        tile = BLOCK_X.mod(self.column_tiles)
        return BLOCK_X.floordiv(self.column_tiles) * minor + tile * WARP_SIZE + self.lane_in_row

    def written_kept_index(self) -> AffineExpr:
        """The kept element the writing lane stores (columns read the shared tile transposed)."""
        if self.groups.is_row:
            return self.kept_index()
        minor = self.groups.components[2]
        tile = BLOCK_X.mod(self.column_tiles)
        return BLOCK_X.floordiv(self.column_tiles) * minor + tile * WARP_SIZE + self.row_in_block

    def written_in_bounds(self) -> list[tuple[AffineExpr, Interval]]:
        if self.groups.is_row:
            return [(self.kept_index(), Interval(0, self.kept - 1))]
        minor = self.groups.components[2]
        tile = BLOCK_X.mod(self.column_tiles)
        return [(tile * WARP_SIZE + self.row_in_block, Interval(0, minor - 1))]

    def input_linear_index(self) -> AffineExpr:
        """The input element a thread reads in iteration `s0` of its loop (row-major input)."""
        step = (
            SymbolExpr(0) * self.threads_per_row
            if self.groups.is_row
            else SymbolExpr(0) * WARP_SIZE
        )
        if self.groups.is_row:
            return self.kept_index() * self.reduced + step + self.lane_in_row
        _, reduced, minor = self.groups.components
        tile = BLOCK_X.mod(self.column_tiles)
        major = BLOCK_X.floordiv(self.column_tiles)
        row = step + self.row_in_block
        return (major * reduced + row) * minor + tile * WARP_SIZE + self.lane_in_row

    def read_map(self) -> IndexingMap:
        """(th_x, bl_x)[s0] -> input index, over the elements each thread folds."""
        stride = self.threads_per_row if self.groups.is_row else WARP_SIZE
        iterations = ceil_div(self.reduced, stride)
        results = delinearize(self.input_linear_index(), self.input_shape)
        range_vars = (Variable(Interval(0, iterations - 1), "s0"),)
        indexing_map = IndexingMap(grid_dim_vars(self.launch), range_vars, (), results)
        reduced_position = SymbolExpr(0) * stride + (
            self.lane_in_row if self.groups.is_row else self.row_in_block
        )
        indexing_map = indexing_map.with_constraint(reduced_position, Interval(0, self.reduced - 1))
        if self.groups.is_row:
            indexing_map = indexing_map.with_constraint(
                self.kept_index(), Interval(0, self.kept - 1)
            )
        else:
            tile = BLOCK_X.mod(self.column_tiles)
            indexing_map = indexing_map.with_constraint(
                tile * WARP_SIZE + self.lane_in_row, Interval(0, self.groups.components[2] - 1)
            )
        return indexing_map.simplify()

    def output_index(self) -> tuple[AffineExpr, ...]:
        return delinearize(self.written_kept_index(), self.output_shape)

    def grid_map(self) -> IndexingMap:
        """The domain of grid expressions evaluated outside loops."""
        return IndexingMap(grid_dim_vars(self.launch), (), (), ())


def reduction_tiling(analysis: FusionAnalysis) -> ReductionTiling:
    hero = analysis.hero
    groups = reduction_groups(hero)
    assert groups is not None, "the hero choice only picks contiguous reductions"
    output = flatten_shape(hero.shape)[0]
    return ReductionTiling(groups, hero.operands[0].array_shape.dimensions, output.dimensions)


@dataclass
class _Grid:
    """Evaluates grid expressions (of th_x, bl_x) into index values in the entry function."""

    entry: EntryFunction
    emitter: ElementalEmitter
    domain: IndexingMap

    def value(self, expr: AffineExpr) -> SSAValue:
        return self.emitter.apply_grid_expr(
            expr, self.domain, [self.entry.thread_id, self.entry.block_id], ()
        )

    def holds(self, expr: AffineExpr, interval: Interval) -> SSAValue | None:
        """An `i1` for `expr in interval` (None when the grid's bounds already guarantee it)."""
        value = self.value(expr)
        checks = self.emitter.range_checks(value, interval, self.domain.expression_range(expr))
        return self.conjunction(checks)

    def conjunction(self, conditions: Sequence[SSAValue | None]) -> SSAValue | None:
        present = [c for c in conditions if c is not None]
        if not present:
            return None
        result = present[0]
        for condition in present[1:]:
            result = self.emitter.insert(arith.AndIOp(result, condition)).results[0]
        return result

    def all_hold(self, conditions: Sequence[tuple[AffineExpr, Interval]]) -> SSAValue:
        result = self.conjunction([self.holds(expr, interval) for expr, interval in conditions])
        if result is None:
            return self.emitter.constant(IntegerAttr(1, i1), "true")
        return result


def emit_reduction_entry(
    name: str, fusion: FusionFunctions, analysis: FusionAnalysis, epilogue: Subgraph | None
) -> func.FuncOp:
    """The reduction fusion's entry function."""
    tiling = reduction_tiling(analysis)
    hero = analysis.hero
    output_shapes = [leaf for root in analysis.roots for leaf in flatten_shape(root.shape)]
    entry = begin_entry_function(name, fusion, output_shapes, tiling.launch)
    emitter = entry.emitter()
    grid = _Grid(entry, emitter, tiling.grid_map())
    num_inputs = len(hero.operands) // 2
    inits = [emitter.emit(init, [])[0] for init in hero.operands[num_inputs:]]
    reducer = fusion.reducer(hero.called_computations[0])
    partials = _emit_thread_loop(entry, tiling, analysis, inits, reducer)
    if tiling.groups.is_row:
        warp_results = list[SSAValue](
            entry.insert(ShuffleReduceOp(partials, WARP_SIZE // 2, reducer)).results
        )
        results = _combine_row_warps(grid, tiling, warp_results, inits, reducer)
    else:
        results = _combine_column_tile(grid, tiling, partials, reducer)
    written = _emit_write(grid, tiling, analysis, epilogue, results)
    return entry.finish(written)


def _emit_thread_loop(
    entry: EntryFunction,
    tiling: ReductionTiling,
    analysis: FusionAnalysis,
    inits: list[SSAValue],
    reducer: str,
) -> list[SSAValue]:
    """Each thread folds its share of the reduced elements into its accumulators."""
    hero = analysis.hero
    read_map = tiling.read_map()
    names = [f"input_dim{d}" for d in range(len(tiling.input_shape))]
    loop = begin_loop(entry, read_map, inits, names)
    for arg in loop.region_iter_args:
        arg.name_hint = "acc"
    builder = builder_at_end(loop.body.block)
    emitter = entry.emitter(builder)
    inputs = hero.operands[: len(hero.operands) // 2]
    values = [emitter.emit(op, list(loop.map_results))[0] for op in inputs]
    types = [init.type for init in inits]
    call = builder.insert(PureCallOp(reducer, [*loop.region_iter_args, *values], types))
    builder.insert(YieldOp(list(call.results)))
    entry.insert(loop)
    return list(loop.res)


def _allocate_shared(entry: EntryFunction, shape: Sequence[int], value_type: Attribute) -> SSAValue:
    return entry.insert(AllocateSharedOp(TensorType(value_type, shape))).results[0]


def _combine_row_warps(
    grid: _Grid,
    tiling: ReductionTiling,
    warp_results: list[SSAValue],
    inits: list[SSAValue],
    reducer: str,
) -> list[SSAValue]:
    """Rows wider than a warp: warp results meet in shared memory, then one more shuffle."""
    warps = tiling.threads_per_row // WARP_SIZE
    if warps == 1:
        return warp_results
    entry = grid.entry
    lane = THREAD_X.mod(WARP_SIZE)
    row = grid.value(tiling.row_in_block)
    warp = grid.value(tiling.lane_in_row.floordiv(WARP_SIZE))
    lane_value = grid.value(lane)
    is_lane_zero = grid.all_hold([(lane, Interval(0, 0))])
    stored: list[SSAValue] = []
    for value in warp_results:
        shared = _allocate_shared(entry, [tiling.rows_per_block, warps], value.type)
        stored.append(
            entry.insert(PredicatedInsertOp(value, shared, [row, warp], is_lane_zero)).results[0]
        )
    synced = list(entry.insert(SyncThreadsOp(stored)).results)
    has_warp_result = grid.all_hold([(lane, Interval(0, warps - 1))])
    gathered = [
        entry.insert(PredicatedExtractOp(tile, [row, lane_value], has_warp_result, init)).results[0]
        for tile, init in zip(synced, inits, strict=True)
    ]
    return list(entry.insert(ShuffleReduceOp(gathered, WARP_SIZE // 2, reducer)).results)


def _combine_column_tile(
    grid: _Grid, tiling: ReductionTiling, partials: list[SSAValue], reducer: str
) -> list[SSAValue]:
    """Columns: thread (x, y) stores its partial at [x, y] of a 32x33 tile; warp y then
    reads row y, which holds the 32 partials of column y, and shuffles them together."""
    entry = grid.entry
    column = grid.value(tiling.lane_in_row)
    row = grid.value(tiling.row_in_block)
    stored: list[SSAValue] = []
    for value in partials:
        shared = _allocate_shared(entry, [WARP_SIZE, WARP_SIZE + 1], value.type)
        insert = insert_element(entry.builder, value, shared, [column, row])
        stored.append(insert)
    synced = list(entry.insert(SyncThreadsOp(stored)).results)
    transposed: list[SSAValue] = []
    for tile, value in zip(synced, partials, strict=True):
        extract = entry.insert(tensor.ExtractOp(tile, [row, column], value.type))
        extract.results[0].name_hint = "extracted"
        transposed.append(extract.results[0])
    return list(entry.insert(ShuffleReduceOp(transposed, WARP_SIZE // 2, reducer)).results)


def _emit_write(
    grid: _Grid,
    tiling: ReductionTiling,
    analysis: FusionAnalysis,
    epilogue: Subgraph | None,
    results: list[SSAValue],
) -> list[SSAValue]:
    """Lane 0 of each row writes its row's result, through the epilogue if there is one."""
    entry = grid.entry
    condition = grid.all_hold([(tiling.lane_in_row, Interval(0, 0)), *tiling.written_in_bounds()])
    output_index = [grid.value(expr) for expr in tiling.output_index()]
    if epilogue is None:
        return [
            entry.insert(PredicatedInsertOp(value, output, output_index, condition)).results[0]
            for value, output in zip(results, entry.outputs, strict=True)
        ]
    then_block = Block()
    then_builder = builder_at_end(then_block)
    emitter = entry.emitter(then_builder, {analysis.hero: results})
    values = emitter.emit_call(epilogue, epilogue.roots[0], output_index)
    inserted: list[SSAValue] = []
    for value, output in zip(values, entry.outputs, strict=True):
        insert = insert_element(then_builder, value, output, output_index)
        inserted.append(insert)
    then_builder.insert(scf.YieldOp(*inserted))
    else_block = Block()
    builder_at_end(else_block).insert(scf.YieldOp(*entry.outputs))
    types = [output.type for output in entry.outputs]
    written = entry.insert(scf.IfOp(condition, types, Region(then_block), Region(else_block)))
    return list(written.results)
