"""Parsing pieces the custom op formats of several dialects share."""

from __future__ import annotations

from xdsl.ir import Attribute, SSAValue
from xdsl.parser import Parser, UnresolvedOperand


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
