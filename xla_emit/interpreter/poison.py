"""Values read from shared memory no thread wrote, followed to where they matter.

A kernel may read unwritten shared memory and throw the values away: XLA's
packed transpose reads whole vectors of its shared tile and stores only the
elements its indexing map keeps. So such a read is no error by itself; the
read marks the elements it got as poisoned, the mark follows the values, and
only a use that makes the garbage observable is an error, naming its rule:

- `reaches an output`: a poisoned element stored into an output of the kernel;
- `decides a branch`: a poisoned `scf.if`/`cf.cond_br`/`scf.condition`
  condition or loop bound;
- `is used as an index`: a poisoned index of a memory access (or of any op
  but index arithmetic), which would read or write an arbitrary element;
- `is stored to memory`: a poisoned element stored into shared or private
  memory, where the check does not follow it any further.

Marks are per element, keyed by the identity of the numpy value (a value
passes unchanged through block arguments, yields, calls and returns). Ops
that only move elements (extract, insert, select, shuffles, ...) move the
marks with them: the op runs a second time on the marks. Any other op marks
a lane's results when any of its operands is marked on that lane. A value an
op rebuilds (a lane-varying `scf.if` merging its branches) loses its mark:
the check may miss a leak there, but never reports one that is not.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Operation

from xla_emit.interpreter.element_types import shaped_rank
from xla_emit.interpreter.memory import BufferKind, TensorValue

if TYPE_CHECKING:
    from xla_emit.interpreter.executor import Executor, Value, Values


def lanes(value: Value) -> np.ndarray:
    """A non-tensor value viewed as an array (numpy scalars act as 0-d arrays)."""
    assert not isinstance(value, TensorValue), "a tensor where lanes were expected"
    return np.asarray(value)


REACHES_AN_OUTPUT = "reaches an output"
DECIDES_A_BRANCH = "decides a branch"
IS_AN_INDEX = "is used as an index"
IS_STORED = "is stored to memory"

# Ops whose listed operands are moved element by element into the results: rerun on the marks.
_MOVES_ELEMENTS: dict[str, tuple[int, ...]] = {
    "vector.extract": (0,),
    "vector.insert": (0, 1),
    "vector.broadcast": (0,),
    "vector.splat": (0,),
    "vector.shuffle": (0, 1),
    "vector.transpose": (0,),
    "vector.shape_cast": (0,),
    "vector.extract_strided_slice": (0,),
    "vector.insert_strided_slice": (0, 1),
    "vector.from_elements": (),  # every operand: see `_data_operands`
    "arith.select": (1, 2),
}
# Conditions and bounds: operand positions that decide which code runs.
_BRANCHES: dict[str, tuple[int, ...]] = {
    "scf.if": (0,),
    "cf.cond_br": (0,),
    "scf.condition": (0,),
    "scf.index_switch": (0,),
    "scf.for": (0, 1, 2),
}
# Stores: (value operand, destination operand).
_STORES: dict[str, tuple[int, int]] = {
    "tensor.insert": (0, 1),
    "vector.transfer_write": (0, 1),
    "vector.store": (0, 1),
    "memref.store": (0, 1),
    "vector.maskedstore": (2, 0),
}
# Ops that compute indices from indices, or only hand values on (yields, returns, calls,
# branches' operands): a poisoned index stays a value until something indexes with it.
_INDEX_ARITHMETIC = ("arith.", "xla.apply_indexing", "xla_gpu.apply_indexing", "index.")
_CALLS = frozenset({"func.call", "xla.pure_call"})
_HANDS_ON = frozenset(
    {
        "scf.yield", "xla.yield", "func.return", "func.call", "xla.pure_call",
        "scf.condition", "cf.br", "cf.cond_br", "tensor.yield",
    }
)  # fmt: skip


@dataclass(frozen=True)
class Origin:
    """Where the first poisoned element of a value was read."""

    op: Operation
    what: str  # "element [4] of shared memory %s"
    local_lane: int


class PoisonTracker:
    """The poisoned values of one chunk of lanes (see the module docstring)."""

    def __init__(self) -> None:
        self._marks: dict[int, tuple[weakref.ref[Any], np.ndarray, Origin]] = {}
        self._pending: tuple[np.ndarray, Origin] | None = None

    def clear(self) -> None:
        self._marks.clear()
        self._pending = None

    @property
    def empty(self) -> bool:
        return not self._marks and self._pending is None

    def mark_of(self, value: object) -> tuple[np.ndarray, Origin] | None:
        entry = self._marks.get(id(value))
        if entry is None or entry[0]() is not value:
            return None
        return entry[1], entry[2]

    def read_unwritten(self, mask: np.ndarray, origin: Origin) -> None:
        """A read (the op now running) got unwritten elements where `mask` holds."""
        self._pending = (mask, origin)

    def _mark(self, value: Value, mask: np.ndarray, origin: Origin) -> Value:
        """`value` (as a weak-referenceable array) marked with `mask`."""
        if not mask.any():
            return value
        array = value if isinstance(value, np.ndarray) else np.asarray(value)
        self._marks[id(array)] = (weakref.ref(array), mask, origin)
        return array

    # ------------------------------------------------------------------ per op

    def before(self, ex: Executor, op: Operation, args: Values) -> None:
        """Reject a use of a poisoned operand that makes it observable."""
        name = op.name
        for position in _BRANCHES.get(name, ()):
            if position < len(args):
                self._reject(ex, op, args[position], DECIDES_A_BRANCH, "as a condition or bound")
        store = _STORES.get(name)
        if store is not None and store[1] < len(args):
            destination = args[store[1]]
            rule, where = IS_STORED, "into memory"
            if isinstance(destination, TensorValue):
                buffer = destination.buffer
                if buffer.kind is BufferKind.OUTPUT:
                    rule, where = REACHES_AN_OUTPUT, f"into {buffer.name}"
                else:
                    where = f"into {buffer.name}"
            self._reject(ex, op, args[store[0]], rule, where)
        if not name.startswith(_INDEX_ARITHMETIC) and name not in _HANDS_ON:
            for operand, value in zip(op.operands, args, strict=False):
                if isinstance(operand.type, IndexType):
                    self._reject(ex, op, value, IS_AN_INDEX, "as an index")

    def after(self, ex: Executor, op: Operation, args: Values, results: Values) -> Values:
        """`results` with the marks their operands (or the read) pass on."""
        pending, self._pending = self._pending, None
        if pending is not None:
            mask, origin = pending
            return tuple(
                self._mark(value, _fit(mask, value, result.type, ex), origin)
                if not isinstance(value, TensorValue)
                else value
                for value, result in zip(results, op.results, strict=True)
            )
        if op.regions or not results or op.name in _CALLS:
            # Yielded and returned values carry their own marks (the callee's ops set them).
            return results
        marked = [(i, m) for i, value in enumerate(args) if (m := self.mark_of(value)) is not None]
        if not marked:
            return results
        origin = marked[0][1][1]
        moved = _data_operands(op, len(args))
        if op.name in _MOVES_ELEMENTS:
            masks = self._moved_marks(ex, op, args, moved)
            other = [m for i, m in marked if i not in moved]
        else:
            masks = [None] * len(results)
            other = [m for _, m in marked]
        lane_mask = _any_per_lane(ex, [m for m, _ in other])
        out: list[Value] = []
        for value, result, mask in zip(results, op.results, masks, strict=True):
            if isinstance(value, TensorValue):
                out.append(value)
                continue
            shape = np.shape(value)
            combined = (
                np.zeros(shape, np.bool_) if mask is None else _fit(mask, value, result.type, ex)
            )
            if lane_mask is not None:
                combined = combined | _fit(lane_mask, value, result.type, ex)
            out.append(self._mark(value, combined, origin))
        return tuple(out)

    def _moved_marks(
        self, ex: Executor, op: Operation, args: Values, moved: Sequence[int]
    ) -> list[np.ndarray | None]:
        """The op run again with its moved operands replaced by their marks (as 0/1)."""
        replaced = list(args)
        for position in moved:
            value = lanes(args[position])
            mark = self.mark_of(value)
            flags = np.zeros(np.shape(value), np.bool_) if mark is None else mark[0]
            replaced[position] = np.where(flags, 1, 0).astype(value.dtype)
        implementation: Callable[[Operation, Values], Values] | None = ex.implementation(op)
        assert implementation is not None
        with np.errstate(all="ignore"):
            rerun = implementation(op, tuple(replaced))
        return [None if isinstance(v, TensorValue) else np.asarray(v) != 0 for v in rerun]

    def _reject(self, ex: Executor, op: Operation, value: Value, rule: str, use: str) -> None:
        mark = self.mark_of(value)
        if mark is None:
            return
        mask, origin = mark
        active = _active(ex, mask)
        if active is None:
            return
        where = ex.locator.location_of(origin.op) if ex.locator is not None else None
        at = f" at {where}" if where is not None else ""
        raise ex.error(
            op,
            f"uses a value read from {origin.what}, which no thread has written, {use} "
            f"(read by '{origin.op.name}'{at}; --check rule: an unwritten value {rule})",
            active,
        )


def _data_operands(op: Operation, count: int) -> tuple[int, ...]:
    if op.name == "vector.from_elements":
        return tuple(range(count))
    return _MOVES_ELEMENTS.get(op.name, ())


def _active(ex: Executor, mask: np.ndarray) -> int | None:
    """The first active lane where `mask` marks an element (None: no such lane)."""
    lanes = ex.lanes.count
    if mask.ndim and mask.shape[0] == lanes:
        per_lane = mask.reshape(lanes, -1).any(axis=1)
    elif mask.any():
        per_lane = np.ones(lanes, np.bool_)
    else:
        return None
    return ex.first_lane(np.asarray(per_lane))


def _any_per_lane(ex: Executor, masks: list[np.ndarray]) -> np.ndarray | None:
    """Per lane (or for all lanes, as a 0-d array), whether any mask marks an element."""
    if not masks:
        return None
    lanes = ex.lanes.count
    combined = np.zeros((), np.bool_)
    for mask in masks:
        if mask.ndim and mask.shape[0] == lanes:
            combined = combined | mask.reshape(lanes, -1).any(axis=1)
        else:
            combined = combined | np.asarray(mask.any())
    return combined


def _fit(mask: np.ndarray, value: Value, type_: Any, ex: Executor) -> np.ndarray:
    """`mask` in the shape of `value`: as it is where the shapes agree, else per lane (a
    lane marked wherever the value has a lane axis), else for the whole value."""
    shape = np.shape(lanes(value))
    if mask.shape == shape:
        return mask
    rank = shaped_rank(type_)
    count = ex.lanes.count
    if mask.ndim and mask.shape[0] == count and len(shape) > rank:
        marked = mask.reshape(count, -1).any(axis=1)
        return np.broadcast_to(marked.reshape((count,) + (1,) * rank), shape)
    return np.broadcast_to(np.asarray(mask.any()), shape)
