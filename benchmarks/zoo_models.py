"""Whole-process times of zoo models: our compiled path, the numpy evaluator, jax on XLA:CPU.

    .venv/bin/python benchmarks/zoo_models.py [--jax-python /tmp/jaxenv/bin/python]
                                              [--only transformer_block mlp_step_f32 ...]

Each column is one fresh process, start to exit (imports, parsing, compiling
and running included), best of `--repeats`:

  ours       `xla-emit-run` (emitters, xla-gpu-pipeline, the interpreter, library calls),
  reference  `xla-emit-run --reference` (the numpy HLO evaluator),
  jax        the same JAX function jitted and run on XLA:CPU (only with --jax-python,
             default /tmp/jaxenv/bin/python when it exists; skipped otherwise).

A model our path cannot run yet shows the first line of its error instead.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ZOO = ROOT / "tests" / "corpus" / "zoo"
DEFAULT_MODELS = ("transformer_block", "mlp_step_f32", "mlp_step_bf16", "scan_rnn")
DEFAULT_JAX = Path("/tmp/jaxenv/bin/python")

# Runs one zoo program on XLA:CPU with the zoo's stored inputs.
_JAX_SNIPPET = """
import sys
sys.path.insert(0, {tools!r})
import jax, numpy as np, ml_dtypes
jax.config.update("jax_platforms", "cpu")
from zoo_programs import PROGRAMS
program = next(p for p in PROGRAMS if p.name == {name!r})
with np.load({inputs!r}) as stored:
    args = [stored[f"arg{{i}}"] for i in range(len(stored.files))]
args = [a.view(ml_dtypes.bfloat16) if s.dtype == "bfloat16" else a
        for a, s in zip(args, program.args)]
jax.block_until_ready(jax.jit(program.function)(*args))
"""


def _timed(command: list[str]) -> tuple[float, str | None]:
    started = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        lines = (result.stderr or result.stdout).strip().splitlines()
        return elapsed, lines[0] if lines else f"exit status {result.returncode}"
    return elapsed, None


def _best(command: list[str], repeats: int) -> float | str:
    """The best of `repeats` wall times, or the first line of the error."""
    times: list[float] = []
    for _ in range(repeats):
        elapsed, error = _timed(command)
        if error is not None:
            return f"fails: {error}"
        times.append(elapsed)
    return min(times)


def _cell(value: float | str | None) -> str:
    if value is None:
        return "skipped"
    return f"{value:.2f} s" if isinstance(value, float) else value


def _ratio(ours: float | str, other: float | str | None) -> str:
    if isinstance(ours, float) and isinstance(other, float):
        return f"{ours / other:.2f}x"
    return "-"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=list(DEFAULT_MODELS))
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--jax-python", default=str(DEFAULT_JAX) if DEFAULT_JAX.exists() else None)
    args = parser.parse_args()
    run = [sys.executable, "-m", "xla_emit.tools.run"]
    print("| model | ours | numpy evaluator | jax, XLA:CPU | ours / evaluator | ours / jax |")
    print("|---|---|---|---|---|---|")
    for name in args.only:
        hlo, inputs = ZOO / f"{name}.hlo", ZOO / f"{name}.inputs.npz"
        common = [str(hlo), "--inputs", str(inputs), "-o", "/dev/null"]
        ours = _best([*run, *common], args.repeats)
        reference = _best([*run, "--reference", *common], args.repeats)
        jax: float | str | None = None
        if args.jax_python:
            snippet = _JAX_SNIPPET.format(tools=str(ROOT / "tools"), name=name, inputs=str(inputs))
            jax = _best([args.jax_python, "-c", snippet], args.repeats)
        print(
            f"| {name} | {_cell(ours)} | {_cell(reference)} | {_cell(jax)} "
            f"| {_ratio(ours, reference)} | {_ratio(ours, jax)} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
