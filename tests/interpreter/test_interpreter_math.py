"""math ops against numpy; bf16/f16 evaluate in f32 and round once."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

from conftest import RunKernel
from test_interpreter_arith import unary_kernel

BF16 = ml_dtypes.bfloat16


def _inputs(dtype: type, positive: bool) -> np.ndarray:
    values = np.random.default_rng(11).uniform(0.05 if positive else -3.0, 3.0, 64)
    values[:6] = [0.5, 1.5, 2.5, -0.5, -2.5, 0.49999997] if not positive else [0.5, 1.5, 2.5, 1.0, 2.0, 0.25]
    return values.astype(dtype)


@pytest.mark.parametrize(
    ("name", "reference", "positive"),
    [
        ("math.exp", np.exp, False),
        ("math.expm1", np.expm1, False),
        ("math.log", np.log, True),
        ("math.log1p", np.log1p, True),
        ("math.tanh", np.tanh, False),
        ("math.sqrt", np.sqrt, True),
        ("math.rsqrt", lambda v: np.float32(1) / np.sqrt(v), True),
        ("math.sin", np.sin, False),
        ("math.cos", np.cos, False),
        ("math.absf", np.abs, False),
        ("math.floor", np.floor, False),
        ("math.ceil", np.ceil, False),
        ("math.roundeven", np.rint, False),
        ("math.cbrt", np.cbrt, False),
    ],
)
@pytest.mark.parametrize("type_", ["bf16", "f32"])
def test_unary_math(run_kernel: RunKernel, name: str, reference, positive: bool, type_: str) -> None:
    dtype = BF16 if type_ == "bf16" else np.float32
    a = _inputs(dtype, positive)
    expected = np.asarray(reference(a.astype(np.float32))).astype(dtype)
    (result,) = run_kernel(unary_kernel(f"{name} %x : {type_}", type_, type_), [a])
    np.testing.assert_array_equal(result.view(np.uint16 if type_ == "bf16" else np.uint32), expected.view(np.uint16 if type_ == "bf16" else np.uint32))


def test_round_is_half_away_from_zero(run_kernel: RunKernel) -> None:
    a = np.array([0.5, 1.5, 2.5, -0.5, -2.5, 0.49999997, -1.2, 7.0], np.float32)
    expected = np.array([math.copysign(math.floor(abs(float(v)) + 0.5), float(v)) for v in a], np.float32)
    # 0.49999997 + 0.5 rounds up to 1.0 in f32: a naive floor(x + 0.5) gets it wrong.
    expected[5] = 0.0
    (result,) = run_kernel(unary_kernel("math.round %x : f32", "f32", "f32", n=8), [a])
    np.testing.assert_array_equal(result, expected)


def test_erf_matches_python(run_kernel: RunKernel) -> None:
    a = _inputs(np.float32, False)
    expected = np.array([math.erf(float(v)) for v in a]).astype(np.float32)
    (result,) = run_kernel(unary_kernel("math.erf %x : f32", "f32", "f32"), [a])
    np.testing.assert_array_equal(result, expected)


def test_binary_math_and_fma(run_kernel: RunKernel) -> None:
    text = """
func.func @main(%a: f32, %b: f32, %c: f32) -> (f32, f32, f32) {
  %p = math.powf %a, %b : f32
  %t = math.atan2 %a, %b : f32
  %f = math.fma %a, %b, %c : f32
  return %p, %t, %f : f32, f32, f32
}
"""
    a, b = np.float32(1.0 + 2.0**-12), np.float32(1.0 - 2.0**-12)
    c = np.float32(-1.0)
    power, angle, fused = run_kernel(text, [a, b, c])
    assert power == np.power(a, b)
    assert angle == np.arctan2(a, b)
    # a * b = 1 - 2^-24 exactly; a separate f32 multiply would round it to 1 and give 0.
    assert float(fused) == -(2.0**-24)


def test_integer_bit_counts(run_kernel: RunKernel) -> None:
    text = """
func.func @main(%a: i32) -> (i32, i32, i32) {
  %l = math.ctlz %a : i32
  %t = math.cttz %a : i32
  %p = math.ctpop %a : i32
  return %l, %t, %p : i32, i32, i32
}
"""
    value = 0b0000_0000_0001_0110_0000_0000_0000_1000
    results = [int(v) for v in run_kernel(text, [np.int32(value)])]
    assert results == [32 - value.bit_length(), 3, bin(value).count("1")]
