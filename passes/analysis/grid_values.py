"""The values an index takes over a Pallas kernel's grid.

A Pallas TPU kernel is a `func.func` whose first `len(iteration_bounds)`
arguments are the grid indices (`pl.program_id(0)`, ...), each running over
`[0, bound)`. An index built from them and constants with integer arithmetic
has one concrete value per grid point; `values_over_grid` computes them all,
so an alignment verdict can name a grid point where an index is misaligned,
or say that every grid point is aligned although Mosaic cannot prove it.

Mosaic itself never looks at the grid: its verdict stays the same; this only
adds evidence to it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import BlockArgument, Operation, SSAValue

from dialects.tpu import AssumeMultipleOp

MAX_GRID_POINTS = 4096

GridPoint = tuple[int, ...]

_BINARY: dict[type[Operation], Callable[[int, int], int]] = {
    arith.AddiOp: lambda a, b: a + b,
    arith.SubiOp: lambda a, b: a - b,
    arith.MuliOp: lambda a, b: a * b,
    arith.MinSIOp: min,
    arith.MaxSIOp: max,
}


def kernel_of(value: SSAValue) -> FuncOp | None:
    """The `func.func` a value is defined in."""
    owner: Operation | None = (
        value.owner.parent_op() if isinstance(value, BlockArgument) else value.owner
    )
    while owner is not None and not isinstance(owner, FuncOp):
        owner = owner.parent_op()
    return owner


def grid_bounds(kernel: FuncOp) -> tuple[int, ...] | None:
    """The kernel's `iteration_bounds`, or None when it has no grid."""
    bounds = kernel.attributes.get("iteration_bounds")
    if not isinstance(bounds, DenseArrayBase):
        return None
    return tuple(int(b) for b in bounds.get_values())


def _evaluate(value: SSAValue, grid: dict[SSAValue, int]) -> int | None:
    if value in grid:
        return grid[value]
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    if isinstance(owner, arith.IndexCastOp | AssumeMultipleOp):
        return _evaluate(owner.operands[0], grid)
    rule = next((_BINARY[cls] for cls in type(owner).__mro__ if cls in _BINARY), None)
    if rule is None or not isinstance(owner, Operation):
        return None
    lhs, rhs = (_evaluate(operand, grid) for operand in owner.operands)
    return None if lhs is None or rhs is None else rule(lhs, rhs)


def values_over_grid(value: SSAValue) -> tuple[tuple[int, ...], dict[GridPoint, int]] | None:
    """(grid bounds, value at every grid point), or None when the value is not a function
    of the grid indices and constants alone, or the grid is too large to enumerate."""
    kernel = kernel_of(value)
    if kernel is None:
        return None
    bounds = grid_bounds(kernel)
    if not bounds or math.prod(bounds) > MAX_GRID_POINTS:
        return None
    indices = kernel.body.block.args[: len(bounds)]
    values: dict[GridPoint, int] = {}
    for point in itertools.product(*(range(b) for b in bounds)):
        result = _evaluate(value, dict(zip(indices, point, strict=True)))
        if result is None:
            return None
        values[point] = result
    return bounds, values


def grid_note(value: SSAValue, multiple: int) -> str | None:
    """A note on the index's alignment over the grid, or None if it cannot be enumerated."""
    found = values_over_grid(value)
    if found is None:
        return None
    bounds, values = found
    grid = f"following the grid (iteration_bounds {list(bounds)})"
    for point, index in values.items():
        if index % multiple:
            return (
                f"{grid}: at program ids {point} the index is {index}, "
                f"{index % multiple} past a multiple of {multiple}"
            )
    shown = sorted(set(values.values()))
    listed = ", ".join(map(str, shown[:6])) + (", ..." if len(shown) > 6 else "")
    return (
        f"{grid}: the index is a multiple of {multiple} at every grid point ({listed}), "
        "so tpu.assume_multiple would be a true promise"
    )
