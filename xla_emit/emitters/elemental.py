"""Elemental emission: one `func.func` per partitioned subgraph.

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
`pure_call`s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.builder import Builder
from xdsl.dialects import arith, func, math, scf, tensor
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from dialects import arith_ext
from dialects.arith_ext import RemFOp
from dialects.xla import (
    XLA_RANGE,
    ApplyIndexingOp,
    IndexingMapAttr,
    PureCallOp,
    xla_range_attr,
)
from xla_emit.diagnostics import UserError
from xla_emit.emitters.partitioner import sanitize_function_name
from xla_emit.emitters.types import (
    builder_at_end,
    element_type,
    float_type,
    integer_type,
    tensor_type,
)
from xla_emit.emitters.work_items import index_dim_vars
from xla_emit.hlo.indexing_analysis import compute_output_to_input_indexing
from xla_emit.hlo.ir import HloComputation, HloInstruction
from xla_emit.hlo.opcodes import ELEMENTWISE_OPS
from xla_emit.hlo.shape import ArrayShape, PrimitiveType, flatten_shape
from xla_emit.indexing.affine import AffineExpr, ConstantExpr, DimExpr, SymbolExpr
from xla_emit.indexing.indexing_map import IndexingMap, Variable
from xla_emit.indexing.interval import Interval

ConstantValue = (
    IntegerAttr[IntegerType | IndexType] | FloatAttr[AnyFloat] | DenseIntOrFPElementsAttr
)
"""What `arith.constant` takes."""

# Names of index arguments, as in the seed's `@gelu(%arg0, %i, %j, %k)`.
_INDEX_NAMES = ("i", "j", "k", "l", "m", "n", "o", "p")


@dataclass(eq=False)
class Subgraph:
    """A piece of a fused computation emitted as one function.

    `roots` are the values the function returns, `instructions` every
    instruction computed inside it; `injected` values (a hero's result, for
    epilogues) arrive as extra scalar arguments after the indices.
    """

    name: str
    roots: tuple[HloInstruction, ...]
    instructions: frozenset[HloInstruction]
    injected: tuple[HloInstruction, ...] = ()

    @property
    def index_shape(self) -> tuple[int, ...]:
        """The shape the index arguments range over: the first root's (first leaf's) shape."""
        return flatten_shape(self.roots[0].shape)[0].dimensions

    @property
    def result_shapes(self) -> list[ArrayShape]:
        return [leaf for root in self.roots for leaf in flatten_shape(root.shape)]


@dataclass
class FusionFunctions:
    """Every subgraph of a fusion, where each instruction lives, and the emitted functions."""

    computation: HloComputation
    subgraphs: list[Subgraph]
    root_of: dict[HloInstruction, Subgraph] = field(default_factory=dict[HloInstruction, Subgraph])
    reducers: dict[str, func.FuncOp] = field(default_factory=dict[str, func.FuncOp])
    # Names taken by kernels' entry functions, which other functions must not reuse.
    reserved: frozenset[str] = frozenset()
    # Names of the subgraphs some emitted function calls: only those are emitted.
    called: dict[str, None] = field(default_factory=dict[str, None])

    def __post_init__(self) -> None:
        for subgraph in self.subgraphs:
            subgraph.name = self.unreserved(subgraph.name)
            for root in subgraph.roots:
                self.root_of[root] = subgraph

    def parameter_types(self) -> list[Attribute]:
        return [tensor_type(p.array_shape) for p in self.computation.parameters]

    def emit_all(self) -> list[func.FuncOp]:
        """The functions of the subgraphs the entry calls (transitively), then the reducers."""
        by_name = {subgraph.name: subgraph for subgraph in self.subgraphs}
        emitted: dict[str, func.FuncOp] = {}
        while pending := [name for name in self.called if name not in emitted]:
            for name in pending:
                emitted[name] = emit_subgraph_function(self, by_name[name])
        # In the order of their first calls, as a reader meets them.
        return [emitted[name] for name in self.called] + list(self.reducers.values())

    def unreserved(self, name: str) -> str:
        while name in self.reserved:
            name += "_"
        return name

    def reducer(self, computation: HloComputation) -> str:
        """The name of `computation` as a scalar function, emitting it on first use."""
        name = self.unreserved(sanitize_function_name(computation.name))
        if name not in self.reducers:
            self.reducers[name] = emit_scalar_function(computation, name)
        return name


def index_argument_attrs(shape: Sequence[int]) -> list[DictionaryAttr]:
    return [
        DictionaryAttr({XLA_RANGE: xla_range_attr(Interval(0, max(size, 1) - 1))}) for size in shape
    ]


def emit_subgraph_function(fusion: FusionFunctions, subgraph: Subgraph) -> func.FuncOp:
    """`func.func private @<subgraph>(tensors..., indices..., injected...) -> (elements...)`."""
    tensor_types = fusion.parameter_types()
    index_shape = subgraph.index_shape
    injected_types = [
        element_type(leaf.element_type)
        for i in subgraph.injected
        for leaf in flatten_shape(i.shape)
    ]
    input_types = [*tensor_types, *([IndexType()] * len(index_shape)), *injected_types]
    result_types = [element_type(s.element_type) for s in subgraph.result_shapes]
    arg_attrs = (
        [DictionaryAttr({})] * len(tensor_types)
        + index_argument_attrs(index_shape)
        + [DictionaryAttr({})] * len(injected_types)
    )
    function = func.FuncOp(
        subgraph.name,
        (input_types, result_types),
        visibility="private",
        arg_attrs=ArrayAttr(arg_attrs),
    )
    args = function.body.block.args
    tensors = list(args[: len(tensor_types)])
    name_arguments(tensors)
    indices = list(args[len(tensor_types) : len(tensor_types) + len(index_shape)])
    for position, index in enumerate(indices):
        index.name_hint = (
            _INDEX_NAMES[position] if position < len(_INDEX_NAMES) else f"idx{position}"
        )
    injected_args = list(args[len(tensor_types) + len(index_shape) :])
    injected: dict[HloInstruction, list[SSAValue]] = {}
    for instruction in subgraph.injected:
        width = len(flatten_shape(instruction.shape))
        injected[instruction] = list[SSAValue](injected_args[:width])
        injected_args = injected_args[width:]
    builder = builder_at_end(function.body.block)
    emitter = ElementalEmitter(fusion, subgraph, builder, tensors, injected)
    results = [value for root in subgraph.roots for value in emitter.emit(root, indices)]
    builder.insert(func.ReturnOp(*results))
    return function


def emit_scalar_function(computation: HloComputation, name: str) -> func.FuncOp:
    """A reducer: `func.func private @name(scalars...) -> (scalars...)`."""
    params = computation.parameters
    input_types = [element_type(p.array_shape.element_type) for p in params]
    roots = (
        [computation.root]
        if computation.root.opcode != "tuple"
        else list(computation.root.operands)
    )
    result_types = [element_type(r.array_shape.element_type) for r in roots]
    function = func.FuncOp(name, (input_types, result_types), visibility="private")
    subgraph = Subgraph(name, tuple(roots), frozenset(computation.instructions))
    fusion = FusionFunctions(computation, [subgraph])
    builder = builder_at_end(function.body.block)
    scalars = {
        param: list[SSAValue]([arg])
        for param, arg in zip(params, function.body.block.args, strict=True)
    }
    emitter = ElementalEmitter(fusion, subgraph, builder, [], scalars)
    results = [value for root in roots for value in emitter.emit(root, [])]
    builder.insert(func.ReturnOp(*results))
    return function


def _operand_map(instruction: HloInstruction, operand_number: int) -> IndexingMap:
    """From the instruction's output index to the operand's (its domain: where it is read)."""
    indexing_map = compute_output_to_input_indexing(instruction)[operand_number]
    assert indexing_map is not None, f"{instruction.opcode} has an output-to-input map"
    return indexing_map


def name_arguments(arguments: Sequence[SSAValue]) -> None:
    """`%arg0`, `%arg1`, ...: the names MLIR gives function arguments."""
    for position, argument in enumerate(arguments):
        argument.name_hint = f"arg{position}"


def unsupported(instruction: HloInstruction, what: str = "") -> UserError:
    detail = f" ({what})" if what else ""
    return UserError(
        f"Unsupported: {instruction.opcode} '{instruction.name}'{detail}", instruction.location
    )


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
        key = ("apply_indexing", expr, *dims, *symbols)
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

    def scalar_constant(self, value: object, ptype: PrimitiveType) -> SSAValue:
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
        regions: list[Region] = []
        for body in (then_body, else_body):
            block = Block()
            outer = self.builder
            self.builder = builder_at_end(block)
            self.caches.append({})
            value = body()
            self.insert(scf.YieldOp(value))
            self.caches.pop()
            self.builder = outer
            regions.append(Region(block))
        return self.insert(scf.IfOp(condition, [result_type], regions[0], regions[1])).results[0]

    def emit_pad(self, instruction: HloInstruction, indices: Sequence[SSAValue]) -> list[SSAValue]:
        indexing_map = _operand_map(instruction, 0)
        shape = instruction.array_shape.dimensions
        condition = self.in_domain(indexing_map, indices, shape)
        result_type = element_type(instruction.array_shape.element_type)

        def operand_value() -> SSAValue:
            operand_indices = self.apply_map(indexing_map, indices, shape)
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
            raw = self.emit(start_op, [])[0]
            if start_op.array_shape.element_type.is_unsigned_int:
                index = self.insert(arith_ext.IndexCastUIOp(raw, IndexType())).results[0]
            else:
                index = self.insert(arith.IndexCastOp(raw, IndexType())).results[0]
            lowered = self.insert(arith.MaxSIOp(index, self.constant_index(0))).results[0]
            clamped = self.insert(arith.MinSIOp(lowered, self.constant_index(dim - size))).results[
                0
            ]
            starts.append(clamped)
            variables.append(Variable(Interval(0, dim - size)))
        domain = IndexingMap(
            index_dim_vars(instruction.array_shape.dimensions), tuple(variables), (), ()
        )
        return starts, domain

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
        return _elementwise_op(self, instruction, operand_type, result_type, operands)


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


# Ops computed from the operands' elements at the output's own index.
_ELEMENTWISE: frozenset[str] = ELEMENTWISE_OPS | {"bitcast-convert"}


def _is_plain_elementwise(instruction: HloInstruction) -> bool:
    """Emitted by reading every operand at the op's own indices (no special emitter)."""
    return instruction.opcode in _ELEMENTWISE and instruction.opcode not in _EMITTERS


