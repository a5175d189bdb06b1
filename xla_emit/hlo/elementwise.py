"""Vectorized numpy semantics of HLO's elementwise ops, as XLA computes them.

16-bit floats (bf16, f16) are computed in f32 and rounded to their own type
after every op, which is what XLA's GPU and CPU backends do; results for them
are therefore bit-exact. Transcendental f32 ops are evaluated in f64 and
rounded once, i.e. (nearly) correctly rounded; XLA's own approximations are
within a few ulp of that.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from xla_emit.hlo.shape import PrimitiveType

Array = np.ndarray

_SIXTEEN_BIT_FLOATS = (PrimitiveType.BF16, PrimitiveType.F16)


def compute_dtype(ptype: PrimitiveType) -> np.dtype[np.generic]:
    """The numpy type XLA computes `ptype` arithmetic in (f32 for 16-bit floats)."""
    return np.dtype(np.float32) if ptype in _SIXTEEN_BIT_FLOATS else ptype.dtype


def _widen(x: Array, ptype: PrimitiveType) -> Array:
    return x.astype(compute_dtype(ptype), copy=False)


def _round_to(x: Array, ptype: PrimitiveType) -> Array:
    """Rounds a float64/float32 result to f32 first (XLA's compute type), then to `ptype`."""
    if ptype in _SIXTEEN_BIT_FLOATS:
        return x.astype(np.float32, copy=False).astype(ptype.dtype)
    return x.astype(ptype.dtype, copy=False)


def _in_f64(x: Array) -> Array:
    return x.astype(np.float64, copy=False)


def _erf(x: Array) -> Array:
    return np.asarray(np.frompyfunc(math.erf, 1, 1)(x), dtype=np.float64)


def _round_afz(x: Array) -> Array:
    truncated = np.trunc(x)
    fraction = x - truncated  # exact in binary floating point
    rounded = truncated + np.where(np.abs(fraction) >= 0.5, np.sign(x), 0.0)
    # -0.4 rounds to -0.0, as IEEE roundf does; the sum above would give +0.0.
    return np.copysign(rounded, x)


def _logistic(x: Array) -> Array:
    return 1.0 / (1.0 + np.exp(-x))


# Ops evaluated in f64 and rounded once (transcendental).
_ACCURATE_UNARY: dict[str, Callable[[Array], Array]] = {
    "exponential": np.exp,
    "exponential-minus-one": np.expm1,
    "log": np.log,
    "log-plus-one": np.log1p,
    "logistic": _logistic,
    "rsqrt": lambda x: 1.0 / np.sqrt(x),
    "cbrt": np.cbrt,
    "tanh": np.tanh,
    "sine": np.sin,
    "cosine": np.cos,
    "tan": np.tan,
    "erf": _erf,
}

# Ops that are exact (or correctly rounded) in the compute type.
_EXACT_FLOAT_UNARY: dict[str, Callable[[Array], Array]] = {
    "ceil": np.ceil,
    "floor": np.floor,
    "round-nearest-even": np.rint,
    "round-nearest-afz": _round_afz,
    "sqrt": np.sqrt,
}


def unary(opcode: str, x: Array, ptype: PrimitiveType) -> Array:
    """Evaluates a unary elementwise op on `x` of element type `ptype`."""
    with np.errstate(all="ignore"):
        if opcode in _ACCURATE_UNARY:
            return _round_to(_ACCURATE_UNARY[opcode](_in_f64(x)), ptype)
        if opcode in _EXACT_FLOAT_UNARY:
            return _round_to(_EXACT_FLOAT_UNARY[opcode](_widen(x, ptype)), ptype)
        if opcode == "is-finite":
            return np.isfinite(_widen(x, ptype))
        if opcode == "copy":
            return x
        if opcode == "negate":
            return _round_to(np.negative(_widen(x, ptype)), ptype)
        if opcode == "abs":
            return _round_to(np.abs(_widen(x, ptype)), ptype)
        if opcode == "sign":
            wide = _widen(x, ptype)
            # sign(+-0) keeps the zero (and its sign); NaN stays NaN.
            return _round_to(np.where(wide == 0, wide, np.sign(wide)), ptype)
        if opcode == "not":
            return np.logical_not(x) if ptype is PrimitiveType.PRED else np.invert(x)
        if opcode == "popcnt":
            # numpy counts the bits of |x| for signed types; XLA counts the two's complement bits.
            unsigned = np.dtype(f"u{ptype.dtype.itemsize}")
            return np.bitwise_count(x.astype(unsigned)).astype(ptype.dtype)
        if opcode == "count-leading-zeros":
            return _count_leading_zeros(x, ptype)
    raise ValueError(f"not a unary op: {opcode}")


def _count_leading_zeros(x: Array, ptype: PrimitiveType) -> Array:
    """Leading zero bits of the two's complement pattern (the width for 0), by halving:
    where the upper half of the remaining window is zero, count it and look lower."""
    width = ptype.bit_width
    bits = x.astype(np.dtype(f"u{ptype.dtype.itemsize}")).astype(np.uint64)
    zeros = np.zeros(bits.shape, np.int64)
    window = width
    while window > 1:
        half = window // 2
        upper_empty = (bits >> np.uint64(window - half)) == 0
        zeros = np.where(upper_empty, zeros + half, zeros)
        bits = np.where(upper_empty, bits, bits >> np.uint64(window - half))
        window -= half
    zeros = zeros + (bits == 0)
    return zeros.astype(ptype.dtype)


# (exponent bits, mantissa bits) of the float types.
FLOAT_FORMATS: dict[PrimitiveType, tuple[int, int]] = {
    PrimitiveType.F16: (5, 10),
    PrimitiveType.BF16: (8, 7),
    PrimitiveType.F32: (8, 23),
    PrimitiveType.F64: (11, 52),
}


def reduce_precision(
    x: Array, ptype: PrimitiveType, exponent_bits: int, mantissa_bits: int
) -> Array:
    """XLA's reduce-precision: the mantissa rounded to `mantissa_bits` (to nearest even), then
    values beyond the range of `exponent_bits` flushed to a signed inf or zero (denormals of
    the narrower format too); NaN stays the input NaN, even when no mantissa bit is left (the
    MLIR emitters' lowering; XLA's older LLVM emitter made that case inf)."""
    source_exponent_bits, source_mantissa_bits = FLOAT_FORMATS[ptype]
    width = ptype.bit_width
    unsigned = np.dtype(f"u{width // 8}")
    bits = np.ascontiguousarray(x).view(unsigned).astype(np.uint64)
    one = np.uint64(1)
    if mantissa_bits < source_mantissa_bits:
        dropped = source_mantissa_bits - mantissa_bits
        last_kept = one << np.uint64(dropped)
        bias = ((bits & last_kept) >> np.uint64(dropped)) + (last_kept >> one) - one
        bits = (bits + bias) & ~(last_kept - one) & np.uint64((1 << width) - 1)
    if exponent_bits < source_exponent_bits:
        exponent_mask = np.uint64(((1 << source_exponent_bits) - 1) << source_mantissa_bits)
        sign = bits & np.uint64(1 << (width - 1))
        bias = (1 << (source_exponent_bits - 1)) - 1
        reduced_bias = (1 << (exponent_bits - 1)) - 1
        exponent = bits & exponent_mask
        overflows = exponent > np.uint64((bias + reduced_bias) << source_mantissa_bits)
        underflows = exponent <= np.uint64((bias - reduced_bias) << source_mantissa_bits)
        bits = np.where(overflows, sign | exponent_mask, bits)
        bits = np.where(underflows, sign, bits)
    result = bits.astype(unsigned).view(ptype.dtype).reshape(np.shape(x))
    nan = np.isnan(np.asarray(x, np.float64))
    return np.where(nan, x, result).astype(ptype.dtype)


def _int_divide(a: Array, b: Array, ptype: PrimitiveType) -> Array:
    """C division (towards zero); x/0 is -1 (all ones), INT_MIN/-1 is INT_MIN."""
    overflow = _signed_overflow(a, b, ptype)
    safe_b = np.where((b == 0) | overflow, np.ones_like(b), b)
    quotient = np.floor_divide(a, safe_b)
    remainder = a - quotient * safe_b
    towards_zero = (remainder != 0) & ((a < 0) != (safe_b < 0))
    quotient = np.where(towards_zero, quotient + 1, quotient).astype(ptype.dtype)
    all_ones = np.array(-1).astype(ptype.dtype) if ptype.is_signed_int else ptype.int_limits[1]
    return np.where(b == 0, all_ones, quotient).astype(ptype.dtype)


def _int_remainder(a: Array, b: Array, ptype: PrimitiveType) -> Array:
    """C remainder (sign of the dividend); x%0 is x, INT_MIN%-1 is 0."""
    overflow = _signed_overflow(a, b, ptype)
    safe_b = np.where((b == 0) | overflow, np.ones_like(b), b)
    remainder = np.fmod(a, safe_b)
    return np.where(b == 0, a, remainder).astype(ptype.dtype)


def _signed_overflow(a: Array, b: Array, ptype: PrimitiveType) -> Array:
    if not ptype.is_signed_int:
        return np.zeros(np.broadcast(a, b).shape, dtype=bool)
    return (a == ptype.int_limits[0]) & (b == -1)


# XLA squares the base six times: 2**6 = 64 bits covers every non-wrapping power.
_POWER_STEPS = 6


def _int_power(a: Array, b: Array, ptype: PrimitiveType) -> Array:
    """XLA's integer power (the MLIR emitters' lowering of mhlo.power): square-and-multiply
    over the exponent's low six bits, wrapping around. An exponent that is negative as a
    signed number (unsigned ones too) gives 1 for base 1, +-1 by parity for base -1 (all
    ones), else 0."""
    signed = np.dtype(f"i{ptype.dtype.itemsize}")
    shape = np.broadcast(a, b).shape
    result = np.ones(shape, dtype=ptype.dtype)
    base = np.broadcast_to(a, shape).copy()
    bits = np.broadcast_to(b, shape).astype(signed)
    for step in range(_POWER_STEPS):
        odd = ((bits >> step) & 1) == 1
        result = np.where(odd, result * base, result)
        base = base * base
    base_bits = np.broadcast_to(a, shape).astype(signed)
    minus_one_power = np.where((bits & 1) == 0, 1, -1)
    fallback = np.where(base_bits == -1, minus_one_power, (base_bits == 1).astype(np.int64))
    return np.where(bits < 0, fallback.astype(signed).astype(ptype.dtype), result).astype(
        ptype.dtype
    )


def _shift(opcode: str, a: Array, b: Array, ptype: PrimitiveType) -> Array:
    """Shifts on the two's complement bits; an amount >= the bit width shifts everything out."""
    bits = ptype.bit_width
    unsigned = np.dtype(f"u{ptype.dtype.itemsize}")
    signed = np.dtype(f"i{ptype.dtype.itemsize}")
    amount = b.astype(unsigned)  # a negative amount is a huge unsigned one
    too_far = amount >= bits
    if opcode == "shift-right-arithmetic":
        # Shifting by bits-1 already fills every bit with the sign bit.
        capped = np.minimum(amount, bits - 1).astype(signed)
        return (a.astype(signed) >> capped).astype(ptype.dtype)
    safe = np.where(too_far, 0, amount).astype(unsigned)
    bits_of_a = a.astype(unsigned)
    shifted = bits_of_a << safe if opcode == "shift-left" else bits_of_a >> safe
    return np.where(too_far, 0, shifted).astype(ptype.dtype)


def ieee_maximum(a: Array, b: Array) -> Array:
    """XLA's float maximum (IEEE 754-2019 maximum): NaN if either is NaN, +0 above -0
    (numpy's maximum keeps its first operand for equal zeros; XLA:CPU's max(+0, -0) is +0
    whichever comes first)."""
    result = np.maximum(a, b)
    zeros = (a == 0) & (b == 0)
    return np.where(zeros, np.where(np.signbit(a), b, a), result)


def ieee_minimum(a: Array, b: Array) -> Array:
    """XLA's float minimum: NaN if either is NaN, -0 below +0."""
    result = np.minimum(a, b)
    zeros = (a == 0) & (b == 0)
    return np.where(zeros, np.where(np.signbit(a), a, b), result)


_FLOAT_BINARY: dict[str, Callable[[Array, Array], Array]] = {
    "add": np.add,
    "subtract": np.subtract,
    "multiply": np.multiply,
    "divide": np.divide,
    "remainder": np.fmod,
    "maximum": ieee_maximum,
    "minimum": ieee_minimum,
}
_ACCURATE_BINARY: dict[str, Callable[[Array, Array], Array]] = {
    "power": np.power,
    "atan2": np.arctan2,
}
_INT_BINARY: dict[str, Callable[[Array, Array], Array]] = {
    "add": np.add,
    "subtract": np.subtract,
    "multiply": np.multiply,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "and": np.bitwise_and,
    "or": np.bitwise_or,
    "xor": np.bitwise_xor,
}
_PRED_BINARY: dict[str, Callable[[Array, Array], Array]] = {
    "and": np.logical_and,
    "or": np.logical_or,
    "xor": np.logical_xor,
    "maximum": np.logical_or,
    "minimum": np.logical_and,
    "add": np.logical_or,
    "multiply": np.logical_and,
}


# Ops XLA computes with its own approximations (within a few ulp of what the
# evaluator computes): results that depend on them cannot be checked bit for bit.
APPROXIMATED_OPS: frozenset[str] = frozenset(_ACCURATE_UNARY) | frozenset(_ACCURATE_BINARY)


def binary(opcode: str, a: Array, b: Array, ptype: PrimitiveType) -> Array:
    """Evaluates a binary elementwise op on operands of element type `ptype`."""
    with np.errstate(all="ignore"):
        if ptype.is_float:
            if opcode in _ACCURATE_BINARY:
                return _round_to(_ACCURATE_BINARY[opcode](_in_f64(a), _in_f64(b)), ptype)
            return _round_to(_FLOAT_BINARY[opcode](_widen(a, ptype), _widen(b, ptype)), ptype)
        if ptype is PrimitiveType.PRED:
            return _PRED_BINARY[opcode](a, b)
        if opcode == "divide":
            return _int_divide(a, b, ptype)
        if opcode == "remainder":
            return _int_remainder(a, b, ptype)
        if opcode == "power":
            return _int_power(a, b, ptype)
        if opcode.startswith("shift-"):
            return _shift(opcode, a, b, ptype)
        return _INT_BINARY[opcode](a, b).astype(ptype.dtype)


def _total_order_key(x: Array, ptype: PrimitiveType) -> Array:
    """Integers ordered like XLA's float total order (-NaN < -inf < -0 < +0 < inf < NaN)."""
    signed = np.dtype(f"i{ptype.dtype.itemsize}")
    bits = np.asarray(x, order="C").view(signed).astype(np.int64)
    magnitude_mask = (1 << (ptype.bit_width - 1)) - 1
    return np.where(bits < 0, bits ^ magnitude_mask, bits)


_COMPARATORS: dict[str, Callable[[Array, Array], Array]] = {
    "EQ": np.equal,
    "NE": np.not_equal,
    "LT": np.less,
    "LE": np.less_equal,
    "GT": np.greater,
    "GE": np.greater_equal,
}


def compare(
    direction: str, a: Array, b: Array, ptype: PrimitiveType, comparison_type: str | None
) -> Array:
    """`compare` with XLA's semantics: IEEE for floats unless TOTALORDER is asked for."""
    if ptype.is_float and comparison_type == "TOTALORDER":
        a, b = _total_order_key(a, ptype), _total_order_key(b, ptype)
    elif ptype.is_float:
        a, b = _widen(a, ptype), _widen(b, ptype)
    return _COMPARATORS[direction](a, b)


def convert(x: Array, source: PrimitiveType, target: PrimitiveType) -> Array:
    """`convert`: float to int truncates and saturates (NaN gives 0); anything to pred is != 0."""
    with np.errstate(all="ignore"):
        if target is PrimitiveType.PRED:
            return x != 0
        if source.is_float and target.is_integral:
            return _float_to_int(x.astype(np.float64), target)
        return x.astype(target.dtype)


def _float_to_int(x: Array, target: PrimitiveType) -> Array:
    int_min, int_max = target.int_limits
    truncated = np.trunc(x)
    low, high = float(int_min), float(int_max)
    clipped = np.clip(np.nan_to_num(truncated, nan=0.0), low, high)
    # float(max) may round up past the type's range (e.g. 2**63), so fix both ends.
    result = np.where(clipped >= high, 0, clipped).astype(target.dtype)
    result = np.where(truncated >= high, int_max, result)
    result = np.where(truncated <= low, int_min, result)
    return np.where(np.isnan(x), 0, result).astype(target.dtype)


def clamp(low: Array, x: Array, high: Array, ptype: PrimitiveType) -> Array:
    with np.errstate(all="ignore"):
        wide_x, wide_low, wide_high = _widen(x, ptype), _widen(low, ptype), _widen(high, ptype)
        if ptype.is_float:
            wide = ieee_minimum(ieee_maximum(wide_x, wide_low), wide_high)
        else:
            wide = np.minimum(np.maximum(wide_x, wide_low), wide_high)
    return wide.astype(ptype.dtype)


def select(pred: Array, on_true: Array, on_false: Array) -> Array:
    return np.where(pred, on_true, on_false)


def bitcast_convert(x: Array, target: PrimitiveType) -> Array:
    """Reinterprets the bits; a narrower target adds a minor dimension, a wider one removes it."""
    contiguous = np.asarray(x, order="C")
    source_bytes = contiguous.dtype.itemsize
    target_bytes = target.dtype.itemsize
    if source_bytes == target_bytes:
        return contiguous.view(target.dtype)
    if source_bytes > target_bytes:
        return contiguous.reshape((*contiguous.shape, 1)).view(target.dtype)
    return contiguous.view(target.dtype).reshape(contiguous.shape[:-1])
