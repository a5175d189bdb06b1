"""The `_fp` forms: moves out of the accumulator through the fixpipe, converting each
element with the 64-bit quantization word of its column that the `fp` (scaling) tile
holds: `textract_fp`, `tinsert_fp`, `tmov.fp` and `tstore_fp`.

Semantics from pto-isa's CPU simulator: `include/pto/cpu/common.hpp`
(`GetVectorPreQuantMode`, `extract_m1_from_quant`, `quantize_element`) and the
`TEXTRACT_IMPL`/`TINSERT_IMPL`/`TMOV_IMPL`/`TSTORE_IMPL` overloads taking an fp tile
(`TExtract.hpp`, `TInsert.hpp`, `TMov.hpp`, `TStore.hpp`). The fp tile's row 0
holds one word per source column; the (source, destination) element types choose
the conversion:

- f32 -> i8/u8 and i32 -> i8/u8: rint(f32(x) * scale + offset) in f32 arithmetic
  (ties to even), clamped to [-128, 127] when the word's sign bit (46) is set, else
  [0, 255], and stored as its low 8 bits. scale is bits 13-31 of the word, a 19-bit
  float (sign bit 18, 8 exponent bits, 10 mantissa bits: (-1)^s (1 + m/1024)
  2^(e-127), and 0 when e and m are 0); offset is bits 37-45, unsigned.
- i32 -> f16: f32(x) * scale clamped to +-65504, rounded to f16.
- i32 -> i16: x >> (bits 32-35 + 1), arithmetic, kept to its low 16 bits (the
  simulator casts to int16 before its clamp).
- any other pair: a plain conversion, without the word.

The simulator's TSTORE indexes the words by row for a column-major tile (the
accumulator), its TEXTRACT and TINSERT by column; the executor indexes them by column
everywhere, as the fixpipe's per-channel (N) parameters are.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from xla_emit.interpreter.pto_semantics_base import Array, Scalar, SemanticsError, TileLike

_SIGNED_BYTE = (np.dtype(np.int8), np.dtype(np.uint8))
Words = NDArray[np.uint64]
Ints = NDArray[np.int64]


def quantization_words(fp: TileLike, columns: int, first: int = 0) -> Words:
    """The uint64 words of source columns first .. first + columns - 1: row 0 of fp."""
    if not np.issubdtype(fp.data.dtype, np.integer):
        raise SemanticsError(
            f"reads 64-bit quantization words from an integer fp tile, not {fp.data.dtype}"
        )
    if first + columns > fp.valid_cols:
        raise SemanticsError(
            f"needs quantization words for columns up to {first + columns - 1}, but fp has "
            f"{fp.valid_cols} valid columns"
        )
    return fp.data[0, first : first + columns].astype(np.int64).astype(np.uint64)


def _field(words: Words, shift: int, bits: int) -> Ints:
    return ((words >> np.uint64(shift)) & np.uint64((1 << bits) - 1)).astype(np.int64)


def scale_of(words: Words) -> NDArray[np.float32]:
    """The 19-bit float in bits 13-31 of each word, as f32."""
    m1 = _field(words, 13, 19)
    sign, exponent, mantissa = m1 >> 18, (m1 >> 10) & 0xFF, m1 & 0x3FF
    value = np.where(sign == 1, -1.0, 1.0) * (1 + mantissa / 1024) * np.exp2(exponent - 127.0)
    with np.errstate(over="ignore"):  # exponent 255 is 2^128: inf in f32, as in C++
        return np.where((exponent == 0) & (mantissa == 0), 0.0, value).astype(np.float32)


def _to_bytes(values: Array, words: Words, dtype: np.dtype[np.generic]) -> Array:
    scaled = values.astype(np.float32) * scale_of(words)
    shifted = scaled + _field(words, 37, 9).astype(np.float32)
    if np.any(np.isnan(shifted)):
        raise SemanticsError("quantizes a NaN to 8 bits, which pto-isa leaves undefined")
    signed = _field(words, 46, 1) == 1
    low, high = np.where(signed, -128.0, 0.0), np.where(signed, 127.0, 255.0)
    clamped = np.clip(np.rint(shifted), low, high).astype(np.int64)
    return (clamped & 0xFF).astype(np.uint8).view(dtype)


def quantize(values: Array, words: Words, dtype: np.dtype[np.generic]) -> Array:
    """values (rows x columns, source type) converted to `dtype` with each column's word."""
    source = values.dtype
    if dtype in _SIGNED_BYTE and source in (np.dtype(np.float32), np.dtype(np.int32)):
        return _to_bytes(values, words, dtype)
    if source == np.dtype(np.int32) and dtype == np.dtype(np.float16):
        scaled = values.astype(np.float32) * scale_of(words)
        return np.clip(scaled, -65504.0, 65504.0).astype(np.float16)
    if source == np.dtype(np.int32) and dtype == np.dtype(np.int16):
        shifted = values.astype(np.int64) >> (_field(words, 32, 4) + 1)
        return (shifted & 0xFFFF).astype(np.uint16).view(np.int16)
    return values.astype(dtype)


def _indices(scalars: list[Scalar]) -> tuple[int, int]:
    return int(scalars[0]), int(scalars[1])


def extract(dst: TileLike, tiles: list[TileLike], scalars: list[Scalar], *_: object) -> None:
    """textract_fp (and tmov.fp, at (0, 0)): dst[i, j] = convert(src[r + i, c + j]) over
    dst's valid region, with the word of source column c + j."""
    src, fp = tiles[0], tiles[1]
    r, c = _indices(scalars) if scalars else (0, 0)
    rows, cols = dst.valid_rows, dst.valid_cols
    if r + rows > src.valid_rows or c + cols > src.valid_cols:
        raise SemanticsError(
            f"extracts {rows}x{cols} at ({r}, {c}) from a {src.valid_rows}x{src.valid_cols} "
            "valid source"
        )
    values = src.data[r : r + rows, c : c + cols]
    dst.data[:rows, :cols] = quantize(values, quantization_words(fp, cols, c), dst.data.dtype)


def insert(dst: TileLike, tiles: list[TileLike], scalars: list[Scalar], *_: object) -> None:
    """tinsert_fp: dst[r + i, c + j] = convert(src[i, j]) over src's valid region, with the
    word of source column j."""
    src, fp = tiles[0], tiles[1]
    r, c = _indices(scalars)
    rows, cols = src.valid_rows, src.valid_cols
    if r + rows > dst.valid_rows or c + cols > dst.valid_cols:
        raise SemanticsError(
            f"inserts {rows}x{cols} at ({r}, {c}) into a {dst.valid_rows}x{dst.valid_cols} "
            "valid destination"
        )
    values = quantize(src.data[:rows, :cols], quantization_words(fp, cols), dst.data.dtype)
    dst.data[r : r + rows, c : c + cols] = values


SEMANTICS: dict[str, Callable[..., None]] = {
    "pto.textract_fp": extract,
    "pto.tinsert_fp": insert,
    "pto.tmov.fp": extract,
}
