"""PTOAS's SIMT scalar ops whose syntax PTOAS parses by hand (`VPTOOps.td`'s custom
directives): global loads and stores with cache controls, atomics, warp reductions,
`mulhi` and `convert`, in PTOAS's syntax:

    %v = pto.ldg %p[%i] l1cache(cache) l2cache(nmfv) : !pto.ptr<f32, gm> -> f32
    pto.stg %v, %p[%i] l1cache(cache) l2cache(nmfv) : !pto.ptr<f32, gm>, f32
    %old = pto.atomic_add %p, %v l2cache(nmfv) signed : !pto.ptr<i32, gm>, i32 -> i32
    %old = pto.atomic_cas %p, %cmp, %v : !pto.ptr<f32, gm>, f32 -> f32
    %s = pto.redux_max %v signed : i32 -> i32
    %h = pto.mulhi %a, %b unsigned : i32, i32 -> i32
    %i = pto.convert %f round(z) sat signed : f32 -> i32

A left-out cache control reads as PTOAS's default (`cache`, `nmfv`) and prints.
"""

from __future__ import annotations

from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.attrs import PTOEnumAttrBase
from xla_emit.dialects.pto.declared_ops import declared_attribute
from xla_emit.dialects.pto.types import PtrType

L1Cache = declared_attribute("l1cache")
LdL2Cache = declared_attribute("ld_l2cache")
StL2Cache = declared_attribute("st_l2cache")
Signedness = declared_attribute("signedness")
Rounding = declared_attribute("rounding")
Saturation = declared_attribute("saturation")


# -- the custom directives ----------------------------------------------------------


def _parse_choice(parser: Parser, kind: type[PTOEnumAttrBase], what: str) -> PTOEnumAttrBase:
    position = parser.pos
    word = parser.parse_identifier()
    if word not in kind.ALLOWED:
        parser.raise_error(
            f"expected {what} to be one of {'/'.join(kind.ALLOWED)}", position, parser.pos
        )
    return kind(word)


def _parse_cache(
    parser: Parser, keyword: str, kind: type[PTOEnumAttrBase], default: str, what: str
) -> PTOEnumAttrBase:
    """`keyword(VALUE)`, else PTOAS's default."""
    if parser.parse_optional_keyword(keyword) is None:
        return kind(default)
    parser.parse_punctuation("(")
    value = _parse_choice(parser, kind, what)
    parser.parse_punctuation(")")
    return value


def _parse_optional_signedness(parser: Parser) -> PTOEnumAttrBase | None:
    for word in ("signed", "unsigned"):
        if parser.parse_optional_keyword(word) is not None:
            return Signedness(word)
    return None


def _print_controls(printer: Printer, op: Operation, *names: str) -> None:
    """Each control the op has, in PTOAS's spelling (`l1cache(cache)`, `signed`)."""
    for name in names:
        value = op.properties.get(name)
        if not isinstance(value, PTOEnumAttrBase):
            continue
        if name == "rounding":
            printer.print_string(f" round({value.data})")
        elif name in ("l1cache", "l2cache"):
            printer.print_string(f" {name}({value.data})")
        else:
            printer.print_string(f" {value.data}")


def _parse_operands(parser: Parser, count: int) -> list[object]:
    operands = [parser.parse_unresolved_operand()]
    for _ in range(count - 1):
        parser.parse_punctuation(",")
        operands.append(parser.parse_unresolved_operand())
    return operands


def _parse_types(parser: Parser, count: int) -> list[Attribute]:
    types = [parser.parse_type()]
    for _ in range(count - 1):
        parser.parse_punctuation(",")
        types.append(parser.parse_type())
    return types


def _print_values(printer: Printer, values: list[SSAValue]) -> None:
    printer.print_list(values, printer.print_operand)


def _print_types(printer: Printer, types: list[Attribute]) -> None:
    printer.print_list(types, printer.print_attribute)


# -- type rules -----------------------------------------------------------------------


def _is_float(kind: Attribute, *types: type[Attribute]) -> bool:
    return isinstance(kind, types)


def _is_int(kind: Attribute, *widths: int) -> bool:
    return isinstance(kind, IntegerType) and kind.width.data in widths


def _is_packed_half(kind: Attribute) -> bool:
    return (
        isinstance(kind, VectorType)
        and kind.get_shape() == (2,)
        and isinstance(kind.element_type, Float16Type | BFloat16Type)
    )


def in_simt_scope(op: Operation) -> bool:
    """Inside a `pto.simt_entry` function or a `pto.section.simt`."""
    parent = op.parent_op()
    while parent is not None:
        if parent.name == "pto.section.simt":
            return True
        if parent.name == "func.func":
            return "pto.simt_entry" in parent.attributes
        parent = parent.parent_op()
    return False


