"""`pto.struct_get` and `pto.struct_set`: a scalar field of a stack-local
`!pto.struct`, reached by a constant path of field indices through nested structs:

    %v = pto.struct_get %s[1, 0] : !pto.struct<i32, !pto.struct<f32, i16>> -> f32
    pto.struct_set %s[0], %x : !pto.struct<f32, i8>, f32
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects.builtin import DenseArrayBase, i64
from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.aggregate_types import StructType


def _parse_path(parser: Parser) -> DenseArrayBase:
    indices = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)
    return DenseArrayBase.from_list(i64, indices)


def _print_path(printer: Printer, path: DenseArrayBase) -> None:
    printer.print_string("[" + ", ".join(str(i) for i in path.get_values()) + "]")


def field_type(root: Attribute, path: DenseArrayBase) -> Attribute:
    """The scalar field a path reaches, or a VerifyException saying why none."""
    indices = path.get_values()
    if not indices:
        raise VerifyException("struct path must have at least one index")
    current = root
    for depth, index in enumerate(indices):
        if not isinstance(current, StructType):
            raise VerifyException(
                f"struct path index {depth} descends into non-struct field of type {current}"
            )
        fields = current.fields.data
        if not 0 <= int(index) < len(fields):
            raise VerifyException(
                f"struct path index {depth} ({index}) is out of range for {current} with "
                f"{len(fields)} field(s)"
            )
        current = fields[int(index)]
    if isinstance(current, StructType):
        raise VerifyException(
            f"struct path must end at a scalar field, but ends at {current}; extend the "
            "path to reach a scalar inside it"
        )
    return current


@irdl_op_definition
class StructGetOp(IRDLOperation):
    """Read one scalar field of a struct."""

    name = "pto.struct_get"
    s = operand_def(StructType)
    path = prop_def(DenseArrayBase)
    value = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        struct = parser.parse_unresolved_operand()
        path = _parse_path(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        struct_type = parser.parse_type()
        parser.parse_punctuation("->")
        op = cls.build(
            operands=[parser.resolve_operand(struct, struct_type)],
            result_types=[parser.parse_type()],
            properties={"path": path},
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.s)
        _print_path(printer, self.path)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.s.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.value.type)

    def verify_(self) -> None:
        field = field_type(self.s.type, self.path)
        if self.value.type != field:
            raise VerifyException(
                f"result type {self.value.type} does not match field type {field} at the given path"
            )


@irdl_op_definition
class StructSetOp(IRDLOperation):
    """Write one scalar field of a struct."""

    name = "pto.struct_set"
    s = operand_def(StructType)
    value = operand_def()
    path = prop_def(DenseArrayBase)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        struct = parser.parse_unresolved_operand()
        path = _parse_path(parser)
        parser.parse_punctuation(",")
        value = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        struct_type = parser.parse_type()
        parser.parse_punctuation(",")
        value_type = parser.parse_type()
        op = cls.build(
            operands=[
                parser.resolve_operand(struct, struct_type),
                parser.resolve_operand(value, value_type),
            ],
            properties={"path": path},
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.s)
        _print_path(printer, self.path)
        printer.print_string(", ")
        printer.print_operand(self.value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.s.type)
        printer.print_string(", ")
        printer.print_attribute(self.value.type)

    def verify_(self) -> None:
        field = field_type(self.s.type, self.path)
        if self.value.type != field:
            raise VerifyException(
                f"value type {self.value.type} does not match field type {field} at the given path"
            )


STRUCT_OPS = (StructGetOp, StructSetOp)
