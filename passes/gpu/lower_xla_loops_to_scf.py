"""`xla-lower-xla-loops-to-scf`: `xla.loop` / `xla_gpu.loop` -> `scf.for` + `scf.if`.

    %r = xla_gpu.loop (%th, %bl)[%vi] -> (%d0, %d1) in #map iter_args(%it = %init) -> (T) {
      BODY(%vi, %d0, %d1, %it)
    }

becomes one `scf.for` per range variable (`[lb, ub + 1)`, step 1, s0
outermost) carrying the iter args, and inside the innermost one

    %in = <every dim in its bounds> and <every constraint holds>
    %x = scf.if %in -> (T) {
      %d0 = xla_gpu.apply_indexing #map_d0(%th, %bl)[%vi]
      %d1 = xla_gpu.apply_indexing #map_d1(%th, %bl)[%vi]
      BODY
      scf.yield ...
    } else {
      scf.yield %it       // points outside the domain are skipped
    }

Bounds use `sge`/`sle`, a point bound `eq`, as XLA does. Checks that are
always true are left for `xla-simplify-arith` to fold (it knows the ranges of
thread and block ids). A loop whose map has runtime variables is left alone.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xla_emit.dialects.xla import LoopOpBase, YieldOpBase, make_apply_indexing
from xla_emit.passes.greedy_driver import finish_like_greedy_driver
from xla_emit.passes.scf_building import all_of, in_interval, index_constant

from xla_emit.indexing import AffineExpr, IndexingMap


def _single_result_map(indexing_map: IndexingMap, expr: AffineExpr) -> IndexingMap:
    """`indexing_map` computing only `expr`, without constraints (apply_indexing has none)."""
    return dataclasses.replace(indexing_map, results=(expr,), constraints=())


@dataclass
class _Nest:
    """The `scf.for` nest built for one loop: the loops and the innermost point."""

    loops: list[scf.ForOp]
    induction_vars: list[SSAValue]
    carried: list[SSAValue]
    innermost: InsertPoint


def _build_for_nest(loop: LoopOpBase, rewriter: PatternRewriter) -> _Nest:
    types: list[Attribute] = [init.type for init in loop.inits]
    nest = _Nest([], [], list(loop.inits), InsertPoint.before(loop))
    for variable, induction_var in zip(
        loop.indexing_map.range_vars, loop.induction_vars, strict=True
    ):
        lower = index_constant(rewriter, variable.bounds.lower, nest.innermost)
        upper = index_constant(rewriter, variable.bounds.upper + 1, nest.innermost)
        step = index_constant(rewriter, 1, nest.innermost)
        block = Block(arg_types=[IndexType(), *types])
        block.args[0].name_hint = induction_var.name_hint
        for arg, iter_arg in zip(block.args[1:], loop.region_iter_args, strict=True):
            arg.name_hint = iter_arg.name_hint
        for_op = scf.ForOp(lower, upper, step, nest.carried, Region(block))
        rewriter.insert(for_op, nest.innermost)
        nest.loops.append(for_op)
        nest.induction_vars.append(block.args[0])
        nest.carried = list(block.args[1:])
        nest.innermost = InsertPoint.at_end(block)
    return nest


def _domain_checks(
    loop: LoopOpBase,
    induction_vars: Sequence[SSAValue],
    rewriter: PatternRewriter,
    where: InsertPoint,
) -> list[SSAValue]:
    """i1 values: each dim within its bounds, then each constraint satisfied."""
    indexing_map = loop.indexing_map
    checks = [
        in_interval(rewriter, dim, variable.bounds, where)
        for dim, variable in zip(loop.dims, indexing_map.dim_vars, strict=True)
    ]
    for expr, interval in indexing_map.constraints:
        value = make_apply_indexing(
            _single_result_map(indexing_map, expr), loop.dims, induction_vars
        )
        rewriter.insert(value, where)
        checks.append(in_interval(rewriter, value.res[0], interval, where))
    return checks


class LowerLoop(RewritePattern):
    """Rewrites one `xla.loop` into the `scf.for` + `scf.if` nest described above."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: LoopOpBase, rewriter: PatternRewriter) -> None:
        indexing_map = op.indexing_map
        if indexing_map.rt_vars:
            return  # runtime variables have no static bounds to loop over
        nest = _build_for_nest(op, rewriter)
        checks = _domain_checks(op, nest.induction_vars, rewriter, nest.innermost)
        condition = all_of(rewriter, checks, nest.innermost)
        types = [init.type for init in op.inits]
        body_point = nest.innermost
        guard: scf.IfOp | None = None
        if condition is not None:
            condition.name_hint = "inbounds"
            then_block = Block()
            else_block = Block([scf.YieldOp(*nest.carried)])
            guard = scf.IfOp(condition, types, Region(then_block), Region(else_block))
            rewriter.insert(guard, nest.innermost)
            body_point = InsertPoint.at_end(then_block)

        map_values: list[SSAValue] = []
        for expr, name in zip(indexing_map.results, op.map_results, strict=True):
            apply = make_apply_indexing(
                _single_result_map(indexing_map, expr),
                op.dims,
                nest.induction_vars,
            )
            apply.res[0].name_hint = name.name_hint
            rewriter.insert(apply, body_point)
            map_values.append(apply.res[0])

        terminator = op.body.block.last_op
        assert isinstance(terminator, YieldOpBase)
        rewriter.inline_block(
            op.body.block, body_point, [*nest.induction_vars, *map_values, *nest.carried]
        )
        produced: list[SSAValue] = list(terminator.values)
        if guard is not None or nest.loops:
            rewriter.replace(terminator, scf.YieldOp(*produced))
        else:
            rewriter.erase(terminator)
        if guard is not None:
            if nest.loops:
                rewriter.insert(scf.YieldOp(*guard.results), nest.innermost)
            produced = list(guard.results)
        for outer, inner in zip(reversed(nest.loops[:-1]), reversed(nest.loops[1:]), strict=True):
            rewriter.insert(scf.YieldOp(*inner.results), InsertPoint.at_end(outer.body.block))
        if nest.loops:
            produced = list(nest.loops[0].results)
        rewriter.replace(op, (), produced)


@dataclass(frozen=True)
class LowerXlaLoopsToScfPass(ModulePass):
    """Lowers `xla.loop`/`xla_gpu.loop` to nested `scf.for` with a domain check.

    Options:
    - greedy-cleanup (bool, default true): then fold, erase dead ops and keep one
      constant per value at the top of each function, as MLIR's greedy driver does
      in XLA's pass (`passes/greedy_driver.py`); false leaves the built ops in place.
    """

    name = "xla-lower-xla-loops-to-scf"

    greedy_cleanup: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(LowerLoop(), apply_recursively=True).rewrite_module(op)
        if self.greedy_cleanup:
            finish_like_greedy_driver(ctx, op)
