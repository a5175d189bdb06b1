"""math: elementwise functions.

Functions are evaluated in f64 and rounded to f32 (XLA's compute type for
16-bit floats, the seed's `fpext`, `__nv_tanhf`, `fptrunc`), then to the
op's type: the reference evaluator's semantics, so results match it bit for
bit. For bf16 and f16 a unary function is a lookup in a table of all 65536
inputs, built that way once: exact and much faster than evaluating.
"""

from __future__ import annotations

import math as pymath
from collections.abc import Callable
from functools import cache

import numpy as np
from xdsl.dialects import math
from xdsl.ir import Operation

from xla_emit.interpreter.element_types import integer_width, numpy_dtype, unsigned_view
from xla_emit.interpreter.executor import Array, Executor, Values, lanes
from xla_emit.interpreter.registry import OpImpls, impl, register_impls
from xla_emit.interpreter.scalars import typed

_SIXTEEN_BIT = (np.dtype(np.float16), np.dtype("bfloat16"))


def _erf(values: Array) -> Array:
    # numpy has no erf; Python's is correctly rounded in double, element by element.
    return np.asarray(np.frompyfunc(pymath.erf, 1, 1)(values), dtype=np.float64)


def _round_half_away(values: Array) -> Array:
    wide = np.asarray(values, dtype=np.float64)
    return np.copysign(np.floor(np.abs(wide) + 0.5), wide)


def _rsqrt(values: Array) -> Array:
    return np.reciprocal(np.sqrt(values))


def _fma(a: Array, b: Array, c: Array) -> Array:
    # In f64 the product of two f32 values is exact, so the sum rounds once for f32.
    return a * b + c


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
    math.ErfOp: _erf,
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


def _evaluate(function: Callable[..., Array], dtype: np.dtype[np.generic], *args: Array) -> Array:
    """`function` in f64, rounded to f32 (unless the type is f64), then to `dtype`."""
    arrays = [np.asarray(a) for a in args]
    if (
        isinstance(function, np.ufunc)
        and dtype == np.dtype(np.float32)
        and all(a.dtype.kind in "fi" for a in arrays)
    ):
        return _f64_ufunc_into_f32(function, arrays)
    with np.errstate(all="ignore"):
        result = np.asarray(function(*(np.asarray(a, np.float64) for a in arrays)))
        if dtype != np.dtype(np.float64):
            result = result.astype(np.float32, copy=False)
        return result.astype(dtype, copy=False)


def _f64_ufunc_into_f32(function: np.ufunc, arrays: list[Array]) -> Array:
    """`function` computed in f64 and rounded to f32 as one ufunc call: numpy casts the
    operands up and the results down in small buffers (the same casts as whole-array
    `astype`s, the same f64 loop), instead of writing two whole f64 temporaries."""
    out = np.empty(np.broadcast_shapes(*(a.shape for a in arrays)), np.float32)
    with np.errstate(all="ignore"):
        function(*arrays, out=out, dtype=np.float64, casting="unsafe")
    return out


@cache
def _table(op_type: type[Operation], dtype: np.dtype[np.generic]) -> np.ndarray:
    """`op_type`'s function at every 16-bit input, indexed by the input's bits."""
    every_input = np.arange(1 << 16, dtype=np.uint16).view(dtype)
    return _evaluate(_UNARY[op_type], dtype, every_input)


def _unary(op_type: type[Operation], value: Array, dtype: np.dtype[np.generic]) -> Array:
    array = np.asarray(value)
    if dtype in _SIXTEEN_BIT and array.dtype == dtype:
        # `take` gathers faster than fancy indexing (no index-array checks per element).
        return np.take(_table(op_type, dtype), array.view(np.uint16))
    return _evaluate(_UNARY[op_type], dtype, array)


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
    return sum(
        (((values >> np.uint64(bit)) & np.uint64(1)).astype(np.int64) for bit in range(width)),
        np.zeros(values.shape, np.int64),
    )


_BIT_COUNTERS: dict[type[Operation], Callable[[np.ndarray, int], np.ndarray]] = {
    math.CountLeadingZerosOp: _count_leading_zeros,
    math.CountTrailingZerosOp: _count_trailing_zeros,
    math.CtPopOp: _count_ones,
}


@register_impls
class MathImpls(OpImpls):
    """math ops over lanes."""

    @impl(*_UNARY)
    def run_unary(self, _ex: Executor, op: Operation, args: Values) -> Values:
        return (_unary(type(op), lanes(args[0]), numpy_dtype(op.results[0].type))[()],)

    @impl(*_BINARY)
    def run_binary(self, _ex: Executor, op: Operation, args: Values) -> Values:
        dtype = numpy_dtype(op.results[0].type)
        return (_evaluate(_BINARY[type(op)], dtype, lanes(args[0]), lanes(args[1]))[()],)

    @impl(math.FmaOp)
    def run_fma(self, _ex: Executor, op: math.FmaOp, args: Values) -> Values:
        operands = (lanes(value) for value in args[:3])
        return (_evaluate(_fma, numpy_dtype(op.result.type), *operands)[()],)

    @impl(math.AbsIOp)
    def run_absi(self, _ex: Executor, op: math.AbsIOp, args: Values) -> Values:
        return (typed(np.abs(np.asarray(args[0])), op.result.type)[()],)

    @impl(math.CountLeadingZerosOp, math.CountTrailingZerosOp, math.CtPopOp)
    def run_bit_count(self, _ex: Executor, op: Operation, args: Values) -> Values:
        type_ = op.results[0].type
        width = integer_width(type_)
        bits = unsigned_view(np.asarray(args[0]), width)
        counter = _BIT_COUNTERS[type(op)]
        return (typed(counter(np.asarray(bits), width), type_)[()],)

    @impl(math.IPowIOp)
    def run_ipowi(self, _ex: Executor, op: math.IPowIOp, args: Values) -> Values:
        base, exponent = np.broadcast_arrays(
            np.asarray(args[0], np.int64), np.asarray(args[1], np.int64)
        )
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
        result = np.where(
            negative,
            np.where(base == 1, 1, np.where(base == -1, np.where(exponent % 2 == 0, 1, -1), 0)),
            result,
        )
        return (typed(result, op.result.type)[()],)

    @impl(math.FPowIOp)
    def run_fpowi(self, _ex: Executor, op: math.FPowIOp, args: Values) -> Values:
        dtype = numpy_dtype(op.result.type)
        return (_evaluate(np.power, dtype, lanes(args[0]), lanes(args[1]))[()],)
