"""`xla-lower-xla-to-scf`: predicated tensor accesses -> `scf.if`.

    %r = xla.predicated_insert %v into %t[%i] if %c : tensor<8xf32>
      ->  %r = scf.if %c -> (tensor<8xf32>) { tensor.insert ... } else { scf.yield %t }

    %r = xla.predicated_extract %t[%i] if %c else %fb : tensor<8xf32>
      ->  %r = scf.if %c -> (f32) { tensor.extract ... } else { scf.yield %fb }

`xla.loop` is lowered by `xla-lower-xla-loops-to-scf` (XLA runs the inliner
between the two). `xla.atomic_rmw` is kept: XLA lowers it only when tensors
become pointers, and an extract/insert pair would lose its atomicity.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf, tensor
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from dialects.xla import PredicatedExtractOp, PredicatedInsertOp


def _yielding(op: Operation) -> Region:
    """A region holding `op` followed by a yield of its result."""
    return Region(Block([op, scf.YieldOp(*op.results)]))


class LowerPredicatedInsert(RewritePattern):
    """`predicated_insert` -> `scf.if` that inserts or yields the destination unchanged."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: PredicatedInsertOp, rewriter: PatternRewriter) -> None:
        insert = tensor.InsertOp(op.value, op.dest, op.indices)
        guarded = scf.IfOp(
            op.condition,
            [op.result.type],
            _yielding(insert),
            Region(Block([scf.YieldOp(op.dest)])),
        )
        rewriter.replace(op, guarded)


class LowerPredicatedExtract(RewritePattern):
    """`predicated_extract` -> `scf.if` that extracts or yields the fallback."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: PredicatedExtractOp, rewriter: PatternRewriter) -> None:
        extract = tensor.ExtractOp(op.src, op.indices, op.result.type)
        guarded = scf.IfOp(
            op.condition,
            [op.result.type],
            _yielding(extract),
            Region(Block([scf.YieldOp(op.fallback)])),
        )
        rewriter.replace(op, guarded)


@dataclass(frozen=True)
class LowerXlaToScfPass(ModulePass):
    """Lowers `xla.predicated_insert`/`xla.predicated_extract` to `scf.if`. No options."""

    name = "xla-lower-xla-to-scf"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier([LowerPredicatedInsert(), LowerPredicatedExtract()]),
            apply_recursively=True,
        ).rewrite_module(op)
