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
* `sqrt`: sqrt|z| cos(arg/2), sqrt|z| sin(arg/2) with MLIR's cases for
  infinite parts and zero; `sin`, `cos`: through 0.5 e^im and 0.5 / e^im;
* `constant`: a `create` of its two parts.

The parts of a `create` are read off its operands, so chains of complex ops
leave no `re`/`im` between them. Any other complex op (tanh, pow, ...) is an
error at the op.
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
    cplx.ConstantOp: _constant,
}

# Complex ops this pass leaves (an error here, so the op is named, not a later pass's).
UNLOWERED = (
    cplx.Expm1Op, cplx.Log1pOp, cplx.RsqrtOp, cplx.TanhOp, cplx.TanOp, cplx.PowOp,
    cplx.AngleOp, cplx.Atan2Op, cplx.BitcastOp,
)  # fmt: skip
