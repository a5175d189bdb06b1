"""HLO's `fft`: FFT, IFFT, RFFT and IRFFT over the last len(fft_length) dimensions.

`fft(x), fft_type=RFFT, fft_length={8}` as XLA prints it. FFT and IFFT map
c64 to c64 (c128 to c128), the inverse scaled by 1/n; RFFT takes f32 (f64) and
keeps the non-negative frequencies, fft_length[-1] / 2 + 1 of them, on the
last axis; IRFFT is its inverse back to real values, reading those bins as
the halves of a Hermitian spectrum (the imaginary parts of the DC and, for
even lengths, Nyquist bins are ignored). XLA:GPU hands every `fft` to cuFFT:
the runtime's kernel library runs it; this module reads the attributes, gives
the shape, and the evaluator's meaning (numpy's FFT in complex128, rounded
once).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from xla_emit.diagnostics import UserError
from xla_emit.hlo.complex_ops import COMPLEX_OF
from xla_emit.hlo.ir import HloInstruction
from xla_emit.hlo.shape import ArrayShape, Shape

FFT_TYPES = ("FFT", "IFFT", "RFFT", "IRFFT")


@dataclass(frozen=True)
class FftConfig:
    kind: str
    lengths: tuple[int, ...]


def _fail(instruction: HloInstruction, message: str) -> UserError:
    return UserError(f"fft '{instruction.name}': {message}", instruction.location)


def fft_config(instruction: HloInstruction) -> FftConfig:
    attributes = dict(instruction.extra_attributes)
    kind = attributes.get("fft_type", "FFT")
    if kind not in FFT_TYPES:
        raise _fail(instruction, f"fft_type must be one of {', '.join(FFT_TYPES)}, found {kind}")
    text = attributes.get("fft_length")
    if text is None or not re.fullmatch(r"\{\s*\d+(\s*,\s*\d+)*\s*\}", text):
        raise _fail(instruction, f"fft_length must be a list like {{8}}, found {text}")
    lengths = tuple(int(v) for v in text[1:-1].split(","))
    if not 1 <= len(lengths) <= 3 or min(lengths) < 1:
        raise _fail(instruction, f"fft_length {text} must have 1 to 3 positive lengths")
    return FftConfig(kind, lengths)


def infer_fft(instruction: HloInstruction) -> Shape:
    """The result shape; located errors for operands the fft type cannot take."""
    if len(instruction.operands) != 1:
        raise _fail(instruction, f"takes 1 operand, got {len(instruction.operands)}")
    operand = instruction.operands[0].shape
    config = fft_config(instruction)
    if not isinstance(operand, ArrayShape) or operand.rank < len(config.lengths):
        raise _fail(instruction, f"operand {operand} has fewer dimensions than fft_length")
    ptype, dims = operand.element_type, list(operand.dimensions)
    inner = dims[-len(config.lengths) :]
    expected = list(config.lengths)
    if config.kind == "IRFFT":
        expected[-1] = config.lengths[-1] // 2 + 1
    wants_real = config.kind == "RFFT"
    type_ok = ptype in COMPLEX_OF if wants_real else ptype.is_complex
    if not type_ok:
        wanted = "f32 or f64" if wants_real else "c64 or c128"
        raise _fail(instruction, f"{config.kind} takes {wanted}, not {ptype.value}")
    if inner != expected:
        raise _fail(
            instruction,
            f"{config.kind} with fft_length {list(config.lengths)} needs trailing dimensions "
            f"{expected}, got {inner}",
        )
    if config.kind == "RFFT":
        dims[-1] = config.lengths[-1] // 2 + 1
        return ArrayShape(COMPLEX_OF[ptype], tuple(dims))
    if config.kind == "IRFFT":
        dims[-1] = config.lengths[-1]
        return ArrayShape(ptype.component_type, tuple(dims))
    return ArrayShape(ptype, tuple(dims))


def evaluate_fft(instruction: HloInstruction, x: np.ndarray) -> np.ndarray:
    config = fft_config(instruction)
    axes = tuple(range(x.ndim - len(config.lengths), x.ndim))
    out_type = instruction.array_shape.element_type.dtype
    if config.kind == "FFT":
        return np.fft.fftn(x.astype(np.complex128), axes=axes).astype(out_type)
    if config.kind == "IFFT":
        return np.fft.ifftn(x.astype(np.complex128), axes=axes).astype(out_type)
    if config.kind == "RFFT":
        return np.fft.rfftn(x.astype(np.float64), axes=axes).astype(out_type)
    lengths = config.lengths
    return np.fft.irfftn(x.astype(np.complex128), s=lengths, axes=axes).astype(out_type)
