"""MLIR `vector` ops that xDSL 0.74 lacks, and `VECTOR`: xDSL's `vector` dialect with them added.

XLA's vectorization and lowering write `vector.splat` (a broadcast of a
scalar) and `vector.from_elements` (a vector built from scalars);
`tpu-realign-accesses` writes `vector.extract_strided_slice` (a static block
of a vector) and `vector.insert_strided_slice` (a vector placed inside a
larger one).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects import vector
from xdsl.dialects.builtin import I64, ArrayAttr, IntegerAttr, VectorType, i64
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa
from xla_emit.dialects.vector_mosaic import MOSAIC_VECTOR_ATTRIBUTES, MOSAIC_VECTOR_OPS


@irdl_op_definition
class SplatOp(IRDLOperation):
    """`%v = vector.splat %s : vector<4xf32>`: every element is `%s`."""

    name = "vector.splat"

    ELEMENT: ClassVar = VarConstraint("ELEMENT", AnyAttr())

    input = operand_def(ELEMENT)
    result = result_def(VectorType.constr(ELEMENT))

    traits = traits_def(Pure())

    assembly_format = "$input attr-dict `:` type($result)"

    def __init__(self, input: SSAValue | Operation, result_type: VectorType[Attribute]):
        super().__init__(operands=[input], result_types=[result_type])


@irdl_op_definition
class FromElementsOp(IRDLOperation):
    """`%v = vector.from_elements %a, %b : vector<2xf32>`: the elements in row-major order."""

    name = "vector.from_elements"

    ELEMENT: ClassVar = VarConstraint("ELEMENT", AnyAttr())

    elements = var_operand_def(ELEMENT)
    result = result_def(VectorType.constr(ELEMENT))

    traits = traits_def(Pure())

    assembly_format = "$elements attr-dict `:` type($result)"

    def __init__(
        self, elements: Sequence[SSAValue | Operation], result_type: VectorType[Attribute]
    ):
        super().__init__(operands=[elements], result_types=[result_type])

    def verify_(self) -> None:
        count = self.result.type.element_count()
        if len(self.elements) != count:
            raise VerifyException(
                f"expected {count} elements for {self.result.type}, but got {len(self.elements)}"
            )


IntList = ArrayAttr[IntegerAttr[I64]]


def int_list(values: Sequence[int]) -> IntList:
    """MLIR's `I64ArrayAttr`: `[0, 2]`."""
    return ArrayAttr([IntegerAttr(v, i64) for v in values])


def int_values(values: IntList) -> list[int]:
    """The integers of an `I64ArrayAttr`."""
    return [v.value.data for v in values.data]


def _print_int_lists(printer: Printer, lists: Sequence[tuple[str, IntList]]) -> None:
    # MLIR prints I64ArrayAttr without the `: i64` xDSL's attribute printer adds.
    printer.print_string(
        " {"
        + ", ".join(f"{name} = [{', '.join(map(str, int_values(v)))}]" for name, v in lists)
        + "}"
    )


def _parse_keyword_lists(parser: Parser, names: Sequence[str]) -> dict[str, Attribute]:
    """`offsets = [0, 0], sizes = [8, 64], strides = [1, 1]`, its first keyword already
    read: the form newer MLIR (jax 0.12's) prints, the lists in their fixed order."""
    lists: dict[str, Attribute] = {}
    for number, name in enumerate(names):
        if number:
            parser.parse_punctuation(",")
            parser.parse_keyword(name)
        parser.parse_punctuation("=")
        values = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
        )
        lists[name] = ArrayAttr([IntegerAttr(v, 64) for v in values])
    return lists


