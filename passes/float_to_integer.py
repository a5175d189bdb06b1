"""XLA's float -> integer `convert`: truncates toward zero, saturates, and NaN gives 0.

`arith.fptosi` (`fptoui`) of a value out of the target's range, or of NaN, is poison in
MLIR. XLA defines the convert and writes the same ops for it in its MLIR emitters and in
its Triton emitter (its TTIR of `convert(f32 -> s32)` in a `__triton` fusion, and its reduction
emitter's first snapshot of `convert(f32 -> s8)`):

    %1 = arith.fptosi %x : f32 to i32
    %2 = arith.cmpf ole, %x, -2.14748365E+9      // INT_MIN, rounded to the source type
    %3 = arith.select %2, INT_MIN, %1
    %4 = arith.cmpf oge, %x, 2.14748365E+9       // INT_MAX, rounded (up, to 2**31)
    %5 = arith.select %4, INT_MAX, %3
    %6 = arith.cmpf uno, %x, %x
    %7 = arith.select %6, 0, %5

To an unsigned type (`fptoui`) the first compare is `ule` 0, which takes NaN to 0 too, and
no NaN select follows (XLA's loop emitter, `convert(f64 -> u64)`).

The limits are compared in the source type, where they may round (to 2**31 in f32, to
inf in f16); saturation stays right either way. The raw conversion's value is kept only
where the operand is in range. One fact: the emitters (`emitters/integer_ops.py`) and
`stablehlo-lower-to-arith` (on tiles) both build it here.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xla_emit.dialects import arith_vector

# A constant of the operand's float type (a scalar, or a splat tile) holding an integer
# limit rounded to that type.
FloatLimit = Callable[[int], SSAValue]
# A constant of the result's integer type holding a value.
IntegerConstant = Callable[[int], SSAValue]
# Inserts an op where the convert goes and gives its result.
Emit = Callable[[Operation], SSAValue]


def _cmpf(a: SSAValue, b: SSAValue, predicate: str) -> Operation:
    # On tiles the result is a tile of i1: the compare of `arith_vector`, as TTIR has it.
    return (arith_vector.CmpfOp if isinstance(a.type, TensorType) else arith.CmpfOp)(
        a, b, predicate
    )


def _select(condition: SSAValue, a: SSAValue, b: SSAValue) -> Operation:
    if isinstance(a.type, TensorType):
        return arith_vector.SelectOp.create(operands=[condition, a, b], result_types=[a.type])
    return arith.SelectOp(condition, a, b)


def saturating_float_to_integer(
    x: SSAValue,
    target: Attribute,
    *,
    signed: bool,
    limits: tuple[int, int],
    float_limit: FloatLimit,
    integer: IntegerConstant,
    emit: Emit,
) -> SSAValue:
    """`convert` of float `x` to the integer type `target` (scalar or tile) with XLA's
    values out of range (`limits`: the target's smallest and largest value) and for NaN,
    in the order XLA writes the ops."""
    low, high = limits
    tiles = isinstance(x.type, TensorType)
    if signed:
        raw_class = arith_vector.FPToSIOp if tiles else arith.FPToSIOp
    else:
        raw_class = arith_vector.FPToUIOp if tiles else arith.FPToUIOp
    raw = emit(raw_class.create(operands=[x], result_types=[target]))
    # Unsigned: `ule` 0 takes NaN to 0 with the values below range.
    below = emit(_cmpf(x, float_limit(low), "ole" if signed else "ule"))
    result = emit(_select(below, integer(low), raw))
    above = emit(_cmpf(x, float_limit(high), "oge"))
    result = emit(_select(above, integer(high), result))
    if not signed:
        return result
    is_nan = emit(_cmpf(x, x, "uno"))
    return emit(_select(is_nan, integer(0), result))
