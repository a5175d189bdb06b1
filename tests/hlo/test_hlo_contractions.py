"""dot, convolution, reduce-window and select-and-scatter against loops and hand-worked numbers."""

from __future__ import annotations

import itertools

import ml_dtypes
import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.hlo import evaluate_module, parse_hlo_module

BF16 = ml_dtypes.bfloat16
ADD = "add {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n"
MAX = (
    "mx {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] maximum(x, y)\n}\n"
)
GE = "ge {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT c = pred[] compare(x, y), direction=GE\n}\n"  # noqa: E501


def run(body: str, *args: np.ndarray) -> list[np.ndarray]:
    text = "HloModule t\n\n" + ADD + MAX + GE + "\nENTRY e {\n" + body + "\n}\n"
    return evaluate_module(parse_hlo_module(text), list(args))


def test_batched_dot_with_transposed_operands_matches_a_loop() -> None:
    rng = np.random.default_rng(0)
    lhs = rng.integers(-4, 5, (3, 2, 5)).astype(np.float32)  # [k, b, m]
    rhs = rng.integers(-4, 5, (2, 4, 3)).astype(np.float32)  # [b, n, k]
    (out,) = run(
        "  a = f32[3,2,5] parameter(0)\n  b = f32[2,4,3] parameter(1)\n"
        "  ROOT d = f32[2,5,4] dot(a, b), lhs_batch_dims={1}, lhs_contracting_dims={0}, "
        "rhs_batch_dims={0}, rhs_contracting_dims={2}, precision_config={DEFAULT,DEFAULT}",
        lhs,
        rhs,
    )
    expected = np.zeros((2, 5, 4), np.float32)
    for b, m, n, k in itertools.product(range(2), range(5), range(4), range(3)):
        expected[b, m, n] += lhs[k, b, m] * rhs[b, n, k]
    np.testing.assert_array_equal(out, expected)


def test_bf16_dot_accumulates_wide_and_rounds_once() -> None:
    # 256 + 1 + 1 = 258 exactly; rounding after each add in bf16 would give 256.
    lhs = np.array([[256, 1, 1]], BF16)
    rhs = np.ones((3, 1), BF16)
    (out,) = run(
        "  a = bf16[1,3] parameter(0)\n  b = bf16[3,1] parameter(1)\n"
        "  ROOT d = bf16[1,1] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}",
        lhs,
        rhs,
    )
    assert float(out[0, 0]) == 258.0


def test_bf16_dot_to_f32_keeps_the_exact_sum() -> None:
    lhs = np.array([[256, 1, 0.5]], BF16)
    (out,) = run(
        "  a = bf16[1,3] parameter(0)\n  b = bf16[3] parameter(1)\n"
        "  ROOT d = f32[1] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}",
        lhs,
        np.ones(3, BF16),
    )
    assert out.dtype == np.float32 and float(out[0]) == 257.5


def conv_loop(x: np.ndarray, k: np.ndarray, stride: int, pad: int, groups: int) -> np.ndarray:
    """NHWC input, HWIO kernel, square stride and padding, one pixel at a time."""
    n, h, w, c = x.shape
    kh, kw, ci, co = k.shape
    padded = np.zeros((n, h + 2 * pad, w + 2 * pad, c), np.float64)
    padded[:, pad : pad + h, pad : pad + w] = x
    oh, ow = (h + 2 * pad - kh) // stride + 1, (w + 2 * pad - kw) // stride + 1
    out = np.zeros((n, oh, ow, co))
    per_group = co // groups
    for b, i, j, o in itertools.product(range(n), range(oh), range(ow), range(co)):
        g = o // per_group
        for di, dj, cin in itertools.product(range(kh), range(kw), range(ci)):
            out[b, i, j, o] += (
                padded[b, i * stride + di, j * stride + dj, g * ci + cin] * k[di, dj, cin, o]
            )
    return out.astype(np.float32)


