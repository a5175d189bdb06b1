"""What passes between the PTO executor's cores: cube-vector pipes, reserved buffers,
asynchronous DMA, and local buffers a kernel allocates as memrefs.

The executor runs one cube core and one vector sub-core (sub-block 0 of 1) one
op at a time, in program order (an entry calls its cube function, then its
vector function). A pipe is a first-in first-out queue of tiles, one per
direction: `tpush_to_aiv` / `tpop_from_aic` carry cube tiles to the vector core
(C2V), `tpush_to_aic` / `tpop_from_aiv` the other way (V2C); `tpush` / `tpop`
use the queue of the pipe `initialize_l2l_pipe` / `initialize_l2g2l_pipe`
names by its `dir_mask` and `flag_base`. The queue holds every entry pushed
(pto-isa's TPUSH waits for a free slot; in program order no slot is ever
taken back before the whole producer has run), so a pop must follow its push
in program order. A C2V pop with `split` takes sub-block 0's part of the pushed
tile: its upper half of rows (`split = 1`, TILE_UP_DOWN) or left half of columns
(`split = 2`, TILE_LEFT_RIGHT), pto-isa's TPUSH page. Frees and pipe
initialization change no values.

Asynchronous DMA (`tput_async`, `tget_async`) copies at once; its events are
complete when waited on or tested.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects import memref
from xdsl.dialects.builtin import IntegerAttr, MemRefType
from xdsl.ir import Operation

from dialects.pto import pipe_ops
from xla_emit.interpreter.pto_tile import Tile, Value

# Pipe directions, as `dir_mask` bits.
C2V, V2C = 1, 2
_SPLITS = {0: "no split", 1: "TILE_UP_DOWN", 2: "TILE_LEFT_RIGHT"}


@dataclass
class Pipes:
    """The queues of pushed tiles, by direction (frontend ops) or pipe key (`tpush`)."""

    queues: dict[object, deque[Tile]] = field(default_factory=dict)

    def queue(self, key: object) -> deque[Tile]:
        return self.queues.setdefault(key, deque())


def _int_attr(op: Operation, name: str, default: int = 0) -> int:
    attr = op.attributes.get(name)
    return int(attr.value.data) if isinstance(attr, IntegerAttr) else default


def _snapshot(tile: Tile) -> Tile:
    """What a push stores in the FIFO slot: a copy of the tile as it is now."""
    return Tile(tile.data.copy(), tile.valid_rows, tile.valid_cols, tile.loc)


def _direction(key: object) -> object:
    """C2V or V2C: a frontend queue's key, or the direction in a pipe handle."""
    return key[1] if isinstance(key, tuple) else key


def _push(executor: Any, op: Operation, key: object, tile: Value) -> list[Value]:
    if not isinstance(tile, Tile):
        raise executor.error(op, f"pushes a tile, but got {type(tile).__name__}")
    split = _int_attr(op, "split")
    if _direction(key) == V2C and split:
        raise executor.error(
            op,
            f"a {_SPLITS.get(split, split)} push from the vector cores needs both sub-blocks; "
            "the executor runs one",
        )
    executor.pipes.queue(key).append(_snapshot(tile))
    return []


