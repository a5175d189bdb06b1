"""Pieces shared by the row and column reduction emitters.

`ReductionTiling` is the tiling arithmetic both kinds have in common (threads
grouped into "rows" of `threads_per_row` lanes, one row per kept element at a
time, each thread folding a strided share of the reduced elements); each kind
supplies its own coordinates. The rest builds what both entry functions
share: the per-thread loop, shared-memory tiles, and the write of each row's
result by its lane 0 (through the epilogue, if any).
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from xdsl.builder import Builder
from xdsl.dialects import arith, func, scf, vector
from xdsl.dialects.builtin import IndexType, IntegerAttr, TensorType, VectorType, i1
from xdsl.ir import Attribute, Block, Region, SSAValue

from xla_emit.dialects.xla import LoopOp, PredicatedInsertOp, PureCallOp, YieldOp
from xla_emit.dialects.xla_gpu import WARP_SIZE, AllocateSharedOp, ShuffleReduceOp
from xla_emit.emitters.addition_order import AdditionTree
from xla_emit.emitters.elemental import ElementalEmitter
from xla_emit.emitters.entry import (
    EntryFunction,
    begin_entry_function,
    begin_loop,
    insert_element,
)
from xla_emit.emitters.functions import FusionFunctions, Subgraph
from xla_emit.emitters.hero import FusionAnalysis, ReductionGroups
from xla_emit.emitters.launch import LaunchDimensions
from xla_emit.emitters.subgraphs import emit_epilogue
from xla_emit.emitters.types import builder_at_end
from xla_emit.emitters.work_items import THREAD_X, delinearize, grid_dim_vars
from xla_emit.hlo.indexing_analysis import reshape_map
from xla_emit.hlo.ir import HloInstruction
from xla_emit.hlo.shape import flatten_shape
from xla_emit.indexing.affine import AffineExpr, DimExpr, SymbolExpr
from xla_emit.indexing.indexing_map import IndexingMap, Variable
from xla_emit.indexing.interval import Interval, ceil_div


def round_up(value: int, multiple: int) -> int:
    return ceil_div(value, multiple) * multiple


@dataclass(frozen=True)
class ReductionTiling(ABC):
    """How threads and blocks cover a reduction whose input is viewed as `groups`."""

    groups: ReductionGroups
    input_shape: tuple[int, ...]
    output_shape: tuple[int, ...]
    # Consecutive elements a thread reads per step (XLA's vector size): along the reduced
    # dim for rows, along the kept minor dim for columns.
    vector_size: int = 1

    @property
    @abstractmethod
    def kept(self) -> int:
        """The number of kept (output) elements."""

    @property
    @abstractmethod
    def reduced(self) -> int:
        """The number of elements folded into each kept element."""

    @property
    @abstractmethod
    def threads_per_row(self) -> int: ...

    @property
    @abstractmethod
    def rows_per_block(self) -> int: ...

    @property
    @abstractmethod
    def blocks(self) -> int: ...

    @property
    @abstractmethod
    def loop_stride(self) -> int:
        """How many reduced elements apart one thread's consecutive reads are."""

    @property
    @abstractmethod
    def lane_in_reduced(self) -> AffineExpr:
        """A thread's first position along the reduced elements."""

    @property
    @abstractmethod
    def reduced_positions(self) -> int:
        """How many positions `loop_step + lane_in_reduced` covers (vectors of reduced
        elements where the reduced dim is vectorized)."""

    @property
    @abstractmethod
    def vectorized_partials(self) -> bool:
        """Whether a thread keeps one partial result per vector element (the vector runs
        along kept elements) rather than one for all of them."""

    @abstractmethod
    def kept_index(self) -> AffineExpr:
        """The linear kept (output) element a thread's partial result belongs to."""

    @property
    @abstractmethod
    def write_symbols(self) -> tuple[Variable, ...]:
        """The range variables of the write (the vector element a column's loop is at)."""

    @abstractmethod
    def written_kept_index(self) -> AffineExpr:
        """The kept element the writing lane stores (at the write's symbols)."""

    @abstractmethod
    def written_in_bounds(self) -> list[tuple[AffineExpr, Interval]]:
        """What must hold for the writing lane's kept element to exist."""

    @property
    @abstractmethod
    def components_shape(self) -> tuple[int, ...]:
        """The shape the loop's map indexes: XLA's view of the input as its contiguous
        components (its `input_shape_`), a bitcast of the input."""

    @abstractmethod
    def component_index(self) -> tuple[AffineExpr, ...]:
        """The component a thread reads at the loop's symbols."""

    @property
    @abstractmethod
    def iteration_symbol(self) -> int:
        """The loop symbol that steps along the reduced positions."""

    @property
    @abstractmethod
    def loop_symbols(self) -> tuple[Variable, ...]:
        """The loop's range variables (XLA's tile sizes per thread), the vector element last."""

    @abstractmethod
    def read_in_bounds(self) -> tuple[AffineExpr, Interval]:
        """What must hold, besides the reduced position, for a thread's read to exist."""

    @property
    @abstractmethod
    def shuffle_rounds(self) -> int:
        """How many warp shuffles combine the threads' partial results."""

    @property
    def shuffle_distance(self) -> int:
        """The first distance of a shuffle: half the lanes it combines (a warp's)."""
        return WARP_SIZE // 2

    @property
    def addition_tree(self) -> AdditionTree:
        """The order the kernel adds in: `loop_stride` threads fold every `loop_stride`-th
        reduced element (see `read_map`), then `shuffle_rounds` shuffles."""
        return AdditionTree(self.loop_stride, self.shuffle_rounds)

    @property
    def launch(self) -> LaunchDimensions:
        threads = self.threads_per_row * self.rows_per_block
        return LaunchDimensions(threads_x=threads, blocks_x=self.blocks)

    # -- thread coordinates (affine in th_x, bl_x) --------------------------------

    @property
    def lane_in_row(self) -> AffineExpr:
        return THREAD_X.mod(self.threads_per_row)

    @property
    def row_in_block(self) -> AffineExpr:
        return THREAD_X.floordiv(self.threads_per_row)

    @property
    def iterations(self) -> int:
        """How many reduced positions one thread visits."""
        return ceil_div(self.reduced_positions, self.loop_stride)

    @property
    def loop_step(self) -> AffineExpr:
        """How far along the reduced positions the loop's iteration has moved."""
        return SymbolExpr(self.iteration_symbol) * self.loop_stride

    @property
    def vector_index(self) -> AffineExpr:
        """The element of its vector a thread reads: the last loop symbol."""
        return SymbolExpr(len(self.loop_symbols) - 1)

    def vector_symbol(self, position: int) -> Variable:
        """The range variable along a vector, symbol `position` of the loop."""
        return Variable(Interval(0, self.vector_size - 1), f"s{position}")

    def read_map(self) -> IndexingMap:
        """(th_x, bl_x)[loop symbols] -> component index, over the elements each thread
        folds, as XLA's ComputeReductionInputIndexing."""
        indexing_map = IndexingMap(
            grid_dim_vars(self.launch), self.loop_symbols, (), self.component_index()
        )
        reduced_position = self.loop_step + self.lane_in_reduced
        indexing_map = indexing_map.with_constraint(
            reduced_position, Interval(0, self.reduced_positions - 1)
        )
        indexing_map = indexing_map.with_constraint(*self.read_in_bounds())
        return indexing_map.simplify()

    def bitcast_map(self, shape: Sequence[int]) -> IndexingMap:
        """Component index -> index in `shape` (the input's, a side output's): the same
        element in row-major order, as XLA's GetBitcastMap."""
        return reshape_map(self.components_shape, shape)

    def output_index(self) -> tuple[AffineExpr, ...]:
        """Where the writing lane stores, over `write_map`'s domain."""
        linear = self.written_kept_index()
        index = delinearize(linear, self.output_shape)
        if not self.output_shape or self.output_shape[0] == 1:
            return index
        # The written element is in bounds: the major-most index needs no `mod`.
        inner = math.prod(self.output_shape[1:])
        return (linear.floordiv(inner), *index[1:])

    def grid_map(self) -> IndexingMap:
        """The domain of grid expressions evaluated outside loops."""
        return IndexingMap(grid_dim_vars(self.launch), (), (), ())

    def write_map(self) -> IndexingMap:
        """XLA's thread-to-output map, simplified: the grid where lane 0 of a row holds a
        result that exists. Its constraints are the write's condition; simplifying tightens
        th_x to the last row's lane 0 (XLA's writer maps say `th_x in [0, 224]` for rows of 32
        in blocks of 256), the domain of the maps that compute where the result goes."""
        grid = IndexingMap(grid_dim_vars(self.launch), self.write_symbols, (), ())
        indexing_map = grid.with_constraint(self.lane_in_row, Interval(0, 0))
        for expr, bounds in self.written_in_bounds():
            indexing_map = indexing_map.with_constraint(expr, bounds)
        return indexing_map.simplify()


