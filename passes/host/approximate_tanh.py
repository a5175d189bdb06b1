"""`xla-host-approximate-tanh`: `math.tanh` as XLA's rational approximation, for the host.

The C library's `tanhf` is a call per element that LLVM cannot vectorize. XLA
computes tanh on the CPU (and on the GPU) without it: `EmitFastTanh` in XLA's
`llvm_ir/math_ops.cc` clamps x to [-9, 9] and divides an odd polynomial of
degree 13 by an even one of degree 6 (Horner's rule on x^2, a multiply then an
add, no fused multiply-add), with tanh(x) = x where |x| < 0.0004. This pass
writes that formula in `arith` ops before `xla-lower-to-llvm`; 16-bit floats
go through f32 and back, as XLA computes them. The results are XLA's; against
the interpreter's (numpy's) tanh they differ by a few f32 ulps.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xla_emit.passes.host.f32_approximation import OpList, replace_with_f32_approximation

# Where tanh(x) = x to f32 precision, and the clamp beyond which the quotient is +-1.
SMALL = 0.0004
CLAMP = 9.0
# Coefficients of XLA's approximation, highest power first (as f32).
NUMERATOR = (
    -2.76076847742355e-16, 2.00018790482477e-13, -8.60467152213735e-11,
    5.12229709037114e-08, 1.48572235717979e-05, 6.37261928875436e-04,
    4.89352455891786e-03,
)  # fmt: skip
DENOMINATOR = (
    1.19825839466702e-06, 1.18534705686654e-04, 2.26843463243900e-03, 4.89352518554385e-03,
)  # fmt: skip


@dataclass(frozen=True)
class HostApproximateTanhPass(ModulePass):
    name = "xla-host-approximate-tanh"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        replace_with_f32_approximation(op, math.TanhOp, approximate_tanh)


def approximate_tanh(x: SSAValue, ops: OpList) -> None:
    """Appends to `ops` the ops computing XLA's tanh approximation of the f32 `x`."""
    emit, constant = ops.emit, ops.f32
    small = emit(arith.CmpfOp(emit(math.AbsFOp(x)), constant(SMALL), "olt"))
    clamped = emit(arith.MinimumfOp(emit(arith.MaximumfOp(x, constant(-CLAMP))), constant(CLAMP)))
    squared = emit(arith.MulfOp(clamped, clamped))
    numerator = constant(NUMERATOR[0])
    for coefficient in NUMERATOR[1:]:
        numerator = emit(
            arith.AddfOp(emit(arith.MulfOp(squared, numerator)), constant(coefficient))
        )
    numerator = emit(arith.MulfOp(clamped, numerator))
    denominator = constant(DENOMINATOR[0])
    for coefficient in DENOMINATOR[1:]:
        denominator = emit(
            arith.AddfOp(emit(arith.MulfOp(squared, denominator)), constant(coefficient))
        )
    emit(arith.SelectOp(small, x, emit(arith.DivfOp(numerator, denominator))))