def _part(executor: Any, op: Operation, pushed: Tile) -> Tile:
    """Sub-block 0's part of a pushed tile under the op's `split`."""
    split = _int_attr(op, "split")
    rows, cols = pushed.data.shape
    if split not in _SPLITS:
        raise executor.error(op, f"split {split} is not one of 0, 1, 2")
    if split == 1:
        return Tile(pushed.data[: rows // 2], min(pushed.valid_rows, rows // 2), pushed.valid_cols)
    if split == 2:
        return Tile(
            pushed.data[:, : cols // 2], pushed.valid_rows, min(pushed.valid_cols, cols // 2)
        )
    return pushed


def _pop_into(executor: Any, op: Operation, key: object, dst: Tile) -> None:
    queue = executor.pipes.queue(key)
    if not queue:
        direction = "cube-to-vector" if _direction(key) == C2V else "vector-to-cube"
        raise executor.error(
            op,
            f"pops from the empty {direction} pipe: the executor runs the cores in program "
            "order, so a pop must follow its push",
        )
    part = _part(executor, op, queue.popleft())
    if part.data.shape != dst.data.shape:
        raise executor.error(
            op,
            f"pops a {dst.data.shape[0]}x{dst.data.shape[1]} tile, but the pipe holds a "
            f"{part.data.shape[0]}x{part.data.shape[1]} part",
        )
    dst.data[...] = part.data.astype(dst.data.dtype)


def _push_frontend(executor: Any, op: Operation, args: list[Value]) -> list[Value]:
    return _push(executor, op, C2V if isinstance(op, pipe_ops.TPushToAivOp) else V2C, args[0])


def _pop_frontend(executor: Any, op: Operation, args: list[Value]) -> list[Value]:
    assert isinstance(op, pipe_ops.TPopFromAicOp | pipe_ops.TPopFromAivOp)
    valid = (int(args[0]), int(args[1])) if args else None  # type: ignore[arg-type]
    dst = Tile.of_type(op.tile.type, valid)  # type: ignore[arg-type]
    _pop_into(executor, op, C2V if isinstance(op, pipe_ops.TPopFromAicOp) else V2C, dst)
    return [dst]


def _initialize_pipe(executor: Any, op: Operation, args: list[Value]) -> list[Value]:
    direction = _int_attr(op, "dir_mask", C2V)
    if direction not in (C2V, V2C):
        raise executor.error(op, f"runs one-way pipes (dir_mask 1 or 2), not dir_mask {direction}")
    return [("pipe", direction, _int_attr(op, "flag_base"))]


def _push_pipe(executor: Any, op: Operation, args: list[Value]) -> list[Value]:
    return _push(executor, op, args[1], args[0])


def _pop_pipe(executor: Any, op: Operation, args: list[Value]) -> list[Value]:
    dst = args[0]
    if not isinstance(dst, Tile):
        raise executor.error(op, f"pops into a tile, but got {type(dst).__name__}")
    _pop_into(executor, op, args[1], dst)
    return []


def _reserved_address(executor: Any, op: Operation, args: list[Value]) -> list[Value]:
    # The address only names the FIFO's memory; the queues above hold the tiles.
    return [_int_attr(op, "base")]


def _no_effect(executor: Any, op: Operation, args: list[Value]) -> list[Value]:
    return []


def _async_session(executor: Any, op: Operation, args: list[Value]) -> list[Value]:
    return [("async_session", id(op))]


def _async_copy(executor: Any, op: Operation, args: list[Value]) -> list[Value]:
    dst, src = args[0], args[1]
    if not isinstance(dst, np.ndarray) or not isinstance(src, np.ndarray):
        raise executor.error(op, "copies between global memory buffers")
    if dst.size != src.size:
        raise executor.error(op, f"copies {src.size} elements into {dst.size}")
    dst.reshape(-1)[...] = src.reshape(-1).astype(dst.dtype)
    return [True]  # the event: the copy is complete


def _async_event(executor: Any, op: Operation, args: list[Value]) -> list[Value]:
    return [bool(args[0])]


def _memref_alloc(executor: Any, op: Operation, args: list[Value]) -> list[Value]:
    assert isinstance(op, memref.AllocOp)
    memref_type = op.memref.type
    assert isinstance(memref_type, MemRefType)
    if len(memref_type.get_shape()) > 2 or -1 in memref_type.get_shape():
        raise executor.error(op, f"allocates static 1-D or 2-D buffers, not {memref_type}")
    return [Tile.of_memref(memref_type)]


Handler = Callable[[Any, Operation, list[Value]], list[Value]]
CORE_HANDLERS: dict[type[Operation], Handler] = {
    pipe_ops.TPushToAivOp: _push_frontend,
    pipe_ops.TPushToAicOp: _push_frontend,
    pipe_ops.TPopFromAicOp: _pop_frontend,
    pipe_ops.TPopFromAivOp: _pop_frontend,
    pipe_ops.TFreeFromAicOp: _no_effect,
    pipe_ops.TFreeFromAivOp: _no_effect,
    pipe_ops.AicInitializePipeOp: _no_effect,
    pipe_ops.AivInitializePipeOp: _no_effect,
    pipe_ops.ReserveBufferOp: _reserved_address,
    pipe_ops.ImportReservedBufferOp: _reserved_address,
    pipe_ops.InitializeL2LPipeOp: _initialize_pipe,
    pipe_ops.InitializeL2G2LPipeOp: _initialize_pipe,
    pipe_ops.TPushOp: _push_pipe,
    pipe_ops.TPopOp: _pop_pipe,
    pipe_ops.TFreeOp: _no_effect,
    pipe_ops.BuildAsyncSessionOp: _async_session,
    pipe_ops.TPutAsyncOp: _async_copy,
    pipe_ops.TGetAsyncOp: _async_copy,
    pipe_ops.WaitAsyncEventOp: _async_event,
    pipe_ops.TestAsyncEventOp: _async_event,
    memref.AllocOp: _memref_alloc,
}
