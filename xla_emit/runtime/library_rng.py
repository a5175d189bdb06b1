"""`rng-bit-generator` in the runtime: the bits XLA's expander computes, in the runtime's own
code (the reference evaluator has its own in `xla_emit.hlo.rng_bits`; `--check` compares
the two, so they share nothing).

The counter-based generators are those of Salmon et al., "Parallel random numbers: as easy
as 1, 2, 3" (SC 2011): ThreeFry-2x32 with 20 rounds and Philox-4x32 with 10. Words live
in uint64 arrays masked to 32 bits, so no step relies on numpy's wrap-around.

How XLA lays the words out (its `RngBitGeneratorExpander`), for a result of shape S:

- ThreeFry (state u64[2]: key, counter): 32-bit results pair up the elements of S along
  its first even dimension (else the first of its largest): element `e` takes counter
  `state[1] + c`, where `c` is `e` with that coordinate halved, counted row-major over the
  halved shape, and the first word of the hash where the coordinate is even, the second
  where it is odd. 64-bit results take one counter per element (row-major), the first word
  low. The new state's counter has moved on by the counters used.
- Philox (state u64[2] or u64[3]: key, then a 128-bit counter, low word first; of a u64[2]
  state the key is also the counter's high word, and only the low word moves on): block
  `b` hashes counter `c + b` into four words, and the result's words are the blocks'
  words in order (64-bit elements: two words, the first low). The counter moves on by the
  blocks used.
- 8- and 16-bit results keep the low bits of the 32-bit ones; `rng_default` is Philox.
"""

from __future__ import annotations

import numpy as np

from xla_emit.diagnostics import UserError
from xla_emit.hlo.ir import HloInstruction
from xla_emit.hlo.shape import flatten_shape

_WORD = (1 << 32) - 1
_U64 = np.uint64
_THREEFRY_ROTATIONS = (13, 15, 26, 6, 17, 29, 16, 24)
_THREEFRY_KEY_PARITY = 0x1BD11BDA
_PHILOX_M0, _PHILOX_M1 = 0xD2511F53, 0xCD9E8D57
_PHILOX_W0, _PHILOX_W1 = 0x9E3779B9, 0xBB67AE85
ALGORITHMS = ("rng_three_fry", "rng_philox", "rng_default")


def _word(value: np.ndarray | int) -> np.ndarray:
    return np.bitwise_and(np.asarray(value, _U64), _U64(_WORD))


def threefry2x32(
    counter: tuple[np.ndarray, np.ndarray], key: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray]:
    """ThreeFry-2x32-20 of counter words (as uint64 arrays holding 32-bit words)."""
    schedule = [key[0] & _WORD, key[1] & _WORD, _THREEFRY_KEY_PARITY ^ key[0] ^ key[1]]
    x0 = _word(counter[0] + _U64(schedule[0]))
    x1 = _word(counter[1] + _U64(schedule[1]))
    for round_number in range(20):
        distance = _THREEFRY_ROTATIONS[round_number % 8]
        x0 = _word(x0 + x1)
        x1 = _word((x1 << _U64(distance)) | (x1 >> _U64(32 - distance))) ^ x0
        if round_number % 4 == 3:
            injection = (round_number + 1) // 4
            x0 = _word(x0 + _U64(schedule[injection % 3]))
            x1 = _word(x1 + _U64(schedule[(injection + 1) % 3]) + _U64(injection))
    return x0, x1


def philox4x32(counter: list[np.ndarray], key: tuple[int, int]) -> list[np.ndarray]:
    """Philox-4x32-10 of counter words (as uint64 arrays holding 32-bit words)."""
    x = [_word(c) for c in counter]
    k0, k1 = key[0] & _WORD, key[1] & _WORD
    for round_number in range(10):
        if round_number:
            k0, k1 = (k0 + _PHILOX_W0) & _WORD, (k1 + _PHILOX_W1) & _WORD
        product0 = x[0] * _U64(_PHILOX_M0)  # 32 x 32 bits: fits in 64
        product1 = x[2] * _U64(_PHILOX_M1)
        x = [
            (product1 >> _U64(32)) ^ x[1] ^ _U64(k0),
            _word(product1),
            (product0 >> _U64(32)) ^ x[3] ^ _U64(k1),
            _word(product0),
        ]
    return x


