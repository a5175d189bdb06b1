"""gpu: thread and block ids, barriers and warp shuffles.

`gpu.thread_id`/`gpu.block_id` define the launch grid through their
`xla.range` (the grid extent along an axis is the range's upper bound + 1).
Warps are 32 consecutive threads of a block; a shuffle never crosses a warp
or a `width` segment, and a lane whose source lies outside reads its own value.
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import Operation

from xla_emit.diagnostics import UserError
from xla_emit.dialects.gpu import BarrierOp, BlockIdOp, ShuffleMode, ShuffleOp, ThreadIdOp
from xla_emit.dialects.xla import get_xla_range
from xla_emit.dialects.xla_gpu import WARP_SIZE
from xla_emit.interpreter.executor import Executor, Values, lanes
from xla_emit.interpreter.lanes import AXES
from xla_emit.interpreter.registry import (
    GridAxis,
    GridKind,
    OpImpls,
    grid_axis,
    impl,
    register_impls,
)


def grid_extent(op: Operation, kind: GridKind, axis_name: str) -> GridAxis:
    """The grid axis an id op reads, sized by its `xla.range`."""
    interval = get_xla_range(op)
    if interval is None:
        raise UserError(f"'{op.name}' op needs an xla.range attribute: it sizes the launch grid")
    if interval.lower != 0:
        raise UserError(
            f"'{op.name}' op has xla.range starting at {interval.lower}; grid ids start at 0"
        )
    return (kind, AXES.index(axis_name), interval.upper + 1)


@grid_axis(ThreadIdOp)
def _thread_axis(op: Operation) -> GridAxis:
    assert isinstance(op, ThreadIdOp)
    return grid_extent(op, "thread", str(op.dimension.data))


@grid_axis(BlockIdOp)
def _block_axis(op: Operation) -> GridAxis:
    assert isinstance(op, BlockIdOp)
    return grid_extent(op, "block", str(op.dimension.data))


def barrier(ex: Executor, op: Operation) -> None:
    """All threads of each block meet here: a new barrier interval starts."""
    mask = ex.mask
    if mask is not None:
        per_block = mask.reshape(ex.lanes.num_blocks, ex.grid.threads_per_block)
        divergent = per_block.any(axis=1) & ~per_block.all(axis=1)
        if divergent.any():
            block = int(np.flatnonzero(divergent)[0])
            lane = block * ex.grid.threads_per_block + int(np.flatnonzero(~per_block[block])[0])
            raise ex.error(
                op,
                "is reached by only some threads of a block (divergent barrier); this one skips it",
                lane,
            )
    ex.lanes.epoch += 1


def shuffle(ex: Executor, value: np.ndarray, source: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Per lane, `value` of the lane `source` (a lane of the chunk) where `valid`, else its own."""
    own = np.arange(ex.lanes.count, dtype=np.int64)
    return value[np.where(valid, source, own)]


def shuffle_sources(
    ex: Executor, mode: ShuffleMode, offset: np.ndarray | np.generic, width: int
) -> tuple[np.ndarray, np.ndarray]:
    """Source lane (in the chunk) and validity of a shuffle for every lane."""
    thread = ex.lanes.local_thread
    in_warp = thread % WARP_SIZE
    segment = in_warp % width
    offset_lanes = np.asarray(offset, np.int64)
    if mode is ShuffleMode.DOWN:
        target = segment + offset_lanes
    elif mode is ShuffleMode.UP:
        target = segment - offset_lanes
    elif mode is ShuffleMode.XOR:
        target = segment ^ offset_lanes
    else:
        target = offset_lanes + np.zeros_like(segment)
    valid = (
        (target >= 0) & (target < width) & (thread - segment + target < ex.grid.threads_per_block)
    )
    lane = np.arange(ex.lanes.count, dtype=np.int64)
    return lane - segment + target, valid


@register_impls
class GpuImpls(OpImpls):
    """gpu ops over lanes."""

    @impl(ThreadIdOp)
    def run_thread_id(self, ex: Executor, op: ThreadIdOp, _args: Values) -> Values:
        return (ex.lanes.thread_id(AXES.index(op.dimension.data.value)),)

    @impl(BlockIdOp)
    def run_block_id(self, ex: Executor, op: BlockIdOp, _args: Values) -> Values:
        return (ex.lanes.block_id(AXES.index(op.dimension.data.value)),)

    @impl(BarrierOp)
    def run_barrier(self, ex: Executor, op: BarrierOp, _args: Values) -> Values:
        barrier(ex, op)
        return ()

    @impl(ShuffleOp)
    def run_shuffle(self, ex: Executor, op: ShuffleOp, args: Values) -> Values:
        value, offset, width = (lanes(arg) for arg in args)
        width_value = int(np.max(width))
        if np.ndim(width) or width_value <= 0 or width_value > WARP_SIZE:
            raise ex.error(op, f"needs a uniform width between 1 and {WARP_SIZE}")
        source, valid = shuffle_sources(ex, op.mode.data, offset, width_value)
        lanes_value = np.asarray(ex.to_lanes(value, np.ndim(value) if np.ndim(value) == 0 else 0))
        return (shuffle(ex, lanes_value, source, valid), valid)
