"""The `_fp` forms (textract_fp, tinsert_fp, tmov.fp, tstore_fp) in the PTO executor:
each element converted with its column's 64-bit quantization word from the fp
(scaling) tile. Oracles are worked by hand or written here element by element from
pto-isa's CPU simulator (`include/pto/cpu/common.hpp`, `quantize_element`), sharing
nothing with the executor's code."""

from __future__ import annotations

import numpy as np
import pytest
from test_pto_ptoas_ops import run_op

from xla_emit.diagnostics import UserError
from xla_emit.interpreter.pto import PTOExecutor
from xla_emit.ir import parse_mlir, verify_module

ACC = "!pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>"
ACC_I32 = "!pto.tile_buf<acc, 16x16xi32, blayout=col_major, slayout=row_major, fractal=1024>"
FP = "!pto.tile_buf<scaling, 1x16xui64>"


def word(scale_bits: int = 0, offset: int = 0, signed: bool = False, shift: int = 0) -> int:
    """A quantization word: the 19-bit scale at bits 13-31, the shift at 32-35, the offset
    at 37-45, the sign bit at 46."""
    return (scale_bits << 13) | (shift << 32) | (offset << 37) | (int(signed) << 46)


HALF = 126 << 10  # the 19-bit float 0.5: sign 0, exponent 126, mantissa 0
ONE_AND_A_HALF = (127 << 10) | 512  # 1.5: exponent 127, mantissa 512 / 1024
MINUS_QUARTER = (1 << 18) | (125 << 10)  # -0.25


def words(*values: int) -> np.ndarray:
    fp = np.zeros((1, 16), np.uint64)
    fp[0, : len(values)] = values
    return fp


def test_f32_to_int8_by_hand() -> None:
    """Column 0: x * 0.5 + 3, signed; column 1: x * 1.5, unsigned; column 2: x * -0.25 + 10,
    signed. rint rounds ties to even; the sign bit picks the clamp range."""
    dst = "!pto.tile_buf<mat, 16x16xi8, blayout=col_major, slayout=row_major, valid=4x3>"
    acc = np.zeros((16, 16), np.float32)
    acc[:4, 0] = [1.0, 2.5, -7.0, 300.0]  # 3.5, 4.25, -0.5, 153
    acc[:4, 1] = [1.0, -3.0, 170.0, 5.0]  # 1.5, -4.5, 255, 7.5
    acc[:4, 2] = [2.0, -600.0, 600.0, 18.0]  # 9.5, 160, -140, 5.5
    fp = words(word(HALF, 3, signed=True), word(ONE_AND_A_HALF), word(MINUS_QUARTER, 10, True))
    line = f"pto.tmov.fp ins(%a, %f : {ACC}, {FP}) outs(%out : {dst})"
    got = run_op(line, [("a", (ACC, acc)), ("f", (FP, fp))], dst)
    assert got[:4, :3].tolist() == [[4, 2, 10], [4, 0, 127], [0, -1, -128], [127, 8, 6]]
    assert not got[4:].any() and not got[:, 3:].any()


def test_int32_to_uint8_f16_and_int16() -> None:
    """i32 -> u8 by the same formula; i32 -> f16 scales and clamps to +-65504; i32 -> i16
    shifts right by bits 32-35 plus one and keeps 16 bits."""
    acc = np.zeros((16, 16), np.int32)
    acc[:2, :2] = [[7, -300000], [1001, 40000]]
    fp = words(word(HALF, 1), word(ONE_AND_A_HALF, 0, shift=2))
    results = {}
    for dtype in ("ui8", "f16", "i16"):
        dst = f"!pto.tile_buf<mat, 16x16x{dtype}, blayout=col_major, slayout=row_major, valid=2x2>"
        line = f"pto.tmov.fp ins(%a, %f : {ACC_I32}, {FP}) outs(%out : {dst})"
        results[dtype] = run_op(line, [("a", (ACC_I32, acc)), ("f", (FP, fp))], dst)[:2, :2]
    # u8: column 0 x * 0.5 + 1 -> 4.5 -> 4, 501.5 -> 255; column 1 x * 1.5 -> clamp 0, 255.
    assert results["ui8"].tolist() == [[4, 0], [255, 255]]
    # f16: 3.5, -450000 -> -65504, 500.5 -> 500.5, 60000 -> 60000.
    assert results["f16"].tolist() == [[3.5, -65504.0], [500.5, 60000.0]]
    # i16: column 0 shifts by 1, column 1 by 3: -300000 >> 3 = -37500 -> 28036 in 16 bits.
    assert results["i16"].tolist() == [[3, -37500 + 65536], [500, 5000]]


def quantize_oracle(x: float, w: int) -> int:
    """One f32 element to int8 as `quantize_element` does, in f32 arithmetic."""
    m1 = (w >> 13) & 0x7FFFF
    s, e, m = m1 >> 18, (m1 >> 10) & 0xFF, m1 & 0x3FF
    scale = np.float32(0.0 if e == 0 and m == 0 else (-1) ** s * (1 + m / 1024) * 2.0 ** (e - 127))
    value = np.float32(np.float32(x) * scale) + np.float32((w >> 37) & 0x1FF)
    low, high = (-128, 127) if (w >> 46) & 1 else (0, 255)
    return int(min(max(np.rint(np.float32(value)), low), high)) & 0xFF


