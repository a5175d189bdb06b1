"""tgatherb, tpack and trandom in the PTO executor, on our own small kernels, against
oracles written here from pto-isa's sources (the CPU simulator's `TGatherB.hpp`, the
A5 `TRandom.hpp`) and ISA pages: Python loops over bytes and integers, plus
Random123's published Philox-4x32-10 known answers, sharing nothing with the
executor's code."""

from __future__ import annotations

import numpy as np
import pytest
from test_pto_ptoas_ops import run_op

from xla_emit.diagnostics import UserError

rng = np.random.default_rng(23)
WORD = 0xFFFFFFFF

# -- tgatherb ------------------------------------------------------------------------------

SRC = "!pto.tile_buf<vec, 4x64xui8>"
OFFSETS = "!pto.tile_buf<vec, 2x8xui32>"
DST = "!pto.tile_buf<vec, 2x64xi16>"
GATHER = f"pto.tgatherb ins(%s, %o : {SRC}, {OFFSETS}) outs(%out : {DST})"


def test_tgatherb_copies_a_32_byte_block_per_offset() -> None:
    src = rng.integers(0, 256, (4, 64)).astype(np.uint8)
    offsets = (rng.integers(0, 224, (2, 8)) // 4 * 4).astype(np.uint32)
    got = run_op(GATHER, [("s", (SRC, src)), ("o", (OFFSETS, offsets))], DST)
    source = src.reshape(-1).tolist()
    for r in range(2):
        row = bytearray()
        for b in range(4):  # 64 i16 elements are 128 bytes: 4 blocks, offsets[r, 0..3]
            start = int(offsets[r, b])
            row += bytes(source[start : start + 32])
        assert got[r].tobytes() == bytes(row)


def test_tgatherb_reads_offsets_past_a_row_of_the_offset_tile() -> None:
    """Row r's blocks use the offset tile's flat elements r * cols + b, as the simulator
    indexes it: a 2x2 offset tile serves 4 blocks of row 0 with its whole storage."""
    offsets_type = "!pto.tile_buf<vec, 2x2xui32>"
    dst_type = "!pto.tile_buf<vec, 1x64xi16>"
    src = np.arange(256, dtype=np.uint8).reshape(4, 64)
    offsets = np.array([[224, 0], [32, 64]], np.uint32)
    line = f"pto.tgatherb ins(%s, %o : {SRC}, {offsets_type}) outs(%out : {dst_type})"
    got = run_op(line, [("s", (SRC, src)), ("o", (offsets_type, offsets))], dst_type)
    expected = [*range(224, 256), *range(32), *range(32, 64), *range(64, 96)]
    assert list(got.view(np.uint8)[0]) == expected


@pytest.mark.parametrize(
    ("dst", "offsets", "message"),
    [
        (
            DST,
            np.full((2, 8), 232, np.uint32),
            "'pto.tgatherb' op offset 232 (row 0, block 0) reads past the 256-byte source tile",
        ),
        (
            "!pto.tile_buf<vec, 2x64xi16, valid=2x10>",
            np.zeros((2, 8), np.uint32),
            "'pto.tgatherb' op gathers whole 32-byte blocks, but a row of 10 int16 elements "
            "is 20 bytes",
        ),
    ],
)
def test_tgatherb_errors(dst: str, offsets: np.ndarray, message: str) -> None:
    line = f"pto.tgatherb ins(%s, %o : {SRC}, {OFFSETS}) outs(%out : {dst})"
    src = np.zeros((4, 64), np.uint8)
    with pytest.raises(UserError) as error:
        run_op(line, [("s", (SRC, src)), ("o", (OFFSETS, offsets))], dst)
    assert str(error.value).splitlines()[0] == f"error: {message}"


# -- tpack ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("src_type", "dst_type", "values", "expected"),
    [
        # i32 -> i16 keeps the low 16 bits: 70000 = 0x11170 -> 0x1170 = 4464.
        ("i32", "i16", [70000, -1, -70000, 32767], [4464, -1, -4464, 32767]),
        # i32 -> ui8: 0x1FF -> 0xFF, -2 -> 0xFE.
        ("i32", "ui8", [511, -2, 256, 7], [255, 254, 0, 7]),
        # i16 -> i8: 0x0180 -> 0x80 = -128.
        ("i16", "i8", [384, -129, 127, 1000], [-128, 127, 127, -24]),
    ],
)
def test_tpack_keeps_the_low_bytes(
    src_type: str, dst_type: str, values: list[int], expected: list[int]
) -> None:
    src = f"!pto.tile_buf<vec, 1x32x{src_type}, valid=1x4>"
    dst = f"!pto.tile_buf<vec, 1x32x{dst_type}, valid=1x4>"
    dtype = {"i32": np.int32, "i16": np.int16}[src_type]
    data = np.zeros((1, 32), dtype)
    data[0, :4] = values
    got = run_op(f"pto.tpack ins(%a : {src}) outs(%out : {dst})", [("a", (src, data))], dst)
    assert got[0, :4].tolist() == expected
    assert not got[0, 4:].any()  # outside the valid region: untouched


def test_tpack_narrows_floats_as_bits() -> None:
    """f32 -> 16 bits is the low half of each f32's bit pattern (the A5 packing store)."""
    src, dst = "!pto.tile_buf<vec, 1x8xf32>", "!pto.tile_buf<vec, 1x8xui16>"
    data = np.array([[1.0, -2.5, 3.1415927, 0.0, 1e-3, 7.0, -0.0, 65504.0]], np.float32)
    got = run_op(f"pto.tpack ins(%a : {src}) outs(%out : {dst})", [("a", (src, data))], dst)
    assert got[0].tolist() == [int(w) & 0xFFFF for w in data.view(np.uint32)[0]]