@dataclass
class GridValues:
    """Evaluates grid expressions into index values where `emitter` inserts. The domain's
    dims are the first of (th_x, bl_x) (XLA's shared-memory maps have th_x alone); its range
    variables take `symbols`."""

    entry: EntryFunction
    emitter: ElementalEmitter
    domain: IndexingMap
    symbols: Sequence[SSAValue] = ()

    @property
    def builder(self) -> Builder:
        """Where the values (and the ops that use them) go."""
        return self.emitter.builder

    def value(self, expr: AffineExpr) -> SSAValue:
        dims = [self.entry.thread_id, self.entry.block_id][: self.domain.num_dims]
        return self.emitter.apply_grid_expr(expr, self.domain, dims, self.symbols)

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


# Writes rows' results from their lane 0 (through the epilogue, if any), as XLA's
# EvaluateEpilogue: (where and with which symbol values, results, outputs) -> outputs.
WriteResults = Callable[
    [ElementalEmitter, Sequence[SSAValue], list[SSAValue], list[SSAValue]], list[SSAValue]
]


@dataclass(frozen=True)
class HeroReducer:
    """A hero's reducer and how many of the group's values (accumulators, inits) are its."""

    name: str
    width: int


@dataclass
class PartialResults:
    """What a thread holds after its loop, and how a row's combined results are written.

    `values` and `inits` hold every hero's in turn (XLA's reduction group carries all of
    its heroes' accumulators), `reducers` says which are whose."""

    values: list[SSAValue]
    inits: list[SSAValue]
    reducers: list[HeroReducer]
    # The reduced outputs, before the write.
    outputs: list[SSAValue]
    write: WriteResults

    @property
    def widths(self) -> list[int]:
        return [reducer.width for reducer in self.reducers]

    def shuffle(
        self, builder: Builder, values: Sequence[SSAValue], max_distance: int
    ) -> list[SSAValue]:
        """Each hero's `values` combined across `2 * max_distance` lanes, one shuffle per hero
        (XLA's `shuffle_reduce` per reducer)."""
        return [
            result
            for reducer, group in zip(
                self.reducers, split_by_hero(values, self.widths), strict=True
            )
            for result in shuffle_reduce(builder, group, reducer.name, max_distance)
        ]


