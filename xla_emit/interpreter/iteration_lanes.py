"""Independent loop iterations run side by side, as extra lanes.

XLA:CPU runs a fusion on one or two threads, each looping over 100k elements:
one iteration at a time, the interpreter would pay Python's cost per op per
element. But the iterations of such a loop are independent: each writes its
elements of the output and reads nothing another iteration wrote. They can
run like threads: the chunk's lanes are repeated once per iteration of a
batch (iteration major, see `LaneSet.with_iterations`), the values the body
captures are repeated with them, and the body runs once per batch.

A loop qualifies (`independent_iterations`) when it carries only tensors,
each carried tensor is only ever the destination of element or slice writes
on its way to the loop's yield (never read, passed to a call or sliced), the
body and its callees do nothing that depends on where a lane is (barriers,
shuffles, shared memory, atomics) or writes to any other tensor than those
and tensors they create, and no slice takes its sizes from a value the body
computes (the lanes of a batch share one shape). An `scf.forall` run in each
lane (`forall_lanes`) qualifies the same way, its shared outputs written by
its `parallel_insert_slice`s taking the carried tensors' part. Such a loop
computes the same thing either way; if two iterations of one thread write one
element, the later one's value stays, as it would run one at a time (`access`
keeps the last write).

At run time the carried tensors must be kernel buffers (not per-lane private
copies) that no captured value aliases; otherwise the loop runs one iteration
at a time, as does a loop whose batch would hold a single iteration.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator, Sequence
from contextlib import contextmanager

import numpy as np
from xdsl.dialects import scf, tensor
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, Operation, SSAValue

from xla_emit.dialects.scf_ext import ForallOp
from xla_emit.dialects.tensor_ext import ParallelInsertSliceOp
from xla_emit.dialects.xla import LoopOpBase, PredicatedInsertOp, YieldOpBase
from xla_emit.interpreter.element_types import shaped_rank
from xla_emit.interpreter.executor import Executor, Value, Values
from xla_emit.interpreter.memory import BufferKind, Replication, TensorValue

# Ops whose results depend only on their operands, whichever lane runs them.
_LANE_FREE_DIALECTS = ("arith.", "math.", "complex.")
_LANE_FREE_OPS = frozenset(
    {
        *(
            f"{dialect}.{name}"
            for dialect in ("xla", "xla_gpu")
            for name in (
                "apply_indexing",
                "pure_call",
                "yield",
                "loop",
                "predicated_extract",
                "workgroup_id",
            )
        ),
        "gpu.thread_id",
        "gpu.block_id",
        "func.call",
        "func.return",
        "scf.if",
        "scf.for",
        "scf.yield",
        "scf.index_switch",
        "tensor.extract",
        "tensor.extract_slice",
        "tensor.dim",
        "tensor.empty",
        "tensor.from_elements",
        "tensor.splat",
        "vector.broadcast",
        "vector.extract",
        "vector.insert",
        "vector.splat",
        "vector.reduction",
        "vector.transfer_read",
        "vector.from_elements",
        "scf.forall.in_parallel",
    }
)
# Ops whose sizes give every lane of a batch one shape (see `_sizes_vary_inside`).
_SLICE_OPS = (tensor.ExtractSliceOp, tensor.InsertSliceOp, ParallelInsertSliceOp)
# Ops making a tensor a lane may write without anyone else seeing it.
_CREATING_OPS = frozenset(
    {"tensor.empty", "tensor.from_elements", "tensor.splat", "tensor.extract_slice"}
)

# The answers are kept in `Executor.op_facts` (the IR does not change while an
# executor runs it), under ("loop", op) and ("function", name). Chunks run on
# worker threads: one of them answers while the others wait (a function being
# looked at counts as not lane free until its answer is known).
_ANALYSIS = threading.Lock()


def _written_tensor(op: Operation) -> SSAValue | None:
    """The tensor an element or slice write updates (its result, if any, is the updated
    tensor)."""
    if isinstance(op, tensor.InsertOp | tensor.InsertSliceOp | ParallelInsertSliceOp):
        return op.dest
    if isinstance(op, PredicatedInsertOp):
        return op.dest
    return None


def _is_inside(value: SSAValue, op: Operation) -> bool:
    owner = value.owner
    parent = owner.parent_op() if isinstance(owner, Block) else owner
    return parent is not None and op.is_ancestor(parent)


def _captured_values(op: Operation) -> tuple[SSAValue, ...]:
    """The values `op`'s regions use but do not define, in first-use order."""
    seen: dict[SSAValue, None] = {}
    for inner in op.walk():
        if inner is op:
            continue
        for operand in inner.operands:
            if operand not in seen and not _is_inside(operand, op):
                seen[operand] = None
    return tuple(seen)


