"""What the host's inline approximations (`xla-host-approximate-exp`, `-tanh`) share.

Each replaces a `math` op on f32 with a list of `arith`/`math` ops that an
`OpList` collects; a 16-bit float goes through f32 and back, as XLA computes it;
f64 and vectors keep the C library's function.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    f32,
    i32,
)
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter


class OpList:
    """The ops of one approximation, in order; the last one's result is its value."""

    def __init__(self) -> None:
        self.ops: list[Operation] = []

    def emit(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0]

    def f32(self, value: float) -> SSAValue:
        return self.emit(arith.ConstantOp(FloatAttr(value, f32)))

    def i32(self, value: int) -> SSAValue:
        return self.emit(arith.ConstantOp(IntegerAttr(value, i32)))


def replace_with_f32_approximation(
    module: ModuleOp, op_type: type[Operation], approximate: Callable[[SSAValue, OpList], None]
) -> None:
    """Every `op_type` op on f32, f16 or bf16 in `module` becomes what `approximate` writes
    for its f32 operand."""
    for op in [o for o in module.walk() if isinstance(o, op_type)]:
        (operand,), (result,) = op.operands, op.results
        element = result.type
        if element != f32 and not isinstance(element, BFloat16Type | Float16Type):
            continue
        ops = OpList()
        x = operand if element == f32 else ops.emit(arith.ExtFOp(operand, f32))
        approximate(x, ops)
        if element != f32:
            ops.emit(arith.TruncFOp(ops.ops[-1].results[0], element))
        Rewriter.replace_op(op, ops.ops, [ops.ops[-1].results[0]])