def _parse_int_lists(parser: Parser, names: Sequence[str]) -> dict[str, IntList]:
    """The lists as an attribute dict (`{offsets = [0, 0], ...}`, MLIR up to jax 0.10.2)
    or as keywords (newer MLIR)."""
    position = parser.pos
    if parser.parse_optional_keyword(names[0]) is not None:
        attributes = _parse_keyword_lists(parser, names)
    else:
        attributes = parser.parse_optional_attr_dict()
    lists: dict[str, IntList] = {}
    for name in names:
        value = attributes.pop(name, None)
        if not isa(value, ArrayAttr[IntegerAttr]):
            parser.raise_error(f"expected '{name}' as a list of integers", position, parser.pos)
        # Re-typed as i64 whatever the integers were written as, like MLIR's I64ArrayAttr.
        lists[name] = int_list([v.value.data for v in value.data])
    if attributes:
        parser.raise_error(
            f"unexpected attributes {', '.join(sorted(attributes))}", position, parser.pos
        )
    return lists


def _vector_shape(value: SSAValue) -> tuple[int, ...]:
    type_ = value.type
    assert isinstance(type_, VectorType)
    return type_.get_shape()


def _check_unit_strides(strides: Sequence[int]) -> None:
    for dim, stride in enumerate(strides):
        if stride != 1:
            raise VerifyException(f"Expected strides[{dim}] to be 1, but got {stride}")


