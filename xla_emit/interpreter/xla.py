"""xla: indexing, loops over indexing-map domains, calls and predicated/atomic accesses.

Ops are matched by their undecorated base classes, so the seed's `xla_gpu.`
spellings run the same code as today's `xla.` ones.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

import numpy as np
from xdsl.ir import Operation

from xla_emit.dialects.xla import (
    ApplyIndexingOpBase,
    AtomicRMWOp,
    LoopOpBase,
    PredicatedExtractOp,
    PredicatedInsertOp,
    PureCallOpBase,
    WorkgroupIdOp,
    YieldOpBase,
)
from xla_emit.interpreter.access import read, write
from xla_emit.interpreter.executor import Array, Executor, Value, Values, lanes
from xla_emit.interpreter.gpu import grid_extent
from xla_emit.interpreter.iteration_lanes import (
    batch_size,
    independent_iterations,
    repeat_lanes,
    run_batched,
)
from xla_emit.interpreter.lanes import AXES
from xla_emit.interpreter.memory import TensorValue
from xla_emit.interpreter.registry import GridAxis, OpImpls, grid_axis, impl, register_impls

# Bounds the memory the kept results of pure calls take in a chunk (each holds
# one value per lane).
_MAX_KEPT_PURE_CALLS = 256


def _lanes_key(mask: np.ndarray | None) -> object:
    return None if mask is None else mask.tobytes()


def _argument_key(value: Value) -> object:
    """Equal keys for equal argument values: tensors by buffer and version, lanes by content."""
    if isinstance(value, TensorValue):
        # Holding the buffer keeps its identity from being reused while the key lives.
        return (value.buffer, value.version)
    array = np.asarray(value)
    return (array.dtype.str, array.shape, array.tobytes())


def _index(value: int | np.ndarray | np.generic) -> np.ndarray | np.generic:
    return np.int64(value) if isinstance(value, int) else value


def _domain_mask(ex: Executor, inside: bool | np.ndarray) -> bool | np.ndarray:
    """True/False when uniform, else the active lanes inside the domain."""
    if isinstance(inside, bool | np.bool_) or np.ndim(inside) == 0:
        return bool(inside)
    return ex.combine_mask(np.broadcast_to(inside, (ex.lanes.count,)))


@grid_axis(WorkgroupIdOp)
def _workgroup_axis(op: Operation) -> GridAxis:
    assert isinstance(op, WorkgroupIdOp)
    return grid_extent(op, "block", str(op.dimension.data))


@register_impls
class XlaImpls(OpImpls):
    """xla ops (both spellings) over lanes."""

    @impl(ApplyIndexingOpBase)
    def run_apply_indexing(self, _ex: Executor, op: ApplyIndexingOpBase, args: Values) -> Values:
        indexing_map = op.indexing_map_attr.indexing_map
        operands = [lanes(arg) for arg in args]
        dims, symbols = operands[: indexing_map.num_dims], operands[indexing_map.num_dims :]
        return tuple(_index(r) for r in indexing_map.evaluate(dims, symbols))

    @impl(LoopOpBase)
    def run_loop(self, ex: Executor, op: LoopOpBase, args: Values) -> Values:
        indexing_map = op.indexing_map_attr.indexing_map
        if indexing_map.rt_vars:
            raise ex.error(
                op,
                "has runtime variables in its indexing map, which the interpreter does not support",
            )
        dims = [lanes(arg) for arg in args[: len(op.dims)]]
        values: Values = args[len(op.dims) :]
        ranges = [range(v.bounds.lower, v.bounds.upper + 1) for v in indexing_map.range_vars]
        trips = int(np.prod([len(r) for r in ranges], dtype=np.int64))
        if independent_iterations(ex, op):
            batch = batch_size(ex, op, values, trips)
            if batch > 1:
                return self._run_loop_batched(ex, op, dims, values, ranges, batch)
        # The first range variable is the outermost loop, as XLA lowers it.
        for point in itertools.product(*ranges):
            symbols = [np.int64(s) for s in point]
            active = _domain_mask(ex, indexing_map.is_in_domain(dims, symbols))
            if active is False:
                continue
            results = [_index(r) for r in indexing_map.evaluate(dims, symbols)]
            body_args = (*symbols, *results, *values)
            if active is True:
                values = ex.run_region(op.body, body_args)
                continue
            assert isinstance(active, np.ndarray)
            if not active.any():
                continue
            if ex.mask is None and active.all():
                values = ex.run_region(op.body, body_args)
                continue
            with ex.masked(active):
                new_values = ex.run_region(op.body, body_args)
            values = tuple(
                ex.merge(active, new, old, result.type, op)
                for new, old, result in zip(new_values, values, op.res, strict=True)
            )
        return values

    def _run_loop_batched(
        self,
        ex: Executor,
        op: LoopOpBase,
        dims: list[Array],
        values: Values,
        ranges: list[range],
        batch: int,
    ) -> Values:
        """Independent iterations, `batch` at a time as lanes (see `iteration_lanes`)."""
        indexing_map = op.indexing_map_attr.indexing_map
        extents = [len(r) for r in ranges]

        def batch_args(numbers: np.ndarray) -> tuple[list[Value], np.ndarray | None] | None:
            point = np.unravel_index(numbers, extents) if extents else ()
            symbols = [p + r.start for p, r in zip(point, ranges, strict=True)]
            batch_dims = [lanes(repeat_lanes(ex, d, 0)) for d in dims]
            active = _domain_mask(ex, indexing_map.is_in_domain(batch_dims, symbols))
            if active is False:
                return None
            mask = None if active is True else active
            if mask is not None and not mask.any():
                return None
            results = [_index(r) for r in indexing_map.evaluate(batch_dims, symbols)]
            return [*symbols, *results], mask

        trips = int(np.prod(extents, dtype=np.int64))
        return run_batched(ex, op, values, trips, batch, batch_args)

    @impl(PureCallOpBase)
    def run_pure_call(self, ex: Executor, op: PureCallOpBase, args: Values) -> Values:
        """A pure call runs once per distinct callee, arguments and active lanes in a chunk.

        XLA's CSE merges equal pure calls; without that, a callee whose body calls
        its own callee twice (`v = add(v, transpose(v))` fused, level after level)
        doubles the work at every level. Results that hold tensors are not kept:
        later in-place updates may reuse their buffers.
        """
        callee = op.callee.string_value()
        key = (callee, _lanes_key(ex.mask), *(_argument_key(a) for a in args))
        cached = ex.pure_call_results.get(key)
        if cached is not None:
            return cached
        results = ex.call_function(callee, args, op)
        if len(ex.pure_call_results) >= _MAX_KEPT_PURE_CALLS:
            ex.pure_call_results.clear()
        if not any(isinstance(result, TensorValue) for result in results):
            ex.pure_call_results[key] = results
        return results

    @impl(YieldOpBase)
    def run_yield(self, _ex: Executor, _op: YieldOpBase, args: Values) -> Values:
        return args

    @impl(WorkgroupIdOp)
    def run_workgroup_id(self, ex: Executor, op: WorkgroupIdOp, _args: Values) -> Values:
        return (ex.lanes.block_id(AXES.index(op.dimension.data.value)),)

    @impl(PredicatedInsertOp)
    def run_predicated_insert(self, ex: Executor, op: PredicatedInsertOp, args: Values) -> Values:
        value, dest, *indices, condition = args
        assert isinstance(dest, TensorValue)
        return (
            self._under_condition(
                ex,
                lanes(condition),
                lambda: write(ex, op, dest, [lanes(i) for i in indices], lanes(value)),
                dest,
            ),
        )

    @impl(PredicatedExtractOp)
    def run_predicated_extract(self, ex: Executor, op: PredicatedExtractOp, args: Values) -> Values:
        source, *index_values, condition_value, fallback = args
        assert isinstance(source, TensorValue)
        indices = [lanes(index) for index in index_values]
        condition = lanes(condition_value)
        if np.ndim(condition) == 0:
            return (read(ex, op, source, indices) if condition else fallback,)
        active = ex.combine_mask(np.asarray(condition))
        if not active.any():
            return (fallback,)
        with ex.masked(active):
            loaded = read(ex, op, source, indices)
        return (ex.merge(np.asarray(condition), loaded, fallback, op.result.type, op),)

    def _under_condition(
        self,
        ex: Executor,
        condition: Array,
        action: Callable[[], TensorValue],
        unchanged: TensorValue,
    ) -> TensorValue:
        if np.ndim(condition) == 0:
            return action() if condition else unchanged
        active = ex.combine_mask(np.asarray(condition))
        if not active.any():
            return unchanged
        with ex.masked(active):
            return action()

    @impl(AtomicRMWOp)
    def run_atomic_rmw(self, ex: Executor, op: AtomicRMWOp, args: Values) -> Values:
        tensor, *index_values = args
        assert isinstance(tensor, TensorValue)
        indices = [lanes(index) for index in index_values]
        # Lanes hitting distinct elements update at once; lanes sharing an
        # element take turns (in lane order), as the hardware serialises them.
        pending = ex.mask.copy() if ex.mask is not None else np.ones(ex.lanes.count, np.bool_)
        offsets = _element_keys(ex, tensor, indices)
        while pending.any():
            waiting = np.flatnonzero(pending)
            _, first = np.unique(offsets[waiting], return_index=True)
            turn = np.zeros_like(pending)
            turn[waiting[first]] = True
            with ex.masked(turn):
                current = read(ex, op, tensor, indices)
                (updated,) = ex.run_region(op.body, (current,))
                tensor = write(ex, op, tensor, indices, lanes(updated), atomic=True)
            pending &= ~turn
        return (tensor,)


def _element_keys(ex: Executor, tensor: TensorValue, indices: Sequence[Value]) -> np.ndarray:
    key = np.zeros(ex.lanes.count, np.int64)
    for index, stride in zip(indices, tensor.buffer.strides, strict=True):
        key = key + np.asarray(index, np.int64) * stride
    return np.broadcast_to(key, (ex.lanes.count,))
