"""`convert-complex-to-standard`: complex arithmetic as `arith` and `math` on the parts.

MLIR's pass of that name, which XLA's emitter pipeline runs right after
`xla-lower-tensors`. Every `complex` op but `create`, `re` and `im` (which
`xla-lower-to-llvm` makes struct operations, as MLIR's ComplexToLLVM does)
becomes ops on the real and imaginary parts, each rounded to the element type:

* `add`, `sub`, `neg`, `conj`: part by part;
* `mul`: the plain formula (ac - bd) + (ad + bc)i, no recovery of infinities;
* `div`: Smith's range reduction (divide by the larger part of the divisor), and
  where both parts come out NaN, C's Annex G recovery: a zero divisor gives
  infinities signed by the divisor's real part, an infinite dividend over a
  finite divisor infinities, a finite dividend over an infinite divisor zeros;
* `abs`: max * sqrt(1 + (min / max)^2), min where that is NaN (0/0, inf/inf);
* `eq`: both parts `oeq`; `neq`: either part `une`;
* `sign`: re / |z|, im / |z|, z itself where z is 0;
* `exp`: e^re cos(im), e^re sin(im); `log`: log |z|, atan2(im, re);
* `sqrt`: sqrt|z| cos(arg/2), sqrt|z| sin(arg/2), `rsqrt`: |z|^-1/2 cos(-arg/2),
  |z|^-1/2 sin(-arg/2), with MLIR's cases for infinite parts and zero;
* `sin`, `cos`: through 0.5 e^im and 0.5 / e^im; `tanh` through expm1(+-2 re),
  cos and sin of im (`tan` z = -i tanh(iz));
* `expm1`: expm1(re) cos(im) + cosm1(im) (cosm1 a polynomial near 0, Cephes'), and
  `log1p`: log1p of the larger part of 1 + z less one, plus half log1p((min/max)^2);
* `pow`: |z|^c e^(-d arg z) (cos q + i sin q), q = c arg z + d log|z| for an exponent
  c + di, with MLIR's cases for 0, 1 and inf;
* `constant`: a `create` of its two parts.

The parts of a `create` are read off its operands, so chains of complex ops
leave no `re`/`im` between them. Any other complex op (atan2, angle, bitcast) is
an error at the op.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, math
from xdsl.dialects import complex as cplx
from xdsl.dialects.builtin import ComplexType, FloatAttr, IntegerAttr, ModuleOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xla_emit.passes.diagnostics import OpError

Parts = tuple[SSAValue, SSAValue]


@dataclass(frozen=True)
class ConvertComplexToStandardPass(ModulePass):
    """Complex arithmetic as `arith`/`math` ops on the real and imaginary parts (MLIR's
    ComplexToStandard: plain multiplication, Smith's division with Annex G's infinities).

    `complex.create`, `re` and `im` stay for `xla-lower-to-llvm`. No options."""

    name = "convert-complex-to-standard"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in list(op.walk()):
            if type(inner) in _RULES:
                expand(inner)
            elif isinstance(inner, UNLOWERED):
                raise OpError(inner, f"convert-complex-to-standard: '{inner.name}' is not lowered")
        for inner in reversed(list(op.walk())):
            if isinstance(inner, cplx.CreateOp | cplx.ReOp | cplx.ImOp) and not any(
                r.uses for r in inner.results
            ):
                Rewriter.erase_op(inner)


class _Builder:
    """Float ops inserted before one complex op, on values of its element type."""

    def __init__(self, anchor: Operation, element: Attribute) -> None:
        self.anchor = anchor
        self.element = element

    def put(self, op: Operation) -> SSAValue:
        Rewriter.insert_op(op, InsertPoint.before(self.anchor))
        return op.results[0]

    def const(self, value: float) -> SSAValue:
        return self.put(arith.ConstantOp(FloatAttr(value, self.element)))  # type: ignore[arg-type]

    def parts(self, z: SSAValue) -> Parts:
        """The real and imaginary parts of `z` (a `create`'s own operands)."""
        owner = z.owner
        if isinstance(owner, cplx.CreateOp):
            return owner.real, owner.imaginary
        return self.put(cplx.ReOp(z)), self.put(cplx.ImOp(z))

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.put(arith.AddfOp(a, b))

    def sub(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.put(arith.SubfOp(a, b))

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.put(arith.MulfOp(a, b))

    def div(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.put(arith.DivfOp(a, b))

    def neg(self, a: SSAValue) -> SSAValue:
        return self.put(arith.NegfOp(a))

    def fabs(self, a: SSAValue) -> SSAValue:
        return self.put(math.AbsFOp(a))

    def cmp(self, predicate: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.put(arith.CmpfOp(a, b, predicate))

    def both(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.put(arith.AndIOp(a, b))

    def either(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.put(arith.OrIOp(a, b))

    def select(self, cond: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.put(arith.SelectOp(cond, a, b))

    def is_nan(self, a: SSAValue) -> SSAValue:
        return self.cmp("uno", a, a)

    def call(self, op_class: Callable[..., Operation], *args: SSAValue) -> SSAValue:
        return self.put(op_class(*args))


def expand(op: Operation) -> None:
    """Replace `op` by float ops on the parts (and a `create` where it is complex)."""
    z_type = op.operands[0].type if op.operands else op.results[0].type
    if not isinstance(z_type, ComplexType):
        raise OpError(op, f"convert-complex-to-standard: '{op.name}' has no complex operand")
    b = _Builder(op, z_type.element_type)
    result = _RULES[type(op)](b, op)
    if isinstance(result, tuple):
        real, imaginary = result
        created = b.put(cplx.CreateOp(real, imaginary, op.results[0].type))  # type: ignore[arg-type]
        op.results[0].replace_all_uses_with(created)
    else:
        op.results[0].replace_all_uses_with(result)
    Rewriter.erase_op(op)


def _binary(b: _Builder, op: Operation) -> tuple[Parts, Parts]:
    return b.parts(op.operands[0]), b.parts(op.operands[1])


def _add(b: _Builder, op: Operation) -> Parts:
    (x, y), (u, v) = _binary(b, op)
    return b.add(x, u), b.add(y, v)


def _sub(b: _Builder, op: Operation) -> Parts:
    (x, y), (u, v) = _binary(b, op)
    return b.sub(x, u), b.sub(y, v)


def _mul(b: _Builder, op: Operation) -> Parts:
    (x, y), (u, v) = _binary(b, op)
    return b.sub(b.mul(x, u), b.mul(y, v)), b.add(b.mul(y, u), b.mul(x, v))


def _div(b: _Builder, op: Operation) -> Parts:
    (x, y), (u, v) = _binary(b, op)
    return divide(b, x, y, u, v)


def divide(b: _Builder, x: SSAValue, y: SSAValue, u: SSAValue, v: SSAValue) -> Parts:
    """(x + yi) / (u + vi) by Smith's method, then Annex G where both parts are NaN."""
    # |u| < |v|: divide through by v (ratio u/v), else by u (ratio v/u).
    ratio_by_v = b.div(u, v)
    scale_by_v = b.add(v, b.mul(ratio_by_v, u))
    real_by_v = b.div(b.add(b.mul(x, ratio_by_v), y), scale_by_v)
    imag_by_v = b.div(b.sub(b.mul(y, ratio_by_v), x), scale_by_v)
    ratio_by_u = b.div(v, u)
    scale_by_u = b.add(u, b.mul(ratio_by_u, v))
    real_by_u = b.div(b.add(x, b.mul(y, ratio_by_u)), scale_by_u)
    imag_by_u = b.div(b.sub(y, b.mul(x, ratio_by_u)), scale_by_u)
    abs_u, abs_v = b.fabs(u), b.fabs(v)
    by_v = b.cmp("olt", abs_u, abs_v)
    real = b.select(by_v, real_by_v, real_by_u)
    imag = b.select(by_v, imag_by_v, imag_by_u)

    zero, one, inf = b.const(0.0), b.const(1.0), b.const(float("inf"))
    abs_x, abs_y = b.fabs(x), b.fabs(y)
    # A zero divisor and a dividend with a number in it: infinities signed by u.
    zero_divisor = b.both(b.cmp("oeq", abs_u, zero), b.cmp("oeq", abs_v, zero))
    some_number = b.either(b.cmp("ord", x, zero), b.cmp("ord", y, zero))
    to_infinity = b.both(zero_divisor, some_number)
    signed_inf = b.call(math.CopySignOp, inf, u)
    real_zero_divisor, imag_zero_divisor = b.mul(signed_inf, x), b.mul(signed_inf, y)
    # An infinite dividend over a finite divisor: infinite, in the direction of the
    # dividend's infinite parts (as +-1) times the divisor.
    x_inf, y_inf = b.cmp("oeq", abs_x, inf), b.cmp("oeq", abs_y, inf)
    u_finite, v_finite = b.cmp("one", abs_u, inf), b.cmp("one", abs_v, inf)
    inf_over_finite = b.both(b.either(x_inf, y_inf), b.both(u_finite, v_finite))
    x1 = b.call(math.CopySignOp, b.select(x_inf, one, zero), x)
    y1 = b.call(math.CopySignOp, b.select(y_inf, one, zero), y)
    real_inf_dividend = b.mul(inf, b.add(b.mul(x1, u), b.mul(y1, v)))
    imag_inf_dividend = b.mul(inf, b.sub(b.mul(y1, u), b.mul(x1, v)))
    # A finite dividend over an infinite divisor: zero, signed likewise.
    x_finite, y_finite = b.cmp("one", abs_x, inf), b.cmp("one", abs_y, inf)
    u_inf, v_inf = b.cmp("oeq", abs_u, inf), b.cmp("oeq", abs_v, inf)
    finite_over_inf = b.both(b.both(x_finite, y_finite), b.either(u_inf, v_inf))
    u1 = b.call(math.CopySignOp, b.select(u_inf, one, zero), u)
    v1 = b.call(math.CopySignOp, b.select(v_inf, one, zero), v)
    real_inf_divisor = b.mul(zero, b.add(b.mul(x, u1), b.mul(y, v1)))
    imag_inf_divisor = b.mul(zero, b.sub(b.mul(y, u1), b.mul(x, v1)))

    recovered_real = b.select(finite_over_inf, real_inf_divisor, real)
    recovered_imag = b.select(finite_over_inf, imag_inf_divisor, imag)
    recovered_real = b.select(inf_over_finite, real_inf_dividend, recovered_real)
    recovered_imag = b.select(inf_over_finite, imag_inf_dividend, recovered_imag)
    recovered_real = b.select(to_infinity, real_zero_divisor, recovered_real)
    recovered_imag = b.select(to_infinity, imag_zero_divisor, recovered_imag)
    lost = b.both(b.is_nan(real), b.is_nan(imag))
    return b.select(lost, recovered_real, real), b.select(lost, recovered_imag, imag)


def _neg(b: _Builder, op: Operation) -> Parts:
    x, y = b.parts(op.operands[0])
    return b.neg(x), b.neg(y)


def _conj(b: _Builder, op: Operation) -> Parts:
    x, y = b.parts(op.operands[0])
    return x, b.neg(y)


def magnitude(b: _Builder, x: SSAValue, y: SSAValue) -> SSAValue:
    """|x + yi| = max * sqrt(1 + (min/max)^2); min where that is NaN (both 0, both inf,
    or a NaN part: maximumf and minimumf propagate NaN)."""
    abs_x, abs_y = b.fabs(x), b.fabs(y)
    larger = b.put(arith.MaximumfOp(abs_x, abs_y))
    smaller = b.put(arith.MinimumfOp(abs_x, abs_y))
    ratio = b.div(smaller, larger)
    root = b.call(math.SqrtOp, b.add(b.mul(ratio, ratio), b.const(1.0)))
    result = b.mul(larger, root)
    return b.select(b.is_nan(result), smaller, result)


def _abs(b: _Builder, op: Operation) -> SSAValue:
    return magnitude(b, *b.parts(op.operands[0]))


def _compare(predicate: str, combine: str) -> Callable[[_Builder, Operation], SSAValue]:
    def rule(b: _Builder, op: Operation) -> SSAValue:
        (x, y), (u, v) = _binary(b, op)
        real, imag = b.cmp(predicate, x, u), b.cmp(predicate, y, v)
        return b.both(real, imag) if combine == "and" else b.either(real, imag)

    return rule


def _sign(b: _Builder, op: Operation) -> Parts:
    x, y = b.parts(op.operands[0])
    zero = b.const(0.0)
    is_zero = b.both(b.cmp("oeq", x, zero), b.cmp("oeq", y, zero))
    size = magnitude(b, x, y)
    return b.select(is_zero, x, b.div(x, size)), b.select(is_zero, y, b.div(y, size))


def _exp(b: _Builder, op: Operation) -> Parts:
    x, y = b.parts(op.operands[0])
    scale = b.call(math.ExpOp, x)
    return b.mul(scale, b.call(math.CosOp, y)), b.mul(scale, b.call(math.SinOp, y))


def _log(b: _Builder, op: Operation) -> Parts:
    x, y = b.parts(op.operands[0])
    return b.call(math.LogOp, magnitude(b, x, y)), b.call(math.Atan2Op, y, x)


def _sqrt(b: _Builder, op: Operation) -> Parts:
    x, y = b.parts(op.operands[0])
    zero, half, quarter = b.const(0.0), b.const(0.5), b.const(0.25)
    inf, nan = b.const(float("inf")), b.const(float("nan"))
    # sqrt|z| = sqrt(max) * (1 + (min/max)^2)^(1/4), min's root where that is NaN.
    abs_x, abs_y = b.fabs(x), b.fabs(y)
    larger = b.put(arith.MaximumfOp(abs_x, abs_y))
    smaller = b.put(arith.MinimumfOp(abs_x, abs_y))
    ratio = b.div(smaller, larger)
    spread = b.call(math.PowFOp, b.add(b.mul(ratio, ratio), b.const(1.0)), quarter)
    root = b.mul(b.call(math.SqrtOp, larger), spread)
    root = b.select(b.is_nan(root), smaller, root)
    half_angle = b.mul(b.call(math.Atan2Op, y, x), half)
    cos, sin = b.call(math.CosOp, half_angle), b.call(math.SinOp, half_angle)
    real = b.mul(root, cos)
    # sin(atan2(0, inf)) is 0 and sqrt|inf| inf: 0 rather than their NaN product.
    imag = b.select(b.cmp("oeq", sin, zero), zero, b.mul(root, sin))
    imag_inf = b.cmp("oeq", abs_y, inf)
    x_pos_inf = b.cmp("oeq", x, inf)
    x_neg_inf = b.cmp("oeq", x, b.const(float("-inf")))
    real = b.select(b.both(x_neg_inf, b.cmp("one", abs_y, inf)), zero, real)
    real = b.select(b.either(imag_inf, x_pos_inf), inf, real)
    imag = b.select(b.is_nan(root), nan, imag)
    imag = b.select(b.either(imag_inf, x_neg_inf), b.call(math.CopySignOp, inf, y), imag)
    is_zero = b.cmp("oeq", root, zero)
    return b.select(is_zero, zero, real), b.select(is_zero, zero, imag)


def _trigonometric(b: _Builder, op: Operation) -> Parts:
    """sin and cos of x + yi from t = e^y: 0.5 t and 0.5 / t with sin x and cos x."""
    x, y = b.parts(op.operands[0])
    half = b.const(0.5)
    grow = b.call(math.ExpOp, y)
    scaled, reciprocal = b.mul(half, grow), b.div(half, grow)
    sin, cos = b.call(math.SinOp, x), b.call(math.CosOp, x)
    if isinstance(op, cplx.SinOp):
        return b.mul(b.add(scaled, reciprocal), sin), b.mul(b.sub(scaled, reciprocal), cos)
    return b.mul(b.add(reciprocal, scaled), cos), b.mul(b.sub(reciprocal, scaled), sin)


def _rsqrt(b: _Builder, op: Operation) -> Parts:
    x, y = b.parts(op.operands[0])
    zero, inf, nan = b.const(0.0), b.const(float("inf")), b.const(float("nan"))
    # |z|^-1/2 = rsqrt(max) * sqrt(rsqrt(1 + (min/max)^2)), rsqrt(min) where that is NaN.
    abs_x, abs_y = b.fabs(x), b.fabs(y)
    larger = b.put(arith.MaximumfOp(abs_x, abs_y))
    smaller = b.put(arith.MinimumfOp(abs_x, abs_y))
    ratio = b.div(smaller, larger)
    spread = b.call(math.RsqrtOp, b.add(b.mul(ratio, ratio), b.const(1.0)))
    root = b.mul(b.call(math.RsqrtOp, larger), b.call(math.SqrtOp, spread))
    root = b.select(b.is_nan(root), b.call(math.RsqrtOp, smaller), root)
    angle = b.mul(b.call(math.Atan2Op, y, x), b.const(-0.5))
    real = b.mul(root, b.call(math.CosOp, angle))
    imag = b.mul(root, b.call(math.SinOp, angle))
    # An infinite real part, or NaN + inf i: zero, signed by the parts (the imaginary
    # part's sign flipped).
    x_signed_zero = b.call(math.CopySignOp, zero, x)
    y_signed_zero = b.mul(b.const(-1.0), b.call(math.CopySignOp, zero, y))
    to_zero = b.either(b.both(b.cmp("oeq", abs_y, inf), b.is_nan(x)), b.cmp("oeq", abs_x, inf))
    real, imag = b.select(to_zero, x_signed_zero, real), b.select(to_zero, y_signed_zero, imag)
    is_zero = b.both(b.cmp("oeq", x, zero), b.cmp("oeq", y, zero))
    return b.select(is_zero, inf, real), b.select(is_zero, nan, imag)


def _tanh_of(b: _Builder, x: SSAValue, y: SSAValue) -> Parts:
    """tanh(x + yi) = (e^2x - e^-2x + 4 cos y sin y i) / (e^2x + e^-2x - 2 + 4 cos^2 y),
    the exponentials as expm1 (their sum less two), +-1 where that sum overflows."""
    minus_one, four = b.const(-1.0), b.const(4.0)
    zero, inf, nan = b.const(0.0), b.const(float("inf")), b.const(float("nan"))
    twice = b.add(x, x)
    up = b.call(math.ExpM1Op, twice)
    down = b.call(math.ExpM1Op, b.mul(minus_one, twice))
    cos, sin = b.call(math.CosOp, y), b.call(math.SinOp, y)
    real_numerator = b.sub(up, down)
    imag_numerator = b.mul(four, b.mul(cos, sin))
    sum_less_two = b.add(up, down)
    denominator = b.add(sum_less_two, b.mul(b.mul(cos, cos), four))
    limit = b.call(math.CopySignOp, minus_one, x)
    real = b.select(b.cmp("oeq", sum_less_two, inf), limit, b.div(real_numerator, denominator))
    imag = b.div(imag_numerator, denominator)
    x_inf = b.cmp("oeq", b.fabs(x), inf)
    x_not_inf = b.cmp("une", b.fabs(x), inf)
    imag_nan = b.is_nan(imag_numerator)
    real = b.select(b.both(imag_nan, x_not_inf), nan, real)
    imag_zero = b.either(b.cmp("oeq", y, zero), b.both(x_inf, imag_nan))
    return real, b.select(imag_zero, zero, imag)


def _tanh(b: _Builder, op: Operation) -> Parts:
    return _tanh_of(b, *b.parts(op.operands[0]))


def _tan(b: _Builder, op: Operation) -> Parts:
    """tan z = -i tanh(iz): tanh of -y + xi, its parts swapped and the new imaginary
    part negated."""
    x, y = b.parts(op.operands[0])
    minus_one = b.const(-1.0)
    real, imag = _tanh_of(b, b.mul(y, minus_one), x)
    return imag, b.mul(real, minus_one)


# cos(x) - 1 for x^2 < (pi/4)^2: -x^2/2 + x^4 P(x^2) (Cephes' cosm1), highest power first.
_COSM1 = (
    4.7377507964246204691685e-14,
    -1.1470284843425359765671e-11,
    2.0876754287081521758361e-9,
    -2.7557319214999787979814e-7,
    2.4801587301570552304991e-5,
    -1.3888888888888872993737e-3,
    4.1666666666666666609054e-2,
)


def _cosm1(b: _Builder, y: SSAValue) -> SSAValue:
    square = b.mul(y, y)
    polynomial = b.const(_COSM1[0])
    for coefficient in _COSM1[1:]:
        polynomial = b.put(math.FmaOp(polynomial, square, b.const(coefficient)))
    small = b.add(b.mul(b.mul(square, square), polynomial), b.mul(b.const(-0.5), square))
    large = b.add(b.call(math.CosOp, y), b.const(-1.0))
    return b.select(b.cmp("oge", square, b.const(0.61685)), large, small)


def _expm1(b: _Builder, op: Operation) -> Parts:
    x, y = b.parts(op.operands[0])
    zero, one = b.const(0.0), b.const(1.0)
    grow = b.call(math.ExpM1Op, x)
    cos_less_one = _cosm1(b, y)
    real = b.add(b.mul(grow, b.add(cos_less_one, one)), cos_less_one)
    imag = b.mul(b.add(grow, one), b.call(math.SinOp, y))
    return real, b.select(b.cmp("oeq", y, zero), zero, imag)


def _log1p(b: _Builder, op: Operation) -> Parts:
    x, y = b.parts(op.operands[0])
    one = b.const(1.0)
    shifted = b.add(x, one)
    abs_shifted, abs_y = b.fabs(shifted), b.fabs(y)
    larger = b.put(arith.MaximumfOp(abs_shifted, abs_y))
    smaller = b.put(arith.MinimumfOp(abs_shifted, abs_y))
    # log1p(larger - 1), the real part itself where 1 + x is the larger.
    larger_less_one = b.select(b.cmp("ogt", shifted, abs_y), x, b.sub(larger, one))
    ratio = b.div(smaller, larger)
    real = b.add(
        b.mul(b.const(0.5), b.call(math.Log1pOp, b.mul(ratio, ratio))),
        b.call(math.Log1pOp, larger_less_one),
    )
    real = b.select(b.is_nan(real), smaller, real)
    return real, b.call(math.Atan2Op, y, shifted)


def _pow(b: _Builder, op: Operation) -> Parts:
    (x, y), (c, d) = _binary(b, op)
    zero, one, inf = b.const(0.0), b.const(1.0), b.const(float("inf"))
    size = magnitude(b, x, y)
    angle = b.call(math.Atan2Op, y, x)
    scale = b.mul(b.call(math.PowFOp, size, c), b.call(math.ExpOp, b.mul(b.neg(d), angle)))
    turn = b.add(b.mul(c, angle), b.mul(d, b.call(math.LogOp, size)))
    real = b.mul(scale, b.call(math.CosOp, turn))
    imag = b.mul(scale, b.call(math.SinOp, turn))
    c_zero, d_zero = b.cmp("oeq", c, zero), b.cmp("oeq", d, zero)
    y_zero = b.cmp("oeq", y, zero)

    def pick(cond: SSAValue, re: SSAValue, im: SSAValue) -> None:
        nonlocal real, imag
        real, imag = b.select(cond, re, real), b.select(cond, im, imag)

    # 0^(c + 0i) is 0 for c > 0 and 1 for c = 0 (Kahan); z^0 = 1; 1^w = 1;
    # inf^(c + 0i) is inf for c > 0 and 0 for c < 0.
    zero_base = b.both(b.both(b.cmp("oeq", size, zero), d_zero), b.cmp("ole", zero, c))
    pick(zero_base, b.select(c_zero, one, zero), zero)
    pick(b.both(c_zero, d_zero), one, zero)
    pick(b.both(b.cmp("oeq", x, one), y_zero), one, zero)
    inf_base = b.both(b.cmp("oeq", x, inf), y_zero)
    pick(b.both(inf_base, b.both(d_zero, b.cmp("ogt", c, zero))), inf, zero)
    pick(b.both(inf_base, b.both(d_zero, b.cmp("olt", c, zero))), zero, zero)
    return real, imag


def _constant(b: _Builder, op: Operation) -> Parts:
    assert isinstance(op, cplx.ConstantOp)
    real, imag = op.value.data
    if not isinstance(real, FloatAttr | IntegerAttr) or not isinstance(
        imag, FloatAttr | IntegerAttr
    ):
        raise OpError(op, "convert-complex-to-standard: a constant's parts must be numbers")
    return b.const(float(real.value.data)), b.const(float(imag.value.data))


_RULES: dict[type[Operation], Callable[[_Builder, Operation], Parts | SSAValue]] = {
    cplx.AddOp: _add,
    cplx.SubOp: _sub,
    cplx.MulOp: _mul,
    cplx.DivOp: _div,
    cplx.NegOp: _neg,
    cplx.ConjOp: _conj,
    cplx.AbsOp: _abs,
    cplx.EqualOp: _compare("oeq", "and"),
    cplx.NotEqualOp: _compare("une", "or"),
    cplx.SignOp: _sign,
    cplx.ExpOp: _exp,
    cplx.LogOp: _log,
    cplx.SqrtOp: _sqrt,
    cplx.SinOp: _trigonometric,
    cplx.CosOp: _trigonometric,
    cplx.RsqrtOp: _rsqrt,
    cplx.TanhOp: _tanh,
    cplx.TanOp: _tan,
    cplx.Expm1Op: _expm1,
    cplx.Log1pOp: _log1p,
    cplx.PowOp: _pow,
    cplx.ConstantOp: _constant,
}

# Complex ops this pass leaves (an error here, so the op is named, not a later pass's).
UNLOWERED = (cplx.AngleOp, cplx.Atan2Op, cplx.BitcastOp)
