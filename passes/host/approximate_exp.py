"""`xla-host-approximate-exp`: f32 `math.exp` as inline arithmetic, for the host.

The C library's `expf` is a call per element that keeps LLVM's loop vectorizer
off the thread loop (softmax's exp kernel ran at about 2 ns an element). XLA's
CPU backend computes exp inline as well (a range reduction and a polynomial).
This pass writes it in `arith` and `math` ops before `xla-lower-to-llvm`:

* range reduction: n = floor(x / ln 2 + 1/2), r = x - n ln 2, with ln 2 split
  into a part whose product with n is exact and a small correction (Cody and
  Waite), so |r| <= ln 2 / 2 up to rounding;
* exp(r) = 1 + r + r^2 P(r), P a degree-5 polynomial (Horner's rule in fused
  multiply-adds, one rounding a step: Cephes' single-precision coefficients),
  the CPU's FMA instructions (softmax's exp kernel: 29 us, 34 with a multiply
  then an add);
* times 2^n as two powers of two 2^(n/2) and 2^(n - n/2), each built from its
  exponent bits, so results near overflow and in the subnormal range need no
  special case;
* x is clamped to [-104, 88.75] first (below, exp rounds to 0; above, to inf),
  and NaN is passed through.

16-bit floats go through f32 and back, as XLA computes them. Against numpy's
exp (correctly rounded in f64, then rounded to f32) the results differ by at
most 1 f32 ulp, subnormal results included (a sweep of the whole range and random
inputs: `tests/runtime/test_native_exp.py`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import ModuleOp, f32, i32
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xla_emit.passes.host.f32_approximation import OpList, replace_with_f32_approximation

# exp(x) rounds to 0 in f32 below LOWEST and to inf above HIGHEST.
LOWEST = -104.0
HIGHEST = 88.75
LOG2_E = 1.44269504088896341
# ln 2 = LN2_HIGH + LN2_LOW; LN2_HIGH has 9 significant bits, so n * LN2_HIGH is exact
# for |n| < 2^15.
LN2_HIGH = 0.693359375
LN2_LOW = -2.12194440e-4
# P(r), highest power first: exp(r) ~ 1 + r + r^2 P(r) on [-ln 2 / 2, ln 2 / 2].
POLYNOMIAL = (
    1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2,
    1.6666665459e-1, 5.0000001201e-1,
)  # fmt: skip
EXPONENT_BIAS = 127
MANTISSA_BITS = 23


@dataclass(frozen=True)
class HostApproximateExpPass(ModulePass):
    name = "xla-host-approximate-exp"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        replace_with_f32_approximation(op, math.ExpOp, approximate_exp)


def approximate_exp(x: SSAValue, ops: OpList) -> None:
    """Appends to `ops` the ops computing exp of the f32 `x` (module docstring)."""
    emit, constant, integer = ops.emit, ops.f32, ops.i32
    clamped = emit(arith.MinimumfOp(emit(arith.MaximumfOp(x, constant(LOWEST))), constant(HIGHEST)))
    scaled = emit(arith.AddfOp(emit(arith.MulfOp(clamped, constant(LOG2_E))), constant(0.5)))
    n = emit(math.FloorOp(scaled))
    r = emit(arith.SubfOp(clamped, emit(arith.MulfOp(n, constant(LN2_HIGH)))))
    r = emit(arith.SubfOp(r, emit(arith.MulfOp(n, constant(LN2_LOW)))))
    p = constant(POLYNOMIAL[0])
    for coefficient in POLYNOMIAL[1:]:
        p = emit(math.FmaOp(p, r, constant(coefficient)))
    r_squared = emit(arith.MulfOp(r, r))
    expm1 = emit(math.FmaOp(r_squared, p, r))
    mantissa = emit(arith.AddfOp(expm1, constant(1.0)))
    # 2^n as 2^half * 2^(n - half): each factor's exponent stays in range.
    whole = emit(arith.FPToSIOp(n, i32))
    half = emit(arith.ShRSIOp(whole, integer(1)))
    rest = emit(arith.SubiOp(whole, half))
    result = mantissa
    for power in (half, rest):
        biased = emit(arith.AddiOp(power, integer(EXPONENT_BIAS)))
        bits = emit(arith.ShLIOp(biased, integer(MANTISSA_BITS)))
        result = emit(arith.MulfOp(result, emit(arith.BitcastOp(bits, f32))))
    is_nan = emit(arith.CmpfOp(x, x, "uno"))
    emit(arith.SelectOp(is_nan, x, result))
