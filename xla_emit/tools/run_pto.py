"""Run a PTO program (level 1 or 2, MLIR or PTO-AS) on npz or random inputs.

    python -m xla_emit.tools.run_pto FILE [--entry NAME] (--inputs IN.npz | --random-inputs SEED)
        [-o OUT.npz] [--target-arch a2a3|a5]

Without `-o`, one line per output: type, shape, and the values (small arrays)
or their sum and extremes. `xla-emit-run` runs the same programs with the
tools' common output format.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import numpy as np

from xla_emit.diagnostics import UserError
from xla_emit.hlo.npz import load_arrays
from xla_emit.runtime.pto_kernels import run_pto_file


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m xla_emit.tools.run_pto",
        description="Run a PTO program (level 1 or 2, MLIR or PTO-AS) on npz or random inputs.",
    )
    parser.add_argument("file", help=".mlir or .pto module with pto ops")
    parser.add_argument("--entry", default=None, help="function to run (default: the first)")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--inputs", default=None, help="npz with arg0, arg1, ...")
    source.add_argument("--random-inputs", type=int, metavar="SEED", help="random inputs from SEED")
    parser.add_argument("-o", "--output", default=None, help="npz to write (default: print)")
    parser.add_argument("--target-arch", default=None, help="a2a3 or a5 (default: the module's)")
    options = parser.parse_args(argv)
    try:
        inputs = load_arrays(options.inputs) if options.inputs is not None else None
        outputs = run_pto_file(
            options.file, options.entry, inputs, options.target_arch, options.random_inputs or 0
        )
    except (UserError, ValueError, OSError) as error:
        message = error.format() if isinstance(error, UserError) else f"error: {error}"
        print(message, file=sys.stderr)
        return 1
    if options.output:
        # numpy's stub matches keyword arrays against `allow_pickle`.
        np.savez(options.output, **outputs)  # pyright: ignore[reportArgumentType]
    else:
        for key, value in outputs.items():
            print(summary(key, value))
    return 0


def summary(name: str, value: np.ndarray) -> str:
    """One line per output: type, shape, sum and extremes; small arrays in full."""
    head = f"{name}: {value.dtype}[{'x'.join(map(str, value.shape))}]"
    if value.size == 0:
        return head
    if value.size <= 16:
        return f"{head} = {np.array2string(value.ravel(), precision=4, separator=', ')}"
    wide = value.astype(np.float64)
    return f"{head} sum={wide.sum():.6g} min={wide.min():.6g} max={wide.max():.6g}"


if __name__ == "__main__":
    sys.exit(main())
