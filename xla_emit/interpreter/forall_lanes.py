"""An `scf.forall` whose bounds are known only at run time runs in each lane.

A forall with constant bounds maps the threads of a block (XLA's emitters),
so its trip counts size the launch grid before the kernel runs. Bounds read
from values cannot: such a forall is a parallel loop that every lane runs on
its own, with its own lower bounds, upper bounds and steps. Iteration number
n of a lane is the row-major position n of its iteration space (the first
dimension slowest), and the induction variables are `lb + position * step`;
a lane whose space has fewer than n + 1 points idles while the others run
iteration n. As MLIR defines it, a dimension with `ub <= lb` has no
iterations (the shared outputs come back unchanged); a step that is not
positive is an error naming the op and the first lane that has it.

Each iteration sees the shared outputs as the buffers they are (MLIR's
bufferization of `shared_outs`), and its `scf.forall.in_parallel` writes its
slices into them in place; the forall's results are those buffers after the
last iteration.
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import SSAValue

from dialects.scf_ext import ForallOp
from xla_emit.interpreter.access import check_version
from xla_emit.interpreter.executor import Array, Executor, Values, lanes
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
    trips = [_trips(lb, ub, s) for lb, ub, s in zip(lower, upper, step, strict=True)]
    total = _product(trips)
    for number in range(_most(ex, total)):
        running = None if np.ndim(total) == 0 else ex.combine_mask(total > number)
        ivs = _induction_variables(number, lower, step, trips)
        shared = [_newest(ex, output) for output in outputs]
        with ex.masked(running if running is not None else ex.mask):
            ex.run_region(op.body, (*ivs, *shared))
    return tuple(_newest(ex, output) for output in outputs)


def _tensor(value: object) -> TensorValue:
    assert isinstance(value, TensorValue), "shared outputs are tensors"
    return value


def _newest(ex: Executor, value: TensorValue) -> TensorValue:
    return TensorValue(value.buffer, ex.version(value.buffer))


def _bound(ex: Executor, value: int | SSAValue) -> Array:
    return np.int64(value) if isinstance(value, int) else lanes(ex.env[value])


def _at(value: Array, lane: int) -> int:
    return int(value[lane]) if np.ndim(value) else int(value)


def _trips(lower: Array, upper: Array, step: Array) -> Array:
    """Iterations of one dimension: ceil((ub - lb) / step), none when ub <= lb."""
    return np.where(upper > lower, (upper - lower + step - 1) // step, np.int64(0))


def _product(trips: list[Array]) -> Array:
    total: Array = np.int64(1)
    for count in trips:
        total = total * count
    return total


def _most(ex: Executor, total: Array) -> int:
    """The most iterations any active lane runs."""
    if np.ndim(total) == 0:
        return int(total)
    active = ex.combine_mask(np.ones(ex.lanes.count, np.bool_))
    chosen = np.asarray(total)[active]
    return int(chosen.max()) if chosen.size else 0


def _induction_variables(
    number: int, lower: list[Array], step: list[Array], trips: list[Array]
) -> list[Array]:
    """Each dimension's induction variable at row-major position `number`, per lane."""
    ivs: list[Array] = []
    rest: Array = np.int64(number)
    for dim in reversed(range(len(lower))):
        extent = np.maximum(trips[dim], 1)
        ivs.append(lower[dim] + (rest % extent) * step[dim])
        rest = rest // extent
    return ivs[::-1]
