"""`bitcast` that changes the element type, inside fusions and in the entry.

Oracle: numpy's `view` of the operand's bytes in memory (the layout's order),
written out in each test; the reference evaluator must agree with it too.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from xla_emit import api
from xla_emit.diagnostics import UserError


def _fused(param: str, result: str, body: str, extra: str = "", extra_param: str = "") -> str:
    params = f"p = {param} parameter(0)" + (f"\n  q = {extra_param} parameter(1)" if extra else "")
    args = "x, y" if extra else "x"
    entry_params = f"x = {param} parameter(0)" + (
        f"\n  y = {extra_param} parameter(1)" if extra else ""
    )
    return (
        f"HloModule m\n\nf {{\n  {params}\n  {body}\n}}\n\n"
        f"ENTRY e {{\n  {entry_params}\n"
        f"  ROOT r = {result} fusion({args}), kind=kLoop, calls=f\n}}\n"
    )


def _both(text: str, inputs: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    (reference,) = api.run_reference(text, inputs)
    (compiled,) = api.run_hlo(text, inputs)
    return reference, compiled


def test_f32_to_s32_in_a_fusion() -> None:
    x = np.array([1.0, -2.0, 0.5, np.inf], np.float32)
    body = (
        "b = s32[4]{0} bitcast(p)\n  c = s32[4]{0} constant({1, 2, 3, 4})\n"
        "  ROOT a = s32[4]{0} add(b, c)"
    )
    expected = x.view(np.int32) + np.array([1, 2, 3, 4], np.int32)
    for out in _both(_fused("f32[4]{0}", "s32[4]{0}", body), [x]):
        np.testing.assert_array_equal(out, expected)


def test_bf16_to_s16_feeds_a_compare() -> None:
    x = np.array([1.0, -1.0, 0.0, 3.0], ml_dtypes.bfloat16)
    y = np.array([16256, 0, 1, 16000], np.int16)
    body = "b = s16[4]{0} bitcast(p)\n  ROOT c = pred[4]{0} compare(b, q), direction=LT"
    text = _fused("bf16[4]{0}", "pred[4]{0}", body, extra="y", extra_param="s16[4]{0}")
    for out in _both(text, [x, y]):
        np.testing.assert_array_equal(out, x.view(np.int16) < y)


def test_u64_to_f64_feeds_a_maximum() -> None:
    x = np.array([0x3FF0000000000000, 0xBFF0000000000000, 0x4000000000000000, 0], np.uint64)
    y = np.array([0.5, 0.5, 0.5, 0.5], np.float64)
    body = "b = f64[4]{0} bitcast(p)\n  ROOT m = f64[4]{0} maximum(b, q)"
    text = _fused("u64[4]{0}", "f64[4]{0}", body, extra="y", extra_param="f64[4]{0}")
    for out in _both(text, [x, y]):
        np.testing.assert_array_equal(out, np.maximum(x.view(np.float64), y))


@pytest.mark.parametrize("layout", ["{1,0}", "{0,1}"])
def test_narrower_elements_split_each_word(layout: str) -> None:
    x = np.array([0x04030201, 0x80FF7F10], np.uint32)
    body = f"b = s8[2,4]{layout} bitcast(p)\n  ROOT n = s8[2,4]{layout} negate(b)"
    in_memory = x.view(np.int8)  # little-endian: lowest byte first
    physical = in_memory.reshape(2, 4) if layout == "{1,0}" else in_memory.reshape(4, 2).T
    for out in _both(_fused("u32[2]{0}", f"s8[2,4]{layout}", body), [x]):
        np.testing.assert_array_equal(out, -physical)


def test_wider_elements_join_parts() -> None:
    x = np.arange(1, 17, dtype=np.uint8).reshape(2, 8) * np.uint8(15)
    body = "b = f32[4]{0} bitcast(p)\n  ROOT n = f32[4]{0} negate(b)"
    for out in _both(_fused("u8[2,8]{1,0}", "f32[4]{0}", body), [x]):
        np.testing.assert_array_equal(out, -x.reshape(-1).view(np.float32))


def test_entry_bitcast_changing_width() -> None:
    text = (
        "HloModule m\n\nENTRY e {\n  x = u32[2]{0} parameter(0)\n"
        "  ROOT b = s8[2,4]{1,0} bitcast(x)\n}\n"
    )
    x = np.array([0x04030201, 0x80FF7F10], np.uint32)
    for out in _both(text, [x]):
        np.testing.assert_array_equal(out, x.view(np.int8).reshape(2, 4))


def test_bitcast_of_another_byte_size_is_a_located_error() -> None:
    text = (
        "HloModule m\n\nENTRY e {\n  x = u32[2]{0} parameter(0)\n"
        "  ROOT b = s8[2,2]{1,0} bitcast(x)\n}\n"
    )
    with pytest.raises(UserError, match="byte size"):
        api.parse_hlo(text)
