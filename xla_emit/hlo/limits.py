"""Shapes against the memory budget (`xla_emit.limits`), checked before anything is allocated."""

from __future__ import annotations

import math

from xla_emit.diagnostics import SourceLocation, UserError
from xla_emit.hlo.ir import HloModule
from xla_emit.hlo.shape import ArrayShape, PrimitiveType, flatten_shape
from xla_emit.limits import format_bytes


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
    """Every array an HLO module names (parameters, constants, results) fits the budget.

    Each array is checked on its own, before any input is made or evaluated:
    the evaluator and the runtime hold at most a few such arrays at once.
    """
    for computation in module.computations:
        for instruction in computation.instructions:
            for leaf in flatten_shape(instruction.shape):
                check_memory(
                    _leaf_bytes(leaf),
                    f"'{instruction.name}' ({instruction.opcode} {leaf})",
                    budget,
                    instruction.location,
                )


def _leaf_bytes(shape: ArrayShape) -> int:
    return array_bytes(shape.element_type, shape.dimensions)