@irdl_op_definition
class ExtractStridedSliceOp(IRDLOperation):
    """`vector.extract_strided_slice %v {offsets = [0, 0], sizes = [8, 32], strides = [1, 1]}`.

    The block of `sizes` at `offsets` of the leading dims (the remaining dims
    whole): `: vector<8x256xf32> to vector<8x32xf32>`. Strides must be 1, as in MLIR.
    """

    name = "vector.extract_strided_slice"

    ELEMENT: ClassVar = VarConstraint("ELEMENT", AnyAttr())

    source = operand_def(VectorType.constr(ELEMENT))
    offsets = prop_def(IntList)
    sizes = prop_def(IntList)
    strides = prop_def(IntList)
    result = result_def(VectorType.constr(ELEMENT))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(
        self,
        source: SSAValue | Operation,
        offsets: Sequence[int],
        sizes: Sequence[int],
        strides: Sequence[int] | None = None,
    ):
        source = SSAValue.get(source)
        source_type = source.type
        assert isinstance(source_type, VectorType)
        shape = list(sizes) + list(_vector_shape(source)[len(sizes) :])
        super().__init__(
            operands=[source],
            result_types=[VectorType(source_type.element_type, shape)],
            properties={
                "offsets": int_list(offsets),
                "sizes": int_list(sizes),
                "strides": int_list(strides if strides is not None else [1] * len(sizes)),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> ExtractStridedSliceOp:
        source = parser.parse_unresolved_operand()
        lists = _parse_int_lists(parser, ("offsets", "sizes", "strides"))
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_keyword("to")
        result_type = parser.parse_type()
        (source,) = parser.resolve_operands([source], [source_type], parser.pos)
        return cls.create(operands=[source], result_types=[result_type], properties={**lists})

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        _print_int_lists(
            printer, [("offsets", self.offsets), ("sizes", self.sizes), ("strides", self.strides)]
        )
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" to ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        shape = _vector_shape(self.source)
        offsets = int_values(self.offsets)
        sizes = int_values(self.sizes)
        strides = int_values(self.strides)
        if not len(offsets) == len(sizes) == len(strides):
            raise VerifyException(
                "Expected offsets, sizes and strides of the same length, but got "
                f"{len(offsets)}, {len(sizes)} and {len(strides)}"
            )
        if len(offsets) > len(shape):
            raise VerifyException(
                f"Expected at most {len(shape)} offsets (the source rank), but got {len(offsets)}"
            )
        _check_unit_strides(strides)
        for dim, (offset, size) in enumerate(zip(offsets, sizes, strict=True)):
            if not 0 <= offset < shape[dim]:
                raise VerifyException(
                    f"Expected offsets[{dim}] in [0, {shape[dim]}), but got {offset}"
                )
            if not 1 <= size <= shape[dim]:
                raise VerifyException(f"Expected sizes[{dim}] in [1, {shape[dim]}], but got {size}")
            if offset + size > shape[dim]:
                raise VerifyException(
                    f"Expected offsets[{dim}] + sizes[{dim}] <= {shape[dim]}, but got "
                    f"{offset} + {size}. The slice must stay inside the source vector"
                )
        expected = (*sizes, *shape[len(sizes) :])
        if _vector_shape(self.result) != expected:
            raise VerifyException(
                f"Expected a result of shape {list(expected)}, but got "
                f"{list(_vector_shape(self.result))}"
            )


@irdl_op_definition
class InsertStridedSliceOp(IRDLOperation):
    """`vector.insert_strided_slice %v, %into {offsets = [0, 0], strides = [1, 1]}`.

    `%into` with the block at `offsets` replaced by `%v`; `%v`'s dims match the
    trailing dims of `%into`: `: vector<8x32xf32> into vector<8x256xf32>`.
    Strides must be 1, as in MLIR.
    """

    name = "vector.insert_strided_slice"

    ELEMENT: ClassVar = VarConstraint("ELEMENT", AnyAttr())
    DEST: ClassVar = VarConstraint("DEST", VectorType.constr(ELEMENT))

    source = operand_def(VectorType.constr(ELEMENT))
    dest = operand_def(DEST)
    offsets = prop_def(IntList)
    strides = prop_def(IntList)
    result = result_def(DEST)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(
        self, source: SSAValue | Operation, dest: SSAValue | Operation, offsets: Sequence[int]
    ):
        dest = SSAValue.get(dest)
        super().__init__(
            operands=[source, dest],
            result_types=[dest.type],
            properties={
                "offsets": int_list(offsets),
                "strides": int_list([1] * len(_vector_shape(SSAValue.get(source)))),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> InsertStridedSliceOp:
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        dest = parser.parse_unresolved_operand()
        lists = _parse_int_lists(parser, ("offsets", "strides"))
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_keyword("into")
        dest_type = parser.parse_type()
        operands = parser.resolve_operands([source, dest], [source_type, dest_type], parser.pos)
        return cls.create(operands=operands, result_types=[dest_type], properties={**lists})

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string(", ")
        printer.print_operand(self.dest)
        _print_int_lists(printer, [("offsets", self.offsets), ("strides", self.strides)])
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" into ")
        printer.print_attribute(self.dest.type)

    def verify_(self) -> None:
        source, dest = _vector_shape(self.source), _vector_shape(self.dest)
        offsets, strides = int_values(self.offsets), int_values(self.strides)
        if len(source) > len(dest):
            raise VerifyException(
                f"Expected a source rank of at most {len(dest)} (the destination rank), but "
                f"got {len(source)}"
            )
        if len(offsets) != len(dest):
            raise VerifyException(
                f"Expected {len(dest)} offsets (the destination rank), but got {len(offsets)}"
            )
        if len(strides) != len(source):
            raise VerifyException(
                f"Expected {len(source)} strides (the source rank), but got {len(strides)}"
            )
        _check_unit_strides(strides)
        leading = len(dest) - len(source)
        for dim, offset in enumerate(offsets):
            size = source[dim - leading] if dim >= leading else 1
            if offset < 0 or offset + size > dest[dim]:
                raise VerifyException(
                    f"Expected offsets[{dim}] in [0, {dest[dim] - size}], but got {offset}. "
                    "The source must fit inside the destination vector"
                )


VECTOR = Dialect(
    "vector",
    [
        *vector.Vector.operations,
        SplatOp,
        FromElementsOp,
        ExtractStridedSliceOp,
        InsertStridedSliceOp,
        *MOSAIC_VECTOR_OPS,
    ],
    [*vector.Vector.attributes, *MOSAIC_VECTOR_ATTRIBUTES],
)
