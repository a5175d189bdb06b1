"""Timing whole processes: best-of-N wall time and the CPU time of that run (all threads).

The project's own bytecode is compiled first, as `pip install` does for an
installed package: with `PYTHONDONTWRITEBYTECODE` set (as on the project's
machines) every run would otherwise recompile each of our modules from source,
while xDSL and numpy, installed, start from their bytecode.
"""

from __future__ import annotations

import compileall
import os
import resource
import subprocess
import sys
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


def best_of(command: list[str], repeats: int) -> ProcessTime:
    """The fastest of `repeats` fresh runs of `command` (which must succeed)."""
    compile_bytecode()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    best: ProcessTime | None = None
    for _ in range(repeats):
        cpu_before = _children_cpu()
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, cwd=ROOT, env=env)
        run = ProcessTime(time.perf_counter() - started, _children_cpu() - cpu_before)
        if best is None or run.wall < best.wall:
            best = run
    assert best is not None
    return best
