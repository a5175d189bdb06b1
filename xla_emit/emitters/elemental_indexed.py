"""Elemental emission of ops that compute where they read: gather and reduce-window.

Their operands are roots of their own subgraphs (the indexing analysis gives
them no map), read at indices these functions compute:

- gather: the output's batch dims pick an index vector, whose components
  (cast to `index` and clamped to `[0, dim - slice_size]`, as XLA clamps them)
  start the slice along `start_index_map`; the offset dims walk the slice.
- reduce-window: an `scf.for` per window dim (size-1 dims need none) carries
  the accumulator, starting at the init value; positions that fall into the
  padding or between base-dilated elements are skipped (`scf.if`), the others
  combined with the reducer, window positions in row-major order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block, SSAValue

from xla_emit.dialects.xla import PureCallOp
from xla_emit.emitters.elemental_ops import unsupported
from xla_emit.emitters.types import builder_at_end, element_type
from xla_emit.emitters.work_items import index_dim_vars
from xla_emit.hlo.ir import HloInstruction, WindowDimension
from xla_emit.hlo.shape import PrimitiveType, flatten_shape
from xla_emit.indexing.affine import AffineExpr, ConstantExpr, DimExpr, SymbolExpr
from xla_emit.indexing.indexing_map import IndexingMap, Variable
from xla_emit.indexing.interval import Interval

if TYPE_CHECKING:
    from xla_emit.emitters.elemental import ElementalEmitter


def emit_gather(
    emitter: ElementalEmitter, instruction: HloInstruction, indices: Sequence[SSAValue]
) -> list[SSAValue]:
    """The operand element at the clamped start of the slice this output index lies in.

    An operand batching dim is indexed by the output's batch index of its paired
    `start_indices_batching_dims` dim (its slice is one element)."""
    dims = instruction.gather_dimensions
    assert dims is not None, "a gather has dimension numbers"
    operand = instruction.operands[0].array_shape
    starts = _gather_starts(emitter, instruction, indices)
    offset_dims = sorted(dims.offset_dims)
    removed = set(dims.collapsed_slice_dims) | set(dims.operand_batching_dims)
    window_dims = [d for d in range(operand.rank) if d not in removed]
    variables = [
        Variable(Interval(0, operand.dimensions[d] - dims.slice_sizes[d]))
        for d in dims.start_index_map
    ]
    domain = IndexingMap(
        index_dim_vars(instruction.array_shape.dimensions), tuple(variables), (), ()
    )
    batch_out = [d for d in range(len(indices)) if d not in dims.offset_dims]
    index_rank = instruction.operands[1].array_shape.rank
    index_batch = [d for d in range(index_rank) if d != dims.index_vector_dim]
    operand_index: list[SSAValue] = []
    for d in range(operand.rank):
        if d in dims.operand_batching_dims:
            paired = dims.start_indices_batching_dims[dims.operand_batching_dims.index(d)]
            operand_index.append(indices[batch_out[index_batch.index(paired)]])
            continue
        expr: AffineExpr = ConstantExpr(0)
        if d in dims.start_index_map:
            expr = SymbolExpr(dims.start_index_map.index(d))
        if d in window_dims:
            expr = expr + DimExpr(offset_dims[window_dims.index(d)])
        operand_index.append(emitter.apply_grid_expr(expr, domain, indices, starts))
    return [emitter.emit(instruction.operands[0], operand_index)[0]]


def _gather_starts(
    emitter: ElementalEmitter, instruction: HloInstruction, indices: Sequence[SSAValue]
) -> list[SSAValue]:
    """One clamped start per `start_index_map` entry, read from the index vector."""
    dims = instruction.gather_dimensions
    assert dims is not None
    operand = instruction.operands[0].array_shape
    start_indices = instruction.operands[1]
    batch = [index for d, index in enumerate(indices) if d not in dims.offset_dims]
    starts: list[SSAValue] = []
    for component, d in enumerate(dims.start_index_map):
        position = list(batch)
        if dims.index_vector_dim < start_indices.array_shape.rank:
            position.insert(dims.index_vector_dim, emitter.constant_index(component))
        raw = emitter.emit(start_indices, position)[0]
        index = emitter.index_value(raw, start_indices.array_shape.element_type)
        starts.append(emitter.clamp_index(index, operand.dimensions[d] - dims.slice_sizes[d]))
    return starts


def emit_reduce_window(
    emitter: ElementalEmitter, instruction: HloInstruction, indices: Sequence[SSAValue]
) -> list[SSAValue]:
    """The window's elements reduced into the init values, in row-major window order.

    A variadic reduce-window (XLA writes one, an argmax over (value, index) pairs, for
    max-pool's gradient) carries one accumulator per operand through the same nest."""
    window = instruction.window
    assert window is not None, "a reduce-window has a window"
    if any(w.reversal for w in window):
        raise unsupported(instruction, "reduce-window with window reversal")
    half = len(instruction.operands) // 2
    inits = [emitter.emit(init, [])[0] for init in instruction.operands[half:]]
    nest = _WindowNest(emitter, instruction, window, indices)
    sizes = [w.size for w in window]
    return emit_loop_nest_values(emitter, sizes, inits, nest.accumulate)


def emit_loop_nest(
    emitter: ElementalEmitter,
    sizes: Sequence[int],
    init: SSAValue,
    body: Callable[[SSAValue, list[SSAValue]], SSAValue],
) -> SSAValue:
    """`scf.for` nests over `sizes` (outermost first; size-1 dims get the index 0, no loop)
    carrying one accumulator; `body(accumulator, ivs)` gives the next one."""
    (result,) = emit_loop_nest_values(
        emitter, sizes, [init], lambda accumulators, ivs: [body(accumulators[0], ivs)]
    )
    return result


def emit_loop_nest_values(
    emitter: ElementalEmitter,
    sizes: Sequence[int],
    inits: Sequence[SSAValue],
    body: Callable[[list[SSAValue], list[SSAValue]], list[SSAValue]],
) -> list[SSAValue]:
    """`emit_loop_nest` carrying several accumulators."""

    def level(accumulators: list[SSAValue], ivs: list[SSAValue]) -> list[SSAValue]:
        if len(ivs) == len(sizes):
            return body(accumulators, ivs)
        size = sizes[len(ivs)]
        if size == 1:
            return level(accumulators, [*ivs, emitter.constant_index(0)])
        block = Block(arg_types=[IndexType(), *(a.type for a in accumulators)])
        block.args[0].name_hint = f"w{len(ivs)}"
        for arg in block.args[1:]:
            arg.name_hint = "acc"
        outer = emitter.builder
        emitter.builder = builder_at_end(block)
        emitter.caches.append({})
        results = level(list(block.args[1:]), [*ivs, block.args[0]])
        emitter.insert(scf.YieldOp(*results))
        emitter.caches.pop()
        emitter.builder = outer
        bounds = [emitter.constant_index(v) for v in (0, size, 1)]
        return list(emitter.insert(scf.ForOp(*bounds, accumulators, block)).results)

    return level(list(inits), [])


class _WindowNest:
    """The loop nest of one reduce-window element: a level per window dim."""

    def __init__(
        self,
        emitter: ElementalEmitter,
        instruction: HloInstruction,
        window: Sequence[WindowDimension],
        indices: Sequence[SSAValue],
    ):
        self.emitter = emitter
        self.instruction = instruction
        self.window = list(window)
        self.indices = list(indices)
        self.reducer = emitter.fusion.reducer(instruction.called_computations[0])
        symbols = tuple(Variable(Interval(0, w.size - 1)) for w in window)
        self.domain = IndexingMap(
            index_dim_vars(flatten_shape(instruction.shape)[0].dimensions), symbols, (), ()
        )

    def accumulate(self, accumulators: list[SSAValue], ivs: list[SSAValue]) -> list[SSAValue]:
        """The reducer on the accumulators and the elements at this window position, if any."""
        emitter = self.emitter
        operands = self.instruction.operands[: len(self.instruction.operands) // 2]
        checks: list[SSAValue] = []
        operand_index: list[SSAValue] = []
        sizes = operands[0].array_shape.dimensions
        for d, (w, size) in enumerate(zip(self.window, sizes, strict=True)):
            position = DimExpr(d) * w.stride + SymbolExpr(d) * w.window_dilation - w.pad_low
            if w.base_dilation > 1:
                remainder = self.apply(position.mod(w.base_dilation), ivs)
                on_element = Interval(0, 0)
                checks.extend(emitter.range_checks(remainder, on_element, Interval.unbounded()))
                position = position.floordiv(w.base_dilation)
            known = self.domain.expression_range(position)
            index = self.apply(position, ivs)
            checks.extend(emitter.range_checks(index, Interval(0, size - 1), known))
            operand_index.append(index)
        types = [a.type for a in accumulators]

        def combined() -> list[SSAValue]:
            values = [emitter.emit(operand, operand_index)[0] for operand in operands]
            call = PureCallOp(self.reducer, [*accumulators, *values], types)
            return list(emitter.insert(call).results)

        if not checks:
            return combined()
        condition = checks[0]
        for check in checks[1:]:
            condition = emitter.insert(arith.AndIOp(condition, check)).results[0]
        return emitter.emit_if_values(condition, types, combined, lambda: accumulators)

    def apply(self, expr: AffineExpr, ivs: Sequence[SSAValue]) -> SSAValue:
        return self.emitter.apply_grid_expr(expr, self.domain, self.indices, ivs)


def emit_dot(
    emitter: ElementalEmitter, instruction: HloInstruction, indices: Sequence[SSAValue]
) -> list[SSAValue]:
    """XLA's elemental dot: a loop nest over the contracting dims accumulating
    `acc + lhs * rhs` (`or`/`and` for pred) from zero; bf16 accumulates in f32 and is
    rounded once at the end. The output is [batch, lhs free, rhs free]."""
    dims = instruction.dot_dimensions
    assert dims is not None, "a dot has dimension numbers"
    lhs, rhs = instruction.operands
    out_type = instruction.array_shape.element_type
    acc_type = PrimitiveType.F32 if out_type is PrimitiveType.BF16 else out_type
    lhs_free = [
        d for d in range(lhs.array_shape.rank) if d not in dims.lhs_batch + dims.lhs_contracting
    ]
    rhs_free = [
        d for d in range(rhs.array_shape.rank) if d not in dims.rhs_batch + dims.rhs_contracting
    ]
    batch = list(indices[: len(dims.lhs_batch)])
    lhs_indices = indices[len(batch) : len(batch) + len(lhs_free)]
    rhs_indices = indices[len(batch) + len(lhs_free) :]
    # Each side's index at the output index, but for the contracting dims.
    lhs_fixed = dict(zip(dims.lhs_batch, batch, strict=True))
    lhs_fixed.update(zip(lhs_free, lhs_indices, strict=True))
    rhs_fixed = dict(zip(dims.rhs_batch, batch, strict=True))
    rhs_fixed.update(zip(rhs_free, rhs_indices, strict=True))

    def read(
        side: HloInstruction,
        fixed: dict[int, SSAValue],
        contracting: Sequence[int],
        ivs: Sequence[SSAValue],
    ) -> SSAValue:
        index = {**fixed, **dict(zip(contracting, ivs, strict=True))}
        value = emitter.emit(side, [index[d] for d in range(side.array_shape.rank)])[0]
        return _widen(emitter, instruction, value, side.array_shape.element_type, acc_type)

    def step(accumulator: SSAValue, ivs: list[SSAValue]) -> SSAValue:
        a = read(lhs, lhs_fixed, dims.lhs_contracting, ivs)
        b = read(rhs, rhs_fixed, dims.rhs_contracting, ivs)
        if acc_type is PrimitiveType.PRED:
            both = emitter.insert(arith.AndIOp(a, b)).results[0]
            return emitter.insert(arith.OrIOp(accumulator, both)).results[0]
        if acc_type.is_float:
            product = emitter.insert(arith.MulfOp(a, b)).results[0]
            return emitter.insert(arith.AddfOp(accumulator, product)).results[0]
        product = emitter.insert(arith.MuliOp(a, b)).results[0]
        return emitter.insert(arith.AddiOp(accumulator, product)).results[0]

    sizes = [lhs.array_shape.dimensions[d] for d in dims.lhs_contracting]
    zero = emitter.scalar_constant(0, acc_type)
    result = emit_loop_nest(emitter, sizes, zero, step)
    if acc_type is not out_type:
        result = emitter.insert(arith.TruncFOp(result, element_type(out_type))).results[0]
    return [result]


def _widen(
    emitter: ElementalEmitter,
    instruction: HloInstruction,
    value: SSAValue,
    source: PrimitiveType,
    target: PrimitiveType,
) -> SSAValue:
    """An operand element in the accumulator's type (the dot's operands may be narrower)."""
    if source is target:
        return value
    if source.is_float and target.is_float and source.bit_width < target.bit_width:
        return emitter.insert(arith.ExtFOp(value, element_type(target))).results[0]
    if not source.is_float and not target.is_float and source.bit_width < target.bit_width:
        extend = arith.ExtUIOp if source.is_unsigned_int else arith.ExtSIOp
        return emitter.insert(extend(value, element_type(target))).results[0]
    raise unsupported(instruction, f"{source.value} operands accumulated in {target.value}")
