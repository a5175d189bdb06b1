"""Comparing outputs the way `--check` reports them: max abs error, max ulp error, first difference.

Integers and booleans must match exactly. Floats match when every element is
within `max_ulp` units in the last place of the expected value, or within a
tolerance relative to the largest expected magnitude (reductions reassociate
sums, so their rounding differs from the reference's by more than a few ulp
on small outputs). NaNs must sit at the same places.
"""

from __future__ import annotations

from dataclasses import dataclass

import ml_dtypes
import numpy as np

DEFAULT_MAX_ULP = 4

# Relative to the largest expected magnitude.
_SCALE_TOLERANCE: dict[np.dtype[np.generic], float] = {
    np.dtype(ml_dtypes.bfloat16): 1e-2,
    np.dtype(np.float16): 1e-3,
    np.dtype(np.float32): 1e-5,
    np.dtype(np.float64): 1e-12,
}

_ORDERED_INT = {2: np.int16, 4: np.int32, 8: np.int64}


@dataclass(frozen=True)
class Comparison:
    """How one output differs from the expected one."""

    matches: bool
    identical: bool
    max_abs_error: float
    max_ulp_error: int
    first_difference: tuple[int, ...] | None
    expected_value: float | None = None
    actual_value: float | None = None
    # What was demanded and how it went, when not the ulp/scale tolerance (see `expectations`).
    verdict: str | None = None

    def describe(self) -> str:
        if self.identical:
            return "bit-identical"
        if self.verdict is not None:
            return self.verdict
        where = ""
        if self.first_difference is not None:
            where = (
                f", first difference at {list(self.first_difference)}: "
                f"expected {self.expected_value}, got {self.actual_value}"
            )
        return f"max abs error {self.max_abs_error:.6g}, max ulp error {self.max_ulp_error}{where}"


def tolerance_rule(dtype: np.dtype[np.generic], max_ulp: int = DEFAULT_MAX_ULP) -> str:
    """The rule `compare` holds an output of `dtype` to, in words."""
    if dtype not in _SCALE_TOLERANCE:
        return "exactly (not a float type)"
    scale = _SCALE_TOLERANCE[dtype]
    return f"within {max_ulp} ulp or {scale:g} x the largest magnitude"


def scale_tolerance_of(dtype: np.dtype[np.generic]) -> float | None:
    """The tolerance relative to the largest magnitude `compare` allows a float `dtype`
    (complex: its parts'); None for types compared exactly."""
    if dtype.kind == "c":
        dtype = np.dtype(np.float32 if dtype == np.complex64 else np.float64)
    return _SCALE_TOLERANCE.get(dtype)


def ulp_distance(expected: np.ndarray, actual: np.ndarray) -> np.ndarray:
    """Units in the last place between two float arrays of one dtype (0 for equal NaNs)."""
    signed = _ORDERED_INT[expected.dtype.itemsize]
    a = _ordered(expected.view(signed))
    b = _ordered(actual.view(signed))
    return np.abs(a.astype(np.float64) - b.astype(np.float64))


def _ordered(bits: np.ndarray) -> np.ndarray:
    """Float bit patterns mapped to integers that sort like the floats."""
    wide = bits.astype(np.int64)
    minimum = np.iinfo(bits.dtype).min
    return np.where(wide < 0, minimum - wide, wide)


def as_parts(array: np.ndarray) -> np.ndarray:
    """A complex array as its real and imaginary parts: a trailing dimension of 2."""
    parts = np.dtype(np.float32 if array.dtype == np.complex64 else np.float64)
    return np.ascontiguousarray(array).view(parts).reshape(*array.shape, 2)


def compare(
    expected: np.ndarray,
    actual: np.ndarray,
    max_ulp: int = DEFAULT_MAX_ULP,
    scale_tolerance: float | None = None,
    allowance: float = 0.0,
) -> Comparison:
    """Compare one output against its expected value (complex values part by part): within
    `max_ulp` ulp or the scale tolerance (of the dtype unless given) x the largest magnitude
    plus `allowance` (float types only; integers stay exact)."""
    if expected.shape != actual.shape or expected.dtype != actual.dtype:
        return Comparison(False, False, float("inf"), 0, None)
    if expected.dtype.kind == "c":
        return compare(as_parts(expected), as_parts(actual), max_ulp, scale_tolerance, allowance)
    if np.array_equal(_bits(expected), _bits(actual)):
        return Comparison(True, True, 0.0, 0, None)
    if expected.dtype not in _SCALE_TOLERANCE:
        differs = expected != actual
        index = first_index(differs)
        error = np.abs(expected.astype(np.float64) - actual.astype(np.float64))
        return Comparison(
            False,
            False,
            float(error.max()),
            0,
            index,
            value_at(expected, index),
            value_at(actual, index),
        )
    wide_expected = expected.astype(np.float64)
    wide_actual = actual.astype(np.float64)
    nan_mismatch = np.isnan(wide_expected) != np.isnan(wide_actual)
    # Equal values (equal infinities too, whose difference is NaN) and two NaNs are no error.
    same = (wide_expected == wide_actual) | (np.isnan(wide_expected) & np.isnan(wide_actual))
    with np.errstate(invalid="ignore"):
        error = np.where(same, 0.0, np.abs(wide_expected - wide_actual))
    error = np.where(np.isnan(error), np.inf, error)
    ulps = ulp_distance(expected, actual)
    ulps = np.where(np.isnan(wide_expected) & np.isnan(wide_actual), 0, ulps)
    finite = wide_expected[np.isfinite(wide_expected)]
    scale = float(np.abs(finite).max()) if finite.size else 0.0
    relative = _SCALE_TOLERANCE[expected.dtype] if scale_tolerance is None else scale_tolerance
    tolerance = relative * scale + allowance
    bad = nan_mismatch | ((ulps > max_ulp) & (error > tolerance))
    index = first_index(error > 0)
    return Comparison(
        not bool(bad.any()),
        False,
        float(error.max()),
        int(ulps.max()),
        index,
        value_at(expected, index),
        value_at(actual, index),
    )


def _bits(array: np.ndarray) -> np.ndarray:
    if array.dtype.kind == "f" or array.dtype == np.dtype(ml_dtypes.bfloat16):
        return array.view(_ORDERED_INT[array.dtype.itemsize])
    return array


def first_index(mask: np.ndarray) -> tuple[int, ...] | None:
    hits = np.argwhere(mask)
    return tuple(int(i) for i in hits[0]) if hits.size else None


def value_at(array: np.ndarray, index: tuple[int, ...] | None) -> float | None:
    return None if index is None else float(array[index])


def failed_at(
    expected: np.ndarray,
    actual: np.ndarray,
    index: tuple[int, ...] | None,
    errors: tuple[float, int],
    why: str,
    after: str = "",
) -> Comparison:
    """A failed comparison (max abs and max ulp `errors`) whose verdict, `why`, goes on
    with the first element that fails and its two values, then `after`."""
    want, got = value_at(expected, index), value_at(actual, index)
    verdict = f"{why} at {list(index or ())}: expected {want}, got {got}{after}"
    return Comparison(False, False, *errors, index, want, got, verdict=verdict)
