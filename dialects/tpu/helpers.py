"""Checks and syntax pieces the `tpu` ops share."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    I32,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    MemRefType,
    VectorType,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa
from xla_emit.dialects.tpu.attributes import MemorySpaceAttr, TiledLayoutAttr

from xla_emit.layout.mosaic import MosaicTilingError


def memory_space_of(memref: MemRefType[Attribute]) -> str | None:
    """The `#tpu.memory_space` kind of a memref type, or None without one."""
    space = memref.memory_space
    return space.space.data if isinstance(space, MemorySpaceAttr) else None


def tiled_layout_of(memref: MemRefType[Attribute]) -> TiledLayoutAttr | None:
    layout = memref.layout
    return layout if isinstance(layout, TiledLayoutAttr) else None


def element_bitwidth(type_: Attribute) -> int | None:
    """Bits of an int/float/index element type (index counts as 32 on TPU), else None."""
    if isinstance(type_, IndexType):
        return 32
    bitwidth = getattr(type_, "bitwidth", None)
    return bitwidth if isinstance(bitwidth, int) else None


def memref_of(value: SSAValue) -> MemRefType[Attribute]:
    assert isinstance(value.type, MemRefType)
    return value.type


def vector_of(value: SSAValue) -> VectorType[Attribute]:
    assert isinstance(value.type, VectorType)
    return value.type


def check_vmem(memref: MemRefType[Attribute]) -> None:
    space = memory_space_of(memref)
    if space is not None and space != "vmem":
        raise VerifyException("Expected base memref to be in VMEM.")


def check_index_count(memref: MemRefType[Attribute], count: int) -> None:
    if count != memref.get_num_dims():
        raise VerifyException(f"Expected {memref.get_num_dims()} indices, but got {count}.")
    _check_layout_fits(memref)


def _check_layout_fits(memref: MemRefType[Attribute]) -> None:
    """Mosaic's `verifyLayout`: a `#tpu.tiled` layout must match the memref's rank."""
    layout = tiled_layout_of(memref)
    if layout is None:
        return
    try:
        layout.layout.check_for_shape(memref.get_shape())
    except MosaicTilingError as error:
        raise VerifyException(f"{memref}: {error}") from None


def check_semaphore_memref(
    memref: Attribute, kinds: tuple[type[Attribute], ...], what: str
) -> None:
    if not isa(memref, MemRefType[Attribute]) or not isinstance(memref.element_type, kinds):
        raise VerifyException(f"Expected a memref of {what}, but got {memref}")


def strides_of(op: IRDLOperation) -> tuple[int, ...]:
    """The `strides = array<i32: ...>` property of a memory op (empty when absent)."""
    strides = op.properties.get("strides")
    if isa(strides, DenseArrayBase[I32]):
        return strides.get_values()
    return ()


def empty_i32_array() -> DenseArrayBase[I32]:
    return DenseArrayBase.from_list(i32, [])


class Syntax:
    """Parsing and printing pieces shared by the memory ops' custom formats."""

    @staticmethod
    def base_and_indices(parser: Parser) -> tuple[UnresolvedOperand, list[UnresolvedOperand]]:
        base_value = parser.parse_unresolved_operand()
        indices = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        return base_value, indices

    @staticmethod
    def resolve_all(
        parser: Parser, operands: Sequence[UnresolvedOperand], type_: Attribute
    ) -> list[SSAValue]:
        return [parser.resolve_operand(operand, type_) for operand in operands]

    @staticmethod
    def optional_mask(parser: Parser) -> UnresolvedOperand | None:
        if parser.parse_optional_keyword("masked") is None:
            return None
        return parser.parse_unresolved_operand()

    @staticmethod
    def resolve_mask(
        parser: Parser, mask: UnresolvedOperand | None, type_: Attribute | None
    ) -> list[SSAValue]:
        if mask is None:
            return []
        if type_ is None:
            parser.raise_error("expected the mask type after the last ','")
        return [parser.resolve_operand(mask, type_)]

    @staticmethod
    def print_base_and_indices(
        printer: Printer, base_value: SSAValue, indices: Sequence[SSAValue]
    ) -> None:
        printer.print_string(" ")
        printer.print_operand(base_value)
        printer.print_string("[")
        printer.print_list(indices, printer.print_operand)
        printer.print_string("]")

    @staticmethod
    def attributes(
        parser: Parser, property_names: Sequence[str]
    ) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
        """Parse `{...}` and split it into (properties, other attributes)."""
        parsed = parser.parse_optional_attr_dict()
        properties = {k: v for k, v in parsed.items() if k in property_names}
        attributes = {k: v for k, v in parsed.items() if k not in property_names}
        return properties, attributes

    @staticmethod
    def print_attributes(printer: Printer, op: Operation, elide: dict[str, Attribute]) -> None:
        """Properties and attributes in one dict, leaving out defaults listed in `elide`."""
        shown = {
            k: v
            for k, v in {**op.properties, **op.attributes}.items()
            if k != "operandSegmentSizes" and elide.get(k) != v
        }
        printer.print_op_attributes(shown)

    @staticmethod
    def optional_trailing_type(parser: Parser) -> Attribute | None:
        """Mosaic's `, type($mask)` where the mask may be absent (then nothing follows)."""
        if parser.parse_optional_punctuation(",") is None:
            return None
        return parser.parse_optional_type()

    @staticmethod
    def memref_and_vector_types(parser: Parser) -> tuple[Attribute, Attribute]:
        """`: M, V`."""
        parser.parse_punctuation(":")
        base_type = parser.parse_type()
        parser.parse_punctuation(",")
        return base_type, parser.parse_type()

    @staticmethod
    def print_memref_and_vector_types(printer: Printer, base: SSAValue, vector: SSAValue) -> None:
        printer.print_string(" : ")
        printer.print_attribute(base.type)
        printer.print_string(", ")
        printer.print_attribute(vector.type)

    @staticmethod
    def print_trailing_mask_type(printer: Printer, mask: SSAValue | None) -> None:
        """Mosaic prints the `, ` before the mask type even when there is no mask."""
        printer.print_string(", ")
        if mask is not None:
            printer.print_attribute(mask.type)

    @staticmethod
    def value_and_mask(parser: Parser) -> tuple[UnresolvedOperand, UnresolvedOperand | None]:
        """`, %v [masked %k]` after a store's base and indices."""
        parser.parse_punctuation(",")
        value = parser.parse_unresolved_operand()
        return value, Syntax.optional_mask(parser)

    @staticmethod
    def print_value_and_mask(printer: Printer, value: SSAValue, mask: SSAValue | None) -> None:
        printer.print_string(", ")
        printer.print_operand(value)
        Syntax.print_optional_mask(printer, mask)

    @staticmethod
    def print_optional_mask(printer: Printer, mask: SSAValue | None) -> None:
        if mask is not None:
            printer.print_string(" masked ")
            printer.print_operand(mask)

    @staticmethod
    def sublanes(parser: Parser) -> dict[str, Attribute]:
        """`sublanes array<i1: ...> [sublane_stride N]`, as properties."""
        parser.parse_keyword("sublanes")
        properties: dict[str, Attribute] = {"sublane_mask": parser.parse_attribute()}
        if parser.parse_optional_keyword("sublane_stride") is not None:
            properties["sublane_stride"] = IntegerAttr(parser.parse_integer(), 32)
        return properties

    @staticmethod
    def print_sublanes(
        printer: Printer, sublane_mask: Attribute, sublane_stride: IntegerAttr[I32]
    ) -> None:
        printer.print_string(" sublanes ")
        printer.print_attribute(sublane_mask)
        if sublane_stride.value.data != 1:
            printer.print_string(f" sublane_stride {sublane_stride.value.data}")

    @staticmethod
    def store_operands(
        parser: Parser,
        stored: tuple[UnresolvedOperand, Attribute],
        base: tuple[UnresolvedOperand, Attribute],
        indices: Sequence[UnresolvedOperand],
        mask: tuple[UnresolvedOperand | None, Attribute | None],
    ) -> list[SSAValue | list[SSAValue]]:
        """The operand groups of a store: value, base, indices, optional mask."""
        return [
            parser.resolve_operand(*stored),
            parser.resolve_operand(*base),
            Syntax.resolve_all(parser, indices, IndexType()),
            Syntax.resolve_mask(parser, *mask),
        ]
