"""`xla-emit-opt`: parse, transform and print MLIR (or HLO) the way mlir-opt does.

    xla-emit-opt [FILE|-] [-p PASSES] [-o OUT|-] [--split-input-file] [--input-format=mlir|hlo|pto]
                 [--verify-diagnostics] [--print-ir-after-all] [--emit=xla|xla_gpu] [--timing]
    xla-emit-opt BUNDLE [--fusion NAME] [-p PASSES] ...
    xla-emit-opt --list-passes | --help-pass NAME | --version

HLO text (`HloModule ...`, whatever the file is called: XLA's dumps are
`.txt` files) is emitted as MLIR by the fusion emitters before the passes
run (a module without fusions, as jax lowers it before XLA's passes, as
the kernels `xla-emit-run` launches for it: one per op); a bundle folder
(`xla-emit-jax`) is its `gpu.hlo`, and `--fusion NAME` emits one fusion;
PTO-AS assembly becomes MLIR; anything else is MLIR (see
`runtime.sources.input_format`). Passes build the internal `xla.*` form; the
output is spelled when printed (the policy is in `dialects.xla`): as `--emit`
says, else as the last `xla-respell` left it, else in the input's spelling
(the seed's `xla_gpu.*` for HLO). Errors in the input print
`FILE:LINE:COL: error: ...` with the source line and a caret (a pass's
errors start with `[PASS]`), and exit 1. With `--split-input-file` every
chunk runs and reports, and the exit status is 1 if any failed.

Only the command line is handled here; the compiler is imported once the
arguments are known (`tools/opt_driver.py`), so `--help` answers at once.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO, cast

from xla_emit.diagnostics import UserError
from xla_emit.runtime.sources import read_input, write_text
from xla_emit.startup import define_classes_quickly
from xla_emit.tools.cli import add_input_format, add_timing, add_version

if TYPE_CHECKING:
    from xla_emit.tools.opt_driver import Driver, DriverOptions


def build_argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="xla-emit-opt", description="Parse, transform and print MLIR or HLO."
    )
    add = parser.add_argument
    add(
        "input",
        nargs="?",
        default="-",
        help="input file (MLIR, HLO or PTO-AS), - for stdin, or a bundle folder",
    )
    add("-p", "--passes", default="", help="comma-separated pass pipeline")
    add("-o", "--output", default="-", help="output file, or - for stdout (the default)")
    add("--split-input-file", action="store_true", help="run each '// -----' chunk on its own")
    add(
        "--verify-diagnostics",
        action="store_true",
        help="check errors against '// expected-error {{...}}' annotations",
    )
    add("--print-ir-after-all", action="store_true", help="print the IR after every pass (stderr)")
    add("--print-op-generic", action="store_true", help="print the generic form")
    add("--allow-unregistered-dialect", action="store_true")
    add(
        "--emit",
        choices=("xla_gpu", "xla"),
        default=None,
        help="spelling of the target-neutral ops: the seed's xla_gpu.* or today's xla.* "
        "(default: the input's spelling, xla_gpu.* for HLO; an xla-respell pass changes it)",
    )
    add(
        "--print-partitions",
        action="store_true",
        help="for HLO input: print how each fusion is split into subgraph functions",
    )
    add("--fusion", metavar="NAME", help="for HLO input or a bundle: emit this fusion only")
    add("--list-passes", action="store_true", help="list every pass, its options, the pipelines")
    add("--help-pass", metavar="NAME", help="describe one pass (or pipeline) and its options")
    add_input_format(parser)
    add_timing(parser)
    add_version(parser)
    return parser


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    return build_argument_parser().parse_args(argv)


def driver_options(args: argparse.Namespace) -> DriverOptions:
    from xla_emit.tools.opt_driver import DriverOptions

    return DriverOptions(
        passes=cast(str, args.passes),
        print_ir_after_all=cast(bool, args.print_ir_after_all),
        print_op_generic=cast(bool, args.print_op_generic),
        allow_unregistered_dialect=cast(bool, args.allow_unregistered_dialect),
        emit=cast(str | None, args.emit),
        print_partitions=cast(bool, args.print_partitions),
        input_format=cast(str | None, args.input_format),
        fusion=cast(str | None, args.fusion),
    )


def describe_passes(args: argparse.Namespace, stdout: TextIO) -> int:
    """`--list-passes` and `--help-pass NAME`."""
    from passes.catalog import list_passes, pass_help

    if args.list_passes:
        stdout.write(list_passes())
        return 0
    text = pass_help(args.help_pass)
    if text is None:
        raise UserError(f"no pass or pipeline named '{args.help_pass}' (see --list-passes)")
    stdout.write(text)
    return 0


def run(args: argparse.Namespace, stdout: TextIO) -> int:
    if args.list_passes or args.help_pass is not None:
        return describe_passes(args, stdout)
    from xla_emit.runtime.timing import Timer
    from xla_emit.tools.opt_driver import Driver

    timer = Timer()
    text, file = read_input(bundle_module(args.input))
    chunks = split_input(text) if args.split_input_file else [text]
    driver = Driver(driver_options(args), timer)
    if args.verify_diagnostics:
        status = verify_diagnostics(driver, text, chunks, file)
    else:
        status = run_chunks(driver, chunks, file, args.output, stdout)
    if args.timing:
        sys.stderr.write(timer.report())
    return status


def bundle_module(path: str) -> str:
    """The optimized module of a bundle folder, else `path` itself."""
    from xla_emit.jax.bundle import GPU_HLO, is_bundle

    return os.path.join(path, GPU_HLO) if path != "-" and is_bundle(path) else path


def split_input(text: str) -> list[str]:
    """The `// -----` chunks, each padded to keep file line numbers; a trailing marker is fine."""
    from xla_emit.ir import split_chunks

    chunks = split_chunks(text)
    if len(chunks) > 1 and not chunks[-1].strip():
        chunks.pop()
    return chunks


def run_chunks(driver: Driver, chunks: list[str], file: str, output: str, stdout: TextIO) -> int:
    """Run every chunk; each error is reported and the others still run. 1 if any failed."""
    from xla_emit.ir import SPLIT_MARKER

    outputs: list[str] = []
    failed = False
    for chunk in chunks:
        try:
            outputs.append(driver.run_chunk(chunk, file))
        except UserError as error:
            print(error.format(), file=sys.stderr)
            failed = True
    result = (SPLIT_MARKER + "\n").join(outputs)
    if output == "-":
        stdout.write(result)
    else:
        write_text(output, result)
    return 1 if failed else 0


def verify_diagnostics(driver: Driver, text: str, chunks: list[str], file: str) -> int:
    from xla_emit.tools.expected_diagnostics import check_expected_diagnostics

    errors = [driver.error_of(chunk, file) for chunk in chunks]
    problems = check_expected_diagnostics(text, file, [e for e in errors if e is not None])
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(argv)
    define_classes_quickly()
    try:
        return run(args, sys.stdout)
    except UserError as error:
        print(error.format(), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
