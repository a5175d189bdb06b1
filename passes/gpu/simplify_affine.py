"""`xla-simplify-affine`: lower `apply_indexing` to plain `arith` on `index`.

Each result expression of the (range-narrowed, simplified) map becomes
`arith` ops; a subexpression used twice is emitted once. Division and modulo
by a positive constant use the unsigned ops (`divui`, `remui`, `ceildivui`)
when the dividend's range is non-negative, as XLA's `xla-simplify-affine`
does; otherwise the floor-semantics forms (`floordivsi`, and `remsi` plus a
correction for a negative remainder). After this pass the kernel holds only
standard dialects (and the gpu ids).

A map with runtime variables or a non-constant divisor is left alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xla_emit.dialects.xla import ApplyIndexingOpBase
from xla_emit.passes.analysis.value_ranges import narrowed_map

from xla_emit.indexing import (
    AffineExpr,
    AffineKind,
    BinaryExpr,
    ConstantExpr,
    DimExpr,
    IndexingMap,
    SymbolExpr,
)


@dataclass
class _ArithEmitter:
    """Emits `arith` for expressions of one map, before one op, sharing subexpressions."""

    indexing_map: IndexingMap
    operands: list[SSAValue]
    rewriter: PatternRewriter
    where: InsertPoint
    emitted: dict[AffineExpr, SSAValue] = field(default_factory=dict[AffineExpr, SSAValue])

    def emit(self, expr: AffineExpr) -> SSAValue:
        if expr not in self.emitted:
            self.emitted[expr] = self._emit_uncached(expr)
        return self.emitted[expr]

    def _insert(self, op: Operation) -> SSAValue:
        self.rewriter.insert(op, self.where)
        return op.results[0]

    def _emit_uncached(self, expr: AffineExpr) -> SSAValue:
        if isinstance(expr, ConstantExpr):
            return self._insert(arith.ConstantOp(IntegerAttr(expr.value, IndexType())))
        if isinstance(expr, DimExpr):
            return self.operands[expr.position]
        if isinstance(expr, SymbolExpr):
            return self.operands[self.indexing_map.num_dims + expr.position]
        assert isinstance(expr, BinaryExpr)
        lhs, rhs = self.emit(expr.lhs), self.emit(expr.rhs)
        non_negative = self.indexing_map.expression_range(expr.lhs).lower >= 0
        match expr.kind:
            case AffineKind.ADD:
                return self._insert(arith.AddiOp(lhs, rhs))
            case AffineKind.MUL:
                return self._insert(arith.MuliOp(lhs, rhs))
            case AffineKind.MIN:
                return self._insert(arith.MinSIOp(lhs, rhs))
            case AffineKind.MAX:
                return self._insert(arith.MaxSIOp(lhs, rhs))
            case AffineKind.FLOORDIV:
                if non_negative:
                    return self._insert(arith.DivUIOp(lhs, rhs))
                return self._insert(arith.FloorDivSIOp(lhs, rhs))
            case AffineKind.CEILDIV:
                if non_negative:
                    return self._insert(arith.CeilDivUIOp(lhs, rhs))
                return self._insert(arith.CeilDivSIOp(lhs, rhs))
            case AffineKind.MOD:
                if non_negative:
                    return self._insert(arith.RemUIOp(lhs, rhs))
                return self._floor_mod(lhs, rhs)

    def _floor_mod(self, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        """`lhs mod rhs` with the sign of the (positive) divisor: remsi, then + rhs if negative."""
        remainder = self._insert(arith.RemSIOp(lhs, rhs))
        zero = self._insert(arith.ConstantOp(IntegerAttr(0, IndexType())))
        negative = self._insert(arith.CmpiOp(remainder, zero, "slt"))
        shifted = self._insert(arith.AddiOp(remainder, rhs))
        return self._insert(arith.SelectOp(negative, shifted, remainder))


def _divisors_are_positive_constants(indexing_map: IndexingMap) -> bool:
    for result in indexing_map.results:
        for expr in result.walk():
            if (
                isinstance(expr, BinaryExpr)
                and expr.kind in (AffineKind.FLOORDIV, AffineKind.CEILDIV, AffineKind.MOD)
                and not (isinstance(expr.rhs, ConstantExpr) and expr.rhs.value > 0)
            ):
                return False
    return True


class LowerApplyIndexing(RewritePattern):
    """`apply_indexing` -> `arith` ops computing each result."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ApplyIndexingOpBase, rewriter: PatternRewriter) -> None:
        indexing_map = narrowed_map(op).simplify()
        if indexing_map.rt_vars or not _divisors_are_positive_constants(indexing_map):
            return
        emitter = _ArithEmitter(indexing_map, list(op.arguments), rewriter, InsertPoint.before(op))
        results = [emitter.emit(expr) for expr in indexing_map.results]
        rewriter.replace(op, (), results)


@dataclass(frozen=True)
class SimplifyAffinePass(ModulePass):
    """Lowers `apply_indexing` to `arith`, unsigned where ranges allow
    (XLA's `xla-simplify-affine`). No options."""

    name = "xla-simplify-affine"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(LowerApplyIndexing(), apply_recursively=False).rewrite_module(op)
