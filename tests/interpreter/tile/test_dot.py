"""The dot's helpers against plain numpy and scalar oracles: lane layouts and TF32 rounding."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from xla_emit.interpreter.tile.dot import lanes_first, lanes_last, to_tf32


@pytest.mark.parametrize("lanes", [1, 64, 100, 128, 192, 2048])
@pytest.mark.parametrize("tile", [(16, 16), (1, 16, 8), (8,), ()])
def test_lanes_move_last_and_back_as_one_transpose_moves_them(
    lanes: int, tile: tuple[int, ...]
) -> None:
    values = np.random.default_rng(lanes).standard_normal((lanes, *tile)).astype(np.float32)
    for order in itertools.permutations(range(len(tile))):
        expected = np.ascontiguousarray(values.transpose(*(d + 1 for d in order), 0))
        moved = lanes_last(values, order)
        assert moved.shape == expected.shape and moved.flags.c_contiguous
        assert moved.tobytes() == expected.tobytes()
    back = lanes_first(np.ascontiguousarray(np.moveaxis(values, 0, -1)))
    assert back.shape == values.shape and back.tobytes() == values.tobytes()


def _tf32_oracle(bits: int) -> int:
    """One f32 (as its bits) rounded to a multiple of its TF32 quantum (2^-10 of its binade,
    the subnormals' that of the least normal binade), ties away from zero, in exact
    double arithmetic; infinities and NaNs as they are."""
    value = float(np.array(bits, dtype=np.uint32).view(np.float32))
    if not math.isfinite(value):
        return bits
    binade = math.frexp(abs(value))[1] - 1 if value else -126
    quantum = 2.0 ** (max(binade, -126) - 10)
    rounded = math.copysign(math.floor(abs(value) / quantum + 0.5) * quantum, value)
    with np.errstate(over="ignore"):
        return int(np.array(rounded, dtype=np.float32).view(np.uint32))


def test_tf32_rounding_matches_the_scalar_oracle_on_every_kind_of_value() -> None:
    special = [
        0x00000000,
        0x80000000,
        0x00000FFF,
        0x00001000,
        0x00001FFF,  # zeros, subnormals
        0x3F800FFF,
        0x3F801000,
        0x3F803000,  # below, at and past a tie
        0x7F7FEFFF,
        0x7F7FF000,
        0x7F7FFFFF,  # the largest finite values: the last to inf
        0x7F800000,
        0xFF800000,  # infinities
        0x7FC00000,
        0x7FFFF000,
        0x7FFFFFFF,
        0xFFFFF000,
        0x7F801000,  # NaNs near a carry
    ]
    rng = np.random.default_rng(0)
    bits = np.concatenate(
        [np.array(special, dtype=np.uint32), rng.integers(0, 1 << 32, 4096, dtype=np.uint32)]
    )
    rounded = to_tf32(bits.view(np.float32)).view(np.uint32)
    assert [int(b) for b in rounded] == [_tf32_oracle(int(b)) for b in bits]