_FLOAT_UNARY: dict[str, Callable[[SSAValue], Operation]] = {
    "exponential": math.ExpOp,
    "exponential-minus-one": math.ExpM1Op,
    "log": math.LogOp,
    "log-plus-one": math.Log1pOp,
    "sqrt": math.SqrtOp,
    "rsqrt": math.RsqrtOp,
    "cbrt": math.CbrtOp,
    "tanh": math.TanhOp,
    "sine": math.SinOp,
    "cosine": math.CosOp,
    "tan": math.TanOp,
    "erf": math.ErfOp,
    "ceil": math.CeilOp,
    "floor": math.FloorOp,
    "round-nearest-even": math.RoundEvenOp,
    "round-nearest-afz": math.RoundOp,
    "abs": math.AbsFOp,
}

# An op class built from its two operands (the result type follows them).
_BinaryOpClass = Callable[[SSAValue, SSAValue], Operation]

_FLOAT_BINARY: dict[str, _BinaryOpClass] = {
    "add": arith.AddfOp,
    "subtract": arith.SubfOp,
    "multiply": arith.MulfOp,
    "divide": arith.DivfOp,
    "remainder": RemFOp,
    "maximum": arith.MaximumfOp,
    "minimum": arith.MinimumfOp,
    "power": math.PowFOp,
    "atan2": math.Atan2Op,
}