def split_by_hero(values: Sequence[SSAValue], widths: Sequence[int]) -> list[list[SSAValue]]:
    """`values` (every hero's in turn, `widths[i]` of hero i) cut into each hero's."""
    groups: list[list[SSAValue]] = []
    offset = 0
    for width in widths:
        groups.append(list(values[offset : offset + width]))
        offset += width
    assert offset == len(values), "one value per accumulator"
    return groups


# Combines the threads' partial results into one result per row and writes them:
# (grid, tiling, partial results) -> the written reduced outputs.
CombinePartials = Callable[[GridValues, ReductionTiling, PartialResults], list[SSAValue]]


def emit_reduction_entry_with(
    name: str,
    fusion: FusionFunctions,
    analysis: FusionAnalysis,
    epilogue: Subgraph | None,
    tiling: ReductionTiling,
    combine: CombinePartials,
) -> func.FuncOp:
    """A reduction's entry: thread loop (writing the side outputs), `combine`, which writes
    each row's result from its lane 0."""
    output_shapes = [leaf for root in analysis.roots for leaf in flatten_shape(root.shape)]
    entry = begin_entry_function(name, fusion, output_shapes, tiling.launch)
    emitter = entry.emitter(entry.body)
    grid = GridValues(entry, emitter, tiling.grid_map())
    inits: list[SSAValue] = []
    reducers: list[HeroReducer] = []
    for hero in analysis.reduction_group:
        num_inputs = len(hero.operands) // 2
        inits.extend(emitter.emit(init, [])[0] for init in hero.operands[num_inputs:])
        reducers.append(HeroReducer(fusion.reducer(hero.called_computations[0]), num_inputs))
    outputs, partials = _emit_thread_loop(entry, tiling, analysis, inits, reducers)
    reduced_outputs = [output for i, output in enumerate(outputs) if i not in analysis.side_outputs]

    def write(
        emitter: ElementalEmitter,
        symbols: Sequence[SSAValue],
        values: list[SSAValue],
        outputs: list[SSAValue],
    ) -> list[SSAValue]:
        write_map = tiling.write_map()
        launch_grid = GridValues(entry, emitter, tiling.grid_map())
        write_grid = GridValues(entry, emitter, replace(write_map, constraints=()), symbols)
        condition = _write_condition(launch_grid, write_grid, write_map)
        output_index = [write_grid.value(expr) for expr in tiling.output_index()]
        return _emit_write(write_grid, analysis, epilogue, condition, output_index, values, outputs)

    state = PartialResults(partials, inits, reducers, reduced_outputs, write)
    written = iter(combine(grid, tiling, state))
    return entry.finish(
        [
            output if i in analysis.side_outputs else next(written)
            for i, output in enumerate(outputs)
        ]
    )


