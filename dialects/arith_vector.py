"""`arith` ops on vectors as Pallas writes them, where xDSL 0.74 takes scalars only.

Mosaic kernels compare, select and extend whole vectors:

    %3 = arith.cmpf ogt, %0, %2 : vector<8x128xf32>           // vector<8x128xi1>
    %9 = arith.select %6, %0, %8 : vector<8x128xi1>, vector<8x128xf32>
    %11 = arith.extui %6 : vector<8x128xi1> to vector<8x128xi32>

Each op here subclasses xDSL's scalar op of the same name (so passes and
the interpreter that match the xDSL class match these too) and widens its
types to scalars or vectors of them; `ARITH` registers these in place of
xDSL's.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, IntegerAttr, IntegerType, TensorType, VectorType, i1
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

# Triton's IR compares, selects and extends whole tensors the same way.
INTEGER_LIKE = (
    base(IntegerType) | VectorType.constr(base(IntegerType)) | TensorType.constr(base(IntegerType))
)
FLOAT_LIKE = base(AnyFloat) | VectorType.constr(base(AnyFloat)) | TensorType.constr(base(AnyFloat))
BOOL_LIKE = INTEGER_LIKE


NO_FASTMATH = arith.FastMathFlagsAttr("none")


def _bools_like(type_: Attribute) -> Attribute:
    """i1, or a vector (tensor) of i1 with the shape of `type_` when it is a vector (tensor)."""
    if isinstance(type_, VectorType):
        return VectorType(i1, type_.get_shape(), type_.scalable_dims)
    if isinstance(type_, TensorType):
        return TensorType(i1, type_.get_shape())
    return i1


def _shape(type_: Attribute) -> tuple[int, ...] | None:
    return type_.get_shape() if isinstance(type_, VectorType | TensorType) else None


def _element(type_: Attribute) -> Attribute:
    return type_.get_element_type() if isinstance(type_, VectorType | TensorType) else type_


def _check_same_shape(op: IRDLOperation, source: Attribute, target: Attribute) -> None:
    if _shape(source) != _shape(target):
        raise VerifyException(
            f"'{op.name}' op requires the same shape for all operands and results, but got "
            f"{source} and {target}"
        )


@irdl_op_definition
class CmpiOp(arith.CmpiOp):
    """`arith.cmpi` on integers or integer vectors; the result is i1 of the operands' shape."""

    # Every field is restated: IRDL does not inherit the fields of a finished op class.
    predicate = prop_def(IntegerAttr)
    lhs = operand_def(arith.signlessIntegerLike)
    rhs = operand_def(arith.signlessIntegerLike)
    result = result_def(BOOL_LIKE)

    def __init__(
        self, operand1: Operation | SSAValue, operand2: Operation | SSAValue, arg: int | str
    ) -> None:
        lhs = SSAValue.get(operand1)
        if isinstance(arg, str):
            arg = self._get_comparison_predicate(
                arg, {name: i for i, name in enumerate(arith.CMPI_COMPARISON_OPERATIONS)}
            )
        IRDLOperation.__init__(
            self,
            operands=[lhs, operand2],
            result_types=[_bools_like(lhs.type)],
            properties={"predicate": IntegerAttr(arg, 64)},
        )

    def verify_(self) -> None:
        if self.result.type != _bools_like(self.lhs.type):
            raise VerifyException(
                f"'arith.cmpi' op result must be {_bools_like(self.lhs.type)}, but got "
                f"{self.result.type}"
            )


@irdl_op_definition
class CmpfOp(arith.CmpfOp):
    """`arith.cmpf` on floats or float vectors; the result is i1 of the operands' shape."""

    predicate = prop_def(IntegerAttr)
    lhs = operand_def(arith.floatingPointLike)
    rhs = operand_def(arith.floatingPointLike)
    fastmath = prop_def(arith.FastMathFlagsAttr, default_value=arith.FastMathFlagsAttr("none"))
    result = result_def(BOOL_LIKE)

    def __init__(
        self,
        operand1: Operation | SSAValue,
        operand2: Operation | SSAValue,
        arg: int | str,
        fastmath: arith.FastMathFlagsAttr = NO_FASTMATH,
    ) -> None:
        lhs = SSAValue.get(operand1)
        if isinstance(arg, str):
            arg = self._get_comparison_predicate(
                arg, {name: i for i, name in enumerate(arith.CMPF_COMPARISON_OPERATIONS)}
            )
        IRDLOperation.__init__(
            self,
            operands=[lhs, operand2],
            result_types=[_bools_like(lhs.type)],
            properties={"predicate": IntegerAttr(arg, 64), "fastmath": fastmath},
        )

    def verify_(self) -> None:
        if self.result.type != _bools_like(self.lhs.type):
            raise VerifyException(
                f"'arith.cmpf' op result must be {_bools_like(self.lhs.type)}, but got "
                f"{self.result.type}"
            )