_INT_BINARY: dict[str, _BinaryOpClass] = {
    "add": arith.AddiOp,
    "subtract": arith.SubiOp,
    "multiply": arith.MuliOp,
    "and": arith.AndIOp,
    "or": arith.OrIOp,
    "xor": arith.XOrIOp,
    "shift-left": arith.ShLIOp,
    "shift-right-logical": arith.ShRUIOp,
    "shift-right-arithmetic": arith.ShRSIOp,
}

_SIGNED_INT_BINARY: dict[str, _BinaryOpClass] = {
    "divide": arith.DivSIOp,
    "remainder": arith.RemSIOp,
    "maximum": arith.MaxSIOp,
    "minimum": arith.MinSIOp,
}

_UNSIGNED_INT_BINARY: dict[str, _BinaryOpClass] = {
    "divide": arith.DivUIOp,
    "remainder": arith.RemUIOp,
    "maximum": arith.MaxUIOp,
    "minimum": arith.MinUIOp,
}

# pred arithmetic is boolean logic.
_PRED_BINARY: dict[str, _BinaryOpClass] = {
    "add": arith.OrIOp,
    "maximum": arith.OrIOp,
    "or": arith.OrIOp,
    "multiply": arith.AndIOp,
    "minimum": arith.AndIOp,
    "and": arith.AndIOp,
    "xor": arith.XOrIOp,
}

