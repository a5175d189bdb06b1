"""Helpers shared by the passes: integer constants and static `scf.for` loops.

Every pass reads a constant index through `constant_int` and builds one
through `index_constant`/`insert_index_constant`, so that they agree on what
"constant" means and on how constants are named. Unrolling and vectorization
both need a loop's static shape (constant lower bound, upper bound and step)
and a way to copy its body with the induction variable replaced.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint


def constant_int(value: SSAValue) -> int | None:
    """The integer `value` holds if an `arith.constant` defines it, else None."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


@dataclass(frozen=True)
class StaticBounds:
    """Constant bounds of an `scf.for`: it runs `lower, lower+step, ... < upper`."""

    lower: int
    upper: int
    step: int

    @property
    def trip_count(self) -> int:
        if self.step <= 0 or self.upper <= self.lower:
            return 0
        return (self.upper - self.lower + self.step - 1) // self.step


def static_bounds(loop: scf.ForOp) -> StaticBounds | None:
    """The loop's bounds when all three are constants, else None."""
    lower = constant_int(loop.lb)
    upper = constant_int(loop.ub)
    step = constant_int(loop.step)
    if lower is None or upper is None or step is None:
        return None
    return StaticBounds(lower, upper, step)


def insert_index_constant(
    rewriter: PatternRewriter, value: int, where: InsertPoint, name_hint: str | None = None
) -> SSAValue:
    """An `arith.constant value : index` inserted at `where`, named `name_hint`."""
    const = arith.ConstantOp(IntegerAttr(value, IndexType()))
    const.result.name_hint = name_hint
    rewriter.insert(const, where)
    return const.result


def index_constant(rewriter: PatternRewriter, value: int, where: InsertPoint) -> SSAValue:
    """`arith.constant value : index` at `where`, named like MLIR's `%c127`."""
    name = f"c{value}" if value >= 0 else f"c_neg{-value}"
    return insert_index_constant(rewriter, value, where, name)


def clone_body(
    rewriter: PatternRewriter,
    loop: scf.ForOp,
    induction_value: SSAValue,
    carried: Sequence[SSAValue],
    where: InsertPoint,
) -> list[SSAValue]:
    """Copies `loop`'s body to `where` for one iteration.

    The induction variable reads `induction_value` and the iter_args read
    `carried`; returns the values the copy would yield.
    """
    induction_var, *iter_args = loop.body.block.args
    mapping: dict[SSAValue, SSAValue] = dict(zip(iter_args, carried, strict=True))
    mapping[induction_var] = induction_value
    yielded: list[SSAValue] = []
    for op in loop.body.block.ops:
        if isinstance(op, scf.YieldOp):
            yielded = [mapping.get(v, v) for v in op.arguments]
            continue
        clone: Operation = op.clone(mapping)
        rewriter.insert(clone, where)
    return yielded
