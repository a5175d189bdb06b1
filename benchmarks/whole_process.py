"""GELU from HLO text to `-o out.npz` in a fresh process, against a numpy per-op script.

    .venv/bin/python benchmarks/whole_process.py [--repeats 3] [--quick]

Both run as whole processes on the same `in.npz`, best of `--repeats`, in
one run and in turns (so machine load hits both alike):

  xla-emit-run gelu.hlo --inputs in.npz -o out.npz   (parse, emit, xla-gpu-pipeline,
                                                       interpret, write)
  python benchmarks/numpy_gelu_script.py in.npz out.npz

and the two outputs must be equal bit for bit. GELU is bf16[6,512,4096]
(`--quick`: bf16[1,512,4096]). CPU time (all threads) is reported next to
wall time: on a loaded machine it is the fairer comparison. Goal: wall
ratio <= 1.2.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import ml_dtypes
import numpy as np
from subprocess_timing import ROOT, best_of_each, first_run, tool

FULL = "6,512,4096"
QUICK = "1,512,4096"


def write_inputs(folder: Path, shape: tuple[int, ...]) -> Path:
    values = np.random.default_rng(0).standard_normal(shape, dtype=np.float32)
    path = folder / "in.npz"
    np.savez(path, arg0=values.astype(ml_dtypes.bfloat16).view(np.uint16))
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help=f"bf16[{QUICK}] instead of [{FULL}]")
    args = parser.parse_args()
    dims = QUICK if args.quick else FULL
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        hlo = folder / "gelu.hlo"
        hlo.write_text((ROOT / "examples" / "gelu.hlo").read_text().replace(FULL, dims))
        inputs = write_inputs(folder, tuple(int(d) for d in dims.split(",")))
        ours_out, numpy_out = folder / "ours.npz", folder / "numpy.npz"
        ours_command = [
            *tool("xla-emit-run"),
            str(hlo),
            "--inputs",
            str(inputs),
            "-o",
            str(ours_out),
        ]
        numpy_script = str(ROOT / "benchmarks" / "numpy_gelu_script.py")
        numpy_command = [sys.executable, numpy_script, str(inputs), str(numpy_out)]
        ours, baseline = best_of_each([ours_command, numpy_command], args.repeats)
        ours_first = first_run(ours_command, min(args.repeats, 3))
        if not np.array_equal(np.load(ours_out)["out0"], np.load(numpy_out)["out0"]):
            sys.exit("the outputs differ: the benchmark compares different computations")
    print(f"| GELU bf16[{dims}], whole process | wall (s) | CPU (s) |")
    print("|---|---:|---:|")
    rows = [
        ("`xla-emit-run gelu.hlo --inputs in.npz -o out.npz`", ours),
        ("`python numpy_gelu_script.py in.npz out.npz`", baseline),
    ]
    for label, measured in rows:
        print(f"| {label} | {measured.wall:.2f} | {measured.cpu:.2f} |")
    print(f"| ratio | {ours.wall / baseline.wall:.2f} | {ours.cpu / baseline.cpu:.2f} |")
    ratio = ours_first.wall / baseline.wall
    label = f"`xla-emit-run`, first run after installing (empty cache; {ratio:.2f}x wall)"
    print(f"| {label} | {ours_first.wall:.2f} | {ours_first.cpu:.2f} |")


if __name__ == "__main__":
    main()
