"""The host's inline f32 -> bf16 rounding (`xla-host-widen-bf16`) against ml_dtypes.

A kernel of 64 threads rounds 64 f32 values each (ties both ways, subnormals,
infinities, NaNs, the largest finite values and random bits); ml_dtypes, which
rounds to nearest even, is the oracle. Skipped where llvmlite is missing.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from xla_emit.ir import parse_mlir
from xla_emit.runtime.pipeline import apply_pipeline

pytest.importorskip("llvmlite.binding", reason="the native engine needs llvmlite ([llvm] extra)")

THREADS, PER_THREAD = 64, 64
T = f"tensor<{THREADS * PER_THREAD}xbf16>"
KERNEL = f"""
func.func @round(%in: tensor<{THREADS * PER_THREAD}xf32>, %out: tensor<{THREADS * PER_THREAD}xbf16>)
    -> tensor<{THREADS * PER_THREAD}xbf16> attributes {{xla.entry}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant {PER_THREAD} : index
  %tid = gpu.thread_id x {{xla.range = [0 : index, {THREADS - 1} : index]}}
  %base = arith.muli %tid, %n : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %out) -> ({T}) {{
    %at = arith.addi %base, %i : index
    %x = tensor.extract %in[%at] : tensor<{THREADS * PER_THREAD}xf32>
    %y = arith.truncf %x : f32 to bf16
    %next = tensor.insert %y into %acc[%at] : tensor<{THREADS * PER_THREAD}xbf16>
    scf.yield %next : tensor<{THREADS * PER_THREAD}xbf16>
  }}
  func.return %r : tensor<{THREADS * PER_THREAD}xbf16>
}}
"""


def special_values() -> np.ndarray:
    bits = np.array(
        [0x3F808000, 0x3F818000, 0x3F808001, 0x3F817FFF, 0x00000001, 0x00008000, 0x00018000,
         0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0xFFFFFFFF,
         0x80000000, 0x00000000, 0x7F7F8000, 0x3EFF8000],
        dtype=np.uint32,
    )  # fmt: skip
    random = np.random.default_rng(0).integers(0, 2**32, THREADS * PER_THREAD - bits.size)
    return np.concatenate([bits, random.astype(np.uint32)]).view(np.float32)


def test_inline_rounding_matches_ml_dtypes() -> None:
    from xla_emit.runtime.native import run_kernel

    module, _ = parse_mlir(KERNEL, "round.mlir")
    apply_pipeline(
        module, "xla-host-thread-loops,xla-lower-tensors,xla-lower-to-llvm,xla-host-widen-bf16"
    )
    assert "fptrunc" not in str(module)  # rounded by the pass, not by a library call
    values = special_values()
    out = np.zeros(values.size, np.uint16)
    run_kernel(module, [values, out])
    with np.errstate(invalid="ignore"):
        expected = values.astype(ml_dtypes.bfloat16)
    nan = np.isnan(values)
    assert np.array_equal(out[~nan], expected[~nan].view(np.uint16))
    # A NaN stays a NaN, quiet, with the sign and upper payload of the f32.
    assert np.all(out[nan] & 0x7FC0 == 0x7FC0)
    assert np.array_equal(out[nan] >> 15, values[nan].view(np.uint32) >> 31)
