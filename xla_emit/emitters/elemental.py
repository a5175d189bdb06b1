"""Elemental emission: HLO instructions as ops at an index, inside a subgraph function.

A subgraph function computes its roots' elements at one output index:

    func.func private @name(%arg0: tensor<...>, ...,
                            %i: index {xla.range = [0 : index, N : index]}, ...,
                            <injected scalars>) -> (root element types)

Parameters are read with `tensor.extract`, elementwise HLO becomes `arith`
and `math` ops on the element type (16-bit floats stay 16-bit: every op's
result is rounded to the storage type, as XLA computes them), index
transformations become `apply_indexing` of the op's output-to-input map, pad
and concatenate branch with `scf.if` on the map's domain, reduce loops with
`scf.for` calling its reducer, and values of other subgraphs come from
`pure_call`s. The opcode tables live in `elemental_ops`; the functions
themselves are declared and emitted in `functions`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from xdsl.builder import Builder
from xdsl.dialects import arith, scf, tensor
from xdsl.dialects import complex as complex_ops
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from xla_emit.dialects import arith_ext
from xla_emit.dialects.xla import (
    ApplyIndexingOp,
    IndexingMapAttr,
    PureCallOp,
)
from xla_emit.emitters.bitcast import emit_bitcast
from xla_emit.emitters.complex_ops import emit_complex_op, is_complex_op
from xla_emit.emitters.elemental_indexed import emit_dot, emit_gather, emit_reduce_window
from xla_emit.emitters.elemental_ops import emit_elementwise_op, unsupported
from xla_emit.emitters.types import (
    builder_at_end,
    complex_type,
    element_type,
    float_type,
    integer_type,
)
from xla_emit.emitters.work_items import index_dim_vars
from xla_emit.hlo.indexing_analysis import compute_output_to_input_indexing
from xla_emit.hlo.ir import HloInstruction
from xla_emit.hlo.opcodes import ELEMENTWISE_OPS
from xla_emit.hlo.shape import PrimitiveType, flatten_shape
from xla_emit.indexing.affine import AffineExpr, ConstantExpr, DimExpr, SymbolExpr
from xla_emit.indexing.indexing_map import IndexingMap, Variable
from xla_emit.indexing.interval import Interval

if TYPE_CHECKING:
    # The functions module emits subgraphs with this module's emitter.
    from xla_emit.emitters.functions import FusionFunctions, Subgraph

ConstantValue = (
    IntegerAttr[IntegerType | IndexType] | FloatAttr[AnyFloat] | DenseIntOrFPElementsAttr
)
"""What `arith.constant` takes."""


def _operand_map(instruction: HloInstruction, operand_number: int) -> IndexingMap:
    """From the instruction's output index to the operand's (its domain: where it is read)."""
    indexing_map = compute_output_to_input_indexing(instruction)[operand_number]
    assert indexing_map is not None, f"{instruction.opcode} has an output-to-input map"
    return indexing_map


class ElementalEmitter:
    """Emits HLO instructions of one subgraph at given indices into a function body."""

    def __init__(
        self,
        fusion: FusionFunctions,
        subgraph: Subgraph,
        builder: Builder,
        tensors: Sequence[SSAValue],
        injected: dict[HloInstruction, list[SSAValue]],
    ):
        self.fusion: FusionFunctions = fusion
        self.subgraph: Subgraph = subgraph
        self.builder: Builder = builder
        self.tensors: list[SSAValue] = list(tensors)
        self.injected: dict[HloInstruction, list[SSAValue]] = injected
        # One cache per open region: values from a nested region are not visible after it.
        self.caches: list[dict[tuple[object, ...], list[SSAValue]]] = [{}]
        # Constants go to the top of the function (as canonicalization would put them), once each.
        insertion_point = builder.insertion_point
        self.function_block: Block = insertion_point.block
        self.last_constant: Operation | None = insertion_point.block.last_op
        self.constants: dict[ConstantValue, SSAValue] = {}

    # -- helpers ---------------------------------------------------------------

    def insert(self, op: Operation) -> Operation:
        return self.builder.insert(op)

    def constant(self, value: ConstantValue, name: str | None = None) -> SSAValue:
        """An `arith.constant` at the top of the function, shared by all uses."""
        if value in self.constants:
            return self.constants[value]
        op = arith.ConstantOp(value)
        op.results[0].name_hint = name
        if self.last_constant is None:
            point = InsertPoint.at_start(self.function_block)
        else:
            point = InsertPoint.after(self.last_constant)
        Builder(point).insert(op)
        self.last_constant = op
        self.constants[value] = op.results[0]
        return op.results[0]

    def constant_index(self, value: int) -> SSAValue:
        return self.constant(IntegerAttr(value, IndexType()), f"c{value}" if value >= 0 else None)

    def lookup(self, key: tuple[object, ...]) -> list[SSAValue] | None:
        for cache in reversed(self.caches):
            if key in cache:
                return cache[key]
        return None

    def apply_map(
        self, indexing_map: IndexingMap, indices: Sequence[SSAValue], bounds: Sequence[int]
    ) -> list[SSAValue]:
        """The map's results at `indices` (bare dims reuse the index, constants fold)."""
        values: list[SSAValue] = []
        for result in indexing_map.results:
            values.append(self.apply_expr(result, indices, bounds))
        return values

    def apply_expr(
        self, expr: AffineExpr, indices: Sequence[SSAValue], bounds: Sequence[int]
    ) -> SSAValue:
        domain = IndexingMap(index_dim_vars(bounds), (), (), ())
        return self.apply_grid_expr(expr, domain, indices, ())

    def apply_grid_expr(
        self,
        expr: AffineExpr,
        domain: IndexingMap,
        dims: Sequence[SSAValue],
        symbols: Sequence[SSAValue],
    ) -> SSAValue:
        """One result of a map whose variables have `domain`'s bounds, as XLA folds it."""
        single = IndexingMap(domain.dim_vars, domain.range_vars, (), (expr,)).simplify()
        (expr,) = single.results
        if isinstance(expr, ConstantExpr):
            return self.constant_index(expr.value)
        if isinstance(expr, DimExpr):
            return dims[expr.position]
        if isinstance(expr, SymbolExpr):
            return symbols[expr.position]
        # The domain is part of the key: XLA prints one op per map, domains included.
        key = ("apply_indexing", single, *dims, *symbols)
        cached = self.lookup(key)
        if cached is not None:
            return cached[0]
        apply = ApplyIndexingOp(IndexingMapAttr.from_map(single), dims, symbols)
        result = self.insert(apply).results[0]
        self.caches[-1][key] = [result]
        return result

    # -- dispatch --------------------------------------------------------------

    def emit(self, instruction: HloInstruction, indices: Sequence[SSAValue]) -> list[SSAValue]:
        """The element(s) of `instruction` at `indices` (several for a tuple-shaped reduce)."""
        if instruction in self.injected:
            return self.injected[instruction]
        key = (instruction, *indices)
        cached = self.lookup(key)
        if cached is not None:
            return cached
        if self._is_chained_elementwise(instruction):
            self._emit_elementwise_chain(instruction, indices)
        values = self._emit_uncached(instruction, indices)
        self.caches[-1][key] = values
        return values

    def _emit_elementwise_chain(
        self, instruction: HloInstruction, indices: Sequence[SSAValue]
    ) -> None:
        """Emits, operands first and without recursion, what `instruction` reads
        through chains of elementwise ops of this subgraph (all at the same indices).

        A fusion may chain thousands of elementwise ops; emitting each operand
        recursively would exhaust Python's stack. The order is the one recursive
        emission would give (operands left to right, depth first); other ops are
        leaves of the walk and emit their own operands as usual.
        """
        order: list[HloInstruction] = []
        visited: set[HloInstruction] = {instruction}
        stack: list[tuple[HloInstruction, int]] = [(instruction, 0)]
        while stack:
            current, next_operand = stack.pop()
            if next_operand == len(current.operands):
                order.append(current)
                continue
            stack.append((current, next_operand + 1))
            operand = current.operands[next_operand]
            if operand in visited or self.lookup((operand, *indices)) is not None:
                continue
            visited.add(operand)
            if self._is_chained_elementwise(operand):
                stack.append((operand, 0))
            else:
                order.append(operand)
        for pending in order[:-1]:  # the last one is `instruction`, emitted by the caller
            self.emit(pending, indices)

    def _is_chained_elementwise(self, instruction: HloInstruction) -> bool:
        return (
            _is_plain_elementwise(instruction)
            and instruction in self.subgraph.instructions
            and instruction not in self.injected
        )

    def _emit_uncached(
        self, instruction: HloInstruction, indices: Sequence[SSAValue]
    ) -> list[SSAValue]:
        opcode = instruction.opcode
        if opcode == "parameter":
            return [self.emit_parameter(instruction, indices)]
        if opcode == "constant":
            # A constant's own function would only return it: emit it in place.
            return self.emit_constant(instruction, indices)
        owner = self.fusion.root_of.get(instruction)
        if owner is not None and instruction not in self.subgraph.instructions:
            return self.emit_call(owner, instruction, indices)
        emit_op = _EMITTERS.get(opcode)
        if emit_op is not None:
            return emit_op(self, instruction, indices)
        if opcode == "bitcast-convert" and _changes_width(instruction):
            return [_emit_width_changing_bitcast(self, instruction, indices)]
        if opcode in _ELEMENTWISE:
            operands = [self.emit(op, indices)[0] for op in instruction.operands]
            return [self.emit_elementwise(instruction, operands)]
        raise unsupported(instruction)

    def emit_parameter(self, parameter: HloInstruction, indices: Sequence[SSAValue]) -> SSAValue:
        source = self.tensors[parameter.parameter_number or 0]
        extract = self.insert(
            tensor.ExtractOp(source, indices, element_type(parameter.array_shape.element_type))
        )
        extract.results[0].name_hint = "extracted"
        return extract.results[0]

    def emit_call(
        self, callee: Subgraph, instruction: HloInstruction, indices: Sequence[SSAValue]
    ) -> list[SSAValue]:
        key = (callee, *indices)
        results = self.lookup(key)
        self.fusion.called.setdefault(callee.name)
        if results is None:
            types = [element_type(s.element_type) for s in callee.result_shapes]
            injected = [value for hero in callee.injected for value in self.emit(hero, indices)]
            call = PureCallOp(callee.name, [*self.tensors, *indices, *injected], types)
            results = list[SSAValue](self.insert(call).results)
            self.caches[-1][key] = list[SSAValue](results)
        offset = 0
        for root in callee.roots:
            width = len(flatten_shape(root.shape))
            if root is instruction:
                return results[offset : offset + width]
            offset += width
        raise AssertionError(f"{instruction.name} is not a root of {callee.name}")

    def emit_operand_at_map(
        self, instruction: HloInstruction, operand_number: int, indices: Sequence[SSAValue]
    ) -> SSAValue:
        indexing_map = _operand_map(instruction, operand_number)
        operand_indices = self.apply_map(indexing_map, indices, instruction.array_shape.dimensions)
        return self.emit(instruction.operands[operand_number], operand_indices)[0]

    # -- structural ops ----------------------------------------------------------

    def emit_constant(
        self, instruction: HloInstruction, indices: Sequence[SSAValue]
    ) -> list[SSAValue]:
        literal = instruction.literal
        assert literal is not None, "constants carry a literal"
        ptype = instruction.array_shape.element_type
        if literal.ndim == 0 or literal.size == 1:
            return [self.scalar_constant(literal.reshape(()).item(), ptype)]
        dims = instruction.array_shape.dimensions
        if ptype.is_complex:
            return [self.complex_table(literal, ptype, indices)]
        values = [_python_scalar(v, ptype) for v in literal.flatten()]
        if ptype.is_float:
            floats = [float(v) for v in values]
            dense = DenseIntOrFPElementsAttr.from_list(TensorType(float_type(ptype), dims), floats)
        else:
            ints = [_signless(int(v), ptype.bit_width) for v in values]
            dense = DenseIntOrFPElementsAttr.from_list(TensorType(integer_type(ptype), dims), ints)
        table = self.constant(dense, "cst")
        extract = self.insert(tensor.ExtractOp(table, indices, element_type(ptype)))
        extract.results[0].name_hint = "extracted"
        return [extract.results[0]]

    def complex_table(
        self, literal: np.ndarray, ptype: PrimitiveType, indices: Sequence[SSAValue]
    ) -> SSAValue:
        """An element of a complex constant: its parts from two float tables, then created."""
        part = ptype.component_type
        table_type = TensorType(float_type(part), literal.shape)
        parts: list[SSAValue] = []
        for values in (np.real(literal), np.imag(literal)):
            dense = DenseIntOrFPElementsAttr.from_list(table_type, [float(v) for v in values.flat])
            extract = tensor.ExtractOp(self.constant(dense, "cst"), indices, float_type(part))
            parts.append(self.insert(extract).results[0])
        create = complex_ops.CreateOp(parts[0], parts[1], complex_type(ptype))
        return self.insert(create).results[0]

    def scalar_constant(self, value: object, ptype: PrimitiveType) -> SSAValue:
        if ptype.is_complex:  # both parts as float constants, then created where used
            number = complex(value)  # type: ignore[arg-type]
            part = ptype.component_type
            parts = [self.scalar_constant(p, part) for p in (number.real, number.imag)]
            create = complex_ops.CreateOp(parts[0], parts[1], complex_type(ptype))
            return self.insert(create).results[0]
        scalar = _python_scalar(value, ptype)
        if ptype.is_float:
            # element_type gives a float type for float HLO types.
            attr: ConstantValue = FloatAttr(float(scalar), float_type(ptype))
        else:
            value = _signless(int(scalar), ptype.bit_width)
            attr = IntegerAttr(value, integer_type(ptype))
        return self.constant(attr, "cst")

    def emit_iota(self, instruction: HloInstruction, indices: Sequence[SSAValue]) -> list[SSAValue]:
        index = indices[instruction.iota_dimension or 0]
        ptype = instruction.array_shape.element_type
        if ptype.is_float:
            as_int = self.insert(arith.IndexCastOp(index, IntegerType(64))).results[0]
            return [self.insert(arith.SIToFPOp(as_int, float_type(ptype))).results[0]]
        return [self.insert(arith.IndexCastOp(index, element_type(ptype))).results[0]]

    def emit_index_transform(
        self, instruction: HloInstruction, indices: Sequence[SSAValue]
    ) -> list[SSAValue]:
        if instruction.operands[0].array_shape.rank == 0:
            return [self.emit(instruction.operands[0], [])[0]]
        return [self.emit_operand_at_map(instruction, 0, indices)]

    def emit_get_tuple_element(
        self, instruction: HloInstruction, indices: Sequence[SSAValue]
    ) -> list[SSAValue]:
        source = instruction.operands[0]
        values = self.emit(source, indices)
        return [values[instruction.tuple_index or 0]]

    def in_domain(
        self, indexing_map: IndexingMap, indices: Sequence[SSAValue], shape: Sequence[int]
    ) -> SSAValue | None:
        """An `i1` that holds where `indices` lie in the map's domain (None: always)."""
        conditions: list[SSAValue] = []
        for position, (variable, size) in enumerate(zip(indexing_map.dim_vars, shape, strict=True)):
            full = Interval(0, size - 1)
            if variable.bounds != full:
                conditions.extend(self.range_checks(indices[position], variable.bounds, full))
        for expr, interval in indexing_map.constraints:
            value = self.apply_expr(expr, indices, shape)
            conditions.extend(self.range_checks(value, interval, Interval.unbounded()))
        if not conditions:
            return None
        result = conditions[0]
        for condition in conditions[1:]:
            result = self.insert(arith.AndIOp(result, condition)).results[0]
        return result

    def range_checks(self, value: SSAValue, interval: Interval, known: Interval) -> list[SSAValue]:
        checks: list[SSAValue] = []
        if interval.is_point:
            bound = self.constant_index(interval.lower)
            return [self.insert(arith.CmpiOp(value, bound, "eq")).results[0]]
        if interval.lower > known.lower:
            bound = self.constant_index(interval.lower)
            checks.append(self.insert(arith.CmpiOp(value, bound, "sge")).results[0])
        if interval.upper < known.upper:
            bound = self.constant_index(interval.upper)
            checks.append(self.insert(arith.CmpiOp(value, bound, "sle")).results[0])
        return checks

    def emit_if(
        self,
        condition: SSAValue,
        result_type: Attribute,
        then_body: Callable[[], SSAValue],
        else_body: Callable[[], SSAValue],
    ) -> SSAValue:
        """`scf.if` whose branches are emitted by the callbacks into fresh cache scopes."""
        (result,) = self.emit_if_values(
            condition, [result_type], lambda: [then_body()], lambda: [else_body()]
        )
        return result

    def emit_if_values(
        self,
        condition: SSAValue,
        result_types: Sequence[Attribute],
        then_body: Callable[[], Sequence[SSAValue]],
        else_body: Callable[[], Sequence[SSAValue]],
    ) -> list[SSAValue]:
        """`emit_if` yielding several values (one per result type)."""
        regions: list[Region] = []
        for body in (then_body, else_body):
            block = Block()
            outer = self.builder
            self.builder = builder_at_end(block)
            self.caches.append({})
            values = body()
            self.insert(scf.YieldOp(*values))
            self.caches.pop()
            self.builder = outer
            regions.append(Region(block))
        branch = scf.IfOp(condition, list(result_types), regions[0], regions[1])
        return list(self.insert(branch).results)

    def emit_pad(self, instruction: HloInstruction, indices: Sequence[SSAValue]) -> list[SSAValue]:
        indexing_map = _operand_map(instruction, 0)
        shape = instruction.array_shape.dimensions
        condition = self.in_domain(indexing_map, indices, shape)
        result_type = element_type(instruction.array_shape.element_type)

        def operand_value() -> SSAValue:
            # Inside the branch the indices lie in the map's domain, and XLA's maps say so.
            inside = IndexingMap(indexing_map.dim_vars, (), (), ())
            operand_indices = [
                self.apply_grid_expr(expr, inside, indices, ()) for expr in indexing_map.results
            ]
            return self.emit(instruction.operands[0], operand_indices)[0]

        def padding_value() -> SSAValue:
            return self.emit(instruction.operands[1], [])[0]

        if condition is None:
            return [operand_value()]
        return [self.emit_if(condition, result_type, operand_value, padding_value)]

    def emit_concatenate(
        self, instruction: HloInstruction, indices: Sequence[SSAValue]
    ) -> list[SSAValue]:
        return [self._concatenate_from(instruction, 0, indices)]

    def _concatenate_from(
        self, instruction: HloInstruction, first: int, indices: Sequence[SSAValue]
    ) -> SSAValue:
        """The element read from operand `first` if the index falls there, else from a later one."""
        if first == len(instruction.operands) - 1:
            return self.emit_operand_at_map(instruction, first, indices)
        shape = instruction.array_shape.dimensions
        indexing_map = _operand_map(instruction, first)
        condition = self.in_domain(indexing_map, indices, shape)
        assert condition is not None, "a concatenate operand covers part of the output"
        return self.emit_if(
            condition,
            element_type(instruction.array_shape.element_type),
            lambda: self.emit_operand_at_map(instruction, first, indices),
            lambda: self._concatenate_from(instruction, first + 1, indices),
        )

    def clamped_starts(
        self, instruction: HloInstruction, first: int, sizes: Sequence[int]
    ) -> tuple[list[SSAValue], IndexingMap]:
        """The start indices of a dynamic (update-)slice, clamped as XLA clamps them to
        `[0, dim - size]`, and the domain giving them those bounds as symbols."""
        operand_shape = instruction.operands[0].array_shape.dimensions
        starts: list[SSAValue] = []
        variables: list[Variable] = []
        for position, (dim, size) in enumerate(zip(operand_shape, sizes, strict=True)):
            start_op = instruction.operands[first + position]
            index = self.index_value(self.emit(start_op, [])[0], start_op.array_shape.element_type)
            starts.append(self.clamp_index(index, dim - size))
            variables.append(Variable(Interval(0, dim - size)))
        domain = IndexingMap(
            index_dim_vars(instruction.array_shape.dimensions), tuple(variables), (), ()
        )
        return starts, domain

    def index_value(self, raw: SSAValue, ptype: PrimitiveType) -> SSAValue:
        """An integer element as an `index` (unsigned types zero-extend)."""
        if ptype.is_unsigned_int:
            return self.insert(arith_ext.IndexCastUIOp(raw, IndexType())).results[0]
        return self.insert(arith.IndexCastOp(raw, IndexType())).results[0]

    def clamp_index(self, index: SSAValue, upper: int) -> SSAValue:
        """`min(max(index, 0), upper)`: XLA's clamp of dynamic start indices."""
        lowered = self.insert(arith.MaxSIOp(index, self.constant_index(0))).results[0]
        return self.insert(arith.MinSIOp(lowered, self.constant_index(upper))).results[0]

    def emit_dynamic_slice(
        self, instruction: HloInstruction, indices: Sequence[SSAValue]
    ) -> list[SSAValue]:
        sizes = instruction.array_shape.dimensions
        starts, domain = self.clamped_starts(instruction, 1, sizes)
        operand_indices = [
            self.apply_grid_expr(DimExpr(d) + SymbolExpr(d), domain, indices, starts)
            for d in range(len(sizes))
        ]
        return [self.emit(instruction.operands[0], operand_indices)[0]]

    def emit_dynamic_update_slice(
        self, instruction: HloInstruction, indices: Sequence[SSAValue]
    ) -> list[SSAValue]:
        """The update's element inside the (clamped) window, the operand's elsewhere."""
        update_shape = instruction.operands[1].array_shape.dimensions
        starts, domain = self.clamped_starts(instruction, 2, update_shape)
        offsets = [
            self.apply_grid_expr(DimExpr(d) - SymbolExpr(d), domain, indices, starts)
            for d in range(len(update_shape))
        ]
        checks: list[SSAValue] = []
        for offset, size in zip(offsets, update_shape, strict=True):
            checks.extend(self.range_checks(offset, Interval(0, size - 1), Interval.unbounded()))
        condition = checks[0]
        for check in checks[1:]:
            condition = self.insert(arith.AndIOp(condition, check)).results[0]
        return [
            self.emit_if(
                condition,
                element_type(instruction.array_shape.element_type),
                lambda: self.emit(instruction.operands[1], offsets)[0],
                lambda: self.emit(instruction.operands[0], indices)[0],
            )
        ]

    def emit_reduce(
        self, instruction: HloInstruction, indices: Sequence[SSAValue]
    ) -> list[SSAValue]:
        """`scf.for` nests over the reduced dims, accumulating with the reducer."""
        num_inputs = len(instruction.operands) // 2
        inits = [self.emit(init, [])[0] for init in instruction.operands[num_inputs:]]
        nest = _ReduceNest(
            inputs=instruction.operands[:num_inputs],
            reducer=self.fusion.reducer(instruction.called_computations[0]),
            input_shape=instruction.operands[0].array_shape.dimensions,
            reduced=sorted(instruction.dimensions or ()),
            kept_indices=indices,
        )
        return self.emit_reduce_level(nest, inits, [])

    def emit_map(self, instruction: HloInstruction, indices: Sequence[SSAValue]) -> list[SSAValue]:
        """The mapped computation (a scalar function, as a reducer) called on the operands'
        elements at the output's index (XLA writes `map` for jax's cumlogsumexp)."""
        values = [self.emit(operand, indices)[0] for operand in instruction.operands]
        callee = self.fusion.reducer(instruction.called_computations[0])
        result_type = element_type(instruction.array_shape.element_type)
        return list(self.insert(PureCallOp(callee, values, [result_type])).results)

    def emit_reduce_level(
        self, nest: _ReduceNest, accumulators: list[SSAValue], ivs: list[SSAValue]
    ) -> list[SSAValue]:
        """One `scf.for` of the nest; the innermost reads the inputs and calls the reducer."""
        dim = nest.reduced[len(ivs)]
        lower = self.constant_index(0)
        upper = self.constant_index(nest.input_shape[dim])
        step = self.constant_index(1)
        block = Block(arg_types=[IndexType(), *[a.type for a in accumulators]])
        block.args[0].name_hint = f"r{len(ivs)}"
        for arg in block.args[1:]:
            arg.name_hint = "acc"
        outer = self.builder
        self.builder = builder_at_end(block)
        self.caches.append({})
        inner_ivs = [*ivs, block.args[0]]
        if len(inner_ivs) < len(nest.reduced):
            results = self.emit_reduce_level(nest, list(block.args[1:]), inner_ivs)
        else:
            values = [self.emit(op, nest.input_indices(inner_ivs))[0] for op in nest.inputs]
            types = [a.type for a in accumulators]
            call = PureCallOp(nest.reducer, [*block.args[1:], *values], types)
            results = list[SSAValue](self.insert(call).results)
        self.insert(scf.YieldOp(*results))
        self.caches.pop()
        self.builder = outer
        return list(self.insert(scf.ForOp(lower, upper, step, accumulators, block)).results)

    # -- elementwise -------------------------------------------------------------

    def emit_elementwise(self, instruction: HloInstruction, operands: list[SSAValue]) -> SSAValue:
        operand_type = instruction.operands[0].array_shape.element_type
        result_type = instruction.array_shape.element_type
        if is_complex_op(instruction, operand_type):
            return emit_complex_op(self, instruction, operand_type, result_type, operands)
        return emit_elementwise_op(self, instruction, operand_type, result_type, operands)