_FLOAT_PREDICATES = {"EQ": "oeq", "NE": "une", "LT": "olt", "LE": "ole", "GT": "ogt", "GE": "oge"}
_SIGNED_PREDICATES = {"EQ": "eq", "NE": "ne", "LT": "slt", "LE": "sle", "GT": "sgt", "GE": "sge"}
_UNSIGNED_PREDICATES = {"EQ": "eq", "NE": "ne", "LT": "ult", "LE": "ule", "GT": "ugt", "GE": "uge"}


def _binary(
    emitter: ElementalEmitter, op_class: _BinaryOpClass, a: SSAValue, b: SSAValue
) -> SSAValue:
    return emitter.insert(op_class(a, b)).results[0]


def _elementwise_op(
    emitter: ElementalEmitter,
    instruction: HloInstruction,
    operand_type: PrimitiveType,
    result_type: PrimitiveType,
    operands: list[SSAValue],
) -> SSAValue:
    opcode = instruction.opcode
    if opcode == "copy":
        return operands[0]
    if opcode == "compare":
        return _compare(emitter, instruction, operand_type, operands)
    if opcode == "select":
        return emitter.insert(arith.SelectOp(operands[0], operands[1], operands[2])).results[0]
    if opcode == "clamp":
        return _clamp(emitter, instruction, operands)
    if opcode == "convert":
        return _convert(emitter, operands[0], operand_type, result_type)
    if opcode == "bitcast-convert":
        if operand_type.bit_width != result_type.bit_width:
            raise unsupported(instruction, "bit widths differ")
        return emitter.insert(arith.BitcastOp(operands[0], element_type(result_type))).results[0]
    if len(operands) == 2:
        return _binary_op(emitter, instruction, operand_type, operands[0], operands[1])
    return _unary_op(emitter, instruction, operand_type, operands[0])


def _binary_op(
    emitter: ElementalEmitter,
    instruction: HloInstruction,
    ptype: PrimitiveType,
    a: SSAValue,
    b: SSAValue,
) -> SSAValue:
    opcode = instruction.opcode
    if ptype.is_float:
        table = _FLOAT_BINARY
    elif ptype is PrimitiveType.PRED:
        table = _PRED_BINARY
    elif ptype.is_signed_int:
        table = {**_INT_BINARY, **_SIGNED_INT_BINARY}
    else:
        table = {**_INT_BINARY, **_UNSIGNED_INT_BINARY}
    op_class = table.get(opcode)
    if opcode == "power" and ptype.is_integral:
        return _integer_power(emitter, ptype, a, b)
    if op_class is None:
        raise unsupported(instruction, f"on {ptype.value}")
    return _binary(emitter, op_class, a, b)


