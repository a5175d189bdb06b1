"""What MLIR's greedy pattern driver does to a function besides a pass's own patterns.

XLA's passes rewrite with `applyPatternsGreedily`, and that driver, whatever the
patterns, also

* folds every op it visits (`arith.andi %x, true` -> `%x`, the `index_cast` of
  a constant -> a constant, an `apply_indexing` whose results are plain dims or
  symbols -> those operands);
* erases ops whose results nobody uses and that have no side effect;
* keeps one `arith.constant` per value and type in each function, moved to the
  top of the function's entry block (out of loops and branches too).

`finish_like_greedy_driver` applies the same three steps after a pass's own
patterns, so that its op census matches the one XLA's pass leaves.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, ModuleOp
from xdsl.ir import Attribute, Block, SSAValue
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import Rewriter
from xdsl.transforms.dead_code_elimination import region_dce

from dialects.xla import ApplyIndexingOpBase
from xla_emit.indexing.affine import DimExpr, SymbolExpr


class FoldApplyIndexingToOperands(RewritePattern):
    """XLA's `ApplyIndexingOp::fold`: when every result is a dim or a symbol, the
    results are the operands themselves."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ApplyIndexingOpBase, rewriter: PatternRewriter) -> None:
        indexing_map = op.indexing_map
        values: list[SSAValue] = []
        for result in indexing_map.results:
            if isinstance(result, DimExpr):
                values.append(op.arguments[result.position])
            elif isinstance(result, SymbolExpr):
                values.append(op.arguments[indexing_map.num_dims + result.position])
            else:
                return
        rewriter.replace(op, (), values)


def _integer_constant(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def _is_all_ones(value: int, type_: Attribute) -> bool:
    """True for -1 in any width (i1's `true` prints as 1 or -1 depending on who built it)."""
    if isinstance(type_, IntegerType) and type_.width.data == 1:
        return value in (1, -1)
    return value == -1


class FoldLogicWithConstant(RewritePattern):
    """MLIR's `arith.andi`/`arith.ori` folds: `x & ~0 = x`, `x & 0 = 0`, `x | 0 = x`,
    `x | ~0 = ~0`, `x op x = x`, with the constant on either side."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.AndIOp | arith.OrIOp, rewriter: PatternRewriter) -> None:
        if op.lhs == op.rhs:
            rewriter.replace(op, (), [op.lhs])
            return
        for constant_side, other in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
            value = _integer_constant(constant_side)
            if value is None:
                continue
            ones = _is_all_ones(value, op.result.type)
            identity = ones if isinstance(op, arith.AndIOp) else value == 0
            absorbing = value == 0 if isinstance(op, arith.AndIOp) else ones
            if identity:
                rewriter.replace(op, (), [other])
                return
            if absorbing:
                rewriter.replace(op, (), [constant_side])
                return


class FoldIndexCastOfConstant(RewritePattern):
    """MLIR's `arith.index_cast` fold: the cast of an integer constant is a constant."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.IndexCastOp, rewriter: PatternRewriter) -> None:
        value = _integer_constant(op.input)
        result_type = op.result.type
        if value is None or not isinstance(result_type, IntegerType | IndexType):
            return
        rewriter.replace(op, arith.ConstantOp(IntegerAttr(value, result_type, truncate_bits=True)))


def fold_and_erase_dead(ctx: Context, module: ModuleOp) -> None:
    """Fold every op with a folder (ours for apply_indexing, xDSL's for arith) and
    erase dead ops, until nothing changes."""
    PatternRewriteWalker(
        GreedyRewritePatternApplier(
            [FoldApplyIndexingToOperands(), FoldLogicWithConstant(), FoldIndexCastOfConstant()],
            ctx=ctx,
            folding_enabled=True,
        ),
        post_walk_func=region_dce,
    ).rewrite_module(module)


def _constant_key(op: arith.ConstantOp) -> tuple[Attribute, Attribute]:
    return (op.value, op.result.type)


def unique_constants(function: func.FuncOp) -> None:
    """One `arith.constant` per (value, type) in `function`, all at the top of its
    entry block, in the order MLIR's folder leaves them (the last one seen first)."""
    if not function.body.blocks:
        return
    entry: Block = function.body.blocks[0]
    kept: dict[tuple[Attribute, Attribute], arith.ConstantOp] = {}
    for op in list(function.body.walk()):
        if not isinstance(op, arith.ConstantOp):
            continue
        key = _constant_key(op)
        if key in kept:
            op.result.replace_all_uses_with(kept[key].result)
            Rewriter.erase_op(op)
            continue
        kept[key] = op
        op.detach()
        first = entry.first_op
        if first is None:
            entry.add_op(op)
        else:
            entry.insert_op_before(op, first)


def finish_like_greedy_driver(ctx: Context, module: ModuleOp) -> None:
    """Folding, dead-op erasure and constant uniquing, as after `applyPatternsGreedily`."""
    fold_and_erase_dead(ctx, module)
    for op in module.ops:
        if isinstance(op, func.FuncOp):
            unique_constants(op)
