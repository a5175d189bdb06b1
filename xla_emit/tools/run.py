"""`xla-emit-run`: runs an HLO module or an MLIR kernel and writes its outputs as npz.

    xla-emit-run FILE.hlo [--reference] [--inputs IN.npz | --random-inputs SEED] [-o OUT.npz]
    xla-emit-run FILE.mlir [--entry NAME] [-p PASSES] [--inputs IN.npz | --random-inputs SEED]
    either form: [--check] [--time] [--backend gpu|tpu|pto]

`--reference` runs the module in the numpy HLO evaluator. Otherwise each
fusion of a `.hlo` module is compiled through `-p` (default
`xla-gpu-pipeline`) and interpreted, and an `.mlir` kernel is interpreted
(after `-p`, if given) on its backend's executor: GPU kernels on the SIMT
executor, TPU kernels on the TPU one, PTO programs (`.mlir` or PTO-AS `.pto`)
on the tile executor. `--backend` names the backend; without it the module's
attributes and parameter types say which (see `xla_emit.runtime.backends`).
`--check` turns on every safety check and compares the
outputs after every pass with the reference (`.mlir`: with the kernel as
given), and `--time` prints per-pass and per-kernel times (see
`xla_emit.runtime.commands`). Inputs are `arg0,
arg1, ...` in parameter order, outputs `out0, out1, ...`; bf16 travels as
uint16 bit patterns. Without `-o` the outputs' types and shapes are printed.
Each way of running a module is one function from `RunOptions` to the
outputs (see `_MODES`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np

from xla_emit.diagnostics import UserError
from xla_emit.hlo.evaluator import evaluate_module
from xla_emit.hlo.ir import HloModule
from xla_emit.hlo.limits import check_module_memory
from xla_emit.hlo.npz import random_inputs, read_inputs, write_outputs
from xla_emit.runtime.backends import BACKENDS
from xla_emit.runtime.commands import InterpreterOptions, run_hlo_module, run_kernel_file
from xla_emit.runtime.limits import add_limit_arguments, limits_of
from xla_emit.runtime.sources import load_hlo_module

_DESCRIPTION = "Run an HLO module or an MLIR kernel and write its outputs as npz."


@dataclass(frozen=True)
class RunOptions:
    file: str
    inputs: str | None
    random_inputs: int | None
    output: str | None
    reference: bool
    interpreter: InterpreterOptions


def seed(text: str) -> int:
    """A random seed: numpy takes non-negative integers only."""
    value = int(text)
    if value < 0:
        raise ValueError(text)
    return value


def build_argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="xla-emit-run", description=_DESCRIPTION)
    _ = parser.add_argument("file", help="the .hlo module or .mlir kernel to run")
    inputs = parser.add_mutually_exclusive_group()
    _ = inputs.add_argument("--inputs", metavar="IN.npz", help="inputs arg0, arg1, ...")
    _ = inputs.add_argument(
        "--random-inputs",
        metavar="SEED",
        type=seed,
        help="deterministic random inputs (default seed 0)",
    )
    _ = parser.add_argument(
        "-o", "--output", metavar="OUT.npz", help="where to write out0, out1, ..."
    )
    _ = parser.add_argument(
        "--reference", action="store_true", help="run the numpy HLO evaluator (the oracle)"
    )
    _ = parser.add_argument("--entry", metavar="NAME", help="the kernel function to run (.mlir)")
    _ = parser.add_argument(
        "-p",
        "--passes",
        metavar="PASSES",
        help="pass pipeline for every kernel (.hlo: xla-gpu-pipeline)",
    )
    _ = parser.add_argument(
        "--check", action="store_true", help="every safety check; compare outputs after every pass"
    )
    _ = parser.add_argument(
        "--time", action="store_true", help="print per-pass and per-kernel times"
    )
    _ = parser.add_argument(
        "--backend",
        choices=sorted(BACKENDS),
        help="the backend whose executor runs a kernel (default: the module's attributes say)",
    )
    add_limit_arguments(parser)
    return parser


def parse_options(argv: Sequence[str] | None) -> RunOptions:
    namespace = build_argument_parser().parse_args(argv)
    return RunOptions(
        file=cast(str, namespace.file),
        inputs=cast(str | None, namespace.inputs),
        random_inputs=cast(int | None, namespace.random_inputs),
        output=cast(str | None, namespace.output),
        reference=cast(bool, namespace.reference),
        interpreter=InterpreterOptions(
            passes=cast(str | None, namespace.passes),
            check=cast(bool, namespace.check),
            time=cast(bool, namespace.time),
            entry=cast(str | None, namespace.entry),
            backend=cast(str | None, namespace.backend),
            limits=limits_of(namespace),
            progress=cast(bool, namespace.progress),
        ),
    )


def load_module(path: str) -> HloModule:
    return load_hlo_module(path)


def module_inputs(module: HloModule, options: RunOptions) -> list[np.ndarray]:
    check_module_memory(module, options.interpreter.limits.max_memory)
    if options.inputs is not None:
        return read_inputs(options.inputs, module.entry)
    seed = options.random_inputs if options.random_inputs is not None else 0
    return random_inputs(module.entry, seed)


def run_reference(options: RunOptions) -> list[np.ndarray]:
    """Evaluates the module with the numpy reference evaluator."""
    module = load_module(options.file)
    return evaluate_module(module, module_inputs(module, options))


def run_interpreted(options: RunOptions) -> list[np.ndarray]:
    """Compiles every fusion through the pipeline and runs the module in the interpreter."""
    module = load_module(options.file)
    return run_hlo_module(module, module_inputs(module, options), options.interpreter)


def run_kernel(options: RunOptions) -> list[np.ndarray]:
    """Runs a kernel (MLIR, or PTO-AS) in its backend's executor."""
    return run_kernel_file(options.file, options.inputs, options.random_inputs, options.interpreter)


_MODES: dict[str, Callable[[RunOptions], list[np.ndarray]]] = {
    "reference": run_reference,
    "interpret": run_interpreted,
    "kernel": run_kernel,
}


def select_mode(options: RunOptions) -> Callable[[RunOptions], list[np.ndarray]]:
    if options.file.endswith((".mlir", ".pto")):
        if options.reference:
            raise UserError("--reference evaluates .hlo modules; an .mlir kernel has no reference")
        return _MODES["kernel"]
    if options.reference:
        return _MODES["reference"]
    return _MODES["interpret"]


def report_outputs(outputs: Sequence[np.ndarray]) -> None:
    for number, output in enumerate(outputs):
        print(f"out{number}: {output.dtype}{list(output.shape)}")


def main(argv: Sequence[str] | None = None) -> int:
    options = parse_options(argv)
    try:
        outputs = select_mode(options)(options)
        if options.output is not None:
            write_outputs(options.output, outputs)
        else:
            report_outputs(outputs)
    except UserError as error:
        print(error.format(), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
