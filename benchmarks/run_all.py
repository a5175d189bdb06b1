"""`make bench`: every benchmark in this folder, printed as docs/performance.md's sections.

    .venv/bin/python benchmarks/run_all.py [--quick]

Runs, each in its own process and one after the other (so that they do not
compete for the cores):

  startup.py          `--help` and a trivial file, against plain `xdsl-opt`;
  whole_process.py    GELU from HLO text to `-o out.npz`, against a numpy per-op script;
  interpreter_gelu.py the interpreter in process (compilation not timed);
  pipeline_scaling.py `xla-gpu-pipeline` on growing kernels;
  zoo_models.py       the zoo's models from HLO text to npz;
  native_engine.py    the native engine against jax on XLA:CPU, in process and whole process;
  triton_route.py     the Triton route: a layernorm backward whole process and a softmax in
                      process against the numpy evaluator, every Triton fusion of the
                      corpus against the loop kernel it ran as before.

and prints their tables in Markdown under docs/performance.md's headings. The full run
takes a few minutes; `--quick` runs fewer repeats and a smaller GELU for the
whole-process table (the in-process sizes are fixed). Ratios compare numbers
measured in the same run: on a shared machine absolute times drift between runs.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run_benchmark(script: str, arguments: list[str]) -> str:
    command = [sys.executable, str(HERE / script), *arguments]
    result = subprocess.run(command, capture_output=True, text=True, check=False, cwd=HERE.parent)
    if result.returncode != 0:
        sys.exit(f"{script} failed:\n{result.stderr}")
    return result.stdout.rstrip("\n")


def sections(quick: bool) -> list[tuple[str, str, list[str], bool]]:
    """(heading, script, arguments, whether its output is a Markdown table already)."""
    repeats = ["--repeats", "1" if quick else "3"]
    # Whole processes are short and the machine is noisy: more runs, best of each.
    process_repeats = ["--repeats", "5" if quick else "10"]
    return [
        (
            "Start-up (fresh process, best of N)",
            "startup.py",
            process_repeats,
            True,
        ),
        (
            "Whole process (fresh process, HLO text to npz, best of N)",
            "whole_process.py",
            [*process_repeats, *(["--quick"] if quick else [])],
            True,
        ),
        (
            "Interpreter, in process (compilation not timed)",
            "interpreter_gelu.py",
            [*repeats, *(["--only", "gelu"] if quick else [])],
            False,
        ),
        ("Pipeline, in process (emission not timed)", "pipeline_scaling.py", repeats, True),
        (
            "Zoo models (fresh process, HLO text to npz, best of N; jax when /tmp/jaxenv exists)",
            "zoo_models.py",
            [*repeats, *(["--only", "transformer_block", "mlp_step_f32"] if quick else [])],
            True,
        ),
        (
            "Native engine (in process against jax on XLA:CPU; zoo models whole process)",
            "native_engine.py",
            [*repeats, *(["--models", "transformer_block", "mlp_step_f32"] if quick else [])],
            True,
        ),
        (
            "Triton route (whole process, in process, per fusion against the loop fallback)",
            "triton_route.py",
            [*repeats, *(["--quick"] if quick else [])],
            True,
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats, smaller sizes")
    args = parser.parse_args()
    print("## Performance\n")
    for heading, script, arguments, is_table in sections(args.quick):
        output = run_benchmark(script, arguments)
        command = " ".join(["benchmarks/" + script, *arguments])
        print(f"{heading}, `{command}`:\n")
        print(output if is_table else f"```\n{output}\n```")
        print()


if __name__ == "__main__":
    main()
