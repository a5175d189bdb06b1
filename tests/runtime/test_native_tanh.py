"""XLA's rational tanh (`xla-host-approximate-tanh`) run natively, against numpy's tanh in f64.

The approximation's error bound is a few f32 ulps away from 0 (the quotient of two
rounded polynomials); near 0 it returns x itself, beyond the clamp +-1 within an ulp.
Skipped where llvmlite is missing.
"""

from __future__ import annotations

import numpy as np
import pytest

from xla_emit.ir import parse_mlir
from xla_emit.runtime.pipeline import apply_pipeline

pytest.importorskip("llvmlite.binding", reason="the native engine needs llvmlite ([llvm] extra)")

SIZE = 4096
KERNEL = f"""
func.func @kernel(%in: tensor<{SIZE}xf32>, %out: tensor<{SIZE}xf32>) -> tensor<{SIZE}xf32>
    attributes {{xla.entry}} {{
  %tid = gpu.thread_id x {{xla.range = [0 : index, 127 : index]}}
  %block = gpu.block_id x {{xla.range = [0 : index, {SIZE // 128 - 1} : index]}}
  %c128 = arith.constant 128 : index
  %start = arith.muli %block, %c128 : index
  %at = arith.addi %start, %tid : index
  %x = tensor.extract %in[%at] : tensor<{SIZE}xf32>
  %y = math.tanh %x : f32
  %r = tensor.insert %y into %out[%at] : tensor<{SIZE}xf32>
  func.return %r : tensor<{SIZE}xf32>
}}
"""


def run_tanh(values: np.ndarray) -> np.ndarray:
    from xla_emit.runtime.native import run_kernel

    module, _ = parse_mlir(KERNEL, "tanh.mlir")
    apply_pipeline(
        module, "xla-host-thread-loops,xla-host-approximate-tanh,xla-lower-tensors,"
        "xla-lower-to-llvm"
    )  # fmt: skip
    assert "tanh" not in str(module).replace("@kernel", "")  # no library call left
    out = np.zeros(SIZE, np.float32)
    run_kernel(module, [values, out])
    return out


def test_approximation_is_close_to_tanh() -> None:
    values = np.linspace(-12, 12, SIZE, dtype=np.float32)
    got = run_tanh(values)
    exact = np.tanh(values.astype(np.float64))
    assert np.max(np.abs(got - exact)) < 1e-6
    # Clamped at 9, the quotient overshoots 1 by at most an ulp (as XLA's does).
    assert np.all(np.abs(got) <= np.nextafter(np.float32(1), np.float32(2)))


def test_small_inputs_pass_through_and_large_ones_saturate() -> None:
    rng = np.random.default_rng(1)
    small = rng.uniform(-3.9e-4, 3.9e-4, SIZE // 2).astype(np.float32)
    large = rng.uniform(9, 100, SIZE // 2).astype(np.float32) * rng.choice([-1, 1], SIZE // 2)
    got = run_tanh(np.concatenate([small, large.astype(np.float32)]))
    assert np.array_equal(got[: SIZE // 2], small)
    assert np.allclose(np.abs(got[SIZE // 2 :]), 1.0, rtol=0, atol=2e-7)
