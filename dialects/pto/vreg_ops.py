"""Register-level (VPTO) ops PTOAS parses by hand beyond the table's:

    %r = pto.vtrc %v, %mask, "Z" : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>

`vtrc` rounds each active lane to an integral value by a rounding mode (`R`, `A`,
`F`, `C`, `Z`; PTOAS also reads `ROUND_Z` and prints the short form).
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects.builtin import StringAttr
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.vpto_types import MaskType, VRegType

VTRC_ROUNDING = ("R", "A", "F", "C", "Z")


@irdl_op_definition
class VtrcOp(IRDLOperation):
    """Round each active lane of a vector register to an integral value."""

    name = "pto.vtrc"
    input = operand_def(VRegType)
    mask = operand_def(MaskType)
    round_mode = prop_def(StringAttr)
    result = result_def(VRegType)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        mask = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        position = parser.pos
        token = parser.parse_optional_str_literal() or parser.parse_identifier()
        mode = token.removeprefix("ROUND_")
        if mode not in VTRC_ROUNDING:
            parser.raise_error(
                "round mode must be one of R/A/F/C/Z or ROUND_R/ROUND_A/ROUND_F/ROUND_C/ROUND_Z",
                position,
                parser.pos,
            )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        parser.parse_punctuation(",")
        mask_type = parser.parse_type()
        parser.parse_punctuation("->")
        op = cls.build(
            operands=[
                parser.resolve_operand(value, value_type),
                parser.resolve_operand(mask, mask_type),
            ],
            result_types=[parser.parse_type()],
            properties={"round_mode": StringAttr(mode)},
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.input)
        printer.print_string(", ")
        printer.print_operand(self.mask)
        printer.print_string(f', "{self.round_mode.data}"')
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.input.type)
        printer.print_string(", ")
        printer.print_attribute(self.mask.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if self.result.type != self.input.type:
            raise VerifyException("requires the result type to match the input type")


VREG_OPS = (VtrcOp,)
