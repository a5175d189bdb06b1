"""The `stablehlo` ops XLA's Triton emitter writes on tiles, in StableHLO's pretty syntax.

    %s = stablehlo.add %a, %b : tensor<256xf32>
    %c = stablehlo.compare  GT, %a, %b,  FLOAT : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %b = stablehlo.broadcast_in_dim %x, dims = [0] : (tensor<64xf32>) -> tensor<64x256xf32>
    %r = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1]
        : (tensor<64x256xf32>, tensor<f32>) -> tensor<64xf32>
    %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT]
        : (tensor<32x8xf32>, tensor<8x8xf32>) -> tensor<32x8xf32>

Elementwise ops print one type when operands and result share it, else a
function type (StableHLO's `SameOperandsAndResultType` format). Enum
attributes print `#stablehlo<comparison_direction GT>` in the generic syntax.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FunctionType,
    IntegerAttr,
    IntegerType,
    TensorType,
    i1,
    i64,
)
from xdsl.ir import (
    Attribute,
    Block,
    Data,
    Dialect,
    Operation,
    ParametrizedAttribute,
    Region,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
)
from xdsl.irdl import (
    IRDLOperation,
    SameVariadicOperandSize,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    param_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, Pure, ReturnLike
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.syntax import int_values, parse_attr_dict_split, print_attr_dict_merged

# ----------------------------------------------------------------------------
# Attributes
# ----------------------------------------------------------------------------


class _EnumAttr(SpacedOpaqueSyntaxAttribute, Data[str]):
    """`#stablehlo<kind VALUE>`; ops spell it as the bare `VALUE`."""

    CASES: ClassVar[tuple[str, ...]]

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> str:
        at = parser.pos
        word = parser.parse_identifier()
        if word not in cls.CASES:
            parser.raise_error(
                f"expected one of {', '.join(cls.CASES)}, but got '{word}'", at, parser.pos
            )
        return word

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(self.data)

    @classmethod
    def parse_bare(cls, parser: Parser) -> Self:
        at = parser.pos
        word = parser.parse_identifier()
        if word not in cls.CASES:
            parser.raise_error(
                f"expected one of {', '.join(cls.CASES)}, but got '{word}'", at, parser.pos
            )
        return cls(word)


@irdl_attr_definition
class ComparisonDirectionAttr(_EnumAttr):
    """`#stablehlo<comparison_direction GT>`."""

    name = "stablehlo.comparison_direction"

    CASES = ("EQ", "NE", "GE", "GT", "LE", "LT")


@irdl_attr_definition
class ComparisonTypeAttr(_EnumAttr):
    """`#stablehlo<comparison_type FLOAT>`: how `compare` orders (TOTALORDER orders NaNs too)."""

    name = "stablehlo.comparison_type"

    CASES = ("NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED")


@irdl_attr_definition
class PrecisionAttr(_EnumAttr):
    """`#stablehlo<precision DEFAULT>`."""

    name = "stablehlo.precision"

    CASES = ("DEFAULT", "HIGH", "HIGHEST")


def _parse_int_list(parser: AttrParser) -> list[int]:
    return parser.parse_comma_separated_list(
        Parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
    )


def _ints(values: Sequence[int]) -> str:
    return f"[{', '.join(map(str, values))}]"


@irdl_attr_definition
class DotDimensionNumbersAttr(ParametrizedAttribute):
    """`#stablehlo.dot<lhs_batching_dimensions = [0], ..., rhs_contracting_dimensions = [1]>`."""

    name = "stablehlo.dot"

    lhs_batching_dimensions: DenseArrayBase = param_def()
    rhs_batching_dimensions: DenseArrayBase = param_def()
    lhs_contracting_dimensions: DenseArrayBase = param_def()
    rhs_contracting_dimensions: DenseArrayBase = param_def()

    FIELDS: ClassVar[tuple[str, ...]] = (
        "lhs_batching_dimensions",
        "rhs_batching_dimensions",
        "lhs_contracting_dimensions",
        "rhs_contracting_dimensions",
    )

    def __init__(
        self,
        lhs_batching: Sequence[int],
        rhs_batching: Sequence[int],
        lhs_contracting: Sequence[int],
        rhs_contracting: Sequence[int],
    ):
        super().__init__(
            *(
                DenseArrayBase.from_list(i64, values)
                for values in (lhs_batching, rhs_batching, lhs_contracting, rhs_contracting)
            )
        )

    def lists(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(getattr(self, field).get_values()) for field in self.FIELDS)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        values: dict[str, list[int]] = {field: [] for field in cls.FIELDS}
        parser.parse_punctuation("<")
        if not parser.parse_optional_punctuation(">"):
            while True:
                at = parser.pos
                key = parser.parse_identifier()
                if key not in values:
                    parser.raise_error(f"unknown dot dimension field '{key}'", at, parser.pos)
                parser.parse_punctuation("=")
                values[key] = _parse_int_list(parser)
                if not parser.parse_optional_punctuation(","):
                    break
            parser.parse_punctuation(">")
        return tuple(DenseArrayBase.from_list(i64, values[field]) for field in cls.FIELDS)

    def print_parameters(self, printer: Printer) -> None:
        parts = [
            f"{field} = {_ints(values)}"
            for field, values in zip(self.FIELDS, self.lists(), strict=True)
            if values
        ]
        printer.print_string(f"<{', '.join(parts)}>")


@irdl_attr_definition
class DotAlgorithmAttr(ParametrizedAttribute):
    """`#stablehlo.dot_algorithm<lhs_precision_type = tf32, ..., num_primitive_operations = 1>`.

    Kept as its fields' text, in order: XLA reads them, we print them back."""

    name = "stablehlo.dot_algorithm"

    fields: Attribute = param_def()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        from xdsl.dialects.builtin import ArrayAttr, StringAttr

        return (ArrayAttr([StringAttr(text) for text in _parse_algorithm_fields(parser)]),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{', '.join(self.field_texts())}>")

    def field_texts(self) -> list[str]:
        from xdsl.dialects.builtin import ArrayAttr, StringAttr

        assert isinstance(self.fields, ArrayAttr)
        return [item.data for item in self.fields.data if isinstance(item, StringAttr)]


def _parse_algorithm_fields(parser: AttrParser) -> list[str]:
    parser.parse_punctuation("<")
    texts: list[str] = []
    while True:
        key = parser.parse_identifier()
        parser.parse_punctuation("=")
        value = parser.parse_optional_type()
        if value is None:
            at = parser.pos
            integer = parser.parse_optional_integer(allow_boolean=True)
            if integer is None:
                parser.raise_error("expected a type, an integer or a boolean", at)
            word = str(integer).lower() if isinstance(integer, bool) else str(integer)
            texts.append(f"{key} = {word}")
        else:
            texts.append(f"{key} = {value}")
        if not parser.parse_optional_punctuation(","):
            break
    parser.parse_punctuation(">")
    return texts


# ----------------------------------------------------------------------------
# Shared formats
# ----------------------------------------------------------------------------


def parse_same_operands_and_result_type(
    parser: Parser, count: int
) -> tuple[list[Attribute], Attribute]:
    """`: T` (every operand and the result) or `: (T1, T2) -> R`."""
    parser.parse_punctuation(":")
    at = parser.pos
    type_ = parser.parse_type()
    if isinstance(type_, FunctionType):
        if len(type_.inputs) != count or len(type_.outputs) != 1:
            parser.raise_error(
                f"expected a function type with {count} inputs and 1 result, but got {type_}",
                at,
                parser.pos,
            )
        return list(type_.inputs.data), type_.outputs.data[0]
    return [type_] * count, type_


def print_same_operands_and_result_type(
    printer: Printer, operands: Sequence[SSAValue], result: Attribute
) -> None:
    printer.print_string(" : ")
    types = [value.type for value in operands]
    if all(type_ == result for type_ in types):
        printer.print_attribute(result)
    else:
        printer.print_attribute(FunctionType.from_lists(types, [result]))


def _functional_type(
    parser: Parser, count: int, results: int = 1
) -> tuple[list[Attribute], list[Attribute]]:
    parser.parse_punctuation(":")
    at = parser.pos
    type_ = parser.parse_type()
    if (
        not isinstance(type_, FunctionType)
        or len(type_.inputs) != count
        or len(type_.outputs) != results
    ):
        parser.raise_error(
            f"expected a function type with {count} inputs and {results} results, but got {type_}",
            at,
            parser.pos,
        )
    return list(type_.inputs.data), list(type_.outputs.data)


def _print_functional_type(
    printer: Printer, operands: Sequence[SSAValue], results: Sequence[Attribute]
) -> None:
    printer.print_string(" : ")
    printer.print_attribute(FunctionType.from_lists([v.type for v in operands], results))


def _operands(parser: Parser) -> list[UnresolvedOperand]:
    return parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_unresolved_operand)


