"""Timing whole processes: best-of-N wall time and the CPU time of that run (all threads).

The project's own bytecode is compiled first, as `pip install` does for an
installed package: with `PYTHONDONTWRITEBYTECODE` set (as on the project's
machines) every run would otherwise recompile each of our modules from source,
while xDSL and numpy, installed, start from their bytecode. Likewise the
tools' cache of compiled dataclass methods (`xla_emit.startup`) is one
folder for all of a benchmark's runs, filled by the first; `first_run` times
runs with an empty one, as the first run after installing is.
"""

from __future__ import annotations

import compileall
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("xla_emit", "dialects", "passes")


@dataclass(frozen=True)
class ProcessTime:
    wall: float
    cpu: float


def tool(name: str) -> list[str]:
    """The command that starts console script `name` of this environment."""
    script = Path(sys.executable).parent / name
    if script.exists():
        return [str(script)]
    module = {
        "xla-emit-opt": "xla_emit.tools.opt",
        "xla-emit-run": "xla_emit.tools.run",
        "xdsl-opt": "xdsl.tools.xdsl_opt",
    }[name]
    return [sys.executable, "-m", module]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def compile_bytecode() -> None:
    """Write the `__pycache__` of our packages (quietly; up-to-date files are skipped)."""
    for package in PACKAGES:
        if not compileall.compile_dir(ROOT / package, quiet=1):
            sys.exit(f"compiling {package} to bytecode failed")


# The dataclass cache the tools share across a benchmark's runs.
SHARED_CACHE = tempfile.mkdtemp(prefix="xla-emit-bench-cache-")


def timed_run(command: list[str], cache: str) -> ProcessTime:
    """One fresh run of `command` (which must succeed) with the tools' cache in `cache`."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XLA_EMIT_CACHE_DIR": cache}
    cpu_before = _children_cpu()
    started = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, cwd=ROOT, env=env)
    return ProcessTime(time.perf_counter() - started, _children_cpu() - cpu_before)


def best_of(command: list[str], repeats: int) -> ProcessTime:
    """The fastest of `repeats` fresh runs of `command` (which must succeed)."""
    compile_bytecode()
    runs = [timed_run(command, SHARED_CACHE) for _ in range(repeats)]
    return min(runs, key=lambda run: run.wall)


def best_of_each(commands: list[list[str]], repeats: int) -> list[ProcessTime]:
    """`best_of` for each command, their runs taken in turn so that load hits all alike."""
    compile_bytecode()
    runs = [[timed_run(command, SHARED_CACHE) for command in commands] for _ in range(repeats)]
    return [min(times, key=lambda run: run.wall) for times in zip(*runs, strict=True)]


def first_run(command: list[str], repeats: int) -> ProcessTime:
    """The fastest of `repeats` runs of `command`, each with an empty dataclass cache
    (as the first run after installing)."""
    compile_bytecode()
    runs: list[ProcessTime] = []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory(prefix="xla-emit-empty-cache-") as cache:
            runs.append(timed_run(command, cache))
    return min(runs, key=lambda run: run.wall)