def _integer_power(
    emitter: ElementalEmitter, ptype: PrimitiveType, base: SSAValue, exponent: SSAValue
) -> SSAValue:
    """Square-and-multiply over the exponent's bits (products wrap around); a negative
    exponent gives 0, or 1 for base 1, as XLA defines it."""
    bits_type = integer_type(ptype)
    one = emitter.scalar_constant(1, ptype)
    zero = emitter.scalar_constant(0, ptype)
    block = Block(arg_types=[IndexType(), bits_type, bits_type, bits_type])
    _, product, square, rest = block.args
    body = builder_at_end(block)
    odd = body.insert(arith.CmpiOp(body.insert(arith.AndIOp(rest, one)).results[0], zero, "ne"))
    multiplied = body.insert(arith.MuliOp(product, square)).results[0]
    next_product = body.insert(arith.SelectOp(odd.results[0], multiplied, product)).results[0]
    next_square = body.insert(arith.MuliOp(square, square)).results[0]
    next_rest = body.insert(arith.ShRUIOp(rest, one)).results[0]
    body.insert(scf.YieldOp(next_product, next_square, next_rest))
    steps = emitter.constant_index(ptype.bit_width)
    loop = scf.ForOp(
        emitter.constant_index(0), steps, emitter.constant_index(1), [one, base, exponent], block
    )
    result = emitter.insert(loop).results[0]
    if ptype.is_unsigned_int:
        return result
    negative = emitter.insert(arith.CmpiOp(exponent, zero, "slt")).results[0]
    base_is_one = emitter.insert(arith.CmpiOp(base, one, "eq")).results[0]
    fallback = emitter.insert(arith.SelectOp(base_is_one, one, zero)).results[0]
    return emitter.insert(arith.SelectOp(negative, fallback, result)).results[0]


def _unary_op(
    emitter: ElementalEmitter, instruction: HloInstruction, ptype: PrimitiveType, x: SSAValue
) -> SSAValue:
    opcode = instruction.opcode
    if ptype.is_float:
        if opcode in _FLOAT_UNARY:
            unary = _FLOAT_UNARY[opcode](x)
            return emitter.insert(unary).results[0]
        if opcode == "negate":
            return emitter.insert(arith.NegfOp(x)).results[0]
        if opcode == "logistic":
            return _logistic(emitter, ptype, x)
        if opcode == "sign":
            return _float_sign(emitter, ptype, x)
        if opcode == "is-finite":
            absolute = emitter.insert(math.AbsFOp(x)).results[0]
            infinity = emitter.scalar_constant(float("inf"), ptype)
            return emitter.insert(arith.CmpfOp(absolute, infinity, "one")).results[0]
    else:
        if opcode == "negate":
            zero = emitter.scalar_constant(0, ptype)
            return _binary(emitter, arith.SubiOp, zero, x)
        if opcode == "abs":
            return emitter.insert(math.AbsIOp(x)).results[0]
        if opcode == "not":
            all_ones_attr = IntegerAttr(-1, integer_type(ptype))
            all_ones = emitter.constant(all_ones_attr, "cst")
            return _binary(emitter, arith.XOrIOp, x, all_ones)
        if opcode == "popcnt":
            return emitter.insert(math.CtPopOp(x)).results[0]
        if opcode == "sign":
            return _int_sign(emitter, ptype, x)
    raise unsupported(instruction, f"on {ptype.value}")


def _logistic(emitter: ElementalEmitter, ptype: PrimitiveType, x: SSAValue) -> SSAValue:
    """1 / (1 + exp(-x)). It is one op in HLO, rounded once: 16-bit floats compute it in f32."""
    narrow = ptype in (PrimitiveType.BF16, PrimitiveType.F16)
    compute = PrimitiveType.F32 if narrow else ptype
    if narrow:
        x = emitter.insert(arith.ExtFOp(x, element_type(compute))).results[0]
    one = emitter.scalar_constant(1.0, compute)
    negated = emitter.insert(arith.NegfOp(x)).results[0]
    exp = emitter.insert(math.ExpOp(negated)).results[0]
    denominator = _binary(emitter, arith.AddfOp, exp, one)
    result = _binary(emitter, arith.DivfOp, one, denominator)
    if narrow:
        result = emitter.insert(arith.TruncFOp(result, element_type(ptype))).results[0]
    return result


