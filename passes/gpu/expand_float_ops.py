"""`xla-expand-float-ops`: `math.tanh` as the rational approximation XLA inlines.

XLA's GPU pipeline runs `xla-expand-float-ops{approximate_tanh=true}` before
`xla-lower-to-llvm-gpu`, so that its kernels compute tanh in a few FMAs and one
division instead of calling libdevice. The expansion, as XLA's module after
that pass shows it (gelu's `loop_multiply_fusion`):

    c   = clamp(x, -7.99881172, 7.99881172)      (`cmpf ult`/`ugt` and `select`)
    x2  = c * c
    p   = x2 * (... (x2 * -2.76076837e-16 + 2.00018794e-13) ...) + 0.00489352457
          (fma chain, coefficients in `_NUMERATOR`)
    q   = fma chain of `_DENOMINATOR` in x2
    tanh(x) = |x| < 0.0004 ? c : (c * p) / q

An f16 or bf16 tanh is computed so in f32 and truncated. `approximate_tanh=false`
leaves `math.tanh` to `xla-lower-to-llvm` (a libdevice call); so does an f64 tanh.
The constants are made once per function, at its start (where XLA's rewriter
puts the constants it makes).

A bf16 `math.absf` becomes integer ops on its bits, as in XLA's module after the
pass: `bitcast` to i16, `andi` with 0x7FFF (the sign bit cleared), `bitcast` back.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, math
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, ModuleOp, bf16, f16, f32, i16
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

# The clamp: beyond it tanh(x) rounds to +-1 in f32.
_CLAMP = 7.99881172
# Below this |x|, tanh(x) is x in f32.
_SMALL = 4.0e-4
# Numerator and denominator coefficients in x^2, highest power first.
_NUMERATOR = (
    -2.76076837e-16,
    2.00018794e-13,
    -8.60467184e-11,
    5.12229725e-8,
    1.48572235e-5,
    6.37261954e-4,
    4.89352457e-3,
)
_DENOMINATOR = (1.19825836e-6, 1.18534706e-4, 2.26843474e-3, 4.89352504e-3)


@dataclass(frozen=True)
class ExpandFloatOpsPass(ModulePass):
    """`math.tanh` as XLA's inline rational approximation, bf16 `absf` on its bits.

    `approximate_tanh=false` keeps `math.tanh` (a libdevice call after lowering)."""

    name = "xla-expand-float-ops"

    approximate_tanh: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in [f for f in op.walk() if isinstance(f, func.FuncOp)]:
            entry = function.body.blocks.first
            if entry is None:
                continue
            constants = _Constants(entry)
            for inner in list(function.walk()):
                if isinstance(inner, math.AbsFOp) and inner.result.type == bf16:
                    clear_sign_bit(inner, constants)
                elif (
                    self.approximate_tanh
                    and isinstance(inner, math.TanhOp)
                    and inner.result.type in (f32, f16, bf16)
                ):
                    expand_tanh(inner, constants)


class _Constants:
    """The constants the pass makes in one function: each once, at the function's start."""

    def __init__(self, entry: Block) -> None:
        self.entry = entry
        self.made: dict[FloatAttr | IntegerAttr, SSAValue] = {}

    def f32(self, value: float) -> SSAValue:
        return self.get(FloatAttr(value, f32))

    def i16(self, value: int) -> SSAValue:
        return self.get(IntegerAttr(value, i16))

    def get(self, attr: FloatAttr | IntegerAttr) -> SSAValue:
        if attr not in self.made:
            constant = arith.ConstantOp(attr)
            Rewriter.insert_op(constant, InsertPoint.at_start(self.entry))
            self.made[attr] = constant.result
        return self.made[attr]


def clear_sign_bit(op: math.AbsFOp, constants: _Constants) -> None:
    emitter = _Emitter(op, constants)
    bits = emitter.emit(arith.BitcastOp(op.operand, i16))
    cleared = emitter.emit(arith.AndIOp(bits, constants.i16(0x7FFF)))
    result = emitter.emit(arith.BitcastOp(cleared, bf16))
    op.result.replace_all_uses_with(result)
    Rewriter.erase_op(op)


class _Emitter:
    """Appends f32 ops before `where` and hands back their results."""

    def __init__(self, where: Operation, constants: _Constants) -> None:
        self.where = where
        self.constants = constants

    def emit(self, op: Operation) -> SSAValue:
        Rewriter.insert_op(op, InsertPoint.before(self.where))
        return op.results[0]

    def constant(self, value: float) -> SSAValue:
        return self.constants.f32(value)

    def polynomial(self, x2: SSAValue, coefficients: tuple[float, ...]) -> SSAValue:
        """Horner's scheme in fmas: ((c0 * x2 + c1) * x2 + c2) ..."""
        value = self.emit(
            math.FmaOp(x2, self.constant(coefficients[0]), self.constant(coefficients[1]))
        )
        for coefficient in coefficients[2:]:
            value = self.emit(math.FmaOp(x2, value, self.constant(coefficient)))
        return value


def expand_tanh(op: math.TanhOp, constants: _Constants) -> None:
    emitter = _Emitter(op, constants)
    x = op.operand
    if x.type != f32:
        x = emitter.emit(arith.ExtFOp(x, f32))
    high, low = emitter.constant(_CLAMP), emitter.constant(-_CLAMP)
    below = emitter.emit(arith.CmpfOp(x, high, "ult"))
    clamped = emitter.emit(arith.SelectOp(below, x, high))
    above = emitter.emit(arith.CmpfOp(clamped, low, "ugt"))
    clamped = emitter.emit(arith.SelectOp(above, clamped, low))
    magnitude = emitter.emit(math.AbsFOp(x))
    small = emitter.emit(arith.CmpfOp(magnitude, emitter.constant(_SMALL), "olt"))
    x2 = emitter.emit(arith.MulfOp(clamped, clamped))
    numerator = emitter.emit(arith.MulfOp(clamped, emitter.polynomial(x2, _NUMERATOR)))
    ratio = emitter.emit(arith.DivfOp(numerator, emitter.polynomial(x2, _DENOMINATOR)))
    result = emitter.emit(arith.SelectOp(small, clamped, ratio))
    if op.result.type != f32:
        result = emitter.emit(arith.TruncFOp(result, op.result.type))
    op.result.replace_all_uses_with(result)
    Rewriter.erase_op(op)
