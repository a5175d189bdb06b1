"""Verification with located errors: the first op that fails is reported where it was parsed."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import DictionaryAttr, ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation
from xdsl.traits import NoTerminator
from xdsl.utils.exceptions import DiagnosticException, VerifyException

from xla_emit.diagnostics import Note, UserError
from xla_emit.ir.parse import SourceMap

# Verifiers of a dialect's discardable attributes (`xla.range` on any op or function
# argument), as MLIR's `verifyOperationAttribute`/`verifyRegionArgAttribute` hooks:
# a dialect registers one per attribute name; it raises VerifyException.
ATTRIBUTE_VERIFIERS: dict[str, Callable[[Attribute], None]] = {}


def register_attribute_verifier(name: str, verifier: Callable[[Attribute], None]) -> None:
    ATTRIBUTE_VERIFIERS[name] = verifier


def verify_module(module: ModuleOp, source_map: SourceMap) -> None:
    """Verify every op once, outermost first; the first failure becomes a located `UserError`.

    `Operation.verify()` would verify each op again for every op it is nested
    in; here each op checks itself alone, and the one rule xDSL keeps at the
    block level (a single-block region needs its terminator) is checked per op.
    """
    for op in module.walk():
        try:
            op.verify(verify_nested_ops=False)
            _verify_no_empty_body(op)
            _verify_discardable_attributes(op)
        except DiagnosticException as error:
            raise op_error(op, str(error), source_map) from None


def _verify_discardable_attributes(op: Operation) -> None:
    if not ATTRIBUTE_VERIFIERS:
        return
    dictionaries = [op.attributes]
    if isinstance(op, FuncOp) and op.arg_attrs is not None:
        dictionaries += [a.data for a in op.arg_attrs.data if isinstance(a, DictionaryAttr)]
    for attributes in dictionaries:
        for name in attributes.keys() & ATTRIBUTE_VERIFIERS.keys():
            try:
                ATTRIBUTE_VERIFIERS[name](attributes[name])
            except VerifyException as error:
                raise VerifyException(f"attribute '{name}' {error}") from None


def _verify_no_empty_body(op: Operation) -> None:
    if op.has_trait(NoTerminator):
        return
    for region in op.regions:
        if len(region.blocks) == 1 and region.block.first_op is None:
            raise VerifyException(
                f"Operation {op.name} contains empty block in "
                "single-block region that expects at least a terminator"
            )


def op_error(
    op: Operation, message: str, source_map: SourceMap, notes: list[str] | None = None
) -> UserError:
    """An error about `op`, worded as MLIR words op errors: `'name' op message`.

    It is located where the op's own `loc(...)` points (a Pallas kernel's
    Python line), then, in a note, where the op is written in the MLIR input.
    """
    written_at = source_map.location_of(op)
    own = source_map.own_location(op)
    location = own or written_at
    located: list[Note] = []
    if own is not None and written_at is not None:
        located.append(Note("in the MLIR input", written_at))
    return UserError(
        f"'{op.name}' op {message}",
        location,
        [*located, *(Note(note, location) for note in notes or [])],
    )