def _flows_to(user: Operation, position: int, loop: Operation) -> list[SSAValue] | None:
    """Where a carried tensor goes from operand `position` of `user` (None: not allowed)."""
    if _written_tensor(user) is user.operands[position] and user.results:
        return [user.results[0]]
    if isinstance(user, scf.YieldOp | YieldOpBase):
        parent = user.parent_op()
        if parent is loop or not isinstance(parent, scf.IfOp | scf.ForOp | LoopOpBase):
            return None
        return [parent.results[position]]
    if isinstance(user, scf.ForOp) and position >= 3:
        return [user.body.block.args[position - 2], user.results[position - 3]]
    if isinstance(user, LoopOpBase) and position >= len(user.dims):
        carried = position - len(user.dims)
        return [user.region_iter_args[carried], user.res[carried]]
    return None


def _carried_chains(
    loop: Operation, carried: Sequence[SSAValue], yielded: Sequence[SSAValue]
) -> set[SSAValue] | None:
    """Every value a carried tensor becomes inside `loop`, or None unless each carried
    tensor goes only through element writes (and nested loops, branches) to its own yield."""
    terminator = loop.regions[0].block.last_op
    chains: set[SSAValue] = set()
    for number, (start, end) in enumerate(zip(carried, yielded, strict=True)):
        if not isinstance(start.type, TensorType):
            return None
        reached = {start}
        pending = [start]
        while pending:
            for use in pending.pop().uses:
                if use.operation is terminator:
                    if use.index != number:
                        return None
                    continue
                targets = _flows_to(use.operation, use.index, loop)
                if targets is None:
                    return None
                fresh = [target for target in targets if target not in reached]
                reached.update(fresh)
                pending.extend(fresh)
        if end not in reached:
            return None
        chains |= reached
    return chains


def _shared_output_chains(forall: ForallOp) -> set[SSAValue] | None:
    """Every value a shared output becomes inside `forall`, or None unless each goes only
    through element and slice writes (and nested loops, branches) to its own
    `parallel_insert_slice`s, as destination or as the whole source."""
    chains: set[SSAValue] = set()
    for start in forall.shared_outs:
        reached = {start}
        pending = [start]
        while pending:
            for use in pending.pop().uses:
                user = use.operation
                if isinstance(user, ParallelInsertSliceOp):
                    if use.index == 0 and user.dest is not start:
                        return None
                    continue
                targets = _flows_to(user, use.index, forall)
                if targets is None:
                    return None
                fresh = [target for target in targets if target not in reached]
                reached.update(fresh)
                pending.extend(fresh)
        chains |= reached
    return chains


def _is_local(value: SSAValue, scope: Operation) -> bool:
    """A tensor created inside `scope` (and only written there since)."""
    while isinstance(value.owner, Operation) and scope.is_ancestor(value.owner):
        if value.owner.name in _CREATING_OPS:
            return True
        written = _written_tensor(value.owner)
        if written is None:
            return False
        value = written
    return False


def _body_is_lane_free(
    ex: Executor, scope: Operation, carried_chain: Callable[[SSAValue], bool]
) -> bool:
    """Every op of `scope`'s regions (and callees) runs the same on any lane and writes only
    carried tensors or tensors made in `scope`."""
    for op in scope.walk():
        if op is scope:
            continue
        written = _written_tensor(op)
        lane_free = op.name in _LANE_FREE_OPS or op.name.startswith(_LANE_FREE_DIALECTS)
        if not lane_free and written is None:
            return False
        if written is not None and not (carried_chain(written) or _is_local(written, scope)):
            return False
        if _sizes_vary_inside(op, scope):
            return False
        callee = op.properties.get("callee") or op.attributes.get("callee")
        if callee is not None and not _callee_is_lane_free(ex, callee):
            return False
    return True


def _sizes_vary_inside(op: Operation, scope: Operation) -> bool:
    """A slice whose sizes `scope` computes: they may differ from one iteration to the next,
    and the iterations of one batch share one shape."""
    if not isinstance(op, _SLICE_OPS):
        return False
    return any(_is_inside(size, scope) for size in op.sizes)


def _callee_is_lane_free(ex: Executor, callee: object) -> bool:
    name = getattr(callee, "string_value", lambda: None)()
    function = ex.functions.get(name) if isinstance(name, str) else None
    if function is None or not function.body.blocks:
        return False
    key = ("function", name)
    if key not in ex.op_facts:
        ex.op_facts[key] = False  # a recursive call is not lane free
        ex.op_facts[key] = _body_is_lane_free(ex, function, lambda _: False)
    return ex.op_facts[key]


def independent_iterations(ex: Executor, loop: Operation) -> bool:
    """Whether `loop`'s iterations may run side by side (see the module docstring).

    `loop` is an `xla.loop` or `scf.for`: its carried values are its body's last
    arguments, one per result, and its terminator yields their next values. Or an
    `scf.forall` (run in each lane): its shared outputs take that part, written
    by its `parallel_insert_slice`s.
    """
    return _loop_facts(ex, loop)[0]


