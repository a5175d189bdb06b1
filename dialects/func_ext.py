"""`FUNC`: xDSL's `func` dialect with MLIR's `func.call_indirect`, which xDSL 0.74 lacks.

    %r = func.call_indirect %fn(%x) : (!pto.vmi.vreg<128xf32>) -> !pto.vmi.vreg<128xf32>

calls the function value `%fn`; the type after the colon is the callee's, and the
arguments and results must be its inputs and outputs (MLIR's verifier).
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType
from xdsl.ir import Dialect
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class CallIndirectOp(IRDLOperation):
    """A call of a function value."""

    name = "func.call_indirect"
    callee = operand_def(FunctionType)
    arguments = var_operand_def()
    results_ = var_result_def()

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        callee = parser.parse_unresolved_operand()
        arguments = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        at = parser.pos
        function_type = parser.parse_type()
        if not isinstance(function_type, FunctionType):
            parser.raise_error("expected the callee's function type", at)
        inputs = function_type.inputs.data
        if len(inputs) != len(arguments):
            parser.raise_error(
                f"expected {len(inputs)} arguments for {function_type}, got {len(arguments)}", at
            )
        op = cls.build(
            operands=[
                parser.resolve_operand(callee, function_type),
                [parser.resolve_operand(a, t) for a, t in zip(arguments, inputs, strict=True)],
            ],
            result_types=[list(function_type.outputs.data)],
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.callee)
        printer.print_string("(")
        printer.print_list(self.arguments, printer.print_operand)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.callee.type)

    def verify_(self) -> None:
        callee = self.callee.type
        assert isinstance(callee, FunctionType)
        if list(callee.inputs.data) != [a.type for a in self.arguments]:
            raise VerifyException("argument types do not match the callee's inputs")
        if list(callee.outputs.data) != [r.type for r in self.results_]:
            raise VerifyException("result types do not match the callee's outputs")


FUNC = Dialect("func", [*func.Func.operations, CallIndirectOp], [*func.Func.attributes])
