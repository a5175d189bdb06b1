"""What passes between the PTO executor's cores: cube-vector pipes, reserved buffers,
asynchronous DMA, and local buffers a kernel allocates as memrefs.

A mixed kernel's cube function and vector function (once per vector sub-block,
`get_subblock_idx` 0 and 1) run as cores taking turns (`pto_cores_schedule`).
A pipe carries tiles one way: `tpush_to_aiv` / `tpop_from_aic` from the cube to
the vector sub-blocks (C2V), `tpush_to_aic` / `tpop_from_aiv` back (V2C);
`tpush` / `tpop` use the pipe `initialize_l2l_pipe` / `initialize_l2g2l_pipe`
names by its `dir_mask` and `flag_base`. A two-way pipe (`dir_mask = 3`, DIR_BOTH)
carries both directions at once; the tile's location picks one, as pto-isa's CPU
simulator does (`include/pto/cpu/TPush.hpp`, `GetProducerTransferDir` and
`GetConsumerTransferDir`): a push of an `acc` or `mat` tile goes to the vector
sub-blocks, any other push to the cube; a pop into a `vec` tile takes from the
cube, any other pop from the vector sub-blocks. A pipe keeps every entry pushed (no
FIFO depth: pto-isa's TPUSH would wait for a free slot), and a pop waits for
the next entry. Following pto-isa's TPUSH page, each sub-block pops every C2V
entry and takes its part under `split`: its half of the rows (`split = 1`,
TILE_UP_DOWN), of the columns (`split = 2`, TILE_LEFT_RIGHT) or the whole tile
(`split = 0`); a cube's split V2C pop joins the two sub-blocks' parts (without a
split it takes sub-block 0's tile). Frees and pipe initialization change no
values.

Asynchronous DMA (`tput_async`, `tget_async`) copies at once; its events are
complete when waited on or tested.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects import memref
from xdsl.dialects.builtin import IntegerAttr, MemRefType
from xdsl.ir import Operation

from xla_emit.dialects.pto import pipe_ops
from xla_emit.interpreter.budget import result_label
from xla_emit.interpreter.pto_tile import Tile, Value

# Pipe directions, as `dir_mask` bits; a two-way pipe has both.
C2V, V2C = 1, 2
BOTH = C2V | V2C
_SPLITS = {0: "no split", 1: "TILE_UP_DOWN", 2: "TILE_LEFT_RIGHT"}


@dataclass
class Pipes:
    """Pushed tiles, by direction (frontend ops) or pipe handle (`tpush`): one list the
    cube pushes to, read by each vector sub-block at its own cursor (C2V), or one list
    per vector sub-block, read by the cube (V2C)."""

    entries: dict[object, list[Tile]] = field(default_factory=dict)
    cursors: dict[object, int] = field(default_factory=dict)

    def push(self, key: object, tile: Tile) -> None:
        self.entries.setdefault(key, []).append(tile)

    def pop(self, key: object, reader: object) -> Tile | None:
        """The next entry of list `key` for `reader`, or None when it has read them all."""
        entries, cursor = self.entries.get(key, []), self.cursors.get((key, reader), 0)
        if cursor >= len(entries):
            return None
        self.cursors[(key, reader)] = cursor + 1
        return entries[cursor]


def _int_attr(op: Operation, name: str, default: int = 0) -> int:
    attr = op.attributes.get(name)
    return int(attr.value.data) if isinstance(attr, IntegerAttr) else default


def _direction(key: object) -> object:
    """C2V or V2C: a frontend queue's key, or the direction in a pipe handle."""
    return key[1] if isinstance(key, tuple) else key


def _split(executor: Any, op: Operation) -> int:
    split = _int_attr(op, "split")
    if split not in _SPLITS:
        raise executor.error(op, f"split {split} is not one of 0, 1, 2")
    return split


def _push(executor: Any, op: Operation, key: object, tile: Value) -> list[Value]:
    if not isinstance(tile, Tile):
        raise executor.error(op, f"pushes a tile, but got {type(tile).__name__}")
    # What the FIFO slot holds: a copy of the tile as it is now.
    reservation = executor.holder(op, f"a tile pushed by '{op.name}'")(tile.data.nbytes)
    data = reservation.keep(tile.data.copy())
    copy = Tile(data, tile.valid_rows, tile.valid_cols, tile.loc)
    list_key = (key, executor.subblock) if _direction(key) == V2C else key
    executor.pipes.push(list_key, copy)
    if executor.scheduler is not None:
        executor.scheduler.pushes += 1
    return []


