"""scf: loops and conditionals, uniform or lane-varying.

Uniform control flow runs in Python. A lane-varying `scf.if` runs only the
branches some active lane takes, each under its lanes' mask, and merges the
results per lane. Loops whose bounds or conditions vary per lane iterate
until no lane is active, every lane keeping its own iteration values.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation, SSAValue

from xla_emit.diagnostics import UserError
from xla_emit.dialects.scf_ext import ForallOp, InParallelOp
from xla_emit.dialects.tensor_ext import ParallelInsertSliceOp
from xla_emit.interpreter.executor import Array, Executor, Value, Values, lanes
from xla_emit.interpreter.forall_lanes import forall_in_each_lane as _forall_in_each_lane
from xla_emit.interpreter.iteration_lanes import batch_size, independent_iterations, run_batched
from xla_emit.interpreter.lanes import AXES
from xla_emit.interpreter.memory import TensorValue
from xla_emit.interpreter.registry import GridAxis, OpImpls, grid_axis, impl, register_impls
from xla_emit.interpreter.tensor import insert_slice, slice_operands


def _constant(bound: int | SSAValue) -> int | None:
    """A bound written as a number or as an `arith.constant` (MLIR folds those alike)."""
    if isinstance(bound, int):
        return bound
    owner = bound.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def constant_bounds(op: ForallOp) -> list[tuple[int, int, int]] | None:
    """(lower bound, upper bound, step) per dimension, or None if one is known only at run
    time."""
    bounds: list[tuple[int, int, int]] = []
    for lower, upper, step in zip(op.lower_bounds(), op.upper_bounds(), op.steps(), strict=True):
        values = (_constant(lower), _constant(upper), _constant(step))
        if values[0] is None or values[1] is None or values[2] is None:
            return None
        bounds.append((values[0], values[1], values[2]))
    return bounds


def forall_trips(op: ForallOp) -> list[tuple[int, int, int]]:
    """(lower bound, step, trips) per dimension of a forall that maps threads."""
    bounds = constant_bounds(op)
    assert bounds is not None, "only a forall with constant bounds maps threads"
    trips: list[tuple[int, int, int]] = []
    for lower, upper, step in bounds:
        if step <= 0:
            raise UserError(f"'scf.forall' has a non-positive step {step}")
        trips.append((lower, step, len(range(lower, upper, step))))
    return trips


def maps_threads(op: ForallOp) -> bool:
    """Whether `op`'s iterations are the threads of a block, x y z (XLA's loop emitter).

    A forall whose bounds are known only at run time cannot size the grid, nor
    can one of more dimensions than threads have: it runs its iterations in
    each lane (`forall_lanes`).
    """
    return op.rank <= len(AXES) and constant_bounds(op) is not None


@grid_axis(ForallOp)
def _forall_axes(op: Operation) -> tuple[GridAxis, ...] | None:
    assert isinstance(op, ForallOp)
    if not maps_threads(op):
        return None
    return tuple(("thread", axis, count) for axis, (_, _, count) in enumerate(forall_trips(op)))


def _parallel_insert(ex: Executor, op: ParallelInsertSliceOp, dest: TensorValue) -> TensorValue:
    """The shared output `dest` after every active iteration inserted its slice.

    A source that is the whole shared output, updated in place (XLA's kernels),
    is that output already; any other source is copied into `dest` lane by lane.
    """
    source = ex.env[op.source]
    assert isinstance(source, TensorValue)
    offsets, sizes, strides = slice_operands(ex, op)
    if source.buffer is dest.buffer:
        whole = (
            all(_is_uniform(o) and int(o) == 0 for o in offsets)
            and all(_is_uniform(s) and int(s) == 1 for s in strides)
            and sizes == list(dest.buffer.shape)
        )
        if not whole:
            raise ex.error(op, "inserts a part of a shared output into that same output")
        return source
    return insert_slice(ex, op, source, dest, offsets, sizes, strides)


def _and(mask: Array | None, condition: Array) -> Array:
    return condition if mask is None else mask & condition


def _is_uniform(value: Array) -> bool:
    return np.ndim(value) == 0


def run_conditional(ex: Executor, op: Operation, condition: Value) -> Values:
    """Run `op`'s then/else regions (its first two) for the lanes taking each."""
    then_region, else_region = op.regions[0], op.regions[1]
    has_else = bool(else_region.blocks)
    if _is_uniform(lanes(condition)):
        if condition:
            return ex.run_region(then_region, ())
        return ex.run_region(else_region, ()) if has_else else ()
    lanes_true = np.asarray(condition, dtype=np.bool_)
    takes_then = ex.combine_mask(lanes_true)
    takes_else = ex.combine_mask(~lanes_true)
    any_then = bool(takes_then.any())
    any_else = has_else and bool(takes_else.any())
    # Every active lane takes one branch, and an op without an else region has
    # no results: running only the taken branch needs no merge.
    if not any_else:
        if not any_then:
            return ()
        with ex.masked(takes_then):
            return ex.run_region(then_region, ())
    if not any_then:
        with ex.masked(takes_else):
            return ex.run_region(else_region, ())
    with ex.branch_versions() as join:
        with ex.masked(takes_then), join():
            then_values = ex.run_region(then_region, ())
        with ex.masked(takes_else), join():
            else_values = ex.run_region(else_region, ())
    return tuple(
        ex.merge(lanes_true, then_value, else_value, result.type, op)
        for then_value, else_value, result in zip(then_values, else_values, op.results, strict=True)
    )


@register_impls
class ScfImpls(OpImpls):
    """scf.for, scf.if, scf.while and their terminators."""

    @impl(scf.IfOp)
    def run_if(self, ex: Executor, op: scf.IfOp, args: Values) -> Values:
        return run_conditional(ex, op, args[0])

    @impl(scf.ForOp)
    def run_for(self, ex: Executor, op: scf.ForOp, args: Values) -> Values:
        lower, upper, step = (lanes(bound) for bound in args[:3])
        carried = args[3:]
        if _is_uniform(lower) and _is_uniform(upper) and _is_uniform(step):
            return self._uniform_for(ex, op, lower, upper, step, list(carried))
        return self._varying_for(ex, op, lower, upper, step, list(carried))

    def _uniform_for(
        self,
        ex: Executor,
        op: scf.ForOp,
        lower: Array,
        upper: Array,
        step: Array,
        carried: list[Value],
    ) -> Values:
        if int(step) <= 0:
            raise ex.error(op, f"has a non-positive step {int(step)}")
        # The induction variable keeps the bounds' numpy scalar type.
        iv_type = lower.dtype.type
        values: Values = tuple(carried)
        trips = len(range(int(lower), int(upper), int(step)))
        if independent_iterations(ex, op):
            batch = batch_size(ex, op, values, trips)
            if batch > 1:
                first, stride = int(lower), int(step)
                return run_batched(
                    ex,
                    op,
                    values,
                    trips,
                    batch,
                    lambda numbers: ([(first + numbers * stride).astype(iv_type)], None),
                )
        for iv in range(int(lower), int(upper), int(step)):
            values = ex.run_region(op.body, (iv_type(iv), *values))
        return values

    def _varying_for(
        self,
        ex: Executor,
        op: scf.ForOp,
        lower: Array,
        upper: Array,
        step: Array,
        carried: list[Value],
    ) -> Values:
        iv = np.array(ex.to_lanes(lower, 0))
        upper_lanes = ex.to_lanes(upper, 0)
        step_lanes = ex.to_lanes(step, 0)
        lane = ex.first_lane(step_lanes <= 0)
        if lane is not None:
            raise ex.error(op, "has a non-positive step", lane)
        values: Values = tuple(carried)
        while True:
            running = ex.combine_mask(iv < upper_lanes)
            if not running.any():
                return values
            with ex.masked(running):
                new_values = ex.run_region(op.body, (iv, *values))
            values = tuple(
                ex.merge(running, new, old, result.type, op)
                for new, old, result in zip(new_values, values, op.results, strict=True)
            )
            iv = iv + step_lanes

    @impl(scf.WhileOp)
    def run_while(self, ex: Executor, op: scf.WhileOp, args: Values) -> Values:
        values: Values = args
        exited: Values | None = None
        running = ex.mask
        while True:
            with ex.masked(running):
                condition_value, *forwarded = ex.run_region(op.before_region, values)
            condition = lanes(condition_value)
            if _is_uniform(condition) and running is None:
                if not condition:
                    return tuple(forwarded)
                values = ex.run_region(op.after_region, tuple(forwarded))
                continue
            lanes_true = np.broadcast_to(np.asarray(condition, np.bool_), (ex.lanes.count,))
            leaving = np.logical_not(lanes_true)
            leaving = leaving if running is None else leaving & running
            exited = (
                tuple(forwarded)
                if exited is None
                else tuple(
                    ex.merge(leaving, new, old, result.type, op)
                    for new, old, result in zip(forwarded, exited, op.results, strict=True)
                )
            )
            running = ex.combine_mask(lanes_true) if running is None else running & lanes_true
            if not running.any():
                return exited
            with ex.masked(running):
                values = ex.run_region(op.after_region, tuple(forwarded))

    @impl(scf.IndexSwitchOp)
    def run_index_switch(self, ex: Executor, op: scf.IndexSwitchOp, args: Values) -> Values:
        selector = lanes(args[0])
        cases = op.cases.get_values()
        if _is_uniform(selector):
            chosen = cases.index(int(selector)) if int(selector) in cases else None
            region = op.default_region if chosen is None else op.case_regions[chosen]
            return ex.run_region(region, ())
        # Lane-varying: every region some active lane takes, under its lanes' mask.
        lanes_selector = np.asarray(selector)
        taken = np.isin(lanes_selector, cases)
        branches = [
            (lanes_selector == case, region)
            for case, region in zip(cases, op.case_regions, strict=True)
        ]
        branches.append((~taken, op.default_region))
        results: Values | None = None
        with ex.branch_versions() as join:
            for condition, region in branches:
                active = ex.combine_mask(condition)
                if not active.any():
                    continue
                with ex.masked(active), join():
                    values = ex.run_region(region, ())
                results = (
                    values
                    if results is None
                    else tuple(
                        ex.merge(condition, new, old, result.type, op)
                        for new, old, result in zip(values, results, op.output, strict=True)
                    )
                )
        return results if results is not None else ()

    @impl(scf.ExecuteRegionOp)
    def run_execute_region(self, ex: Executor, op: scf.ExecuteRegionOp, _args: Values) -> Values:
        if len(op.region.blocks) != 1:
            raise ex.error(op, "has several blocks; the interpreter runs single-block regions only")
        return ex.run_region(op.region, ())

    @impl(ForallOp)
    def run_forall(self, ex: Executor, op: ForallOp, args: Values) -> Values:
        if not maps_threads(op):
            return _forall_in_each_lane(ex, op, args)
        return self._forall_on_threads(ex, op, args)

    def _forall_on_threads(self, ex: Executor, op: ForallOp, args: Values) -> Values:
        """Iteration i along an axis is thread i (lb + i * step); threads past the trips idle."""
        outputs = args[op.num_bound_operands :]
        ivs: list[Array] = []
        running: Array | None = None
        for axis, (lower, step, trips) in enumerate(forall_trips(op)):
            thread = np.asarray(ex.lanes.thread_id(axis))
            ivs.append(lower + thread * step if (lower, step) != (0, 1) else thread)
            if trips < ex.grid.threads[axis]:
                running = _and(running, ex.to_lanes(thread < trips, 0))
        # Threads along an axis the forall does not map (another forall does) idle.
        for axis in range(op.rank, len(AXES)):
            if ex.grid.threads[axis] > 1:
                running = _and(running, ex.to_lanes(ex.lanes.thread_id(axis) == 0, 0))
        if running is None:
            updated = ex.run_region(op.body, (*ivs, *outputs))
        else:
            active = ex.combine_mask(running)
            if not active.any():
                return tuple(outputs)
            with ex.masked(active):
                updated = ex.run_region(op.body, (*ivs, *outputs))
        results = dict(zip(op.shared_outs, outputs, strict=True))
        in_parallel = op.body.block.last_op
        assert isinstance(in_parallel, InParallelOp)
        inserts = [i for i in in_parallel.body.ops if isinstance(i, ParallelInsertSliceOp)]
        for insert, value in zip(inserts, updated, strict=True):
            results[insert.dest] = value
        return tuple(results[out] for out in op.shared_outs)

    @impl(InParallelOp)
    def run_in_parallel(self, ex: Executor, op: InParallelOp, _args: Values) -> Values:
        values: list[Value] = []
        # Several inserts into one shared output update it one after another.
        newest: dict[SSAValue, TensorValue] = {}
        for insert in op.body.ops:
            if not isinstance(insert, ParallelInsertSliceOp):
                raise ex.error(insert, "is not supported inside scf.forall.in_parallel")
            dest = newest.get(insert.dest) or ex.env[insert.dest]
            assert isinstance(dest, TensorValue)
            newest[insert.dest] = _parallel_insert(ex, insert, dest)
            values.append(newest[insert.dest])
        return tuple(values)

    @impl(scf.YieldOp, scf.ConditionOp)
    def run_yield(self, _ex: Executor, _op: Operation, args: Values) -> Values:
        return args
