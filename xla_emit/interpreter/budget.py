"""The step budget every executor counts against, and the limits of the current run.

The runtime sets the run's limits (`with run_limits(limits):`); an executor
reads them when a run starts, so worker threads share its `StepCounter`. A
step is one op run once: over all the lanes of a chunk in the SIMT executor,
once per op in the TPU and PTO executors. Loops count every trip, so a loop
of 10^12 trips stops at the budget instead of running forever.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from xla_emit.hlo.limits import RunLimits

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
