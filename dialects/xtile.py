"""XLA's `xtile` dialect: the tiled kernel XLA's Triton emitter writes before Triton.

    xtile.entry_func @f(%in: memref<64x256xf32, #xtile.layout<[1, 0]>>,
                        %out: memref<64x256xf32, #xtile.layout<[1, 0]>>, %pid: index)
        attributes {num_opaque_args = 0 : i32} {
      %t = xtile.extract %in[%i, %c0] [1, 256] [1, 1]
          : memref<64x256xf32, #xtile.layout<[1, 0]>> -> tensor<256xf32>
      ...
      xtile.insert %r into %out[%i, %c0] [1, 256] [1, 1]
          : tensor<256xf32> -> memref<64x256xf32, #xtile.layout<[1, 0]>>
      xtile.return
    }

The entry function's arguments are the buffers, then `num_opaque_args` other
values, then the tile id (an `index`). `extract`/`insert` move a tile of
`full_tile_shape` at `offsets` (with `strides`) between a buffer and a tensor
whose shape is the full tile shape with unit dimensions dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    I64,
    AnyFloat,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefLayoutAttr,
    MemRefType,
    TensorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Dialect, Operation, ParametrizedAttribute, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import (
    AttrSizedOperandSegments,
    AttrSizedResultSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    param_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    Pure,
    ReturnLike,
    SymbolOpInterface,
)
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.function_like import FunctionLikeOp
from xla_emit.dialects.syntax import int_values, parse_attr_dict_split, print_attr_dict_merged

# ----------------------------------------------------------------------------
# Attributes
# ----------------------------------------------------------------------------


@irdl_attr_definition
class LayoutAttr(MemRefLayoutAttr, ParametrizedAttribute):
    """`#xtile.layout<[1, 0]>`: a memref's dimensions, minor to major (XLA's layout)."""

    name = "xtile.layout"

    minor_to_major: DenseArrayBase = param_def()

    def __init__(self, minor_to_major: Sequence[int]):
        super().__init__(DenseArrayBase.from_list(i64, minor_to_major))

    @property
    def order(self) -> tuple[int, ...]:
        return tuple(int_values(self.minor_to_major))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        values = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
        )
        parser.parse_punctuation(">")
        return (DenseArrayBase.from_list(i64, values),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<[{', '.join(map(str, self.order))}]>")

    def get_affine_map(self) -> AffineMap:
        raise NotImplementedError("xtile.layout has no affine map here; read `order`")


def layout_of(memref: MemRefType[Attribute]) -> tuple[int, ...]:
    """The buffer's minor-to-major order (row major when it has no `#xtile.layout`)."""
    if isinstance(memref.layout, LayoutAttr):
        return memref.layout.order
    return tuple(reversed(range(memref.get_num_dims())))


# ----------------------------------------------------------------------------
# The entry function
# ----------------------------------------------------------------------------


@irdl_op_definition
class EntryFuncOp(FunctionLikeOp):
    """`xtile.entry_func @f(%buffers: memref<...>..., %opaque..., %tile_id: index)`."""

    name = "xtile.entry_func"

    num_opaque_args = opt_prop_def(IntegerAttr[IntegerType])

    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface())

    ARGUMENT_ERROR: ClassVar[str] = (
        "entry function arguments should be of the form (arg: memref..., tile_id: index)"
    )

    @property
    def opaque_count(self) -> int:
        return self.num_opaque_args.value.data if self.num_opaque_args is not None else 0

    @property
    def buffer_args(self) -> tuple[SSAValue, ...]:
        args = self.entry_block.args
        return tuple(args[: len(args) - self.opaque_count - 1])

    @property
    def opaque_args(self) -> tuple[SSAValue, ...]:
        args = self.entry_block.args
        return tuple(args[len(args) - self.opaque_count - 1 : -1])

    @property
    def tile_id(self) -> SSAValue:
        return self.entry_block.args[-1]

    def verify_(self) -> None:
        super().verify_()
        inputs = self.function_type.inputs.data
        if self.function_type.outputs.data:
            raise VerifyException("entry function should not have any return values")
        if not inputs:
            raise VerifyException("entry function must have at least the workgroup id")
        buffers = len(inputs) - self.opaque_count - 1
        if buffers < 0 or not isinstance(inputs[-1], IndexType):
            raise VerifyException(self.ARGUMENT_ERROR)
        if not all(isinstance(t, MemRefType) for t in inputs[:buffers]):
            raise VerifyException(self.ARGUMENT_ERROR)
        if any(isinstance(t, MemRefType | IndexType) for t in inputs[buffers:-1]):
            raise VerifyException(self.ARGUMENT_ERROR)


