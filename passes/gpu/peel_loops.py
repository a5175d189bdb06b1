"""`xla-gpu-peel-loops`: splits off the last iteration of a constrained range variable.

A loop whose map has a constraint on a range variable checks it at every
iteration once lowered to `scf`. Often only the variable's last value can
violate it:

    xla.loop (%th)[%i] -> (%r) in #map<"(th_x)[s0] -> (s0 * 128 + th_x),
        domain: th_x in [0, 127], s0 in [0, 7], s0 * 128 + th_x in [0, 999]">

runs as a main loop over `s0 in [0, 6]`, where the constraint always holds
and simplification drops it, then a tail loop over `s0 in [7, 7]` that keeps
it; the tail takes the main loop's results as its iter args:

    %main = xla.loop ... "(th_x)[s0] -> (s0 * 128 + th_x), domain: th_x in [0, 127], s0 in [0, 6]"
              iter_args(%it = %init) { BODY }
    %tail = xla.loop ... "..., s0 in [7, 7], th_x in [0, 103]"  iter_args(%it = %main) { BODY }

XLA's rule (`peel_loops.cc`): the map is simplified; range variables are
visited from the innermost out while the product of the trip counts visited
so far (this one included) is below 64; a variable is split when a
constraint uses it, its range is not a point, and the main part's simplified
map no longer constrains it. Later splits apply to the main part, so the
loops run as: main, then the tails from the last split to the first. Parts
whose map is known to be empty are not emitted. Loops over runtime variables
are left alone.

Splitting an inner variable while an outer one has more than one value
reorders the iterations (all main iterations first); the loop results are the
same when the iterations commute, as the emitters' loops that write disjoint
tensor elements do, but a floating-point accumulation may round differently.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xla_emit.dialects.xla import IndexingMapAttr, LoopOp, LoopOpBase

from xla_emit.indexing import IndexingMap, Interval, SymbolExpr, Variable

# XLA stops walking outwards once the visited variables span this many iterations.
_MAX_PEELED_ITERATIONS = 64


def _is_symbol_constrained(indexing_map: IndexingMap, position: int) -> bool:
    return any(
        isinstance(term, SymbolExpr) and term.position == position
        for expr, _ in indexing_map.constraints
        for term in expr.walk()
    )


def _with_range_var_bounds(
    indexing_map: IndexingMap, position: int, bounds: Interval
) -> IndexingMap:
    range_vars = list(indexing_map.range_vars)
    range_vars[position] = Variable(bounds, range_vars[position].name)
    return dataclasses.replace(indexing_map, range_vars=tuple(range_vars))


def peeled_maps(indexing_map: IndexingMap) -> list[IndexingMap] | None:
    """The maps of the loops that replace a loop over `indexing_map`, in execution order,
    or None when no variable can be peeled. Known-empty parts are left out.
    """
    # Tails in the order they were split off; the main part last.
    parts = [indexing_map.simplify()]
    iterations = 1
    for position in reversed(range(len(indexing_map.range_vars))):
        if iterations >= _MAX_PEELED_ITERATIONS:
            break
        current = parts[-1]
        bounds = current.range_vars[position].bounds
        iterations *= bounds.size
        if bounds.is_point or not _is_symbol_constrained(current, position):
            continue
        main = _with_range_var_bounds(
            current, position, Interval(bounds.lower, bounds.upper - 1)
        ).simplify()
        if _is_symbol_constrained(main, position):
            continue  # the constraint does not come from the last value alone
        tail = _with_range_var_bounds(
            current, position, Interval(bounds.upper, bounds.upper)
        ).simplify()
        parts[-1:] = [tail, main]
    if len(parts) == 1:
        return None
    return [part for part in reversed(parts) if not part.is_known_empty]


class PeelLoop(RewritePattern):
    """Replaces one `xla.loop` by its main loop and tail loops (see the module docstring)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: LoopOpBase, rewriter: PatternRewriter) -> None:
        indexing_map = op.indexing_map
        if indexing_map.rt_vars:
            return  # runtime variables are not loop variables: nothing to split
        maps = peeled_maps(indexing_map)
        if maps is None:
            return  # no range variable to peel
        carried: list[SSAValue] = list(op.inits)
        for part in maps:
            loop = LoopOp(
                IndexingMapAttr.from_map(part),
                op.dims,
                carried,
                op.body.clone(),
                dict(op.attributes),
            )
            rewriter.insert(loop, InsertPoint.before(op))
            carried = list(loop.res)
        rewriter.replace(op, (), carried)


@dataclass(frozen=True)
class PeelLoopsPass(ModulePass):
    """Splits `xla.loop`s whose range variable is constrained only at its last value into
    a main loop without the constraint and a tail loop (XLA's `xla-gpu-peel-loops`).
    No options."""

    name = "xla-gpu-peel-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(PeelLoop(), apply_recursively=True).rewrite_module(op)
