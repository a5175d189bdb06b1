"""complex dialect ops on complex64/complex128 lanes, against Python's complex arithmetic."""

from __future__ import annotations

import cmath

import numpy as np
import pytest
from interpreter_harness import RunKernel

KERNEL = """
func.func @main(%a: tensor<4xcomplex<f32>>, %b: tensor<4xcomplex<f32>>,
                %out: tensor<4xcomplex<f32>>, %re: tensor<4xf32>)
    -> (tensor<4xcomplex<f32>>, tensor<4xf32>) {
  %t = gpu.thread_id x {xla.range = [0 : index, 3 : index]}
  %x = tensor.extract %a[%t] : tensor<4xcomplex<f32>>
  %y = tensor.extract %b[%t] : tensor<4xcomplex<f32>>
  %p = complex.OP %x, %y : complex<f32>
  %r = complex.re %p : complex<f32>
  %i = complex.im %p : complex<f32>
  %m = arith.addf %r, %i : f32
  %c = complex.create %m, %r : complex<f32>
  %o = tensor.insert %c into %out[%t] : tensor<4xcomplex<f32>>
  %q = complex.abs %p : complex<f32>
  %o2 = tensor.insert %q into %re[%t] : tensor<4xf32>
  return %o, %o2 : tensor<4xcomplex<f32>>, tensor<4xf32>
}
"""

A = np.array([1 + 2j, -3 + 0.5j, 0.25 - 1j, 2j], np.complex64)
B = np.array([3 - 1j, 1 + 1j, -2 + 4j, 0.5 + 0.5j], np.complex64)


@pytest.mark.parametrize(
    ("op", "reference"),
    [
        ("add", lambda x, y: x + y),
        ("sub", lambda x, y: x - y),
        ("mul", lambda x, y: x * y),
        ("div", lambda x, y: x / y),
        ("pow", lambda x, y: x**y),
    ],
)
def test_complex_binary_ops_and_parts(run_kernel: RunKernel, op: str, reference: object) -> None:
    assert callable(reference)
    out, magnitude = run_kernel(
        KERNEL.replace("OP", op), [A, B, np.zeros(4, np.complex64), np.zeros(4, np.float32)]
    )
    expected = [reference(complex(x), complex(y)) for x, y in zip(A, B, strict=True)]
    assert out.dtype == np.complex64 and magnitude.dtype == np.float32
    want = [complex(np.float32(e.real) + np.float32(e.imag), e.real) for e in expected]
    np.testing.assert_allclose(out, want, rtol=1e-6)
    np.testing.assert_allclose(magnitude, [abs(e) for e in expected], rtol=1e-6)


UNARY = """
func.func @main(%a: tensor<4xcomplex<f64>>, %out: tensor<4xcomplex<f64>>)
    -> tensor<4xcomplex<f64>> {
  %t = gpu.thread_id x {xla.range = [0 : index, 3 : index]}
  %x = tensor.extract %a[%t] : tensor<4xcomplex<f64>>
  %y = complex.OP %x : complex<f64>
  %o = tensor.insert %y into %out[%t] : tensor<4xcomplex<f64>>
  return %o : tensor<4xcomplex<f64>>
}
"""


@pytest.mark.parametrize(
    ("op", "reference"),
    [("exp", cmath.exp), ("log", cmath.log), ("sqrt", cmath.sqrt), ("tanh", cmath.tanh),
     ("neg", lambda z: -z), ("sin", cmath.sin)],
)  # fmt: skip
def test_complex_unary_ops_in_complex128(run_kernel: RunKernel, op: str, reference: object) -> None:
    assert callable(reference)
    a = A.astype(np.complex128)
    (out,) = run_kernel(UNARY.replace("OP", op), [a, np.zeros(4, np.complex128)])
    assert out.dtype == np.complex128
    np.testing.assert_allclose(out, [reference(complex(z)) for z in a], rtol=1e-14)