def _loop_facts(ex: Executor, loop: Operation) -> tuple[bool, tuple[SSAValue, ...]]:
    """Whether `loop` is independent, and the values its body captures."""
    key = ("loop", loop)
    known = ex.op_facts.get(key)
    if known is not None:
        return known
    with _ANALYSIS:
        known = ex.op_facts.get(key)
        if known is not None:
            return known
        block = loop.regions[0].block
        if isinstance(loop, ForallOp):
            chains = _shared_output_chains(loop)
        else:
            carried = block.args[len(block.args) - len(loop.results) :]
            assert block.last_op is not None
            chains = _carried_chains(loop, carried, block.last_op.operands)
        independent = chains is not None and _body_is_lane_free(ex, loop, chains.__contains__)
        known = (independent, _captured_values(loop))
        ex.op_facts[key] = known
    return known


def batch_size(ex: Executor, loop: Operation, carried: Values, trips: int) -> int:
    """How many iterations of `loop` run at once (1: one at a time)."""
    if trips < 2 or ex.max_lanes // ex.lanes.count < 2:
        return 1
    buffers = []
    for value in carried:
        if not isinstance(value, TensorValue):
            return 1
        buffer = value.buffer
        if buffer.kind is BufferKind.PRIVATE or buffer.replication is not Replication.GLOBAL:
            return 1
        buffers.append(buffer)
    for captured in _loop_facts(ex, loop)[1]:
        value = ex.env.get(captured)
        if isinstance(value, TensorValue) and (
            value.buffer.replication is Replication.LANE
            or any(value.buffer.data is b.data for b in buffers)
        ):
            return 1
    return min(trips, ex.max_lanes // ex.lanes.count)


@contextmanager
def iteration_lanes(ex: Executor, loop: Operation, iterations: int) -> Generator[None]:
    """Run the body with the chunk's lanes repeated `iterations` times, iteration major.

    The values the loop captures are repeated with the lanes; everything is
    put back afterwards.
    """
    outer_lanes, outer_mask, outer_calls = ex.lanes, ex.mask, ex.pure_call_results
    saved: dict[SSAValue, Value] = {}
    for captured in _loop_facts(ex, loop)[1]:
        value = ex.env.get(captured)
        if value is None or isinstance(value, TensorValue):
            continue
        array = np.asarray(value)
        if array.ndim > shaped_rank(captured.type):
            saved[captured] = value
            ex.env[captured] = np.tile(array, (iterations,) + (1,) * (array.ndim - 1))
    ex.lanes = outer_lanes.with_iterations(iterations)
    ex.mask = None if outer_mask is None else np.tile(outer_mask, iterations)
    # Kept call results hold values of the outer lanes.
    ex.pure_call_results = {}
    try:
        yield
    finally:
        outer_lanes.epoch = ex.lanes.epoch
        ex.lanes, ex.mask, ex.pure_call_results = outer_lanes, outer_mask, outer_calls
        ex.env.update(saved)


def run_batched(
    ex: Executor,
    loop: Operation,
    carried: Values,
    trips: int,
    batch: int,
    batch_args: Callable[[np.ndarray], tuple[Sequence[Value], np.ndarray | None] | None],
) -> Values:
    """Run `trips` iterations of `loop`, `batch` at a time, carrying `carried`.

    `batch_args` gets each lane's iteration number (0 .. trips - 1) and gives the
    body's leading arguments and the lanes that run (None: every lane), or None
    when no lane of the batch runs.
    """
    values = carried
    outer_count = ex.lanes.count
    for start in range(0, trips, batch):
        count = min(batch, trips - start)
        with iteration_lanes(ex, loop, count):
            numbers = np.repeat(np.arange(start, start + count, dtype=np.int64), outer_count)
            prepared = batch_args(numbers)
            if prepared is None:
                continue
            leading, active = prepared
            with ex.masked(active if active is not None else ex.mask):
                values = ex.run_region(loop.regions[0], (*leading, *values))
    return tuple(_newest(ex, value) for value in values)


def repeat_lanes(ex: Executor, value: Value, rank: int) -> Value:
    """An outer value for the lanes of an iteration batch (uniform values stay as they are)."""
    if isinstance(value, TensorValue):
        return value
    array = np.asarray(value)
    if array.ndim <= rank or array.shape[0] == ex.lanes.count:
        return value
    return np.tile(array, (ex.lanes.count // array.shape[0],) + (1,) * (array.ndim - 1))


def _newest(ex: Executor, value: Value) -> Value:
    assert isinstance(value, TensorValue), "independent loops carry only tensors"
    return TensorValue(value.buffer, ex.version(value.buffer))