@pytest.mark.parametrize(("stride", "pad", "groups"), [(1, 1, 1), (2, 0, 1), (1, 1, 2)])
def test_nhwc_convolution_matches_a_loop(stride: int, pad: int, groups: int) -> None:
    rng = np.random.default_rng(stride * 10 + groups)
    x = rng.integers(-3, 4, (2, 5, 5, 4)).astype(np.float32)
    k = rng.integers(-3, 4, (3, 3, 4 // groups, 6)).astype(np.float32)
    expected = conv_loop(x, k, stride, pad, groups)
    dims = ",".join(map(str, expected.shape))
    (out,) = run(
        f"  x = f32[2,5,5,4] parameter(0)\n  k = f32[3,3,{4 // groups},6] parameter(1)\n"
        f"  ROOT c = f32[{dims}] convolution(x, k), window={{size=3x3 stride={stride}x{stride} "
        f"pad={pad}_{pad}x{pad}_{pad}}}, dim_labels=b01f_01io->b01f, "
        f"feature_group_count={groups}",
        x,
        k,
    )
    np.testing.assert_array_equal(out, expected)


def test_nchw_convolution_with_lhs_and_rhs_dilation() -> None:
    # One channel, 1-d in effect: input [1, 2, 3] dilated by 2 is [1, 0, 2, 0, 3]; the kernel
    # [1, 10] dilated by 2 is [1, 0, 10]; a VALID sweep gives 1+20, 0+0, 2+30.
    x = np.array([1, 2, 3], np.float32).reshape(1, 1, 1, 3)
    k = np.array([1, 10], np.float32).reshape(1, 1, 1, 2)
    (out,) = run(
        "  x = f32[1,1,1,3] parameter(0)\n  k = f32[1,1,1,2] parameter(1)\n"
        "  ROOT c = f32[1,1,1,3] convolution(x, k), window={size=1x2 lhs_dilate=1x2 "
        "rhs_dilate=1x2}, dim_labels=bf01_oi01->bf01",
        x,
        k,
    )
    np.testing.assert_array_equal(out.reshape(-1), [21, 0, 32])


def test_cumsum_as_reduce_window_with_low_padding() -> None:
    x = np.array([[1, 2, 3, 4], [10, 20, 30, 40]], np.float32)
    zero = np.array(0, np.float32)
    (out,) = run(
        "  x = f32[2,4] parameter(0)\n  z = f32[] parameter(1)\n"
        "  ROOT r = f32[2,4] reduce-window(x, z), window={size=1x4 pad=0_0x3_0}, to_apply=add",
        x,
        zero,
    )
    np.testing.assert_array_equal(out, [[1, 3, 6, 10], [10, 30, 60, 100]])


def test_max_pool_with_stride_and_padding_uses_the_init_value_in_the_padding() -> None:
    x = np.array([[1, 5, 2], [7, 3, 4], [0, 9, 6]], np.float32)
    (out,) = run(
        "  x = f32[3,3] parameter(0)\n  z = f32[] parameter(1)\n"
        "  ROOT r = f32[2,2] reduce-window(x, z), window={size=2x2 stride=2x2 pad=0_1x0_1}, "
        "to_apply=mx",
        x,
        np.array(-100, np.float32),
    )
    np.testing.assert_array_equal(out, [[7, 4], [9, 6]])


def test_reduce_window_with_base_dilation_sees_init_in_the_holes() -> None:
    x = np.array([1, 2, 3], np.float32)
    (out,) = run(
        "  x = f32[3] parameter(0)\n  z = f32[] parameter(1)\n"
        "  ROOT r = f32[4] reduce-window(x, z), window={size=2 lhs_dilate=2}, to_apply=add",
        x,
        np.array(0.5, np.float32),
    )
    # Dilated: [1, h, 2, h, 3] with holes h = 0.5; pairs add the init 0.5 once more each.
    np.testing.assert_array_equal(out, [2.0, 3.0, 3.0, 4.0])


def test_select_and_scatter_routes_each_window_to_its_maximum() -> None:
    x = np.array([[1, 5, 2, 8], [7, 3, 4, 0]], np.float32)
    source = np.array([[10, 20]], np.float32)
    (out,) = run(
        "  x = f32[2,4] parameter(0)\n  s = f32[1,2] parameter(1)\n  z = f32[] parameter(2)\n"
        "  ROOT r = f32[2,4] select-and-scatter(x, s, z), window={size=2x2 stride=2x2}, "
        "select=ge, scatter=add",
        x,
        source,
        np.array(0, np.float32),
    )
    np.testing.assert_array_equal(out, [[0, 0, 0, 20], [10, 0, 0, 0]])


def test_overlapping_windows_add_into_the_same_position() -> None:
    x = np.array([1, 9, 2], np.float32)
    (out,) = run(
        "  x = f32[3] parameter(0)\n  s = f32[2] parameter(1)\n  z = f32[] parameter(2)\n"
        "  ROOT r = f32[3] select-and-scatter(x, s, z), window={size=2}, select=ge, scatter=add",
        x,
        np.array([3, 4], np.float32),
        np.array(1, np.float32),
    )
    np.testing.assert_array_equal(out, [1, 8, 1])


@pytest.mark.parametrize(
    ("root", "message"),
    [
        (
            "ROOT d = f32[2,2] dot(a, a), lhs_contracting_dims={0}, rhs_contracting_dims={0}",
            "shape mismatch: dot 'd' is declared as f32[2,2] but its operands and attributes "
            "give f32[3,3]",
        ),
        (
            "ROOT d = f32[2,2] dot(a, a), lhs_contracting_dims={1}, rhs_contracting_dims={0}",
            "dot 'd': contracting dimension sizes differ: lhs 1 is 3, rhs 0 is 2",
        ),
        (
            "ROOT r = f32[2,3] reduce-window(a, a), window={size=1x1}, to_apply=add",
            "reduce-window 'r': init value f32[2,3] must be a f32 scalar",
        ),
        (
            "ROOT c = f32[2,3] convolution(a, a), window={size=1x1 bogus=2}, dim_labels=bf_io->bf",
            "unknown window field 'bogus=2'",
        ),
        (
            "ROOT c = f32[2,3] convolution(a, a), dim_labels=bx_io->bf",
            "dim_labels must look like b01f_01io->b01f, found 'bx_io->bf'",
        ),
    ],
)
def test_contraction_errors(root: str, message: str) -> None:
    text = "HloModule t\n\n" + ADD + "\nENTRY e {\n  a = f32[2,3] parameter(0)\n  " + root + "\n}\n"
    with pytest.raises(UserError) as caught:
        parse_hlo_module(text, "m.hlo")
    first = str(caught.value).splitlines()[0]
    assert first.startswith("m.hlo:11:") and first.endswith(f"error: {message}"), first
