"""`xla-emit-run`: runs an HLO module and writes its outputs as npz.

    xla-emit-run FILE.hlo --reference [--inputs IN.npz | --random-inputs SEED] [-o OUT.npz]

`--reference` runs the module in the numpy HLO evaluator. Inputs are `arg0,
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
from xla_emit.hlo.npz import random_inputs, read_inputs, write_outputs
from xla_emit.hlo.parser import parse_hlo_module

_DESCRIPTION = "Run an HLO module and write its outputs as npz."


@dataclass(frozen=True)
class RunOptions:
    file: str
    inputs: str | None
    random_inputs: int | None
    output: str | None
    reference: bool


def build_argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="xla-emit-run", description=_DESCRIPTION)
    _ = parser.add_argument("file", help="the .hlo module to run")
    inputs = parser.add_mutually_exclusive_group()
    _ = inputs.add_argument("--inputs", metavar="IN.npz", help="inputs arg0, arg1, ...")
    _ = inputs.add_argument(
        "--random-inputs",
        metavar="SEED",
        type=int,
        help="deterministic random inputs (default seed 0)",
    )
    _ = parser.add_argument(
        "-o", "--output", metavar="OUT.npz", help="where to write out0, out1, ..."
    )
    _ = parser.add_argument(
        "--reference", action="store_true", help="run the numpy HLO evaluator (the oracle)"
    )
    return parser


def parse_options(argv: Sequence[str] | None) -> RunOptions:
    namespace = build_argument_parser().parse_args(argv)
    return RunOptions(
        file=cast(str, namespace.file),
        inputs=cast(str | None, namespace.inputs),
        random_inputs=cast(int | None, namespace.random_inputs),
        output=cast(str | None, namespace.output),
        reference=cast(bool, namespace.reference),
    )


def load_module(path: str) -> HloModule:
    try:
        with open(path, encoding="utf-8") as stream:
            text = stream.read()
    except OSError as error:
        raise UserError(f"cannot read '{path}': {error.strerror}") from None
    return parse_hlo_module(text, path)


def module_inputs(module: HloModule, options: RunOptions) -> list[np.ndarray]:
    if options.inputs is not None:
        return read_inputs(options.inputs, module.entry)
    seed = options.random_inputs if options.random_inputs is not None else 0
    return random_inputs(module.entry, seed)


def run_reference(options: RunOptions) -> list[np.ndarray]:
    """Evaluates the module with the numpy reference evaluator."""
    module = load_module(options.file)
    return evaluate_module(module, module_inputs(module, options))


_MODES: dict[str, Callable[[RunOptions], list[np.ndarray]]] = {
    "reference": run_reference,
}


def select_mode(options: RunOptions) -> Callable[[RunOptions], list[np.ndarray]]:
    if options.reference:
        return _MODES["reference"]
    raise UserError("choose how to run the module: --reference")


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
