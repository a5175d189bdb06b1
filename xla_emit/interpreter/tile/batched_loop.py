"""A gemm's loop over K tiles, its iterations run side by side where only the sum is serial.

In XLA's gemm kernels the body of the `scf.for` over K tiles reads the operands' tiles at
`k * tile`, multiplies them, and adds the product to the carried accumulator. Only that
addition depends on the previous iteration. Here the body's ops that do not read a carried
value (index maps, extracts, reshapes, transposes, the dot's products and their in-tile
sums) run once for a group of iterations, each program id of each iteration one lane of a
longer leading axis (iteration-major: lane `t * pids + p`); the ops that read a carried
value then run iteration by iteration, in order, on their lanes. A `tt.dot` whose
accumulator is carried has its in-tile sum made with the group and its one addition to the
accumulator made in order (`dot.accumulate`), as the plain loop computes it.

Every lane computes what the plain loop computes for that pid and iteration, so the bits
are the same; the same steps are charged (every body op and the yield once per iteration),
and the loop is run plainly where it would go past the step budget, so that the budget stops
it at the same op. A group holds its iterations' tiles at once: groups are as small as the
memory budget left needs (and the loop plain below two iterations). Only ops that read
tiles and compute, without regions or writes, are run side by side; a loop with any other
op runs plainly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

import numpy as np
from xdsl.dialects import scf
from xdsl.dialects.builtin import ShapedType, TensorType
from xdsl.ir import Attribute, Operation, SSAValue

from xla_emit.diagnostics import UserError
from xla_emit.dialects import stablehlo, triton
from xla_emit.dialects.xla import ApplyIndexingOpBase
from xla_emit.dialects.xtile import EntryFuncOp, ExtractTileOp
from xla_emit.interpreter.element_types import numpy_dtype
from xla_emit.interpreter.tile.dot import accumulate, lanes_first, tt_dot_sum
from xla_emit.interpreter.tile.plan import Step, block_plan, launch_invariant

if TYPE_CHECKING:
    from xla_emit.interpreter.tile.executor import TileExecutor

# Ops that only read tiles and compute (no regions, no writes): safe to run for many
# iterations at once. All of `arith` is, too.
_SIDE_BY_SIDE: tuple[type[Operation], ...] = (
    ApplyIndexingOpBase,
    ExtractTileOp,
    stablehlo.DotGeneralOp,
    stablehlo.ReshapeOp,
    stablehlo.TransposeOp,
    stablehlo.ConvertOp,
    stablehlo.BroadcastInDimOp,
    triton.DotOp,
    triton.ReshapeOp,
    triton.TransOp,
    triton.SplatOp,
    triton.ExpandDimsOp,
    triton.BroadcastOp,
    triton.MakeRangeOp,
    triton.AddPtrOp,
    triton.LoadOp,
)

# The most elements one value of a group may hold (as the executor bounds a chunk of pids).
_GROUP_ELEMENTS = 1 << 22


@dataclass(frozen=True)
class LoopPlan:
    """A loop body split into the ops run side by side and the ops run in order."""

    side_by_side: tuple[Operation, ...]
    in_order: tuple[Operation, ...]
    # `tt.dot`s run in order whose `a` and `b` are made side by side: their sums are, too.
    split_dots: tuple[triton.DotOp, ...]
    # Steps one iteration charges: every body op and the terminator.
    steps_per_iteration: int
    largest_tile: int
    # Bytes one lane of one iteration holds while a group runs: every side-by-side value
    # and the split dots' sums.
    bytes_per_lane: int
    # The split dot when the ops run in order are only it and reshapes of the one carried
    # value into its accumulator and of its result into the yield: the iterations then
    # only add each tile's sum to the accumulator.
    accumulating_dot: triton.DotOp | None = None
    # Values from outside the loop that the side-by-side ops read and that are the same at
    # every launch: their lanes are kept between launches too.
    invariant_outside: frozenset[SSAValue] = frozenset()


_PLANS: WeakKeyDictionary[scf.ForOp, LoopPlan | None] = WeakKeyDictionary()


def loop_plan(loop: scf.ForOp) -> LoopPlan | None:
    """The split of `loop`'s body, or None when it has ops that cannot run side by side or
    nothing to run side by side."""
    if loop in _PLANS:
        return _PLANS[loop]
    plan = _make_plan(loop)
    _PLANS[loop] = plan
    return plan


def _make_plan(loop: scf.ForOp) -> LoopPlan | None:
    block = loop.body.block
    carried: set[SSAValue] = set(block.args[1:])
    side_by_side: list[Operation] = []
    in_order: list[Operation] = []
    ops = list(block.ops)
    for op in ops[:-1]:
        if op.regions or not _runs_side_by_side(op):
            return None
        if any(operand in carried for operand in op.operands):
            in_order.append(op)
            carried.update(op.results)
        else:
            side_by_side.append(op)
    split_dots = tuple(
        op
        for op in in_order
        if isinstance(op, triton.DotOp) and op.a not in carried and op.b not in carried
    )
    if not any(_is_dot(op) for op in side_by_side) and not split_dots:
        return None
    largest = max((_elements(r.type) for op in ops for r in op.results), default=1)
    held = [r.type for op in side_by_side for r in op.results]
    held += [dot.d.type for dot in split_dots]
    lane_bytes = sum(_elements(t) * _itemsize(t) for t in held)
    accumulating = _accumulating_dot(loop, in_order, split_dots)
    function = loop.parent_op()
    while function is not None and not isinstance(function, EntryFuncOp):
        function = function.parent_op()
    invariant = launch_invariant(function) if function is not None else frozenset()
    inside = set(block.args) | {r for op in ops for r in op.results}
    outside = {v for op in side_by_side for v in op.operands if v not in inside}
    outside |= {v for dot in split_dots for v in (dot.a, dot.b) if v not in inside}
    return LoopPlan(
        tuple(side_by_side),
        tuple(in_order),
        split_dots,
        len(ops),
        largest,
        lane_bytes,
        accumulating,
        frozenset(outside & invariant),
    )


def _accumulating_dot(
    loop: scf.ForOp, in_order: list[Operation], split_dots: tuple[triton.DotOp, ...]
) -> triton.DotOp | None:
    """The split dot whose accumulator is the one carried value and whose result is the
    one yielded value, through reshapes only (XLA's gemm loops), if that is all that runs
    in order."""
    block = loop.body.block
    terminator = block.last_op
    if len(split_dots) != 1 or len(block.args) != 2 or terminator is None:
        return None
    (dot,) = split_dots
    if any(op is not dot and not isinstance(op, triton.ReshapeOp) for op in in_order):
        return None
    if len(in_order) != len({op for op in in_order}) or len(terminator.operands) != 1:
        return None
    if _through_reshapes(dot.c) is not block.args[1]:
        return None
    yielded = _through_reshapes(terminator.operands[0])
    return dot if yielded is dot.d else None


def _through_reshapes(value: SSAValue) -> SSAValue:
    """The value `value` reshapes (through any number of `tt.reshape`s)."""
    while isinstance(value.owner, triton.ReshapeOp):
        value = value.owner.src
    return value


def _runs_side_by_side(op: Operation) -> bool:
    return isinstance(op, _SIDE_BY_SIDE) or op.dialect_name() == "arith"


def _is_dot(op: Operation) -> bool:
    return isinstance(op, (stablehlo.DotGeneralOp, triton.DotOp))


def _itemsize(type_: Attribute) -> int:
    """Bytes per element of a value of `type_` (8 for indices and other scalars)."""
    try:
        return numpy_dtype(type_).itemsize
    except UserError:  # pointers
        return 8


def _elements(type_: Attribute) -> int:
    if isinstance(type_, TensorType):
        return max(1, int(np.prod(type_.get_shape(), dtype=np.int64)))
    return 1


def run_batched(
    ex: TileExecutor, loop: scf.ForOp, iterations: range, initial: list[Any]
) -> list[Any] | None:
    """The loop's carried values after all `iterations`, or None where the loop must run
    plainly (nothing to batch, too few iterations, or the step budget would stop it)."""
    plan = loop_plan(loop)
    if plan is None or len(iterations) < 2:
        return None
    steps = len(iterations) * plan.steps_per_iteration
    if ex.step_counter.spent + steps > ex.step_counter.limit:
        return None
    group = min(
        _GROUP_ELEMENTS // max(1, len(ex.pids) * plan.largest_tile),
        # What the memory budget has left: a group must not stop a run the plain loop
        # finishes.
        (ex.memory.budget - ex.memory.total) // max(1, len(ex.pids) * plan.bytes_per_lane),
    )
    if group < 2:
        return None
    ex.step_counter.charge(steps)
    carried = list(initial)
    for start in range(0, len(iterations), group):
        indices = iterations[start : start + group]
        made = _run_side_by_side(ex, loop, plan, indices)
        carried = _run_in_order(ex, loop, plan, made, indices, carried)
    return carried


def _run_side_by_side(
    ex: TileExecutor, loop: scf.ForOp, plan: LoopPlan, indices: range
) -> dict[SSAValue, Any]:
    """The side-by-side ops' values, one lane per pid and iteration (iteration-major), and
    the in-tile sums of the split dots (keyed by the dot's result). The values that are the
    same at every launch are kept between launches, per chunk of pids and group of
    iterations (`plan.launch_invariant`)."""
    pids = ex.pids
    outer_key = ex.lanes_key
    key = None if outer_key is None else (outer_key, loop, indices.start, indices.stop)
    ex.pids = np.tile(pids, len(indices))
    try:
        with ex.lanes(key, loop):
            return _side_by_side_values(ex, loop, plan, indices, len(pids))
    finally:
        ex.pids = pids


def _side_by_side_values(
    ex: TileExecutor, loop: scf.ForOp, plan: LoopPlan, indices: range, pids: int
) -> dict[SSAValue, Any]:
    count = len(indices)
    kept = ex.kept_lanes()
    widened = kept.widened if kept is not None else {}
    iteration = loop.body.block.args[0]
    if iteration not in widened:
        widened[iteration] = np.repeat(np.asarray(indices, dtype=np.int64), pids)
    values: dict[SSAValue, Any] = {iteration: widened[iteration]}

    def value(v: SSAValue) -> Any:
        if v in values:
            return values[v]
        if v in widened:
            return widened[v]
        lanes = _widen(ex.env[v], v.type, count)
        if kept is not None and v in plan.invariant_outside:
            widened[v] = lanes
        return lanes

    for step in _side_by_side_steps(ex, loop, plan):
        if step.invariant and kept is not None:
            known = kept.results.get(step.op)
            if known is None:
                known = ex.keep(step, step.handler(ex, step.op, [value(v) for v in step.operands]))
            values.update(zip(step.results, known, strict=True))
            continue
        results = step.handler(ex, step.op, [value(v) for v in step.operands])
        for result, result_value in zip(step.results, results, strict=True):
            ex.hold(step.op, result, result_value)
            values[result] = result_value
    for dot in plan.split_dots:
        values[dot.d] = tt_dot_sum(ex, dot, value(dot.a), value(dot.b))
    return values


_STEPS: WeakKeyDictionary[scf.ForOp, tuple[Step, ...]] = WeakKeyDictionary()


def _side_by_side_steps(ex: TileExecutor, loop: scf.ForOp, plan: LoopPlan) -> tuple[Step, ...]:
    steps = _STEPS.get(loop)
    if steps is None:
        ops = set(plan.side_by_side)
        body = block_plan(loop.body.block, ex.handlers, ex.unsupported)
        steps = _STEPS[loop] = tuple(step for step in body.steps if step.op in ops)
    return steps


def _run_in_order(
    ex: TileExecutor,
    loop: scf.ForOp,
    plan: LoopPlan,
    made: dict[SSAValue, Any],
    indices: range,
    carried: list[Any],
) -> list[Any]:
    block = loop.body.block
    lanes = len(ex.pids)
    if plan.accumulating_dot is not None:
        return [_accumulate_in_order(ex, loop, plan.accumulating_dot, made, len(indices), carried)]
    split = set(plan.split_dots)
    for t, index in enumerate(indices):
        local: dict[SSAValue, Any] = dict(zip(block.args[1:], carried, strict=True))
        local[block.args[0]] = index

        def value(v: SSAValue, t: int = t, local: dict[SSAValue, Any] = local) -> Any:
            if v in local:
                return local[v]
            if v in made:
                return _lanes_of(made[v], v.type, t, lanes)
            return ex.env[v]

        for op in plan.in_order:
            if op in split:
                assert isinstance(op, triton.DotOp)
                results = [accumulate(ex, op, value(op.c), value(op.d))]
            else:
                handler = ex.handlers.lookup(type(op))
                if handler is None:
                    raise ex.error(op, "is not supported by the tile executor")
                results = handler(ex, op, [value(v) for v in op.operands])
            for result, result_value in zip(op.results, results, strict=True):
                ex.hold(op, result, result_value)
                local[result] = result_value
        terminator = block.last_op
        assert terminator is not None
        carried = [value(v) for v in terminator.operands]
    return carried


def _accumulate_in_order(
    ex: TileExecutor,
    loop: scf.ForOp,
    dot: triton.DotOp,
    made: dict[SSAValue, Any],
    count: int,
    carried: list[Any],
) -> Any:
    """The carried accumulator after adding each iteration's in-tile sum of `dot` in order:
    what `accumulate` and the reshapes around it compute, a reshape being the same
    elements in the same order."""
    (accumulator_type,) = loop.body.block.args[1:]
    accumulator = ex.per_pid(carried[0], accumulator_type.type)
    lanes = len(ex.pids)
    # The sums are made with the lanes last (`dot.contract`): the additions run there, along
    # contiguous lanes, and the accumulator comes back with the lanes first, contiguous, for
    # the ops after the loop.
    sums = np.moveaxis(made[dot.d], 0, -1)
    total = np.moveaxis(accumulator, 0, -1)
    for t in range(count):
        tile_sums = sums[..., t * lanes : (t + 1) * lanes].reshape(total.shape)
        if t == 0:
            total = np.add(total, tile_sums, dtype=np.float32)
        else:
            np.add(total, tile_sums, out=total, dtype=np.float32)
    accumulator = lanes_first(total)
    ex.hold(dot, dot.d, accumulator)
    return accumulator


def _per_lane(value: Any, type_: Attribute) -> bool:
    rank = len(type_.get_shape()) if isinstance(type_, ShapedType) else 0
    return np.ndim(value) > rank


def _widen(value: Any, type_: Attribute, count: int) -> Any:
    """A value from outside the loop on the group's lanes (per pid: repeated per iteration)."""
    if not _per_lane(value, type_):
        return value
    array = np.asarray(value)
    return np.tile(array, (count, *[1] * (array.ndim - 1)))


def _lanes_of(value: Any, type_: Attribute, t: int, lanes: int) -> Any:
    """Iteration `t`'s lanes of a side-by-side value (a value without lanes as it is)."""
    if not _per_lane(value, type_):
        return value
    return value[t * lanes : (t + 1) * lanes]
