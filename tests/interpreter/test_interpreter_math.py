"""math ops against numpy; bf16/f16 evaluate in f32 and round once."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest
from interpreter_harness import RunKernel
from test_interpreter_arith import unary_kernel

BF16 = ml_dtypes.bfloat16


def _inputs(dtype: type, positive: bool) -> np.ndarray:
    values = np.random.default_rng(11).uniform(0.05 if positive else -3.0, 3.0, 64)
    values[:6] = (
        [0.5, 1.5, 2.5, -0.5, -2.5, 0.49999997] if not positive else [0.5, 1.5, 2.5, 1.0, 2.0, 0.25]
    )
    return values.astype(dtype)


@pytest.mark.parametrize(
    ("name", "reference", "positive"),
    [
        ("math.exp", math.exp, False),
        ("math.expm1", math.expm1, False),
        ("math.log", math.log, True),
        ("math.log1p", math.log1p, True),
        ("math.tanh", math.tanh, False),
        ("math.sqrt", math.sqrt, True),
        ("math.rsqrt", lambda v: 1.0 / math.sqrt(v), True),
        ("math.sin", math.sin, False),
        ("math.cos", math.cos, False),
        ("math.absf", abs, False),
        # Integer results keep the sign of the input (ceil(-0.3) is -0.0).
        ("math.floor", lambda v: math.copysign(math.floor(v), v), False),
        ("math.ceil", lambda v: math.copysign(math.ceil(v), v), False),
        ("math.roundeven", lambda v: math.copysign(round(v), v), False),
        ("math.cbrt", lambda v: math.copysign(abs(v) ** (1 / 3), v), False),
    ],
)
@pytest.mark.parametrize("type_", ["bf16", "f16", "f32"])
def test_unary_math(
    run_kernel: RunKernel, name: str, reference, positive: bool, type_: str
) -> None:
    dtype = {"bf16": BF16, "f16": np.float16, "f32": np.float32}[type_]
    a = _inputs(dtype, positive)
    # The reference evaluator's semantics: in double, rounded to f32, then to the type.
    expected = (
        np.array([reference(float(v)) for v in a], np.float64).astype(np.float32).astype(dtype)
    )
    (result,) = run_kernel(unary_kernel(f"{name} %x : {type_}", type_, type_), [a])
    bits = np.uint32 if type_ == "f32" else np.uint16
    if name == "math.cbrt":
        # x ** (1/3) is not correctly rounded in double; allow one ulp of the type.
        assert (
            np.max(
                np.abs(result.view(bits).astype(np.int64) - expected.view(bits).astype(np.int64))
            )
            <= 1
        )
        return
    np.testing.assert_array_equal(result.view(bits), expected.view(bits))


def test_sixteen_bit_tables_cover_every_input(run_kernel: RunKernel) -> None:
    every = np.arange(1 << 16, dtype=np.uint16).view(BF16)
    with np.errstate(all="ignore"):
        expected = np.tanh(every.astype(np.float64)).astype(np.float32).astype(BF16)
    (result,) = run_kernel(unary_kernel("math.tanh %x : bf16", "bf16", "bf16", n=1 << 16), [every])
    same = (result.view(np.uint16) == expected.view(np.uint16)) | (
        np.isnan(result.astype(np.float32)) & np.isnan(expected.astype(np.float32))
    )
    assert same.all()


def test_round_is_half_away_from_zero(run_kernel: RunKernel) -> None:
    a = np.array([0.5, 1.5, 2.5, -0.5, -2.5, 0.49999997, -1.2, 7.0], np.float32)
    expected = np.array(
        [math.copysign(math.floor(abs(float(v)) + 0.5), float(v)) for v in a], np.float32
    )
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
    assert power == np.float32(math.pow(float(a), float(b)))
    assert angle == np.float32(math.atan2(float(a), float(b)))
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
    assert results == [32 - value.bit_length(), 3, value.bit_count()]


def test_f32_results_of_ufuncs_are_the_f64_values_rounded_once() -> None:
    """The one-call path (f64 loop, cast down in buffers) against the two whole-array casts
    it replaces, bit for bit, on random f32 bit patterns (NaNs, infinities, subnormals)."""
    from xla_emit.interpreter import math as math_impls

    bits = np.random.default_rng(3).integers(0, 2**32, 200_000, dtype=np.uint64)
    x = bits.astype(np.uint32).view(np.float32)
    y = x[::-1].copy()
    f32 = np.dtype(np.float32)
    functions = [(f, (x,)) for f in math_impls._UNARY.values()]  # pyright: ignore[reportPrivateUsage]
    functions += [(f, (x, y)) for f in math_impls._BINARY.values()]  # pyright: ignore[reportPrivateUsage]
    checked = 0
    for function, args in functions:
        if not isinstance(function, np.ufunc):
            continue
        with np.errstate(all="ignore"):
            expected = function(*(a.astype(np.float64) for a in args)).astype(np.float32)
        got = math_impls._evaluate(function, f32, *args)  # pyright: ignore[reportPrivateUsage]
        assert got.dtype == f32
        assert np.array_equal(got.view(np.uint32), expected.view(np.uint32)), function
        checked += 1
    assert checked > 20
