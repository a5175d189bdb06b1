"""Small builders shared by the passes that lower `xla` ops to `scf`/`arith`.

The loop lowering and the predicated insert/extract lowering both turn
"is this point in the domain" into `arith.cmpi`s joined by `arith.andi`, and
both emit `apply_indexing` in the internal form. Index constants come from
`passes.loop_utils`, shared by every pass.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.ir import SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xla_emit.passes.loop_utils import index_constant

from xla_emit.indexing import Interval


def in_interval(
    rewriter: PatternRewriter, value: SSAValue, interval: Interval, where: InsertPoint
) -> SSAValue:
    """An i1 that is true iff `value` lies in `interval` (`eq` for a point)."""
    if interval.is_point:
        bound = index_constant(rewriter, interval.lower, where)
        return rewriter.insert(arith.CmpiOp(value, bound, "eq"), where).result
    lower = index_constant(rewriter, interval.lower, where)
    above = rewriter.insert(arith.CmpiOp(value, lower, "sge"), where).result
    upper = index_constant(rewriter, interval.upper, where)
    below = rewriter.insert(arith.CmpiOp(value, upper, "sle"), where).result
    return rewriter.insert(arith.AndIOp(above, below), where).result


def all_of(
    rewriter: PatternRewriter, conditions: Sequence[SSAValue], where: InsertPoint
) -> SSAValue | None:
    """The conjunction of `conditions` (None when there are none)."""
    if not conditions:
        return None
    result = conditions[0]
    for condition in conditions[1:]:
        result = rewriter.insert(arith.AndIOp(result, condition), where).result
    return result
