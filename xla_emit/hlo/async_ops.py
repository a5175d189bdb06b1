"""Asynchronous HLO pairs with their synchronous meaning on one device.

XLA splits some ops into a start and a done (and `async-update`s between):

    fs = ((f32[8]), f32[8], s32[]) fusion-start(x), kind=kLoop, calls=f
    fd = f32[8] fusion-done(fs)

On one device nothing overlaps, so the pair is the synchronous op: the start
becomes `fusion(x)` with the done's shape, and every use of the done (or of an
update) uses it instead. `async-start` wraps any computation: it becomes a
`call` of it (`ASYNC_START_OPS` lists each start's synchronous op).
"""

from __future__ import annotations

from xla_emit.diagnostics import UserError
from xla_emit.hlo.ir import HloComputation, HloInstruction, HloModule
from xla_emit.hlo.opcodes import ASYNC_DONE_OPS, ASYNC_PAIR_OPS, ASYNC_START_OPS


def synchronize_async_pairs(module: HloModule) -> None:
    """Rewrites every start/update/done chain of `module` into its synchronous op."""
    for computation in module.computations:
        if any(i.opcode in ASYNC_PAIR_OPS for i in computation.instructions):
            _synchronize(computation)


def _synchronize(computation: HloComputation) -> None:
    replaced: dict[HloInstruction, HloInstruction] = {}
    kept: list[HloInstruction] = []
    for instruction in computation.instructions:
        instruction.operands = [replaced.get(o, o) for o in instruction.operands]
        if instruction.opcode in ASYNC_DONE_OPS or instruction.opcode == "async-update":
            start = _start_of(instruction)
            if instruction.opcode in ASYNC_DONE_OPS:
                start.shape = instruction.shape
            replaced[instruction] = start
            continue
        kept.append(instruction)
    for instruction in kept:
        if instruction.opcode in ASYNC_START_OPS:
            if instruction not in replaced.values():
                raise UserError(
                    f"'{instruction.name}': {instruction.opcode} has no matching done",
                    instruction.location,
                )
            instruction.opcode = ASYNC_START_OPS[instruction.opcode]
    computation.instructions = kept
    computation.root = replaced.get(computation.root, computation.root)


def _start_of(instruction: HloInstruction) -> HloInstruction:
    expected = instruction.opcode.replace("-done", "-start").replace("-update", "-start")
    operand = instruction.operands[0] if len(instruction.operands) == 1 else None
    if operand is None or operand.opcode != expected:
        raise UserError(
            f"'{instruction.name}': {instruction.opcode} takes the {expected} it completes",
            instruction.location,
        )
    return operand
