"""tensor: element reads and writes (gathers/scatters), slices, and tensors made in a kernel.

A slice (`extract_slice`, `insert_slice`, `parallel_insert_slice`) has one
size per dimension for all lanes, while its offsets and strides may differ
from lane to lane: each lane gathers or scatters its own elements.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.ir import Operation, SSAValue

from xla_emit.dialects.tensor_ext import ParallelInsertSliceOp
from xla_emit.interpreter.access import check_version, read, write
from xla_emit.interpreter.budget import result_label
from xla_emit.interpreter.element_types import numpy_dtype
from xla_emit.interpreter.executor import Array, Executor, Value, Values, lanes
from xla_emit.interpreter.memory import Buffer, BufferKind, Replication, TensorValue
from xla_emit.interpreter.registry import OpImpls, impl, register_impls

# Ops naming a slice by offsets, sizes and strides, each static or an index value.
SliceOp: TypeAlias = tensor.ExtractSliceOp | tensor.InsertSliceOp | ParallelInsertSliceOp


def _tensor(value: Value) -> TensorValue:
    assert isinstance(value, TensorValue), "tensor operands are TensorValues"
    return value


def private_tensor(
    ex: Executor,
    op: Operation,
    type_: TensorType,
    elements: list[Value] | None,
    dynamic_sizes: Values = (),
) -> TensorValue:
    """A tensor created inside the kernel by `op`: one copy, private per lane once a lane
    writes it."""
    sizes = iter(int(lanes(size)) for size in dynamic_sizes)
    shape = tuple(next(sizes) if extent < 0 else extent for extent in type_.get_shape())
    numel = int(np.prod(shape, dtype=np.int64))
    dtype = numpy_dtype(type_)
    label = result_label(op)
    scalars = [lanes(element) for element in elements] if elements is not None else []
    if all(np.ndim(scalar) == 0 for scalar in scalars):
        reservation = ex.hold(op, label, numel * dtype.itemsize)
        if elements is None:
            data = np.zeros(numel, dtype)
        else:
            data = np.asarray(scalars, dtype=dtype).reshape(-1)
        buffer = Buffer(reservation.keep(data), shape, BufferKind.PRIVATE, "a kernel-local tensor")
    else:
        count = ex.lanes.count
        what = f"{label} for {count} lanes"
        reservation = ex.hold(op, what, numel * dtype.itemsize * count)
        per_lane = np.stack([ex.to_lanes(scalar, 0) for scalar in scalars], axis=1).astype(dtype)
        data = reservation.keep(per_lane.reshape(-1))
        buffer = Buffer(data, shape, BufferKind.PRIVATE, "a kernel-local tensor", Replication.LANE)
    buffer.label = label
    return TensorValue(buffer, 0)


def slice_operands(ex: Executor, op: SliceOp) -> tuple[list[Array], list[int], list[Array]]:
    """The offsets, sizes and strides of a slice op, each static or read per lane.

    Sizes must be the same for every active lane (a tensor has one shape);
    offsets and strides may differ between lanes.
    """
    lists = (
        (op.static_offsets.get_values(), op.offsets, "offsets"),
        (op.static_sizes.get_values(), op.sizes, "sizes"),
        (op.static_strides.get_values(), op.strides, "strides"),
    )
    rank = len(_sliced(op).type.get_shape())  # pyright: ignore[reportAttributeAccessIssue]
    for static, _, what in lists:
        if len(static) != rank:
            raise ex.error(op, f"has {len(static)} {what} for a tensor of rank {rank}")
    offsets, sizes, strides = (_mixed_values(ex, static, dynamic) for static, dynamic, _ in lists)
    return offsets, _uniform_sizes(ex, op, sizes), strides


def _sliced(op: SliceOp) -> SSAValue:
    """The tensor whose elements the slice covers: the destination of an insert."""
    return op.source if isinstance(op, tensor.ExtractSliceOp) else op.dest


def _mixed_values(
    ex: Executor, static: tuple[int, ...], dynamic: Sequence[SSAValue]
) -> list[Array]:
    values = iter(dynamic)
    return [lanes(ex.env[next(values)] if v == DYNAMIC_INDEX else np.int64(v)) for v in static]


def _uniform_sizes(ex: Executor, op: Operation, sizes: list[Array]) -> list[int]:
    """Slice sizes, which must be the same for every active lane and not negative."""
    uniform: list[int] = []
    for dim, size in enumerate(sizes):
        if np.ndim(size):
            per_lane = ex.to_lanes(size, 0)
            active = ex.mask if ex.mask is not None else np.ones(ex.lanes.count, np.bool_)
            chosen = per_lane[active]
            lane = ex.first_lane(per_lane != chosen[0]) if chosen.size else None
            if lane is not None:
                raise ex.error(op, "has slice sizes that differ between threads", lane)
            size = chosen[0] if chosen.size else np.int64(0)
        if int(size) < 0:
            raise ex.error(op, f"has a negative slice size {int(size)} (dimension {dim})")
        uniform.append(int(size))
    return uniform


def _slice_indices(offsets: list[Array], sizes: list[int], strides: list[Array]) -> list[Array]:
    """Per dimension, the index of every element of the slice (row-major), per lane."""
    count = int(np.prod(sizes, dtype=np.int64))
    positions = np.unravel_index(np.arange(count, dtype=np.int64), sizes)
    return [
        _per_lane(offset) + _per_lane(stride) * position
        for offset, stride, position in zip(offsets, strides, positions, strict=True)
    ]


def insert_slice(
    ex: Executor,
    op: Operation,
    source: TensorValue,
    dest: TensorValue,
    offsets: list[Array],
    sizes: list[int],
    strides: list[Array],
) -> TensorValue:
    """Each active lane writes its `source` into `dest` at `offsets + i * strides`, for every
    index i of `sizes` (`tensor.insert_slice`, `tensor.parallel_insert_slice`).

    The source may drop unit dimensions of `sizes` (a rank-reducing insert): its
    elements in row-major order are the slice's.
    """
    count = int(np.prod(sizes, dtype=np.int64))
    if count != source.buffer.numel:
        raise ex.error(
            op, f"inserts a slice of sizes {sizes} from a source of {source.buffer.numel} elements"
        )
    if ex.checks.bounds:
        _check_slice_bounds(ex, op, "inserts", dest, offsets, sizes, strides)
    if count == 0:
        return dest
    numbers = np.arange(count, dtype=np.int64)
    source_shape = source.buffer.shape
    if source_shape:
        values = read(ex, op, source, list(np.unravel_index(numbers, source_shape)), 1)
    else:
        values = np.asarray(read(ex, op, source, []))[..., None]
    indices = _slice_indices(offsets, sizes, strides)
    return write(ex, op, dest, indices, values, vector_rank=1)


def extract_slice(
    ex: Executor,
    op: tensor.ExtractSliceOp,
    source: TensorValue,
    offsets: list[Array],
    sizes: list[int],
    strides: list[Array],
) -> TensorValue:
    """A new tensor holding each active lane's elements of `source` at `offsets + i * strides`.

    The result type may drop unit dimensions of `sizes` (rank-reducing); its
    dynamic dimensions are the dynamic sizes, in order.
    """
    if ex.checks.bounds:
        _check_slice_bounds(ex, op, "extracts", source, offsets, sizes, strides)
    result_type = op.result.type
    assert isinstance(result_type, TensorType)
    dynamic = iter(
        size
        for size, static in zip(sizes, op.static_sizes.get_values(), strict=True)
        if static == DYNAMIC_INDEX
    )
    shape = tuple(next(dynamic) if extent < 0 else extent for extent in result_type.get_shape())
    count = int(np.prod(sizes, dtype=np.int64))
    dtype = numpy_dtype(result_type)
    name = "a slice made in the kernel"
    copies = _copies(ex, source, [*offsets, *strides])
    # Its sizes are known only now: the meter checks the run's total before the slice exists.
    label = result_label(op) if copies == 1 else f"{result_label(op)} for {copies} lanes"
    reservation = ex.hold(op, label, count * np.dtype(dtype).itemsize * copies)
    if count == 0:
        empty = reservation.keep(np.zeros(0, dtype))
        return TensorValue(Buffer(empty, shape, BufferKind.PRIVATE, name), 0)
    values = np.asarray(read(ex, op, source, _slice_indices(offsets, sizes, strides), 1))
    if values.ndim == 1:
        data = reservation.keep(values.astype(dtype))
        return TensorValue(Buffer(data, shape, BufferKind.PRIVATE, name), 0)
    per_lane = np.ascontiguousarray(ex.to_lanes(values, 1), dtype=dtype).reshape(-1)
    data = reservation.keep(per_lane)
    return TensorValue(Buffer(data, shape, BufferKind.PRIVATE, name, Replication.LANE), 0)


def _copies(ex: Executor, source: TensorValue, positions: list[Array]) -> int:
    """How many copies of a slice the chunk holds: one per lane when lanes read their own
    (per-lane offsets or strides, a per-lane source)."""
    per_lane = source.buffer.replication is not Replication.GLOBAL or any(
        np.ndim(value) for value in positions
    )
    return ex.lanes.count if per_lane else 1


def _per_lane(value: Array) -> Array:
    """A per-lane index as a column, so it combines with the slice's element positions."""
    array = np.asarray(value, np.int64)
    return array.reshape(-1, 1) if array.ndim else array


