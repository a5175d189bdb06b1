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

from xla_emit.hlo.ir import HloInstruction
from xla_emit.hlo.shape import ArrayShape, PrimitiveType

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


def log1p(z: np.ndarray) -> np.ndarray:
    """log(1 + z) with 1 + z formed part by part: numpy's 1 + (-2 - 0j) is -1 + 0j, which
    puts log1p(-2 - 0j) on the wrong side of the branch cut (XLA's is -pi j)."""
    return np.log(_complex(1 + np.real(z), np.imag(z)))


def _rsqrt(z: np.ndarray) -> np.ndarray:
    return 1 / np.sqrt(z)


_UNARY: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "negate": np.negative,
    "exponential": np.exp,
    "exponential-minus-one": _expm1,
    "log": np.log,
    "log-plus-one": log1p,
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
            # NaN wherever a part is NaN, as XLA's |z| (max * sqrt(1 + (min/max)^2)): C's
            # hypot gives |inf + NaN j| = inf, XLA:CPU prints NaN.
            magnitude = np.where(
                np.isnan(np.real(wide)) | np.isnan(np.imag(wide)), np.nan, np.abs(wide)
            )
            return magnitude.astype(ptype.component_type.dtype)
        if opcode == "sign":
            # Part by part, x / |x| and y / |x| (as MLIR's complex lowering): a complex
            # division would make sign(-4.4 + inf j) NaN + NaN j, not XLA's -0 + NaN j.
            magnitude = np.abs(wide)
            parts = _complex(np.real(wide) / magnitude, np.imag(wide) / magnitude)
            return np.where(magnitude == 0, wide, parts).astype(ptype.dtype)
        return _UNARY[opcode](wide).astype(ptype.dtype)


def binary(opcode: str, a: np.ndarray, b: np.ndarray, ptype: PrimitiveType) -> np.ndarray:
    wide_a, wide_b = a.astype(np.complex128), b.astype(np.complex128)
    with np.errstate(all="ignore"):
        result = _BINARY[opcode](wide_a, wide_b)
    return recover_infinities(opcode, wide_a, wide_b, result).astype(ptype.dtype)


def recover_infinities(opcode: str, x: np.ndarray, y: np.ndarray, result: np.ndarray) -> np.ndarray:
    """`result` of `x / y` where the plain formula gave NaN + NaN j, recomputed as C's Annex G
    says (MLIR's complex lowering, which XLA's emitters use, does so for division; XLA:CPU
    prints (1.5 + 2j) / (nan + inf j) = 0 - 0j): a finite value over an infinite one is
    zero, over zero infinite, an infinite one over a finite one infinite. Products keep the
    plain formula (XLA:CPU's (1.5 + 2j) * (nan + inf j) is NaN + NaN j)."""
    if opcode != "divide":
        return result
    x, y = np.broadcast_arrays(np.asarray(x), np.asarray(y))
    # A zero divisor always takes the rule (MLIR's ratio is 0/0 there): numpy's x / |y|
    # drops the sign of a -0 real part, XLA's (1.5j) / (-0 + 0j) is NaN - inf j.
    lost = (np.isnan(np.real(result)) & np.isnan(np.imag(result))) | (y == 0)
    if not lost.any():
        return result
    result = np.array(result)  # a copy, and an array even for a 0-d numpy scalar
    with np.errstate(all="ignore"):
        result[lost] = _divide_recovered(x[lost], y[lost])  # NaN + NaN j where no rule applies
    return result


def _unit(part: np.ndarray) -> np.ndarray:
    """An infinite part as +-1, any other as +-0 (the sign kept)."""
    return np.copysign(np.isinf(part).astype(np.float64), part)


def _divide_recovered(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    a, b, c, d = np.real(x), np.imag(x), np.real(y), np.imag(y)
    zero_denominator = (c == 0) & (d == 0) & (~np.isnan(a) | ~np.isnan(b))
    infinite_numerator = (np.isinf(a) | np.isinf(b)) & np.isfinite(c) & np.isfinite(d)
    infinite_denominator = (np.isinf(c) | np.isinf(d)) & np.isfinite(a) & np.isfinite(b)
    signed_inf = np.copysign(np.inf, c)
    a1, b1 = _unit(a), _unit(b)
    c1, d1 = _unit(c), _unit(d)
    real = np.select(
        [zero_denominator, infinite_numerator, infinite_denominator],
        [signed_inf * a, np.inf * (a1 * c + b1 * d), 0.0 * (a * c1 + b * d1)],
        np.nan,
    )
    imag = np.select(
        [zero_denominator, infinite_numerator, infinite_denominator],
        [signed_inf * b, np.inf * (b1 * c - a1 * d), 0.0 * (b * c1 - a * d1)],
        np.nan,
    )
    return _complex(real, imag)


def _complex(real: np.ndarray, imag: np.ndarray) -> np.ndarray:
    """complex128 values from their parts, bit for bit (real + 1j * imag would turn an
    infinite imaginary part's real part NaN: 0 * inf)."""
    pairs = np.stack(np.broadcast_arrays(real, imag), axis=-1).astype(np.float64)
    return pairs.view(np.complex128)[..., 0]


def part(opcode: str, operands: list[np.ndarray], result: PrimitiveType) -> np.ndarray:
    """`real`, `imag` or `complex`."""
    if opcode == "complex":
        # Part by part: re + 1j * im would make an infinite im's real part NaN (0 * inf).
        return _complex(operands[0], operands[1]).astype(result.dtype)
    x = operands[0]
    if opcode == "real":
        return np.real(x).astype(result.dtype)
    return np.imag(x).astype(result.dtype) if np.iscomplexobj(x) else np.zeros_like(x)


def folded_operand(instruction: HloInstruction) -> HloInstruction | None:
    """The instruction whose value a complex add or subtract takes unchanged, as MLIR's
    `complex` folders rewrite it in XLA's fusion kernels: `b + (a - b)`, `(a - b) + b` and
    `(a + b) - b` are `a` exactly (a -0 or infinite part kept), not IEEE's rounded sum.
    The emitters' folds (`emitters/complex_ops.fold_complex_op`), on HLO instructions."""
    shape = instruction.shape
    if not (isinstance(shape, ArrayShape) and shape.element_type.is_complex):
        return None
    opcode, operands = instruction.opcode, instruction.operands
    if len(operands) != 2:
        return None
    lhs, rhs = operands
    if opcode == "add":
        for sub, other in ((lhs, rhs), (rhs, lhs)):
            if sub.opcode == "subtract" and sub.operands[1] is other:
                return sub.operands[0]
    if opcode == "subtract" and lhs.opcode == "add" and lhs.operands[1] is rhs:
        return lhs.operands[0]
    return None
