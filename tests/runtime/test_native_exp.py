"""The inline exp (`xla-host-approximate-exp`) run natively, against numpy's exp in f64.

numpy's f64 exp rounded to f32 is the reference (within half an f32 ulp of exact): the
approximation stays within 1 f32 ulp of it wherever the result is a normal number,
within 1 ulp of the smallest subnormal below that, and gives XLA's values at the
edges (0 below -104, inf above 88.75, NaN for NaN). Skipped where llvmlite is missing.
"""

from __future__ import annotations

import numpy as np
import pytest

from xla_emit.ir import parse_mlir
from xla_emit.runtime.pipeline import apply_pipeline

pytest.importorskip("llvmlite.binding", reason="the native engine needs llvmlite ([llvm] extra)")

SIZE = 1 << 16
ULPS = 1
SMALLEST_NORMAL = np.finfo(np.float32).tiny


def kernel(element: str) -> str:
    return f"""
func.func @kernel(%in: tensor<{SIZE}x{element}>, %out: tensor<{SIZE}x{element}>)
    -> tensor<{SIZE}x{element}> attributes {{xla.entry}} {{
  %tid = gpu.thread_id x {{xla.range = [0 : index, 127 : index]}}
  %block = gpu.block_id x {{xla.range = [0 : index, {SIZE // 128 - 1} : index]}}
  %c128 = arith.constant 128 : index
  %start = arith.muli %block, %c128 : index
  %at = arith.addi %start, %tid : index
  %x = tensor.extract %in[%at] : tensor<{SIZE}x{element}>
  %y = math.exp %x : {element}
  %r = tensor.insert %y into %out[%at] : tensor<{SIZE}x{element}>
  func.return %r : tensor<{SIZE}x{element}>
}}
"""


def run_exp(values: np.ndarray, element: str = "f32") -> np.ndarray:
    from xla_emit.runtime.native import run_kernel

    module, _ = parse_mlir(kernel(element), "exp.mlir")
    apply_pipeline(
        module, "xla-host-thread-loops,xla-host-approximate-exp,xla-lower-tensors,"
        "xla-lower-to-llvm,xla-host-widen-bf16"
    )  # fmt: skip
    assert "exp" not in str(module).replace("@kernel", "")  # no library call left
    out = np.zeros(SIZE, values.dtype)
    run_kernel(module, [values, out])
    return out


def ulps_apart(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Distance in f32 steps between finite non-negative f32 values."""
    return np.abs(got.view(np.int32).astype(np.int64) - want.view(np.int32).astype(np.int64))


def reference(values: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        return np.exp(values.astype(np.float64)).astype(np.float32)


def test_within_two_ulps_over_the_whole_range() -> None:
    rng = np.random.default_rng(0)
    values = np.concatenate(
        [
            np.linspace(-104, 89, SIZE // 2, dtype=np.float32),
            rng.uniform(-1, 1, SIZE // 4).astype(np.float32),
            rng.uniform(-20, 20, SIZE // 4).astype(np.float32),
        ]
    )
    got, want = run_exp(values), reference(values)
    normal = want >= SMALLEST_NORMAL
    finite = np.isfinite(want)
    assert np.max(ulps_apart(got[normal & finite], want[normal & finite])) <= ULPS
    assert np.max(ulps_apart(got[~normal], want[~normal])) <= ULPS
    assert np.array_equal(np.isinf(got), np.isinf(want))


def test_edges_are_xlas() -> None:
    edges = [0.0, -0.0, 1.0, -np.inf, np.inf, np.nan, -104.5, -1e30, 88.8, 1e30, 88.7]
    values = np.resize(np.array(edges, np.float32), SIZE)
    got = run_exp(values)[: len(edges)]
    assert got[0] == 1 and got[1] == 1
    assert ulps_apart(got[2:3], np.float32([np.e])).item() <= 1
    assert got[3] == 0 and np.isposinf(got[4]) and np.isnan(got[5])
    assert got[6] == 0 and got[7] == 0
    assert np.isposinf(got[8]) and np.isposinf(got[9])
    assert np.isfinite(got[10])  # exp(88.7) = 3.3e38 is the largest decade f32 holds


def test_bf16_goes_through_f32_and_rounds_once() -> None:
    import ml_dtypes

    values = np.linspace(-20, 20, SIZE, dtype=np.float32).astype(ml_dtypes.bfloat16)
    got = run_exp(values, "bf16").astype(np.float32)
    # exp in f32 within an ulp, then one rounding to bf16: at most one bf16 step off
    # numpy's f64 exp rounded to bf16.
    want = np.exp(values.astype(np.float64)).astype(ml_dtypes.bfloat16).astype(np.float32)
    steps = np.abs(got.view(np.int32).astype(np.int64) - want.view(np.int32)) >> 16
    assert np.max(steps) <= 1
