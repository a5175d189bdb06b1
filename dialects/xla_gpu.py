"""The `xla_gpu` dialect: XLA's GPU-only emitter ops, plus the seed's spellings of `xla` ops.

GPU-only ops (today's XLA keeps them in `xla_gpu`): `allocate_shared`,
`sync_threads`, `shuffle_reduce`, `reduce`, `insert` and the type
`!xla_gpu.indexed_vector`.

Seed spellings: `xla_gpu.loop`, `xla_gpu.apply_indexing`, `xla_gpu.pure_call`,
`xla_gpu.yield` and `#xla_gpu.indexing_map` are the `xla` ops under their
2024 names, defined in `dialects.xla.seed_spelling` and registered here so
seed files parse. Nothing builds them but the printers: see `dialects.xla`
for the spelling policy.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    DenseArrayBase,
    FunctionType,
    IndexType,
    IntAttr,
    IntegerAttr,
    SymbolRefAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Dialect, Operation, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    VarConstraint,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.xla.attributes import IndexingMapAttrBase
from xla_emit.dialects.xla.seed_spelling import SeedApplyIndexingOp as ApplyIndexingOp
from xla_emit.dialects.xla.seed_spelling import SeedIndexingMapAttr as IndexingMapAttr
from xla_emit.dialects.xla.seed_spelling import SeedLoopOp as LoopOp
from xla_emit.dialects.xla.seed_spelling import SeedPureCallOp as PureCallOp
from xla_emit.dialects.xla.seed_spelling import SeedYieldOp as YieldOp
from xla_emit.dialects.xla.syntax import lookup_function, nearest_symbol_table

from xla_emit.indexing import IndexingMap

WARP_SIZE = 32

# ----------------------------------------------------------------------------
# Attributes and types
# ----------------------------------------------------------------------------


@irdl_attr_definition
class IndexedVectorType(ParametrizedAttribute, TypeAttribute):
    """`!xla_gpu.indexed_vector<32x2x2xf32, #map>`: a value per point of a map's domain.

    The shape and element type say what tensor the values belong to; the map
    takes (thread ids)[per-thread index] to a position in that tensor.
    """

    name = "xla_gpu.indexed_vector"

    shape: ArrayAttr[IntAttr]
    element_type: Attribute
    indexing_map_attr: IndexingMapAttrBase

    def __init__(
        self,
        shape: Sequence[int],
        element_type: Attribute,
        indexing_map_attr: IndexingMapAttrBase,
    ):
        sizes = ArrayAttr([IntAttr(size) for size in shape])
        super().__init__(sizes, element_type, indexing_map_attr)

    @property
    def sizes(self) -> tuple[int, ...]:
        return tuple(size.data for size in self.shape.data)

    @property
    def indexing_map(self) -> IndexingMap:
        return self.indexing_map_attr.indexing_map

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        shape, element_type = parser.parse_ranked_shape()
        parser.parse_punctuation(",")
        map_start = parser.pos
        map_attr = parser.parse_attribute()
        if not isinstance(map_attr, IndexingMapAttrBase):
            parser.raise_error(
                f"expected an indexing map attribute, but got {map_attr}", map_start, parser.pos
            )
        parser.parse_punctuation(">")
        return (ArrayAttr([IntAttr(size) for size in shape]), element_type, map_attr)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_string("".join(f"{size}x" for size in self.sizes))
        printer.print_attribute(self.element_type)
        printer.print_string(", ")
        printer.print_attribute(self.indexing_map_attr)
        printer.print_string(">")


# ----------------------------------------------------------------------------
# GPU ops
# ----------------------------------------------------------------------------


def _verify_combiner(op: Operation, combiner: SymbolRefAttr, expected: FunctionType) -> None:
    """The combiner must be a function of type `expected`."""
    symbol_table = nearest_symbol_table(op)
    if symbol_table is None:
        # An op being built is checked once it is inserted into a module.
        return
    function = lookup_function(symbol_table, combiner)
    if function is None:
        raise VerifyException(f"combiner `{combiner}` not found")
    if function.function_type != expected:
        raise VerifyException(
            f"provided combiner `{combiner}` expected to have type {expected} "
            f"but got {function.function_type}"
        )


def _parse_combiner(parser: Parser) -> SymbolRefAttr:
    parser.parse_keyword("combiner")
    parser.parse_punctuation("=")
    return SymbolRefAttr(parser.parse_symbol_name())


@irdl_op_definition
class AllocateSharedOp(IRDLOperation):
    """`%s = xla_gpu.allocate_shared : tensor<32x33xf32>`: a shared-memory tensor, one per block."""

    name = "xla_gpu.allocate_shared"

    result = result_def(TensorType)

    def __init__(self, tensor_type: TensorType, attributes: dict[str, Attribute] | None = None):
        super().__init__(result_types=[tensor_type], attributes=attributes)
        self.result.name_hint = "shmem"

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_start = parser.pos
        tensor_type = parser.parse_type()
        if not isinstance(tensor_type, TensorType):
            parser.raise_error(f"expected a tensor type, but got {tensor_type}", type_start)
        return cls(tensor_type, attributes)

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        shape = self.result.type.get_shape()
        if any(size < 0 for size in shape):
            raise VerifyException(
                f"expected a statically shaped tensor, but got {self.result.type}. "
                "Shared memory is allocated at compile time"
            )


@irdl_op_definition
class PdlWaitOp(IRDLOperation):
    """`"xla_gpu.pdl_wait"() : () -> ()`: programmatic dependent launch's wait.

    `xla-gpu-insert-pdl` puts it first in a kernel that may start before the
    previous kernel ends: reads of that kernel's outputs wait here. A kernel
    that runs alone (as here) has nothing to wait for. XLA prints it in the
    generic form.
    """

    name = "xla_gpu.pdl_wait"


@irdl_op_definition
class PdlLaunchDependentsOp(IRDLOperation):
    """`"xla_gpu.pdl_launch_dependents"() : () -> ()`: programmatic dependent launch's signal.

    The counterpart of `xla_gpu.pdl_wait`: past this point the next kernel may
    start. It orders nothing within this kernel.
    """

    name = "xla_gpu.pdl_launch_dependents"


@irdl_op_definition
class SyncThreadsOp(IRDLOperation):
    """`%a, %b = xla_gpu.sync_threads %s1, %s2 : tensor<2xf32>, tensor<2xf32>`.

    A block-wide barrier that returns its (shared-memory) operands, so that
    reads after the barrier depend on it.
    """

    name = "xla_gpu.sync_threads"

    tensors = var_operand_def(TensorType)
    res = var_result_def(TensorType)

    def __init__(
        self,
        tensors: Sequence[SSAValue | Operation],
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[tensors],
            result_types=[[SSAValue.get(tensor).type for tensor in tensors]],
            attributes=attributes,
        )
        for result in self.res:
            result.name_hint = "synced_tensor"

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        start = parser.pos
        operands = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
        return cls(parser.resolve_operands(operands, types, start), attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.tensors, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list([tensor.type for tensor in self.tensors], printer.print_attribute)

    def verify_(self) -> None:
        if len(self.res) != len(self.tensors):
            raise VerifyException(
                f"expected {len(self.tensors)} results, one per operand, but got {len(self.res)}"
            )
        for position, (tensor, result) in enumerate(zip(self.tensors, self.res, strict=True)):
            if tensor.type != result.type:
                raise VerifyException(
                    f"expected result #{position} to be {tensor.type}, but got {result.type}. "
                    "Results have the types of the operands"
                )


@irdl_op_definition
class ShuffleReduceOp(IRDLOperation):
    """`%r:2 = xla_gpu.shuffle_reduce(%a, %b) to 16 combiner=@f : f32, i32`.

    A warp reduction by shuffling down at distances 16, 8, 4, 2, 1 (from the
    distance after `to` down; `to 0` shuffles nothing), calling
    `@f(own values..., shuffled values...)` after each step.
    """

    name = "xla_gpu.shuffle_reduce"

    values = var_operand_def()
    res = var_result_def()
    combiner = prop_def(SymbolRefAttr)
    max_distance = prop_def(IntegerAttr[I64])

    traits = traits_def(Pure())

    def __init__(
        self,
        values: Sequence[SSAValue | Operation],
        max_distance: int,
        combiner: str | SymbolRefAttr,
        attributes: dict[str, Attribute] | None = None,
    ):
        if isinstance(combiner, str):
            combiner = SymbolRefAttr(combiner)
        super().__init__(
            operands=[values],
            result_types=[[SSAValue.get(value).type for value in values]],
            properties={"combiner": combiner, "max_distance": IntegerAttr(max_distance, i64)},
            attributes=attributes,
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        start = parser.pos
        operands = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        parser.parse_keyword("to")
        max_distance = parser.parse_integer(allow_boolean=False, allow_negative=False)
        combiner = _parse_combiner(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
        values = parser.resolve_operands(operands, types, start)
        return cls(values, max_distance, combiner, attributes)

    def print(self, printer: Printer) -> None:
        with printer.in_parens():
            printer.print_list(self.values, printer.print_operand)
        printer.print_string(f" to {self.max_distance.value.data} combiner=")
        printer.print_attribute(self.combiner)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list([value.type for value in self.values], printer.print_attribute)

    def verify_(self) -> None:
        # 0 shuffles nothing: XLA's multi-row reduction with one thread per row prints it.
        distance = self.max_distance.value.data
        if distance < 0 or distance >= WARP_SIZE or distance & (distance - 1):
            raise VerifyException(
                f"expected the shuffle distance to be 0 or a power of 2 below the warp size "
                f"{WARP_SIZE}, but got {distance}"
            )
        types = [value.type for value in self.values]
        if [result.type for result in self.res] != types:
            raise VerifyException(
                "expected the result types to be the operand types "
                f"({', '.join(map(str, types))}), but got "
                f"({', '.join(str(result.type) for result in self.res)})"
            )
        _verify_combiner(self, self.combiner, FunctionType.from_lists(types * 2, types))


@irdl_op_definition
class ReduceOp(IRDLOperation):
    """`%r:2 = xla_gpu.reduce(%a, %b) inits(%i, %j) dimensions=[0, 2] combiner=@f : A, B to R, S`.

    Reduces `dimensions` (strictly increasing) of same-shaped input tensors
    with `@add(accumulators..., inputs...) -> (accumulators...)`.
    """

    name = "xla_gpu.reduce"

    inputs = var_operand_def(TensorType)
    inits = var_operand_def()
    res = var_result_def(TensorType)
    dimensions = prop_def(DenseArrayBase.constr(i64))
    combiner = prop_def(SymbolRefAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        inputs: Sequence[SSAValue | Operation],
        inits: Sequence[SSAValue | Operation],
        dimensions: Sequence[int],
        combiner: str | SymbolRefAttr,
        result_types: Sequence[Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        if isinstance(combiner, str):
            combiner = SymbolRefAttr(combiner)
        input_types = [SSAValue.get(value).type for value in inputs]
        if result_types is None:
            result_types = reduction_result_types(input_types, dimensions)
        super().__init__(
            operands=[inputs, inits],
            result_types=[result_types],
            properties={
                "dimensions": DenseArrayBase.from_list(i64, dimensions),
                "combiner": combiner,
            },
            attributes=attributes,
        )

    @property
    def reduced_dimensions(self) -> tuple[int, ...]:
        return self.dimensions.get_values()

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        start = parser.pos
        inputs = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        parser.parse_keyword("inits")
        inits = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        parser.parse_keyword("dimensions")
        parser.parse_punctuation("=")
        dimensions = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
        )
        combiner = _parse_combiner(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types_start = parser.pos
        input_types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
        for input_type in input_types:
            if not isinstance(input_type, TensorType):
                parser.raise_error(
                    f"expected tensor input types, but got {input_type}", types_start, parser.pos
                )
        parser.parse_keyword("to")
        result_types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
        input_values = parser.resolve_operands(inputs, input_types, start)
        init_values = parser.resolve_operands(inits, [_element_type(t) for t in input_types], start)
        return cls(input_values, init_values, dimensions, combiner, result_types, attributes)

    def print(self, printer: Printer) -> None:
        with printer.in_parens():
            printer.print_list(self.inputs, printer.print_operand)
        printer.print_string(" inits(")
        printer.print_list(self.inits, printer.print_operand)
        printer.print_string(") dimensions=[")
        printer.print_string(", ".join(str(d) for d in self.reduced_dimensions))
        printer.print_string("] combiner=")
        printer.print_attribute(self.combiner)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list([value.type for value in self.inputs], printer.print_attribute)
        printer.print_string(" to ")
        printer.print_list([result.type for result in self.res], printer.print_attribute)

    def verify_(self) -> None:
        input_types = [value.type for value in self.inputs]
        if len(self.inits) != len(self.inputs):
            raise VerifyException(
                f"expected {len(self.inputs)} inits, one per input, but got {len(self.inits)}"
            )
        self._verify_dimensions(input_types)
        init_types = [_element_type(t) for t in input_types]
        for init, inferred in zip(self.inits, init_types, strict=True):
            if init.type != inferred:
                raise VerifyException(
                    f"init type {init.type} does not match inferred type {inferred}"
                )
        expected = reduction_result_types(input_types, self.reduced_dimensions)
        got = [result.type for result in self.res]
        if got != expected:
            raise VerifyException(
                f"expected result types ({', '.join(map(str, expected))}), but got "
                f"({', '.join(map(str, got))}). The reduced dimensions are dropped"
            )
        _verify_combiner(self, self.combiner, FunctionType.from_lists(init_types * 2, init_types))

    def _verify_dimensions(self, input_types: Sequence[Attribute]) -> None:
        shapes = {_shape(t) for t in input_types}
        if len(shapes) > 1:
            raise VerifyException(
                "expected all inputs to have one shape, but got "
                f"{', '.join(str(t) for t in input_types)}"
            )
        dimensions = list(self.reduced_dimensions)
        if any(b <= a for a, b in itertools.pairwise(dimensions)):
            raise VerifyException(f"expected strictly increasing dimensions, but got {dimensions}")
        rank = len(_shape(input_types[0])) if input_types else 0
        if dimensions and not (dimensions[0] >= 0 and dimensions[-1] < rank):
            raise VerifyException(
                f"expected dimensions in [0, {rank - 1}], the input rank is {rank}, "
                f"but got {dimensions}"
            )


def _element_type(tensor_type: Attribute) -> Attribute:
    assert isinstance(tensor_type, TensorType), "the operand constraint admits tensors only"
    return tensor_type.get_element_type()


def _shape(tensor_type: Attribute) -> tuple[int, ...]:
    assert isinstance(tensor_type, TensorType), "the operand constraint admits tensors only"
    return tuple(tensor_type.get_shape())


def reduction_result_types(
    input_types: Sequence[Attribute], dimensions: Sequence[int]
) -> list[Attribute]:
    """The types of reducing `dimensions` of tensors of `input_types`."""
    reduced = set(dimensions)
    result: list[Attribute] = []
    for input_type in input_types:
        shape = [size for i, size in enumerate(_shape(input_type)) if i not in reduced]
        result.append(TensorType(_element_type(input_type), shape))
    return result


@irdl_op_definition
class InsertOp(IRDLOperation):
    """`%r = xla_gpu.insert %v(%i) into %t at #map : !xla_gpu.indexed_vector<...> -> tensor<...>`.

    Writes every element of an indexed vector into `%t`, at the position
    `#map` gives its tensor coordinates.
    """

    name = "xla_gpu.insert"

    T: ClassVar = VarConstraint("T", base(TensorType))

    source = operand_def(IndexedVectorType)
    indices = var_operand_def(IndexType)
    dest = operand_def(T)
    result = result_def(T)
    map = prop_def(IndexingMapAttrBase)

    traits = traits_def(Pure())

    def __init__(
        self,
        source: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation],
        dest: SSAValue | Operation,
        map: IndexingMapAttrBase,
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[source, indices, dest],
            result_types=[SSAValue.get(dest).type],
            properties={"map": map},
            attributes=attributes,
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        start = parser.pos
        source = parser.parse_unresolved_operand()
        indices = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        parser.parse_keyword("into")
        dest = parser.parse_unresolved_operand()
        parser.parse_keyword("at")
        map_start = parser.pos
        map_attr = parser.parse_attribute()
        if not isinstance(map_attr, IndexingMapAttrBase):
            parser.raise_error(
                f"expected an indexing map attribute, but got {map_attr}", map_start, parser.pos
            )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_punctuation("->")
        dest_type = parser.parse_type()
        return cls(
            parser.resolve_operand(source, source_type),
            parser.resolve_operands(indices, [IndexType()] * len(indices), start),
            parser.resolve_operand(dest, dest_type),
            map_attr,
            attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        with printer.in_parens():
            printer.print_list(self.indices, printer.print_operand)
        printer.print_string(" into ")
        printer.print_operand(self.dest)
        printer.print_string(" at ")
        printer.print_attribute(self.map)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.dest.type)

    def verify_(self) -> None:
        insert_map = self.map.indexing_map
        if insert_map.range_vars:
            raise VerifyException("insert_op map must not have any symbols")
        source_type = self.source.type
        assert isinstance(source_type, IndexedVectorType), "the operand constraint says so"
        source_map = source_type.indexing_map
        if len(source_map.results) != insert_map.num_dims:
            raise VerifyException(
                "source map result count must equal insert_op's map's dimension count"
            )
        if len(self.indices) != source_map.num_dims:
            raise VerifyException(
                f"expected {source_map.num_dims} indices, one per dimension of the source's "
                f"map, but got {len(self.indices)}"
            )


XLA_GPU = Dialect(
    "xla_gpu",
    [
        AllocateSharedOp,
        ApplyIndexingOp,
        InsertOp,
        LoopOp,
        PdlWaitOp,
        PdlLaunchDependentsOp,
        PureCallOp,
        ReduceOp,
        ShuffleReduceOp,
        SyncThreadsOp,
        YieldOp,
    ],
    [IndexedVectorType, IndexingMapAttr],
)
