"""Command-line conventions both tools share: `--version`, `--input-format`, `--timing`.

Each is one `add_*` call on the tool's parser, so a tool's flags read as a list
and a new shared flag is one function here. Nothing heavy is imported: the
tools parse their command line before loading the compiler.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any, NoReturn

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
        action="store_true",
        help="print the wall time of every step (parse, each pass, verify, print, run) to stderr",
    )