@dataclass(frozen=True)
class _ReduceNest:
    """What every level of a reduce's loop nest needs."""

    inputs: Sequence[HloInstruction]
    reducer: str
    input_shape: Sequence[int]
    reduced: list[int]
    kept_indices: Sequence[SSAValue]

    def input_indices(self, ivs: Sequence[SSAValue]) -> list[SSAValue]:
        """The input index: loop IVs at the reduced dims, the output index at the kept ones."""
        iv_of = dict(zip(self.reduced, ivs, strict=True))
        kept = iter(self.kept_indices)
        return [iv_of[dim] if dim in iv_of else next(kept) for dim in range(len(self.input_shape))]


def _python_scalar(value: object, ptype: PrimitiveType) -> float | int | bool:
    if ptype.is_float:
        with np.errstate(over="ignore"):  # beyond the type's range is inf, as in XLA
            return float(np.asarray(value).astype(ptype.dtype).astype(np.float64))
    if ptype is PrimitiveType.PRED:
        return bool(value)
    return int(np.asarray(value).astype(np.int64))


def _signless(value: int, bits: int) -> int:
    """Unsigned values above the signed range wrap to two's complement (signless ints)."""
    if bits == 1:
        return -1 if value else 0
    if value >= 1 << (bits - 1):
        return value - (1 << bits)
    return value


