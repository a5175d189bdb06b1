"""Complex numbers (c64, c128) in HLO: which ops take them, their shapes, their meaning.

XLA defines the arithmetic ops, the transcendental ones that have a complex
meaning (exp, log, sqrt, tanh, sin, ...), `abs` (to the real component type),
`sign` (x / |x|), `compare` EQ/NE, and the three ops that cross between real
and complex: `real`, `imag` (either may take a real operand: real(x) = x,
imag(x) = 0) and `complex(re, im)`. The evaluator computes complex values in
complex128 and rounds once to the result type.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from xla_emit.hlo.shape import PrimitiveType

COMPLEX_UNARY_OPS: frozenset[str] = frozenset(
    {
        "abs", "negate", "sign", "copy", "exponential", "exponential-minus-one", "log",
        "log-plus-one", "sqrt", "rsqrt", "tanh", "sine", "cosine", "tan",
    }
)  # fmt: skip
COMPLEX_BINARY_OPS: frozenset[str] = frozenset({"add", "subtract", "multiply", "divide", "power"})
COMPLEX_DIRECTIONS: frozenset[str] = frozenset({"EQ", "NE"})
# Ops whose complex results are not correctly rounded in XLA: it computes them in the
# component type by formulas (a*c - b*d, hypot, ...) each step rounded, where the evaluator
# computes in complex128 and rounds once. Only add, subtract, negate and the parts are exact.
APPROXIMATED_COMPLEX_OPS: frozenset[str] = (COMPLEX_UNARY_OPS - {"negate", "copy"}) | {
    "multiply", "divide", "power",
}  # fmt: skip
# Elementwise ops between real and complex types.
COMPLEX_PART_OPS: frozenset[str] = frozenset({"real", "imag", "complex"})

COMPLEX_OF: dict[PrimitiveType, PrimitiveType] = {
    PrimitiveType.F32: PrimitiveType.C64,
    PrimitiveType.F64: PrimitiveType.C128,
}


def _expm1(z: np.ndarray) -> np.ndarray:
    return np.exp(z) - 1


def _log1p(z: np.ndarray) -> np.ndarray:
    return np.log(1 + z)


def _rsqrt(z: np.ndarray) -> np.ndarray:
    return 1 / np.sqrt(z)


_UNARY: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "negate": np.negative,
    "exponential": np.exp,
    "exponential-minus-one": _expm1,
    "log": np.log,
    "log-plus-one": _log1p,
    "sqrt": np.sqrt,
    "rsqrt": _rsqrt,
    "tanh": np.tanh,
    "sine": np.sin,
    "cosine": np.cos,
    "tan": np.tan,
}
_BINARY: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "add": np.add,
    "subtract": np.subtract,
    "multiply": np.multiply,
    "divide": np.divide,
    "power": np.power,
}


def unary(opcode: str, x: np.ndarray, ptype: PrimitiveType) -> np.ndarray:
    """A unary op on complex `x`; `abs` gives the component type."""
    wide = x.astype(np.complex128)
    with np.errstate(all="ignore"):
        if opcode == "copy":
            return x
        if opcode == "abs":
            return np.abs(wide).astype(ptype.component_type.dtype)
        if opcode == "sign":
            magnitude = np.abs(wide)
            return np.where(magnitude == 0, wide, wide / magnitude).astype(ptype.dtype)
        return _UNARY[opcode](wide).astype(ptype.dtype)


def binary(opcode: str, a: np.ndarray, b: np.ndarray, ptype: PrimitiveType) -> np.ndarray:
    with np.errstate(all="ignore"):
        return _BINARY[opcode](a.astype(np.complex128), b.astype(np.complex128)).astype(ptype.dtype)


def part(opcode: str, operands: list[np.ndarray], result: PrimitiveType) -> np.ndarray:
    """`real`, `imag` or `complex`."""
    if opcode == "complex":
        value = np.empty(np.broadcast_shapes(*(o.shape for o in operands)), result.dtype)
        # Set part by part: re + 1j * im would make an infinite im's real part NaN (0 * inf).
        value.real, value.imag = operands
        return value
    x = operands[0]
    if opcode == "real":
        return np.real(x).astype(result.dtype)
    return np.imag(x).astype(result.dtype) if np.iscomplexobj(x) else np.zeros_like(x)
