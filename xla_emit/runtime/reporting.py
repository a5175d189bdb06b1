"""The interpreter's command-line options and what a run reports on stderr.

`--check` prints the stage report and fails on the first stage that differs;
`--time` prints per-pass and per-kernel times; long runs draw a progress bar
on stderr when it is a terminal.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import TextIO

from xla_emit.diagnostics import UserError
from xla_emit.interpreter import CheckOptions
from xla_emit.interpreter.executor import ProgressCallback
from xla_emit.runtime.pipeline import AfterPass
from xla_emit.runtime.stages import PipelineCheck


@dataclass(frozen=True)
class InterpreterOptions:
    """The interpreter's command-line options."""

    passes: str | None = None
    check: bool = False
    time: bool = False
    entry: str | None = None
    # `gpu`, `tpu` or `pto`; None: the module's own attributes say (see runtime.backends).
    backend: str | None = None

    @property
    def safety_checks(self) -> CheckOptions:
        """Bounds checks always; every check under --check."""
        return CheckOptions() if self.check else CheckOptions.fast()


def finish_check(report: PipelineCheck, oracle: str, stream: TextIO | None = None) -> None:
    """Print the stage report; a stage that differs is an error."""
    print(report.report(), file=stream if stream is not None else sys.stderr)
    failure = report.first_failure
    if failure is not None:
        raise UserError(f"outputs differ from {oracle} after pass '{failure.stage}'")


def progress_bar(name: str) -> ProgressCallback | None:
    """A progress bar on stderr, only when stderr is a terminal and the run takes a while."""
    if not sys.stderr.isatty():
        return None
    started = time.perf_counter()

    def show(done: int, total: int) -> None:
        if time.perf_counter() - started < 0.5 and done < total:
            return
        filled = 30 * done // max(total, 1)
        bar = "#" * filled + "." * (30 - filled)
        end = "\n" if done >= total else ""
        print(
            f"\r{name} [{bar}] {100 * done // max(total, 1)}%", end=end, file=sys.stderr, flush=True
        )

    return show


def kernel_time(name: str, seconds: float, lanes: int) -> str:
    """The `--time` line of one kernel launch."""
    rate = f"{lanes / seconds:.3g} lanes/s" if seconds > 0 else "instant"
    return f"kernel {name}: {seconds:.3f} s, {lanes} lanes ({rate})"


def pass_timer(options: InterpreterOptions) -> AfterPass | None:
    """Under `--time`, a hook that prints each pass's time as it finishes."""
    if not options.time:
        return None
    return lambda name, _module, seconds: print(f"pass {name}: {seconds:.3f} s", file=sys.stderr)
