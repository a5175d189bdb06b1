"""`xla-unswitch-loops`: hoist a loop-invariant `scf.if` out of an `scf.for`.

    scf.for %i = %lb to %ub step %s iter_args(%a = %init) {
      %r = scf.if %c { THEN(%i, %a) } else { ELSE(%i, %a) }
      scf.yield %r
    }

becomes, when `%c` is defined outside the loop,

    scf.if %c {
      scf.for %i = %lb to %ub step %s iter_args(%a = %init) { THEN(%i, %a) }
    } else {
      scf.for %i = %lb to %ub step %s iter_args(%a = %init) { ELSE(%i, %a) }
    }

so the condition is tested once instead of once per iteration. As in XLA,
only a body that is exactly the `scf.if` and the yield is unswitched, not on
a constant condition: each side gets a copy of the loop whose `scf.if` tests
a constant, and the canonicalizations XLA runs with it (`passes.scf_simplify`)
fold that `scf.if` into its branch and drop what a side does not do: a loop
that only passes its iter args through, iter args no branch changes, results
the `scf.if` takes from outside. A loop nest around one such `scf.if` is
unswitched level by level, so the test ends up outside the whole nest.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i1
from xdsl.ir import Block, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xla_emit.passes.loop_utils import constant_int
from xla_emit.passes.scf_simplify import defined_outside, simplify_scf


def _invariant_if(loop: scf.ForOp) -> scf.IfOp | None:
    """The loop body's only op besides the yield, if it is an `scf.if` on an invariant."""
    ops = list(loop.body.block.ops)
    if len(ops) != 2 or not isinstance(guard := ops[0], scf.IfOp):
        return None
    if constant_int(guard.cond) is not None or not defined_outside(guard.cond, loop):
        return None
    return guard


class UnswitchLoop(RewritePattern):
    """Moves an invariant `scf.if` that makes up a loop's whole body outside the loop."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter) -> None:
        guard = _invariant_if(op)
        if guard is None:
            return
        sides: list[Region] = []
        for taken in (1, 0):
            constant = arith.ConstantOp(IntegerAttr(taken, i1))
            rewriter.insert(constant, InsertPoint.before(op))
            mapping: dict[SSAValue, SSAValue] = {guard.cond: constant.result}
            loop = op.clone(value_mapper=mapping)
            sides.append(Region(Block([loop, scf.YieldOp(*loop.results)])))
        unswitched = scf.IfOp(guard.cond, op.result_types, sides[0], sides[1])
        rewriter.replace(op, unswitched)


@dataclass(frozen=True)
class UnswitchLoopsPass(ModulePass):
    """Hoists loop-invariant `scf.if` bodies out of `scf.for` loops
    (XLA's `xla-unswitch-loops`). No options."""

    name = "xla-unswitch-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in op.walk():
            if isinstance(function, func.FuncOp) and function.body.blocks:
                simplify_scf(function, (UnswitchLoop(),))
