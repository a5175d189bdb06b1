"""Triton's `tt` dialect: the ops XLA's Triton IR (TTIR) holds, and `!tt.ptr<T>`.

Printed as Triton prints them, for instance

    %pid = tt.get_program_id x : i32
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %p = tt.addptr %ptrs, %offsets : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %v = tt.load %p, %mask, %other : tensor<128x!tt.ptr<f32>>
    %s = "tt.reduce"(%v) <{axis = 0 : i32}> ({ ^bb0(%a: f32, %b: f32): ... }) : ...

Triton's enums (cache modifier, program dimension, input precision, ...) are
32-bit integer attributes; the pretty syntax spells them by name
(`ENUMS` has the tables).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    DenseArrayBase,
    FunctionType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
    i1,
    i32,
    i64,
)
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    ParametrizedAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    SameVariadicOperandSize,
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
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
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
# Types and enums
# ----------------------------------------------------------------------------

GLOBAL_ADDRESS_SPACE = 1


@irdl_attr_definition
class PointerType(ParametrizedAttribute, TypeAttribute):
    """`!tt.ptr<f32>`: a pointer into address space 1 (global); `!tt.ptr<f32, 3>` names another."""

    name = "tt.ptr"

    pointee_type: Attribute = param_def()
    address_space: IntAttr = param_def()

    def __init__(self, pointee_type: Attribute, address_space: int = GLOBAL_ADDRESS_SPACE):
        super().__init__(pointee_type, IntAttr(address_space))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        pointee = parser.parse_type()
        space = GLOBAL_ADDRESS_SPACE
        if parser.parse_optional_punctuation(","):
            space = parser.parse_integer(allow_boolean=False, allow_negative=False)
        parser.parse_punctuation(">")
        return (pointee, IntAttr(space))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.pointee_type)
        if self.address_space.data != GLOBAL_ADDRESS_SPACE:
            printer.print_string(f", {self.address_space.data}")
        printer.print_string(">")


# Triton's I32EnumAttr cases: spelling -> value.
ENUMS: dict[str, dict[str, int]] = {
    "cache": {"none": 1, "ca": 2, "cg": 3, "wb": 4, "cs": 5, "wt": 6, "cv": 7},
    "evict": {"evict_normal": 1, "evict_first": 2, "evict_last": 3},
    "padding": {"zero": 1, "nan": 2},
    "sem": {"relaxed": 1, "acquire": 2, "release": 3, "acq_rel": 4},
    "scope": {"gpu": 1, "cta": 2, "sys": 3},
    "atomic_rmw_op": {
        "and": 1,
        "or": 2,
        "xor": 3,
        "add": 4,
        "fadd": 5,
        "max": 6,
        "min": 7,
        "umax": 8,
        "umin": 9,
        "exch": 10,
    },
    "axis": {"x": 0, "y": 1, "z": 2},
    "rounding": {"rtz": 0, "rtne": 1},
    "propagateNan": {"none": 0, "all": 0xFFFF},
    "inputPrecision": {"tf32": 0, "tf32x3": 1, "ieee": 2, "bf16x3": 3, "bf16x6": 4},
}
DEFAULT_CACHE = 1
DEFAULT_EVICT = 1
DEFAULT_INPUT_PRECISION = 2  # ieee


def enum_attr(kind: str, spelling: str) -> IntegerAttr[IntegerType]:
    return IntegerAttr(ENUMS[kind][spelling], i32)


def enum_spelling(kind: str, attr: Attribute) -> str:
    assert isinstance(attr, IntegerAttr)
    value = attr.value.data
    for spelling, number in ENUMS[kind].items():
        if number == value:
            return spelling
    return str(value)


def parse_enum(parser: Parser, kind: str) -> IntegerAttr[IntegerType]:
    start = parser.pos
    word = parser.parse_identifier()
    if word not in ENUMS[kind]:
        parser.raise_error(
            f"expected one of {', '.join(ENUMS[kind])} for {kind}, but got '{word}'",
            start,
            parser.pos,
        )
    return enum_attr(kind, word)


def element_type(type_: Attribute) -> Attribute:
    """The element type of a tensor, else the type itself (Triton's scalars and tensors alike)."""
    return type_.get_element_type() if isinstance(type_, TensorType) else type_


def shape_of(type_: Attribute) -> tuple[int, ...]:
    return tuple(type_.get_shape()) if isinstance(type_, TensorType) else ()


def with_element_type(type_: Attribute, element: Attribute) -> Attribute:
    """`type_` with its element type replaced (a scalar type is replaced whole)."""
    if isinstance(type_, TensorType):
        return TensorType(element, type_.get_shape())
    return element


def _describe(type_: Attribute) -> str:
    return f"'{type_}'"


def _same_shape(what: str, first: Attribute, second: Attribute) -> None:
    if shape_of(first) != shape_of(second) or (
        isinstance(first, TensorType) != isinstance(second, TensorType)
    ):
        raise VerifyException(
            f"expected {what} to have the same shape, but got {_describe(first)} "
            f"and {_describe(second)}"
        )


# ----------------------------------------------------------------------------
# Format helpers: `$a, $b attr-dict : type(...)` and friends
# ----------------------------------------------------------------------------


def _print_operands(printer: Printer, values: Sequence[SSAValue]) -> None:
    printer.print_string(" ")
    printer.print_list(values, printer.print_operand)


def _print_types(printer: Printer, types: Sequence[Attribute]) -> None:
    printer.print_list(types, printer.print_attribute)


class _SrcToResultOp(IRDLOperation):
    """`tt.<op> %src attr-dict : type($src) -> type($result)`."""

    src = operand_def()
    result = result_def()

    traits = traits_def(Pure())

    ELIDED: ClassVar[tuple[str, ...]] = ()

    def __init__(
        self,
        src: SSAValue | Operation,
        result_type: Attribute,
        properties: dict[str, Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[src],
            result_types=[result_type],
            properties=properties or {},
            attributes=attributes,
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        src = parser.parse_unresolved_operand()
        properties = cls._parse_keywords(parser)
        more, attributes = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        (operand,) = parser.resolve_operands([src], [src_type], parser.pos)
        return cls(operand, result_type, properties | more, attributes)

    @classmethod
    def _parse_keywords(cls, parser: Parser) -> dict[str, Attribute]:
        return {}

    def _print_keywords(self, printer: Printer) -> None:
        pass

    def print(self, printer: Printer) -> None:
        _print_operands(printer, [self.src])
        self._print_keywords(printer)
        print_attr_dict_merged(printer, self, self.ELIDED)
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)


class _SameTypeOp(IRDLOperation):
    """`tt.<op> %a, %b, ... attr-dict : type($result)`: operands and result of one type."""

    args = var_operand_def()
    result = result_def()

    traits = traits_def(Pure())

    def __init__(
        self,
        args: Sequence[SSAValue | Operation],
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[args], result_types=[SSAValue.get(args[0]).type], attributes=attributes
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        names = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        _, attributes = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        values = parser.resolve_operands(names, [type_] * len(names), parser.pos)
        return cls(values, attributes)

    def print(self, printer: Printer) -> None:
        _print_operands(printer, self.args)
        print_attr_dict_merged(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        for value in self.args:
            if value.type != self.result.type:
                raise VerifyException(
                    "expected every operand to have the result type "
                    f"{_describe(self.result.type)}, "
                    f"but got {_describe(value.type)}"
                )


# ----------------------------------------------------------------------------
# Functions
# ----------------------------------------------------------------------------


@irdl_op_definition
class FuncOp(FunctionLikeOp):
    """`tt.func public @name(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}) { ... }`."""

    name = "tt.func"

    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface())


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """`tt.return` (`tt.return %a : f32` in a function with results)."""

    name = "tt.return"

    srcs = var_operand_def()

    traits = traits_def(IsTerminator(), ReturnLike(), HasParent(FuncOp), Pure())

    assembly_format = "attr-dict ($srcs^ `:` type($srcs))?"

    def __init__(self, srcs: Sequence[SSAValue | Operation] = ()):
        super().__init__(operands=[srcs])

    def verify_(self) -> None:
        func = self.parent_op()
        assert isinstance(func, FuncOp)
        expected = func.function_type.outputs.data
        if expected != self.srcs.types:
            raise VerifyException(
                f"expected the function's result types ({', '.join(map(str, expected))}), "
                f"but got ({', '.join(map(str, self.srcs.types))})"
            )


@irdl_op_definition
class CallOp(IRDLOperation):
    """`%r = tt.call @f(%a, %b) : (f32, f32) -> f32`."""

    name = "tt.call"

    callee = prop_def(SymbolRefAttr)
    args = var_operand_def()
    res = var_result_def()

    assembly_format = "$callee `(` $args `)` attr-dict `:` functional-type($args, $res)"

    def __init__(
        self,
        callee: str | SymbolRefAttr,
        args: Sequence[SSAValue | Operation],
        result_types: Sequence[Attribute],
    ):
        if isinstance(callee, str):
            callee = SymbolRefAttr(callee)
        super().__init__(
            operands=[args], result_types=[result_types], properties={"callee": callee}
        )


# ----------------------------------------------------------------------------
# Program ids, ranges, shape manipulation
# ----------------------------------------------------------------------------


class ProgramAxisOp(IRDLOperation):
    """An i32 about the launch grid along one axis: `tt.<op> x : i32`."""

    axis = prop_def(IntegerAttr[IntegerType])
    result = result_def(i32)

    traits = traits_def(Pure())

    def __init__(self, axis: str = "x"):
        super().__init__(result_types=[i32], properties={"axis": enum_attr("axis", axis)})

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        axis = parse_enum(parser, "axis")
        _, attributes = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        parser.parse_type()
        op = cls(enum_spelling("axis", axis))
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {enum_spelling('axis', self.axis)}")
        print_attr_dict_merged(printer, self, ("axis",))
        printer.print_string(" : i32")


@irdl_op_definition
class GetProgramIdOp(ProgramAxisOp):
    """`%pid = tt.get_program_id x : i32`."""

    name = "tt.get_program_id"

    @property
    def axis_index(self) -> int:
        return self.axis.value.data


@irdl_op_definition
class GetNumProgramsOp(ProgramAxisOp):
    """`%n = tt.get_num_programs x : i32`."""

    name = "tt.get_num_programs"


@irdl_op_definition
class MakeRangeOp(IRDLOperation):
    """`%r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>`: start..end-1."""

    name = "tt.make_range"

    start = prop_def(IntegerAttr[IntegerType])
    end = prop_def(IntegerAttr[IntegerType])
    result = result_def(TensorType)

    traits = traits_def(Pure())

    def __init__(self, start: int, end: int):
        super().__init__(
            result_types=[TensorType(i32, [end - start])],
            properties={"start": IntegerAttr(start, i32), "end": IntegerAttr(end, i32)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        at = parser.pos
        properties, attributes = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        result_type = parser.parse_type()
        if "start" not in properties or "end" not in properties:
            parser.raise_error("expected 'start' and 'end' attributes", at, parser.pos)
        op = cls.create(result_types=[result_type], properties=properties, attributes=attributes)
        return op

    def print(self, printer: Printer) -> None:
        print_attr_dict_merged(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        start, end = self.start.value.data, self.end.value.data
        shape = shape_of(self.result.type)
        if len(shape) != 1:
            raise VerifyException(f"expected a 1-d tensor result, but got {self.result.type}")
        if end <= start:
            raise VerifyException(f"expected start < end, but got start {start} and end {end}")
        if shape[0] != end - start:
            raise VerifyException(
                f"expected {end - start} elements (end - start), but got {shape[0]}"
            )
        if element_type(self.result.type) != i32:
            raise VerifyException(f"expected an i32 tensor result, but got {self.result.type}")


@irdl_op_definition
class SplatOp(_SrcToResultOp):
    """`%t = tt.splat %x : f32 -> tensor<128xf32>`."""

    name = "tt.splat"

    def verify_(self) -> None:
        if element_type(self.src.type) != element_type(self.result.type) or (
            isinstance(self.src.type, TensorType) and shape_of(self.src.type)
        ):
            raise VerifyException(
                f"expected a scalar of the result's element type {element_type(self.result.type)}, "
                f"but got {self.src.type}"
            )


@irdl_op_definition
class ExpandDimsOp(_SrcToResultOp):
    """`%t = tt.expand_dims %x {axis = 1 : i32} : tensor<128xf32> -> tensor<128x1xf32>`."""

    name = "tt.expand_dims"

    axis = prop_def(IntegerAttr[IntegerType])

    def verify_(self) -> None:
        shape = list(shape_of(self.src.type))
        axis = self.axis.value.data
        if not 0 <= axis <= len(shape):
            raise VerifyException(f"expected axis in [0, {len(shape)}], but got {axis}")
        shape.insert(axis, 1)
        expected = with_element_type(TensorType(i1, shape), element_type(self.src.type))
        if expected != self.result.type:
            raise VerifyException(f"expected result type {expected}, but got {self.result.type}")


@irdl_op_definition
class BroadcastOp(_SrcToResultOp):
    """`%t = tt.broadcast %x : tensor<1x128xf32> -> tensor<64x128xf32>`: size-1 dims stretched."""

    name = "tt.broadcast"

    def verify_(self) -> None:
        src, result = shape_of(self.src.type), shape_of(self.result.type)
        if element_type(self.src.type) != element_type(self.result.type):
            raise VerifyException(
                f"expected the result's element type {element_type(self.src.type)}, "
                f"but got {element_type(self.result.type)}"
            )
        if len(src) != len(result) or any(
            s not in (1, r) for s, r in zip(src, result, strict=True)
        ):
            raise VerifyException(
                f"expected only size-1 dimensions to change, but got {self.src.type} "
                f"-> {self.result.type}"
            )


@irdl_op_definition
class ReshapeOp(_SrcToResultOp):
    """`%t = tt.reshape %x [allow_reorder] : tensor<4x8xf32> -> tensor<32xf32>`."""

    name = "tt.reshape"

    allow_reorder = opt_prop_def(UnitAttr)
    efficient_layout = opt_prop_def(UnitAttr)

    ELIDED: ClassVar[tuple[str, ...]] = ("allow_reorder", "efficient_layout")

    @classmethod
    def _parse_keywords(cls, parser: Parser) -> dict[str, Attribute]:
        found: dict[str, Attribute] = {}
        for keyword in cls.ELIDED:
            if parser.parse_optional_keyword(keyword):
                found[keyword] = UnitAttr()
        return found

    def _print_keywords(self, printer: Printer) -> None:
        for keyword in self.ELIDED:
            if keyword in self.properties:
                printer.print_string(f" {keyword}")

    def verify_(self) -> None:
        src, result = shape_of(self.src.type), shape_of(self.result.type)
        if _product(src) != _product(result):
            raise VerifyException(
                f"expected as many elements in the result as in the source, but got "
                f"{self.src.type} -> {self.result.type}"
            )


def _product(shape: Sequence[int]) -> int:
    count = 1
    for size in shape:
        count *= size
    return count


@irdl_op_definition
class TransOp(_SrcToResultOp):
    """`%t = tt.trans %x {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<32x16xf32>`."""

    name = "tt.trans"

    order = prop_def(DenseArrayBase)

    def verify_(self) -> None:
        order = list(int_values(self.order))
        src = shape_of(self.src.type)
        if sorted(order) != list(range(len(src))):
            raise VerifyException(f"expected a permutation of [0, {len(src)}), but got {order}")
        expected = with_element_type(
            TensorType(i1, [src[i] for i in order]), element_type(self.src.type)
        )
        if expected != self.result.type:
            raise VerifyException(f"expected result type {expected}, but got {self.result.type}")


class _TensorPairOp(IRDLOperation):
    """Two tensors of one type into one tensor: `tt.<op> %a, %b : T -> R`."""

    T: ClassVar = VarConstraint("T", base(TensorType))

    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(TensorType)

    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)"

    traits = traits_def(Pure())


@irdl_op_definition
class CatOp(_TensorPairOp):
    """`%t = tt.cat %a, %b : tensor<32xf32> -> tensor<64xf32>`."""

    name = "tt.cat"


@irdl_op_definition
class JoinOp(_TensorPairOp):
    """`%t = tt.join %a, %b : tensor<32xf32> -> tensor<32x2xf32>`."""

    name = "tt.join"


@irdl_op_definition
class SplitOp(IRDLOperation):
    """`%a, %b = tt.split %t : tensor<32x2xf32> -> tensor<32xf32>`."""

    name = "tt.split"

    src = operand_def()
    out_lhs = result_def()
    out_rhs = result_def()

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        name = parser.parse_unresolved_operand()
        _, attributes = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_punctuation("->")
        out_type = parser.parse_type()
        (src,) = parser.resolve_operands([name], [src_type], parser.pos)
        return cls.create(operands=[src], result_types=[out_type, out_type], attributes=attributes)

    def print(self, printer: Printer) -> None:
        _print_operands(printer, [self.src])
        print_attr_dict_merged(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.out_lhs.type)


# ----------------------------------------------------------------------------
# Casts and elementwise arithmetic
# ----------------------------------------------------------------------------


@irdl_op_definition
class BitcastOp(_SrcToResultOp):
    """`%b = tt.bitcast %x : tensor<8xf32> -> tensor<8xi32>`: same width, pointers included."""

    name = "tt.bitcast"

    def verify_(self) -> None:
        _same_shape("the operand and the result", self.src.type, self.result.type)


@irdl_op_definition
class FpToFpOp(_SrcToResultOp):
    """`%h = tt.fp_to_fp %x, rounding = rtne : tensor<8xf32> -> tensor<8xf8E4M3FN>`."""

    name = "tt.fp_to_fp"

    rounding = opt_prop_def(IntegerAttr[IntegerType])

    ELIDED: ClassVar[tuple[str, ...]] = ("rounding",)

    def print(self, printer: Printer) -> None:
        _print_operands(printer, [self.src])
        print_attr_dict_merged(printer, self, self.ELIDED)
        if self.rounding is not None:
            printer.print_string(f", rounding = {enum_spelling('rounding', self.rounding)}")
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        name = parser.parse_unresolved_operand()
        properties, attributes = parse_attr_dict_split(parser, cls)
        if parser.parse_optional_punctuation(","):
            parser.parse_keyword("rounding")
            parser.parse_punctuation("=")
            properties["rounding"] = parse_enum(parser, "rounding")
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        (src,) = parser.resolve_operands([name], [src_type], parser.pos)
        return cls(src, result_type, properties, attributes)

    def verify_(self) -> None:
        _same_shape("the operand and the result", self.src.type, self.result.type)


@irdl_op_definition
class IntToPtrOp(_SrcToResultOp):
    """`%p = tt.int_to_ptr %i : i64 -> !tt.ptr<f32>`."""

    name = "tt.int_to_ptr"

    def verify_(self) -> None:
        _same_shape("the operand and the result", self.src.type, self.result.type)
        if element_type(self.src.type) != i64:
            raise VerifyException(f"expected an i64 operand, but got {self.src.type}")
        if not isinstance(element_type(self.result.type), PointerType):
            raise VerifyException(f"expected a pointer result, but got {self.result.type}")


@irdl_op_definition
class PtrToIntOp(_SrcToResultOp):
    """`%i = tt.ptr_to_int %p : !tt.ptr<f32> -> i64`."""

    name = "tt.ptr_to_int"

    def verify_(self) -> None:
        _same_shape("the operand and the result", self.src.type, self.result.type)
        if not isinstance(element_type(self.src.type), PointerType):
            raise VerifyException(f"expected a pointer operand, but got {self.src.type}")
        if element_type(self.result.type) != i64:
            raise VerifyException(f"expected an i64 result, but got {self.result.type}")


@irdl_op_definition
class PreciseSqrtOp(_SameTypeOp):
    """`%r = tt.precise_sqrt %x : tensor<8xf32>`."""

    name = "tt.precise_sqrt"


@irdl_op_definition
class PreciseDivFOp(_SameTypeOp):
    """`%r = tt.precise_divf %x, %y : tensor<8xf32>`."""

    name = "tt.precise_divf"


@irdl_op_definition
class MulhiUIOp(_SameTypeOp):
    """`%r = tt.mulhiui %x, %y : tensor<8xi32>`."""

    name = "tt.mulhiui"


@irdl_op_definition
class ClampFOp(IRDLOperation):
    """`%r = tt.clampf %x, %lo, %hi, propagateNan = none : tensor<8xf32>`."""

    name = "tt.clampf"

    x = operand_def()
    min = operand_def()
    max = operand_def()
    propagateNan = prop_def(IntegerAttr[IntegerType])
    result = result_def()

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        names = [parser.parse_unresolved_operand()]
        for _ in range(2):
            parser.parse_punctuation(",")
            names.append(parser.parse_unresolved_operand())
        parser.parse_punctuation(",")
        parser.parse_keyword("propagateNan")
        parser.parse_punctuation("=")
        nan = parse_enum(parser, "propagateNan")
        properties, attributes = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        values = parser.resolve_operands(names, [type_] * 3, parser.pos)
        return cls.create(
            operands=values,
            result_types=[type_],
            properties=properties | {"propagateNan": nan},
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        _print_operands(printer, [self.x, self.min, self.max])
        printer.print_string(f", propagateNan = {enum_spelling('propagateNan', self.propagateNan)}")
        print_attr_dict_merged(printer, self, ("propagateNan",))
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class ExternElementwiseOp(IRDLOperation):
    """`%r = tt.extern_elementwise %x {libname = "", libpath = "...", pure = true,
    symbol = "__nv_expf"} : (tensor<8xf32>) -> tensor<8xf32>`: a libdevice call per element."""

    name = "tt.extern_elementwise"

    srcs = var_operand_def()
    libname = prop_def(StringAttr)
    libpath = prop_def(StringAttr)
    symbol = prop_def(StringAttr)
    pure = prop_def(Attribute)
    result = result_def()

    def __init__(
        self,
        srcs: Sequence[SSAValue | Operation],
        result_type: Attribute,
        symbol: str,
        libpath: str = "",
        libname: str = "",
        pure: bool = True,
    ):
        from xdsl.dialects.builtin import BoolAttr

        super().__init__(
            operands=[srcs],
            result_types=[result_type],
            properties={
                "libname": StringAttr(libname),
                "libpath": StringAttr(libpath),
                "symbol": StringAttr(symbol),
                "pure": BoolAttr.from_bool(pure),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        names = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        properties, attributes = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        at = parser.pos
        function_type = parser.parse_type()
        if not isinstance(function_type, FunctionType) or len(function_type.outputs) != 1:
            parser.raise_error(
                f"expected a function type with one result, but got {function_type}", at
            )
        values = parser.resolve_operands(names, function_type.inputs.data, at)
        return cls.create(
            operands=values,
            result_types=[function_type.outputs.data[0]],
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        _print_operands(printer, self.srcs)
        print_attr_dict_merged(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(FunctionType.from_lists(self.srcs.types, [self.result.type]))

    def verify_(self) -> None:
        for value in self.srcs:
            _same_shape("the operands and the result", value.type, self.result.type)


# ----------------------------------------------------------------------------
# Pointers, loads and stores
# ----------------------------------------------------------------------------


@irdl_op_definition
class AddPtrOp(IRDLOperation):
    """`%q = tt.addptr %p, %off : tensor<128x!tt.ptr<f32>>, tensor<128xi32>`: offset in elements."""

    name = "tt.addptr"

    ptr = operand_def()
    offset = operand_def()
    result = result_def()

    traits = traits_def(Pure())

    def __init__(self, ptr: SSAValue | Operation, offset: SSAValue | Operation):
        super().__init__(operands=[ptr, offset], result_types=[SSAValue.get(ptr).type])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        ptr = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        offset = parser.parse_unresolved_operand()
        _, attributes = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        parser.parse_punctuation(",")
        offset_type = parser.parse_type()
        values = parser.resolve_operands([ptr, offset], [ptr_type, offset_type], parser.pos)
        op = cls(*values)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        _print_operands(printer, [self.ptr, self.offset])
        print_attr_dict_merged(printer, self)
        printer.print_string(" : ")
        _print_types(printer, [self.result.type, self.offset.type])

    def verify_(self) -> None:
        if not isinstance(element_type(self.ptr.type), PointerType):
            raise VerifyException(f"expected a pointer operand, but got {self.ptr.type}")
        if self.result.type != self.ptr.type:
            raise VerifyException(
                f"expected the result type {self.ptr.type}, but got {self.result.type}"
            )
        _same_shape("the pointer and the offset", self.ptr.type, self.offset.type)
        if not isinstance(element_type(self.offset.type), IntegerType):
            raise VerifyException(f"expected an integer offset, but got {self.offset.type}")


def pointee_of(ptr_type: Attribute) -> Attribute:
    """What a load through `ptr_type` gives: `tensor<8x!tt.ptr<f32>>` -> `tensor<8xf32>`,
    `!tt.ptr<tensor<8xf32>>` (a block pointer) -> `tensor<8xf32>`."""
    element = element_type(ptr_type)
    if not isinstance(element, PointerType):
        raise VerifyException(f"expected a pointer or a tensor of pointers, but got {ptr_type}")
    if isinstance(ptr_type, TensorType):
        return TensorType(element.pointee_type, ptr_type.get_shape())
    return element.pointee_type


_LOAD_KEYWORDS = (
    ("cacheModifier", "cache", DEFAULT_CACHE),
    ("evictionPolicy", "evict", DEFAULT_EVICT),
)


def _parse_load_store_keywords(parser: Parser) -> dict[str, Attribute]:
    found: dict[str, Attribute] = {}
    while True:
        for keyword, kind, _ in _LOAD_KEYWORDS:
            if parser.parse_optional_keyword(keyword):
                parser.parse_punctuation("=")
                found[kind] = parse_enum(parser, kind)
                break
        else:
            return found


def _print_load_store_keywords(printer: Printer, op: IRDLOperation) -> None:
    for keyword, kind, default in _LOAD_KEYWORDS:
        value = op.properties.get(kind)
        if isinstance(value, IntegerAttr) and value.value.data != default:
            printer.print_string(f" {keyword} = {enum_spelling(kind, value)}")


def _load_store_elided(op: IRDLOperation) -> tuple[str, ...]:
    """The properties `attr-dict` leaves out: the spelled ones and those at their default."""
    elided = ["cache", "evict", "operandSegmentSizes"]
    for name in ("boundaryCheck", "isVolatile"):
        value = op.properties.get(name)
        if value is not None and _is_default(name, value):
            elided.append(name)
    return tuple(elided)


def _is_default(name: str, value: Attribute) -> bool:
    if name == "boundaryCheck":
        return isinstance(value, DenseArrayBase) and not int_values(value)
    if name == "isVolatile":
        return isinstance(value, IntegerAttr) and value.value.data == 0
    return False


@irdl_op_definition
class LoadOp(IRDLOperation):
    """`%v = tt.load %ptrs, %mask, %other [cacheModifier = ca] : tensor<128x!tt.ptr<f32>>`.

    Lanes where `%mask` is false read `%other` (undefined without one)."""

    name = "tt.load"

    ptr = operand_def()
    mask = opt_operand_def()
    other = opt_operand_def()
    boundaryCheck = opt_prop_def(DenseArrayBase)
    padding = opt_prop_def(IntegerAttr[IntegerType])
    cache = opt_prop_def(IntegerAttr[IntegerType])
    evict = opt_prop_def(IntegerAttr[IntegerType])
    isVolatile = opt_prop_def(Attribute)
    result = result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        ptr: SSAValue | Operation,
        mask: SSAValue | Operation | None = None,
        other: SSAValue | Operation | None = None,
        properties: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[ptr, [mask] if mask else [], [other] if other else []],
            result_types=[pointee_of(SSAValue.get(ptr).type)],
            properties=properties or {},
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        names = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        at = parser.pos
        properties = _parse_load_store_keywords(parser)
        more, attributes = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        if len(names) > 3:
            parser.raise_error(f"expected at most 3 operands, but got {len(names)}", at)
        value_type = _safe_pointee(parser, ptr_type, at)
        types = [ptr_type, _mask_type(value_type), value_type][: len(names)]
        values = parser.resolve_operands(names, types, at)
        op = cls(values[0], *values[1:], properties=properties | more)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        _print_operands(printer, self.operands)
        _print_load_store_keywords(printer, self)
        print_attr_dict_merged(printer, self, _load_store_elided(self))
        printer.print_string(" : ")
        printer.print_attribute(self.ptr.type)

    def verify_(self) -> None:
        expected = pointee_of(self.ptr.type)
        if self.result.type != expected:
            raise VerifyException(f"expected result type {expected}, but got {self.result.type}")
        if self.mask is not None and self.mask.type != _mask_type(expected):
            raise VerifyException(
                f"expected mask type {_mask_type(expected)}, but got {self.mask.type}"
            )
        if self.other is not None and self.other.type != expected:
            raise VerifyException(f"expected other type {expected}, but got {self.other.type}")


def _mask_type(value_type: Attribute) -> Attribute:
    return with_element_type(value_type, i1)


def _safe_pointee(parser: Parser, ptr_type: Attribute, at: int) -> Attribute:
    try:
        return pointee_of(ptr_type)
    except VerifyException as error:
        parser.raise_error(str(error), at)


@irdl_op_definition
class StoreOp(IRDLOperation):
    """`tt.store %ptrs, %value, %mask : tensor<128x!tt.ptr<f32>>`: writes where the mask holds."""

    name = "tt.store"

    ptr = operand_def()
    value = operand_def()
    mask = opt_operand_def()
    boundaryCheck = opt_prop_def(DenseArrayBase)
    cache = opt_prop_def(IntegerAttr[IntegerType])
    evict = opt_prop_def(IntegerAttr[IntegerType])

    def __init__(
        self,
        ptr: SSAValue | Operation,
        value: SSAValue | Operation,
        mask: SSAValue | Operation | None = None,
        properties: dict[str, Attribute] | None = None,
    ):
        super().__init__(operands=[ptr, value, [mask] if mask else []], properties=properties or {})

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        names = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        at = parser.pos
        properties = _parse_load_store_keywords(parser)
        more, attributes = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        if len(names) not in (2, 3):
            parser.raise_error(f"expected 2 or 3 operands, but got {len(names)}", at)
        value_type = _safe_pointee(parser, ptr_type, at)
        types = [ptr_type, value_type, _mask_type(value_type)][: len(names)]
        values = parser.resolve_operands(names, types, at)
        op = cls(values[0], values[1], *values[2:], properties=properties | more)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        _print_operands(printer, self.operands)
        _print_load_store_keywords(printer, self)
        print_attr_dict_merged(printer, self, _load_store_elided(self))
        printer.print_string(" : ")
        printer.print_attribute(self.ptr.type)

    def verify_(self) -> None:
        expected = pointee_of(self.ptr.type)
        if self.value.type != expected:
            raise VerifyException(f"expected value type {expected}, but got {self.value.type}")
        if self.mask is not None and self.mask.type != _mask_type(expected):
            raise VerifyException(
                f"expected mask type {_mask_type(expected)}, but got {self.mask.type}"
            )


@irdl_op_definition
class MakeTensorPtrOp(IRDLOperation):
    """`%b = tt.make_tensor_ptr %base, [%s0, %s1], [%st0, %st1], [%o0, %o1]
    {order = array<i32: 1, 0>} : <tensor<64x64xf32>>`: a block pointer."""

    name = "tt.make_tensor_ptr"

    base = operand_def()
    shape = var_operand_def(i64)
    strides = var_operand_def(i64)
    offsets = var_operand_def(i32)
    order = prop_def(DenseArrayBase)
    result = result_def(PointerType)

    traits = traits_def(Pure())

    irdl_options = (SameVariadicOperandSize(),)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        base = parser.parse_unresolved_operand()
        lists: list[list[UnresolvedOperand]] = []
        for _ in range(3):
            parser.parse_punctuation(",")
            lists.append(
                parser.parse_comma_separated_list(
                    Parser.Delimiter.SQUARE, parser.parse_unresolved_operand
                )
            )
        properties, attributes = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        at = parser.pos
        if parser.parse_optional_punctuation("<"):
            block_type = parser.parse_type()
            parser.parse_punctuation(">")
            result_type: Attribute = PointerType(block_type)
        else:
            result_type = parser.parse_type()
        if not isinstance(result_type, PointerType):
            parser.raise_error(f"expected a block pointer type, but got {result_type}", at)
        pointee = result_type.pointee_type
        base_type = PointerType(element_type(pointee), result_type.address_space.data)
        (base_value,) = parser.resolve_operands([base], [base_type], at)
        shape = parser.resolve_operands(lists[0], [i64] * len(lists[0]), at)
        strides = parser.resolve_operands(lists[1], [i64] * len(lists[1]), at)
        offsets = parser.resolve_operands(lists[2], [i32] * len(lists[2]), at)
        return cls.create(
            operands=[base_value, *shape, *strides, *offsets],
            result_types=[result_type],
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        _print_operands(printer, [self.base])
        for values in (self.shape, self.strides, self.offsets):
            printer.print_string(", [")
            printer.print_list(values, printer.print_operand)
            printer.print_string("]")
        print_attr_dict_merged(printer, self)
        printer.print_string(" : <")
        assert isinstance(self.result.type, PointerType)
        printer.print_attribute(self.result.type.pointee_type)
        printer.print_string(">")

    def verify_(self) -> None:
        counts = {len(self.shape), len(self.strides), len(self.offsets), len(self.order)}
        if len(counts) != 1:
            raise VerifyException(
                f"expected as many shape, stride, offset and order entries, but got "
                f"{len(self.shape)}, {len(self.strides)}, {len(self.offsets)}, {len(self.order)}"
            )


@irdl_op_definition
class AdvanceOp(IRDLOperation):
    """`%b2 = tt.advance %b, [%c0, %c64] : <tensor<64x64xf32>>`: moves a block pointer."""

    name = "tt.advance"

    ptr = operand_def(PointerType)
    offsets = var_operand_def(i32)
    result = result_def(PointerType)

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        ptr = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        offsets = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        _, attributes = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        at = parser.pos
        if parser.parse_optional_punctuation("<"):
            block_type = parser.parse_type()
            parser.parse_punctuation(">")
            result_type: Attribute = PointerType(block_type)
        else:
            result_type = parser.parse_type()
        (ptr_value,) = parser.resolve_operands([ptr], [result_type], at)
        offset_values = parser.resolve_operands(offsets, [i32] * len(offsets), at)
        return cls.create(
            operands=[ptr_value, *offset_values], result_types=[result_type], attributes=attributes
        )

    def print(self, printer: Printer) -> None:
        _print_operands(printer, [self.ptr])
        printer.print_string(", [")
        printer.print_list(self.offsets, printer.print_operand)
        printer.print_string("]")
        print_attr_dict_merged(printer, self)
        printer.print_string(" : <")
        assert isinstance(self.result.type, PointerType)
        printer.print_attribute(self.result.type.pointee_type)
        printer.print_string(">")


# ----------------------------------------------------------------------------
# Dot, reduce, scan
# ----------------------------------------------------------------------------


@irdl_op_definition
class DotOp(IRDLOperation):
    """`%d = tt.dot %a, %b, %c[, inputPrecision = tf32] : tensor<MxK> * tensor<KxN> -> tensor<MxN>`.

    `d = a @ b + c`; `c` and `d` have one type."""

    name = "tt.dot"

    a = operand_def(TensorType)
    b = operand_def(TensorType)
    c = operand_def(TensorType)
    inputPrecision = opt_prop_def(IntegerAttr[IntegerType])
    maxNumImpreciseAcc = opt_prop_def(IntegerAttr[IntegerType])
    d = result_def(TensorType)

    traits = traits_def(Pure())

    def __init__(
        self,
        a: SSAValue | Operation,
        b: SSAValue | Operation,
        c: SSAValue | Operation,
        input_precision: str | None = None,
        max_num_imprecise_acc: int | None = None,
    ):
        properties: dict[str, Attribute] = {}
        if input_precision is not None:
            properties["inputPrecision"] = enum_attr("inputPrecision", input_precision)
        if max_num_imprecise_acc is not None:
            properties["maxNumImpreciseAcc"] = IntegerAttr(max_num_imprecise_acc, i32)
        super().__init__(
            operands=[a, b, c], result_types=[SSAValue.get(c).type], properties=properties
        )

    @property
    def input_precision(self) -> str:
        attr = self.inputPrecision
        return enum_spelling("inputPrecision", attr) if attr is not None else "ieee"

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        names = [parser.parse_unresolved_operand()]
        for _ in range(2):
            parser.parse_punctuation(",")
            names.append(parser.parse_unresolved_operand())
        properties: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation(","):
            parser.parse_keyword("inputPrecision")
            parser.parse_punctuation("=")
            properties["inputPrecision"] = parse_enum(parser, "inputPrecision")
        more, attributes = parse_attr_dict_split(parser, cls)
        parser.parse_punctuation(":")
        a_type = parser.parse_type()
        parser.parse_punctuation("*")
        b_type = parser.parse_type()
        parser.parse_punctuation("->")
        d_type = parser.parse_type()
        values = parser.resolve_operands(names, [a_type, b_type, d_type], parser.pos)
        return cls.create(
            operands=values,
            result_types=[d_type],
            properties=properties | more,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        _print_operands(printer, [self.a, self.b, self.c])
        elided = ["inputPrecision"]
        if self.inputPrecision is not None and (
            self.inputPrecision.value.data != DEFAULT_INPUT_PRECISION
        ):
            printer.print_string(f", inputPrecision = {self.input_precision}")
        if self.maxNumImpreciseAcc is not None and self.maxNumImpreciseAcc.value.data == 0:
            elided.append("maxNumImpreciseAcc")
        print_attr_dict_merged(printer, self, elided)
        printer.print_string(" : ")
        printer.print_attribute(self.a.type)
        printer.print_string(" * ")
        printer.print_attribute(self.b.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.d.type)

    def verify_(self) -> None:
        a, b, c = shape_of(self.a.type), shape_of(self.b.type), shape_of(self.c.type)
        if self.c.type != self.d.type:
            raise VerifyException(
                f"expected the accumulator's type {self.c.type} for the result, "
                f"but got {self.d.type}"
            )
        if len(a) not in (2, 3) or len(b) != len(a) or len(c) != len(a):
            raise VerifyException(
                f"expected operands of rank 2 (or 3 with a batch dimension), but got "
                f"{self.a.type}, {self.b.type}, {self.c.type}"
            )
        if a[-1] != b[-2] or c[-2:] != (a[-2], b[-1]) or a[:-2] != b[:-2] or c[:-2] != a[:-2]:
            raise VerifyException(
                f"expected shapes [M, K] * [K, N] -> [M, N], but got "
                f"{list(a)} * {list(b)} -> {list(c)}"
            )


class _CombineOpBase(IRDLOperation):
    """`tt.reduce` and `tt.scan`: a combine region over the element types of the operands."""

    srcs = var_operand_def(TensorType)
    axis = prop_def(IntegerAttr[IntegerType])
    result = var_result_def()
    combineOp = region_def("single_block")

    traits = traits_def(Pure())

    RETURN: ClassVar[str]

    def verify_(self) -> None:
        if not self.srcs:
            raise VerifyException("expected at least one operand")
        shape = shape_of(self.srcs[0].type)
        for value in self.srcs:
            if shape_of(value.type) != shape:
                raise VerifyException(
                    f"expected operands of one shape, but got {self.srcs[0].type} and {value.type}"
                )
        axis = self.axis.value.data
        if not 0 <= axis < len(shape):
            raise VerifyException(f"expected axis in [0, {len(shape)}), but got {axis}")
        elements = [element_type(value.type) for value in self.srcs]
        block = self.combineOp.block
        expected_args = elements * 2
        if list(block.arg_types) != expected_args:
            raise VerifyException(
                f"expected the combine region to take ({', '.join(map(str, expected_args))}), "
                f"but got ({', '.join(map(str, block.arg_types))})"
            )
        terminator = block.last_op
        if terminator is None or terminator.name != self.RETURN:
            raise VerifyException(f"expected the combine region to end with {self.RETURN}")
        if list(terminator.operand_types) != elements:
            raise VerifyException(
                f"expected {self.RETURN} of ({', '.join(map(str, elements))}), "
                f"but got ({', '.join(map(str, terminator.operand_types))})"
            )


@irdl_op_definition
class ReduceOp(_CombineOpBase):
    """`%r = "tt.reduce"(%x) <{axis = 1 : i32}> ({ ^bb0(%a: f32, %b: f32): ...
    tt.reduce.return %s : f32 }) : (tensor<64x128xf32>) -> tensor<64xf32>`.

    Triton prints it in the generic syntax (it has no custom one)."""

    name = "tt.reduce"

    RETURN: ClassVar[str] = "tt.reduce.return"

    def verify_(self) -> None:
        super().verify_()
        shape = list(shape_of(self.srcs[0].type))
        del shape[self.axis.value.data]
        for value, result in zip(self.srcs, self.result, strict=False):
            expected = (
                TensorType(element_type(value.type), shape) if shape else element_type(value.type)
            )
            if result.type != expected:
                raise VerifyException(f"expected result type {expected}, but got {result.type}")
        if len(self.result) != len(self.srcs):
            raise VerifyException(
                f"expected {len(self.srcs)} results, one per operand, but got {len(self.result)}"
            )


@irdl_op_definition
class ReduceReturnOp(IRDLOperation):
    """`tt.reduce.return %s : f32`."""

    name = "tt.reduce.return"

    result = var_operand_def()

    traits = traits_def(IsTerminator(), ReturnLike(), HasParent(ReduceOp), Pure())

    assembly_format = "$result attr-dict `:` type($result)"

    def __init__(self, values: Sequence[SSAValue | Operation]):
        super().__init__(operands=[values])


@irdl_op_definition
class ScanOp(_CombineOpBase):
    """`%r = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({ ... tt.scan.return ... })`."""

    name = "tt.scan"

    reverse = prop_def(Attribute)

    RETURN: ClassVar[str] = "tt.scan.return"


@irdl_op_definition
class ScanReturnOp(IRDLOperation):
    """`tt.scan.return %s : f32`."""

    name = "tt.scan.return"

    result = var_operand_def()

    traits = traits_def(IsTerminator(), ReturnLike(), HasParent(ScanOp), Pure())

    assembly_format = "$result attr-dict `:` type($result)"


@irdl_op_definition
class ElementwiseInlineAsmOp(IRDLOperation):
    """`%r = tt.elementwise_inline_asm "cvt.rna.tf32.f32 $0, $1;" {constraints = "=r,r",
    packed_element = 1 : i32, pure = true} %x : tensor<16xf32> -> tensor<16xf32>`.

    XLA uses it to round f32 to tf32 (`cvt.rna`) before a tf32 dot."""

    name = "tt.elementwise_inline_asm"

    asm_string = prop_def(StringAttr)
    constraints = prop_def(StringAttr)
    pure = prop_def(Attribute)
    packed_element = prop_def(IntegerAttr[IntegerType])
    args = var_operand_def()
    result = var_result_def()

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        asm = parser.parse_str_literal()
        properties, attributes = parse_attr_dict_split(parser, cls)
        names = parser.parse_optional_undelimited_comma_separated_list(
            parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand
        )
        types: list[Attribute] = []
        if names:
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
        parser.parse_punctuation("->")
        results = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
        values = parser.resolve_operands(names or [], types, parser.pos)
        return cls.create(
            operands=values,
            result_types=results,
            properties=properties | {"asm_string": StringAttr(asm)},
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.asm_string.data)
        print_attr_dict_merged(printer, self, ("asm_string",))
        if self.args:
            _print_operands(printer, self.args)
            printer.print_string(" : ")
            _print_types(printer, self.args.types)
        printer.print_string(" -> ")
        _print_types(printer, self.result.types)

    def verify_(self) -> None:
        for value in (*self.args, *self.result):
            _same_shape("the operands and the results", value.type, self.result[0].type)


@irdl_op_definition
class AssertOp(IRDLOperation):
    """`tt.assert %cond, "message" : tensor<8xi1>`."""

    name = "tt.assert"

    condition = operand_def()
    message = prop_def(StringAttr)

    assembly_format = "$condition `,` $message attr-dict `:` type($condition)"


TRITON = Dialect(
    "tt",
    [
        FuncOp,
        ReturnOp,
        CallOp,
        GetProgramIdOp,
        GetNumProgramsOp,
        MakeRangeOp,
        SplatOp,
        ExpandDimsOp,
        BroadcastOp,
        ReshapeOp,
        TransOp,
        CatOp,
        JoinOp,
        SplitOp,
        BitcastOp,
        FpToFpOp,
        IntToPtrOp,
        PtrToIntOp,
        PreciseSqrtOp,
        PreciseDivFOp,
        MulhiUIOp,
        ClampFOp,
        ExternElementwiseOp,
        AddPtrOp,
        LoadOp,
        StoreOp,
        MakeTensorPtrOp,
        AdvanceOp,
        DotOp,
        ReduceOp,
        ReduceReturnOp,
        ScanOp,
        ScanReturnOp,
        ElementwiseInlineAsmOp,
        AssertOp,
    ],
    [PointerType],
)
