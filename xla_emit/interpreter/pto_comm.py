"""The PTO executor's collectives over simulated ranks (`pto.comm.*`).

A collective's `group` operands are the ranks' global buffers, all in this one
process, so the root's op moves the data between them at once, as pto-isa's
comm pages state it (`docs/isa/comm/`, rank r = the r-th group operand):

- `tbroadcast`: every member's buffer becomes `src`;
- `tgather`: `dst` is the members concatenated along their rows (a 1-D view's
  elements), `dst[r*H + i] = member_r[i]`;
- `tscatter`: the inverse, `member_r[i] = src[r*H + i]`;
- `treduce`: `dst` is the element-wise sum, maximum or minimum of the members.

The staging tiles (`recv(...)`, `acc`) carry the data in pieces on the device;
their contents afterwards are scratch and left as they were.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.ir import Operation

from xla_emit.dialects.pto.comm_collectives import (
    CommTGatherOp,
    CommTScatterOp,
    TBroadcastOp,
    TReduceOp,
)
from xla_emit.interpreter.pto_handlers import Handler
from xla_emit.interpreter.pto_tile import Value

_REDUCE = {"sum": np.add, "max": np.maximum, "min": np.minimum}


def _buffers(ex: Any, op: Operation, args: list[Value]) -> tuple[dict[Any, Value], list[Any]]:
    values = dict(zip(op.operands, args, strict=True))
    members = [values[v] for v in op.group]  # type: ignore[attr-defined]
    for member in members:
        if not isinstance(member, np.ndarray):
            raise ex.error(op, "expects each group member to be a global buffer")
    return values, members


def _rows(array: np.ndarray) -> np.ndarray:
    return array.reshape(array.shape[0], -1) if array.ndim > 1 else array.reshape(-1, 1)


def _broadcast(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    values, members = _buffers(ex, op, args)
    source = np.array(values[op.src])  # type: ignore[attr-defined]
    for member in members:
        if member.size != source.size:
            raise ex.error(op, f"broadcasts {source.size} elements into a member of {member.size}")
        member.reshape(-1)[...] = source.reshape(-1)
    return []


def _split(ex: Any, op: Operation, whole: np.ndarray, members: list[np.ndarray]) -> list[Any]:
    """The row blocks of `whole` that the members' rows make up, in rank order."""
    rows = [_rows(m).shape[0] for m in members]
    target = _rows(whole)
    if sum(rows) != target.shape[0] or any(_rows(m).shape[1] != target.shape[1] for m in members):
        raise ex.error(op, f"{len(members)} members of {rows[0]} rows do not tile {whole.shape}")
    starts = np.cumsum([0, *rows])
    return [target[starts[r] : starts[r + 1]] for r in range(len(members))]


def _gather(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    values, members = _buffers(ex, op, args)
    dst = values[op.dst]  # type: ignore[attr-defined]
    for block, member in zip(_split(ex, op, dst, members), members, strict=True):
        block[...] = _rows(member)
    return []


def _scatter(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    values, members = _buffers(ex, op, args)
    src = values[op.src]  # type: ignore[attr-defined]
    for block, member in zip(_split(ex, op, src, members), members, strict=True):
        _rows(member)[...] = block
    return []


def _reduce(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    values, members = _buffers(ex, op, args)
    kind = str(op.reduceOp).rstrip(">").split("<")[-1].split()[-1]  # type: ignore[attr-defined]
    if kind not in _REDUCE:
        raise ex.error(op, f"reduces by '{kind}', not one of {', '.join(_REDUCE)}")
    dst = values[op.dst]  # type: ignore[attr-defined]
    total = np.array(members[0]).reshape(-1)
    for member in members[1:]:
        total = _REDUCE[kind](total, member.reshape(-1))
    dst.reshape(-1)[...] = total.astype(dst.dtype)
    return []


COMM_HANDLERS: dict[type[Operation], Handler] = {
    TBroadcastOp: _broadcast,
    CommTGatherOp: _gather,
    CommTScatterOp: _scatter,
    TReduceOp: _reduce,
}
