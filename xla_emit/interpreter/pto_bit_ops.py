"""PTO tile ops defined on raw bytes and bits: `tgatherb` (32-byte blocks at byte
offsets), `tpack` (each element narrowed to its low bytes) and `trandom` (Philox
random words from a key and a counter).

Each follows what pto-isa specifies bit for bit, named in its docstring; the
executor calls them through `pto_semantics.compute` with the op's tile inputs,
scalar inputs and attributes.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from xla_emit.interpreter.pto_semantics_base import (
    Array,
    AttrValue,
    Scalar,
    SemanticsError,
    TileLike,
)

Words = NDArray[np.uint64]

BLOCK_BYTES = 32  # tgatherb moves one 32-byte block per offset


def _bytes_of(tile: TileLike) -> Array:
    """The tile's whole storage (its static shape) as bytes."""
    return np.ascontiguousarray(tile.data).reshape(-1).view(np.uint8)


def gather_blocks(dst: TileLike, tiles: list[TileLike], *_: object) -> None:
    """tgatherb (pto-isa `include/pto/cpu/TGatherB.hpp`, `docs/isa/TGATHERB.md`): for each
    row r of dst's valid region and each 32-byte block b of it, the offset tile's
    element at flat position r * (its static columns) + b, read as an unsigned 32-bit
    byte offset into src's storage, names the 32 bytes copied into that block. dst's
    valid columns must fill whole blocks. pto-isa leaves offsets past src's storage
    target-defined (its CPU simulator skips the block); the executor reports them."""
    src, offsets = tiles[0], tiles[1]
    rows, cols = dst.valid_rows, dst.valid_cols
    row_bytes = cols * dst.data.dtype.itemsize
    if row_bytes % BLOCK_BYTES:
        raise SemanticsError(
            f"gathers whole 32-byte blocks, but a row of {cols} {dst.data.dtype} elements is "
            f"{row_bytes} bytes"
        )
    blocks = row_bytes // BLOCK_BYTES
    flat_offsets = offsets.data.reshape(-1)
    positions = np.arange(rows)[:, None] * offsets.data.shape[1] + np.arange(blocks)
    if rows and blocks and positions.max() >= flat_offsets.size:
        raise SemanticsError(
            f"needs {blocks} offsets in each of {rows} rows, but the offset tile holds "
            f"{flat_offsets.size}"
        )
    byte_offsets = flat_offsets[positions].astype(np.int64) & 0xFFFFFFFF
    source = _bytes_of(src)
    outside = byte_offsets + BLOCK_BYTES > source.size
    if np.any(outside):
        r, b = (int(i) for i in np.argwhere(outside)[0])
        raise SemanticsError(
            f"offset {int(byte_offsets[r, b])} (row {r}, block {b}) reads past the "
            f"{source.size}-byte source tile"
        )
    gathered = source[byte_offsets[..., None] + np.arange(BLOCK_BYTES)]
    dst.data[:rows, :cols] = gathered.reshape(rows, row_bytes).view(dst.data.dtype)


_PACKED_SIZES = {(4, 2), (4, 1), (2, 1)}


def pack(dst: TileLike, tiles: list[TileLike], *_: object) -> None:
    """tpack (pto-isa's A5 `include/pto/npu/a5/TPack.hpp` and its CPU simulator's
    `TPack.hpp`, both removed from pto-isa in 83f16ef4; PTOAS's `TPackOp` verifier): over
    src's valid region, which must equal dst's, dst[i, j] takes the low bytes of
    src[i, j]'s bits (the A5 packing stores PK_B32, PK4_B32, PK_B16). Element sizes go
    4 -> 2, 4 -> 1 or 2 -> 1 bytes. For integers this is the simulator's static_cast;
    floats are narrowed as bits, as the A5 store does."""
    src = tiles[0]
    sizes = (src.data.dtype.itemsize, dst.data.dtype.itemsize)
    if sizes not in _PACKED_SIZES:
        raise SemanticsError(
            f"packs 4 -> 2, 4 -> 1 or 2 -> 1 byte elements, not {src.data.dtype} -> "
            f"{dst.data.dtype}"
        )
    shape = (src.valid_rows, src.valid_cols)
    if shape != (dst.valid_rows, dst.valid_cols):
        raise SemanticsError(
            f"packs a {shape[0]}x{shape[1]} valid region into a "
            f"{dst.valid_rows}x{dst.valid_cols} one"
        )
    bits = np.ascontiguousarray(src.data[: shape[0], : shape[1]]).view(f"u{sizes[0]}")
    low = bits.astype(f"u{sizes[1]}")  # numpy keeps the low bytes of each element
    dst.data[: shape[0], : shape[1]] = low.view(dst.data.dtype)


