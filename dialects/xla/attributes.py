"""The attributes of the `xla` dialect: the indexing map, the grid dimension and `xla.range`."""

from __future__ import annotations

from dataclasses import dataclass
from enum import auto
from typing import Self

from xdsl.dialects.builtin import ArrayAttr, IndexType, IntegerAttr
from xdsl.dialects.func import FuncOp
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import (
    Attribute,
    BlockArgument,
    Data,
    Operation,
    OpResult,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
)
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.lexer import Position
from xdsl.utils.mlir_lexer import MLIRToken, MLIRTokenKind
from xdsl.utils.str_enum import StrEnum

from xla_emit.indexing import (
    IndexingMap,
    IndexingMapSyntaxError,
    Interval,
    parse_indexing_map,
)
from xla_emit.ir.verify import register_attribute_verifier

XLA_RANGE = "xla.range"
"""The attribute holding a value's inclusive range: `[LB : index, UB : index]`."""

XLA_SLICE_INDEX = "xla.slice_index"
"""On kernel arguments: the buffer slice an argument lives in (equal indices share memory)."""

# ----------------------------------------------------------------------------
# The indexing-map attribute
# ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _MapSource:
    """Map text gathered from one or more string literals, and where each piece sits in the file.

    Adjacent literals (`<"(d0) -> (d0)," "domain: d0 in [0, 3]">`) are joined,
    so an offset into the joined text has to be mapped back piecewise.
    """

    text: str
    # (offset of the piece in `text`, file position of its first character)
    pieces: tuple[tuple[int, Position], ...]

    def file_position(self, offset: int) -> Position:
        text_start, file_start = self.pieces[0]
        for piece_text_start, piece_file_start in self.pieces:
            if piece_text_start > offset:
                break
            text_start, file_start = piece_text_start, piece_file_start
        return file_start + (offset - text_start)


def next_token(parser: AttrParser) -> MLIRToken:
    # xDSL has no public peek; custom syntax needs one to pick between forms.
    return parser._current_token  # pyright: ignore[reportPrivateUsage]


def _parse_map_source(parser: AttrParser) -> _MapSource:
    """Parse `<"..." "...">` or XLA's older unquoted `<(d0) -> ..., domain: ...>`."""
    if next_token(parser).kind != MLIRTokenKind.LESS:
        parser.raise_error("expected '<' and an indexing map")
    body_start = next_token(parser).span.end
    content = parser.lexer.input.content
    if not content[body_start:].lstrip().startswith('"'):
        # The raw scan is the only way to take `->` and nested brackets verbatim.
        body = parser._parse_dialect_symbol_body()  # pyright: ignore[reportPrivateUsage]
        return _MapSource(body, ((0, body_start),))
    parser.parse_punctuation("<")
    text = ""
    pieces: list[tuple[int, Position]] = []
    while next_token(parser).kind == MLIRTokenKind.STRING_LIT:
        # +1 skips the opening quote.
        pieces.append((len(text), next_token(parser).span.start + 1))
        text += parser.parse_str_literal()
    parser.parse_punctuation(">", " to end the indexing map")
    return _MapSource(text, tuple(pieces))


class IndexingMapAttrBase(Data[IndexingMap]):
    """An XLA indexing map, `#xla.indexing_map<"(d0)[s0] -> (d0 + s0), domain: ...">`.

    The attribute holds the parsed `IndexingMap`; it is printed through the
    map's own printer, so the printed text is canonical.
    """

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> IndexingMap:
        source = _parse_map_source(parser)
        try:
            return parse_indexing_map(source.text)
        except IndexingMapSyntaxError as error:
            position = source.file_position(error.offset)
            parser.raise_error(f"invalid indexing map: {error.message}", position, position + 1)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_string_literal(self.data.full_text())
        printer.print_string(">")

    @classmethod
    def from_map(cls, indexing_map: IndexingMap) -> Self:
        return cls(indexing_map)

    @property
    def indexing_map(self) -> IndexingMap:
        return self.data


@irdl_attr_definition
class IndexingMapAttr(IndexingMapAttrBase):
    """Today's spelling, `#xla.indexing_map<"...">`."""

    name = "xla.indexing_map"


def as_map(indexing_map: IndexingMap | IndexingMapAttrBase) -> IndexingMap:
    if isinstance(indexing_map, IndexingMapAttrBase):
        return indexing_map.indexing_map
    return indexing_map


class WorkGroupDimension(StrEnum):
    """A dimension of the launch grid."""

    X = auto()
    Y = auto()
    Z = auto()


@irdl_attr_definition
class WorkGroupDimensionAttr(EnumAttribute[WorkGroupDimension], SpacedOpaqueSyntaxAttribute):
    """`#xla<workgroup_dim x>`: which grid dimension `xla.workgroup_id` reads."""

    name = "xla.workgroup_dim"


class BackendKind(StrEnum):
    """The backend a kernel module is compiled for."""

    CPU = auto()
    GPU = auto()
    TPU = auto()


@irdl_attr_definition
class BackendKindAttr(EnumAttribute[BackendKind]):
    """`#xla.backend_kind<gpu>`: on today's XLA kernel entry functions (`xla.backend_kind`)."""

    name = "xla.backend_kind"

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> BackendKind:
        with parser.in_angle_brackets():
            return parser.parse_str_enum(BackendKind)


# ----------------------------------------------------------------------------
# The xla.range convention
# ----------------------------------------------------------------------------


def xla_range_attr(interval: Interval) -> ArrayAttr[IntegerAttr[IndexType]]:
    """`[LB : index, UB : index]`, the value of an `xla.range` attribute."""
    return ArrayAttr(
        [IntegerAttr(interval.lower, IndexType()), IntegerAttr(interval.upper, IndexType())]
    )


def get_xla_range(op_or_value: Operation | SSAValue) -> Interval | None:
    """The inclusive range that `xla.range` gives an op's result or a function argument.

    Raises VerifyException when the attribute is present but not `[LB : index, UB : index]`
    (verification rejects such a module first: `verify_xla_range`).
    """
    attr: Attribute | None = None
    if isinstance(op_or_value, Operation):
        attr = op_or_value.attributes.get(XLA_RANGE)
    elif isinstance(op_or_value, OpResult):
        attr = op_or_value.op.attributes.get(XLA_RANGE)
    elif isinstance(op_or_value, BlockArgument):
        parent = op_or_value.block.parent_op()
        if isinstance(parent, FuncOp) and parent.arg_attrs is not None:
            attr = parent.arg_attrs.data[op_or_value.index].data.get(XLA_RANGE)
    if attr is None:
        return None
    return _interval_from_attr(attr)


def _interval_from_attr(attr: Attribute) -> Interval:
    if isinstance(attr, ArrayAttr) and len(attr.data) == 2:
        lower, upper = attr.data
        if isinstance(lower, IntegerAttr) and isinstance(upper, IntegerAttr):
            return Interval(lower.value.data, upper.value.data)
    raise VerifyException(f"must be [LB : index, UB : index], but got {attr}")


def verify_xla_range(attr: Attribute) -> None:
    """`xla.range` is `[LB : index, UB : index]` with LB <= UB."""
    interval = _interval_from_attr(attr)
    if interval.lower > interval.upper:
        raise VerifyException(
            f"is empty: lower bound {interval.lower} > upper bound {interval.upper}"
        )


# Every op and function argument carrying `xla.range` is checked when a module verifies.
register_attribute_verifier(XLA_RANGE, verify_xla_range)


# ----------------------------------------------------------------------------
# Builders that take the spelling as an argument
# ----------------------------------------------------------------------------