def test_textract_fp_and_tinsert_fp_take_the_word_of_the_source_column() -> None:
    rng = np.random.default_rng(31)
    acc = rng.uniform(-300, 300, (16, 16)).astype(np.float32)
    scales = [
        int(s) << 10 | int(m)
        for s, m in zip(rng.integers(120, 132, 16), rng.integers(0, 1024, 16), strict=True)
    ]
    fp = words(*[word(scales[c], int(rng.integers(0, 512)), bool(c % 2)) for c in range(16)])
    r, c = np.int64(2), np.int64(5)
    part = "!pto.tile_buf<mat, 16x16xi8, blayout=col_major, slayout=row_major, valid=8x4>"
    idx = [("r", ("index", 2)), ("c", ("index", 5))]
    line = f"pto.textract_fp ins(%a, %f, %r, %c : {ACC}, {FP}, index, index) outs(%out : {part})"
    got = run_op(line, [("a", (ACC, acc)), ("f", (FP, fp)), *idx], part)
    for i in range(8):
        for j in range(4):
            expected = quantize_oracle(acc[r + i, c + j], int(fp[0, c + j]))
            assert int(got[i, j]) & 0xFF == expected
    small = ACC.replace("fractal=1024", "fractal=1024, valid=3x4")
    full = "!pto.tile_buf<mat, 16x16xi8, blayout=col_major, slayout=row_major>"
    line = f"pto.tinsert_fp ins(%a, %f, %r, %c : {small}, {FP}, index, index) outs(%out : {full})"
    got = run_op(line, [("a", (small, acc)), ("f", (FP, fp)), *idx], full)
    for i in range(3):
        for j in range(4):
            assert int(got[r + i, c + j]) & 0xFF == quantize_oracle(acc[i, j], int(fp[0, j]))
    assert np.count_nonzero(got) <= 12


def test_tstore_fp_quantizes_into_global_memory() -> None:
    text = f"""
func.func @k(%a: {ACC}, %f: {FP}, %out: !pto.ptr<i8>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %t = pto.make_tensor_view %out, shape = [%c16, %c16], strides = [%c16, %c1]
    : !pto.tensor_view<?x?xi8>
  %v = pto.partition_view %t, offsets = [%c0, %c0], sizes = [%c16, %c16]
    : !pto.tensor_view<?x?xi8> -> !pto.partition_tensor_view<16x16xi8>
  pto.tstore_fp ins(%a, %f : {ACC}, {FP}) outs(%v : !pto.partition_tensor_view<16x16xi8>)
  return
}}"""
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)
    acc = np.arange(256, dtype=np.float32).reshape(16, 16) - 128
    fp = words(*[word(HALF, c, signed=True) for c in range(16)])
    out = np.zeros(256, np.int8)
    PTOExecutor(module).run("k", [acc, fp, out])
    expected = np.clip(np.rint(acc * 0.5 + np.arange(16)), -128, 127)
    np.testing.assert_array_equal(out.reshape(16, 16), expected)


def test_other_type_pairs_convert_without_the_word() -> None:
    dst = "!pto.tile_buf<mat, 16x16xf16, blayout=col_major, slayout=row_major>"
    acc = np.random.default_rng(3).uniform(-4, 4, (16, 16)).astype(np.float32)
    line = f"pto.tmov.fp ins(%a, %f : {ACC}, {FP}) outs(%out : {dst})"
    got = run_op(line, [("a", (ACC, acc)), ("f", (FP, words(word(HALF, 7))))], dst)
    np.testing.assert_array_equal(got, acc.astype(np.float16))


@pytest.mark.parametrize(
    ("fp_type", "fp", "acc", "message"),
    [
        (
            "!pto.tile_buf<scaling, 1x16xf32>",
            np.zeros((1, 16), np.float32),
            np.zeros((16, 16), np.float32),
            "'pto.tmov.fp' op reads 64-bit quantization words from an integer fp tile, not float32",
        ),
        (
            "!pto.tile_buf<scaling, 1x16xui64, valid=1x8>",
            np.zeros((1, 16), np.uint64),
            np.zeros((16, 16), np.float32),
            "'pto.tmov.fp' op needs quantization words for columns up to 15, but fp has 8 "
            "valid columns",
        ),
        (
            FP,
            words(word(HALF)),
            np.full((16, 16), np.nan, np.float32),
            "'pto.tmov.fp' op quantizes a NaN to 8 bits, which pto-isa leaves undefined",
        ),
    ],
)
def test_fixpipe_errors(fp_type: str, fp: np.ndarray, acc: np.ndarray, message: str) -> None:
    dst = "!pto.tile_buf<mat, 16x16xi8, blayout=col_major, slayout=row_major>"
    line = f"pto.tmov.fp ins(%a, %f : {ACC}, {fp_type}) outs(%out : {dst})"
    with pytest.raises(UserError) as error:
        run_op(line, [("a", (ACC, acc)), ("f", (fp_type, fp))], dst)
    assert str(error.value).splitlines()[0] == f"error: {message}"


def test_textract_fp_window_must_lie_in_the_valid_source() -> None:
    dst = "!pto.tile_buf<mat, 16x16xi8, blayout=col_major, slayout=row_major, valid=8x8>"
    line = f"pto.textract_fp ins(%a, %f, %r, %c : {ACC}, {FP}, index, index) outs(%out : {dst})"
    args = [("a", (ACC, np.zeros((16, 16), np.float32))), ("f", (FP, words()))]
    with pytest.raises(UserError) as error:
        run_op(line, [*args, ("r", ("index", 9)), ("c", ("index", 0))], dst)
    assert str(error.value).splitlines()[0] == (
        "error: 'pto.textract_fp' op extracts 8x8 at (9, 0) from a 16x16 valid source"
    )