# Philox-4x32 constants, as pto-isa's `include/pto/cpu/TRandom.hpp` names them.
_MULTIPLIERS = (0xD2511F53, 0xCD9E8D57)
_KEY_STEPS = (0x9E3779B9, 0xBB67AE85)
_WORD = 0xFFFFFFFF
_LANES = 64  # 32-bit elements in the vector unit's 256-byte repeat
_REPEATS = 4  # a lane's 4 output words: a chunk of 64 lanes fills 256 columns


def philox_rounds(counters: list[Words], key: tuple[int, int], rounds: int) -> list[Words]:
    """Philox-4x32 on 4 uint64 arrays of 32-bit counter words: each round multiplies
    words 0 and 2, mixes in words 3 and 1 and the key, then steps the key."""
    c0, c1, c2, c3 = counters
    k0, k1 = key
    for _ in range(rounds):
        product0 = c0 * np.uint64(_MULTIPLIERS[0])
        product1 = c2 * np.uint64(_MULTIPLIERS[1])
        high0, low0 = product0 >> np.uint64(32), product0 & np.uint64(_WORD)
        high1, low1 = product1 >> np.uint64(32), product1 & np.uint64(_WORD)
        c0, c1, c2, c3 = (
            high1 ^ c1 ^ np.uint64(k0),
            low1,
            high0 ^ c3 ^ np.uint64(k1),
            low0,
        )
        k0, k1 = (k0 + _KEY_STEPS[0]) & _WORD, (k1 + _KEY_STEPS[1]) & _WORD
    return [c0, c1, c2, c3]


def _chunk_counters(start: int, rows: int, cols: int) -> list[int]:
    """The 128-bit counter of every (row, chunk, lane), in that order: a lane runs the
    running counter plus its lane number; after each chunk the running counter advances
    by 64, after a row's last chunk by ((valid columns - 1) mod 64) + 1."""
    chunks = -(-cols // (_LANES * _REPEATS))
    last_step = (cols - 1) % _LANES + 1
    counters, running = [], start
    for _ in range(rows):
        for c in range(chunks):
            counters += [(running + lane) % (1 << 128) for lane in range(_LANES)]
            running += _LANES if c < chunks - 1 else last_step
    return counters


def random_words(
    dst: TileLike, tiles: list[TileLike], scalars: list[Scalar], attrs: dict[str, AttrValue]
) -> None:
    """trandom as pto-isa's A5 implementation computes it (`include/pto/npu/a5/TRandom.hpp`;
    `docs/isa/TRANDOM.md`; PTOAS's `ins(key0, key1, counter0..3) {rounds}`, A5 only):
    Philox-4x32 with 7 or 10 rounds (default 10), the counter words counter0..3 little
    word first. Each row of dst's valid region is filled in chunks of 256 columns: lane
    l (0..63) of a chunk runs the rounds on its counter (`_chunk_counters`) and its 4
    output words go to columns chunk + 4l .. 4l + 3 (those inside the valid columns; the
    A5 code interleaves the lanes' words so). pto-isa's CPU simulator (`include/pto/cpu/
    TRandom.hpp`) runs the same rounds but places word w of lane l at column w * 64 + l
    and advances the counter by the static columns / 4 per chunk, so its tiles differ;
    the executor follows the hardware. i32 tiles hold the words' bits."""
    rounds = int(attrs.get("rounds", 10))
    if rounds not in (7, 10):
        raise SemanticsError(f"runs 7 or 10 rounds, not {rounds}")
    if dst.data.dtype not in (np.dtype(np.int32), np.dtype(np.uint32)):
        raise SemanticsError(f"writes i32 or ui32 tiles, not {dst.data.dtype}")
    words = [int(v) & _WORD for v in scalars]
    key, start = (words[0], words[1]), sum(w << (32 * i) for i, w in enumerate(words[2:]))
    rows, cols = dst.valid_rows, dst.valid_cols
    if not rows or not cols:
        return
    counters = _chunk_counters(start, rows, cols)
    counter_words = [
        np.array([(n >> (32 * i)) & _WORD for n in counters], np.uint64) for i in range(4)
    ]
    out = np.stack(philox_rounds(counter_words, key, rounds), axis=-1)  # (counters, 4 words)
    values = out.reshape(rows, -1)[:, :cols].astype(np.uint32)  # lane-major along each row
    dst.data[:rows, :cols] = values.view(dst.data.dtype)


SEMANTICS: dict[str, Callable[..., None]] = {
    "pto.tgatherb": gather_blocks,
    "pto.tpack": pack,
    "pto.trandom": random_words,
}
