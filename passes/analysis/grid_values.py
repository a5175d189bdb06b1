"""The values an index takes over a Pallas kernel's grid.

A Pallas TPU kernel is a `func.func` whose first `len(iteration_bounds)`
arguments are the grid indices (`pl.program_id(0)`, ...), each running over
`[0, bound)`. An index built from them and constants with integer arithmetic
has one concrete value per grid point; `values_over_grid` computes them all,
so an alignment verdict can name a grid point where an index is misaligned,
or say that every grid point is aligned although Mosaic cannot prove it.

The same holds inside the kernel for an `scf.for` with constant bounds: its
induction variable takes known values, so an index such as `%j * 64` is
enumerated over the loop (and the grid) too, and `loop_verdict` says whether
it is aligned at every point or names one where it is not, instead of calling
it unknown.

Mosaic itself never looks at the grid: its verdict stays the same; this only
adds evidence to it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import BlockArgument, Operation, SSAValue
from xla_emit.dialects.tpu import AssumeMultipleOp
from xla_emit.passes.loop_utils import static_bounds

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


# ----------------------------------------------------------------------------- loops and grid


@dataclass(frozen=True)
class Axis:
    """A value an index depends on and the values it runs over: a program id
    (`grid_dim` is its grid dimension) or a loop induction variable with constant bounds."""

    value: SSAValue
    values: range
    grid_dim: int | None = None


@dataclass(frozen=True)
class Enumeration:
    """The index at every point of its axes (a point is one value per axis, in order)."""

    axes: tuple[Axis, ...]
    values: dict[tuple[int, ...], int]

    @property
    def has_loops(self) -> bool:
        return any(axis.grid_dim is None for axis in self.axes)


def _axes_of(value: SSAValue, grid: dict[SSAValue, Axis], found: dict[SSAValue, Axis]) -> bool:
    """Collect in `found` the axes `value` depends on; False if it depends on anything else."""
    if value in grid:
        found[value] = grid[value]
        return True
    if isinstance(value, BlockArgument):
        loop = value.block.parent_op()
        if not isinstance(loop, scf.ForOp) or value.block is not loop.body.block or value.index:
            return False
        bounds = static_bounds(loop)
        if bounds is None or bounds.step <= 0:
            return False
        found[value] = Axis(value, range(bounds.lower, bounds.upper, bounds.step))
        return True
    owner = value.owner
    assert isinstance(owner, Operation)
    if isinstance(owner, arith.ConstantOp):
        return isinstance(owner.value, IntegerAttr)
    if isinstance(owner, arith.IndexCastOp | AssumeMultipleOp):
        return _axes_of(owner.operands[0], grid, found)
    if not any(cls in _BINARY for cls in type(owner).__mro__):
        return False
    return all(_axes_of(operand, grid, found) for operand in owner.operands)


def index_values(value: SSAValue) -> Enumeration | None:
    """The index at every point of the grid ids and constant-bound loop variables it is
    built from, or None when it depends on anything else or there are too many points."""
    kernel = kernel_of(value)
    grid: dict[SSAValue, Axis] = {}
    bounds = grid_bounds(kernel) if kernel is not None else None
    if kernel is not None and bounds:
        for dim, (argument, bound) in enumerate(zip(kernel.body.block.args, bounds, strict=False)):
            grid[argument] = Axis(argument, range(bound), dim)
    found: dict[SSAValue, Axis] = {}
    if not _axes_of(value, grid, found) or not found:
        return None
    axes = tuple(sorted(found.values(), key=lambda a: (a.grid_dim is None, a.grid_dim or 0)))
    if math.prod(len(axis.values) for axis in axes) > MAX_GRID_POINTS:
        return None
    values: dict[tuple[int, ...], int] = {}
    for point in itertools.product(*(axis.values for axis in axes)):
        env = {axis.value: coordinate for axis, coordinate in zip(axes, point, strict=True)}
        result = _evaluate(value, env)
        if result is None:
            return None
        values[point] = result
    return Enumeration(axes, values)


def _axis_name(axis: Axis, name: Callable[[SSAValue], str]) -> str:
    return f"program id {axis.grid_dim}" if axis.grid_dim is not None else name(axis.value)


def _axis_range(axis: Axis, name: Callable[[SSAValue], str]) -> str:
    step = f" step {axis.values.step}" if axis.values.step != 1 else ""
    return f"{_axis_name(axis, name)} in [{axis.values.start}, {axis.values.stop}){step}"


def first_misaligned(enumeration: Enumeration, multiple: int) -> tuple[int, ...] | None:
    return next((p for p, index in enumeration.values.items() if index % multiple), None)


def loop_verdict(enumeration: Enumeration, multiple: int, name: Callable[[SSAValue], str]) -> str:
    """Whether the index is aligned at every point of its loops (and grid), in words,
    naming the loop variables as the kernel prints them."""
    over = ", ".join(_axis_range(axis, name) for axis in enumeration.axes)
    point = first_misaligned(enumeration, multiple)
    if point is not None:
        index = enumeration.values[point]
        at = ", ".join(
            f"{_axis_name(axis, name)} = {coordinate}"
            for axis, coordinate in zip(enumeration.axes, point, strict=True)
        )
        return (
            f"the index is provably misaligned: with {over}, at {at} it is {index}, "
            f"{index % multiple} past a multiple of {multiple}"
        )
    shown = sorted(set(enumeration.values.values()))
    listed = ", ".join(map(str, shown[:6])) + (", ..." if len(shown) > 6 else "")
    return (
        f"the index is a multiple of {multiple} at every point ({over}: {listed}), "
        "although the congruence analysis cannot prove it"
    )
