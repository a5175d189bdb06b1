"""complex: complex<f32> and complex<f64> lanes as numpy complex64 and complex128.

What XLA's emitters write for HLO's complex ops (`complex.add`, `complex.mul`,
`complex.re`, `complex.create`, `complex.exp`, ...). Functions are evaluated
in complex128 and rounded once to the op's type, as the reference evaluator
does, so results are comparable bit for bit where the evaluator's are.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.dialects import complex as cplx
from xdsl.ir import Operation

from xla_emit.hlo.complex_ops import log1p, recover_infinities
from xla_emit.interpreter.element_types import numpy_dtype
from xla_emit.interpreter.executor import Array, Executor, Values, lanes
from xla_emit.interpreter.registry import OpImpls, impl, register_impls

_UNARY: dict[type[Operation], Callable[[Array], Array]] = {
    cplx.NegOp: np.negative,
    cplx.ExpOp: np.exp,
    cplx.Expm1Op: lambda z: np.exp(z) - 1,
    cplx.LogOp: np.log,
    cplx.Log1pOp: log1p,
    cplx.SqrtOp: np.sqrt,
    cplx.RsqrtOp: lambda z: 1 / np.sqrt(z),
    cplx.TanhOp: np.tanh,
    cplx.SinOp: np.sin,
    cplx.CosOp: np.cos,
    cplx.TanOp: np.tan,
    cplx.ConjOp: np.conj,
    cplx.SignOp: lambda z: _sign(z),
}


def _abs(z: Array) -> Array:
    """complex.abs as MLIR lowers it (max * sqrt(1 + (min/max)^2)): NaN wherever a part is
    NaN (numpy's hypot makes |inf + NaN j| inf; XLA:CPU prints NaN)."""
    return np.where(np.isnan(np.real(z)) | np.isnan(np.imag(z)), np.nan, np.abs(z))


def _sign(z: Array) -> Array:
    """complex.sign as MLIR lowers it: re / |z| and im / |z| part by part (a complex division
    would make sign(-4.4 + inf j) NaN + NaN j, not -0 + NaN j), z where z is 0."""
    magnitude = np.abs(z)
    parts = np.empty(np.shape(z), np.complex128)
    parts.real, parts.imag = np.real(z) / magnitude, np.imag(z) / magnitude
    return np.where(z == 0, z, parts)


_BINARY: dict[type[Operation], Callable[[Array, Array], Array]] = {
    cplx.AddOp: np.add,
    cplx.SubOp: np.subtract,
    cplx.MulOp: np.multiply,
    cplx.DivOp: np.divide,
    cplx.PowOp: np.power,
}
_PARTS: dict[type[Operation], Callable[[Array], Array]] = {
    cplx.ReOp: np.real,
    cplx.ImOp: np.imag,
    cplx.AbsOp: lambda z: _abs(z),
}


def _wide(value: object) -> Array:
    return np.asarray(lanes(value)).astype(np.complex128)  # type: ignore[arg-type]


@register_impls
class ComplexImpls(OpImpls):
    """complex ops over lanes."""

    @impl(*_UNARY)
    def run_unary(self, _ex: Executor, op: Operation, args: Values) -> Values:
        with np.errstate(all="ignore"):
            result = _UNARY[type(op)](_wide(args[0]))
        return (result.astype(numpy_dtype(op.results[0].type)),)

    @impl(*_BINARY)
    def run_binary(self, _ex: Executor, op: Operation, args: Values) -> Values:
        x, y = _wide(args[0]), _wide(args[1])
        with np.errstate(all="ignore"):
            result = _BINARY[type(op)](x, y)
        # complex.div lowers (ComplexToStandard) with Annex G's recovery of infinities.
        if isinstance(op, cplx.DivOp):
            result = recover_infinities("divide", x, y, result)
        return (result.astype(numpy_dtype(op.results[0].type)),)

    @impl(*_PARTS)
    def run_part(self, _ex: Executor, op: Operation, args: Values) -> Values:
        result = _PARTS[type(op)](_wide(args[0]))
        return (np.asarray(result).astype(numpy_dtype(op.results[0].type)),)

    @impl(cplx.CreateOp)
    def run_create(self, _ex: Executor, op: cplx.CreateOp, args: Values) -> Values:
        real, imaginary = np.asarray(lanes(args[0])), np.asarray(lanes(args[1]))
        value = np.empty(
            np.broadcast_shapes(real.shape, imaginary.shape), numpy_dtype(op.complex.type)
        )
        # Part by part: real + 1j * imaginary would make an infinite imaginary part's real
        # part NaN (1j * inf is nan + inf j).
        value.real, value.imag = real, imaginary
        return (value,)

    @impl(cplx.EqualOp)
    def run_equal(self, _ex: Executor, _op: cplx.EqualOp, args: Values) -> Values:
        return (np.asarray(lanes(args[0]) == lanes(args[1])),)

    @impl(cplx.NotEqualOp)
    def run_not_equal(self, _ex: Executor, _op: cplx.NotEqualOp, args: Values) -> Values:
        return (np.asarray(lanes(args[0]) != lanes(args[1])),)
