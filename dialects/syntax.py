"""Parsing pieces the custom op formats of several dialects share."""

from __future__ import annotations

from xdsl.ir import Attribute
from xdsl.parser import Parser, UnresolvedOperand


def type_of_unresolved(parser: Parser, operand: UnresolvedOperand, default: Attribute) -> Attribute:
    """The type of an already defined value (so the verifier names a wrong one), else `default`."""
    values = parser.ssa_values.get(operand.operand_name)
    if values is not None and operand.index < len(values):
        return values[operand.index].type
    return default
