"""`bitcast-convert` between element widths in a loop fusion, against numpy's
little-endian views (the layout XLA gives the parts)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from xla_emit.api import run_hlo

DTYPES = {
    "u8": np.uint8,
    "s8": np.int8,
    "u16": np.uint16,
    "f16": np.float16,
    "bf16": ml_dtypes.bfloat16,
    "u32": np.uint32,
    "s32": np.int32,
    "f32": np.float32,
    "u64": np.uint64,
    "f64": np.float64,
}


def module(source: str, target: str, in_shape: list[int], out_shape: list[int]) -> str:
    a = f"{source}[{','.join(map(str, in_shape))}]"
    b = f"{target}[{','.join(map(str, out_shape))}]"
    return (
        f"HloModule m\nfused {{\n  x = {a} parameter(0)\n  ROOT c = {b} bitcast-convert(x)\n}}\n"
        f"ENTRY main {{\n  p = {a} parameter(0)\n"
        f"  ROOT f = {b} fusion(p), kind=kLoop, calls=fused\n}}\n"
    )


@pytest.mark.parametrize(
    ("source", "target"),
    [("u32", "u64"), ("u8", "f32"), ("bf16", "s32"), ("u64", "u32"), ("f64", "f16"), ("s32", "s8")],
)
def test_width_changing_bitcast_converts(source: str, target: str) -> None:
    rng = np.random.default_rng(7)
    src, dst = np.dtype(DTYPES[source]), np.dtype(DTYPES[target])
    raw = rng.integers(0, 256, 3 * 4 * max(src.itemsize, dst.itemsize), dtype=np.uint8)
    if src.itemsize < dst.itemsize:  # the parts of one result element are a minor dim
        values = raw.view(src).reshape(3, 4, dst.itemsize // src.itemsize)
        expected = raw.view(dst).reshape(3, 4)
    else:
        values = raw.view(src).reshape(3, 4)
        expected = raw.view(dst).reshape(3, 4, src.itemsize // dst.itemsize)
    text = module(source, target, list(values.shape), list(expected.shape))
    (result,) = run_hlo(text, [values])
    np.testing.assert_array_equal(np.asarray(result).view(np.uint8), expected.view(np.uint8))
