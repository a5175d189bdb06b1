"""Reading the tools' input files: one place that turns a path into text or arrays."""

from __future__ import annotations

from xla_emit.diagnostics import UserError
from xla_emit.hlo.ir import HloModule
from xla_emit.hlo.npz import load_arrays
from xla_emit.hlo.parser import parse_hlo_module

__all__ = ["load_arrays", "load_hlo_module", "read_source", "write_text"]


def read_source(path: str) -> str:
    """The text of a program file (`UserError` when it cannot be read or is not UTF-8)."""
    try:
        with open(path, encoding="utf-8") as stream:
            return stream.read()
    except OSError as error:
        raise UserError(f"cannot read '{path}': {error.strerror}") from None
    except UnicodeDecodeError as error:
        raise UserError(
            f"cannot read '{path}': not UTF-8 text "
            f"(byte 0x{error.object[error.start]:02x} at offset {error.start})"
        ) from None


def write_text(path: str, text: str) -> None:
    """Write `text` to `path` (`UserError` when it cannot be written)."""
    try:
        with open(path, "w", encoding="utf-8") as stream:
            stream.write(text)
    except OSError as error:
        raise UserError(f"cannot write '{path}': {error.strerror}") from None


def load_hlo_module(path: str) -> HloModule:
    """Parse the HLO module in `path`."""
    return parse_hlo_module(read_source(path), path)
