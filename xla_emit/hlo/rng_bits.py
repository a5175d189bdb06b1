"""The bits of `rng-bit-generator`, as XLA's `RngBitGeneratorExpander` produces them.

The state's first u64 is the key; the rest is the counter. XLA's expander
computes, for a result of shape S:

- ThreeFry-2x32 (20 rounds; state u64[2]): 32-bit results split S in halves
  along its first even dim (else its largest), inserting a trivial dim after
  it; each counter `state[1] + i` over the half shape (row-major `i`) is
  hashed into a pair of words, the first word filling the even positions of
  the split dim and the second the odd ones (the last odd one dropped when
  the dim is odd). 64-bit results hash one counter per element into
  `lo | hi << 32`. The new counter is `state[1] + hashes`.
- Philox-4x32 (10 rounds; state u64[3], the counter 128 bits from the
  words after the key, low first; of a u64[2] state, XLA takes the state
  reversed as the counter and keeps only its new low word): counter `c + i`
  for `i < ceil(words / 4)` gives four words, which fill the flat result in
  order (`bits[4 i + k]`); 64-bit results pair words (0, 1) and (2, 3) as
  `lo | hi << 32`. The new counter is `c + ceil(words / 4)` (128-bit add).

8- and 16-bit results are the low bits of the 32-bit ones (same state).
`rng_default` is Philox on XLA:GPU and XLA:CPU.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

_MASK32 = np.uint64(0xFFFFFFFF)
_THREEFRY_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
_THREEFRY_PARITY = np.uint32(0x1BD11BDA)
_PHILOX_MULTIPLIERS = (np.uint64(0xD2511F53), np.uint64(0xCD9E8D57))
_PHILOX_WEYL = (np.uint32(0x9E3779B9), np.uint32(0xBB67AE85))


def _rotate_left(v: np.ndarray, distance: int) -> np.ndarray:
    return (v << np.uint32(distance)) | (v >> np.uint32(32 - distance))


def threefry_2x32(
    x0: np.ndarray, x1: np.ndarray, key0: np.uint32, key1: np.uint32
) -> tuple[np.ndarray, np.ndarray]:
    """Threefry-2x32 with 20 rounds (Salmon et al. 2011) on word arrays."""
    ks = (np.uint32(key0), np.uint32(key1), _THREEFRY_PARITY ^ key0 ^ key1)
    with np.errstate(over="ignore"):
        x0, x1 = x0 + ks[0], x1 + ks[1]
        for group in range(5):
            for rotation in _THREEFRY_ROTATIONS[group % 2]:
                x0 = x0 + x1
                x1 = _rotate_left(x1, rotation) ^ x0
            x0 = x0 + ks[(group + 1) % 3]
            x1 = x1 + ks[(group + 2) % 3] + np.uint32(group + 1)
    return x0, x1


def philox_4x32(words: Sequence[np.ndarray], key0: np.uint32, key1: np.uint32) -> list[np.ndarray]:
    """Philox-4x32 with 10 rounds (Salmon et al. 2011) on word arrays."""
    x = [np.asarray(w, np.uint32) for w in words]
    k0, k1 = np.uint32(key0), np.uint32(key1)
    with np.errstate(over="ignore"):
        for _ in range(10):
            p0 = x[0].astype(np.uint64) * _PHILOX_MULTIPLIERS[0]
            p1 = x[2].astype(np.uint64) * _PHILOX_MULTIPLIERS[1]
            hi0, lo0 = (p0 >> np.uint64(32)).astype(np.uint32), (p0 & _MASK32).astype(np.uint32)
            hi1, lo1 = (p1 >> np.uint64(32)).astype(np.uint32), (p1 & _MASK32).astype(np.uint32)
            x = [hi1 ^ x[1] ^ k0, lo1, hi0 ^ x[3] ^ k1, lo0]
            k0, k1 = k0 + _PHILOX_WEYL[0], k1 + _PHILOX_WEYL[1]
    return x


def _split(value: np.ndarray | np.uint64) -> tuple[np.ndarray, np.ndarray]:
    value = np.asarray(value, np.uint64)
    return (value & _MASK32).astype(np.uint32), (value >> np.uint64(32)).astype(np.uint32)


def _join(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    return lo.astype(np.uint64) | (hi.astype(np.uint64) << np.uint64(32))


def _split_dim(shape: tuple[int, ...]) -> int:
    """XLA's choice: the first even dim, else the first of the largest."""
    for d, size in enumerate(shape):
        if size % 2 == 0:
            return d
    return max(range(len(shape)), key=lambda d: (shape[d], -d))