def _float_sign(emitter: ElementalEmitter, ptype: PrimitiveType, x: SSAValue) -> SSAValue:
    """copysign(1, x), except that zeros and NaN give themselves back."""
    one = emitter.scalar_constant(1.0, ptype)
    zero = emitter.scalar_constant(0.0, ptype)
    signed_one = emitter.insert(math.CopySignOp(one, x)).results[0]
    is_zero_or_nan = emitter.insert(arith.CmpfOp(x, zero, "ueq")).results[0]
    return emitter.insert(arith.SelectOp(is_zero_or_nan, x, signed_one)).results[0]


def _int_sign(emitter: ElementalEmitter, ptype: PrimitiveType, x: SSAValue) -> SSAValue:
    zero = emitter.scalar_constant(0, ptype)
    one = emitter.scalar_constant(1, ptype)
    if ptype.is_unsigned_int:
        is_zero = emitter.insert(arith.CmpiOp(x, zero, "eq")).results[0]
        return emitter.insert(arith.SelectOp(is_zero, zero, one)).results[0]
    minus_one = emitter.scalar_constant(-1, ptype)
    negative = emitter.insert(arith.CmpiOp(x, zero, "slt")).results[0]
    positive = emitter.insert(arith.CmpiOp(x, zero, "sgt")).results[0]
    non_negative = emitter.insert(arith.SelectOp(positive, one, zero)).results[0]
    return emitter.insert(arith.SelectOp(negative, minus_one, non_negative)).results[0]


def _compare(
    emitter: ElementalEmitter,
    instruction: HloInstruction,
    ptype: PrimitiveType,
    operands: list[SSAValue],
) -> SSAValue:
    direction = instruction.comparison_direction or "EQ"
    if ptype.is_float:
        if instruction.comparison_type == "TOTALORDER":
            keys = [_total_order_key(emitter, ptype, x) for x in operands]
            return emitter.insert(
                arith.CmpiOp(keys[0], keys[1], _SIGNED_PREDICATES[direction])
            ).results[0]
        return emitter.insert(
            arith.CmpfOp(operands[0], operands[1], _FLOAT_PREDICATES[direction])
        ).results[0]
    unsigned = ptype.is_unsigned_int or ptype is PrimitiveType.PRED
    predicates = _UNSIGNED_PREDICATES if unsigned else _SIGNED_PREDICATES
    return emitter.insert(arith.CmpiOp(operands[0], operands[1], predicates[direction])).results[0]


def _total_order_key(emitter: ElementalEmitter, ptype: PrimitiveType, x: SSAValue) -> SSAValue:
    """The float's bits as a signed integer ordered like XLA's total order
    (-NaN < -inf < ... < -0 < +0 < ... < inf < NaN): negative floats get their
    magnitude bits flipped, so a larger magnitude sorts lower."""
    bits_type = IntegerType(ptype.bit_width)
    as_int = emitter.insert(arith.BitcastOp(x, bits_type)).results[0]
    shift = emitter.constant(IntegerAttr(ptype.bit_width - 1, bits_type), "cst")
    sign_fill = emitter.insert(arith.ShRSIOp(as_int, shift)).results[0]
    magnitude_bits = emitter.constant(
        IntegerAttr((1 << (ptype.bit_width - 1)) - 1, bits_type), "cst"
    )
    flip = emitter.insert(arith.AndIOp(sign_fill, magnitude_bits)).results[0]
    return emitter.insert(arith.XOrIOp(as_int, flip)).results[0]