def _pointer(op: Operation, value: SSAValue) -> PtrType:
    if not isinstance(value.type, PtrType):
        raise VerifyException("requires !pto.ptr pointer operand")
    return value.type


# -- global loads and stores ----------------------------------------------------------


def _verify_global_access(op: Operation, pointer: SSAValue, value: Attribute) -> None:
    ptr = _pointer(op, pointer)
    if not ptr.is_global:
        raise VerifyException("requires GM pointer")
    if ptr.element_type != value:
        raise VerifyException(f"requires the pointer element type to be {value}")
    scalar = _is_int(value, 8, 16, 32, 64) or _is_float(
        value, Float16Type, BFloat16Type, Float32Type, Float64Type
    )
    packed = isinstance(value, VectorType) and value.get_shape() in ((2,), (4,), (8,))
    named = value.name in ("pto.hif8", "pto.hif8x2") or "f8" in str(value)
    if not (scalar or packed or named):
        raise VerifyException(
            "currently supports 8/16/32/64-bit integer, f16/bf16/f32/f64/fp8/hif8, packed "
            "vector<2xT> (T = f16/bf16/f32/i8/i16/i32), packed vector<2/4/8xfp8>, and "
            "!pto.hif8x2 value type"
        )
    if not in_simt_scope(op):
        raise VerifyException("must be inside a pto.simt_entry function or pto.section.simt")


@irdl_op_definition
class LdgOp(IRDLOperation):
    """`pto.ldg`: one element loaded from global memory, with cache controls."""

    name = "pto.ldg"
    ptr = operand_def(PtrType)
    offset = operand_def(IndexType)
    l1cache = opt_prop_def(L1Cache)
    l2cache = opt_prop_def(LdL2Cache)
    value = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        ptr = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        offset = parser.parse_unresolved_operand()
        parser.parse_punctuation("]")
        l1 = _parse_cache(parser, "l1cache", L1Cache, "cache", "memory l1cache")
        l2 = _parse_cache(parser, "l2cache", LdL2Cache, "nmfv", "load L2 cache control")
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        parser.parse_punctuation("->")
        value_type = parser.parse_type()
        op = cls.build(
            operands=[
                parser.resolve_operand(ptr, ptr_type),
                parser.resolve_operand(offset, IndexType()),
            ],
            result_types=[value_type],
            properties={"l1cache": l1, "l2cache": l2},
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.ptr)
        printer.print_string("[")
        printer.print_operand(self.offset)
        printer.print_string("]")
        _print_controls(printer, self, "l1cache", "l2cache")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.ptr.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.value.type)

    def verify_(self) -> None:
        _verify_global_access(self, self.ptr, self.value.type)


