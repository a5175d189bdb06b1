"""cuFFT in the runtime's kernel library: `fft` as dense DFT matrices, one axis at a time.

XLA:GPU hands every HLO `fft` to cuFFT. Here each transformed axis is a
matrix product with its DFT matrix exp(-2 pi i j k / n) (conjugated and
scaled by 1/n for the inverse) in the element type (complex64 for c64, as
cuFFT's single-precision plans), the innermost axis last. RFFT keeps the
first n / 2 + 1 bins; IRFFT first rebuilds the Hermitian half it was not
given (bin n - k is the conjugate of bin k) and keeps the real part, which
drops the DC and Nyquist bins' imaginary parts. The evaluator uses numpy's
FFT instead, so `--check` compares two implementations.
"""

from __future__ import annotations

import numpy as np

from xla_emit.hlo.fft import fft_config
from xla_emit.hlo.ir import HloInstruction


def _dft(n: int, inverse: bool, dtype: np.dtype[np.generic]) -> np.ndarray:
    sign = 1 if inverse else -1
    # j * k mod n keeps the angle small, so the float64 twiddles are accurate for large n.
    angles = (2 * np.pi / n) * (np.outer(np.arange(n), np.arange(n)) % n)
    matrix = np.exp(sign * 1j * angles)
    # The twiddles at multiples of pi/2 exactly (cos(pi/2) is 6e-17 in floats): an inexact
    # zero would leak one part of a huge input into the other (cuFFT's butterflies never
    # multiply there).
    real, imag = np.real(matrix), np.imag(matrix)
    real = np.where(np.abs(real) < 1e-12, 0.0, real)
    imag = np.where(np.abs(imag) < 1e-12, 0.0, imag)
    matrix = real + 1j * imag  # finite parts: exact
    return (matrix / n if inverse else matrix).astype(dtype)


def _along(x: np.ndarray, axis: int, matrix: np.ndarray) -> np.ndarray:
    """`matrix` applied to every line of `x` along `axis`."""
    moved = np.moveaxis(x, axis, -1)
    return np.moveaxis(moved @ matrix.T, -1, axis)


def _real_ends(z: np.ndarray, n: int) -> np.ndarray:
    """`z` with the imaginary parts of its DC bin (and Nyquist bin, for even `n`) zero: a
    Hermitian spectrum has none, and IRFFT ignores them whatever their size."""
    z = z.copy()
    z[..., 0].imag = 0
    if n % 2 == 0 and z.shape[-1] > n // 2:
        z[..., n // 2].imag = 0
    return z


def fft(instruction: HloInstruction, x: np.ndarray) -> np.ndarray:
    config = fft_config(instruction)
    result = instruction.array_shape.element_type.dtype
    double = x.dtype.itemsize == 16 or x.dtype == np.dtype(np.float64)
    work = np.dtype(np.complex128 if double else np.complex64)
    axes = list(range(x.ndim - len(config.lengths), x.ndim))
    inverse = config.kind in ("IFFT", "IRFFT")
    z = x.astype(work)
    outer = axes[:-1] if config.kind == "IRFFT" else axes
    for axis in outer:
        z = _along(z, axis, _dft(z.shape[axis], inverse, work))
    if config.kind == "RFFT":
        return z[..., : config.lengths[-1] // 2 + 1].astype(result)
    if config.kind == "IRFFT":
        n = config.lengths[-1]
        given = z.shape[-1]
        z = _real_ends(z, n)
        mirrored = np.conj(z[..., 1 : n - given + 1][..., ::-1])
        full = np.concatenate([z, mirrored], axis=-1)
        return np.real(_along(full, -1, _dft(n, True, work))).astype(result)
    return z.astype(result)
