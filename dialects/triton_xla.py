"""XLA's `triton_xla` dialect: tile reads and writes through Triton pointers.

XLA lowers `xtile.extract`/`xtile.insert` to these before Triton's own passes
turn them into `tt.load`/`tt.store` (or TMA):

    %t = triton_xla.extract from %arg0 as memref<64x256xf32, #xtile.layout<[1, 0]>>
        [%i, 0] [1, 256] [1, 1] : tensor<1x256xf32>
    triton_xla.insert %t into %arg1 as memref<64x256xf32, #xtile.layout<[1, 0]>>
        [%i, 0] [1, 256] [1, 1] : tensor<1x256xf32>

The memref after `as` is not a value's type: it carries the buffer's shape and
layout (`src_shape`, `src_layout`) while the operand is a `!tt.ptr` to its
element type. Offsets, sizes and strides mix values and constants as
`tensor.extract_slice` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    TensorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.syntax import int_values, parse_attr_dict_split, print_attr_dict_merged
from xla_emit.dialects.triton import PointerType
from xla_emit.dialects.xtile import LayoutAttr

_OFFSET_PROPS = ("static_offsets", "static_sizes", "static_strides")


def _parse_mixed_list(parser: Parser) -> tuple[list[UnresolvedOperand], list[int]]:
    """`[%a, 0, %b]`: the values, and the list with `DYNAMIC_INDEX` where a value stands."""
    values: list[UnresolvedOperand] = []
    statics: list[int] = []

    def entry() -> None:
        operand = parser.parse_optional_unresolved_operand()
        if operand is not None:
            values.append(operand)
            statics.append(DYNAMIC_INDEX)
        else:
            statics.append(parser.parse_integer(allow_boolean=False))

    parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, entry)
    return values, statics


def _print_mixed_list(
    printer: Printer, values: Sequence[SSAValue], statics: DenseArrayBase
) -> None:
    remaining = iter(values)
    parts: list[str] = []
    printer.print_string(" [")
    for index, static in enumerate(int_values(statics)):
        if index:
            printer.print_string(", ")
        if static == DYNAMIC_INDEX:
            printer.print_operand(next(remaining))
        else:
            printer.print_string(str(static))
    del parts
    printer.print_string("]")


def _memref_type(shape: DenseArrayBase, layout: DenseArrayBase, element: Attribute) -> MemRefType:
    return MemRefType(element, int_values(shape), LayoutAttr(int_values(layout)))


def _parse_as_memref(parser: Parser) -> tuple[PointerType, DenseArrayBase, DenseArrayBase]:
    """`as memref<64x256xf32, #xtile.layout<[1, 0]>>`: the pointer type, shape and layout."""
    parser.parse_keyword("as")
    at = parser.pos
    memref = parser.parse_type()
    if not isinstance(memref, MemRefType):
        parser.raise_error(f"expected a memref type, but got {memref}", at, parser.pos)
    shape = tuple(memref.get_shape())
    layout = memref.layout
    order = layout.order if isinstance(layout, LayoutAttr) else tuple(reversed(range(len(shape))))
    return (
        PointerType(memref.get_element_type()),
        DenseArrayBase.from_list(i64, shape),
        DenseArrayBase.from_list(i64, order),
    )


class _TileAccessOp(IRDLOperation):
    """What `triton_xla.extract` and `triton_xla.insert` share (each states its own fields)."""

    SHAPE: ClassVar[str]
    LAYOUT: ClassVar[str]

    def _buffer_type(self) -> MemRefType:
        raise NotImplementedError

    def _lists(self) -> tuple[tuple[str, Sequence[SSAValue], DenseArrayBase], ...]:
        """(name, values, static list) of the offsets, sizes and strides."""
        raise NotImplementedError

    def _print_access(self, printer: Printer, pointer: SSAValue) -> None:
        printer.print_operand(pointer)
        printer.print_string(" as ")
        printer.print_attribute(self._buffer_type())
        for _, values, statics in self._lists():
            _print_mixed_list(printer, values, statics)
        print_attr_dict_merged(
            printer, self, (*_OFFSET_PROPS, self.SHAPE, self.LAYOUT, "operandSegmentSizes")
        )

    def verify_access(self, tile: Attribute) -> None:
        shape = self.properties[self.SHAPE]
        layout = self.properties[self.LAYOUT]
        assert isinstance(shape, DenseArrayBase) and isinstance(layout, DenseArrayBase)
        rank = len(int_values(shape))
        if sorted(int_values(layout)) != list(range(rank)):
            raise VerifyException(
                f"expected the layout to be a permutation of [0, {rank}), but got "
                f"{list(int_values(layout))}"
            )
        for what, values, statics in self._lists():
            entries = int_values(statics)
            if len(entries) != rank:
                raise VerifyException(f"expected {rank} {what}, but got {len(entries)}")
            dynamic = sum(1 for e in entries if e == DYNAMIC_INDEX)
            if dynamic != len(values):
                raise VerifyException(
                    f"expected {dynamic} dynamic {what}, but got {len(values)} values"
                )
        assert isinstance(tile, TensorType)
        static_sizes = int_values(self._lists()[1][2])
        sizes = [s for s in static_sizes if s != 1]
        tile_sizes = [s for s in tile.get_shape() if s != 1]
        if DYNAMIC_INDEX not in static_sizes and sizes != tile_sizes:
            raise VerifyException(
                f"expected a tile of sizes {list(static_sizes)} (unit "
                f"dimensions aside), but got {tile}"
            )


def _parse_lists(
    parser: Parser,
) -> tuple[list[UnresolvedOperand], dict[str, Attribute], list[int]]:
    operands: list[UnresolvedOperand] = []
    properties: dict[str, Attribute] = {}
    counts: list[int] = []
    for key in _OFFSET_PROPS:
        values, statics = _parse_mixed_list(parser)
        operands += values
        counts.append(len(values))
        properties[key] = DenseArrayBase.from_list(i64, statics)
    return operands, properties, counts


@irdl_op_definition
class ExtractOp(_TileAccessOp):
    """`%t = triton_xla.extract from %p as memref<...> [offsets] [sizes] [strides] : tensor<..>`."""

    name = "triton_xla.extract"

    src = operand_def(PointerType)
    offsets = var_operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    static_offsets = prop_def(DenseArrayBase)
    static_sizes = prop_def(DenseArrayBase)
    static_strides = prop_def(DenseArrayBase)
    src_shape = prop_def(DenseArrayBase)
    src_layout = prop_def(DenseArrayBase)
    result = result_def(TensorType)

    SHAPE: ClassVar[str] = "src_shape"
    LAYOUT: ClassVar[str] = "src_layout"

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def _lists(self) -> tuple[tuple[str, Sequence[SSAValue], DenseArrayBase], ...]:
        return (
            ("offsets", self.offsets, self.static_offsets),
            ("sizes", self.sizes, self.static_sizes),
            ("strides", self.strides, self.static_strides),
        )

    def _buffer_type(self) -> MemRefType:
        assert isinstance(self.src.type, PointerType)
        return _memref_type(self.src_shape, self.src_layout, self.src.type.pointee_type)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        parser.parse_keyword("from")
        src = parser.parse_unresolved_operand()
        pointer, shape, layout = _parse_as_memref(parser)
        names, properties, counts = _parse_lists(parser)
        more, attributes = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        result_type = parser.parse_type()
        (src_value,) = parser.resolve_operands([src], [pointer], parser.pos)
        values = parser.resolve_operands(names, [IndexType()] * len(names), parser.pos)
        a, b = counts[0], counts[0] + counts[1]
        return cls.create(
            operands=[src_value, *values],
            result_types=[result_type],
            properties=properties
            | more
            | {
                "src_shape": shape,
                "src_layout": layout,
                "operandSegmentSizes": DenseArrayBase.from_list(
                    i32, [1, a, b - a, len(values) - b]
                ),
            },
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" from ")
        self._print_access(printer, self.src)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        self.verify_access(self.result.type)


@irdl_op_definition
class InsertOp(_TileAccessOp):
    """`triton_xla.insert %t into %p as memref<...> [offsets] [sizes] [strides] : tensor<...>`."""

    name = "triton_xla.insert"

    src = operand_def(TensorType)
    dst = operand_def(PointerType)
    offsets = var_operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    static_offsets = prop_def(DenseArrayBase)
    static_sizes = prop_def(DenseArrayBase)
    static_strides = prop_def(DenseArrayBase)
    dst_shape = prop_def(DenseArrayBase)
    dst_layout = prop_def(DenseArrayBase)

    SHAPE: ClassVar[str] = "dst_shape"
    LAYOUT: ClassVar[str] = "dst_layout"

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def _lists(self) -> tuple[tuple[str, Sequence[SSAValue], DenseArrayBase], ...]:
        return (
            ("offsets", self.offsets, self.static_offsets),
            ("sizes", self.sizes, self.static_sizes),
            ("strides", self.strides, self.static_strides),
        )

    def _buffer_type(self) -> MemRefType:
        assert isinstance(self.dst.type, PointerType)
        return _memref_type(self.dst_shape, self.dst_layout, self.dst.type.pointee_type)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        src = parser.parse_unresolved_operand()
        parser.parse_keyword("into")
        dst = parser.parse_unresolved_operand()
        pointer, shape, layout = _parse_as_memref(parser)
        names, properties, counts = _parse_lists(parser)
        more, attributes = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        src_value, dst_value = parser.resolve_operands([src, dst], [src_type, pointer], parser.pos)
        values = parser.resolve_operands(names, [IndexType()] * len(names), parser.pos)
        a, b = counts[0], counts[0] + counts[1]
        return cls.create(
            operands=[src_value, dst_value, *values],
            properties=properties
            | more
            | {
                "dst_shape": shape,
                "dst_layout": layout,
                "operandSegmentSizes": DenseArrayBase.from_list(
                    i32, [1, 1, a, b - a, len(values) - b]
                ),
            },
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        printer.print_string(" into ")
        self._print_access(printer, self.dst)
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)

    def verify_(self) -> None:
        self.verify_access(self.src.type)


@irdl_op_definition
class SqueezeDimsOp(IRDLOperation):
    """`%s = triton_xla.squeeze_dims %t {axis = 0 : i32} : tensor<1x256xf32> -> tensor<256xf32>`."""

    name = "triton_xla.squeeze_dims"

    src = operand_def(TensorType)
    axis = prop_def(IntegerAttr[IntegerType])
    result = result_def(TensorType)

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        src = parser.parse_unresolved_operand()
        properties, attributes = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        (value,) = parser.resolve_operands([src], [src_type], parser.pos)
        return cls.create(
            operands=[value],
            result_types=[result_type],
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        print_attr_dict_merged(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        assert isinstance(self.src.type, TensorType)
        shape = list(self.src.type.get_shape())
        axis = self.axis.value.data
        if not 0 <= axis < len(shape) or shape[axis] != 1:
            raise VerifyException(
                f"expected axis {axis} to be a size-1 dimension of {self.src.type}"
            )
        del shape[axis]
        expected = TensorType(self.src.type.get_element_type(), shape)
        if expected != self.result.type:
            raise VerifyException(f"expected result type {expected}, but got {self.result.type}")


@irdl_op_definition
class GetTidOp(IRDLOperation):
    """`%t = triton_xla.get_tid : () -> i32`: the thread id within the kernel."""

    name = "triton_xla.get_tid"

    result = result_def(i32)

    traits = traits_def(Pure())

    def __init__(self):
        super().__init__(result_types=[i32])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        _, attributes = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        parser.parse_punctuation("(")
        parser.parse_punctuation(")")
        parser.parse_punctuation("->")
        at = parser.pos
        if parser.parse_type() != i32:
            parser.raise_error("expected i32", at, parser.pos)
        op = cls()
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        print_attr_dict_merged(printer, self)
        printer.print_string(" : () -> i32")


@irdl_op_definition
class MemrefToPtrOp(IRDLOperation):
    """`%p = triton_xla.memref_to_ptr %m from memref<...> to !tt.ptr<f32>`."""

    name = "triton_xla.memref_to_ptr"

    src = operand_def(MemRefType)
    result = result_def(PointerType)

    traits = traits_def(Pure())

    assembly_format = "$src `from` type($src) `to` type($result) attr-dict"


@irdl_op_definition
class PtrToMemrefOp(IRDLOperation):
    """`%m = triton_xla.ptr_to_memref %p from !tt.ptr<f32> to memref<...>`."""

    name = "triton_xla.ptr_to_memref"

    src = operand_def(PointerType)
    result = result_def(MemRefType)

    traits = traits_def(Pure())

    assembly_format = "$src `from` type($src) `to` type($result) attr-dict"


def make_extract(
    src: SSAValue | Operation,
    buffer: MemRefType,
    offsets: Sequence[SSAValue | Operation],
    sizes: Sequence[int],
    strides: Sequence[int],
    result_type: Attribute,
) -> ExtractOp:
    """`triton_xla.extract` with value offsets and constant sizes and strides."""
    layout = buffer.layout
    order = (
        layout.order
        if isinstance(layout, LayoutAttr)
        else tuple(reversed(range(buffer.get_num_dims())))
    )
    return ExtractOp.create(
        operands=[SSAValue.get(src), *map(SSAValue.get, offsets)],
        result_types=[result_type],
        properties={
            "static_offsets": DenseArrayBase.from_list(i64, [DYNAMIC_INDEX] * len(offsets)),
            "static_sizes": DenseArrayBase.from_list(i64, sizes),
            "static_strides": DenseArrayBase.from_list(i64, strides),
            "src_shape": DenseArrayBase.from_list(i64, buffer.get_shape()),
            "src_layout": DenseArrayBase.from_list(i64, order),
            "operandSegmentSizes": DenseArrayBase.from_list(i32, [1, len(offsets), 0, 0]),
        },
    )


TRITON_XLA = Dialect(
    "triton_xla",
    [ExtractOp, InsertOp, SqueezeDimsOp, GetTidOp, MemrefToPtrOp, PtrToMemrefOp],
    [],
)