@irdl_op_definition
class EntryFuncReturnOp(IRDLOperation):
    """`xtile.return`: ends the entry function."""

    name = "xtile.return"

    traits = traits_def(IsTerminator(), ReturnLike(), HasParent(EntryFuncOp), Pure())

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


# ----------------------------------------------------------------------------
# Tiles in and out of buffers
# ----------------------------------------------------------------------------


def _parse_i64_list(parser: Parser) -> DenseArrayBase:
    values = parser.parse_comma_separated_list(
        Parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
    )
    return DenseArrayBase.from_list(i64, values)


def _print_i64_list(printer: Printer, values: DenseArrayBase) -> None:
    printer.print_string(f"[{', '.join(map(str, int_values(values)))}]")


def _drops_unit_dims(full: Sequence[int], reduced: Sequence[int]) -> bool:
    """Whether `reduced` is `full` with some size-1 dimensions removed (MLIR's rank reduction)."""
    position = 0
    for size in full:
        if position < len(reduced) and reduced[position] == size:
            position += 1
        elif size != 1:
            return False
    return position == len(reduced)


def verify_tile_access(
    buffer: Attribute,
    tile: Attribute,
    offsets: Sequence[SSAValue],
    full_tile_shape: DenseArrayBase,
    strides: DenseArrayBase,
) -> None:
    """The checks XLA makes for `xtile.extract` and `xtile.insert`, with its messages."""
    assert isinstance(buffer, MemRefType) and isinstance(tile, TensorType)
    rank = buffer.get_num_dims()
    full = tuple(int_values(full_tile_shape))
    if len(full) != rank:
        raise VerifyException(
            f"full tile shape size: {len(full)} does not match rank of buffer: {rank}"
        )
    if len(int_values(strides)) != rank:
        raise VerifyException(
            f"strides size: {len(int_values(strides))} does not match rank of buffer: {rank}"
        )
    if len(offsets) != rank:
        raise VerifyException(f"expected {rank} offset operands, got {len(offsets)}")
    shape = tuple(tile.get_shape())
    if not _drops_unit_dims(full, shape):
        raise VerifyException(
            f"full tile shape: [{', '.join(map(str, full))}] does not reduce to tile shape: "
            f"[{', '.join(map(str, shape))}]"
        )
    if buffer.get_element_type() != tile.get_element_type():
        raise VerifyException(
            f"buffer element type: '{buffer.get_element_type()}' does not match element type "
            f"of tile: '{tile.get_element_type()}'"
        )


