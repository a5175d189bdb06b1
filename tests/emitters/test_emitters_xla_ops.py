"""Ops XLA writes that were rejected as unsupported: count-leading-zeros, reduce-precision,
and map inside a fusion. Each runs in the evaluator and compiled, against independent
oracles: Python's `int.bit_length`, numpy's and ml_dtypes' own rounding to f16 and bf16,
and the mapped computation written with numpy."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from xla_emit import api
from xla_emit.diagnostics import UserError


def _fused(param: str, result: str, op: str) -> str:
    return (
        f"HloModule m\n\nf {{\n  p = {param} parameter(0)\n  ROOT o = {result} {op}\n}}\n\n"
        f"ENTRY e {{\n  x = {param} parameter(0)\n"
        f"  ROOT r = {result} fusion(x), kind=kLoop, calls=f\n}}\n"
    )


def _both(text: str, inputs: list[np.ndarray]) -> list[np.ndarray]:
    return [api.run_reference(text, inputs)[0], api.run_hlo(text, inputs)[0]]


@pytest.mark.parametrize(
    ("type_", "dtype", "values"),
    [
        ("s32", np.int32, [0, 1, 2, 3, -1, 255, 256, 2**30, -(2**31), 2**31 - 1]),
        ("u8", np.uint8, [0, 1, 0x7F, 0x80, 0xFF, 16]),
        ("s64", np.int64, [0, 1, 2**62, -1, 2**40 + 5]),
    ],
)
def test_count_leading_zeros(type_: str, dtype: type, values: list[int]) -> None:
    x = np.array(values, dtype)
    width = np.dtype(dtype).itemsize * 8
    expected = [width - (int(v) % (1 << width)).bit_length() for v in values]
    text = _fused(f"{type_}[{len(values)}]", f"{type_}[{len(values)}]", "count-leading-zeros(p)")
    for out in _both(text, [x]):
        np.testing.assert_array_equal(out, np.array(expected, dtype))


def test_count_leading_zeros_needs_an_integer() -> None:
    with pytest.raises(UserError, match="needs an integer operand"):
        api.parse_hlo(_fused("f32[2]", "f32[2]", "count-leading-zeros(p)"))


NORMAL_F32 = np.array(
    [1.0, 1.00048828125, 1.0009765625, 65504.0, 3.14159, -2.5e-3, 6.2e-5, 0.0, -0.0], np.float32
)


def test_reduce_precision_to_f16_rounds_like_a_cast_to_f16() -> None:
    # In f16's normal range the format's rounding is numpy's cast (nearest even).
    text = _fused("f32[9]", "f32[9]", "reduce-precision(p), exponent_bits=5, mantissa_bits=10")
    expected = NORMAL_F32.astype(np.float16).astype(np.float32)
    for out in _both(text, [NORMAL_F32]):
        np.testing.assert_array_equal(out.view(np.uint32), expected.view(np.uint32))


def test_reduce_precision_beyond_the_range_flushes() -> None:
    x = np.array([65520.0, -1.0e5, 1.0e-6, -1.0e-6, np.inf, np.nan], np.float32)
    text = _fused("f32[6]", "f32[6]", "reduce-precision(p), exponent_bits=5, mantissa_bits=10")
    for out in _both(text, [x]):
        # Rounded up past f16's largest: inf; below its smallest normal: a signed zero.
        np.testing.assert_array_equal(out[:5], [np.inf, -np.inf, 0.0, -0.0, np.inf])
        assert np.signbit(out[3]) and np.isnan(out[5])


def test_reduce_precision_to_bf16_matches_ml_dtypes() -> None:
    rng = np.random.default_rng(2)
    x = (rng.standard_normal(64) * np.exp2(rng.integers(-60, 60, 64))).astype(np.float32)
    text = _fused("f32[64]", "f32[64]", "reduce-precision(p), exponent_bits=8, mantissa_bits=7")
    expected = x.astype(ml_dtypes.bfloat16).astype(np.float32)
    for out in _both(text, [x]):
        np.testing.assert_array_equal(out, expected)


def test_reduce_precision_without_mantissa_keeps_nan() -> None:
    x = np.array([np.nan, 3.0, -5.0, np.inf], np.float32)
    text = _fused("f32[4]", "f32[4]", "reduce-precision(p), exponent_bits=8, mantissa_bits=0")
    # 3 = 1.5 * 2: a tie between 2 and 4, to the even exponent (2); -5 = -1.25 * 4 -> -4.
    # NaN stays NaN with no mantissa bit left: XLA:CPU (jax 0.10.2) printed [nan, 2, -4, inf]
    # (the MLIR emitters select the input NaN; XLA's older LLVM emitter made it inf).
    for out in _both(text, [x]):
        np.testing.assert_array_equal(out, [np.nan, 2.0, -4.0, np.inf])


def test_reduce_precision_of_bf16_keeps_bf16() -> None:
    x = np.array([1.0, 1.0078125, 300.0, 70000.0], ml_dtypes.bfloat16)
    text = _fused("bf16[4]", "bf16[4]", "reduce-precision(p), exponent_bits=5, mantissa_bits=2")
    # Two mantissa bits: 1.0078125 -> 1.0, 300 -> 320 (1.25 * 256); 70000 overflows f16's range.
    for out in _both(text, [x]):
        np.testing.assert_array_equal(out.astype(np.float32), [1.0, 1.0, 320.0, np.inf])


def test_reduce_precision_needs_its_format() -> None:
    with pytest.raises(UserError, match="needs the attribute 'mantissa_bits'"):
        api.parse_hlo(_fused("f32[2]", "f32[2]", "reduce-precision(p), exponent_bits=5"))


MAP_IN_FUSION = """HloModule m

lse {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  m = f32[] maximum(a, b)
  d = f32[] subtract(a, b)
  ROOT s = f32[] add(m, d)
}

f {
  p = f32[2,6] parameter(0)
  q = f32[2,6] parameter(1)
  ROOT c = f32[2,6] map(p, q), dimensions={0,1}, to_apply=lse
}

ENTRY e {
  x = f32[2,6] parameter(0)
  y = f32[2,6] parameter(1)
  ROOT r = f32[2,6] fusion(x, y), kind=kLoop, calls=f
}
"""


def test_map_in_a_fusion() -> None:
    rng = np.random.default_rng(8)
    x, y = (rng.standard_normal((2, 6)).astype(np.float32) for _ in range(2))
    expected = np.maximum(x, y) + (x - y)
    for out in _both(MAP_IN_FUSION, [x, y]):
        np.testing.assert_array_equal(out, expected)
