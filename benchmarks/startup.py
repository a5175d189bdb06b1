"""Start-up: `--help` and a trivial file, against plain `xdsl-opt` on the same input.

    .venv/bin/python benchmarks/startup.py [--repeats 10]

Each command runs in a fresh process, best of `--repeats` wall times (and the
CPU time of that run: on a loaded machine the fairer ratio). Goals:
`xla-emit-opt --help` under 0.25 s, and `xla-emit-opt trivial.mlir` within
1.3x of `xdsl-opt trivial.mlir`.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from subprocess_timing import best_of, tool

TRIVIAL = "func.func @f(%a: i32) -> i32 {\n  func.return %a : i32\n}\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        trivial = Path(folder) / "trivial.mlir"
        trivial.write_text(TRIVIAL)
        rows = [("`--help`", ["--help"]), ("trivial.mlir", [str(trivial)])]
        print(
            "| command | xla-emit-opt wall (s) | xdsl-opt wall (s) | wall ratio | CPU ratio "
            "| xla-emit-run wall (s) |"
        )
        print("|---|---:|---:|---:|---:|---:|")
        for label, arguments in rows:
            opt = best_of([*tool("xla-emit-opt"), *arguments], args.repeats)
            xdsl = best_of([*tool("xdsl-opt"), *arguments], args.repeats)
            run = ""
            if arguments == ["--help"]:
                run = f"{best_of([*tool('xla-emit-run'), '--help'], args.repeats).wall:.3f}"
            print(
                f"| {label} | {opt.wall:.3f} | {xdsl.wall:.3f} | {opt.wall / xdsl.wall:.2f} "
                f"| {opt.cpu / xdsl.cpu:.2f} | {run} |"
            )


if __name__ == "__main__":
    main()
