"""`xla-emit-run`: runs an HLO module and writes its outputs as npz.

    xla-emit-run FILE.hlo --reference [--inputs IN.npz | --random-inputs SEED] [-o OUT.npz]

`--reference` runs the module in the numpy HLO evaluator. Inputs are `arg0,
arg1, ...` in parameter order, outputs `out0, out1, ...`; bf16 travels as
uint16 bit patterns. Each way of running a module is one function taking the
parsed arguments (see `_MODES`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

import numpy as np

from xla_emit.diagnostics import UserError
from xla_emit.hlo.evaluator import evaluate_module
from xla_emit.hlo.ir import HloModule
from xla_emit.hlo.npz import random_inputs, read_inputs, write_outputs
from xla_emit.hlo.parser import parse_hlo_module


def build_argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="xla-emit-run", description=__doc__.splitlines()[0])
    parser.add_argument("file", help="the .hlo module to run")
    inputs = parser.add_mutually_exclusive_group()
    inputs.add_argument("--inputs", metavar="IN.npz", help="inputs arg0, arg1, ...")
    inputs.add_argument(
        "--random-inputs", metavar="SEED", type=int, help="deterministic random inputs"
    )
    parser.add_argument("-o", "--output", metavar="OUT.npz", help="where to write out0, out1, ...")
    parser.add_argument(
        "--reference", action="store_true", help="run the numpy HLO evaluator (the oracle)"
    )
    return parser


def load_module(path: str) -> HloModule:
    try:
        with open(path, encoding="utf-8") as stream:
            text = stream.read()
    except OSError as error:
        raise UserError(f"cannot read '{path}': {error.strerror}") from None
    return parse_hlo_module(text, path)


def module_inputs(module: HloModule, args: argparse.Namespace) -> list[np.ndarray]:
    if args.inputs is not None:
        return read_inputs(args.inputs, module.entry)
    return random_inputs(module.entry, args.random_inputs if args.random_inputs is not None else 0)


def run_reference(args: argparse.Namespace) -> list[np.ndarray]:
    """Evaluates the module with the numpy reference evaluator."""
    module = load_module(args.file)
    return evaluate_module(module, module_inputs(module, args))


_MODES: dict[str, Callable[[argparse.Namespace], list[np.ndarray]]] = {
    "reference": run_reference,
}


def select_mode(args: argparse.Namespace) -> Callable[[argparse.Namespace], list[np.ndarray]]:
    if args.reference:
        return _MODES["reference"]
    raise UserError("choose how to run the module: --reference")


def main(argv: Sequence[str] | None = None) -> int:
    args = build_argument_parser().parse_args(argv)
    try:
        outputs = select_mode(args)(args)
        if args.output is not None:
            write_outputs(args.output, outputs)
        else:
            for number, output in enumerate(outputs):
                print(f"out{number}: {output.dtype}{list(output.shape)}")
    except UserError as error:
        print(error.format(), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