def _part(split: int, subblock: int, pushed: Tile) -> Tile:
    """Vector sub-block `subblock`'s part of a pushed cube tile under `split`."""
    rows, cols = pushed.data.shape
    if split == 1:
        half = rows // 2
        data = pushed.data[subblock * half : (subblock + 1) * half]
        return Tile(data, max(0, min(pushed.valid_rows - subblock * half, half)), pushed.valid_cols)
    if split == 2:
        half = cols // 2
        data = pushed.data[:, subblock * half : (subblock + 1) * half]
        return Tile(data, pushed.valid_rows, max(0, min(pushed.valid_cols - subblock * half, half)))
    return pushed


def _empty(executor: Any, op: Operation, key: object) -> Exception:
    direction = "cube-to-vector" if _direction(key) == C2V else "vector-to-cube"
    return executor.error(op, f"pops from the empty {direction} pipe: no core pushes to it")


def _next(executor: Any, key: object, reader: object) -> Tile | None:
    """The next entry for `reader`, waiting for the other cores' pushes while they run;
    None when nothing more will come."""
    while True:
        entry = executor.pipes.pop(key, reader)
        if entry is not None or executor.scheduler is None:
            return entry
        if not executor.scheduler.wait_for_push(executor.core):
            return None


def _take(executor: Any, op: Operation, key: object) -> Tile:
    """The tile a pop receives: its sub-block's part of the cube's next push (C2V), or the
    vector sub-blocks' next pushes joined along the split (V2C; sub-block 0's alone
    without a split)."""
    split = _split(executor, op)
    if _direction(key) == C2V:
        pushed = _next(executor, key, executor.subblock)
        if pushed is None:
            raise _empty(executor, op, key)
        return _part(split, executor.subblock, pushed)
    first = _next(executor, (key, 0), "cube")
    if first is None:
        raise _empty(executor, op, key)
    if not split:
        return first
    second = _next(executor, (key, 1), "cube")
    if second is None:
        raise executor.error(op, "pops a split tile, but vector sub-block 1 pushed no part")
    joined = np.concatenate([first.data, second.data], axis=0 if split == 1 else 1)
    return Tile(joined, joined.shape[0], joined.shape[1])


def _pop_into(executor: Any, op: Operation, key: object, dst: Tile) -> None:
    part = _take(executor, op, key)
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
    hold = executor.holder(op, result_label(op))
    dst = Tile.of_type(op.tile.type, valid, hold)  # type: ignore[arg-type]
    _pop_into(executor, op, C2V if isinstance(op, pipe_ops.TPopFromAicOp) else V2C, dst)
    return [dst]


def _initialize_pipe(executor: Any, op: Operation, args: list[Value]) -> list[Value]:
    direction = _int_attr(op, "dir_mask", C2V)
    if direction not in (C2V, V2C, BOTH):
        raise executor.error(op, f"runs pipes of dir_mask 1, 2 or 3, not dir_mask {direction}")
    return [("pipe", direction, _int_attr(op, "flag_base"))]


def _one_way(pipe: Value, tile: Tile, pushing: bool) -> object:
    """The one-way queue of `pipe` a push or pop of `tile` uses: the pipe itself, or, for
    a two-way pipe, its direction for the tile's location."""
    assert isinstance(pipe, tuple)
    _, direction, flag_base = pipe
    if direction != BOTH:
        return pipe
    if pushing:
        direction = C2V if tile.loc in ("acc", "mat") else V2C
    else:
        direction = C2V if tile.loc == "vec" else V2C
    return ("pipe", direction, flag_base, "two-way")


def _push_pipe(executor: Any, op: Operation, args: list[Value]) -> list[Value]:
    tile = args[0]
    if not isinstance(tile, Tile):
        raise executor.error(op, f"pushes a tile, but got {type(tile).__name__}")
    return _push(executor, op, _one_way(args[1], tile, pushing=True), tile)


def _pop_pipe(executor: Any, op: Operation, args: list[Value]) -> list[Value]:
    dst = args[0]
    if not isinstance(dst, Tile):
        raise executor.error(op, f"pops into a tile, but got {type(dst).__name__}")
    _pop_into(executor, op, _one_way(args[1], dst, pushing=False), dst)
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
    return [Tile.of_memref(memref_type, executor.holder(op, result_label(op)))]


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
