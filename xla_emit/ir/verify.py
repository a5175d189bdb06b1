"""Verification with located errors: the first op that fails is reported where it was parsed."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import DictionaryAttr, ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
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
    _verify_dominance(module, source_map)


def _verify_dominance(module: ModuleOp, source_map: SourceMap) -> None:
    """Each operand is defined before its use, in the use's block or one enclosing it.

    xDSL's parser accepts a use before the definition (and an op using its own
    result); MLIR's verifier rejects both ("does not dominate this use"). A
    region of several blocks makes every value of its blocks visible in all of
    them (no dominator tree: such regions are rare here and never miscompiled).
    Iterative, so deep nesting does not exhaust Python's stack.
    """
    visible: set[SSAValue] = set()
    # (block, the values it made visible, the next op to check, an op whose results become
    # visible first: after its regions, which must not see them)
    pending: list[tuple[Block, list[SSAValue], Operation | None, Operation | None]] = []

    def enter(blocks: list[Block]) -> None:
        everywhere: list[SSAValue] = []
        if len(blocks) > 1:
            everywhere = [
                v for b in blocks for v in (*b.args, *(r for o in b.ops for r in o.results))
            ]
        for block in reversed(blocks):
            added = [v for v in dict.fromkeys([*block.args, *everywhere]) if v not in visible]
            visible.update(added)
            pending.append((block, added, block.first_op, None))

    enter(list(module.body.blocks))
    while pending:
        block, added, op, finished = pending.pop()
        if finished is not None:
            new = [r for r in finished.results if r not in visible]
            added.extend(new)
            visible.update(new)
        if op is None:
            visible.difference_update(added)
            continue
        for position, operand in enumerate(op.operands):
            if operand not in visible:
                raise op_error(op, _dominance_message(position, operand), source_map)
        pending.append((block, added, op.next_op, op))
        for region in reversed(op.regions):
            enter(list(region.blocks))


def _dominance_message(position: int, operand: SSAValue) -> str:
    name = f"%{operand.name_hint}" if operand.name_hint else "its value"
    return f"operand #{position} ({name}) does not dominate this use"


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
