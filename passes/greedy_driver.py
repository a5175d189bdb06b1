"""What MLIR's greedy pattern driver does to a function besides a pass's own patterns.

XLA's passes rewrite with `applyPatternsGreedily`, and that driver, whatever the
patterns, also

* folds every op it visits: xDSL's folders (`arith` on constants, `x + 0`,
  `x * 1`, ...) and the ones restated here (`arith.andi %x, true` -> `%x`, the
  `index_cast` of a constant, an `apply_indexing` whose results are plain dims
  or symbols, a `vector.extract`/`insert` at a constant position taking it as a
  static one, a `vector.extract` of an element an insert chain wrote or of a
  splat constant);
* erases ops whose results nobody uses and that have no side effect;
* keeps one constant (`arith.constant`, `ub.poison`) per value in each
  function, at the top of the function's entry block (out of loops and
  branches too), as MLIR's `OperationFolder` does.

`finish_like_greedy_driver` applies these steps after a pass's own patterns
until nothing changes, so that the pass leaves the ops XLA's pass leaves.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith, func, ub, vector
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    StringAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.dead_code_elimination import region_dce
from xla_emit.dialects.xla import ApplyIndexingOpBase
from xla_emit.passes.loop_utils import constant_int

from xla_emit.indexing.affine import ConstantExpr, DimExpr, SymbolExpr
from xla_emit.ir.locations import fuse_locations


class FoldApplyIndexingToOperands(RewritePattern):
    """XLA's `ApplyIndexingOp::fold` and its constant-result canonicalization: when every
    result is a dim, a symbol or a constant, the results are the operands themselves and
    `arith.constant`s (so that `x + 0` folds after `xla.loop`'s `(th_x) -> (0, th_x)`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ApplyIndexingOpBase, rewriter: PatternRewriter) -> None:
        indexing_map = op.indexing_map
        values: list[SSAValue] = []
        for result in indexing_map.results:
            if isinstance(result, DimExpr):
                values.append(op.arguments[result.position])
            elif isinstance(result, SymbolExpr):
                values.append(op.arguments[indexing_map.num_dims + result.position])
            elif isinstance(result, ConstantExpr):
                constant = arith.ConstantOp(IntegerAttr(result.value, IndexType()))
                rewriter.insert(constant, InsertPoint.before(op))
                values.append(constant.result)
            else:
                return
        rewriter.replace(op, (), values)


class FoldAddOfZero(RewritePattern):
    """MLIR's `arith.addi` fold: `x + 0 = x`, with the zero on either side."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.AddiOp, rewriter: PatternRewriter) -> None:
        for zero_side, other in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
            if constant_int(zero_side) == 0:
                rewriter.replace(op, (), [other])
                return


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
            value = constant_int(constant_side)
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
        value = constant_int(op.input)
        result_type = op.result.type
        if value is None or not isinstance(result_type, IntegerType | IndexType):
            return
        rewriter.replace(op, arith.ConstantOp(IntegerAttr(value, result_type, truncate_bits=True)))


class FoldConstantVectorPositions(RewritePattern):
    """A `vector.extract`/`insert` at a constant position takes it as a static one
    (`%v[%c1]` -> `%v[1]`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: vector.ExtractOp | vector.InsertOp, rewriter: PatternRewriter
    ) -> None:
        if not op.dynamic_position:
            return
        positions = op.get_mixed_position()
        folded = [
            constant_int(p) if isinstance(p, SSAValue) and constant_int(p) is not None else p
            for p in positions
        ]
        if folded == positions:
            return
        if isinstance(op, vector.ExtractOp):
            new: Operation = vector.ExtractOp(op.vector, folded, op.result.type)
        else:
            new = vector.InsertOp(op.source, op.dest, folded, op.result.type)
        new.results[0].name_hint = op.results[0].name_hint
        rewriter.replace(op, new)


class FoldExtractOfInsertOrSplat(RewritePattern):
    """A `vector.extract` at a static position of an element an insert chain wrote
    is that element; of a splat constant, the splat's element."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.ExtractOp, rewriter: PatternRewriter) -> None:
        if op.dynamic_position:
            return
        position = op.static_position.get_values()
        source = op.vector
        # Inserts at other positions leave this element as it was: look through them.
        while isinstance(insert := source.owner, vector.InsertOp) and not insert.dynamic_position:
            if insert.static_position.get_values() == position:
                rewriter.replace(op, (), [insert.source])
                return
            source = insert.dest
        const = source.owner
        if (
            isinstance(const, arith.ConstantOp)
            and isinstance(dense := const.value, DenseIntOrFPElementsAttr)
            and dense.is_splat()
        ):
            rewriter.replace(op, arith.ConstantOp(dense.get_attrs()[0], op.result.type))


FOLD_PATTERNS: tuple[RewritePattern, ...] = (
    FoldApplyIndexingToOperands(),
    FoldAddOfZero(),
    FoldLogicWithConstant(),
    FoldIndexCastOfConstant(),
    FoldConstantVectorPositions(),
    FoldExtractOfInsertOrSplat(),
)


def _constant_key(op: Operation) -> tuple[str, Attribute, Attribute] | None:
    if isinstance(op, arith.ConstantOp):
        return ("arith.constant", op.value, op.result.type)
    if isinstance(op, ub.PoisonOp):
        return ("ub.poison", op.value, op.result.type)
    return None


def unique_constants(function: func.FuncOp) -> bool:
    """One constant per value and type in `function`, at the top of its entry block.

    As MLIR's `OperationFolder`: the constants already leading the entry block stay
    where they are; every other first constant of its value moves to the top (so
    these end up in the reverse of the order they were met); later equal ones are
    replaced by it. Returns whether anything moved or went.
    """
    if not function.body.blocks:
        return False
    entry = function.body.blocks[0]
    kept: dict[tuple[str, Attribute, Attribute], Operation] = {}
    kept_ids: set[int] = set()
    changed = False
    for op in list(function.body.walk()):
        key = _constant_key(op)
        if key is None:
            continue
        if key in kept:
            # As MLIR's OperationFolder, the constant kept stands for both sources.
            kept[key].location = fuse_locations(
                [kept[key].location, op.location], StringAttr("CSE")
            )
            op.results[0].replace_all_uses_with(kept[key].results[0])
            Rewriter.erase_op(op)
            changed = True
            continue
        leading = op.parent is entry and (op is entry.first_op or id(op.prev_op) in kept_ids)
        kept[key] = op
        kept_ids.add(id(op))
        if leading:
            continue
        op.detach()
        first = entry.first_op
        if first is None:
            entry.add_op(op)
        else:
            entry.insert_op_before(op, first)
        changed = True
    return changed


def finish_like_greedy_driver(
    ctx: Context, root: Operation, patterns: tuple[RewritePattern, ...] = ()
) -> None:
    """Folding (with `patterns` beside the folds), dead-op erasure and constant
    uniquing in every function under `root`, as `applyPatternsGreedily` does, until
    nothing changes."""
    walker = PatternRewriteWalker(
        GreedyRewritePatternApplier([*patterns, *FOLD_PATTERNS], ctx=ctx, folding_enabled=True),
        post_walk_func=region_dce,
    )
    changed = True
    while changed:
        changed = any([walker.rewrite_region(region) for region in root.regions])
        for function in root.walk():
            if isinstance(function, func.FuncOp):
                changed |= unique_constants(function)