def _check_slice_bounds(
    ex: Executor,
    op: Operation,
    verb: str,
    sliced: TensorValue,
    offsets: list[Array],
    sizes: list[int],
    strides: list[Array],
) -> None:
    """An empty slice is never outside; a non-empty one must start and end in every dimension."""
    if 0 in sizes:
        return
    shape = sliced.buffer.shape
    for dim, (offset, size, stride, extent) in enumerate(
        zip(offsets, sizes, strides, shape, strict=True)
    ):
        first = np.asarray(offset, np.int64)
        last = first + (size - 1) * np.asarray(stride, np.int64)
        outside = (np.minimum(first, last) < 0) | (np.maximum(first, last) >= extent)
        lane = ex.first_lane(np.asarray(outside))
        if lane is None:
            continue

        def at(values: list[Array], lane: int = lane) -> list[int]:
            return [int(np.asarray(v)[lane]) if np.ndim(v) else int(v) for v in values]

        raise ex.error(
            op,
            f"{verb} a slice at offsets {at(offsets)} with sizes {sizes} and strides "
            f"{at(strides)} outside {sliced.buffer.name} of shape {list(shape)} (dimension {dim})",
            lane,
        )


@register_impls
class TensorImpls(OpImpls):
    """tensor ops; tensors are buffers updated in place (see `memory`)."""

    @impl(tensor.ExtractOp)
    def run_extract(self, ex: Executor, op: tensor.ExtractOp, args: Values) -> Values:
        return (read(ex, op, _tensor(args[0]), [lanes(index) for index in args[1:]]),)

    @impl(tensor.InsertOp)
    def run_insert(self, ex: Executor, op: tensor.InsertOp, args: Values) -> Values:
        indices = [lanes(index) for index in args[2:]]
        return (write(ex, op, _tensor(args[1]), indices, lanes(args[0])),)

    @impl(tensor.EmptyOp)
    def run_empty(self, ex: Executor, op: tensor.EmptyOp, args: Values) -> Values:
        assert isinstance(op.tensor.type, TensorType)
        return (private_tensor(ex, op, op.tensor.type, None, args),)

    @impl(tensor.FromElementsOp)
    def run_from_elements(self, ex: Executor, op: tensor.FromElementsOp, args: Values) -> Values:
        assert isinstance(op.result.type, TensorType)
        return (private_tensor(ex, op, op.result.type, list(args)),)

    @impl(tensor.SplatOp)
    def run_splat(self, ex: Executor, op: tensor.SplatOp, args: Values) -> Values:
        assert isinstance(op.result.type, TensorType)
        type_ = op.result.type
        numel = int(np.prod(type_.get_shape(), dtype=np.int64))
        return (private_tensor(ex, op, type_, [args[0]] * numel, args[1:]),)

    @impl(tensor.InsertSliceOp)
    def run_insert_slice(self, ex: Executor, op: tensor.InsertSliceOp, args: Values) -> Values:
        offsets, sizes, strides = slice_operands(ex, op)
        return (insert_slice(ex, op, _tensor(args[0]), _tensor(args[1]), offsets, sizes, strides),)

    @impl(tensor.ExtractSliceOp)
    def run_extract_slice(self, ex: Executor, op: tensor.ExtractSliceOp, args: Values) -> Values:
        offsets, sizes, strides = slice_operands(ex, op)
        return (extract_slice(ex, op, _tensor(args[0]), offsets, sizes, strides),)

    @impl(tensor.DimOp)
    def run_dim(self, ex: Executor, op: tensor.DimOp, args: Values) -> Values:
        source = _tensor(args[0])
        check_version(ex, op, source)
        return (np.int64(source.buffer.shape[int(lanes(args[1]))]),)
