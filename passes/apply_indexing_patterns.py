"""Canonicalization patterns of `apply_indexing` that XLA's passes add to their own.

`xla-flatten-tensors` runs `ApplyIndexingOp::getCanonicalizationPatterns` with
its patterns, so after it an index computed through a chain of apply_indexing
ops is one apply_indexing over the chain's first operands.
"""

from __future__ import annotations

from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xla_emit.dialects.xla import ApplyIndexingOpBase
from xla_emit.passes.analysis.linear_index import fold_producers


class FoldApplyIndexingChain(RewritePattern):
    """An apply_indexing reading the results of apply_indexing ops used nowhere else
    becomes one apply_indexing over their operands (XLA's `FoldApplyIndexingSequence`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ApplyIndexingOpBase, rewriter: PatternRewriter) -> None:
        folded = fold_producers(op)
        if folded is None:
            return
        indexing_map, operands = folded
        rewriter.replace(op, type(op)(indexing_map, operands, (), op.attributes))
