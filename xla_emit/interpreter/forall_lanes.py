"""An `scf.forall` that does not map threads runs in each lane.

A forall with constant bounds maps the threads of a block (XLA's emitters),
so its trip counts size the launch grid before the kernel runs. Bounds read
from values cannot (nor can more dimensions than x, y and z): such a forall
is a parallel loop that every lane runs on its own, with its own lower
bounds, upper bounds and steps. Iteration number n of a lane is the
row-major position n of its iteration space (the first dimension slowest),
and the induction variables are `lb + position * step`; a lane whose space
has fewer than n + 1 points idles while the others run iteration n. As MLIR
defines it, a dimension with `ub <= lb` has no iterations (the shared
outputs come back unchanged); a step that is not positive is an error naming
the op and the first lane that has it.

Each iteration sees the shared outputs as the buffers they are (MLIR's
bufferization of `shared_outs`), and its `scf.forall.in_parallel` writes its
slices into them in place; the forall's results are those buffers after the
last iteration. Iterations that are independent in the sense of
`iteration_lanes` (no reads of the shared outputs, nothing that depends on
where a lane is, slice sizes the same in every iteration) run side by side
as extra lanes, a batch at a time; the others run one at a time.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.ir import SSAValue

from xla_emit.dialects.scf_ext import ForallOp
from xla_emit.interpreter.access import check_version
from xla_emit.interpreter.executor import Array, Executor, Values, lanes
from xla_emit.interpreter.iteration_lanes import (
    batch_size,
    independent_iterations,
    iteration_lanes,
    repeat_lanes,
)
from xla_emit.interpreter.memory import TensorValue


def forall_in_each_lane(ex: Executor, op: ForallOp, args: Values) -> Values:
    """Run every iteration of `op` in each active lane; returns the updated shared outputs."""
    outputs = [_tensor(value) for value in args[op.num_bound_operands :]]
    for output in outputs:
        check_version(ex, op, output)
    lower = [_bound(ex, value) for value in op.lower_bounds()]
    step = [_bound(ex, value) for value in op.steps()]
    upper = [_bound(ex, value) for value in op.upper_bounds()]
    for value in step:
        lane = ex.first_lane(np.asarray(value <= 0))
        if lane is not None:
            raise ex.error(op, f"has a non-positive step {_at(value, lane)}", lane)
    space = _Space(
        lower, step, [_trips(lb, ub, s) for lb, ub, s in zip(lower, upper, step, strict=True)]
    )
    count = _most(ex, space.total)
    independent = count > 1 and independent_iterations(ex, op)
    batch = batch_size(ex, op, tuple(outputs), count) if independent else 1
    if batch > 1:
        _run_side_by_side(ex, op, outputs, space, count, batch)
    else:
        for number in range(count):
            _run_iterations(ex, op, outputs, space, lanes(np.int64(number)))
    return tuple(_newest(ex, output) for output in outputs)


@dataclass(frozen=True)
class _Space:
    """Each lane's iteration space: per dimension its lower bound, step and trip count."""

    lower: list[Array]
    step: list[Array]
    trips: list[Array]

    @property
    def total(self) -> Array:
        total = lanes(np.int64(1))
        for count in self.trips:
            total = total * count
        return total

    def repeated(self, ex: Executor) -> _Space:
        """The space of every lane of an iteration batch (its lanes repeat the outer ones)."""

        def repeat(values: list[Array]) -> list[Array]:
            return [lanes(repeat_lanes(ex, value, 0)) for value in values]

        return _Space(repeat(self.lower), repeat(self.step), repeat(self.trips))


def _run_iterations(
    ex: Executor, op: ForallOp, outputs: list[TensorValue], space: _Space, number: Array
) -> None:
    """Run iteration `number` (per lane) of every active lane whose space has it."""
    total = space.total
    running = (
        ex.mask
        if np.ndim(total) == 0 and np.ndim(number) == 0
        else ex.combine_mask(np.asarray(total > number))
    )
    if running is not None and not running.any():
        return
    ivs = _induction_variables(number, space)
    shared = [_newest(ex, output) for output in outputs]
    with ex.masked(running):
        ex.run_region(op.body, (*ivs, *shared))


def _run_side_by_side(
    ex: Executor, op: ForallOp, outputs: list[TensorValue], space: _Space, count: int, batch: int
) -> None:
    """Run `count` iterations `batch` at a time as extra lanes (see `iteration_lanes`)."""
    outer = ex.lanes.count
    for start in range(0, count, batch):
        size = min(batch, count - start)
        with iteration_lanes(ex, op, size):
            numbers = np.repeat(np.arange(start, start + size, dtype=np.int64), outer)
            _run_iterations(ex, op, outputs, space.repeated(ex), numbers)


def _tensor(value: object) -> TensorValue:
    assert isinstance(value, TensorValue), "shared outputs are tensors"
    return value


def _newest(ex: Executor, value: TensorValue) -> TensorValue:
    return TensorValue(value.buffer, ex.version(value.buffer))


def _bound(ex: Executor, value: int | SSAValue) -> Array:
    return lanes(np.int64(value) if isinstance(value, int) else ex.env[value])


def _at(value: Array, lane: int) -> int:
    return int(value[lane]) if np.ndim(value) else int(value)


def _trips(lower: Array, upper: Array, step: Array) -> Array:
    """Iterations of one dimension: ceil((ub - lb) / step), none when ub <= lb."""
    return lanes(np.where(upper > lower, (upper - lower + step - 1) // step, np.int64(0)))


def _most(ex: Executor, total: Array) -> int:
    """The most iterations any active lane runs."""
    if np.ndim(total) == 0:
        return int(total)
    active = ex.combine_mask(np.ones(ex.lanes.count, np.bool_))
    chosen = np.asarray(total)[active]
    return int(chosen.max()) if chosen.size else 0


def _induction_variables(number: Array, space: _Space) -> list[Array]:
    """Each dimension's induction variable at row-major position `number`, per lane."""
    ivs: list[Array] = []
    rest = number
    for dim in reversed(range(len(space.lower))):
        extent = np.maximum(space.trips[dim], 1)
        ivs.append(space.lower[dim] + (rest % extent) * space.step[dim])
        rest = rest // extent
    return ivs[::-1]
