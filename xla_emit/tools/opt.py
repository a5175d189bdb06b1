"""`xla-emit-opt`: parse, transform and print MLIR (or HLO) the way mlir-opt does.

    xla-emit-opt [FILE|-] [-p PASSES] [-o OUT] [--split-input-file]
                 [--verify-diagnostics] [--print-ir-after-all] [--emit=xla|xla_gpu]

A `.hlo` file is parsed as HLO text and emitted as MLIR by the fusion
emitters before the passes run. Passes build the internal `xla.*` form; the
output is spelled when printed (the policy is in `dialects.xla`): as `--emit`
says, else as the last `xla-respell` left it, else in the input's spelling
(the seed's `xla_gpu.*` for HLO). Errors in the input print
`FILE:LINE:COL: error: ...` with the source line and a caret, and exit 1.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from io import StringIO
from typing import TextIO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

from dialects.xla.seed_spelling import SEED_SPELLING
from passes.gpu.respell import RespellPass, module_spelling
from xla_emit.diagnostics import UserError
from xla_emit.ir import (
    SPLIT_MARKER,
    SourceMap,
    make_context,
    parse_mlir,
    split_chunks,
    verify_module,
)
from xla_emit.runtime.pipeline import apply_pipeline
from xla_emit.runtime.sources import read_source, write_text
from xla_emit.tools.expected_diagnostics import check_expected_diagnostics


@dataclass
class Options:
    """The command line, parsed."""

    input: str
    passes: str
    output: str | None
    split_input_file: bool
    verify_diagnostics: bool
    print_ir_after_all: bool
    print_op_generic: bool
    allow_unregistered_dialect: bool
    emit: str | None
    print_partitions: bool


def parse_arguments(argv: Sequence[str] | None) -> Options:
    parser = argparse.ArgumentParser(
        prog="xla-emit-opt", description="Parse, transform and print MLIR or HLO."
    )
    parser.add_argument("input", nargs="?", default="-", help="input file (.mlir or .hlo), or -")
    parser.add_argument("-p", "--passes", default="", help="comma-separated pass pipeline")
    parser.add_argument("-o", "--output", default=None, help="output file")
    parser.add_argument("--split-input-file", action="store_true", help="split at '// -----'")
    parser.add_argument(
        "--verify-diagnostics",
        action="store_true",
        help="check errors against '// expected-error {{...}}' annotations",
    )
    parser.add_argument(
        "--print-ir-after-all", action="store_true", help="print the IR after every pass (stderr)"
    )
    parser.add_argument("--print-op-generic", action="store_true", help="print the generic form")
    parser.add_argument("--allow-unregistered-dialect", action="store_true")
    parser.add_argument(
        "--emit",
        choices=("xla_gpu", "xla"),
        default=None,
        help="spelling of the target-neutral ops: the seed's xla_gpu.* or today's xla.* "
        "(default: the input's spelling, xla_gpu.* for HLO; an xla-respell pass changes it)",
    )
    parser.add_argument(
        "--print-partitions",
        action="store_true",
        help="for .hlo input: print how each fusion is split into subgraph functions",
    )
    args = parser.parse_args(argv)
    return Options(
        input=args.input,
        passes=args.passes,
        output=args.output,
        split_input_file=args.split_input_file,
        verify_diagnostics=args.verify_diagnostics,
        print_ir_after_all=args.print_ir_after_all,
        print_op_generic=args.print_op_generic,
        allow_unregistered_dialect=args.allow_unregistered_dialect,
        emit=args.emit,
        print_partitions=args.print_partitions,
    )


def read_input(path: str) -> tuple[str, str]:
    """The input's text and the name errors will use for it."""
    if path == "-":
        return sys.stdin.read(), "<stdin>"
    return read_source(path), path


class Driver:
    """Runs one chunk of input: parse, verify, apply the pipeline, print."""

    def __init__(self, options: Options, ctx: Context):
        self.options = options
        self.ctx = ctx
        # The spelling the chunk being run is printed in when --emit names none;
        # None prints the ops as they are.
        self.spelling: str | None = None

    def run_chunk(self, text: str, file: str) -> str:
        if file.endswith(".hlo"):
            return self._run_hlo(text, file)
        if file.endswith(".pto"):
            from xla_emit.pto.assembly import pto_as_to_mlir

            # PTO-AS assembly becomes MLIR line for line, so locations still hold.
            text = pto_as_to_mlir(text, file)
        module, source_map = parse_mlir(text, file, self.ctx)
        verify_module(module, source_map)
        # Input with no target-neutral op takes the seed's spelling, as HLO does.
        self.spelling = module_spelling(module) or SEED_SPELLING
        if not self.options.passes.strip():
            # Nothing was built: the module prints as written, even in mixed spellings.
            self.spelling = None
        self._apply_passes(module, source_map)
        return self._print_output(module)

    def _run_hlo(self, text: str, file: str) -> str:
        from xla_emit.emitters import emit_hlo_module, format_hlo_partitions

        if self.options.print_partitions:
            return format_hlo_partitions(text, file)
        module = emit_hlo_module(text, file)
        source_map = SourceMap(file, text)
        verify_module(module, source_map)
        self.spelling = SEED_SPELLING
        self._apply_passes(module, source_map)
        return self._print_output(module)

    def _apply_passes(self, module: ModuleOp, source_map: SourceMap) -> None:
        apply_pipeline(module, self.options.passes, self.ctx, source_map, self._after_pass)

    def _after_pass(self, name: str, module: ModuleOp, _seconds: float) -> None:
        if name == RespellPass.name:
            # The pass has chosen the spelling: keep it for the output.
            self.spelling = module_spelling(module) or self.spelling
        if self.options.print_ir_after_all:
            sys.stderr.write(f"// -----// IR Dump After {name} //----- //\n")
            sys.stderr.write(self._print(module, self.spelling))

    def _print_output(self, module: ModuleOp) -> str:
        return self._print(module, self.options.emit or self.spelling)

    def _print(self, module: ModuleOp, spelling: str | None) -> str:
        """`module` as text, its target-neutral ops spelled as `spelling` (None: as they are)."""
        if spelling is not None:
            RespellPass(spelling).apply(self.ctx, module)
        out = StringIO()
        printer = Printer(stream=out, print_generic_format=self.options.print_op_generic)
        printer.print_op(module)
        out.write("\n")
        return out.getvalue()


def run(options: Options, stdout: TextIO) -> int:
    text, file = read_input(options.input)
    chunks = split_chunks(text) if options.split_input_file else [text]
    driver = Driver(options, make_context(options.allow_unregistered_dialect))
    if options.verify_diagnostics:
        errors = [_error_of(driver, chunk, file) for chunk in chunks]
        problems = check_expected_diagnostics(text, file, [e for e in errors if e is not None])
        for problem in problems:
            print(problem, file=sys.stderr)
        return 1 if problems else 0
    outputs = [driver.run_chunk(chunk, file) for chunk in chunks]
    result = (SPLIT_MARKER + "\n").join(outputs)
    if options.output is None:
        stdout.write(result)
    else:
        write_text(options.output, result)
    return 0


def _error_of(driver: Driver, chunk: str, file: str) -> UserError | None:
    try:
        driver.run_chunk(chunk, file)
    except UserError as error:
        return error
    return None


def main(argv: Sequence[str] | None = None) -> int:
    options = parse_arguments(argv)
    try:
        return run(options, sys.stdout)
    except UserError as error:
        print(error.format(), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
