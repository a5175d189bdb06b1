"""The budgets every executor counts against (steps, memory held at once), and the limits
of the current run.

The runtime sets the run's limits (`with run_limits(limits):`); an executor
reads them when a run starts, so worker threads share its `StepCounter`. A
step is one op run once: over all the lanes of a chunk in the SIMT executor,
once per op in the TPU and PTO executors. Loops count every trip, so a loop
of 10^12 trips stops at the budget instead of running forever.

A `MemoryMeter` counts the bytes a kernel run holds at once: its arguments
for the whole run, and every buffer it makes (tensors, memrefs, shared
memory, per-lane copies, TPU windows and scratch, PTO tiles) from the moment
it is reserved, before numpy allocates it, until its storage is freed: the
executors drop a value at its last use, so a buffer is released when the last
value holding it dies (or its `memref.dealloc` was that last use). A static
sum of a kernel's allocations is no sound bound, which is why the meter counts
while the kernel runs: an allocation in a loop body can be carried into the
next trip, calls nest, and a private tensor is copied for every lane of a
chunk on its first lane-varying write.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import numpy as np
from xdsl.ir import Operation

from xla_emit.limits import RunLimits, format_bytes, held_over_budget

_LIMITS: ContextVar[RunLimits | None] = ContextVar("run_limits", default=None)


@contextmanager
def run_limits(limits: RunLimits) -> Iterator[None]:
    """Run the body under `limits` (the defaults apply outside)."""
    token = _LIMITS.set(limits)
    try:
        yield
    finally:
        _LIMITS.reset(token)


def current_limits() -> RunLimits:
    """The limits `run_limits` set, else the defaults."""
    limits = _LIMITS.get()
    return limits if limits is not None else RunLimits()


class StepCounter:
    """Ops interpreted so far in one run, against the step budget."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = limit if limit is not None else current_limits().max_steps
        self.spent = 0

    def charge(self, steps: int) -> bool:
        """Count `steps` more; True once the budget is spent (the caller raises, located)."""
        # Worker threads share the counter; a lost update only delays the stop a little.
        self.spent += steps
        return self.spent > self.limit

    def exceeded(self) -> str:
        return f"ran past the step budget of {self.limit} interpreted ops (--max-steps)"


class MemoryOverBudget(Exception):
    """Holding one more buffer would go over the memory budget; the executor that reserved it
    raises its message located at the op."""


class MemoryMeter:
    """The bytes one kernel run holds at once, against the memory budget (see the module
    docstring); worker threads share it."""

    def __init__(self, budget: int | None = None) -> None:
        self.budget = budget if budget is not None else current_limits().max_memory
        self.total = 0
        self._held: dict[int, tuple[str, int]] = {}
        self._next_key = 0
        # Reentrant: a release may run (storage freed) while this thread holds the lock.
        self._lock = threading.RLock()

    def reserve(self, what: str, size: int) -> Reservation:
        """Count `size` bytes more for `what` (until `Reservation.keep`'s storage is freed,
        else for the rest of the run); `MemoryOverBudget` if that would go over the budget."""
        with self._lock:
            total = self.total + size
            if total > self.budget:
                parts = _grouped([*self._held.values(), (what, size)])
                raise MemoryOverBudget(
                    f"needs {format_bytes(size)} more for {what}: the run would hold "
                    + held_over_budget(total, self.budget, parts)
                )
            key = self._next_key
            self._next_key += 1
            self._held[key] = (what, size)
            self.total = total
            return Reservation(self, key)

    def holder(self, what: str, fail: Callable[[str], Exception]) -> Callable[[int], Reservation]:
        """`reserve` for `what`, the size given later (by the allocating function); over the
        budget it raises `fail(message)`, the executor's error located at the op."""

        def hold(size: int) -> Reservation:
            try:
                return self.reserve(what, size)
            except MemoryOverBudget as over:
                raise fail(str(over)) from None

        return hold

    def release(self, key: int) -> None:
        with self._lock:
            held = self._held.pop(key, None)
            if held is not None:
                self.total -= held[1]


def result_label(op: Operation) -> str:
    """The buffer `op` makes, for memory messages: `%e (tensor.empty tensor<4xf32>)`, or
    `'tensor.empty' (tensor<4xf32>)` when its result has no name."""
    result = op.results[0]
    if result.name_hint:
        return f"%{result.name_hint} ({op.name} {result.type})"
    return f"'{op.name}' ({result.type})"


class Reservation:
    """Bytes a `MemoryMeter` counts for one buffer."""

    def __init__(self, meter: MemoryMeter, key: int) -> None:
        self.meter = meter
        self.key = key

    def keep(self, storage: np.ndarray) -> np.ndarray:
        """Release the bytes when `storage` (the buffer's array) is freed; returns it."""
        finalizer = weakref.finalize(storage, self.meter.release, self.key)
        finalizer.atexit = False
        return storage


def _grouped(parts: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Parts with the same description summed, so the largest contributors are the ops that
    hold the most, however many buffers each keeps: `2 x %t (...)`."""
    sizes: dict[str, int] = {}
    counts: dict[str, int] = {}
    for what, size in parts:
        sizes[what] = sizes.get(what, 0) + size
        counts[what] = counts.get(what, 0) + 1
    return [
        (what if counts[what] == 1 else f"{counts[what]} x {what}", size)
        for what, size in sizes.items()
    ]
