"""The launch grid and the lanes of one chunk of it.

A lane is one GPU thread: a (block, thread) pair of the launch grid. Lanes are
numbered block-major, `lane = block * threads_per_block + thread`, with
`thread = x + y * nx + z * nx * ny` (CUDA's linear thread id) and the same for
blocks. Chunks are runs of whole blocks, so shared memory and barriers never
straddle a chunk; warps are 32 consecutive threads of one block.

Independent loop iterations may run as extra lanes (`iteration_lanes`): a
lane set with `iterations` n holds n copies of its blocks' lanes, iteration
major, so lane `i * base_count + t` is iteration i of the chunk's lane t.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from xla_emit.dialects.xla_gpu import WARP_SIZE as WARP_SIZE  # lanes group into warps of this size

AXES = ("x", "y", "z")


@dataclass(frozen=True)
class LaunchGrid:
    """Threads per block and blocks per grid, each as (x, y, z)."""

    threads: tuple[int, int, int] = (1, 1, 1)
    blocks: tuple[int, int, int] = (1, 1, 1)

    @property
    def threads_per_block(self) -> int:
        return self.threads[0] * self.threads[1] * self.threads[2]

    @property
    def num_blocks(self) -> int:
        return self.blocks[0] * self.blocks[1] * self.blocks[2]

    @property
    def num_lanes(self) -> int:
        return self.threads_per_block * self.num_blocks

    def describe_lane(self, lane: int) -> str:
        """`thread T, block B`, with (x, y, z) coordinates when the grid is not 1-D."""
        block, thread = divmod(lane, self.threads_per_block)
        return (
            f"thread {_coordinates(thread, self.threads)}, block {_coordinates(block, self.blocks)}"
        )

    def chunks(self, max_lanes: int) -> list[LaneSet]:
        """Split the grid into runs of whole blocks of at most `max_lanes` lanes (>= 1 block)."""
        per_chunk = max(1, max_lanes // self.threads_per_block)
        return [
            LaneSet(self, first, min(first + per_chunk, self.num_blocks))
            for first in range(0, self.num_blocks, per_chunk)
        ]


def _coordinates(linear: int, extents: tuple[int, int, int]) -> str:
    if extents[1] == 1 and extents[2] == 1:
        return str(linear)
    x = linear % extents[0]
    y = (linear // extents[0]) % extents[1]
    z = linear // (extents[0] * extents[1])
    return f"({x}, {y}, {z})"


@dataclass
class LaneSet:
    """The lanes of blocks [first_block, end_block) of a grid, in lane order."""

    grid: LaunchGrid
    first_block: int
    end_block: int
    # Barrier intervals elapsed in this chunk; race checks compare them.
    epoch: int = field(default=0)
    # Loop iterations run side by side as lanes (1: one lane per thread).
    iterations: int = field(default=1)
    _ids: dict[tuple[str, int], np.ndarray | np.int64] = field(
        default_factory=dict[tuple[str, int], "np.ndarray | np.int64"]
    )

    @property
    def num_blocks(self) -> int:
        return self.end_block - self.first_block

    @property
    def base_count(self) -> int:
        """Threads of the chunk's blocks (lanes before iterations are added)."""
        return self.num_blocks * self.grid.threads_per_block

    @property
    def count(self) -> int:
        return self.base_count * self.iterations

    @cached_property
    def local_thread(self) -> np.ndarray:
        """Linear thread id within its block, per lane."""
        threads = np.arange(self.grid.threads_per_block, dtype=np.int64)
        return np.tile(threads, self.num_blocks * self.iterations)

    @cached_property
    def block_slot(self) -> np.ndarray:
        """Index of the lane's block within this chunk (shared memory copy), per lane."""
        slots = np.repeat(np.arange(self.num_blocks, dtype=np.int64), self.grid.threads_per_block)
        return np.tile(slots, self.iterations)

    @cached_property
    def global_lane(self) -> np.ndarray:
        """Lane number in the whole grid (of the lane's thread), per lane."""
        start = self.first_block * self.grid.threads_per_block
        return np.tile(np.arange(start, start + self.base_count, dtype=np.int64), self.iterations)

    def grid_lane(self, local_lane: int) -> int:
        """The grid lane (thread) a lane of this set runs for."""
        return self.first_block * self.grid.threads_per_block + local_lane % self.base_count

    def with_iterations(self, iterations: int) -> LaneSet:
        """These lanes repeated for `iterations` loop iterations, iteration major."""
        return LaneSet(
            self.grid,
            self.first_block,
            self.end_block,
            epoch=self.epoch,
            iterations=self.iterations * iterations,
        )

    def thread_id(self, axis: int) -> np.ndarray | np.int64:
        """`gpu.thread_id` along x/y/z (0/1/2), per lane."""
        key = ("thread", axis)
        if key not in self._ids:
            self._ids[key] = _along(self.local_thread, self.grid.threads, axis)
        return self._ids[key]

    def block_id(self, axis: int) -> np.ndarray | np.int64:
        """`gpu.block_id` along x/y/z; a scalar when the chunk holds a single block."""
        key = ("block", axis)
        if key not in self._ids:
            linear: np.ndarray | np.int64 = (
                np.int64(self.first_block)
                if self.num_blocks == 1
                else self.block_slot + self.first_block
            )
            self._ids[key] = _along(linear, self.grid.blocks, axis)
        return self._ids[key]


def _along(
    linear: np.ndarray | np.int64, extents: tuple[int, int, int], axis: int
) -> np.ndarray | np.int64:
    """The coordinate along `axis` of a linear (x fastest) id."""
    nx, ny, nz = extents
    if axis == 0:
        # In a 1-D grid the linear id is the x id already.
        return linear if ny == nz == 1 else linear % nx
    if axis == 1:
        return (linear // nx) % ny
    return linear // (nx * ny)
