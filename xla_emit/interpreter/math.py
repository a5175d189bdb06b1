"""math: elementwise functions.

bf16 and f16 arguments are widened to f32, the function is evaluated there
and the result rounded back, which is how XLA:GPU evaluates them (the seed's
LLVM IR: `fpext`, `__nv_tanhf`, `fptrunc`). f32 and f64 use numpy's functions
at their own precision.
"""

from __future__ import annotations

import math as pymath
from collections.abc import Callable

import numpy as np
from xdsl.dialects import math
from xdsl.ir import Operation

from xla_emit.interpreter.arith import Array, typed
from xla_emit.interpreter.element_types import integer_width, numpy_dtype, unsigned_view
from xla_emit.interpreter.executor import Executor, Values
from xla_emit.interpreter.registry import OpImpls, impl, register_impls

_NARROW = (np.dtype(np.float16), np.dtype("bfloat16"))

_erf = np.frompyfunc(pymath.erf, 1, 1)


def _round_half_away(values: Array) -> Array:
    wide = np.asarray(values, dtype=np.float64)
    return np.copysign(np.floor(np.abs(wide) + 0.5), wide)


def _rsqrt(values: Array) -> Array:
    return np.reciprocal(np.sqrt(values))


def _fma(a: Array, b: Array, c: Array) -> Array:
    # The f64 product of two f32 values is exact, so this rounds once for f32.
    return np.asarray(a, np.float64) * np.asarray(b, np.float64) + np.asarray(c, np.float64)


_UNARY: dict[type[Operation], Callable[[Array], Array]] = {
    math.ExpOp: np.exp,
    math.Exp2Op: np.exp2,
    math.ExpM1Op: np.expm1,
    math.LogOp: np.log,
    math.Log1pOp: np.log1p,
    math.Log2Op: np.log2,
    math.Log10Op: np.log10,
    math.TanhOp: np.tanh,
    math.SinhOp: np.sinh,
    math.CoshOp: np.cosh,
    math.SqrtOp: np.sqrt,
    math.RsqrtOp: _rsqrt,
    math.CbrtOp: np.cbrt,
    math.ErfOp: lambda v: _erf(np.asarray(v, np.float64)).astype(np.float64),
    math.SinOp: np.sin,
    math.CosOp: np.cos,
    math.TanOp: np.tan,
    math.AtanOp: np.arctan,
    math.AsinOp: np.arcsin,
    math.AcosOp: np.arccos,
    math.AsinhOp: np.arcsinh,
    math.AcoshOp: np.arccosh,
    math.AtanhOp: np.arctanh,
    math.AbsFOp: np.abs,
    math.FloorOp: np.floor,
    math.CeilOp: np.ceil,
    math.TruncOp: np.trunc,
    math.RoundOp: _round_half_away,
    math.RoundEvenOp: np.rint,
}

_BINARY: dict[type[Operation], Callable[[Array, Array], Array]] = {
    math.Atan2Op: np.arctan2,
    math.PowFOp: np.power,
    math.CopySignOp: np.copysign,
}


def _widened(value: Array) -> Array:
    """bf16/f16 go to f32 before a function is evaluated."""
    array = np.asarray(value)
    return array.astype(np.float32) if array.dtype in _NARROW else value


def _count_leading_zeros(values: np.ndarray, width: int) -> np.ndarray:
    result = np.full(values.shape, width, dtype=np.int64)
    for bit in range(width):
        set_here = ((values >> np.uint64(bit)) & np.uint64(1)) == 1
        result = np.where(set_here, width - 1 - bit, result)
    return result


def _count_trailing_zeros(values: np.ndarray, width: int) -> np.ndarray:
    result = np.full(values.shape, width, dtype=np.int64)
    for bit in reversed(range(width)):
        set_here = ((values >> np.uint64(bit)) & np.uint64(1)) == 1
        result = np.where(set_here, bit, result)
    return result


def _count_ones(values: np.ndarray, width: int) -> np.ndarray:
    return sum((((values >> np.uint64(bit)) & np.uint64(1)).astype(np.int64) for bit in range(width)), np.zeros(values.shape, np.int64))


@register_impls
class MathImpls(OpImpls):
    """math ops over lanes."""

    @impl(*_UNARY)
    def run_unary(self, _ex: Executor, op: Operation, args: Values) -> Values:
        result = _UNARY[type(op)](_widened(np.asarray(args[0])))
        return (np.asarray(result).astype(numpy_dtype(op.results[0].type))[()],)

    @impl(*_BINARY)
    def run_binary(self, _ex: Executor, op: Operation, args: Values) -> Values:
        result = _BINARY[type(op)](_widened(np.asarray(args[0])), _widened(np.asarray(args[1])))
        return (np.asarray(result).astype(numpy_dtype(op.results[0].type))[()],)

    @impl(math.FmaOp)
    def run_fma(self, _ex: Executor, op: math.FmaOp, args: Values) -> Values:
        return (np.asarray(_fma(*args[:3])).astype(numpy_dtype(op.result.type))[()],)  # pyright: ignore[reportArgumentType]

    @impl(math.AbsIOp)
    def run_absi(self, _ex: Executor, op: math.AbsIOp, args: Values) -> Values:
        return (typed(np.abs(np.asarray(args[0])), op.result.type)[()],)

    @impl(math.CountLeadingZerosOp, math.CountTrailingZerosOp, math.CtPopOp)
    def run_bit_count(self, _ex: Executor, op: Operation, args: Values) -> Values:
        type_ = op.results[0].type
        width = integer_width(type_)
        bits = unsigned_view(np.asarray(args[0]), width)
        counter = {
            math.CountLeadingZerosOp: _count_leading_zeros,
            math.CountTrailingZerosOp: _count_trailing_zeros,
            math.CtPopOp: _count_ones,
        }[type(op)]
        return (typed(counter(np.asarray(bits), width), type_)[()],)

    @impl(math.IPowIOp)
    def run_ipowi(self, _ex: Executor, op: math.IPowIOp, args: Values) -> Values:
        base, exponent = np.broadcast_arrays(np.asarray(args[0], np.int64), np.asarray(args[1], np.int64))
        result = np.ones(base.shape, np.int64)
        power = base.copy()
        remaining = exponent.copy()
        # Square-and-multiply wraps the way repeated multiplication does; a
        # negative exponent gives 0 except for bases 1 and -1.
        while np.any(remaining > 0):
            odd = (remaining & 1) == 1
            result = np.where(odd & (remaining > 0), result * power, result)
            power = power * power
            remaining = remaining >> 1
        negative = exponent < 0
        result = np.where(negative, np.where(base == 1, 1, np.where(base == -1, np.where(exponent % 2 == 0, 1, -1), 0)), result)
        return (typed(result, op.result.type)[()],)

    @impl(math.FPowIOp)
    def run_fpowi(self, _ex: Executor, op: math.FPowIOp, args: Values) -> Values:
        result = np.power(_widened(np.asarray(args[0])).astype(np.float64), np.asarray(args[1], np.float64))
        return (result.astype(numpy_dtype(op.result.type))[()],)