def _shape(type_: Attribute) -> tuple[int, ...]:
    return tuple(type_.get_shape()) if isinstance(type_, TensorType) else ()


def _element(type_: Attribute) -> Attribute:
    return type_.get_element_type() if isinstance(type_, TensorType) else type_


class ElementwiseOp(IRDLOperation):
    """`stablehlo.<op> %a[, %b, ...] attr-dict : T` (or a function type when the types differ)."""

    args = var_operand_def(TensorType)
    result = result_def(TensorType)

    traits = traits_def(Pure())

    ARITY: ClassVar[int]

    def __init__(
        self,
        *args: SSAValue | Operation,
        result_type: Attribute | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[args],
            result_types=[result_type or SSAValue.get(args[0]).type],
            attributes=attributes,
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        names = _operands(parser)
        properties, attributes = parse_attr_dict_split(parser, cls)
        operand_types, result_type = parse_same_operands_and_result_type(parser, len(names))
        values = parser.resolve_operands(names, operand_types, parser.pos)
        return cls.create(
            operands=values,
            result_types=[result_type],
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.args, printer.print_operand)
        print_attr_dict_merged(printer, self)
        print_same_operands_and_result_type(printer, self.args, self.result.type)

    def verify_(self) -> None:
        if len(self.args) != self.ARITY:
            raise VerifyException(f"expected {self.ARITY} operands, but got {len(self.args)}")
        for value in self.args:
            if _shape(value.type) != _shape(self.result.type):
                raise VerifyException(
                    f"expected operands of the result's shape {list(_shape(self.result.type))}, "
                    f"but got {value.type}"
                )
        self.verify_element_types()

    def verify_element_types(self) -> None:
        for value in self.args:
            if _element(value.type) != _element(self.result.type):
                raise VerifyException(
                    f"expected operands of the result's element type "
                    f"{_element(self.result.type)}, but got {value.type}"
                )


class UnaryOp(ElementwiseOp):
    ARITY: ClassVar[int] = 1


class BinaryOp(ElementwiseOp):
    ARITY: ClassVar[int] = 2


def _unary(class_name: str, mnemonic: str, doc: str) -> type[UnaryOp]:
    op = type(class_name, (UnaryOp,), {"name": f"stablehlo.{mnemonic}", "__doc__": doc})
    op.__module__ = __name__
    return irdl_op_definition(op)


def _binary(class_name: str, mnemonic: str, doc: str) -> type[BinaryOp]:
    op = type(class_name, (BinaryOp,), {"name": f"stablehlo.{mnemonic}", "__doc__": doc})
    op.__module__ = __name__
    return irdl_op_definition(op)


AbsOp = _unary("AbsOp", "abs", "`stablehlo.abs %x : T`.")
CbrtOp = _unary("CbrtOp", "cbrt", "`stablehlo.cbrt %x : T`.")
CeilOp = _unary("CeilOp", "ceil", "`stablehlo.ceil %x : T`.")
CosineOp = _unary("CosineOp", "cosine", "`stablehlo.cosine %x : T`.")
CountLeadingZerosOp = _unary(
    "CountLeadingZerosOp", "count_leading_zeros", "`stablehlo.count_leading_zeros %x : T`."
)
ExponentialOp = _unary("ExponentialOp", "exponential", "`stablehlo.exponential %x : T`.")
ExponentialMinusOneOp = _unary(
    "ExponentialMinusOneOp", "exponential_minus_one", "`stablehlo.exponential_minus_one %x : T`."
)
FloorOp = _unary("FloorOp", "floor", "`stablehlo.floor %x : T`.")
LogOp = _unary("LogOp", "log", "`stablehlo.log %x : T`.")
LogPlusOneOp = _unary("LogPlusOneOp", "log_plus_one", "`stablehlo.log_plus_one %x : T`.")
LogisticOp = _unary("LogisticOp", "logistic", "`stablehlo.logistic %x : T`.")
NegateOp = _unary("NegateOp", "negate", "`stablehlo.negate %x : T`.")
NotOp = _unary("NotOp", "not", "`stablehlo.not %x : T`.")
PopcntOp = _unary("PopcntOp", "popcnt", "`stablehlo.popcnt %x : T`.")
RoundNearestAfzOp = _unary(
    "RoundNearestAfzOp", "round_nearest_afz", "`stablehlo.round_nearest_afz %x : T`."
)
RoundNearestEvenOp = _unary(
    "RoundNearestEvenOp", "round_nearest_even", "`stablehlo.round_nearest_even %x : T`."
)
RsqrtOp = _unary("RsqrtOp", "rsqrt", "`stablehlo.rsqrt %x : T`.")
SignOp = _unary("SignOp", "sign", "`stablehlo.sign %x : T`.")
SineOp = _unary("SineOp", "sine", "`stablehlo.sine %x : T`.")
SqrtOp = _unary("SqrtOp", "sqrt", "`stablehlo.sqrt %x : T`.")
TanOp = _unary("TanOp", "tan", "`stablehlo.tan %x : T`.")
TanhOp = _unary("TanhOp", "tanh", "`stablehlo.tanh %x : T`.")

AddOp = _binary("AddOp", "add", "`stablehlo.add %a, %b : T`.")
AndOp = _binary("AndOp", "and", "`stablehlo.and %a, %b : T`.")
Atan2Op = _binary("Atan2Op", "atan2", "`stablehlo.atan2 %a, %b : T`.")
DivideOp = _binary("DivideOp", "divide", "`stablehlo.divide %a, %b : T`.")
MaximumOp = _binary("MaximumOp", "maximum", "`stablehlo.maximum %a, %b : T`.")
MinimumOp = _binary("MinimumOp", "minimum", "`stablehlo.minimum %a, %b : T`.")
MultiplyOp = _binary("MultiplyOp", "multiply", "`stablehlo.multiply %a, %b : T`.")
OrOp = _binary("OrOp", "or", "`stablehlo.or %a, %b : T`.")
PowerOp = _binary("PowerOp", "power", "`stablehlo.power %a, %b : T`.")
RemainderOp = _binary("RemainderOp", "remainder", "`stablehlo.remainder %a, %b : T`.")
ShiftLeftOp = _binary("ShiftLeftOp", "shift_left", "`stablehlo.shift_left %a, %b : T`.")
ShiftRightArithmeticOp = _binary(
    "ShiftRightArithmeticOp", "shift_right_arithmetic", "`stablehlo.shift_right_arithmetic`."
)
ShiftRightLogicalOp = _binary(
    "ShiftRightLogicalOp", "shift_right_logical", "`stablehlo.shift_right_logical %a, %b : T`."
)
SubtractOp = _binary("SubtractOp", "subtract", "`stablehlo.subtract %a, %b : T`.")
XorOp = _binary("XorOp", "xor", "`stablehlo.xor %a, %b : T`.")


@irdl_op_definition
class IsFiniteOp(UnaryOp):
    """`%f = stablehlo.is_finite %x : (tensor<8xf32>) -> tensor<8xi1>`."""

    name = "stablehlo.is_finite"

    def verify_element_types(self) -> None:
        if _element(self.result.type) != i1:
            raise VerifyException(f"expected an i1 result, but got {self.result.type}")


@irdl_op_definition
class ConvertOp(UnaryOp):
    """`%y = stablehlo.convert %x : (tensor<8xf32>) -> tensor<8xbf16>`: element type changes."""

    name = "stablehlo.convert"

    def verify_element_types(self) -> None:
        pass


@irdl_op_definition
class BitcastConvertOp(IRDLOperation):
    """`%y = stablehlo.bitcast_convert %x : (tensor<8xf32>) -> tensor<8xi32>`."""

    name = "stablehlo.bitcast_convert"

    operand = operand_def(TensorType)
    result = result_def(TensorType)

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        name = parser.parse_unresolved_operand()
        properties, attributes = parse_attr_dict_split(parser, cls)
        inputs, outputs = _functional_type(parser, 1)
        values = parser.resolve_operands([name], inputs, parser.pos)
        return cls.create(
            operands=values, result_types=outputs, properties=properties, attributes=attributes
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        print_attr_dict_merged(printer, self)
        _print_functional_type(printer, [self.operand], [self.result.type])


@irdl_op_definition
class ClampOp(IRDLOperation):
    """`%y = stablehlo.clamp %lo, %x, %hi : T` (or a function type when the bounds are scalars)."""

    name = "stablehlo.clamp"

    min = operand_def(TensorType)
    operand = operand_def(TensorType)
    max = operand_def(TensorType)
    result = result_def(TensorType)

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        names = _operands(parser)
        properties, attributes = parse_attr_dict_split(parser, cls)
        types, result = parse_same_operands_and_result_type(parser, len(names))
        values = parser.resolve_operands(names, types, parser.pos)
        return cls.create(
            operands=values, result_types=[result], properties=properties, attributes=attributes
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        print_attr_dict_merged(printer, self)
        print_same_operands_and_result_type(printer, self.operands, self.result.type)


@irdl_op_definition
class SelectOp(IRDLOperation):
    """`%r = stablehlo.select %pred, %a, %b : tensor<8xi1>, tensor<8xf32>`.

    The short form names the predicate's type and the one type of `%a`, `%b`
    and the result; otherwise a function type."""

    name = "stablehlo.select"

    pred = operand_def(TensorType)
    on_true = operand_def(TensorType)
    on_false = operand_def(TensorType)
    result = result_def(TensorType)

    traits = traits_def(Pure())

    def __init__(
        self,
        pred: SSAValue | Operation,
        on_true: SSAValue | Operation,
        on_false: SSAValue | Operation,
    ):
        super().__init__(
            operands=[pred, on_true, on_false], result_types=[SSAValue.get(on_true).type]
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        names = _operands(parser)
        properties, attributes = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        at = parser.pos
        first = parser.parse_type()
        if isinstance(first, FunctionType):
            types, results = list(first.inputs.data), list(first.outputs.data)
        else:
            parser.parse_punctuation(",")
            value_type = parser.parse_type()
            types, results = [first, value_type, value_type], [value_type]
        if len(names) != 3 or len(types) != 3:
            parser.raise_error("expected 3 operands: the predicate, on-true, on-false", at)
        values = parser.resolve_operands(names, types, at)
        return cls.create(
            operands=values, result_types=results, properties=properties, attributes=attributes
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        print_attr_dict_merged(printer, self)
        result = self.result.type
        if self.on_true.type == result and self.on_false.type == result:
            printer.print_string(" : ")
            printer.print_attribute(self.pred.type)
            printer.print_string(", ")
            printer.print_attribute(result)
        else:
            _print_functional_type(printer, self.operands, [result])

    def verify_(self) -> None:
        if _element(self.pred.type) != i1:
            raise VerifyException(f"expected an i1 predicate, but got {self.pred.type}")
        if self.on_true.type != self.on_false.type:
            raise VerifyException(
                f"expected on-true and on-false of one type, but got {self.on_true.type} "
                f"and {self.on_false.type}"
            )
        if _shape(self.pred.type) not in ((), _shape(self.result.type)):
            raise VerifyException(
                f"expected a scalar predicate or one of the result's shape, "
                f"but got {self.pred.type}"
            )


@irdl_op_definition
class CompareOp(IRDLOperation):
    """`%c = stablehlo.compare  LT, %a, %b,  FLOAT : (T, T) -> tensor<...xi1>`."""

    name = "stablehlo.compare"

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    comparison_direction = prop_def(ComparisonDirectionAttr)
    compare_type = opt_prop_def(ComparisonTypeAttr)
    result = result_def(TensorType)

    traits = traits_def(Pure())

    def __init__(
        self,
        direction: str,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        compare_type: str | None = None,
    ):
        lhs_type = SSAValue.get(lhs).type
        assert isinstance(lhs_type, TensorType)
        properties: dict[str, Attribute] = {
            "comparison_direction": ComparisonDirectionAttr(direction)
        }
        if compare_type is not None:
            properties["compare_type"] = ComparisonTypeAttr(compare_type)
        super().__init__(
            operands=[lhs, rhs],
            result_types=[TensorType(i1, lhs_type.get_shape())],
            properties=properties,
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        direction = ComparisonDirectionAttr.parse_bare(parser)
        parser.parse_punctuation(",")
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        properties: dict[str, Attribute] = {"comparison_direction": direction}
        if parser.parse_optional_punctuation(","):
            properties["compare_type"] = ComparisonTypeAttr.parse_bare(parser)
        more, attributes = parse_attr_dict_split(parser, cls)
        inputs, outputs = _functional_type(parser, 2)
        values = parser.resolve_operands([lhs, rhs], inputs, parser.pos)
        return cls.create(
            operands=values,
            result_types=outputs,
            properties=properties | more,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(f"  {self.comparison_direction.data}, ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        if self.compare_type is not None:
            printer.print_string(f",  {self.compare_type.data}")
        print_attr_dict_merged(printer, self, ("comparison_direction", "compare_type"))
        _print_functional_type(printer, [self.lhs, self.rhs], [self.result.type])

    def verify_(self) -> None:
        if self.lhs.type != self.rhs.type:
            raise VerifyException(
                f"expected operands of one type, but got {self.lhs.type} and {self.rhs.type}"
            )
        expected = TensorType(i1, _shape(self.lhs.type))
        if self.result.type != expected:
            raise VerifyException(f"expected result type {expected}, but got {self.result.type}")


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """`%c = stablehlo.constant dense<0.000000e+00> : tensor<f32>`."""

    name = "stablehlo.constant"

    value = prop_def(DenseIntOrFPElementsAttr)
    output = result_def(TensorType)

    traits = traits_def(Pure())

    def __init__(self, value: DenseIntOrFPElementsAttr):
        super().__init__(result_types=[value.type], properties={"value": value})

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        _, attributes = parse_attr_dict_split(parser, cls)
        at = parser.pos
        value = parser.parse_attribute()
        if not isinstance(value, DenseIntOrFPElementsAttr):
            parser.raise_error(f"expected a dense elements attribute, but got {value}", at)
        op = cls(value)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        print_attr_dict_merged(printer, self, ("value",))
        printer.print_string(" ")
        printer.print_attribute(self.value)

    def verify_(self) -> None:
        if self.value.type != self.output.type:
            raise VerifyException(
                f"expected the value's type {self.value.type}, but got {self.output.type}"
            )


@irdl_op_definition
class IotaOp(IRDLOperation):
    """`%i = stablehlo.iota dim = 0 : tensor<64xi32>`."""

    name = "stablehlo.iota"

    iota_dimension = prop_def(IntegerAttr[IntegerType])
    output = result_def(TensorType)

    traits = traits_def(Pure())

    def __init__(self, dimension: int, result_type: Attribute):
        super().__init__(
            result_types=[result_type],
            properties={"iota_dimension": IntegerAttr(dimension, i64)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        parser.parse_keyword("dim")
        parser.parse_punctuation("=")
        dimension = parser.parse_integer(allow_boolean=False)
        _, attributes = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        op = cls(dimension, parser.parse_type())
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" dim = {self.iota_dimension.value.data}")
        print_attr_dict_merged(printer, self, ("iota_dimension",))
        printer.print_string(" : ")
        printer.print_attribute(self.output.type)

    def verify_(self) -> None:
        rank = len(_shape(self.output.type))
        dimension = self.iota_dimension.value.data
        if not 0 <= dimension < rank:
            raise VerifyException(f"expected iota dimension in [0, {rank}), but got {dimension}")


class _DimsOp(IRDLOperation):
    """`stablehlo.<op> %x, dims = [...] : (T) -> R`."""

    operand = operand_def(TensorType)
    result = result_def(TensorType)

    traits = traits_def(Pure())

    DIMS: ClassVar[str]

    def __init__(self, operand: SSAValue | Operation, dims: Sequence[int], result_type: Attribute):
        super().__init__(
            operands=[operand],
            result_types=[result_type],
            properties={self.DIMS: DenseArrayBase.from_list(i64, dims)},
        )

    @property
    def dims(self) -> tuple[int, ...]:
        attr = self.properties[self.DIMS]
        assert isinstance(attr, DenseArrayBase)
        return tuple(int_values(attr))

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        name = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("dims")
        parser.parse_punctuation("=")
        dims = _parse_int_list(parser)
        _, attributes = parse_attr_dict_split(parser, cls)
        inputs, outputs = _functional_type(parser, 1)
        (value,) = parser.resolve_operands([name], inputs, parser.pos)
        op = cls(value, dims, outputs[0])
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(f", dims = {_ints(self.dims)}")
        print_attr_dict_merged(printer, self, (self.DIMS,))
        _print_functional_type(printer, [self.operand], [self.result.type])


@irdl_op_definition
class BroadcastInDimOp(_DimsOp):
    """`%b = stablehlo.broadcast_in_dim %x, dims = [0] : (tensor<64xf32>) -> tensor<64x256xf32>`.

    Operand dimension i becomes result dimension dims[i]."""

    name = "stablehlo.broadcast_in_dim"

    broadcast_dimensions = prop_def(DenseArrayBase)

    DIMS: ClassVar[str] = "broadcast_dimensions"

    def verify_(self) -> None:
        source, result = _shape(self.operand.type), _shape(self.result.type)
        dims = self.dims
        if len(dims) != len(source):
            raise VerifyException(
                f"expected {len(source)} broadcast dimensions, one per operand dimension, "
                f"but got {len(dims)}"
            )
        for axis, (size, target) in enumerate(zip(source, dims, strict=True)):
            if not 0 <= target < len(result) or size not in (1, result[target]):
                raise VerifyException(
                    f"expected operand dimension {axis} (size {size}) to map to a result "
                    f"dimension of size 1 or {size}, but got dimension {target} of "
                    f"{self.result.type}"
                )
        if _element(self.operand.type) != _element(self.result.type):
            raise VerifyException(
                f"expected the operand's element type {_element(self.operand.type)}, "
                f"but got {self.result.type}"
            )


@irdl_op_definition
class TransposeOp(_DimsOp):
    """`%t = stablehlo.transpose %x, dims = [1, 0] : (tensor<32x16xf32>) -> tensor<16x32xf32>`."""

    name = "stablehlo.transpose"

    permutation = prop_def(DenseArrayBase)

    DIMS: ClassVar[str] = "permutation"

    def verify_(self) -> None:
        source = _shape(self.operand.type)
        dims = self.dims
        if sorted(dims) != list(range(len(source))):
            raise VerifyException(
                f"expected a permutation of [0, {len(source)}), but got {list(dims)}"
            )
        expected = TensorType(_element(self.operand.type), [source[i] for i in dims])
        if expected != self.result.type:
            raise VerifyException(f"expected result type {expected}, but got {self.result.type}")


@irdl_op_definition
class ReshapeOp(IRDLOperation):
    """`%r = stablehlo.reshape %x : (tensor<16xi32>) -> tensor<1x16xi32>`."""

    name = "stablehlo.reshape"

    operand = operand_def(TensorType)
    result = result_def(TensorType)

    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue | Operation, result_type: Attribute):
        super().__init__(operands=[operand], result_types=[result_type])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        name = parser.parse_unresolved_operand()
        _, attributes = parse_attr_dict_split(parser, cls)
        inputs, outputs = _functional_type(parser, 1)
        (value,) = parser.resolve_operands([name], inputs, parser.pos)
        op = cls(value, outputs[0])
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        print_attr_dict_merged(printer, self)
        _print_functional_type(printer, [self.operand], [self.result.type])

    def verify_(self) -> None:
        count = 1
        for size in _shape(self.operand.type):
            count *= size
        result = 1
        for size in _shape(self.result.type):
            result *= size
        if count != result:
            raise VerifyException(
                f"expected {count} elements in the result, as in the operand, but got {result}"
            )


@irdl_op_definition
class ConcatenateOp(IRDLOperation):
    """`%c = stablehlo.concatenate %a, %b, dim = 0 : (T, U) -> R`."""

    name = "stablehlo.concatenate"

    inputs = var_operand_def(TensorType)
    dimension = prop_def(IntegerAttr[IntegerType])
    result = result_def(TensorType)

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        names: list[UnresolvedOperand] = []
        while True:
            if parser.parse_optional_keyword("dim"):
                break
            names.append(parser.parse_unresolved_operand())
            parser.parse_punctuation(",")
        parser.parse_punctuation("=")
        dimension = parser.parse_integer(allow_boolean=False)
        _, attributes = parse_attr_dict_split(parser, cls)
        inputs, outputs = _functional_type(parser, len(names))
        values = parser.resolve_operands(names, inputs, parser.pos)
        return cls.create(
            operands=values,
            result_types=outputs,
            properties={"dimension": IntegerAttr(dimension, i64)},
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.inputs, printer.print_operand)
        printer.print_string(f", dim = {self.dimension.value.data}")
        print_attr_dict_merged(printer, self, ("dimension",))
        _print_functional_type(printer, self.inputs, [self.result.type])


@irdl_op_definition
class SliceOp(IRDLOperation):
    """`%s = stablehlo.slice %x [0:4, 2:8:2] : (tensor<8x8xf32>) -> tensor<4x3xf32>`."""

    name = "stablehlo.slice"

    operand = operand_def(TensorType)
    start_indices = prop_def(DenseArrayBase)
    limit_indices = prop_def(DenseArrayBase)
    strides = prop_def(DenseArrayBase)
    result = result_def(TensorType)

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        name = parser.parse_unresolved_operand()

        def parse_range() -> tuple[int, int, int]:
            start = parser.parse_integer(allow_boolean=False)
            parser.parse_punctuation(":")
            limit = parser.parse_integer(allow_boolean=False)
            stride = 1
            if parser.parse_optional_punctuation(":"):
                stride = parser.parse_integer(allow_boolean=False)
            return start, limit, stride

        ranges = parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, parse_range)
        _, attributes = parse_attr_dict_split(parser, cls)
        inputs, outputs = _functional_type(parser, 1)
        values = parser.resolve_operands([name], inputs, parser.pos)
        properties: dict[str, Attribute] = {
            key: DenseArrayBase.from_list(i64, [r[i] for r in ranges])
            for i, key in enumerate(("start_indices", "limit_indices", "strides"))
        }
        return cls.create(
            operands=values, result_types=outputs, properties=properties, attributes=attributes
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        parts = [
            f"{start}:{limit}" + (f":{stride}" if stride != 1 else "")
            for start, limit, stride in zip(
                int_values(self.start_indices),
                int_values(self.limit_indices),
                int_values(self.strides),
                strict=True,
            )
        ]
        printer.print_string(f" [{', '.join(parts)}]")
        print_attr_dict_merged(printer, self, ("start_indices", "limit_indices", "strides"))
        _print_functional_type(printer, [self.operand], [self.result.type])


@irdl_op_definition
class DotGeneralOp(IRDLOperation):
    """`%d = stablehlo.dot_general %a, %b, [batching_dims = [0] x [0], ]contracting_dims = [1] x [0]
    [, precision = [DEFAULT, DEFAULT]][, algorithm = <...>] : (A, B) -> R`."""

    name = "stablehlo.dot_general"

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    dot_dimension_numbers = prop_def(DotDimensionNumbersAttr)
    precision_config = opt_prop_def(Attribute)
    algorithm = opt_prop_def(DotAlgorithmAttr)
    result = result_def(TensorType)

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        from xdsl.dialects.builtin import ArrayAttr

        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        lists: dict[str, tuple[list[int], list[int]]] = {
            "batching_dims": ([], []),
            "contracting_dims": ([], []),
        }
        properties: dict[str, Attribute] = {}
        while parser.parse_optional_punctuation(","):
            at = parser.pos
            key = parser.parse_identifier()
            parser.parse_punctuation("=")
            if key in lists:
                left = _parse_int_list(parser)
                parser.parse_keyword("x")
                lists[key] = (left, _parse_int_list(parser))
            elif key == "precision":
                properties["precision_config"] = ArrayAttr(
                    parser.parse_comma_separated_list(
                        Parser.Delimiter.SQUARE, lambda: PrecisionAttr.parse_bare(parser)
                    )
                )
            elif key == "algorithm":
                properties["algorithm"] = DotAlgorithmAttr(
                    _algorithm_fields_attr(_parse_algorithm_fields(parser))
                )
            else:
                parser.raise_error(f"unknown dot_general field '{key}'", at, parser.pos)
        more, attributes = parse_attr_dict_split(parser, cls)
        inputs, outputs = _functional_type(parser, 2)
        values = parser.resolve_operands([lhs, rhs], inputs, parser.pos)
        (lb, rb), (lc, rc) = lists["batching_dims"], lists["contracting_dims"]
        properties["dot_dimension_numbers"] = DotDimensionNumbersAttr(lb, rb, lc, rc)
        return cls.create(
            operands=values,
            result_types=outputs,
            properties=properties | more,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        from xdsl.dialects.builtin import ArrayAttr

        printer.print_string(" ")
        printer.print_list([self.lhs, self.rhs], printer.print_operand)
        lb, rb, lc, rc = self.dot_dimension_numbers.lists()
        if lb or rb:
            printer.print_string(f", batching_dims = {_ints(lb)} x {_ints(rb)}")
        printer.print_string(f", contracting_dims = {_ints(lc)} x {_ints(rc)}")
        precision = self.precision_config
        if isinstance(precision, ArrayAttr) and all(
            isinstance(p, PrecisionAttr) for p in precision.data
        ):
            names = ", ".join(p.data for p in precision.data if isinstance(p, PrecisionAttr))
            printer.print_string(f", precision = [{names}]")
        if self.algorithm is not None:
            printer.print_string(f", algorithm = <{', '.join(self.algorithm.field_texts())}>")
        print_attr_dict_merged(
            printer, self, ("dot_dimension_numbers", "precision_config", "algorithm")
        )
        _print_functional_type(printer, [self.lhs, self.rhs], [self.result.type])

    def verify_(self) -> None:
        lb, rb, lc, rc = self.dot_dimension_numbers.lists()
        lhs, rhs = _shape(self.lhs.type), _shape(self.rhs.type)
        if len(lb) != len(rb) or len(lc) != len(rc):
            raise VerifyException(
                f"expected as many lhs as rhs batching and contracting dimensions, but got "
                f"{list(lb)} x {list(rb)} and {list(lc)} x {list(rc)}"
            )
        for left, right in (*zip(lb, rb, strict=True), *zip(lc, rc, strict=True)):
            if not (0 <= left < len(lhs) and 0 <= right < len(rhs)) or lhs[left] != rhs[right]:
                raise VerifyException(
                    f"expected lhs dimension {left} and rhs dimension {right} of one size, "
                    f"but got {self.lhs.type} and {self.rhs.type}"
                )
        free_l = [s for i, s in enumerate(lhs) if i not in lb and i not in lc]
        free_r = [s for i, s in enumerate(rhs) if i not in rb and i not in rc]
        expected = [lhs[i] for i in lb] + free_l + free_r
        if list(_shape(self.result.type)) != expected:
            raise VerifyException(
                f"expected result shape {expected} (batch, lhs free, rhs free), "
                f"but got {self.result.type}"
            )


def _algorithm_fields_attr(texts: list[str]) -> Attribute:
    from xdsl.dialects.builtin import ArrayAttr, StringAttr

    return ArrayAttr([StringAttr(text) for text in texts])


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """`stablehlo.return %a : tensor<f32>`: ends a `stablehlo.reduce` body."""

    name = "stablehlo.return"

    results_ = var_operand_def()

    traits = traits_def(IsTerminator(), ReturnLike(), Pure())

    assembly_format = "$results_ attr-dict (`:` type($results_)^)?"

    def __init__(self, values: Sequence[SSAValue | Operation]):
        super().__init__(operands=[values])


@irdl_op_definition
class ReduceOp(IRDLOperation):
    """`stablehlo.reduce`, in StableHLO's two pretty forms:

        %r = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [1]
            : (tensor<64x256xf32>, tensor<f32>) -> tensor<64xf32>

        %r:2 = stablehlo.reduce(%x init: %c), (%i init: %j) across dimensions = [1]
            : (T, U, tensor<f32>, tensor<i32>) -> (V, W)
         reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>)  {
          ...
          stablehlo.return %m, %k : tensor<f32>, tensor<i32>
        }

    The body takes (accumulators..., elements...) as 0-d tensors.
    """

    name = "stablehlo.reduce"

    inputs = var_operand_def(TensorType)
    init_values = var_operand_def(TensorType)
    dimensions = prop_def(DenseArrayBase)
    results_ = var_result_def(TensorType)
    body = region_def("single_block")

    traits = traits_def(Pure())

    irdl_options = (SameVariadicOperandSize(),)

    @property
    def dims(self) -> tuple[int, ...]:
        return tuple(int_values(self.dimensions))

    def single_combiner(self) -> Operation | None:
        """The body's one op when it is `%r = <op> %acc, %x` returning `%r` (the `applies` form)."""
        block = self.body.block
        ops = list(block.ops)
        if len(ops) != 2 or len(self.inputs) != 1:
            return None
        combiner, terminator = ops
        if not isinstance(combiner, BinaryOp) or not isinstance(terminator, ReturnOp):
            return None
        if combiner.attributes or combiner.properties:
            return None
        if tuple(combiner.operands) != tuple(block.args) or len(block.args) != 2:
            return None
        if tuple(terminator.operands) != tuple(combiner.results):
            return None
        element = _element(self.inputs[0].type)
        scalar = TensorType(element, [])
        if any(arg.type != scalar for arg in block.args) or combiner.result.type != scalar:
            return None
        return combiner

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        pairs: list[tuple[UnresolvedOperand, UnresolvedOperand]] = []
        while True:
            parser.parse_punctuation("(")
            value = parser.parse_unresolved_operand()
            parser.parse_keyword("init")
            parser.parse_punctuation(":")
            init = parser.parse_unresolved_operand()
            parser.parse_punctuation(")")
            pairs.append((value, init))
            if not parser.parse_optional_punctuation(","):
                break
        combiner_name: str | None = None
        combiner_at = parser.pos
        if parser.parse_optional_keyword("applies"):
            combiner_at = parser.pos
            combiner_name = parser.parse_identifier()
        parser.parse_keyword("across")
        parser.parse_keyword("dimensions")
        parser.parse_punctuation("=")
        dims = _parse_int_list(parser)
        _, attributes = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        at = parser.pos
        function_type = parser.parse_type()
        if not isinstance(function_type, FunctionType) or len(function_type.inputs) != 2 * len(
            pairs
        ):
            parser.raise_error(
                f"expected a function type with {2 * len(pairs)} inputs, but got {function_type}",
                at,
                parser.pos,
            )
        names = [p[0] for p in pairs] + [p[1] for p in pairs]
        values = parser.resolve_operands(names, function_type.inputs.data, at)
        if combiner_name is not None:
            body = _combiner_body(parser, combiner_name, combiner_at, function_type.inputs.data[-1])
        else:
            body = _parse_reducer(parser, len(pairs))
        return cls.create(
            operands=values,
            result_types=list(function_type.outputs.data),
            properties={"dimensions": DenseArrayBase.from_list(i64, dims)},
            attributes=attributes,
            regions=[body],
        )

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        for index, (value, init) in enumerate(zip(self.inputs, self.init_values, strict=True)):
            if index:
                printer.print_string(", (")
            printer.print_operand(value)
            printer.print_string(" init: ")
            printer.print_operand(init)
            printer.print_string(")")
        combiner = self.single_combiner()
        if combiner is not None:
            printer.print_string(f" applies {combiner.name}")
        printer.print_string(f" across dimensions = {_ints(self.dims)}")
        print_attr_dict_merged(printer, self, ("dimensions",))
        printer.print_string(" : ")
        printer.print_attribute(
            FunctionType.from_lists(
                [*self.inputs.types, *self.init_values.types], self.results_.types
            )
        )
        if combiner is not None:
            return
        block = self.body.block
        count = len(self.inputs)
        printer.print_string("\n")
        printer.print_string(" reducer")
        for index in range(count):
            printer.print_string(" (" if index else "(")
            printer.print_block_argument(block.args[index])
            printer.print_string(", ")
            printer.print_block_argument(block.args[count + index])
            printer.print_string(")")
        printer.print_string("  ")
        printer.print_region(self.body, print_entry_block_args=False)

    def verify_(self) -> None:
        rank_shape = _shape(self.inputs[0].type) if self.inputs else ()
        for value in self.inputs:
            if _shape(value.type) != rank_shape:
                raise VerifyException(
                    f"expected inputs of one shape, but got {self.inputs[0].type} and {value.type}"
                )
        dims = self.dims
        if any(not 0 <= d < len(rank_shape) for d in dims) or len(set(dims)) != len(dims):
            raise VerifyException(
                f"expected distinct dimensions in [0, {len(rank_shape)}), but got {list(dims)}"
            )
        kept = [size for axis, size in enumerate(rank_shape) if axis not in dims]
        for value, init, result in zip(self.inputs, self.init_values, self.results_, strict=False):
            scalar = TensorType(_element(value.type), [])
            if init.type != scalar:
                raise VerifyException(f"expected init value of type {scalar}, but got {init.type}")
            expected = TensorType(_element(value.type), kept)
            if result.type != expected:
                raise VerifyException(f"expected result type {expected}, but got {result.type}")
        if len(self.results_) != len(self.inputs):
            raise VerifyException(
                f"expected {len(self.inputs)} results, one per input, but got {len(self.results_)}"
            )
        block = self.body.block
        scalars = [TensorType(_element(v.type), []) for v in self.inputs] * 2
        if list(block.arg_types) != scalars:
            raise VerifyException(
                f"expected the body to take ({', '.join(map(str, scalars))}), "
                f"but got ({', '.join(map(str, block.arg_types))})"
            )


def _combiner_body(parser: Parser, name: str, at: int, scalar: Attribute) -> Region:
    """The body the `applies stablehlo.add` form stands for."""
    op_type = parser.ctx.get_optional_op(name)
    if op_type is None or not issubclass(op_type, BinaryOp):
        parser.raise_error(f"expected a binary stablehlo op after 'applies', but got {name}", at)
    block = Block(arg_types=[scalar, scalar])
    combined = op_type(*block.args)
    block.add_ops([combined, ReturnOp([combined.result])])
    return Region(block)


def _parse_reducer(parser: Parser, count: int) -> Region:
    """` reducer(%a: T, %b: T) (...)  { ... }`: the pairs are (accumulator, element)."""
    parser.parse_keyword("reducer")
    accumulators: list[Parser.Argument] = []
    elements: list[Parser.Argument] = []
    for _ in range(count):
        parser.parse_punctuation("(")
        accumulators.append(parser.parse_argument())
        parser.parse_punctuation(",")
        elements.append(parser.parse_argument())
        parser.parse_punctuation(")")
    return parser.parse_region([*accumulators, *elements])


STABLEHLO = Dialect(
    "stablehlo",
    [
        AbsOp,
        CbrtOp,
        CeilOp,
        CosineOp,
        CountLeadingZerosOp,
        ExponentialOp,
        ExponentialMinusOneOp,
        FloorOp,
        LogOp,
        LogPlusOneOp,
        LogisticOp,
        NegateOp,
        NotOp,
        PopcntOp,
        RoundNearestAfzOp,
        RoundNearestEvenOp,
        RsqrtOp,
        SignOp,
        SineOp,
        SqrtOp,
        TanOp,
        TanhOp,
        IsFiniteOp,
        ConvertOp,
        BitcastConvertOp,
        AddOp,
        AndOp,
        Atan2Op,
        DivideOp,
        MaximumOp,
        MinimumOp,
        MultiplyOp,
        OrOp,
        PowerOp,
        RemainderOp,
        ShiftLeftOp,
        ShiftRightArithmeticOp,
        ShiftRightLogicalOp,
        SubtractOp,
        XorOp,
        ClampOp,
        SelectOp,
        CompareOp,
        ConstantOp,
        IotaOp,
        BroadcastInDimOp,
        TransposeOp,
        ReshapeOp,
        ConcatenateOp,
        SliceOp,
        DotGeneralOp,
        ReduceOp,
        ReturnOp,
    ],
    [
        ComparisonDirectionAttr,
        ComparisonTypeAttr,
        PrecisionAttr,
        DotDimensionNumbersAttr,
        DotAlgorithmAttr,
    ],
)
