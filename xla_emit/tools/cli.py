"""Command-line conventions of the tools: `--version`, `--input-format`, `--timing`, budgets.

Each is one `add_*` call on the tool's parser, so a tool's flags read as a list
and a new shared flag is one function here. Nothing heavy is imported: the
tools parse their command line before loading the compiler.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any, NoReturn, cast

from xla_emit.limits import (
    DEFAULT_MAX_MEMORY,
    DEFAULT_MAX_STEPS,
    RunLimits,
    format_bytes,
    parse_byte_size,
)
from xla_emit.runtime.sources import INPUT_FORMATS


def version_text(prog: str) -> str:
    """`PROG (xla-emit X.Y.Z, xDSL A.B.C)`, from the installed packages' metadata."""
    from importlib.metadata import PackageNotFoundError, version

    def of(package: str) -> str:
        try:
            return version(package)
        except PackageNotFoundError:
            return "unknown"

    return f"{prog} (xla-emit {of('xla-emit')}, xDSL {of('xdsl')})"


class _VersionAction(argparse.Action):
    """Prints the version and exits; the metadata is read only when the flag is given."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> NoReturn:
        # On stdout, as argparse's own `version` action prints.
        print(version_text(parser.prog))
        parser.exit()


def add_version(parser: argparse.ArgumentParser) -> None:
    _ = parser.add_argument(
        "--version", nargs=0, action=_VersionAction, help="print the version and exit"
    )


def add_input_format(parser: argparse.ArgumentParser) -> None:
    _ = parser.add_argument(
        "--input-format",
        choices=INPUT_FORMATS,
        default=None,
        help="what the input is written in (default: its content says, "
        "'HloModule ...' is HLO and '.arg' PTO-AS; else its suffix, else MLIR)",
    )


def add_timing(parser: argparse.ArgumentParser) -> None:
    _ = parser.add_argument(
        "--timing",
        "--mlir-timing",
        action="store_true",
        help="print the wall time of every step (parse, each pass, verify, print, run) to stderr",
    )


def memory_size(text: str) -> int:
    """`4G`, `512M` or bytes (argparse names this function in its error)."""
    return parse_byte_size(text)


def positive_int(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise ValueError(text)
    return value


def add_limit_arguments(parser: argparse.ArgumentParser) -> None:
    """--max-memory, --max-steps, --progress (see `xla_emit.limits`)."""
    _ = parser.add_argument(
        "--max-memory",
        metavar="SIZE",
        type=memory_size,
        default=DEFAULT_MAX_MEMORY,
        help=f"largest buffer a run may allocate: bytes, or 512M, 4G (default "
        f"{format_bytes(DEFAULT_MAX_MEMORY)})",
    )
    _ = parser.add_argument(
        "--max-steps",
        metavar="N",
        type=positive_int,
        default=DEFAULT_MAX_STEPS,
        help=f"ops the interpreter may run, loop trips included (default {DEFAULT_MAX_STEPS})",
    )
    _ = parser.add_argument(
        "--progress", action="store_true", help="a progress bar even when stderr is no terminal"
    )


def limits_of(namespace: argparse.Namespace) -> RunLimits:
    """The limits `add_limit_arguments` parsed."""
    return RunLimits(cast(int, namespace.max_memory), cast(int, namespace.max_steps))
