"""Output comparison: ulp distances against nextafter stepping, tolerances, NaNs, integers."""

from __future__ import annotations

import ml_dtypes
import numpy as np

from xla_emit.runtime import ulp_distance
from xla_emit.runtime.compare import compare, failed_at


def _steps(start: np.float32, count: int) -> np.float32:
    value = start
    for _ in range(count):
        value = np.nextafter(value, np.float32(np.inf))
    return value


def test_ulp_distance_counts_representable_floats() -> None:
    starts = np.array([1.0, -3.5, 0.0, -1e-45, 1e30], np.float32)
    for count in (0, 1, 7, 100):
        moved = np.array([_steps(s, count) for s in starts], np.float32)
        np.testing.assert_array_equal(ulp_distance(starts, moved), [count] * len(starts))


def test_ulp_distance_across_zero_and_in_bf16() -> None:
    tiny = np.float32(1e-45)  # the smallest subnormal
    assert ulp_distance(np.array([-tiny]), np.array([tiny]))[0] == 2
    one = np.array([1.0], ml_dtypes.bfloat16)
    bits = one.view(np.uint16) + np.uint16(3)
    assert ulp_distance(one, bits.view(ml_dtypes.bfloat16))[0] == 3


def test_reports_the_first_difference() -> None:
    expected = np.arange(12, dtype=np.float32).reshape(3, 4)
    actual = expected.copy()
    actual[1, 2] = _steps(actual[1, 2], 2)
    actual[2, 3] = 100.0
    comparison = compare(expected, actual)
    assert not comparison.matches and not comparison.identical
    assert comparison.first_difference == (1, 2)
    assert comparison.expected_value == 6.0
    assert comparison.max_abs_error == 89.0


def test_equal_infinities_are_no_difference() -> None:
    # inf - inf is NaN: the report once named [0] (-inf against -inf) as the first
    # difference and inf as the largest error, where the outputs differ by 1 at [1].
    expected = np.array([-np.inf, 2.0, np.inf], np.float16)
    actual = np.array([-np.inf, 3.0, np.inf], np.float16)
    comparison = compare(expected, actual)
    assert comparison.first_difference == (1,)
    assert comparison.max_abs_error == 1.0
    assert (comparison.expected_value, comparison.actual_value) == (2.0, 3.0)
    finite_against_inf = compare(expected, np.array([-np.inf, 2.0, 7.0], np.float16))
    assert finite_against_inf.max_abs_error == np.inf
    assert finite_against_inf.first_difference == (2,)


def test_small_errors_relative_to_the_largest_output_are_tolerated() -> None:
    # A reassociated sum: 1e-3 next to 1e3 is off by many ulp of itself, not of the output.
    expected = np.array([1000.0, 1e-3], np.float32)
    actual = np.array([1000.0, 1e-3 + 1e-4], np.float32)
    assert compare(expected, actual).matches
    assert not compare(expected, np.array([1000.5, 1e-3], np.float32)).matches


def test_nans_must_match_in_place_and_integers_exactly() -> None:
    with_nan = np.array([np.nan, 1.0], np.float32)
    assert compare(with_nan, with_nan.copy()).identical
    assert not compare(with_nan, np.array([1.0, 1.0], np.float32)).matches
    assert not compare(np.array([1, 2], np.int32), np.array([1, 3], np.int32)).matches
    assert compare(np.array([True]), np.array([True])).identical


def test_the_package_serves_every_name_it_lists() -> None:
    import xla_emit.runtime as runtime

    for name in runtime.__all__:
        assert getattr(runtime, name) is not None, name


def test_failed_at_names_the_element_and_its_two_values() -> None:
    expected = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    actual = np.array([[1.0, 2.0], [3.5, 4.0]], np.float32)
    result = failed_at(expected, actual, (1, 0), (0.5, 7), "too far, first", ", by hand")
    assert not result.matches and not result.identical
    assert (result.max_abs_error, result.max_ulp_error) == (0.5, 7)
    assert (result.expected_value, result.actual_value) == (3.0, 3.5)
    assert result.describe() == "too far, first at [1, 0]: expected 3.0, got 3.5, by hand"
