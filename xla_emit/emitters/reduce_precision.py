"""Elemental emission of `reduce-precision` as XLA's elemental emitter computes it.

On the value's bits (an integer of the float's width):

    mantissa: bits + (last kept bit) + (half an ulp of the kept mantissa - 1), the dropped
              bits cleared (round to nearest even; a carry into the exponent is right)
    exponent: beyond the narrower format's largest exponent -> signed inf, at or below its
              smallest -> signed zero (denormals are flushed, not rounded)
    NaN:      the input NaN, also when no mantissa bit is kept (as the MLIR emitters lower
              it; XLA's older LLVM emitter gave inf there)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, IntegerType
from xdsl.ir import Operation, SSAValue

from xla_emit.emitters.types import float_type
from xla_emit.hlo.elementwise import FLOAT_FORMATS
from xla_emit.hlo.ir import HloInstruction
from xla_emit.hlo.shape import PrimitiveType

if TYPE_CHECKING:
    from xla_emit.emitters.elemental_ops import ScalarOps


def emit_reduce_precision(
    emitter: ScalarOps, instruction: HloInstruction, ptype: PrimitiveType, x: SSAValue
) -> SSAValue:
    assert instruction.precision_bits is not None, "reduce-precision carries its format"
    exponent_bits, mantissa_bits = instruction.precision_bits
    source_exponent_bits, source_mantissa_bits = FLOAT_FORMATS[ptype]
    width = ptype.bit_width
    int_type = IntegerType(width)

    def const(value: int) -> SSAValue:
        signless = value - (1 << width) if value >= 1 << (width - 1) else value
        return emitter.constant(IntegerAttr(signless, int_type), "cst")

    def op(operation: Operation) -> SSAValue:
        return emitter.insert(operation).results[0]

    bits = op(arith.BitcastOp(x, int_type))
    if mantissa_bits < source_mantissa_bits:
        dropped = source_mantissa_bits - mantissa_bits
        last_kept = 1 << dropped
        last_bit = op(arith.ShRUIOp(op(arith.AndIOp(bits, const(last_kept))), const(dropped)))
        bias = op(arith.AddiOp(last_bit, const((last_kept >> 1) - 1)))
        rounded = op(arith.AddiOp(bits, bias))
        bits = op(arith.AndIOp(rounded, const(((1 << width) - 1) & ~(last_kept - 1))))
    if exponent_bits < source_exponent_bits:
        exponent_mask = ((1 << source_exponent_bits) - 1) << source_mantissa_bits
        bias = (1 << (source_exponent_bits - 1)) - 1
        reduced_bias = (1 << (exponent_bits - 1)) - 1
        exponent = op(arith.AndIOp(bits, const(exponent_mask)))
        largest = const((bias + reduced_bias) << source_mantissa_bits)
        smallest = const((bias - reduced_bias) << source_mantissa_bits)
        overflows = op(arith.CmpiOp(exponent, largest, "ugt"))
        underflows = op(arith.CmpiOp(exponent, smallest, "ule"))
        signed_zero = op(arith.AndIOp(bits, const(1 << (width - 1))))
        signed_inf = op(arith.OrIOp(signed_zero, const(exponent_mask)))
        bits = op(arith.SelectOp(overflows, signed_inf, bits))
        bits = op(arith.SelectOp(underflows, signed_zero, bits))
    result = op(arith.BitcastOp(bits, float_type(ptype)))
    is_nan = op(arith.CmpfOp(x, x, "uno"))
    return op(arith.SelectOp(is_nan, x, result))
