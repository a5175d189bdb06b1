"""Interval arithmetic checked exhaustively against brute force on small intervals."""

import itertools
from collections.abc import Callable

import pytest

from xla_emit.indexing import Interval

SMALL = [Interval(lo, hi) for lo in range(-3, 4) for hi in range(lo, 4)]


def _values(interval: Interval) -> range:
    return range(interval.lower, interval.upper + 1)


def _hull(values: list[int]) -> Interval:
    return Interval(min(values), max(values))


def test_basic_properties() -> None:
    assert Interval(2, 5).size == 4 and not Interval(2, 5).is_point
    assert Interval(3, 3).is_point and Interval(3, 3).size == 1
    assert Interval(4, 3).is_empty and Interval(4, 3).size == 0
    assert Interval(0, 9).contains(9) and not Interval(0, 9).contains(10)
    assert Interval(0, 9).intersect(Interval(5, 20)) == Interval(5, 9)
    assert Interval(0, 3).intersect(Interval(5, 20)).is_empty
    assert Interval(0, 3).union(Interval(7, 9)) == Interval(0, 9)
    assert Interval(4, 3).union(Interval(7, 9)) == Interval(7, 9)
    assert str(Interval(-1, 7)) == "[-1, 7]"


@pytest.mark.parametrize(
    ("name", "ranged", "exact"),
    [
        ("add", lambda a, b: a + b, lambda x, y: x + y),
        ("mul", lambda a, b: a * b, lambda x, y: x * y),
        ("min", lambda a, b: a.min(b), min),
        ("max", lambda a, b: a.max(b), max),
    ],
)
def test_monotone_operations_are_exact(
    name: str,
    ranged: Callable[[Interval, Interval], Interval],
    exact: Callable[[int, int], int],
) -> None:
    for a, b in itertools.product(SMALL, SMALL):
        values = [exact(x, y) for x in _values(a) for y in _values(b)]
        assert ranged(a, b) == _hull(values), (name, a, b)


@pytest.mark.parametrize(
    ("name", "ranged", "exact"),
    [
        ("floordiv", lambda a, b: a.floordiv(b), lambda x, y: x // y),
        ("ceildiv", lambda a, b: a.ceildiv(b), lambda x, y: -(-x // y)),
        ("mod", lambda a, b: a.mod(b), lambda x, y: x % y),
    ],
)
def test_divisions_enclose_every_value(
    name: str,
    ranged: Callable[[Interval, Interval], Interval],
    exact: Callable[[int, int], int],
) -> None:
    for a, b in itertools.product(SMALL, SMALL):
        values = [exact(x, y) for x in _values(a) for y in _values(b) if y != 0]
        if not values:
            continue
        got = ranged(a, b)
        assert got.lower <= min(values) and max(values) <= got.upper, (name, a, b, got)
        # Away from zero divisors the bounds are exact for division, and for mod by
        # one positive constant.
        exact_expected = name != "mod" or (b.is_point and b.lower > 0)
        if not b.contains(0) and exact_expected:
            assert got == _hull(values), (name, a, b, got)


def test_division_by_a_range_holding_zero_is_unbounded() -> None:
    assert Interval(0, 9).floordiv(Interval(-1, 1)) == Interval.unbounded()
    assert Interval(0, 9).ceildiv(Interval(0, 0)) == Interval.unbounded()


def test_mod_without_wraparound_keeps_the_shifted_range() -> None:
    assert Interval(17, 19).mod(Interval.point(8)) == Interval(1, 3)
    assert Interval(5, 9).mod(Interval.point(8)) == Interval(0, 7)
