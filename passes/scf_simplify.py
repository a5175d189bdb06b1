"""MLIR's canonicalizations of `scf.for` and `scf.if`, as XLA's unswitching applies them.

XLA's `xla-unswitch-loops` runs its pattern together with the canonicalization
patterns of `scf.for` and `scf.if` through the greedy driver, which is what
removes the loop copy on the side of the branch that does nothing. These
are the ones that matter there, restated:

* `scf.if` on a constant: the taken branch replaces it (xDSL's pattern);
* an `scf.if` result both branches yield from outside the `if`: the value
  itself (the same on both sides) or an `arith.select` on the condition;
* an `scf.if` result nobody uses goes; an `else` that only yields nothing goes;
* an `scf.for` iter arg that the body passes through unchanged, or whose
  initial value it yields back, or that is used neither in the body nor
  after the loop: the initial value replaces it and the loop loses it;
* an `scf.for` that never runs becomes its initial values, one that runs
  once becomes its body (xDSL's pattern).

Ops left without users and without side effects (an emptied loop, the `i1`
constants the unswitching made) are erased afterwards.
"""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.transforms.canonicalization_patterns.scf import (
    IfPropagateConstantCondition,
    SimplifyTrivialLoops,
)
from xdsl.transforms.dead_code_elimination import region_dce


def defined_outside(value: SSAValue, op: Operation) -> bool:
    owner = value.owner
    defining = owner if isinstance(owner, Operation) else owner.parent_op()
    return defining is None or not op.is_ancestor(defining)


def _yield_of(block: Block) -> scf.YieldOp:
    terminator = block.last_op
    assert isinstance(terminator, scf.YieldOp)
    return terminator


class HoistIfResults(RewritePattern):
    """Results both branches yield from outside the `if` are computed outside it."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IfOp, rewriter: PatternRewriter) -> None:
        if not op.results or not op.false_region.blocks:
            return
        then_yield = _yield_of(op.true_region.block)
        else_yield = _yield_of(op.false_region.block)
        pairs = list(zip(then_yield.arguments, else_yield.arguments, strict=True))
        hoistable = [
            defined_outside(true_value, op) and defined_outside(false_value, op)
            for true_value, false_value in pairs
        ]
        if not any(hoistable):
            return
        kept = [i for i, hoist in enumerate(hoistable) if not hoist]
        replacement = _if_keeping(op, kept, rewriter)
        values: list[SSAValue] = []
        for i, (true_value, false_value) in enumerate(pairs):
            if not hoistable[i]:
                values.append(replacement.results[kept.index(i)])
            elif true_value is false_value:
                values.append(true_value)
            else:
                select = arith.SelectOp(op.cond, true_value, false_value)
                rewriter.insert(select, InsertPoint.before(op))
                values.append(select.result)
        rewriter.replace(op, [], values)


class RemoveUnusedIfResults(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IfOp, rewriter: PatternRewriter) -> None:
        kept = [i for i, result in enumerate(op.results) if result.uses]
        if len(kept) == len(op.results):
            return
        replacement = _if_keeping(op, kept, rewriter)
        unused: SSAValue | None = None  # no use to replace
        values = [
            replacement.results[kept.index(i)] if i in kept else unused
            for i in range(len(op.results))
        ]
        rewriter.replace(op, [], values)


def _if_keeping(op: scf.IfOp, kept: list[int], rewriter: PatternRewriter) -> scf.IfOp:
    """A copy of `op` (regions moved) that yields only the results at `kept`."""
    for region in (op.true_region, op.false_region):
        if region.blocks:
            terminator = _yield_of(region.block)
            rewriter.replace(terminator, scf.YieldOp(*[terminator.arguments[i] for i in kept]))
    replacement = scf.IfOp(
        op.cond,
        [op.results[i].type for i in kept],
        rewriter.move_region_contents_to_new_regions(op.true_region),
        rewriter.move_region_contents_to_new_regions(op.false_region),
    )
    rewriter.insert(replacement, InsertPoint.before(op))
    return replacement


class RemoveEmptyElse(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IfOp, rewriter: PatternRewriter) -> None:
        if op.results or not op.false_region.blocks:
            return
        if op.false_region.block.first_op is not op.false_region.block.last_op:
            return
        replacement = scf.IfOp(
            op.cond, [], rewriter.move_region_contents_to_new_regions(op.true_region), Region()
        )
        rewriter.replace(op, replacement)


def _foldable_iter_arg(loop: scf.ForOp, position: int) -> bool:
    arg = loop.body.block.args[position + 1]
    yielded = _yield_of(loop.body.block).arguments[position]
    if yielded is arg or yielded is loop.iter_args[position]:
        return True
    return not arg.uses and not loop.results[position].uses


class FoldIterArgs(RewritePattern):
    """Iter args the loop does not really carry become their initial values."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter) -> None:
        folded = [i for i in range(len(op.iter_args)) if _foldable_iter_arg(op, i)]
        if not folded:
            return
        kept = [i for i in range(len(op.iter_args)) if i not in folded]
        block = op.body.block
        terminator = _yield_of(block)
        rewriter.replace(terminator, scf.YieldOp(*[terminator.arguments[i] for i in kept]))
        for i in reversed(folded):
            arg = block.args[i + 1]
            arg.replace_all_uses_with(op.iter_args[i])
            rewriter.erase_block_argument(arg)
        loop = scf.ForOp(
            op.lb,
            op.ub,
            op.step,
            [op.iter_args[i] for i in kept],
            rewriter.move_region_contents_to_new_regions(op.body),
        )
        rewriter.insert(loop, InsertPoint.before(op))
        values = [
            loop.results[kept.index(i)] if i in kept else op.iter_args[i]
            for i in range(len(op.results))
        ]
        rewriter.replace(op, [], values)


SCF_CANONICALIZATIONS: tuple[RewritePattern, ...] = (
    IfPropagateConstantCondition(),
    HoistIfResults(),
    RemoveUnusedIfResults(),
    RemoveEmptyElse(),
    FoldIterArgs(),
    SimplifyTrivialLoops(),
)


def simplify_scf(root: Operation, extra: tuple[RewritePattern, ...] = ()) -> None:
    """Applies `extra` and the canonicalizations above under `root` until none fires,
    erasing the ops left dead after each round."""
    walker = PatternRewriteWalker(
        GreedyRewritePatternApplier([*extra, *SCF_CANONICALIZATIONS]), post_walk_func=region_dce
    )
    for region in root.regions:
        walker.rewrite_region(region)