def _threefry(state: list[int], shape: tuple[int, ...], width: int) -> tuple[list[int], np.ndarray]:
    key = (state[0] & _WORD, state[0] >> 32)
    start = state[1]
    if width == 64:
        used = int(np.prod(shape, dtype=np.int64))
        low, high = threefry2x32(_counter_words(start, used), key)
        bits = (low | (high << _U64(32))).reshape(shape)
    elif not shape:
        used = 1
        first, _ = threefry2x32(_counter_words(start, 1), key)
        bits = first.reshape(())
    else:
        paired = next((d for d, n in enumerate(shape) if n % 2 == 0), None)
        if paired is None:
            paired = max(range(len(shape)), key=lambda d: (shape[d], -d))
        halved = list(shape)
        halved[paired] = (shape[paired] + 1) // 2
        used = int(np.prod(halved, dtype=np.int64))
        first, second = threefry2x32(_counter_words(start, used), key)
        coordinates = list(np.indices(shape))
        odd = coordinates[paired] % 2 == 1
        coordinates[paired] = coordinates[paired] // 2
        counter_index = np.ravel_multi_index(tuple(coordinates), tuple(halved))
        bits = np.where(odd, second[counter_index], first[counter_index])
    new_state = [state[0], (start + used) % (1 << 64), *state[2:]]
    return new_state, bits


def _counter_words(start: int, count: int) -> tuple[np.ndarray, np.ndarray]:
    """The low and high words of the 64-bit counters start, start + 1, ... (wrapping)."""
    offsets = np.arange(count, dtype=_U64)
    with np.errstate(over="ignore"):
        counters = _U64(start) + offsets
    return _word(counters), counters >> _U64(32)


def _philox(state: list[int], shape: tuple[int, ...], width: int) -> tuple[list[int], np.ndarray]:
    key = (state[0] & _WORD, state[0] >> 32)
    high_word = state[2] if len(state) > 2 else state[0]
    counter = state[1] | (high_word << 64)  # 128 bits
    elements = int(np.prod(shape, dtype=np.int64))
    words_needed = elements * (width // 32)
    blocks = -(-words_needed // 4)
    counters = [(counter + b) % (1 << 128) for b in range(blocks)]
    words = [np.array([(c >> (32 * k)) & _WORD for c in counters], dtype=_U64) for k in range(4)]
    hashed = philox4x32(words, key)
    stream = np.stack(hashed, axis=1).reshape(-1)[:words_needed]
    if width == 64:
        bits = (stream[0::2] | (stream[1::2] << _U64(32))).reshape(shape)
    else:
        bits = stream.reshape(shape)
    moved = (counter + blocks) % (1 << 128)
    new_state = [state[0], moved & ((1 << 64) - 1)]
    if len(state) > 2:
        new_state.append(moved >> 64)
    return new_state, bits


def generate(
    algorithm: str, state: np.ndarray, shape: tuple[int, ...], width: int
) -> tuple[np.ndarray, np.ndarray]:
    """(new state as uint64, bits as unsigned `width`-bit integers of `shape`)."""
    words = [int(v) for v in np.asarray(state).view(_U64).reshape(-1)]
    run = _threefry if algorithm == "rng_three_fry" else _philox
    new_state, bits = run(words, shape, max(width, 32))
    return np.array(new_state, _U64), bits.astype(np.dtype(f"uint{width}"))


def rng_bit_generator(
    instruction: HloInstruction, operands: list[np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    """The instruction's (new state, bits) in its own element types."""
    algorithm = dict(instruction.extra_attributes).get("algorithm", "rng_default")
    state_shape, bits_shape = flatten_shape(instruction.shape)
    width = bits_shape.element_type.bit_width
    if algorithm not in ALGORITHMS or width not in (8, 16, 32, 64):
        raise UserError(
            f"rng-bit-generator '{instruction.name}': unsupported algorithm '{algorithm}' or "
            f"element type '{bits_shape.element_type.value}' (XLA takes rng_three_fry, "
            "rng_philox and rng_default on 8- to 64-bit types)",
            instruction.location,
        )
    state = np.ascontiguousarray(operands[0])
    new_state, bits = generate(algorithm, state, tuple(bits_shape.dimensions), width)
    return (
        new_state.view(state.dtype).reshape(state_shape.dimensions),
        bits.view(bits_shape.element_type.dtype),
    )