@irdl_op_definition
class StgOp(IRDLOperation):
    """`pto.stg`: one element stored to global memory, with cache controls."""

    name = "pto.stg"
    value = operand_def()
    ptr = operand_def(PtrType)
    offset = operand_def(IndexType)
    l1cache = opt_prop_def(L1Cache)
    l2cache = opt_prop_def(StL2Cache)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        ptr = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        offset = parser.parse_unresolved_operand()
        parser.parse_punctuation("]")
        l1 = _parse_cache(parser, "l1cache", L1Cache, "cache", "memory l1cache")
        l2 = _parse_cache(parser, "l2cache", StL2Cache, "nmfv", "store L2 cache control")
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ptr_type, value_type = _parse_types(parser, 2)
        op = cls.build(
            operands=[
                parser.resolve_operand(value, value_type),
                parser.resolve_operand(ptr, ptr_type),
                parser.resolve_operand(offset, IndexType()),
            ],
            properties={"l1cache": l1, "l2cache": l2},
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(", ")
        printer.print_operand(self.ptr)
        printer.print_string("[")
        printer.print_operand(self.offset)
        printer.print_string("]")
        _print_controls(printer, self, "l1cache", "l2cache")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        _print_types(printer, [self.ptr.type, self.value.type])

    def verify_(self) -> None:
        _verify_global_access(self, self.ptr, self.value.type)


# -- atomics --------------------------------------------------------------------------


class _AtomicOpBase(IRDLOperation):
    """`%old = pto.atomic_OP %ptr, (%compare,) %value [l2cache(..)] [signed|unsigned] :
    PTR, T -> T`."""

    l2cache = opt_prop_def(StL2Cache)
    signedness = opt_prop_def(Signedness)
    old = result_def()
    # Bitwise atomics (and, or, xor) take integers only.
    BITWISE: ClassVar[bool] = False
    COMPARES: ClassVar[bool] = False

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operands = _parse_operands(parser, 3 if cls.COMPARES else 2)
        l2 = _parse_cache(parser, "l2cache", StL2Cache, "nmfv", "store L2 cache control")
        signedness = _parse_optional_signedness(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ptr_type, value_type = _parse_types(parser, 2)
        parser.parse_punctuation("->")
        old_type = parser.parse_type()
        types = [ptr_type, *[value_type] * (len(operands) - 1)]
        properties: dict[str, Attribute] = {"l2cache": l2}
        if signedness is not None:
            properties["signedness"] = signedness
        op = cls.build(
            operands=[parser.resolve_operand(o, t) for o, t in zip(operands, types, strict=True)],  # type: ignore[arg-type]
            result_types=[old_type],
            properties=properties,
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_values(printer, list(self.operands))
        _print_controls(printer, self, "l2cache", "signedness")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        _print_types(printer, [self.ptr.type, self.value.type])
        printer.print_string(" -> ")
        printer.print_attribute(self.old.type)

    def verify_(self) -> None:
        value = self.value.type
        if not (
            _is_int(value, 32, 64)
            or _is_float(value, Float16Type, BFloat16Type, Float32Type)
            or _is_packed_half(value)
        ):
            raise VerifyException(
                "requires i32, i64, f16, bf16, f32, vector<2xf16> or vector<2xbf16> atomic "
                "value type"
            )
        if self.old.type != value:
            raise VerifyException("requires atomic result type to match value type")
        ptr = _pointer(self, self.ptr)
        if ptr.element_type != value:
            raise VerifyException("requires atomic value type to match pointer element type")
        if ptr.space.data not in ("gm", "ub"):
            raise VerifyException("requires GM or UB pointer")
        if ptr.space.data == "ub" and _is_int(value, 64):
            raise VerifyException("does not support i64 UB-space atomics")
        if self.BITWISE and not isinstance(value, IntegerType):
            raise VerifyException("requires integer type for bitwise atomics")
        if self.signedness is not None and not isinstance(value, IntegerType):
            raise VerifyException("does not accept signedness for floating-point atomics")
        if _is_packed_half(value):
            if not in_simt_scope(self):
                raise VerifyException(
                    "requires packed atomics to be inside a pto.simt_entry function or "
                    "pto.section.simt on beta.1"
                )
            if self.old.uses:
                raise VerifyException(
                    "does not support using the old value result for packed atomics on "
                    "beta.1; leave the result unused"
                )


class _BinaryAtomicOpBase(_AtomicOpBase):
    ptr = operand_def(PtrType)
    value = operand_def()


def _atomic(mnemonic: str, bitwise: bool = False) -> type[_AtomicOpBase]:
    class_name = "".join(part.title() for part in mnemonic.split("_")) + "Op"
    namespace = {
        "name": f"pto.{mnemonic}",
        "BITWISE": bitwise,
        "__annotations__": {"BITWISE": ClassVar[bool]},
        "__doc__": f"`pto.{mnemonic}`.",
    }
    op = type(class_name, (_BinaryAtomicOpBase,), namespace)
    op.__module__ = __name__
    return irdl_op_definition(op)


@irdl_op_definition
class AtomicCasOp(_AtomicOpBase):
    """`pto.atomic_cas`: store the value where the pointee equals the compare value."""

    name = "pto.atomic_cas"
    ptr = operand_def(PtrType)
    compare = operand_def()
    value = operand_def()
    COMPARES: ClassVar[bool] = True

    def verify_(self) -> None:
        if self.compare.type != self.value.type:
            raise VerifyException("requires compare and value types to match")
        super().verify_()


ATOMIC_OPS = (
    AtomicCasOp,
    *(_atomic(name) for name in ("atomic_exch", "atomic_add", "atomic_sub")),
    *(_atomic(name) for name in ("atomic_min", "atomic_max")),
    *(_atomic(name, bitwise=True) for name in ("atomic_and", "atomic_or", "atomic_xor")),
)


# -- warp reductions, mulhi -----------------------------------------------------------


class _ReduxOpBase(IRDLOperation):
    """`%r = pto.redux_OP %v [signed|unsigned] : T -> T` over the warp's lanes."""

    value = operand_def()
    signedness = opt_prop_def(Signedness)
    result = result_def()
    # max and min need to know how to order integers.
    ORDERED: ClassVar[bool] = True

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        value = parser.parse_unresolved_operand()
        signedness = _parse_optional_signedness(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        op = cls.build(
            operands=[parser.resolve_operand(value, value_type)],
            result_types=[result_type],
            properties={"signedness": signedness} if signedness is not None else {},
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        _print_controls(printer, self, "signedness")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        _print_types(printer, [self.value.type])
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        kind = self.value.type
        if not (_is_int(kind, 32) or _is_float(kind, Float16Type, Float32Type)):
            raise VerifyException("requires i32, f16 or f32 value type")
        if self.result.type != kind:
            raise VerifyException("requires the result type to match the value type")
        if isinstance(kind, IntegerType):
            if self.ORDERED and self.signedness is None:
                raise VerifyException("requires signedness for integer reductions")
        elif self.signedness is not None:
            raise VerifyException("does not accept signedness for floating-point reductions")


@irdl_op_definition
class ReduxAddOp(_ReduxOpBase):
    """`pto.redux_add`: the sum over the warp."""

    name = "pto.redux_add"
    ORDERED: ClassVar[bool] = False


@irdl_op_definition
class ReduxMaxOp(_ReduxOpBase):
    """`pto.redux_max`: the largest value of the warp."""

    name = "pto.redux_max"


@irdl_op_definition
class ReduxMinOp(_ReduxOpBase):
    """`pto.redux_min`: the smallest value of the warp."""

    name = "pto.redux_min"


class _SignedProductOpBase(IRDLOperation):
    """`%r = pto.OP %a, %b signed|unsigned : i32, i32 -> R`: a product of two integers."""

    lhs = operand_def()
    rhs = operand_def()
    signedness = prop_def(Signedness)
    result = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        lhs, rhs = _parse_operands(parser, 2)
        signedness = _parse_choice(parser, Signedness, "signedness")
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        lhs_type, rhs_type = _parse_types(parser, 2)
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        op = cls.build(
            operands=[
                parser.resolve_operand(lhs, lhs_type),  # type: ignore[arg-type]
                parser.resolve_operand(rhs, rhs_type),  # type: ignore[arg-type]
            ],
            result_types=[result_type],
            properties={"signedness": signedness},
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_values(printer, [self.lhs, self.rhs])
        _print_controls(printer, self, "signedness")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        _print_types(printer, [self.lhs.type, self.rhs.type])
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class MulhiOp(_SignedProductOpBase):
    """`pto.mulhi`: the high half of the product, of the operands' type (i32 or i64)."""

    name = "pto.mulhi"

    def verify_(self) -> None:
        kinds = {self.lhs.type, self.rhs.type, self.result.type}
        if len(kinds) != 1:
            raise VerifyException("requires lhs, rhs and result to have one type")
        if not _is_int(self.result.type, 32, 64):
            raise VerifyException("requires i32 or i64 result type")


@irdl_op_definition
class MulI32ToI64Op(_SignedProductOpBase):
    """`pto.mul_i32toi64`: the whole 64-bit product of two i32."""

    name = "pto.mul_i32toi64"

    def verify_(self) -> None:
        if not (_is_int(self.lhs.type, 32) and _is_int(self.rhs.type, 32)):
            raise VerifyException("requires i32 operands")
        if not _is_int(self.result.type, 64):
            raise VerifyException("requires an i64 result")


# -- convert --------------------------------------------------------------------------


@irdl_op_definition
class ConvertOp(IRDLOperation):
    """`%d = pto.convert %s round(r) sat [signed|unsigned] : S -> D`: one scalar converted
    with a rounding mode and saturation."""

    name = "pto.convert"
    src = operand_def()
    rounding = prop_def(Rounding)
    saturation = prop_def(Saturation)
    signedness = opt_prop_def(Signedness)
    dst = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        src = parser.parse_unresolved_operand()
        parser.parse_keyword("round")
        parser.parse_punctuation("(")
        rounding = _parse_choice(parser, Rounding, "convert rounding")
        parser.parse_punctuation(")")
        saturation = _parse_choice(parser, Saturation, "convert saturation")
        signedness = _parse_optional_signedness(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_punctuation("->")
        dst_type = parser.parse_type()
        properties: dict[str, Attribute] = {"rounding": rounding, "saturation": saturation}
        if signedness is not None:
            properties["signedness"] = signedness
        op = cls.build(
            operands=[parser.resolve_operand(src, src_type)],
            result_types=[dst_type],
            properties=properties,
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        _print_controls(printer, self, "rounding", "saturation", "signedness")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.dst.type)

    def verify_(self) -> None:
        src, dst = self.src.type, self.dst.type
        integer = isinstance(src, IntegerType) or isinstance(dst, IntegerType)
        if integer and self.signedness is None:
            raise VerifyException("requires signedness for integer conversions")
        if not integer and self.signedness is not None:
            raise VerifyException("does not accept signedness for floating conversions")
        rounding = self.rounding.data
        to_int = isinstance(dst, IntegerType) and not isinstance(src, IntegerType)
        if to_int and self.saturation.data != "sat":
            raise VerifyException("floating-to-integer conversion requires saturation enable")
        if rounding in ("o", "h") and not (
            isinstance(src, Float32Type) and isinstance(dst, Float16Type) and rounding == "o"
        ):
            raise VerifyException(f"does not support rounding {rounding} for {src} to {dst}")


SIMT_OPS = (
    LdgOp,
    StgOp,
    *ATOMIC_OPS,
    ReduxAddOp,
    ReduxMaxOp,
    ReduxMinOp,
    MulhiOp,
    MulI32ToI64Op,
    ConvertOp,
)
