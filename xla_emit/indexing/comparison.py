"""Comparisons that value ranges decide: `a < b` for every value, for none, or it depends.

The range reasoning behind folding `arith.cmpi`, `arith.minsi` and `arith.maxsi`
(`xla-simplify-arith`); predicates are numbered as `arith.cmpi` numbers them.
"""

from __future__ import annotations

from xla_emit.indexing.interval import Interval

# arith.cmpi predicate numbers.
_EQ, _NE, _SLT, _SLE, _SGT, _SGE, _ULT, _ULE, _UGT, _UGE = range(10)


def decide_less(a: Interval, b: Interval, or_equal: bool) -> bool | None:
    """Whether a < b (or a <= b) for all values, for none, or it depends (None)."""
    if a.upper < b.lower or (or_equal and a.upper <= b.lower):
        return True
    if a.lower > b.upper or (not or_equal and a.lower >= b.upper):
        return False
    return None


def decide_comparison(predicate: int, a: Interval, b: Interval) -> bool | None:
    """The value of `cmpi predicate, a, b` if the ranges decide it."""
    if predicate in (_ULT, _ULE, _UGT, _UGE):
        if a.lower < 0 or b.lower < 0:
            return None  # negative values compare as huge unsigned numbers
        predicate -= _ULT - _SLT
    if predicate in (_EQ, _NE):
        if a.is_point and b.is_point and a.lower == b.lower:
            equal: bool | None = True
        elif a.intersect(b).is_empty:
            equal = False
        else:
            equal = None
        if equal is None or predicate == _EQ:
            return equal
        return not equal
    if predicate == _SLT:
        return decide_less(a, b, or_equal=False)
    if predicate == _SLE:
        return decide_less(a, b, or_equal=True)
    if predicate == _SGT:
        return decide_less(b, a, or_equal=False)
    if predicate == _SGE:
        return decide_less(b, a, or_equal=True)
    return None
