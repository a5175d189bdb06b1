"""Wall-time reports in the style of mlir-opt's `--mlir-timing`.

A `Timer` records how long each named step took (parse, each pass, verify,
print, run); `report()` is the table the tools print to stderr for
`--timing`. Steps of the same name add up, so a pass that runs on every
chunk or every kernel shows its total.
"""

from __future__ import annotations

import time
from collections.abc import Generator
from contextlib import contextmanager

_RULE = "===" + "-" * 73 + "==="

# The steps every tool names the same way.
PARSE = "parse"
VERIFY = "verify"
PRINT = "print"


class Timer:
    """Named wall-time totals, in the order each name was first timed."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._started = time.perf_counter()

    def add(self, name: str, seconds: float) -> None:
        self.seconds[name] = self.seconds.get(name, 0.0) + seconds

    @contextmanager
    def measure(self, name: str) -> Generator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self.add(name, time.perf_counter() - started)

    def report(self) -> str:
        """The table: every step's time and share of the total since the timer was made."""
        total = time.perf_counter() - self._started
        lines = [
            _RULE,
            "Execution time report".center(len(_RULE)).rstrip(),
            _RULE,
            f"  Total Execution Time: {total:.4f} seconds",
            "",
            "  ----Wall Time----  ----Name----",
        ]
        steps = dict(self.seconds)
        steps["(rest: start-up, reading, other)"] = max(0.0, total - sum(steps.values()))
        for name, seconds in [*steps.items(), ("Total", total)]:
            share = 100.0 * seconds / total if total > 0 else 0.0
            lines.append(f"  {seconds:8.4f} ({share:5.1f}%)  {name}")
        return "\n".join(lines) + "\n"
