"""Range-decided comparisons against comparing every pair of values."""

import operator

from hypothesis import given, settings
from hypothesis import strategies as st

from xla_emit.indexing import Interval
from xla_emit.indexing.comparison import decide_comparison, decide_less

_PREDICATES = {
    0: operator.eq,
    1: operator.ne,
    2: operator.lt,
    3: operator.le,
    4: operator.gt,
    5: operator.ge,
}


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 9),
    st.integers(-5, 5),
    st.integers(0, 5),
    st.integers(-5, 5),
    st.integers(0, 5),
)
def test_decided_comparisons_hold_for_every_pair(
    predicate: int, a_lo: int, a_len: int, b_lo: int, b_len: int
) -> None:
    a, b = Interval(a_lo, a_lo + a_len), Interval(b_lo, b_lo + b_len)
    outcome = decide_comparison(predicate, a, b)
    compare = _PREDICATES[predicate % 6]
    pairs = [(x, y) for x in range(a.lower, a.upper + 1) for y in range(b.lower, b.upper + 1)]
    if predicate >= 6:
        # Unsigned predicates compare two's-complement bit patterns.
        pairs = [(x % 2**64, y % 2**64) for x, y in pairs]
        compare = _PREDICATES[predicate - 4]
    answers = {compare(x, y) for x, y in pairs}
    if outcome is None:
        return
    assert answers == {outcome}


def test_comparison_decisions_are_found_when_ranges_separate() -> None:
    assert decide_comparison(5, Interval(0, 127), Interval(0, 0)) is True  # sge
    assert decide_comparison(3, Interval(0, 127), Interval(127, 127)) is True  # sle
    assert decide_comparison(2, Interval(0, 127), Interval(64, 64)) is None  # slt straddles


def test_decide_less_on_every_pair_of_small_intervals() -> None:
    intervals = [Interval(lo, hi) for lo in range(-3, 4) for hi in range(lo, 4)]
    for a in intervals:
        for b in intervals:
            for or_equal, compare in ((False, operator.lt), (True, operator.le)):
                answers = {
                    compare(x, y)
                    for x in range(a.lower, a.upper + 1)
                    for y in range(b.lower, b.upper + 1)
                }
                decided = decide_less(a, b, or_equal)
                expected = answers.pop() if len(answers) == 1 else None
                assert decided == expected, (a, b, or_equal)
