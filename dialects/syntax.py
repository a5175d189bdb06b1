"""Parsing pieces the custom op formats of several dialects share."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, cast

from xdsl.dialects.builtin import DenseArrayBase
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer


def defined_value(parser: Parser, operand: UnresolvedOperand) -> SSAValue | None:
    """The value an operand names when the parser has already seen it defined, else None.

    Formats that leave an operand's type out take it from the definition."""
    values = parser.ssa_values.get(operand.operand_name)
    if values is not None and operand.index < len(values):
        return values[operand.index]
    return None


def type_of_unresolved(parser: Parser, operand: UnresolvedOperand, default: Attribute) -> Attribute:
    """The type of an already defined value (so the verifier names a wrong one), else `default`."""
    value = defined_value(parser, operand)
    return value.type if value is not None else default


# ----------------------------------------------------------------------------
# `attr-dict` as MLIR prints it for ops with properties
# ----------------------------------------------------------------------------


def property_names(op_type: type[IRDLOperation]) -> frozenset[str]:
    return frozenset(op_type.get_irdl_definition().properties)


def parse_attr_dict_split(
    parser: Parser, op_type: type[IRDLOperation]
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """An optional `{...}`, split into the op's properties and its other attributes.

    MLIR prints an op's inherent attributes (properties) in the same `attr-dict`
    as the discardable ones; the op's definition tells them apart."""
    entries = parser.parse_optional_attr_dict()
    names = property_names(op_type)
    properties = {name: value for name, value in entries.items() if name in names}
    attributes = {name: value for name, value in entries.items() if name not in names}
    return properties, attributes


def print_attr_dict_merged(printer: Printer, op: IRDLOperation, elided: Iterable[str] = ()) -> None:
    """` {...}` with the properties the format does not print and the attributes, sorted by name,
    as MLIR prints them (its inherent attributes go through a sorted dictionary)."""
    skip = set(elided)
    merged = {name: value for name, value in op.properties.items() if name not in skip}
    merged |= {name: value for name, value in op.attributes.items() if name not in skip}
    if merged:
        printer.print_string(" ")
        printer.print_attr_dict(dict(sorted(merged.items())))


def int_values(array: DenseArrayBase) -> tuple[int, ...]:
    """The integers of an `array<i64: ...>` (or i32) property."""
    return tuple(cast(Sequence[int], cast(Any, array).get_values()))


def parse_body_region(parser: Parser) -> Region:
    """A single-block region; an empty `{ }` is an empty block, as MLIR's generated parser
    makes it for a region without terminator."""
    body = parser.parse_region()
    if not body.blocks:
        body.add_block(Block())
    return body