def _changes_width(instruction: HloInstruction) -> bool:
    source = instruction.operands[0].array_shape.element_type
    return source.bit_width != instruction.array_shape.element_type.bit_width


def _emit_width_changing_bitcast(
    emitter: ElementalEmitter, instruction: HloInstruction, indices: Sequence[SSAValue]
) -> SSAValue:
    """A `bitcast-convert` between widths, little-endian as XLA lays it out: a wider
    result joins the operand's minor-dim elements (the first least significant); a
    narrower one adds a minor dim that picks its part of the operand element."""
    operand = instruction.operands[0]
    source = operand.array_shape.element_type
    target = instruction.array_shape.element_type
    source_int, target_int = IntegerType(source.bit_width), IntegerType(target.bit_width)

    def as_int(value: SSAValue, width_type: IntegerType) -> SSAValue:
        if value.type == width_type:
            return value
        return emitter.insert(arith.BitcastOp(value, width_type)).results[0]

    def constant(value: int, width_type: IntegerType) -> SSAValue:
        return emitter.insert(arith.ConstantOp(IntegerAttr(value, width_type))).results[0]

    if source.bit_width < target.bit_width:
        joined: SSAValue | None = None
        for part in range(target.bit_width // source.bit_width):
            element = emitter.emit(operand, [*indices, emitter.constant_index(part)])[0]
            wide = emitter.insert(arith.ExtUIOp(as_int(element, source_int), target_int))
            shifted = wide.results[0]
            if part:
                amount = constant(part * source.bit_width, target_int)
                shifted = emitter.insert(arith.ShLIOp(shifted, amount)).results[0]
            joined = shifted if joined is None else _or(emitter, joined, shifted)
        assert joined is not None
        bits = joined
    else:
        element = emitter.emit(operand, list(indices[:-1]))[0]
        part = emitter.insert(arith.IndexCastOp(indices[-1], source_int)).results[0]
        width = constant(target.bit_width, source_int)
        amount = emitter.insert(arith.MuliOp(part, width)).results[0]
        shifted = emitter.insert(arith.ShRUIOp(as_int(element, source_int), amount)).results[0]
        bits = emitter.insert(arith.TruncIOp(shifted, target_int)).results[0]
    result_type = element_type(target)
    if bits.type == result_type:
        return bits
    return emitter.insert(arith.BitcastOp(bits, result_type)).results[0]


def _or(emitter: ElementalEmitter, a: SSAValue, b: SSAValue) -> SSAValue:
    return emitter.insert(arith.OrIOp(a, b)).results[0]


# Ops computed from the operands' elements at the output's own index.
_ELEMENTWISE: frozenset[str] = ELEMENTWISE_OPS | {"bitcast-convert"}


def _is_plain_elementwise(instruction: HloInstruction) -> bool:
    """Emitted by reading every operand at the op's own indices (no special emitter)."""
    return instruction.opcode in _ELEMENTWISE and instruction.opcode not in _EMITTERS


_EmitFn = Callable[[ElementalEmitter, HloInstruction, Sequence[SSAValue]], list[SSAValue]]

_EMITTERS: dict[str, _EmitFn] = {
    "constant": ElementalEmitter.emit_constant,
    "iota": ElementalEmitter.emit_iota,
    "broadcast": ElementalEmitter.emit_index_transform,
    "reshape": ElementalEmitter.emit_index_transform,
    "bitcast": emit_bitcast,
    "transpose": ElementalEmitter.emit_index_transform,
    "slice": ElementalEmitter.emit_index_transform,
    "reverse": ElementalEmitter.emit_index_transform,
    "pad": ElementalEmitter.emit_pad,
    "concatenate": ElementalEmitter.emit_concatenate,
    "reduce": ElementalEmitter.emit_reduce,
    "map": ElementalEmitter.emit_map,
    "get-tuple-element": ElementalEmitter.emit_get_tuple_element,
    "dynamic-slice": ElementalEmitter.emit_dynamic_slice,
    "dynamic-update-slice": ElementalEmitter.emit_dynamic_update_slice,
    "gather": emit_gather,
    "reduce-window": emit_reduce_window,
    "dot": emit_dot,
}
