"""`xla-safe-integer-arithmetic`: integer divisions marked `xla.guard_ub` get XLA's values.

`arith.divsi` by zero or of INT_MIN by -1 is undefined in MLIR (and LLVM; PTX's
quotient is unspecified), yet XLA defines every integer division:

- x / 0 is -1 (all ones, also unsigned) and x % 0 is x;
- INT_MIN / -1 is INT_MIN and INT_MIN % -1 is 0.

XLA's Triton route lowers an integer `stablehlo.divide` or `remainder` to a bare
`arith.divsi`/`remsi` (`divui`/`remui`) marked `xla.guard_ub` (its TTIR keeps the mark),
and this pass, on the way to LLVM, writes the guard: the undefined cases divide by 1
and `arith.select`s put XLA's values in their place. XLA's MLIR emitters write the same
ops inline (`emitters/integer_ops.py` builds them with `guarded_division`): one fact,
read off XLA's dumps of both (a `__triton` reduce and a loop fusion of `s32` divides).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xla_emit.dialects import arith_vector

# The mark XLA's Triton lowering puts on a division it leaves for this pass to guard.
GUARD_UB = "xla.guard_ub"

GUARDED_DIVISIONS: tuple[type[Operation], ...] = (
    arith.DivSIOp,
    arith.DivUIOp,
    arith.RemSIOp,
    arith.RemUIOp,
)
_SIGNED = (arith.DivSIOp, arith.RemSIOp)
_REMAINDERS = (arith.RemSIOp, arith.RemUIOp)

# Makes a constant of the operands' type (a scalar, or a splat tile) holding a value.
Constant = Callable[[int], SSAValue]
# Inserts an op where the guarded division goes and gives its result.
Emit = Callable[[Operation], SSAValue]


def _width(type_: Attribute) -> int:
    element = type_.get_element_type() if isinstance(type_, TensorType) else type_
    assert isinstance(element, IntegerType)
    return element.width.data


def _select(condition: SSAValue, a: SSAValue, b: SSAValue) -> Operation:
    # On tiles the condition is a tile of i1: the select of `arith_vector`, as TTIR has it.
    if isinstance(a.type, TensorType):
        return arith_vector.SelectOp.create(operands=[condition, a, b], result_types=[a.type])
    return arith.SelectOp(condition, a, b)


def _cmpi_eq(a: SSAValue, b: SSAValue) -> Operation:
    # On tiles the result is a tile of i1: the compare of `arith_vector`, as TTIR has it.
    return (arith_vector.CmpiOp if isinstance(a.type, TensorType) else arith.CmpiOp)(a, b, "eq")


def guarded_division(
    division: type[Operation], a: SSAValue, b: SSAValue, constant: Constant, emit: Emit
) -> SSAValue:
    """`a / b` or `a % b` (`division`: `arith.divsi`, `divui`, `remsi`, `remui`) with XLA's
    values where the division is undefined, in the order XLA writes the ops."""
    signed = division in _SIGNED and _width(a.type) > 1
    remainder = division in _REMAINDERS
    all_ones, one, zero = constant(-1), constant(1), constant(0)
    int_min = constant(-(1 << (_width(a.type) - 1))) if signed else None
    by_zero = emit(_cmpi_eq(b, zero))
    undefined = by_zero
    overflow: SSAValue | None = None
    if int_min is not None:
        is_int_min = emit(_cmpi_eq(a, int_min))
        is_minus_one = emit(_cmpi_eq(b, all_ones))
        overflow = emit(arith.AndIOp(is_int_min, is_minus_one))
        undefined = emit(arith.OrIOp(by_zero, overflow))
    safe_divisor = emit(_select(undefined, one, b))
    result = emit(division.create(operands=[a, safe_divisor], result_types=[a.type]))
    if overflow is not None and int_min is not None:
        result = emit(_select(overflow, zero if remainder else int_min, result))
    return emit(_select(by_zero, a if remainder else all_ones, result))


def constant_like(value: SSAValue) -> Callable[[int], Operation]:
    """An `arith.constant` of `value`'s type (a splat for a tile) holding an integer."""

    def make(number: int) -> Operation:
        if isinstance(value.type, TensorType):
            splat = DenseIntOrFPElementsAttr.from_list(value.type, [number])  # type: ignore[arg-type]
            return arith.ConstantOp(splat)
        assert isinstance(value.type, IntegerType)
        return arith.ConstantOp(IntegerAttr(number, value.type))

    return make


def expansion(op: Operation, a: SSAValue, b: SSAValue) -> list[Operation]:
    """The ops this pass puts in place of the marked division `op` on operands `a`, `b`
    (the last one's result is the division's)."""
    ops: list[Operation] = []
    make = constant_like(a)

    def emit(new: Operation) -> SSAValue:
        ops.append(new)
        return new.results[0]

    guarded_division(type(op), a, b, lambda number: emit(make(number)), emit)
    return ops


@dataclass
class _GuardDivision(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, GUARDED_DIVISIONS) or GUARD_UB not in op.attributes:
            return
        ops = expansion(op, op.operands[0], op.operands[1])
        rewriter.replace(op, ops, [ops[-1].results[0]])


@dataclass(frozen=True)
class SafeIntegerArithmeticPass(ModulePass):
    """Guards integer divisions marked `xla.guard_ub` with XLA's values for x / 0 and
    INT_MIN / -1, as XLA's pass of this name. No options."""

    name = "xla-safe-integer-arithmetic"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(_GuardDivision(), apply_recursively=False).rewrite_module(op)
