"""Reading the tools' input files: one place that turns a path into text or arrays.

Both tools read `-` as standard input and decide what kind of program a text
is the same way, here (`input_format`): the `--input-format` the user gave,
else the text's own markers (XLA's dumps are `.txt` files, so the content
decides before the file name), else the file name's suffix, else MLIR.
Heavy modules (the HLO parser, numpy) are imported on first use so that
importing this module costs nothing at start-up.
"""

from __future__ import annotations

import lzma
import sys
from typing import TYPE_CHECKING

from xla_emit.diagnostics import UserError

if TYPE_CHECKING:
    from xla_emit.hlo.ir import HloModule

__all__ = [
    "INPUT_FORMATS",
    "STDIN",
    "input_format",
    "load_hlo_module",
    "read_input",
    "read_source",
    "write_text",
]

INPUT_FORMATS = ("mlir", "hlo", "pto")
STDIN = "-"
_STDIN_NAME = "<stdin>"
_SUFFIX_FORMATS = {".hlo": "hlo", ".pto": "pto", ".mlir": "mlir"}


def input_format(text: str, path: str, requested: str | None = None) -> str:
    """`mlir`, `hlo` or `pto`: what the program `text` (read from `path`) is written in."""
    if requested is not None:
        return requested
    first = _first_statement(text)
    if first.startswith("HloModule"):
        return "hlo"
    if first.startswith((".arg", ".const")):
        return "pto"
    for suffix, kind in _SUFFIX_FORMATS.items():
        if path.removesuffix(".xz").endswith(suffix):
            return kind
    return "mlir"


def _first_statement(text: str) -> str:
    """The first line that is neither blank nor a comment (`//`, or PTO-AS's `#`)."""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith(("//", "# ")) and stripped != "#":
            return stripped
    return ""


def read_input(path: str) -> tuple[str, str]:
    """The text of `path` (`-`: standard input) and the name errors use for it."""
    if path == STDIN:
        return _read_stdin(), _STDIN_NAME
    return read_source(path), path


def _read_stdin() -> str:
    try:
        return sys.stdin.read()
    except UnicodeDecodeError as error:
        raise UserError(_not_utf8(_STDIN_NAME, error)) from None


def read_source(path: str) -> str:
    """The text of a program file, xz-compressed when its name ends in `.xz` (as the corpus
    keeps XLA's dumps); `UserError` when it cannot be read or is not UTF-8."""
    try:
        if path.endswith(".xz"):
            with lzma.open(path, "rt", encoding="utf-8") as compressed:
                return compressed.read()
        with open(path, encoding="utf-8") as stream:
            return stream.read()
    except OSError as error:
        reason = error.strerror or str(error)
        raise UserError(f"cannot read '{path}': {reason}") from None
    except (EOFError, lzma.LZMAError) as error:
        raise UserError(f"cannot read '{path}': not xz data ({error})") from None
    except UnicodeDecodeError as error:
        raise UserError(_not_utf8(path, error)) from None


def _not_utf8(name: str, error: UnicodeDecodeError) -> str:
    return (
        f"cannot read '{name}': not UTF-8 text "
        f"(byte 0x{error.object[error.start]:02x} at offset {error.start})"
    )


def write_text(path: str, text: str) -> None:
    """Write `text` to `path` (`-`: standard output; `UserError` when it cannot be written)."""
    if path == STDIN:
        sys.stdout.write(text)
        return
    try:
        with open(path, "w", encoding="utf-8") as stream:
            stream.write(text)
    except OSError as error:
        raise UserError(f"cannot write '{path}': {error.strerror}") from None


def load_hlo_module(path: str, text: str | None = None) -> HloModule:
    """Parse the HLO module in `path` (or in `text`, read from `path`)."""
    from xla_emit.hlo.parser import parse_hlo_module

    return parse_hlo_module(read_source(path) if text is None else text, path)