@irdl_op_definition
class ExtractTileOp(IRDLOperation):
    """`%t = xtile.extract %buf[%o0, %o1] [1, 256] [1, 1] : memref<...> -> tensor<256xf32>`."""

    name = "xtile.extract"

    source = operand_def(MemRefType)
    offsets = var_operand_def(IndexType)
    full_tile_shape = prop_def(DenseArrayBase)
    strides = prop_def(DenseArrayBase)
    result = result_def(TensorType)

    def __init__(
        self,
        source: SSAValue | Operation,
        offsets: Sequence[SSAValue | Operation],
        full_tile_shape: Sequence[int],
        strides: Sequence[int],
        result_type: Attribute,
    ):
        super().__init__(
            operands=[source, offsets],
            result_types=[result_type],
            properties={
                "full_tile_shape": DenseArrayBase.from_list(i64, full_tile_shape),
                "strides": DenseArrayBase.from_list(i64, strides),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        source = parser.parse_unresolved_operand()
        offsets = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        full = _parse_i64_list(parser)
        strides = _parse_i64_list(parser)
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        _, attributes = parse_attr_dict_split(parser, cls)
        (source_value,) = parser.resolve_operands([source], [source_type], parser.pos)
        offset_values = parser.resolve_operands(offsets, [IndexType()] * len(offsets), parser.pos)
        op = cls(source_value, offset_values, int_values(full), int_values(strides), result_type)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string("[")
        printer.print_list(self.offsets, printer.print_operand)
        printer.print_string("] ")
        _print_i64_list(printer, self.full_tile_shape)
        printer.print_string(" ")
        _print_i64_list(printer, self.strides)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)
        print_attr_dict_merged(printer, self, ("full_tile_shape", "strides"))

    def verify_(self) -> None:
        verify_tile_access(
            self.source.type, self.result.type, self.offsets, self.full_tile_shape, self.strides
        )


@irdl_op_definition
class InsertTileOp(IRDLOperation):
    """`xtile.insert %t into %buf[%o0, %o1] [1, 256] [1, 1] : tensor<256xf32> -> memref<...>`."""

    name = "xtile.insert"

    source = operand_def(TensorType)
    destination = operand_def(MemRefType)
    offsets = var_operand_def(IndexType)
    full_tile_shape = prop_def(DenseArrayBase)
    strides = prop_def(DenseArrayBase)

    def __init__(
        self,
        source: SSAValue | Operation,
        destination: SSAValue | Operation,
        offsets: Sequence[SSAValue | Operation],
        full_tile_shape: Sequence[int],
        strides: Sequence[int],
    ):
        super().__init__(
            operands=[source, destination, offsets],
            properties={
                "full_tile_shape": DenseArrayBase.from_list(i64, full_tile_shape),
                "strides": DenseArrayBase.from_list(i64, strides),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        source = parser.parse_unresolved_operand()
        parser.parse_keyword("into")
        destination = parser.parse_unresolved_operand()
        offsets = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        full = _parse_i64_list(parser)
        strides = _parse_i64_list(parser)
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_punctuation("->")
        destination_type = parser.parse_type()
        _, attributes = parse_attr_dict_split(parser, cls)
        values = parser.resolve_operands(
            [source, destination], [source_type, destination_type], parser.pos
        )
        offset_values = parser.resolve_operands(offsets, [IndexType()] * len(offsets), parser.pos)
        op = cls(values[0], values[1], offset_values, int_values(full), int_values(strides))
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string(" into ")
        printer.print_operand(self.destination)
        printer.print_string("[")
        printer.print_list(self.offsets, printer.print_operand)
        printer.print_string("] ")
        _print_i64_list(printer, self.full_tile_shape)
        printer.print_string(" ")
        _print_i64_list(printer, self.strides)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.destination.type)
        print_attr_dict_merged(printer, self, ("full_tile_shape", "strides"))

    def verify_(self) -> None:
        verify_tile_access(
            self.destination.type,
            self.source.type,
            self.offsets,
            self.full_tile_shape,
            self.strides,
        )


@irdl_op_definition
class MaskOp(IRDLOperation):
    """`%m = xtile.mask %t bounds [200, 256], %zero : tensor<256x256xf32>`.

    Elements at or past `bounds` along a dimension become `%value`."""

    name = "xtile.mask"

    T: ClassVar = VarConstraint("T", base(TensorType))

    source = operand_def(T)
    bounds = prop_def(DenseArrayBase)
    value = operand_def()
    result = result_def(T)

    traits = traits_def(Pure())

    def __init__(
        self, source: SSAValue | Operation, bounds: Sequence[int], value: SSAValue | Operation
    ):
        super().__init__(
            operands=[source, value],
            result_types=[SSAValue.get(source).type],
            properties={"bounds": DenseArrayBase.from_list(i64, bounds)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        source = parser.parse_unresolved_operand()
        parser.parse_keyword("bounds")
        bounds = _parse_i64_list(parser)
        parser.parse_punctuation(",")
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        _, attributes = parse_attr_dict_split(parser, cls)
        element = type_.get_element_type() if isinstance(type_, TensorType) else type_
        values = parser.resolve_operands([source, value], [type_, element], parser.pos)
        op = cls(values[0], int_values(bounds), values[1])
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string(" bounds ")
        _print_i64_list(printer, self.bounds)
        printer.print_string(", ")
        printer.print_operand(self.value)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)
        print_attr_dict_merged(printer, self, ("bounds",))

    def verify_(self) -> None:
        type_ = self.source.type
        assert isinstance(type_, TensorType)
        shape = tuple(type_.get_shape())
        bounds = tuple(int_values(self.bounds))
        if len(bounds) != len(shape):
            raise VerifyException(
                f"tensor rank: {len(shape)} does not match mask bounds rank: {len(bounds)}"
            )
        if any(bound > size for bound, size in zip(bounds, shape, strict=True)):
            raise VerifyException("mask bound not less than or equal to the tensor size")
        if self.value.type != type_.get_element_type():
            raise VerifyException(
                f"expected a value of the element type {type_.get_element_type()}, "
                f"but got {self.value.type}"
            )


@irdl_op_definition
class SelectBufferOp(IRDLOperation):
    """`%b = xtile.select_buffer %buffers[%replica] : memref<...> -> memref<...>`."""

    name = "xtile.select_buffer"

    source = operand_def(MemRefType)
    replica_id = operand_def(IndexType)
    result = result_def(MemRefType)

    traits = traits_def(Pure())

    assembly_format = "$source `[` $replica_id `]` `:` type($source) `->` type($result) attr-dict"


@irdl_op_definition
class ScanOp(IRDLOperation):
    """`%o, %c = xtile.scan(%in) inits(%init) dimension = 1 : (...), (...) -> (...), (...)`."""

    name = "xtile.scan"

    inputs = var_operand_def(TensorType)
    inits = var_operand_def(TensorType)
    dimension = prop_def(IntegerAttr[I64])
    scan_dim_size = prop_def(IntegerAttr[I64])
    is_reverse = opt_prop_def(Attribute)
    outputs = var_result_def(TensorType)
    carries = var_result_def(TensorType)
    body = region_def("single_block")

    traits = traits_def(Pure())

    irdl_options = (
        AttrSizedOperandSegments(as_property=True),
        AttrSizedResultSegments(as_property=True),
        ParsePropInAttrDict(),
    )

    assembly_format = (
        "`(` $inputs `)` `inits` `(` $inits `)` `dimension` `=` $dimension attr-dict "
        "`:` `(` type($inputs) `)` `,` `(` type($inits) `)` `->` `(` type($outputs) `)` "
        "`,` `(` type($carries) `)` $body"
    )


@irdl_op_definition
class YieldOp(IRDLOperation):
    """`xtile.yield %a, %b : T, U`: ends the body of an `xtile.scan`."""

    name = "xtile.yield"

    results_ = var_operand_def()

    traits = traits_def(IsTerminator(), ReturnLike(), HasParent(ScanOp), Pure())

    assembly_format = "attr-dict ($results_^ `:` type($results_))?"


@irdl_op_definition
class DotScaledOp(IRDLOperation):
    """`%r = xtile.dot_scaled %a scale %as, %b scale %bs {...} : A, AS * B, BS -> R`."""

    name = "xtile.dot_scaled"

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    lhs_scale = opt_operand_def(TensorType)
    rhs_scale = opt_operand_def(TensorType)
    fastMath = prop_def(Attribute)
    lhs_k_pack = opt_prop_def(Attribute)
    rhs_k_pack = opt_prop_def(Attribute)
    lhs_elem_type = prop_def(Attribute)
    rhs_elem_type = prop_def(Attribute)
    dot_dimension_numbers = opt_prop_def(Attribute)
    result = result_def(TensorType)

    traits = traits_def(Pure())

    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())

    assembly_format = (
        "$lhs (`scale` $lhs_scale^)? `,` $rhs (`scale` $rhs_scale^)? attr-dict `:` type($lhs) "
        "(`,` type($lhs_scale)^)? `*` type($rhs) (`,` type($rhs_scale)^)? `->` type($result)"
    )

    def verify_(self) -> None:
        for side, value in (("LHS", self.lhs), ("RHS", self.rhs)):
            assert isinstance(value.type, TensorType)
            element = value.type.get_element_type()
            if not isinstance(element, AnyFloat) and element != IntegerType(8):
                raise VerifyException(
                    f"{side} tensor element type {element} is not supported. Supported "
                    f"{side} element types are float or int8/uint8"
                )


XTILE = Dialect(
    "xtile",
    [
        EntryFuncOp,
        EntryFuncReturnOp,
        ExtractTileOp,
        InsertTileOp,
        MaskOp,
        SelectBufferOp,
        ScanOp,
        YieldOp,
        DotScaledOp,
    ],
    [LayoutAttr],
)

__all__ = [
    "XTILE",
    "ArrayAttr",
    "DotScaledOp",
    "EntryFuncOp",
    "EntryFuncReturnOp",
    "ExtractTileOp",
    "InsertTileOp",
    "LayoutAttr",
    "MaskOp",
    "ScanOp",
    "SelectBufferOp",
    "YieldOp",
    "i32",
    "layout_of",
    "verify_tile_access",
]
