"""Small helpers shared by the shape-inference modules of the HLO verifier."""

from __future__ import annotations

from xla_emit.hlo.ir import HloInstruction
from xla_emit.hlo.shape import ArrayShape, Shape, TupleShape, shape_without_layout


class ShapeError(Exception):
    """A message about one instruction; the caller adds the location."""


def plain(shape: Shape) -> str:
    return str(shape_without_layout(shape))


def array(instruction: HloInstruction, what: str) -> ArrayShape:
    if not isinstance(instruction.shape, TupleShape):
        return instruction.shape
    raise ShapeError(f"{what} '{instruction.name}' must be an array, not a tuple")


def require(condition: bool, message: str) -> None:
    if not condition:
        raise ShapeError(message)


def operand_count(instruction: HloInstruction, count: int) -> None:
    require(
        len(instruction.operands) == count,
        f"expects {count} operand{'s' if count != 1 else ''}, got {len(instruction.operands)}",
    )


def ints(values: tuple[int, ...]) -> str:
    return ",".join(str(v) for v in values)
