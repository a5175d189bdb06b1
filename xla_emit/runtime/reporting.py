"""The interpreter's command-line options and what a run reports on stderr.

`--check` prints the stage report and fails on the first stage that differs;
`--time` prints per-pass and per-kernel times; runs longer than a couple of
seconds draw a progress bar on stderr when it is a terminal (or under
`--progress`), with tqdm when it is installed and a plain line otherwise;
`--progress` also prints a line per `--check` stage and per kernel launch, so
the whole run shows where it is.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, TextIO

from xla_emit.diagnostics import UserError
from xla_emit.interpreter import CheckOptions
from xla_emit.interpreter.executor import ProgressCallback
from xla_emit.limits import RunLimits
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
    # --max-memory and --max-steps.
    limits: RunLimits = field(default_factory=RunLimits)
    # --progress: a bar even when stderr is not a terminal.
    progress: bool = False
    # --output-shapes: the full output arrays of a Pallas kernel run over its grid.
    output_shapes: tuple[tuple[int, ...], ...] | None = None
    # --engine: `interpreter` (the reference) or `native` (kernels compiled by LLVM).
    engine: str = "interpreter"

    @property
    def safety_checks(self) -> CheckOptions:
        """Bounds checks always; every check under --check."""
        return CheckOptions() if self.check else CheckOptions.fast()


def finish_check(report: PipelineCheck, oracle: str, stream: TextIO | None = None) -> None:
    """Print the stage report and its summary; a stage that differs is an error."""
    out = stream if stream is not None else sys.stderr
    print(report.report(), file=out)
    print(report.summary(oracle), file=out)
    failure = report.first_failure
    if failure is not None:
        raise UserError(f"outputs differ from {oracle} after pass '{failure.stage}'")


# A bar appears only once a run has taken this long: short runs print nothing.
PROGRESS_DELAY_SECONDS = 2.0


class _Bar(Protocol):
    n: float

    def update(self, n: float = 1) -> bool | None: ...

    def close(self) -> None: ...


def progress_bar(
    name: str, forced: bool = False, delay: float = PROGRESS_DELAY_SECONDS
) -> ProgressCallback | None:
    """A progress bar on stderr for a run that takes a while.

    Only when stderr is a terminal, or `forced` (`--progress`): never in pipes
    and logs. Drawn by tqdm when it is installed, else as one rewritten line.
    """
    if not (forced or sys.stderr.isatty()):
        return None
    started = time.perf_counter()
    bar: list[_Bar] = []

    def show(done: int, total: int) -> None:
        if not bar:
            if time.perf_counter() - started < delay:
                return
            bar.append(_make_bar(name, total))
        bar[0].update(done - bar[0].n)
        if done >= total:
            bar[0].close()

    return show


def _make_bar(name: str, total: int) -> _Bar:
    try:
        from tqdm import tqdm  # pyright: ignore[reportMissingModuleSource]
    except ImportError:
        return _LineBar(name, total)
    return tqdm(total=total, desc=name, unit="lane", file=sys.stderr, leave=True)


class _LineBar:
    """A bar drawn on one rewritten stderr line, for when tqdm is missing."""

    def __init__(self, name: str, total: int) -> None:
        self.name = name
        self.total = max(total, 1)
        self.n: float = 0

    def update(self, n: float = 1) -> bool | None:
        self.n += n
        filled = int(30 * self.n) // self.total
        percent = int(100 * self.n) // self.total
        bar = "#" * filled + "." * (30 - filled)
        print(f"\r{self.name} [{bar}] {percent}%", end="", file=sys.stderr, flush=True)
        return None

    def close(self) -> None:
        print(file=sys.stderr, flush=True)


def run_progress(options: InterpreterOptions) -> Callable[[str], None] | None:
    """Under `--progress`, a line on stderr for each step of the whole run (stage, launch)."""
    if not options.progress:
        return None
    return lambda step: print(step, file=sys.stderr, flush=True)


def launch_progress(
    options: InterpreterOptions,
) -> Callable[[str], ProgressCallback | None]:
    """For each kernel launch: a line under `--progress`, then its own bar (long runs only)."""
    steps = run_progress(options)
    launches = [0]

    def start(name: str) -> ProgressCallback | None:
        if steps is not None:
            launches[0] += 1
            steps(f"run: launch {launches[0]} ({name})")
        return progress_bar(name, options.progress)

    return start


def kernel_time(name: str, seconds: float, lanes: int) -> str:
    """The `--time` line of one kernel launch."""
    rate = f"{lanes / seconds:.3g} lanes/s" if seconds > 0 else "instant"
    return f"kernel {name}: {seconds:.3f} s, {lanes} lanes ({rate})"


def pass_timer(options: InterpreterOptions) -> AfterPass | None:
    """Under `--time`, a hook that prints each pass's time as it finishes."""
    if not options.time:
        return None
    return lambda name, _module, seconds: print(f"pass {name}: {seconds:.3f} s", file=sys.stderr)