@pytest.mark.parametrize(
    ("src", "dst", "message"),
    [
        (
            "!pto.tile_buf<vec, 1x8xi16>",
            "!pto.tile_buf<vec, 1x8xi16>",
            "'pto.tpack' op packs 4 -> 2, 4 -> 1 or 2 -> 1 byte elements, not int16 -> int16",
        ),
        (
            "!pto.tile_buf<vec, 1x8xi32>",
            "!pto.tile_buf<vec, 1x16xi16, valid=1x4>",
            "'pto.tpack' op packs a 1x8 valid region into a 1x4 one",
        ),
    ],
)
def test_tpack_errors(src: str, dst: str, message: str) -> None:
    data = np.zeros((1, 8), np.int32 if "i32" in src else np.int16)
    with pytest.raises(UserError) as error:
        run_op(f"pto.tpack ins(%a : {src}) outs(%out : {dst})", [("a", (src, data))], dst)
    assert str(error.value).splitlines()[0] == f"error: {message}"


# -- trandom -------------------------------------------------------------------------------


def philox(counter: list[int], key: list[int], rounds: int) -> list[int]:
    """Philox-4x32 written out from pto-isa's `RunRounds` (Python integers)."""
    c, k = list(counter), list(key)
    for _ in range(rounds):
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k[0], p1 & WORD, (p0 >> 32) ^ c[3] ^ k[1], p0 & WORD]
        k = [(k[0] + 0x9E3779B9) & WORD, (k[1] + 0xBB67AE85) & WORD]
    return c


def test_the_oracle_reproduces_random123_known_answers() -> None:
    assert philox([0] * 4, [0, 0], 10) == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]
    assert philox([WORD] * 4, [WORD] * 2, 10) == [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]


def trandom_line(dst: str, rounds: int | None = None) -> str:
    attrs = f" {{rounds = {rounds} : i32}}" if rounds is not None else ""
    return (
        f"pto.trandom ins(%k0, %k1, %c0, %c1, %c2, %c3{attrs} : i32, i32, i32, i32, i32, i32) "
        f"outs(%out : {dst})"
    )


def words(key: list[int], counter: list[int]) -> list[tuple[str, tuple[str, object]]]:
    names = ["k0", "k1", "c0", "c1", "c2", "c3"]
    return [(n, ("i32", v)) for n, v in zip(names, [*key, *counter], strict=True)]


def test_trandom_lanes_write_their_four_words_side_by_side_with_128_bit_counters() -> None:
    """Lane 0 runs the counter itself, lane 1 the counter + 1: from all ones that wraps to
    all zeros, so lane 0 (key all ones) and lane 1 (key zero) give Random123's answers."""
    dst = "!pto.tile_buf<vec, 1x256xui32>"
    ones = run_op(trandom_line(dst), words([-1, -1], [-1, -1, -1, -1]), dst)[0]
    assert ones[:4].tolist() == [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]
    zero_key = run_op(trandom_line(dst), words([0, 0], [-1, -1, -1, -1]), dst)[0]
    assert zero_key[4:8].tolist() == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]


def expected_trandom(
    key: list[int], counter: list[int], rounds: int, rows: int, cols: int
) -> np.ndarray:
    """Element by element, as pto-isa's A5 code runs: chunk k of a row runs lanes on the
    running counter + lane and puts word w of lane l at column 256k + 4l + w; the running
    counter then grows by 64, or by ((cols - 1) mod 64) + 1 after a row's last chunk."""
    running = sum((v & WORD) << (32 * i) for i, v in enumerate(counter))
    chunks = (cols + 255) // 256
    out = np.zeros((rows, cols), np.uint64)
    for r in range(rows):
        for chunk in range(chunks):
            for lane in range(64):
                n = (running + lane) % (1 << 128)
                result = philox([(n >> (32 * i)) & WORD for i in range(4)], key, rounds)
                for w in range(4):
                    col = chunk * 256 + 4 * lane + w
                    if col < cols:
                        out[r, col] = result[w]
            running += 64 if chunk < chunks - 1 else (cols - 1) % 64 + 1
    return out


@pytest.mark.parametrize("rounds", [7, 10])
def test_trandom_fills_partial_chunks_and_steps_the_counter(rounds: int) -> None:
    dst = "!pto.tile_buf<vec, 3x512xi32, valid=3x300>"
    key, counter = [0x12345678, -1698898192], [0xFFFFFF00, 5, 0, 0]
    got = run_op(trandom_line(dst, rounds), words(key, counter), dst)
    expected = expected_trandom([key[0], key[1] & WORD], counter, rounds, 3, 300)
    np.testing.assert_array_equal(got[:, :300].view(np.uint32), expected)
    assert not got[:, 300:].any()


@pytest.mark.parametrize(
    ("dst", "rounds", "message"),
    [
        ("!pto.tile_buf<vec, 1x64xi32>", 8, "'pto.trandom' op runs 7 or 10 rounds, not 8"),
        (
            "!pto.tile_buf<vec, 1x64xf32>",
            10,
            "'pto.trandom' op writes i32 or ui32 tiles, not float32",
        ),
    ],
)
def test_trandom_errors(dst: str, rounds: int, message: str) -> None:
    with pytest.raises(UserError) as error:
        run_op(trandom_line(dst, rounds), words([0, 0], [0, 0, 0, 0]), dst)
    assert str(error.value).splitlines()[0] == f"error: {message}"