def _write_condition(grid: GridValues, write_grid: GridValues, write_map: IndexingMap) -> SSAValue:
    """Whether a thread writes, as XLA's CheckConstraints: the bounds the write map tightened
    (checked against the launch grid), then its constraints (over the tightened domain)."""
    launch_dims = grid.domain.dim_vars
    dim_checks = [
        grid.holds(DimExpr(position), variable.bounds)
        for position, (variable, launch) in enumerate(
            zip(write_map.dim_vars, launch_dims, strict=True)
        )
        if variable.bounds != launch.bounds
    ]
    constraint_checks = [write_grid.holds(*constraint) for constraint in write_map.constraints]
    return grid.conjunction(dim_checks + constraint_checks) or grid.all_hold([])


def _emit_thread_loop(
    entry: EntryFunction,
    tiling: ReductionTiling,
    analysis: FusionAnalysis,
    inits: list[SSAValue],
    reducers: list[HeroReducer],
) -> tuple[list[SSAValue], list[SSAValue]]:
    """Each thread folds its share of the reduced elements into every hero's accumulators
    and writes the side outputs at the elements it reads: (the outputs, partial results).
    As XLA's EmitPerThreadElements, every output goes through the loop, before the
    accumulators."""
    names = [f"component{d}" for d in range(len(tiling.components_shape))]
    outputs = list(entry.outputs)
    if tiling.vectorized_partials:
        inits = [_broadcast(entry.body, init, tiling.vector_size) for init in inits]
    loop = begin_loop(entry, tiling.read_map(), [*outputs, *inits], names)
    carried = list(loop.region_iter_args[: len(outputs)])
    accumulators = loop.region_iter_args[len(outputs) :]
    for arg in accumulators:
        arg.name_hint = "acc"
    builder = builder_at_end(loop.body.block)
    emitter = entry.emitter(builder)
    components = list(loop.map_results)
    input_map = tiling.bitcast_map(tiling.input_shape)
    input_index = emitter.apply_map(input_map, components, tiling.components_shape)
    partials: list[SSAValue] = []
    hero_accumulators = split_by_hero(list(accumulators), [r.width for r in reducers])
    for hero, reducer, hero_accs in zip(
        analysis.reduction_group, reducers, hero_accumulators, strict=True
    ):
        inputs = hero.operands[: len(hero.operands) // 2]
        values = [emitter.emit(op, input_index)[0] for op in inputs]
        partials.extend(_fold(builder, tiling, loop, reducer.name, hero_accs, values))
    for i in analysis.side_outputs:
        root = analysis.output_roots[i]
        carried[i] = _write_side_output(emitter, tiling, root, carried[i], components)
    builder.insert(YieldOp([*carried, *partials]))
    entry.body.insert(loop)
    return list(loop.res[: len(outputs)]), list(loop.res[len(outputs) :])


def _fold(
    builder: Builder,
    tiling: ReductionTiling,
    loop: LoopOp,
    reducer: str,
    accumulators: list[SSAValue],
    values: list[SSAValue],
) -> list[SSAValue]:
    """One hero's accumulators with the elements read folded in (into the vector element the
    loop is at, where a thread keeps a vector of partials)."""
    if tiling.vectorized_partials:
        element = loop.induction_vars[-1]
        elements = [_extract(builder, acc, element) for acc in accumulators]
        call = builder.insert(PureCallOp(reducer, [*elements, *values], [e.type for e in elements]))
        return [
            _insert(builder, result, acc, element)
            for result, acc in zip(call.results, accumulators, strict=True)
        ]
    types = [acc.type for acc in accumulators]
    return list(builder.insert(PureCallOp(reducer, [*accumulators, *values], types)).results)


def _write_side_output(
    emitter: ElementalEmitter,
    tiling: ReductionTiling,
    root: HloInstruction,
    tensor: SSAValue,
    components: list[SSAValue],
) -> SSAValue:
    """The side output `root` at the element being read (the same element in row-major
    order: XLA's bitcast map from the components to the side output)."""
    side_map = tiling.bitcast_map(root.array_shape.dimensions)
    index = emitter.apply_map(side_map, components, tiling.components_shape)
    (value,) = emitter.emit(root, index)
    return insert_element(emitter.builder, value, tensor, index)


def _broadcast(builder: Builder, value: SSAValue, size: int) -> SSAValue:
    """`value` in every element of a vector of `size` (a per-thread vector of partials)."""
    vector_type = VectorType(value.type, [size])
    return builder.insert(vector.BroadcastOp(value, vector_type)).results[0]


def _extract(builder: Builder, vector_value: SSAValue, element: SSAValue | int) -> SSAValue:
    vector_type = vector_value.type
    assert isinstance(vector_type, VectorType)
    op = vector.ExtractOp(vector_value, [element], vector_type.element_type)
    return builder.insert(op).results[0]


def extract_element(builder: Builder, value: SSAValue, element: SSAValue | int) -> SSAValue:
    """Element `element` of a vector of partials; a scalar partial is its own element 0."""
    if not isinstance(value.type, VectorType):
        return value
    return _extract(builder, value, element)


def _insert(
    builder: Builder, value: SSAValue, vector_value: SSAValue, element: SSAValue
) -> SSAValue:
    return builder.insert(vector.InsertOp(value, vector_value, [element])).results[0]


def emit_vector_element_loop(
    grid: GridValues,
    size: int,
    inits: list[SSAValue],
    body: Callable[[SSAValue, list[SSAValue]], list[SSAValue]],
) -> list[SSAValue]:
    """`scf.for` over the `size` elements of a thread's vector of partial results, carrying
    `inits`; `body(element, carried)` emits one iteration through `grid`'s emitter and returns
    what it yields (XLA's EmitLoopNest over the symbol of its shared-memory maps)."""
    emitter = grid.emitter
    lower, upper, step = (emitter.constant_index(value) for value in (0, size, 1))
    block = Block(arg_types=[IndexType(), *[value.type for value in inits]])
    outer = emitter.builder
    emitter.builder = builder_at_end(block)
    emitter.caches.append({})
    results = body(block.args[0], list(block.args[1:]))
    emitter.insert(scf.YieldOp(*results))
    emitter.caches.pop()
    emitter.builder = outer
    return list(emitter.insert(scf.ForOp(lower, upper, step, inits, block)).results)


def allocate_shared(builder: Builder, shape: Sequence[int], value_type: Attribute) -> SSAValue:
    return builder.insert(AllocateSharedOp(TensorType(value_type, shape))).results[0]


def shuffle_reduce(
    builder: Builder, values: Sequence[SSAValue], reducer: str, max_distance: int
) -> list[SSAValue]:
    """Values combined across lanes, a butterfly from `max_distance` lanes apart down."""
    return list(builder.insert(ShuffleReduceOp(values, max_distance, reducer)).results)


def _emit_write(
    grid: GridValues,
    analysis: FusionAnalysis,
    epilogue: Subgraph | None,
    condition: SSAValue,
    output_index: list[SSAValue],
    results: list[SSAValue],
    outputs: list[SSAValue],
) -> list[SSAValue]:
    """Where `condition` holds (lane 0 of each row, in bounds), the row's results are
    written at `output_index`, through the epilogue if there is one."""
    entry = grid.entry
    if epilogue is None:
        inserts = [
            PredicatedInsertOp(value, output, output_index, condition)
            for value, output in zip(results, outputs, strict=True)
        ]
        return [grid.builder.insert(insert).results[0] for insert in inserts]
    then_block = Block()
    then_builder = builder_at_end(then_block)
    widths = [len(flatten_shape(hero.shape)) for hero in analysis.reduction_group]
    by_hero = split_by_hero(results, widths)
    emitter = entry.emitter(then_builder, dict(zip(analysis.reduction_group, by_hero, strict=True)))
    values, root_index = emit_epilogue(emitter, analysis, epilogue, output_index)
    inserted = [
        insert_element(then_builder, value, output, root_index)
        for value, output in zip(values, outputs, strict=True)
    ]
    then_builder.insert(scf.YieldOp(*inserted))
    else_block = Block()
    builder_at_end(else_block).insert(scf.YieldOp(*outputs))
    types = [output.type for output in outputs]
    written = scf.IfOp(condition, types, Region(then_block), Region(else_block))
    return list(grid.builder.insert(written).results)
