"""Closed integer intervals and the interval arithmetic used for range analysis."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

# Bounds of a variable whose range is not known: the int64 extremes, as in XLA.
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1


@dataclass(frozen=True)
class Interval:
    """The integers `lower..upper`, both ends included; empty when lower > upper."""

    lower: int
    upper: int

    @staticmethod
    def point(value: int) -> Interval:
        return Interval(value, value)

    @staticmethod
    def unbounded() -> Interval:
        return Interval(INT64_MIN, INT64_MAX)

    @property
    def is_point(self) -> bool:
        return self.lower == self.upper

    @property
    def is_empty(self) -> bool:
        return self.lower > self.upper

    @property
    def size(self) -> int:
        return max(0, self.upper - self.lower + 1)

    def contains(self, value: int | NDArray[np.int64]) -> bool | NDArray[np.bool_]:
        """Whether `value` lies in the interval; elementwise for numpy arrays."""
        if isinstance(value, int):
            return self.lower <= value <= self.upper
        return (value >= self.lower) & (value <= self.upper)

    def contains_interval(self, other: Interval) -> bool:
        """Whether every value of `other` lies in this interval (true for empty `other`)."""
        return other.is_empty or (self.lower <= other.lower and other.upper <= self.upper)

    def intersect(self, other: Interval) -> Interval:
        return Interval(max(self.lower, other.lower), min(self.upper, other.upper))

    def union(self, other: Interval) -> Interval:
        """The smallest interval holding both (the convex hull)."""
        if self.is_empty:
            return other
        if other.is_empty:
            return self
        return Interval(min(self.lower, other.lower), max(self.upper, other.upper))

    def __add__(self, other: Interval) -> Interval:
        return Interval(self.lower + other.lower, self.upper + other.upper)

    def __mul__(self, other: Interval) -> Interval:
        corners = [a * b for a in (self.lower, self.upper) for b in (other.lower, other.upper)]
        return Interval(min(corners), max(corners))

    def floordiv(self, divisor: Interval) -> Interval:
        """Range of `x floordiv y`; unbounded when `y` may be zero."""
        return self._divide(divisor, lambda a, b: a // b)

    def ceildiv(self, divisor: Interval) -> Interval:
        """Range of `x ceildiv y`; unbounded when `y` may be zero."""
        return self._divide(divisor, lambda a, b: -(-a // b))

    def _divide(self, divisor: Interval, divide: Callable[[int, int], int]) -> Interval:
        if divisor.contains(0) or divisor.is_empty or self.is_empty:
            return Interval.unbounded()
        # Floor and ceiling are monotone and x / y is monotone in each argument while y keeps
        # its sign, so the extremes sit at the corners of the box.
        corners = [
            divide(a, b) for a in (self.lower, self.upper) for b in (divisor.lower, divisor.upper)
        ]
        return Interval(min(corners), max(corners))

    def mod(self, divisor: Interval) -> Interval:
        """Range of `x mod y` with floor semantics (the result has the sign of y)."""
        if self.is_empty or divisor.is_empty:
            return Interval(0, -1)
        if divisor.is_point and divisor.lower > 0:
            c = divisor.lower
            if self.lower // c == self.upper // c:
                # No wrap-around inside the range: x mod c is x shifted by a constant.
                return Interval(self.lower % c, self.upper % c)
            return Interval(0, c - 1)
        if divisor.lower > 0:
            upper = divisor.upper - 1
            if self.lower >= 0:
                upper = min(upper, self.upper)
            return Interval(0, upper)
        if divisor.upper < 0:
            return Interval(divisor.lower + 1, 0)
        return Interval(min(0, divisor.lower + 1), max(0, divisor.upper - 1))

    def min(self, other: Interval) -> Interval:
        return Interval(min(self.lower, other.lower), min(self.upper, other.upper))

    def max(self, other: Interval) -> Interval:
        return Interval(max(self.lower, other.lower), max(self.upper, other.upper))

    def __str__(self) -> str:
        return f"[{self.lower}, {self.upper}]"


def ceil_div(a: int, b: int) -> int:
    """Exact ceiling of a / b for Python ints."""
    return -(-a // b)
