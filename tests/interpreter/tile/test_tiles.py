from __future__ import annotations

import numpy as np
import pytest

from xla_emit.interpreter.tile.tiles import TileFault, extract, insert


def test_extract_masks_the_partial_tile_with_zeros() -> None:
    buffer = np.arange(2 * 12, dtype=np.float32).reshape(2, 12) + 1
    offsets = np.array([[0, 0], [1, 8]], dtype=np.int64)
    tiles = extract(buffer, offsets, (1, 8))
    assert tiles.shape == (2, 1, 8)
    assert tiles[0, 0].tolist() == list(range(1, 9))
    # Row 1 from column 8: columns 8..11 exist, 12..15 are masked.
    assert tiles[1, 0].tolist() == [21, 22, 23, 24, 0, 0, 0, 0]


def test_insert_writes_only_unmasked_positions() -> None:
    buffer = np.zeros((2, 12), dtype=np.float32)
    offsets = np.array([[0, 0], [0, 8], [1, 0], [1, 8]], dtype=np.int64)
    tiles = np.arange(4 * 8, dtype=np.float32).reshape(4, 1, 8) + 1
    insert(buffer, tiles, offsets)
    assert buffer[0].tolist() == [*range(1, 9), 9, 10, 11, 12]
    assert buffer[1].tolist() == [*range(17, 25), 25, 26, 27, 28]


def test_extract_then_insert_round_trips_every_tiling() -> None:
    rng = np.random.default_rng(0)
    buffer = rng.standard_normal((5, 7, 3)).astype(np.float32)
    sizes = (2, 4, 4)
    starts = [np.arange(0, extent, size) for extent, size in zip(buffer.shape, sizes, strict=True)]
    offsets = np.stack(np.meshgrid(*starts, indexing="ij"), axis=-1).reshape(-1, 3)
    copy = np.full_like(buffer, np.nan)
    insert(copy, extract(buffer, offsets, sizes), offsets)
    assert np.array_equal(copy, buffer)


def test_a_tile_starting_outside_names_the_pid() -> None:
    buffer = np.zeros((4, 8), dtype=np.float32)
    offsets = np.array([[0, 0], [4, 0]], dtype=np.int64)
    with pytest.raises(TileFault, match=r"pid 1: the tile at offsets \[4, 0\] starts outside"):
        extract(buffer, offsets, (1, 8))


def test_two_programs_writing_one_element_is_a_race() -> None:
    buffer = np.zeros((4, 8), dtype=np.float32)
    offsets = np.array([[0, 0], [1, 0], [1, 4]], dtype=np.int64)
    tiles = np.ones((3, 1, 8), dtype=np.float32)
    with pytest.raises(TileFault, match=r"race: pids 1 and 2 both write element \[1, 4\]"):
        insert(buffer, tiles, offsets)


def test_whole_aligned_tiles_move_as_blocks_in_any_pid_order() -> None:
    # Whole tiles at multiples of their sizes take the block path; the answer is numpy's
    # slicing of each pid's tile.
    rng = np.random.default_rng(1)
    buffer = rng.standard_normal((6, 8)).astype(np.float32)
    offsets = np.array([[4, 4], [0, 0], [2, 4], [4, 0], [0, 4], [2, 0]], dtype=np.int64)
    tiles = extract(buffer, offsets, (2, 4))
    for tile, (row, column) in zip(tiles, offsets, strict=True):
        assert np.array_equal(tile, buffer[row : row + 2, column : column + 4])
    copy = np.full_like(buffer, np.nan)
    insert(copy, tiles * 2, offsets)
    assert np.array_equal(copy, buffer * 2)


def test_two_programs_writing_one_whole_tile_is_a_race() -> None:
    buffer = np.zeros((4, 8), dtype=np.float32)
    offsets = np.array([[0, 0], [2, 0], [0, 4], [2, 0]], dtype=np.int64)
    tiles = np.ones((4, 2, 4), dtype=np.float32)
    with pytest.raises(TileFault, match=r"race: pids 1 and 3 both write element \[2, 0\]"):
        insert(buffer, tiles, offsets)
    insert(buffer, tiles, offsets, check_races=False)  # unchecked, the last write wins
    assert buffer[2:4, 0:4].tolist() == [[1.0] * 4] * 2


@pytest.mark.parametrize("programs", [3, 40])
def test_whole_tiles_read_by_many_programs_are_each_pid_s_slice(programs: int) -> None:
    # 3 programs read less than the buffer (the tiles are gathered where they lie); 40
    # read each tile many times over (the buffer is made tile-major, then tiles copied).
    rng = np.random.default_rng(2)
    buffer = rng.standard_normal((4, 8, 6)).astype(np.float32)
    sizes = (1, 4, 2)
    starts = rng.integers(0, [4, 2, 3], (programs, 3)) * np.array(sizes)
    tiles = extract(buffer, starts.astype(np.int64), sizes)
    for tile, (a, b, c) in zip(tiles, starts, strict=True):
        assert np.array_equal(tile, buffer[a : a + 1, b : b + 4, c : c + 2])
