"""`xla-emit-opt`: parse, transform and print MLIR (or HLO) the way mlir-opt does.

    xla-emit-opt [FILE|-] [-p PASSES | --pass-pipeline=PIPELINE] [-o OUT|-] [--split-input-file]
                 [--input-format=mlir|hlo|pto] [--verify-diagnostics] [--emit=xla|xla_gpu|llvm|ptx]
                 [--fusion NAME] [--emit-library-kernels] [--mlir-print-debuginfo]
                 [--mlir-print-op-generic]
                 [--mlir-print-ir-{before,after}=PASS] [--print-ir-{before,after}-all]
                 [--mlir-print-ir-after-change] [--mlir-print-ir-after-failure] [--timing]
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
(the seed's `xla_gpu.*` for HLO). A gemm or sort fusion, which a run hands
to the library, is listed in the module's `xla_emit.library_calls` as the
launches the run makes (`--emit-library-kernels` emits its kernel). Errors in the input print
`FILE:LINE:COL: error: ...` with the source line and a caret (a pass's
errors start with `[PASS]`), and exit 1. With `--split-input-file` every
chunk runs and reports, and the exit status is 1 if any failed.

Only the command line is handled here; the compiler is imported once the
arguments are known (`tools/opt_driver.py`), so `--help` answers at once.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO, cast

from xla_emit.diagnostics import UserError
from xla_emit.runtime.sources import read_input, write_text
from xla_emit.startup import define_classes_quickly
from xla_emit.tools.cli import add_input_format, add_timing, add_version

if TYPE_CHECKING:
    from xla_emit.tools.opt_driver import Driver, DriverOptions, IRPrinting
    from xla_emit.tools.pass_pipeline import PipelineStep


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
    add(
        "-p",
        "--passes",
        default="",
        help="comma-separated passes, or an anchored pipeline as --pass-pipeline takes",
    )
    add(
        "--pass-pipeline",
        metavar="PIPELINE",
        help="MLIR's textual pipeline, e.g. 'builtin.module(cse,func.func(canonicalize))'",
    )
    add("-o", "--output", default="-", help="output file, or - for stdout (the default)")
    add("--split-input-file", action="store_true", help="run each '// -----' chunk on its own")
    add(
        "--verify-diagnostics",
        action="store_true",
        help="check errors against '// expected-error {{...}}' annotations",
    )
    add_ir_printing(parser)
    add(
        "--print-op-generic",
        "--mlir-print-op-generic",
        action="store_true",
        help="print the generic form",
    )
    add(
        "--mlir-print-debuginfo",
        dest="print_debuginfo",
        action="store_true",
        help="print every op's location, loc(#locN), with the aliases after the module",
    )
    add("--allow-unregistered-dialect", action="store_true")
    add(
        "--emit",
        choices=("xla_gpu", "xla", "llvm", "ptx"),
        default=None,
        help="spelling of the target-neutral ops: the seed's xla_gpu.* or today's xla.* "
        "(default: the input's spelling, xla_gpu.* for HLO; an xla-respell pass changes it); "
        "llvm or ptx: the LLVM IR or PTX (sm_90, needs llvmlite) of a module lowered "
        "to the llvm dialect (-p xla-gpu-to-llvm)",
    )
    add(
        "--emit-library-kernels",
        action="store_true",
        help="for HLO input: emit gemm and sort fusions as kernels too (a run calls the "
        "library for them; by default the module's xla_emit.library_calls lists those calls)",
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


def add_ir_printing(parser: argparse.ArgumentParser) -> None:
    """mlir-opt's `--mlir-print-ir-*` flags (they print on stderr)."""
    add = parser.add_argument
    names = "PASS[,PASS...]"
    add(
        "--mlir-print-ir-before",
        metavar=names,
        action="append",
        default=[],
        help="print the IR before the named passes (repeatable)",
    )
    add(
        "--mlir-print-ir-after",
        metavar=names,
        action="append",
        default=[],
        help="print the IR after the named passes (repeatable)",
    )
    add(
        "--print-ir-before-all",
        "--mlir-print-ir-before-all",
        action="store_true",
        help="print the IR before every pass",
    )
    add(
        "--print-ir-after-all",
        "--mlir-print-ir-after-all",
        action="store_true",
        help="print the IR after every pass",
    )
    add(
        "--mlir-print-ir-after-change",
        action="store_true",
        help="of the IR printed after a pass, only what the pass changed",
    )
    add(
        "--mlir-print-ir-after-failure",
        action="store_true",
        help="print the IR after a pass only if it failed",
    )


# `builtin.module(`, `func.func(`, `any(`: a pipeline anchored on an operation.
_ANCHORED = re.compile(r"\s*(?:any|[\w-]+\.[\w.-]+)\s*\(")


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = build_argument_parser()
    args = parser.parse_args(argv)
    pipeline = cast(str | None, args.pass_pipeline)
    if pipeline is not None and args.passes:
        parser.error("give the passes with -p or with --pass-pipeline, not both")
    if pipeline is None and _ANCHORED.match(args.passes):
        # mlir-opt's -p takes its anchored form too (a plain list starts with a pass name).
        pipeline = cast(str, args.passes)
    args.steps = ()
    if pipeline is not None:
        from xla_emit.tools.pass_pipeline import flatten_pass_pipeline, read_pass_pipeline

        try:
            args.steps = tuple(read_pass_pipeline(pipeline))
            args.passes = flatten_pass_pipeline(pipeline)
        except UserError as error:
            parser.error(error.message)
    return args


def pass_names(values: list[str]) -> frozenset[str]:
    """`--mlir-print-ir-after=a,b --mlir-print-ir-after=c`: every name given."""
    return frozenset(name.strip() for value in values for name in value.split(",") if name.strip())


def ir_printing(args: argparse.Namespace) -> IRPrinting:
    from xla_emit.tools.opt_driver import IRPrinting

    before = pass_names(cast(list[str], args.mlir_print_ir_before))
    after = pass_names(cast(list[str], args.mlir_print_ir_after))
    check_pass_names(before | after)
    return IRPrinting(
        before=before,
        after=after,
        before_all=cast(bool, args.print_ir_before_all),
        after_all=cast(bool, args.print_ir_after_all),
        after_change=cast(bool, args.mlir_print_ir_after_change),
        after_failure=cast(bool, args.mlir_print_ir_after_failure),
    )


def check_pass_names(names: frozenset[str]) -> None:
    """A name to print around must be a pass (as mlir-opt rejects an unknown one)."""
    if not names:
        return
    from xla_emit.passes.catalog import pass_help

    for name in sorted(names):
        if pass_help(name) is None:
            raise UserError(
                f"--mlir-print-ir-before/after: no pass named '{name}' (see --list-passes)"
            )


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
        print_debuginfo=cast(bool, args.print_debuginfo),
        ir_printing=ir_printing(args),
        fusion=cast(str | None, args.fusion),
        emit_library_kernels=cast(bool, args.emit_library_kernels),
        steps=cast("tuple[PipelineStep, ...]", getattr(args, "steps", ())),
    )


def describe_passes(args: argparse.Namespace, stdout: TextIO) -> int:
    """`--list-passes` and `--help-pass NAME`."""
    from xla_emit.passes.catalog import list_passes, pass_help

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