def _clamp(
    emitter: ElementalEmitter, instruction: HloInstruction, operands: list[SSAValue]
) -> SSAValue:
    low, x, high = operands
    ptype = instruction.array_shape.element_type
    if ptype.is_float:
        raised = _binary(emitter, arith.MaximumfOp, x, low)
        return _binary(emitter, arith.MinimumfOp, raised, high)
    if ptype.is_unsigned_int:
        raised = _binary(emitter, arith.MaxUIOp, x, low)
        return _binary(emitter, arith.MinUIOp, raised, high)
    raised = _binary(emitter, arith.MaxSIOp, x, low)
    return _binary(emitter, arith.MinSIOp, raised, high)


def _convert(
    emitter: ElementalEmitter, x: SSAValue, source: PrimitiveType, target: PrimitiveType
) -> SSAValue:
    if source == target:
        return x
    if target is PrimitiveType.PRED:
        zero = emitter.scalar_constant(0, source)
        if source.is_float:
            return emitter.insert(arith.CmpfOp(x, zero, "une")).results[0]
        return emitter.insert(arith.CmpiOp(x, zero, "ne")).results[0]
    if target.is_float:
        return _convert_to_float(emitter, x, source, target)
    return _convert_to_integer(emitter, x, source, target)


def _convert_to_float(
    emitter: ElementalEmitter, x: SSAValue, source: PrimitiveType, target: PrimitiveType
) -> SSAValue:
    target_type = float_type(target)
    if not source.is_float:
        if source.is_signed_int:
            return emitter.insert(arith.SIToFPOp(x, target_type)).results[0]
        return emitter.insert(arith.UIToFPOp(x, target_type)).results[0]
    if target.bit_width > source.bit_width:
        return emitter.insert(arith.ExtFOp(x, target_type)).results[0]
    if target.bit_width == source.bit_width:
        # bf16 <-> f16 goes through f32, which holds both exactly.
        wide = emitter.insert(arith.ExtFOp(x, float_type(PrimitiveType.F32))).results[0]
        return emitter.insert(arith.TruncFOp(wide, target_type)).results[0]
    return emitter.insert(arith.TruncFOp(x, target_type)).results[0]


def _convert_to_integer(
    emitter: ElementalEmitter, x: SSAValue, source: PrimitiveType, target: PrimitiveType
) -> SSAValue:
    target_type = integer_type(target)
    if source.is_float:
        if target.is_signed_int:
            return emitter.insert(arith.FPToSIOp(x, target_type)).results[0]
        return emitter.insert(arith.FPToUIOp(x, target_type)).results[0]
    if target.bit_width > source.bit_width:
        if source.is_signed_int:
            return emitter.insert(arith.ExtSIOp(x, target_type)).results[0]
        return emitter.insert(arith.ExtUIOp(x, target_type)).results[0]
    if target.bit_width < source.bit_width:
        return emitter.insert(arith.TruncIOp(x, target_type)).results[0]
    # Same width: signless integers need no conversion.
    return x


_EmitFn = Callable[[ElementalEmitter, HloInstruction, Sequence[SSAValue]], list[SSAValue]]

_EMITTERS: dict[str, _EmitFn] = {
    "constant": ElementalEmitter.emit_constant,
    "iota": ElementalEmitter.emit_iota,
    "broadcast": ElementalEmitter.emit_index_transform,
    "reshape": ElementalEmitter.emit_index_transform,
    "bitcast": ElementalEmitter.emit_index_transform,
    "transpose": ElementalEmitter.emit_index_transform,
    "slice": ElementalEmitter.emit_index_transform,
    "reverse": ElementalEmitter.emit_index_transform,
    "pad": ElementalEmitter.emit_pad,
    "concatenate": ElementalEmitter.emit_concatenate,
    "reduce": ElementalEmitter.emit_reduce,
    "get-tuple-element": ElementalEmitter.emit_get_tuple_element,
    "dynamic-slice": ElementalEmitter.emit_dynamic_slice,
    "dynamic-update-slice": ElementalEmitter.emit_dynamic_update_slice,
}
