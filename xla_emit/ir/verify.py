"""Verification with located errors: the first op that fails is reported where it was parsed."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException

from xla_emit.diagnostics import Note, UserError
from xla_emit.ir.parse import SourceMap


def verify_module(module: ModuleOp, source_map: SourceMap) -> None:
    """Verify every op, outermost first; the first failure becomes a located `UserError`."""
    for op in module.walk():
        try:
            op.verify(verify_nested_ops=False)
        except DiagnosticException as error:
            raise op_error(op, str(error), source_map) from None
    try:
        module.verify()
    except DiagnosticException as error:
        raise UserError(str(error)) from None


def op_error(
    op: Operation, message: str, source_map: SourceMap, notes: list[str] | None = None
) -> UserError:
    """An error about `op`, worded as MLIR words op errors: `'name' op message`."""
    location = source_map.location_of(op)
    return UserError(
        f"'{op.name}' op {message}", location, [Note(note, location) for note in notes or []]
    )
