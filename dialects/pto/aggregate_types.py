"""PTOAS's aggregate and handle types beyond tiles and views.

    !pto.struct<f32, i8, !pto.struct<f16>>          a scalar-unit struct
    !pto.local_array<2x8xi32>                       a stack-local array of scalars
    !pto.multi_tile_buf<vec, 16x16xf16, count=2>    N slots of one tile_buf shape
    !pto.multi_tile_buf<!pto.tile_buf<...>, count=2>
    !pto.prefetch_async_context                     an opaque prefetch handle

The verifiers are PTOAS's (`PTOTypeDefs.td`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntAttr,
    IntegerType,
)
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.types import TileBufType, parse_tile_buf_body

MULTI_BUFFER_SLOTS = (2, 16)


def _struct_storable(field: Attribute) -> bool:
    if isinstance(field, StructType):
        return True
    if isinstance(field, IntegerType):
        return field.width.data in (8, 16, 32, 64)
    return isinstance(field, Float16Type | BFloat16Type | Float32Type | Float64Type)


@irdl_attr_definition
class StructType(ParametrizedAttribute, TypeAttribute):
    """`!pto.struct<T0, T1, ...>`: fields of 8-64-bit integers, f16/bf16/f32/f64 or
    nested structs."""

    name = "pto.struct"

    fields: ArrayAttr[Attribute]

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        fields = parser.parse_comma_separated_list(parser.Delimiter.ANGLE, parser.parse_type)
        return [ArrayAttr(fields)]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_list(self.fields.data, printer.print_attribute)
        printer.print_string(">")

    def verify(self) -> None:
        if not self.fields.data:
            raise VerifyException("'!pto.struct' requires at least one field")
        for index, field in enumerate(self.fields.data):
            if not _struct_storable(field):
                raise VerifyException(
                    f"'!pto.struct' field {index} type {field} is not scalar-storable; only "
                    "i8/i16/i32/i64 (signed, unsigned or signless), f16/bf16/f32/f64, or a "
                    "nested !pto.struct are allowed"
                )


@irdl_attr_definition
class LocalArrayType(ParametrizedAttribute, TypeAttribute):
    """`!pto.local_array<2x8xi32>`: a statically sized array of integers or floats."""

    name = "pto.local_array"

    shape: ArrayAttr[IntAttr]
    element_type: Attribute

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            dims, element = parser.parse_ranked_shape()
        return [ArrayAttr(IntAttr(d) for d in dims), element]

    def print_parameters(self, printer: Printer) -> None:
        dims = "".join(f"{d.data}x" for d in self.shape.data)
        printer.print_string(f"<{dims}")
        printer.print_attribute(self.element_type)
        printer.print_string(">")

    def verify(self) -> None:
        if not self.shape.data:
            raise VerifyException("'!pto.local_array' requires at least one dimension")
        for index, dim in enumerate(self.shape.data):
            if dim.data <= 0:
                raise VerifyException(
                    f"'!pto.local_array' dimension {index} must be a positive static size, "
                    f"got {dim.data}"
                )
        if not isinstance(self.element_type, IntegerType | AnyFloat):
            raise VerifyException(
                "'!pto.local_array' element type must be a scalar integer or float, got "
                f"{self.element_type}"
            )


@irdl_attr_definition
class MultiTileBufType(ParametrizedAttribute, TypeAttribute):
    """`!pto.multi_tile_buf<vec, 16x16xf16, count=2>`: `count` slots, each a tile_buf
    of one shape at its own address (`pto.multi_tile_get` picks one)."""

    name = "pto.multi_tile_buf"

    slot_type: TileBufType
    count: IntAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            slot = parser.parse_optional_type()
            if slot is not None:
                if not isinstance(slot, TileBufType):
                    parser.raise_error(f"a multi_tile_buf slot is a tile_buf, but got {slot}")
                parser.parse_punctuation(",")
                parser.parse_keyword("count")
            else:
                slot = TileBufType.new(parse_tile_buf_body(parser, trailing_key="count"))
            parser.parse_punctuation("=")
            count = parser.parse_integer(allow_boolean=False)
        return [slot, IntAttr(count)]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.slot_type)
        printer.print_string(f", count={self.count.data}>")

    def verify(self) -> None:
        low, high = MULTI_BUFFER_SLOTS
        if self.count.data < low:
            raise VerifyException(f"multi_tile_buf count must be >= {low} (got {self.count.data})")
        if self.count.data > high:
            raise VerifyException(f"multi_tile_buf count must be <= {high} (got {self.count.data})")


@irdl_attr_definition
class PrefetchAsyncContextType(ParametrizedAttribute, TypeAttribute):
    """`!pto.prefetch_async_context`: the handle of an asynchronous prefetch."""

    name = "pto.prefetch_async_context"


AGGREGATE_TYPES: tuple[type[Attribute], ...] = (
    StructType,
    LocalArrayType,
    MultiTileBufType,
    PrefetchAsyncContextType,
)
