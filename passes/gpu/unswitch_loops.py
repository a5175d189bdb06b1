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

so the condition is tested once instead of once per iteration. Only a body
that is exactly the `scf.if` and a yield of its results is unswitched, as in
XLA; a missing else branch leaves the iter args unchanged, so that side needs
no loop at all.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)


def _invariant_if(loop: scf.ForOp) -> scf.IfOp | None:
    """The loop body's only op besides the yield, if it is an `scf.if` on an invariant."""
    ops = list(loop.body.block.ops)
    if len(ops) != 2 or not isinstance(guard := ops[0], scf.IfOp):
        return None
    yield_op = ops[1]
    assert isinstance(yield_op, scf.YieldOp)
    if tuple(yield_op.arguments) != tuple(guard.results):
        return None
    condition = guard.cond.owner
    defining_op = condition if isinstance(condition, Operation) else condition.parent_op()
    if defining_op is not None and loop.is_ancestor(defining_op):
        return None
    return guard


def _loop_over(loop: scf.ForOp, branch: Block) -> scf.ForOp:
    """A copy of `loop` whose body is a copy of `branch` (with `branch`'s yield)."""
    body = Block(arg_types=[arg.type for arg in loop.body.block.args])
    mapping: dict[SSAValue, SSAValue] = {}
    for old, new in zip(loop.body.block.args, body.args, strict=True):
        new.name_hint = old.name_hint
        mapping[old] = new
    for op in branch.ops:
        body.add_op(op.clone(mapping))
    return scf.ForOp(loop.lb, loop.ub, loop.step, loop.iter_args, Region(body))


class UnswitchLoop(RewritePattern):
    """Moves an invariant `scf.if` that makes up a loop's whole body outside the loop."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter) -> None:
        guard = _invariant_if(op)
        if guard is None:
            return
        then_loop = _loop_over(op, guard.true_region.block)
        then_block = Block([then_loop, scf.YieldOp(*then_loop.results)])
        if guard.false_region.blocks:
            else_loop = _loop_over(op, guard.false_region.block)
            else_region = Region(Block([else_loop, scf.YieldOp(*else_loop.results)]))
        elif op.iter_args:
            else_region = Region(Block([scf.YieldOp(*op.iter_args)]))
        else:
            else_region = Region()  # nothing to run and nothing to yield
        unswitched = scf.IfOp(guard.cond, op.result_types, Region(then_block), else_region)
        rewriter.replace(op, unswitched)


@dataclass(frozen=True)
class UnswitchLoopsPass(ModulePass):
    """Hoists loop-invariant `scf.if` bodies out of `scf.for` loops
    (XLA's `xla-unswitch-loops`). No options."""

    name = "xla-unswitch-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(UnswitchLoop(), apply_recursively=True).rewrite_module(op)
