"""Elementwise HLO as `arith` and `math` ops: the opcode tables and their typing rules.

Floats, signed and unsigned integers and `pred` each have their own table
(pred arithmetic is boolean logic; integer division, remainder, min/max and
comparisons follow the operand's signedness; division, shifts and float to
integer converts have XLA's results where `arith` is undefined, see
`integer_ops`). Ops with no single MLIR
counterpart (integer power, logistic, sign, total-order compare, clamp,
converts) are built from several ops here. 16-bit floats stay 16-bit.

Emission itself (caching, indices, regions) lives in `elemental`; these
functions only need somewhere to put ops and constants (`ScalarOps`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from xdsl.dialects import arith, math, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType
from xdsl.ir import Block, Operation, SSAValue

from xla_emit.diagnostics import UserError
from xla_emit.dialects.arith_ext import RemFOp
from xla_emit.emitters.integer_ops import (
    emit_float_to_integer,
    emit_integer_division,
    emit_shift,
)
from xla_emit.emitters.reduce_precision import emit_reduce_precision
from xla_emit.emitters.types import builder_at_end, element_type, float_type, integer_type
from xla_emit.hlo.ir import HloInstruction
from xla_emit.hlo.shape import PrimitiveType


class ScalarOps(Protocol):
    """Where elementwise ops go: an insertion point plus deduplicated constants."""

    def insert(self, op: Operation) -> Operation: ...

    def constant(self, value: IntegerAttr[IntegerType], name: str | None = None) -> SSAValue: ...

    def constant_index(self, value: int) -> SSAValue: ...

    def scalar_constant(self, value: object, ptype: PrimitiveType) -> SSAValue: ...


def unsupported(instruction: HloInstruction, what: str = "") -> UserError:
    detail = f" ({what})" if what else ""
    return UserError(
        f"Unsupported: {instruction.opcode} '{instruction.name}'{detail}", instruction.location
    )


_FLOAT_UNARY: dict[str, Callable[[SSAValue], Operation]] = {
    "exponential": math.ExpOp,
    "exponential-minus-one": math.ExpM1Op,
    "log": math.LogOp,
    "log-plus-one": math.Log1pOp,
    "sqrt": math.SqrtOp,
    "rsqrt": math.RsqrtOp,
    "cbrt": math.CbrtOp,
    "tanh": math.TanhOp,
    "sine": math.SinOp,
    "cosine": math.CosOp,
    "tan": math.TanOp,
    "erf": math.ErfOp,
    "ceil": math.CeilOp,
    "floor": math.FloorOp,
    "round-nearest-even": math.RoundEvenOp,
    "round-nearest-afz": math.RoundOp,
    "abs": math.AbsFOp,
}

# An op class built from its two operands (the result type follows them).
_BinaryOpClass = Callable[[SSAValue, SSAValue], Operation]

_FLOAT_BINARY: dict[str, _BinaryOpClass] = {
    "add": arith.AddfOp,
    "subtract": arith.SubfOp,
    "multiply": arith.MulfOp,
    "divide": arith.DivfOp,
    "remainder": RemFOp,
    "maximum": arith.MaximumfOp,
    "minimum": arith.MinimumfOp,
    "power": math.PowFOp,
    "atan2": math.Atan2Op,
}

_INT_BINARY: dict[str, _BinaryOpClass] = {
    "add": arith.AddiOp,
    "subtract": arith.SubiOp,
    "multiply": arith.MuliOp,
    "and": arith.AndIOp,
    "or": arith.OrIOp,
    "xor": arith.XOrIOp,
}

_SIGNED_INT_BINARY: dict[str, _BinaryOpClass] = {
    "maximum": arith.MaxSIOp,
    "minimum": arith.MinSIOp,
}

_UNSIGNED_INT_BINARY: dict[str, _BinaryOpClass] = {
    "maximum": arith.MaxUIOp,
    "minimum": arith.MinUIOp,
}

# pred arithmetic is boolean logic.
_PRED_BINARY: dict[str, _BinaryOpClass] = {
    "add": arith.OrIOp,
    "maximum": arith.OrIOp,
    "or": arith.OrIOp,
    "multiply": arith.AndIOp,
    "minimum": arith.AndIOp,
    "and": arith.AndIOp,
    "xor": arith.XOrIOp,
}

_FLOAT_PREDICATES = {"EQ": "oeq", "NE": "une", "LT": "olt", "LE": "ole", "GT": "ogt", "GE": "oge"}
_SIGNED_PREDICATES = {"EQ": "eq", "NE": "ne", "LT": "slt", "LE": "sle", "GT": "sgt", "GE": "sge"}
_UNSIGNED_PREDICATES = {"EQ": "eq", "NE": "ne", "LT": "ult", "LE": "ule", "GT": "ugt", "GE": "uge"}


def _binary(emitter: ScalarOps, op_class: _BinaryOpClass, a: SSAValue, b: SSAValue) -> SSAValue:
    return emitter.insert(op_class(a, b)).results[0]


def emit_elementwise_op(
    emitter: ScalarOps,
    instruction: HloInstruction,
    operand_type: PrimitiveType,
    result_type: PrimitiveType,
    operands: list[SSAValue],
) -> SSAValue:
    opcode = instruction.opcode
    if opcode == "copy":
        return operands[0]
    if opcode == "compare":
        return _compare(emitter, instruction, operand_type, operands)
    if opcode == "select":
        return emitter.insert(arith.SelectOp(operands[0], operands[1], operands[2])).results[0]
    if opcode == "clamp":
        return _clamp(emitter, instruction, operands)
    if opcode == "convert":
        return _convert(emitter, operands[0], operand_type, result_type)
    if opcode == "reduce-precision":
        return emit_reduce_precision(emitter, instruction, operand_type, operands[0])
    if opcode == "bitcast-convert":
        if operand_type.bit_width != result_type.bit_width:
            raise unsupported(instruction, "bit widths differ")
        return emitter.insert(arith.BitcastOp(operands[0], element_type(result_type))).results[0]
    if len(operands) == 2:
        return _binary_op(emitter, instruction, operand_type, operands[0], operands[1])
    return _unary_op(emitter, instruction, operand_type, operands[0])


def _binary_op(
    emitter: ScalarOps,
    instruction: HloInstruction,
    ptype: PrimitiveType,
    a: SSAValue,
    b: SSAValue,
) -> SSAValue:
    opcode = instruction.opcode
    if ptype.is_float:
        table = _FLOAT_BINARY
    elif ptype is PrimitiveType.PRED:
        table = _PRED_BINARY
    elif ptype.is_signed_int:
        table = {**_INT_BINARY, **_SIGNED_INT_BINARY}
    else:
        table = {**_INT_BINARY, **_UNSIGNED_INT_BINARY}
    op_class = table.get(opcode)
    if ptype.is_integral:
        if opcode == "power":
            return _integer_power(emitter, ptype, a, b)
        if opcode in ("divide", "remainder"):
            return emit_integer_division(emitter, opcode, ptype, a, b)
        if opcode.startswith("shift-"):
            return emit_shift(emitter, opcode, ptype, a, b)
    if op_class is None:
        raise unsupported(instruction, f"on {ptype.value}")
    return _binary(emitter, op_class, a, b)


# XLA's lowering of integer power squares the base this many times (the low 6 exponent bits).
_POWER_STEPS = 6


def _integer_power(
    emitter: ScalarOps, ptype: PrimitiveType, base: SSAValue, exponent: SSAValue
) -> SSAValue:
    """Square-and-multiply over the exponent's low six bits (products wrap around), as
    XLA lowers mhlo.power; an exponent negative as a signed number (whatever the type's
    signedness) gives 1 for base 1, +-1 by parity for base -1, else 0."""
    bits_type = integer_type(ptype)
    one = emitter.scalar_constant(1, ptype)
    zero = emitter.scalar_constant(0, ptype)
    all_ones = emitter.constant(IntegerAttr(-1, bits_type), "cst")
    block = Block(arg_types=[IndexType(), bits_type, bits_type, bits_type])
    _, product, square, rest = block.args
    body = builder_at_end(block)
    odd = body.insert(arith.CmpiOp(body.insert(arith.AndIOp(rest, one)).results[0], zero, "ne"))
    multiplied = body.insert(arith.MuliOp(product, square)).results[0]
    next_product = body.insert(arith.SelectOp(odd.results[0], multiplied, product)).results[0]
    next_square = body.insert(arith.MuliOp(square, square)).results[0]
    next_rest = body.insert(arith.ShRUIOp(rest, one)).results[0]
    body.insert(scf.YieldOp(next_product, next_square, next_rest))
    steps = emitter.constant_index(_POWER_STEPS)
    loop = scf.ForOp(
        emitter.constant_index(0), steps, emitter.constant_index(1), [one, base, exponent], block
    )
    result = emitter.insert(loop).results[0]
    negative = emitter.insert(arith.CmpiOp(exponent, zero, "slt")).results[0]
    base_is_one = emitter.insert(arith.CmpiOp(base, one, "eq")).results[0]
    base_is_minus_one = emitter.insert(arith.CmpiOp(base, all_ones, "eq")).results[0]
    parity = emitter.insert(arith.AndIOp(exponent, one)).results[0]
    even = emitter.insert(arith.CmpiOp(parity, zero, "eq")).results[0]
    minus_one_power = emitter.insert(arith.SelectOp(even, one, all_ones)).results[0]
    one_or_zero = emitter.insert(arith.SelectOp(base_is_one, one, zero)).results[0]
    fallback = emitter.insert(
        arith.SelectOp(base_is_minus_one, minus_one_power, one_or_zero)
    ).results[0]
    return emitter.insert(arith.SelectOp(negative, fallback, result)).results[0]


def _unary_op(
    emitter: ScalarOps, instruction: HloInstruction, ptype: PrimitiveType, x: SSAValue
) -> SSAValue:
    opcode = instruction.opcode
    if ptype.is_float:
        if opcode in _FLOAT_UNARY:
            unary = _FLOAT_UNARY[opcode](x)
            return emitter.insert(unary).results[0]
        if opcode == "negate":
            return emitter.insert(arith.NegfOp(x)).results[0]
        if opcode == "logistic":
            return _logistic(emitter, ptype, x)
        if opcode == "sign":
            return _float_sign(emitter, ptype, x)
        if opcode == "is-finite":
            absolute = emitter.insert(math.AbsFOp(x)).results[0]
            infinity = emitter.scalar_constant(float("inf"), ptype)
            return emitter.insert(arith.CmpfOp(absolute, infinity, "one")).results[0]
    else:
        if opcode == "negate":
            zero = emitter.scalar_constant(0, ptype)
            return _binary(emitter, arith.SubiOp, zero, x)
        if opcode == "abs":
            return emitter.insert(math.AbsIOp(x)).results[0]
        if opcode == "not":
            all_ones_attr = IntegerAttr(-1, integer_type(ptype))
            all_ones = emitter.constant(all_ones_attr, "cst")
            return _binary(emitter, arith.XOrIOp, x, all_ones)
        if opcode == "popcnt":
            return emitter.insert(math.CtPopOp(x)).results[0]
        if opcode == "count-leading-zeros":
            return emitter.insert(math.CountLeadingZerosOp(x)).results[0]
        if opcode == "sign":
            return _int_sign(emitter, ptype, x)
    raise unsupported(instruction, f"on {ptype.value}")


def _logistic(emitter: ScalarOps, ptype: PrimitiveType, x: SSAValue) -> SSAValue:
    """1 / (1 + exp(-x)). It is one op in HLO, rounded once: 16-bit floats compute it in f32."""
    narrow = ptype in (PrimitiveType.BF16, PrimitiveType.F16)
    compute = PrimitiveType.F32 if narrow else ptype
    if narrow:
        x = emitter.insert(arith.ExtFOp(x, element_type(compute))).results[0]
    one = emitter.scalar_constant(1.0, compute)
    negated = emitter.insert(arith.NegfOp(x)).results[0]
    exp = emitter.insert(math.ExpOp(negated)).results[0]
    denominator = _binary(emitter, arith.AddfOp, exp, one)
    result = _binary(emitter, arith.DivfOp, one, denominator)
    if narrow:
        result = emitter.insert(arith.TruncFOp(result, element_type(ptype))).results[0]
    return result


def _float_sign(emitter: ScalarOps, ptype: PrimitiveType, x: SSAValue) -> SSAValue:
    """copysign(1, x), except that zeros and NaN give themselves back."""
    one = emitter.scalar_constant(1.0, ptype)
    zero = emitter.scalar_constant(0.0, ptype)
    signed_one = emitter.insert(math.CopySignOp(one, x)).results[0]
    is_zero_or_nan = emitter.insert(arith.CmpfOp(x, zero, "ueq")).results[0]
    return emitter.insert(arith.SelectOp(is_zero_or_nan, x, signed_one)).results[0]


def _int_sign(emitter: ScalarOps, ptype: PrimitiveType, x: SSAValue) -> SSAValue:
    zero = emitter.scalar_constant(0, ptype)
    one = emitter.scalar_constant(1, ptype)
    if ptype.is_unsigned_int:
        is_zero = emitter.insert(arith.CmpiOp(x, zero, "eq")).results[0]
        return emitter.insert(arith.SelectOp(is_zero, zero, one)).results[0]
    minus_one = emitter.scalar_constant(-1, ptype)
    negative = emitter.insert(arith.CmpiOp(x, zero, "slt")).results[0]
    positive = emitter.insert(arith.CmpiOp(x, zero, "sgt")).results[0]
    non_negative = emitter.insert(arith.SelectOp(positive, one, zero)).results[0]
    return emitter.insert(arith.SelectOp(negative, minus_one, non_negative)).results[0]


def _compare(
    emitter: ScalarOps,
    instruction: HloInstruction,
    ptype: PrimitiveType,
    operands: list[SSAValue],
) -> SSAValue:
    direction = instruction.comparison_direction or "EQ"
    if ptype.is_float:
        if instruction.comparison_type == "TOTALORDER":
            keys = [_total_order_key(emitter, ptype, x) for x in operands]
            return emitter.insert(
                arith.CmpiOp(keys[0], keys[1], _SIGNED_PREDICATES[direction])
            ).results[0]
        return emitter.insert(
            arith.CmpfOp(operands[0], operands[1], _FLOAT_PREDICATES[direction])
        ).results[0]
    unsigned = ptype.is_unsigned_int or ptype is PrimitiveType.PRED
    predicates = _UNSIGNED_PREDICATES if unsigned else _SIGNED_PREDICATES
    return emitter.insert(arith.CmpiOp(operands[0], operands[1], predicates[direction])).results[0]


def _total_order_key(emitter: ScalarOps, ptype: PrimitiveType, x: SSAValue) -> SSAValue:
    """The float's bits as a signed integer ordered like XLA's total order
    (-NaN < -inf < ... < -0 < +0 < ... < inf < NaN): negative floats get their
    magnitude bits flipped, so a larger magnitude sorts lower."""
    bits_type = IntegerType(ptype.bit_width)
    as_int = emitter.insert(arith.BitcastOp(x, bits_type)).results[0]
    shift = emitter.constant(IntegerAttr(ptype.bit_width - 1, bits_type), "cst")
    sign_fill = emitter.insert(arith.ShRSIOp(as_int, shift)).results[0]
    magnitude_bits = emitter.constant(
        IntegerAttr((1 << (ptype.bit_width - 1)) - 1, bits_type), "cst"
    )
    flip = emitter.insert(arith.AndIOp(sign_fill, magnitude_bits)).results[0]
    return emitter.insert(arith.XOrIOp(as_int, flip)).results[0]


def _clamp(emitter: ScalarOps, instruction: HloInstruction, operands: list[SSAValue]) -> SSAValue:
    low, x, high = operands
    ptype = instruction.array_shape.element_type
    if ptype.is_float:
        raised = _binary(emitter, arith.MaximumfOp, x, low)
        return _binary(emitter, arith.MinimumfOp, raised, high)
    if ptype.is_unsigned_int:
        raised = _binary(emitter, arith.MaxUIOp, x, low)
        return _binary(emitter, arith.MinUIOp, raised, high)
    raised = _binary(emitter, arith.MaxSIOp, x, low)
    return _binary(emitter, arith.MinSIOp, raised, high)


def convert_scalar(
    emitter: ScalarOps, x: SSAValue, source: PrimitiveType, target: PrimitiveType
) -> SSAValue:
    """`convert` of one real scalar value."""
    return _convert(emitter, x, source, target)


def _convert(
    emitter: ScalarOps, x: SSAValue, source: PrimitiveType, target: PrimitiveType
) -> SSAValue:
    if source == target:
        return x
    if target is PrimitiveType.PRED:
        zero = emitter.scalar_constant(0, source)
        if source.is_float:
            return emitter.insert(arith.CmpfOp(x, zero, "une")).results[0]
        return emitter.insert(arith.CmpiOp(x, zero, "ne")).results[0]
    if target.is_float:
        return _convert_to_float(emitter, x, source, target)
    return _convert_to_integer(emitter, x, source, target)


def _convert_to_float(
    emitter: ScalarOps, x: SSAValue, source: PrimitiveType, target: PrimitiveType
) -> SSAValue:
    target_type = float_type(target)
    if not source.is_float:
        if source.is_signed_int:
            return emitter.insert(arith.SIToFPOp(x, target_type)).results[0]
        return emitter.insert(arith.UIToFPOp(x, target_type)).results[0]
    if target.bit_width > source.bit_width:
        return emitter.insert(arith.ExtFOp(x, target_type)).results[0]
    if target.bit_width == source.bit_width:
        # bf16 <-> f16 goes through f32, which holds both exactly.
        wide = emitter.insert(arith.ExtFOp(x, float_type(PrimitiveType.F32))).results[0]
        return emitter.insert(arith.TruncFOp(wide, target_type)).results[0]
    return emitter.insert(arith.TruncFOp(x, target_type)).results[0]


def _convert_to_integer(
    emitter: ScalarOps, x: SSAValue, source: PrimitiveType, target: PrimitiveType
) -> SSAValue:
    target_type = integer_type(target)
    if source.is_float:
        return emit_float_to_integer(emitter, x, source, target)
    if target.bit_width > source.bit_width:
        if source.is_signed_int:
            return emitter.insert(arith.ExtSIOp(x, target_type)).results[0]
        return emitter.insert(arith.ExtUIOp(x, target_type)).results[0]
    if target.bit_width < source.bit_width:
        return emitter.insert(arith.TruncIOp(x, target_type)).results[0]
    # Same width: signless integers need no conversion.
    return x
