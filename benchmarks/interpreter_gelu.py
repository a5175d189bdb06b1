"""Interpreter speed on the seed's GELU, a transpose and a row reduction, at their real sizes.

    .venv/bin/python benchmarks/interpreter_gelu.py [--repeats 3] [--only gelu|transpose|reduction]

GELU is bf16[6,512,4096] (12.6M elements, 128 threads x 24576 blocks). Side
by side, each measured in a fresh process (best of `--repeats`, peak memory
of that process):

  (a) the interpreter on the final IR (`examples/gelu.hlo` emitted and run
      through `xla-gpu-pipeline`),
  (b) the interpreter on the IR right after emission,
  (c) the numpy HLO reference evaluator,
  (d) numpy GELU with ml_dtypes, rounding to bf16 after every op (tanh in
      f64 rounded through f32, as the reference evaluator does).

The transpose (exp, transpose, abs of f32[20,160,170]) and the row reduction
(f32[1024,4096] summed over rows) run (a)-(c). Interpreter runs use no
safety checks except bounds checks (`CheckOptions.fast()`) and run chunks on
every available core; compilation is not timed. Wall and CPU times (all
threads) are both reported: on a loaded machine the CPU time is the fairer
comparison. Goals for GELU: (a) under 2 s and within 3x of (d), (b) under
10 s, every peak under 4 GB.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import ml_dtypes
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
BF16 = ml_dtypes.bfloat16

PROGRAMS = {
    "gelu": ROOT / "examples" / "gelu.hlo",
    "transpose": ROOT / "examples" / "transpose.hlo",
    "reduction": ROOT / "examples" / "reduction_row.hlo",
}
MODES = ("final", "emitted", "reference", "numpy")


def _inputs(program: str) -> list[np.ndarray]:
    from xla_emit.hlo.npz import random_inputs
    from xla_emit.hlo.parser import parse_hlo_module

    module = parse_hlo_module(PROGRAMS[program].read_text(), str(PROGRAMS[program]))
    return random_inputs(module.entry, 0)


def numpy_gelu(x: np.ndarray) -> np.ndarray:
    """(d): the HLO's ops in bf16, one ml_dtypes op each."""
    c = [BF16(v) for v in (0.5, 1.0, 0.79785, 0.044708)]
    cube = (x * x) * x
    inner = (x + cube * c[3]) * c[2]
    tanh = np.tanh(inner.astype(np.float64)).astype(np.float32).astype(BF16)
    return x * ((tanh + c[1]) * c[0])


def _prepare(program: str, mode: str) -> tuple[Callable[[], object], int]:
    """A function running `mode` on `program`'s inputs, and the lane count (0 if none)."""
    from xla_emit.hlo.evaluator import evaluate_module
    from xla_emit.hlo.parser import parse_hlo_module
    from xla_emit.interpreter import CheckOptions
    from xla_emit.runtime import KernelCache, ModuleRuntime

    text = PROGRAMS[program].read_text()
    module = parse_hlo_module(text, str(PROGRAMS[program]))
    inputs = _inputs(program)
    if mode == "reference":
        return (lambda: evaluate_module(module, inputs)), 0
    if mode == "numpy":
        return (lambda: numpy_gelu(inputs[0])), 0
    pipeline = "xla-gpu-pipeline" if mode == "final" else ""
    runtime = ModuleRuntime(module, KernelCache(pipeline, checks=CheckOptions.fast()))
    runtime.run(inputs)  # compiles the kernels (and warms the 16-bit function tables)
    return (lambda: runtime.run(inputs)), runtime.runs[0].lanes


def measure(program: str, mode: str, repeats: int) -> dict[str, float]:
    """Best wall and CPU (all threads) times of `repeats` runs, and this process's peak memory."""
    run, lanes = _prepare(program, mode)
    best = best_cpu = float("inf")
    for _ in range(repeats):
        started, started_cpu = time.perf_counter(), time.process_time()
        run()
        best = min(best, time.perf_counter() - started)
        best_cpu = min(best_cpu, time.process_time() - started_cpu)
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"seconds": best, "cpu_seconds": best_cpu, "lanes": lanes, "peak_mb": peak_kib / 1024}


def _in_subprocess(program: str, mode: str, repeats: int) -> dict[str, float]:
    command = [sys.executable, __file__, "--measure", program, mode, "--repeats", str(repeats)]
    result = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(result.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", choices=sorted(PROGRAMS))
    parser.add_argument("--measure", nargs=2, metavar=("PROGRAM", "MODE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure is not None:
        print(json.dumps(measure(args.measure[0], args.measure[1], args.repeats)))
        return
    print(
        f"{'program':<10} {'mode':<26} {'wall s':>7} {'cpu s':>7} {'M elem/s':>9} "
        f"{'M lanes/s':>9} {'peak MB':>8}"
    )
    for program in [args.only] if args.only else list(PROGRAMS):
        elements = int(sum(np.prod(x.shape) for x in _inputs(program)))
        results: dict[str, dict[str, float]] = {}
        for mode in MODES:
            if mode == "numpy" and program != "gelu":
                continue
            results[mode] = _in_subprocess(program, mode, args.repeats)
            r = results[mode]
            lanes = f"{r['lanes'] / r['seconds'] / 1e6:9.2f}" if r["lanes"] else f"{'':>9}"
            label = {
                "final": "(a) interpreter, final",
                "emitted": "(b) interpreter, emitted",
                "reference": "(c) reference evaluator",
                "numpy": "(d) numpy + ml_dtypes",
            }[mode]
            print(
                f"{program:<10} {label:<26} {r['seconds']:7.3f} {r['cpu_seconds']:7.3f} "
                f"{elements / r['seconds'] / 1e6:9.1f} {lanes} {r['peak_mb']:8.0f}"
            )
        if "numpy" in results:
            wall = results["final"]["seconds"] / results["numpy"]["seconds"]
            cpu = results["final"]["cpu_seconds"] / results["numpy"]["cpu_seconds"]
            print(f"{program:<10} (a) / (d): {wall:.2f} wall, {cpu:.2f} cpu")


if __name__ == "__main__":
    main()
