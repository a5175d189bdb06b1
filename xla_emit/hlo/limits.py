"""Shapes against the memory budget (`xla_emit.limits`), checked before anything is allocated.

Two checks: every array on its own (the clearest message for one huge array),
then the total a run holds at once. The module runtime keeps every array the
ENTRY computation produces until it ends (its inputs, each launch's outputs,
constants; tuples, tuple elements and bitcasts only view them), and while one
instruction runs, what the computations it calls produce besides: the
reference evaluator materializes every instruction of a fused computation (a
kernel holds less), the body of a `while` or `call` holds its own arrays, and
so on down. The total is the ENTRY's arrays plus the largest of those.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xla_emit.diagnostics import SourceLocation, UserError
from xla_emit.hlo.ir import HloComputation, HloInstruction, HloModule
from xla_emit.hlo.opcodes import ALIASING_OPS
from xla_emit.hlo.shape import ArrayShape, PrimitiveType, flatten_shape
from xla_emit.limits import format_bytes, held_over_budget


def array_bytes(element_type: PrimitiveType, dimensions: tuple[int, ...]) -> int:
    """Bytes of an array, computed exactly (numpy's int64 product can wrap)."""
    return math.prod(dimensions) * element_type.dtype.itemsize


def check_memory(size: int, what: str, budget: int, location: SourceLocation | None) -> None:
    """`what` needs `size` bytes: an error when that is over the budget."""
    if size > budget:
        raise UserError(
            f"{what} needs {format_bytes(size)}, over the memory budget of "
            f"{format_bytes(budget)} (--max-memory)",
            location,
        )


def check_module_memory(module: HloModule, budget: int) -> None:
    """Every array an HLO module names (parameters, constants, results) fits the budget, and
    so does what a run of it holds at once (see the module docstring)."""
    for computation in module.computations:
        for instruction in computation.instructions:
            for leaf in flatten_shape(instruction.shape):
                check_memory(
                    _leaf_bytes(leaf),
                    f"'{instruction.name}' ({instruction.opcode} {leaf})",
                    budget,
                    instruction.location,
                )
    check_total_memory(module, budget)


@dataclass(frozen=True)
class Contributor:
    """Some of what a run holds at once: an instruction's result, or what it holds while
    it runs."""

    what: str
    size: int
    location: SourceLocation | None


def check_total_memory(module: HloModule, budget: int) -> None:
    """What a run holds at once fits the budget; else an error naming the largest parts."""
    contributors = held_at_once(module)
    total = sum(c.size for c in contributors)
    if total <= budget:
        return
    largest = max(contributors, key=lambda c: c.size)
    parts = [(c.what, c.size) for c in contributors]
    raise UserError(f"a run holds {held_over_budget(total, budget, parts)}", largest.location)


def held_at_once(module: HloModule) -> list[Contributor]:
    """The ENTRY's arrays, one per instruction, and the largest one instruction holds while
    it runs."""
    entry = module.entry
    held = [
        Contributor(f"'{i.name}' ({i.opcode} {i.shape})", _result_bytes(i), i.location)
        for i in entry.instructions
        if _allocates(i, in_entry=True)
    ]
    running = max(entry.instructions, key=_bytes_while_running, default=None)
    if running is not None and _bytes_while_running(running) > 0:
        held.append(
            Contributor(
                f"what '{running.name}' ({running.opcode}) holds while it runs",
                _bytes_while_running(running),
                running.location,
            )
        )
    return [c for c in held if c.size > 0]


def _allocates(instruction: HloInstruction, in_entry: bool) -> bool:
    """Whether a run makes a new array for `instruction`: not for views, and not for the
    parameters of a called computation (its caller's arrays)."""
    if instruction.opcode in ALIASING_OPS:
        return False
    return instruction.opcode != "parameter" or in_entry


def _bytes_while_running(instruction: HloInstruction) -> int:
    """The most that the computations `instruction` calls hold at once, one at a time."""
    return max((_computation_bytes(c) for c in instruction.called_computations), default=0)


def _computation_bytes(computation: HloComputation) -> int:
    produced = sum(
        _result_bytes(i) for i in computation.instructions if _allocates(i, in_entry=False)
    )
    return produced + max((_bytes_while_running(i) for i in computation.instructions), default=0)


def _result_bytes(instruction: HloInstruction) -> int:
    return sum(_leaf_bytes(leaf) for leaf in flatten_shape(instruction.shape))


def _leaf_bytes(shape: ArrayShape) -> int:
    return array_bytes(shape.element_type, shape.dimensions)
