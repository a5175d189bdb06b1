"""How much a run may allocate and compute: the memory and step budgets of `xla-emit-run`.

A program that names a 3 TiB array, or a loop of 10^12 trips, is stopped with
a located error before (memory) or while (steps) it runs, instead of taking
the machine's memory or running forever. The budgets are plain numbers here;
the runtime checks shapes against the memory budget before it allocates, and
the interpreters count the ops they run against the step budget.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from xla_emit.diagnostics import SourceLocation, UserError
from xla_emit.hlo.ir import HloModule
from xla_emit.hlo.shape import ArrayShape, PrimitiveType, flatten_shape

GIB = 1 << 30
DEFAULT_MAX_MEMORY = 8 * GIB
# About a minute of interpretation; real kernels need far fewer steps (one op
# runs over all the lanes of a chunk at once: a full-size GELU takes ~10^4).
DEFAULT_MAX_STEPS = 10_000_000

_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?", re.IGNORECASE)
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


@dataclass(frozen=True)
class RunLimits:
    """The budgets of one run."""

    max_memory: int = DEFAULT_MAX_MEMORY
    max_steps: int = DEFAULT_MAX_STEPS


def parse_byte_size(text: str) -> int:
    """`4G`, `512M`, `1.5GiB`, `1000000` (bytes): powers of 1024; ValueError otherwise."""
    match = _SIZE.fullmatch(text.strip())
    if match is None:
        raise ValueError(text)
    size = int(float(match.group(1)) * _UNITS[match.group(2).upper()])
    if size <= 0:
        raise ValueError(text)
    return size


def format_bytes(size: int) -> str:
    """`3.64 TiB`, `8 GiB`, `512 B`: the largest binary unit, three significant digits."""
    for unit, name in ((1 << 40, "TiB"), (1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if size >= unit:
            return f"{size / unit:.3g} {name}"
    return f"{size} B"


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
