"""`xla-expand-float-ops`: XLA's inline tanh against numpy's, and bf16 `absf` on bits.

The expanded tanh runs in the interpreter on f32 inputs over the whole range
(both signs, tiny values, the clamp and beyond) and is compared with numpy's
tanh in f64 rounded to f32: within 4 ulp, the most near the clamp, where the
approximation gives 1.0 and tanh(8) is 1 - 2.3e-7. bf16 `absf` must clear the
sign bit and nothing else: checked bit for bit against the input's bits.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from xla_emit.interpreter.executor import Executor
from xla_emit.ir import parse_mlir
from xla_emit.runtime.pipeline import apply_pipeline

N = 4096

KERNEL = """
func.func @f(%x: tensor<{n}x{t}>, %out: tensor<{n}x{t}>) -> tensor<{n}x{t}>
    attributes {{xla.entry}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant {n} : index
  %r = scf.for %i = %c0 to %cn step %c1 iter_args(%o = %out) -> (tensor<{n}x{t}>) {{
    %v = tensor.extract %x[%i] : tensor<{n}x{t}>
    %y = math.{op} %v : {t}
    %w = tensor.insert %y into %o[%i] : tensor<{n}x{t}>
    scf.yield %w : tensor<{n}x{t}>
  }}
  func.return %r : tensor<{n}x{t}>
}}
"""


def expanded(op: str, element: str, inputs: np.ndarray) -> tuple[np.ndarray, str]:
    module, _ = parse_mlir(KERNEL.format(n=len(inputs), t=element, op=op), "kernel")
    apply_pipeline(module, "xla-expand-float-ops")
    (result,) = Executor(module).run([inputs, np.zeros_like(inputs)])
    return np.asarray(result), str(module)


def ulp_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Steps between f32 values (order-preserving integers of their bits)."""

    def ordered(x: np.ndarray) -> np.ndarray:
        bits = x.astype(np.float32).view(np.int32).astype(np.int64)
        return np.where(bits < 0, -(bits & 0x7FFFFFFF), bits)

    return np.abs(ordered(a) - ordered(b))


def test_tanh_is_xlas_rational_approximation_within_4_ulp() -> None:
    rng = np.random.default_rng(0)
    x = np.concatenate(
        [
            rng.uniform(-9.0, 9.0, N - 8).astype(np.float32),
            np.array([0.0, -0.0, 3e-4, -3e-4, 7.99881172, -8.5, 20.0, -1e-30], np.float32),
        ]
    )
    result, text = expanded("tanh", "f32", x)
    assert "math.tanh" not in text and "math.fma" in text
    expected = np.tanh(x.astype(np.float64)).astype(np.float32)
    assert int(ulp_distance(result, expected).max()) <= 4
    # Below 4e-4 the result is x itself; beyond the clamp, +-1 exactly as f32 rounds it.
    assert result[N - 6] == np.float32(3e-4) and result[N - 2] == np.float32(1.0)
    assert np.signbit(result[N - 7])


def test_bf16_tanh_is_computed_in_f32() -> None:
    x = np.linspace(-4, 4, 257, dtype=np.float32).astype(ml_dtypes.bfloat16)
    result, text = expanded("tanh", "bf16", x)
    assert "arith.extf" in text and "arith.truncf" in text
    expected = np.tanh(x.astype(np.float64)).astype(np.float32).astype(ml_dtypes.bfloat16)
    steps = np.abs(result.view(np.int16).astype(int) - expected.view(np.int16).astype(int))
    assert steps.max() <= 1


def test_bf16_absf_clears_the_sign_bit() -> None:
    values = [-0.0, 0.0, -1.5, 2.0, -np.inf, np.nan, -3e-39]
    x = np.array(values, np.float32).astype(ml_dtypes.bfloat16)
    result, text = expanded("absf", "bf16", x)
    assert "math.absf" not in text and "arith.andi" in text and "32767 : i16" in text
    assert (result.view(np.uint16) == (x.view(np.uint16) & 0x7FFF)).all()
    assert (np.abs(x.astype(np.float32))[:5] == result.astype(np.float32)[:5]).all()