def threefry_bits(
    state: np.ndarray, shape: tuple[int, ...], width: int
) -> tuple[np.ndarray, np.ndarray]:
    """(new state, bits as unsigned `width`-bit integers of `shape`)."""
    key0, key1 = _split(state[0])
    counter = np.uint64(state[1])
    if width == 64:
        count = int(np.prod(shape))
        with np.errstate(over="ignore"):
            inputs = counter + np.arange(count, dtype=np.uint64)
        lo, hi = threefry_2x32(*_split(inputs), key0, key1)
        bits = _join(lo, hi).reshape(shape)
    else:
        bits, count = _threefry_bits32(counter, shape, key0, key1)
    with np.errstate(over="ignore"):
        new_counter = counter + np.uint64(count)
    return np.array([state[0], new_counter, *state[2:]], np.uint64), bits


def _threefry_bits32(
    counter: np.uint64, shape: tuple[int, ...], key0: np.uint32, key1: np.uint32
) -> tuple[np.ndarray, int]:
    """The 32-bit words of `shape` and the number of counters they used."""
    if not shape:
        with np.errstate(over="ignore"):
            first, _ = threefry_2x32(*_split(counter + np.zeros(1, np.uint64)), key0, key1)
        return first.reshape(()), 1
    split = _split_dim(shape)
    half = list(shape)
    half[split] = (shape[split] + 1) // 2
    count = int(np.prod(half))
    with np.errstate(over="ignore"):
        inputs = counter + np.arange(count, dtype=np.uint64)
    first, second = threefry_2x32(*_split(inputs), key0, key1)
    paired = np.stack([first.reshape(half), second.reshape(half)], axis=split + 1)
    widened = list(shape)
    widened[split] = 2 * half[split]
    bits = paired.reshape(widened)
    return bits[tuple(slice(0, n) for n in shape)], count


ALGORITHMS = ("rng_three_fry", "rng_philox", "rng_default")


def generate_bits(
    algorithm: str, state: np.ndarray, shape: tuple[int, ...], width: int
) -> tuple[np.ndarray, np.ndarray]:
    """(new state, bits as unsigned `width`-bit integers of `shape`) of one of `ALGORITHMS`."""
    generate = threefry_bits if algorithm == "rng_three_fry" else philox_bits
    new_state, bits = generate(np.asarray(state, np.uint64), shape, max(width, 32))
    if width < 32:
        bits = bits.astype(np.dtype(f"uint{width}"))
    return new_state, bits


def philox_bits(
    state: np.ndarray, shape: tuple[int, ...], width: int
) -> tuple[np.ndarray, np.ndarray]:
    """(new state, bits as unsigned `width`-bit integers of `shape`)."""
    key0, key1 = _split(state[0])
    low = np.uint64(state[1])
    # A u64[2] state's counter is the state reversed: its high word is the key.
    high = np.uint64(state[2]) if len(state) > 2 else np.uint64(state[0])
    count = int(np.prod(shape))
    words = count * (width // 32)
    blocks = (words + 3) // 4
    offsets = np.arange(blocks, dtype=np.uint64)
    with np.errstate(over="ignore"):
        counter_low = low + offsets
    counter_high = np.where(counter_low < low, high + np.uint64(1), high).astype(np.uint64)
    x = philox_4x32([*_split(counter_low), *_split(counter_high)], key0, key1)
    if width == 64:
        pairs = np.stack([_join(x[0], x[1]), _join(x[2], x[3])], axis=1).reshape(-1)
        bits = pairs[:count].reshape(shape)
    else:
        bits = np.stack(x, axis=1).reshape(-1)[:count].reshape(shape)
    with np.errstate(over="ignore"):
        new_low = low + np.uint64(blocks)
    new_high = high + np.uint64(1) if new_low < low else high
    new_state = [state[0], new_low, *([new_high] if len(state) > 2 else [])]
    return np.array(new_state, np.uint64), bits
