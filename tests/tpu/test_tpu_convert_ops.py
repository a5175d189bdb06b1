"""Mosaic's conversions, packing and mask ops in the TPU interpreter, against hand-worked values.

Expectations come from the ops' documented meaning (`tpu_ops.td`) worked by hand
or with Python integers and bit operations, never with the interpreter's code.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from test_tpu_compute_ops import one, run_op

from xla_emit.diagnostics import UserError

BF16 = ml_dtypes.bfloat16


def convert(op: str, mode: str | None, source: str, target: str, value: np.ndarray) -> np.ndarray:
    attrs = f" {{rounding_mode = #tpu.rounding_mode<{mode}>}}" if mode else ""
    return one(
        f"(%x: {source}) -> {target}",
        f"%r = tpu.{op} %x{attrs} : {source} -> {target}\nreturn %r : {target}",
        value,
    )


FLOATS = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 2.7, -2.7, np.nan, 1e10, -1e10, np.inf])
I32_MAX, I32_MIN = 2**31 - 1, -(2**31)


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("towards_zero", [-2, -1, 0, 0, 1, 2, 2, -2, 0, I32_MAX, I32_MIN, I32_MAX]),
        ("to_nearest_even", [-2, -2, 0, 0, 2, 2, 3, -3, 0, I32_MAX, I32_MIN, I32_MAX]),
    ],
)
def test_fptosi_rounds_by_mode_and_saturates(mode: str, expected: list[int]) -> None:
    got = convert("fptosi", mode, "vector<12xf32>", "vector<12xi32>", FLOATS.astype(np.float32))
    assert got.tolist() == expected


def test_fptosi_to_i8_saturates_at_its_range() -> None:
    x = np.array([300.0, -300.0, 127.4, -128.6], np.float32)
    got = convert("fptosi", "to_nearest_even", "vector<4xf32>", "vector<4xi8>", x)
    assert got.tolist() == [127, -128, 127, -128]


def test_fptoui_clamps_at_zero_and_keeps_the_unsigned_bits() -> None:
    x = np.array([-3.0, 3.7, 4e9, 5e9], np.float32)
    got = convert("fptoui", "towards_zero", "vector<4xf32>", "vector<4xi32>", x)
    # 4000000000 and 2**32 - 1 read as signed i32.
    assert got.tolist() == [0, 3, 4_000_000_000 - 2**32, -1]


# bf16 keeps 8 significant bits: from 256 on, neighbours are 2 apart, from 2**24 on 2**17.
INTS = np.array([257, 259, -259, 2**24 + 2**16 + 1, 7], np.int32)


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        # 2**24 + 2**16 + 1 is past the midpoint: rounding once gives 2**24 + 2**17 (rounding
        # through f32 first would give 2**24).
        ("to_nearest_even", [256, 260, -260, 2**24 + 2**17, 7]),
        ("towards_zero", [256, 258, -258, 2**24, 7]),
    ],
)
def test_sitofp_to_bf16_rounds_once(mode: str, expected: list[int]) -> None:
    got = convert("sitofp", mode, "vector<5xi32>", "vector<5xbf16>", INTS)
    assert got.dtype == BF16
    assert got.astype(np.float64).tolist() == expected


def test_uitofp_reads_the_bits_unsigned() -> None:
    x = np.array([-1, 3], np.int32)  # 2**32 - 1 and 3
    got = convert("uitofp", "to_nearest_even", "vector<2xi32>", "vector<2xf32>", x)
    assert got.tolist() == [2.0**32, 3.0]


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        # 1 + 3 * 2**-9 is past the midpoint 1 + 2**-8; 3.4e38 is past bf16's largest value
        # (0x7F7F) by more than half a step.
        ("to_nearest_even", [1 + 2**-7, -(1 + 2**-7), np.inf, 0.5]),
        ("towards_zero", [1.0, -1.0, float(np.array(0x7F7F, np.uint16).view(BF16)), 0.5]),
    ],
)
def test_truncf_to_bf16_by_mode(mode: str, expected: list[float]) -> None:
    x = np.array([1 + 3 * 2**-9, -(1 + 3 * 2**-9), 3.4e38, 0.5], np.float32)
    got = convert("truncf", mode, "vector<4xf32>", "vector<4xbf16>", x)
    assert got.astype(np.float64).tolist() == expected


def test_extf_is_exact() -> None:
    bits = np.array([0x3F81, 0xC2F7, 0x0001, 0x7F80], np.uint16)
    x = bits.view(BF16)
    got = convert("extf", None, "vector<4xbf16>", "vector<4xf32>", x)
    expected_bits = [int(b) << 16 for b in bits]  # bf16 is the top half of an f32
    assert got.view(np.uint32).tolist() == expected_bits


def test_weird_is_true_for_nan_and_infinities() -> None:
    x = np.array([np.nan, np.inf, -np.inf, 0.0, 1.0, -3.4e38], np.float32)
    got = convert("weird", None, "vector<6xf32>", "vector<6xi1>", x)
    assert got.tolist() == [True, True, True, False, False, False]


def test_pack_elementwise_integers_truncate_into_bytes() -> None:
    sources = [np.array([v], np.int32) for v in (1, -1, 0x1234, 300)]
    got = one(
        "(%a: vector<1xi32>, %b: vector<1xi32>, %c: vector<1xi32>, %d: vector<1xi32>) -> "
        "vector<1xi32>",
        "%r = tpu.pack_elementwise %a, %b, %c, %d {target_type = i8} : vector<1xi32>, "
        "vector<1xi32>, vector<1xi32>, vector<1xi32> -> vector<1xi32>\nreturn %r : vector<1xi32>",
        *sources,
    )
    assert got.tolist() == [0x2C34FF01]  # bytes 0x01, 0xFF, 0x34, 0x2C from the lowest


def test_pack_and_unpack_elementwise_bf16() -> None:
    a = np.array([1.0, -2.0, 1 + 3 * 2**-9], np.float32)
    b = np.array([0.5, 3.0, 7.0], np.float32)
    word, low, high = run_op(
        "(%a: vector<3xf32>, %b: vector<3xf32>) -> (vector<3xi32>, vector<3xf32>, vector<3xf32>)",
        "%p = tpu.pack_elementwise %a, %b {target_type = bf16} : vector<3xf32>, vector<3xf32> "
        "-> vector<3xi32>\n"
        "%l = tpu.unpack_elementwise %p, 0 {source_type = bf16} : vector<3xi32> -> vector<3xf32>\n"
        "%h = tpu.unpack_elementwise %p, 1 {source_type = bf16} : vector<3xi32> -> vector<3xf32>\n"
        "return %p, %l, %h : vector<3xi32>, vector<3xf32>, vector<3xf32>",
        a,
        b,
    )
    # 1.0 is 0x3F80, -2.0 0xC000, 1 + 3 * 2**-9 rounds to 0x3F81;
    # 0.5 is 0x3F00, 3.0 0x4040, 7.0 0x40E0.
    expected = [0x3F00_3F80, 0x4040_C000, 0x40E0_3F81]
    assert got_unsigned(word) == expected
    assert low.tolist() == [1.0, -2.0, 1 + 2**-7]
    assert high.tolist() == b.tolist()


def got_unsigned(words: np.ndarray) -> list[int]:
    return [int(w) & 0xFFFF_FFFF for w in words.tolist()]


def test_unpack_elementwise_integers_sign_extend() -> None:
    word = np.array([0x2C34FF01 - 2**32 if 0x2C34FF01 >= 2**31 else 0x2C34FF01], np.int32)
    fields = [
        one(
            "(%w: vector<1xi32>) -> vector<1xi32>",
            f"%r = tpu.unpack_elementwise %w, {index} {{source_type = i8}} : vector<1xi32> -> "
            "vector<1xi32>\nreturn %r : vector<1xi32>",
            word,
        ).item()
        for index in range(4)
    ]
    assert fields == [1, -1, 0x34, 0x2C]


# Values bf16 holds exactly (at most 8 significant bits), so packing only moves them.
A = (np.arange(8 * 128) % 251 - 125).astype(np.float32).reshape(8, 128)
B = -A / 4


def pack(fmt: str, positions: str, *sources: np.ndarray) -> np.ndarray:
    names = ", ".join(f"%s{k}" for k in range(len(sources)))
    types = ", ".join(["vector<8x128xf32>"] * len(sources))
    signature = ", ".join(f"%s{k}: vector<8x128xf32>" for k in range(len(sources)))
    return one(
        f"({signature}) -> vector<16x128xbf16>",
        f"%r = tpu.pack_subelements {names} {{pack_format = #tpu.pack_format<{fmt}>, "
        f"positions = array<i32: {positions}>}} : {types} -> vector<16x128xbf16>\n"
        "return %r : vector<16x128xbf16>",
        *sources,
    )


def test_pack_subelements_interleaved_alternates_rows() -> None:
    got = pack("interleaved", "0, 1", A, B).astype(np.float32)
    for row in range(16):  # row 2s + k is source k's sublane s
        source = A if row % 2 == 0 else B
        np.testing.assert_array_equal(got[row], source[row // 2])


def test_pack_subelements_compressed_stacks_rows() -> None:
    got = pack("compressed", "0, 1", A, B).astype(np.float32)
    np.testing.assert_array_equal(got[:8], A)
    np.testing.assert_array_equal(got[8:], B)


def test_pack_subelements_leaves_missing_positions_unspecified() -> None:
    got = pack("interleaved", "1", B).astype(np.float32)
    assert np.isnan(got[0::2]).all()
    np.testing.assert_array_equal(got[1::2], B)


@pytest.mark.parametrize(
    ("fmt", "index", "rows"), [("interleaved", 1, slice(1, 16, 2)), ("compressed", 1, slice(8, 16))]
)
def test_unpack_subelements_picks_rows(fmt: str, index: int, rows: slice) -> None:
    x = (np.arange(16 * 128).reshape(16, 128) % 251).astype(BF16)
    got = one(
        "(%x: vector<16x128xbf16>) -> vector<8x128xf32>",
        f"%r = tpu.unpack_subelements %x, {index} {{pack_format = #tpu.pack_format<{fmt}>}} : "
        "vector<16x128xbf16> -> vector<8x128xf32>\nreturn %r : vector<8x128xf32>",
        x,
    )
    np.testing.assert_array_equal(got, x[rows].astype(np.float32))


@pytest.mark.parametrize(("unsigned", "expected"), [("false", -3), ("true", 253)])
def test_unpack_subelements_of_i8_extends_by_signedness(unsigned: str, expected: int) -> None:
    x = np.zeros((32, 128), np.int8)
    x[6, 5] = -3  # sublane 1, subelement 2 of an interleaved i8 vreg
    got = one(
        "(%x: vector<32x128xi8>) -> vector<8x128xi32>",
        "%r = tpu.unpack_subelements %x, 2 {pack_format = #tpu.pack_format<interleaved>, "
        f"unsigned_integers = {unsigned}}} : vector<32x128xi8> -> vector<8x128xi32>\n"
        "return %r : vector<8x128xi32>",
        x,
    )
    assert got[1, 5] == expected
    assert np.count_nonzero(got) == 1


def test_create_mask_is_true_inside_the_box() -> None:
    got = one(
        "() -> vector<8x128xi1>",
        "%a = arith.constant 1 : index\n%b = arith.constant 3 : index\n"
        "%c = arith.constant 4 : index\n%d = arith.constant 100 : index\n"
        "%r = tpu.create_mask[%a, %b] [%c, %d] : vector<8x128xi1>\nreturn %r : vector<8x128xi1>",
    )
    expected = np.zeros((8, 128), bool)
    expected[1:4, 3:100] = True
    np.testing.assert_array_equal(got, expected)


EXAMPLE_3_9 = [[0, 0], [0, 1], [1, 1], [1, 1], [1, 0], [0, 0], [0, 0], [0, 0]]  # tpu_ops.td


@pytest.mark.parametrize(("bounds", "expected"), [("3, 9", EXAMPLE_3_9), ("9, 3", None)])
def test_create_subelement_mask(bounds: str, expected: list[list[int]] | None) -> None:
    got = one(
        "() -> vector<8x128x2xi1>",
        f"%r = tpu.create_subelement_mask {bounds} : vector<8x128x2xi1>\n"
        "return %r : vector<8x128x2xi1>",
    )
    want = np.array(EXAMPLE_3_9, bool)
    if expected is None:  # [3, 9) unset, the rest set
        want = ~want
    for lane in (0, 77, 127):
        np.testing.assert_array_equal(got[:, lane, :], want)


def test_mask_cast_repeats_and_gathers_packed_values() -> None:
    mask = np.random.default_rng(3).random((8, 128)) < 0.5
    finer, back = run_op(
        "(%m: vector<8x128xi1>) -> (vector<8x128x2xi1>, vector<8x128xi1>)",
        "%f = tpu.mask_cast %m : vector<8x128xi1> -> vector<8x128x2xi1>\n"
        "%b = tpu.mask_cast %f : vector<8x128x2xi1> -> vector<8x128xi1>\n"
        "return %f, %b : vector<8x128x2xi1>, vector<8x128xi1>",
        mask,
    )
    np.testing.assert_array_equal(finer[..., 0], mask)
    np.testing.assert_array_equal(finer[..., 1], mask)
    np.testing.assert_array_equal(back, mask)


def test_mask_cast_of_differing_packed_values_fails() -> None:
    mask = np.zeros((8, 128, 2), bool)
    mask[2, 3, 1] = True
    with pytest.raises(UserError) as caught:
        one(
            "(%m: vector<8x128x2xi1>) -> vector<8x128xi1>",
            "%b = tpu.mask_cast %m : vector<8x128x2xi1> -> vector<8x128xi1>\n"
            "return %b : vector<8x128xi1>",
            mask,
        )
    assert str(caught.value) == (
        "error: 'tpu.mask_cast' op casts a mask whose values packed together differ: the chip's "
        "result is undefined"
    )


def test_bitcast_vreg_splits_words_into_row_pairs() -> None:
    words = np.random.default_rng(5).integers(0, 2**32, size=(8, 128), dtype=np.uint64)
    got = one(
        "(%x: vector<8x128xi32>) -> vector<16x128xbf16>",
        "%r = tpu.bitcast_vreg %x : vector<8x128xi32> -> vector<16x128xbf16>\n"
        "return %r : vector<16x128xbf16>",
        words.astype(np.uint32).view(np.int32),
    )
    bits = got.view(np.uint16)
    for row, lane in [(0, 0), (5, 9), (15, 127)]:
        word = int(words[row // 2, lane])
        assert int(bits[row, lane]) == (word >> (16 * (row % 2))) & 0xFFFF


def test_scalar_conversions() -> None:
    """The conversions are elementwise-mappable: they take scalars as well."""
    as_int, as_bf16, finite = run_op(
        "() -> (i32, bf16, i1)",
        "%x = arith.constant -2.5 : f32\n%n = arith.constant 259 : i32\n"
        "%i = tpu.fptosi %x {rounding_mode = #tpu.rounding_mode<to_nearest_even>} : f32 -> i32\n"
        "%b = tpu.sitofp %n {rounding_mode = #tpu.rounding_mode<towards_zero>} : i32 -> bf16\n"
        "%w = tpu.weird %x : f32 -> i1\nreturn %i, %b, %w : i32, bf16, i1",
    )
    assert int(as_int) == -2
    assert float(as_bf16) == 258.0
    assert not bool(finite)