@irdl_op_definition
class SelectOp(arith.SelectOp):
    """`arith.select` with an i1 condition, or an i1 vector choosing element by element.

    With a vector condition Mosaic prints both types:
    `arith.select %c, %a, %b : vector<8x128xi1>, vector<8x128xf32>`.
    """

    _T: ClassVar = VarConstraint("_T", AnyAttr())
    cond = operand_def(BOOL_LIKE)
    lhs = operand_def(_T)
    rhs = operand_def(_T)
    result = result_def(_T)

    assembly_format = None

    @classmethod
    def parse(cls, parser: Parser) -> SelectOp:
        cond, lhs, rhs = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        first = parser.parse_type()
        cond_type, value_type = i1, first
        if parser.parse_optional_punctuation(",") is not None:
            cond_type, value_type = first, parser.parse_type()
        operands = parser.resolve_operands(
            [cond, lhs, rhs], [cond_type, value_type, value_type], parser.pos
        )
        op = cls(*operands)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list((self.cond, self.lhs, self.rhs), printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        if isinstance(self.cond.type, VectorType | TensorType):
            printer.print_attribute(self.cond.type)
            printer.print_string(", ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if _element(self.cond.type) != i1:
            raise VerifyException(
                f"'arith.select' op condition must be i1-like, got {self.cond.type}"
            )
        if isinstance(self.cond.type, VectorType | TensorType) and _shape(self.cond.type) != _shape(
            self.result.type
        ):
            raise VerifyException(
                f"'arith.select' op condition {self.cond.type} and result {self.result.type} "
                "differ in shape"
            )


class _CastSyntax:
    """`%r = arith.<cast> %x : T to U`, written by hand: the xDSL parent's generated
    parser and printer cannot be inherited next to a new assembly format."""

    assembly_format = None

    @classmethod
    def parse(cls, parser: Parser) -> IRDLOperation:
        operand = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source = parser.parse_type()
        parser.parse_keyword("to")
        target = parser.parse_type()
        op = cls(parser.resolve_operand(operand, source), target)  # type: ignore[call-arg]
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        op = self
        assert isinstance(op, IRDLOperation)
        printer.print_string(" ")
        printer.print_operand(op.operands[0])
        printer.print_op_attributes(op.attributes)
        printer.print_string(f" : {op.operands[0].type} to {op.results[0].type}")


def _check_integer_width(
    op: IRDLOperation, source: Attribute, target: Attribute, wider: bool
) -> None:
    _check_same_shape(op, source, target)
    source_width = _element(source)
    target_width = _element(target)
    assert isinstance(source_width, IntegerType) and isinstance(target_width, IntegerType)
    grows = target_width.width.data > source_width.width.data
    shrinks = target_width.width.data < source_width.width.data
    if (wider and not grows) or (not wider and not shrinks):
        relation = "wider" if wider else "narrower"
        raise VerifyException(
            f"'{op.name}' op result type {target} must be {relation} than operand type {source}"
        )


@irdl_op_definition
class ExtUIOp(_CastSyntax, arith.ExtUIOp):
    """`arith.extui` on integers or integer vectors (zero extension)."""

    input = operand_def(INTEGER_LIKE)
    result = result_def(INTEGER_LIKE)

    def verify_(self) -> None:
        _check_integer_width(self, self.input.type, self.result.type, wider=True)


@irdl_op_definition
class ExtSIOp(_CastSyntax, arith.ExtSIOp):
    """`arith.extsi` on integers or integer vectors (sign extension)."""

    input = operand_def(INTEGER_LIKE)
    result = result_def(INTEGER_LIKE)

    def verify_(self) -> None:
        _check_integer_width(self, self.input.type, self.result.type, wider=True)


@irdl_op_definition
class TruncIOp(_CastSyntax, arith.TruncIOp):
    """`arith.trunci` on integers or integer vectors."""

    input = operand_def(INTEGER_LIKE)
    result = result_def(INTEGER_LIKE)

    def verify_(self) -> None:
        _check_integer_width(self, self.input.type, self.result.type, wider=False)


@irdl_op_definition
class SIToFPOp(_CastSyntax, arith.SIToFPOp):
    """`arith.sitofp` on integers or integer vectors."""

    input = operand_def(INTEGER_LIKE)
    result = result_def(FLOAT_LIKE)

    def verify_(self) -> None:
        _check_same_shape(self, self.input.type, self.result.type)


@irdl_op_definition
class UIToFPOp(_CastSyntax, arith.UIToFPOp):
    input = operand_def(INTEGER_LIKE)
    result = result_def(FLOAT_LIKE)

    def verify_(self) -> None:
        _check_same_shape(self, self.input.type, self.result.type)


@irdl_op_definition
class FPToSIOp(_CastSyntax, arith.FPToSIOp):
    """`arith.fptosi` on floats or float vectors."""

    input = operand_def(FLOAT_LIKE)
    result = result_def(INTEGER_LIKE)

    def verify_(self) -> None:
        _check_same_shape(self, self.input.type, self.result.type)


@irdl_op_definition
class FPToUIOp(_CastSyntax, arith.FPToUIOp):
    input = operand_def(FLOAT_LIKE)
    result = result_def(INTEGER_LIKE)

    def verify_(self) -> None:
        _check_same_shape(self, self.input.type, self.result.type)


VECTOR_ARITH_OPS: tuple[type[IRDLOperation], ...] = (
    CmpiOp,
    CmpfOp,
    SelectOp,
    ExtUIOp,
    ExtSIOp,
    TruncIOp,
    SIToFPOp,
    UIToFPOp,
    FPToSIOp,
    FPToUIOp,
)
