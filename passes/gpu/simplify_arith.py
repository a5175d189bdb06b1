"""`xla-simplify-arith`: fold integer arithmetic whose outcome the value ranges decide.

Ranges come from `passes/analysis/value_ranges.py` (`xla.range` on thread and block
ids, `scf.for` bounds, `apply_indexing` expression ranges, constants). With
them this pass

* folds `arith.cmpi` to a constant when every pair of values gives the same
  answer (the domain checks of a lowered `xla.loop` on thread and block ids
  become `true`, and the `scf.if` canonicalization then removes the `scf.if`);
* replaces `arith.minsi`/`arith.maxsi` by the operand that always wins;
* tightens the domain of an `apply_indexing` to its operands' ranges and
  re-simplifies the map (XLA does this for `scf.for` induction variables).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import BoolAttr, ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xla_emit.dialects.xla import ApplyIndexingOpBase
from xla_emit.passes.analysis.value_ranges import narrowed_map, value_range
from xla_emit.passes.greedy_driver import finish_like_greedy_driver
from xla_emit.passes.scf_simplify import SCF_CANONICALIZATIONS

from xla_emit.indexing.comparison import decide_comparison, decide_less


class FoldCmpiByRange(RewritePattern):
    """`arith.cmpi` whose result the operand ranges decide -> `arith.constant`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.CmpiOp, rewriter: PatternRewriter) -> None:
        lhs, rhs = value_range(op.lhs), value_range(op.rhs)
        if lhs is None or rhs is None:
            return
        outcome = decide_comparison(op.predicate.value.data, lhs, rhs)
        if outcome is None:
            return
        rewriter.replace(op, arith.ConstantOp(BoolAttr.from_bool(outcome)))


class FoldMinMaxByRange(RewritePattern):
    """`arith.minsi`/`arith.maxsi` whose winner the ranges decide -> that operand."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: arith.MinSIOp | arith.MaxSIOp, rewriter: PatternRewriter
    ) -> None:
        lhs, rhs = value_range(op.lhs), value_range(op.rhs)
        if lhs is None or rhs is None:
            return
        lhs_wins = decide_less(lhs, rhs, or_equal=True)
        if isinstance(op, arith.MaxSIOp):
            lhs_wins = decide_less(rhs, lhs, or_equal=True)
        if lhs_wins is None:
            return
        rewriter.replace(op, (), [op.lhs if lhs_wins else op.rhs])


class TightenApplyIndexing(RewritePattern):
    """An `apply_indexing` whose operands have narrower ranges than its domain gets
    the narrower domain and a re-simplified map."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ApplyIndexingOpBase, rewriter: PatternRewriter) -> None:
        narrowed = narrowed_map(op)
        if narrowed == op.indexing_map:
            return
        simplified = narrowed.simplify()
        num_dims = simplified.num_dims
        rewriter.replace(
            op,
            type(op)(simplified, op.arguments[:num_dims], op.arguments[num_dims:], op.attributes),
        )


@dataclass(frozen=True)
class SimplifyArithPass(ModulePass):
    """Folds integer comparisons and min/max by value ranges and tightens
    `apply_indexing` domains (XLA's `xla-simplify-arith`).

    Options:
    - greedy-cleanup (bool, default true): then fold, erase dead ops and keep one
      constant per value at the top of each function, as MLIR's greedy driver does
      in XLA's pass (`passes/greedy_driver.py`), then the same again with the
      `scf.if`/`scf.for` canonicalizations (`passes/scf_simplify.py`: a branch on a
      constant and a loop of one trip go), as XLA's second run does; false leaves
      the rewritten ops in place.
    """

    name = "xla-simplify-arith"

    greedy_cleanup: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [FoldCmpiByRange(), FoldMinMaxByRange(), TightenApplyIndexing()]
            ),
            apply_recursively=True,
        ).rewrite_module(op)
        if not self.greedy_cleanup:
            return
        finish_like_greedy_driver(ctx, op)
        # XLA's pass then runs the canonicalization patterns of `scf.for` and `scf.if`
        # in a second greedy run: a branch on a constant and a loop of one trip go.
        finish_like_greedy_driver(ctx, op, SCF_CANONICALIZATIONS)
