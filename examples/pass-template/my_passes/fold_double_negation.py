"""`fold-double-negation`: `-(-x)` is `x` for floats (negation only flips the sign bit).

%n = arith.negf %x : f32
%m = arith.negf %n : f32      // uses of %m become uses of %x
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)


class FoldDoubleNegation(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.NegfOp, rewriter: PatternRewriter) -> None:
        inner = op.operand.owner
        if not isinstance(inner, arith.NegfOp):
            return  # a single negation stays
        rewriter.replace_op(op, [], [inner.operand])
        if not inner.result.uses:
            rewriter.erase_op(inner)  # the inner negation fed only this one


@dataclass(frozen=True)
class FoldDoubleNegationPass(ModulePass):
    """Replaces `negf(negf(x))` by `x`. No options."""

    name = "fold-double-negation"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(FoldDoubleNegation(), apply_recursively=True).rewrite_module(op)
