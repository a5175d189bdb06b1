"""Gathers and scatters on buffers for every memory op, with the safety checks.

Indices come per tensor dimension; each is uniform or has a lane axis, and a
vector access adds trailing vector dimensions (one entry per element). A read
or write touches only the active lanes' elements; the checks report the
first offending lane:

- bounds: an index outside its dimension;
- races: two lanes writing one element of an output or shared buffer within
  one barrier interval (for outputs, lanes of different blocks always race);
- shared reads: reading a shared element another lane wrote in the current
  barrier interval (a missing `sync_threads`), or one nobody wrote yet.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.ir import Operation

from xla_emit.interpreter.executor import Array, Executor
from xla_emit.interpreter.memory import Buffer, BufferKind, Replication, TensorValue
from xla_emit.interpreter.poison import Origin


def check_version(ex: Executor, op: Operation, tensor: TensorValue) -> None:
    """Reject use of a tensor value that an in-place update has made stale."""
    if tensor.version != ex.version(tensor.buffer):
        raise ex.error(
            op,
            f"uses a value of {tensor.buffer.name} after a later update of the same buffer; "
            "the interpreter (like XLA's tensor lowering) needs each tensor value to be "
            "used before it is updated (destination-passing style)",
        )


def _copy_before_writing(ex: Executor, op: Operation, buffer: Buffer, varying: bool) -> None:
    """A kernel's own tensor gets a copy for every lane at its first lane-varying write, and
    a constant its own copy at its first write; the memory meter counts the copy first."""
    size = buffer.copy_size * buffer.data.itemsize
    if varying:
        what = f"{buffer.label} copied for {ex.lanes.count} lanes"
        reservation = ex.hold(op, what, size * ex.lanes.count)
        buffer.make_private_per_lane(ex.lanes, reservation.keep)
    else:
        reservation = ex.hold(op, f"{buffer.label} written", size)
        buffer.data = reservation.keep(buffer.data.copy())
        buffer.readonly = False


def _lane_axis(array: np.ndarray, vector_rank: int) -> bool:
    return array.ndim > vector_rank


def _active_elements(
    ex: Executor, shape: tuple[int, ...], vector_rank: int, element_mask: Array | None
) -> np.ndarray | None:
    """Which entries of an access of `shape` belong to active lanes and valid elements."""
    lane_mask = ex.mask
    if lane_mask is None and element_mask is None:
        return None
    selected = np.ones(shape, np.bool_)
    if lane_mask is not None:
        selected &= lane_mask.reshape(lane_mask.shape + (1,) * vector_rank)
    if element_mask is not None:
        selected &= element_mask
    return selected


def _check_bounds(
    ex: Executor,
    op: Operation,
    buffer: Buffer,
    indices: Sequence[Array],
    vector_rank: int,
    element_mask: Array | None,
    run: int = 0,
) -> None:
    last = len(buffer.shape) - 1
    for dim, (index, extent) in enumerate(zip(indices, buffer.shape, strict=True)):
        index_array = np.asarray(index)
        # A run of elements starting at the index must end inside the dimension.
        limit = extent - run + 1 if run and dim == last else extent
        outside = (index_array < 0) | (index_array >= limit)
        if element_mask is not None:
            outside = outside & element_mask
        if not outside.any():
            continue
        if _lane_axis(outside, 0 if run else vector_rank):
            per_lane = np.asarray(outside.reshape(outside.shape[0], -1).any(axis=1))
        else:
            per_lane = np.ones(ex.lanes.count, np.bool_)
        lane = ex.first_lane(per_lane)
        if lane is None:
            continue
        index_values: list[int | list[int]] = [
            _lane_entry(np.asarray(i), lane, 0 if run else vector_rank) for i in indices
        ]
        if run:
            start = index_values[-1]
            assert isinstance(start, int)
            index_values[-1] = list(range(start, start + run))
        raise ex.error(
            op,
            f"index {index_values} is out of bounds for {buffer.name} of shape "
            f"{list(buffer.shape)} (dimension {dim})",
            lane,
        )


def _lane_entry(index: np.ndarray, lane: int, vector_rank: int) -> int | list[int]:
    entry = index[lane] if _lane_axis(index, vector_rank) else index
    return int(entry) if np.ndim(entry) == 0 else [int(v) for v in np.ravel(entry)]


def _starts(
    ex: Executor, buffer: Buffer, indices: Sequence[Array], vector_rank: int, run: int = 0
) -> Array:
    """Flat position in `data` of each index (of each run's first element with `run`)."""
    linear: Array = np.asarray(buffer.offset, np.int64)
    for index, stride in zip(indices, buffer.strides, strict=True):
        linear = (
            linear + np.asarray(index, np.int64) * stride
            if stride != 1
            else linear + np.asarray(index, np.int64)
        )
    slots = buffer.slots(ex.lanes)
    if isinstance(slots, np.ndarray):
        linear = slots.reshape(slots.shape + (1,) * (0 if run else vector_rank)) + linear
    return linear


def _lanes_block(ex: Executor, buffer: Buffer, starts: Array, run: int) -> slice | None:
    """The slice of `data` holding every lane's run, when lane i's run follows lane i - 1's.

    Then a whole chunk reads or writes one block of memory, and a slice does
    what the gather or scatter of every element's position would do, faster.
    """
    count = ex.lanes.count
    if np.ndim(starts) != 1 or len(starts) != count or buffer.strides[-1:] != (1,):
        return None
    first = int(starts[0])
    if first < 0 or first + count * run > buffer.data.shape[0]:
        return None
    if not np.array_equal(starts, np.arange(first, first + count * run, run, dtype=np.int64)):
        return None
    return slice(first, first + count * run)


def _offsets(
    ex: Executor, buffer: Buffer, indices: Sequence[Array], vector_rank: int, run: int = 0
) -> np.ndarray:
    """Flat positions in `data`; with `run`, `run` consecutive elements from each index."""
    linear = _starts(ex, buffer, indices, vector_rank, run)
    if run:
        step = buffer.strides[-1] if buffer.strides else 1
        linear = np.asarray(linear)[..., None] + np.arange(0, run * step, step, dtype=np.int64)
    return np.asarray(linear)


def read(
    ex: Executor,
    op: Operation,
    tensor: TensorValue,
    indices: Sequence[Array],
    vector_rank: int = 0,
    element_mask: Array | None = None,
    run: int = 0,
) -> Array:
    """The elements at `indices` (per lane, with `vector_rank` trailing element dims).

    Elements outside `element_mask` are read from offset 0 and must be replaced
    by the caller (vector padding). With `run` (a 1-d vector along the last
    dimension), `indices` hold only each run's first element.
    """
    check_version(ex, op, tensor)
    buffer = tensor.buffer
    if ex.checks.bounds:
        _check_bounds(ex, op, buffer, indices, vector_rank, element_mask, run)
    if run and element_mask is None and ex.mask is None:
        block = _lanes_block(ex, buffer, _starts(ex, buffer, indices, vector_rank, run), run)
        if block is not None and not (buffer.tracked and buffer.kind is BufferKind.SHARED):
            # A copy: later writes to the buffer must not change a value already read.
            return buffer.data[block].reshape(ex.lanes.count, run).copy()
    offsets = _offsets(ex, buffer, indices, vector_rank, run)
    if element_mask is not None:
        offsets = np.where(element_mask, offsets, 0)
    if ex.mask is not None and _lane_axis(offsets, vector_rank):
        # Inactive lanes may hold any index; they read element 0 instead.
        offsets = np.where(ex.mask.reshape(ex.mask.shape + (1,) * vector_rank), offsets, 0)
    if buffer.tracked and buffer.kind is BufferKind.SHARED:
        _check_shared_read(ex, op, buffer, offsets, vector_rank, element_mask)
    try:
        values = buffer.data[offsets]
    except IndexError:
        raise _unchecked_out_of_bounds(ex, op) from None
    return values if np.ndim(values) else values[()]


def _unchecked_out_of_bounds(ex: Executor, op: Operation) -> Exception:
    return ex.error(op, "accesses memory out of bounds (turn bounds checks on to find the lane)")


def _check_shared_read(
    ex: Executor,
    op: Operation,
    buffer: Buffer,
    offsets: np.ndarray,
    vector_rank: int,
    element_mask: Array | None,
) -> None:
    assert buffer.writer is not None and buffer.write_epoch is not None
    shape = np.broadcast_shapes(offsets.shape, (ex.lanes.count,) + (1,) * vector_rank)
    full = np.broadcast_to(offsets, shape)
    readers = np.broadcast_to(ex.lanes.global_lane.reshape((-1,) + (1,) * vector_rank), shape)
    selected = _active_elements(ex, shape, vector_rank, element_mask)
    full_offsets, all_readers = full, readers
    if selected is not None:
        full, readers = full[selected], readers[selected]
    if ex.checks.uninitialized:
        _mark_unwritten(ex, op, buffer, full_offsets, all_readers, selected)
    full = np.clip(full.ravel(), 0, buffer.data.shape[0] - 1)
    readers = readers.ravel()
    writers = buffer.writer[full]
    if ex.checks.shared_reads:
        unsynced = (
            (writers >= 0) & (writers != readers) & (buffer.write_epoch[full] == ex.lanes.epoch)
        )
        hits = np.flatnonzero(unsynced)
        if hits.size:
            first = hits[0]
            raise ex.error(
                op,
                f"reads element {list(buffer.unravel(int(full[first])))} of {buffer.name} "
                "written by "
                f"{ex.grid.describe_lane(int(writers[first]))} without a barrier in between",
                _local(ex, int(readers[first])),
            )


def _mark_unwritten(
    ex: Executor,
    op: Operation,
    buffer: Buffer,
    offsets: np.ndarray,
    readers: np.ndarray,
    selected: np.ndarray | None,
) -> None:
    """Elements no thread has written poison the value read (an error only where they are
    used, see `poison`): marks in the read's shape, lanes first."""
    clipped = np.clip(offsets, 0, buffer.data.shape[0] - 1)
    assert buffer.writer is not None
    unwritten = buffer.writer[clipped] == -1
    if selected is not None:
        unwritten &= selected
    if not unwritten.any():
        return
    first = tuple(int(i) for i in np.argwhere(unwritten)[0])
    element = list(buffer.unravel(int(clipped[first])))
    origin = Origin(op, f"element {element} of {buffer.name}", _local(ex, int(readers[first])))
    ex.poison.read_unwritten(unwritten, origin)


def _local(ex: Executor, global_lane: int) -> int:
    return global_lane - ex.lanes.first_block * ex.grid.threads_per_block


def write(
    ex: Executor,
    op: Operation,
    tensor: TensorValue,
    indices: Sequence[Array],
    values: Array,
    vector_rank: int = 0,
    element_mask: Array | None = None,
    atomic: bool = False,
    run: int = 0,
) -> TensorValue:
    """Store `values` at `indices` for the active lanes; returns the buffer's new version.

    `atomic` stores (from `atomic_rmw`) never race with each other; `run` is as for `read`.
    """
    check_version(ex, op, tensor)
    buffer = tensor.buffer
    if buffer.readonly and buffer.kind is not BufferKind.PRIVATE:
        raise ex.error(op, f"writes into {buffer.name}, which is an input of the kernel")
    if ex.checks.bounds:
        _check_bounds(ex, op, buffer, indices, vector_rank, element_mask, run)
    values_array = np.asarray(values)
    varying = (
        ex.mask is not None
        or _lane_axis(values_array, vector_rank)
        or any(_lane_axis(np.asarray(i), 0 if run else vector_rank) for i in indices)
    )
    if (
        buffer.kind is BufferKind.PRIVATE
        and buffer.replication is Replication.GLOBAL
        and (varying or buffer.readonly)
    ):
        _copy_before_writing(ex, op, buffer, varying)
    unselected = not (buffer.tracked or ex.mask is not None or element_mask is not None)
    if run and unselected:
        block = _lanes_block(ex, buffer, _starts(ex, buffer, indices, vector_rank, run), run)
        if block is not None:
            buffer.data[block].reshape(ex.lanes.count, run)[...] = values_array
            return TensorValue(buffer, ex.bump_version(buffer))
    offsets = _offsets(ex, buffer, indices, vector_rank, run)
    if not unselected:
        _store_selected(ex, op, buffer, offsets, values_array, vector_rank, element_mask, atomic)
    else:
        # Every lane stores every element: one scatter (numpy broadcasts the values).
        shape = np.broadcast_shapes(offsets.shape, values_array.shape)
        _store(ex, op, buffer, np.broadcast_to(offsets, shape), values_array)
    return TensorValue(buffer, ex.bump_version(buffer))


def _store(
    ex: Executor, op: Operation, buffer: Buffer, offsets: np.ndarray, values: np.ndarray
) -> None:
    if ex.lanes.iterations > 1:
        offsets, values = _last_writes(offsets, values)
    try:
        buffer.data[offsets] = values
    except IndexError:
        raise _unchecked_out_of_bounds(ex, op) from None


def _last_writes(offsets: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The stores that stay when several lanes store to one element: the last lane's.

    Loop iterations running as lanes (iteration major) may store to one element
    of one thread's output; run one at a time, the last iteration's value stays.
    numpy leaves the order of repeated stores unspecified, so they are dropped.
    """
    shape = np.broadcast_shapes(np.shape(offsets), np.shape(values))
    flat_offsets = np.broadcast_to(offsets, shape).reshape(-1)
    _, from_end = np.unique(flat_offsets[::-1], return_index=True)
    if from_end.size == flat_offsets.size:
        return offsets, values
    keep = flat_offsets.size - 1 - from_end
    return flat_offsets[keep], np.broadcast_to(values, shape).reshape(-1)[keep]


def _store_selected(
    ex: Executor,
    op: Operation,
    buffer: Buffer,
    offsets: np.ndarray,
    values: np.ndarray,
    vector_rank: int,
    element_mask: Array | None,
    atomic: bool,
) -> None:
    """Store the active lanes' valid elements, recording writers for the checks."""
    shape = np.broadcast_shapes(offsets.shape, values.shape, (ex.lanes.count,) + (1,) * vector_rank)
    full_offsets = np.broadcast_to(offsets, shape)
    full_values = np.broadcast_to(values, shape)
    selected = _active_elements(ex, shape, vector_rank, element_mask)
    writers = np.broadcast_to(ex.lanes.global_lane.reshape((-1,) + (1,) * vector_rank), shape)
    if selected is not None:
        full_offsets, full_values, writers = (
            full_offsets[selected],
            full_values[selected],
            writers[selected],
        )
    if buffer.tracked:
        racing = ex.checks.races and not atomic
        _record_writes(ex, op, buffer, full_offsets.ravel(), writers.ravel(), check_races=racing)
    _store(ex, op, buffer, full_offsets, full_values)


def _record_writes(
    ex: Executor,
    op: Operation,
    buffer: Buffer,
    offsets: np.ndarray,
    writers: np.ndarray,
    check_races: bool,
) -> None:
    assert buffer.writer is not None and buffer.write_epoch is not None
    offsets = np.clip(offsets, 0, buffer.data.shape[0] - 1)
    if check_races:
        _check_races_within(ex, op, buffer, offsets, writers)
        previous = buffer.writer[offsets]
        tpb = ex.grid.threads_per_block
        conflict = (
            (previous >= 0)
            & (previous != writers)
            & (
                (previous // tpb != writers // tpb)
                | (buffer.write_epoch[offsets] == ex.lanes.epoch)
            )
        )
        hits = np.flatnonzero(conflict)
        if hits.size:
            first = hits[0]
            raise ex.error(
                op,
                f"writes element {list(buffer.unravel(int(offsets[first])))} of {buffer.name}, "
                f"which {ex.grid.describe_lane(int(previous[first]))} also wrote without a "
                "barrier in between (race)",
                _local(ex, int(writers[first])),
            )
    buffer.writer[offsets] = writers
    buffer.write_epoch[offsets] = ex.lanes.epoch


def _check_races_within(
    ex: Executor, op: Operation, buffer: Buffer, offsets: np.ndarray, writers: np.ndarray
) -> None:
    """Two lanes of one op storing to the same element."""
    if offsets.size < 2:
        return
    order = np.lexsort((writers, offsets))
    sorted_offsets, sorted_writers = offsets[order], writers[order]
    clash = (sorted_offsets[1:] == sorted_offsets[:-1]) & (
        sorted_writers[1:] != sorted_writers[:-1]
    )
    hits = np.flatnonzero(clash)
    if hits.size:
        first = hits[0]
        raise ex.error(
            op,
            f"writes element {list(buffer.unravel(int(sorted_offsets[first])))} of {buffer.name} "
            "from two threads at once: "
            f"{ex.grid.describe_lane(int(sorted_writers[first]))} also writes it (race)",
            _local(ex, int(sorted_writers[first + 1])),
        )
