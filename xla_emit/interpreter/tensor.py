"""tensor: element reads and writes (gathers/scatters) and tensors made in a kernel."""

from __future__ import annotations

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation

from xla_emit.interpreter.access import check_version, read, write
from xla_emit.interpreter.budget import result_label
from xla_emit.interpreter.element_types import numpy_dtype
from xla_emit.interpreter.executor import Array, Executor, Value, Values, lanes
from xla_emit.interpreter.memory import Buffer, BufferKind, Replication, TensorValue
from xla_emit.interpreter.registry import OpImpls, impl, register_impls


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
    index i of `sizes` (`tensor.parallel_insert_slice`).

    The source may drop unit dimensions of `sizes` (a rank-reducing insert): its
    elements in row-major order are the slice's.
    """
    count = int(np.prod(sizes, dtype=np.int64))
    if count != source.buffer.numel:
        raise ex.error(
            op, f"inserts a slice of sizes {sizes} from a source of {source.buffer.numel} elements"
        )
    if count == 0:
        return dest
    numbers = np.arange(count, dtype=np.int64)
    source_shape = source.buffer.shape
    if source_shape:
        values = read(ex, op, source, list(np.unravel_index(numbers, source_shape)), 1)
    else:
        values = np.asarray(read(ex, op, source, []))[..., None]
    positions = np.unravel_index(numbers, sizes)
    indices = [
        _per_lane(offset) + _per_lane(stride) * position
        for offset, stride, position in zip(offsets, strides, positions, strict=True)
    ]
    if ex.checks.bounds:
        _check_slice_bounds(ex, op, dest, offsets, sizes, strides)
    return write(ex, op, dest, indices, values, vector_rank=1)


def _per_lane(value: Array) -> Array:
    """A per-lane index as a column, so it combines with the slice's element positions."""
    array = np.asarray(value, np.int64)
    return array.reshape(-1, 1) if array.ndim else array


def _check_slice_bounds(
    ex: Executor,
    op: Operation,
    dest: TensorValue,
    offsets: list[Array],
    sizes: list[int],
    strides: list[Array],
) -> None:
    shape = dest.buffer.shape
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
            f"inserts a slice at offsets {at(offsets)} with sizes {sizes} and strides "
            f"{at(strides)} outside {dest.buffer.name} of shape {list(shape)} (dimension {dim})",
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

    @impl(tensor.DimOp)
    def run_dim(self, ex: Executor, op: tensor.DimOp, args: Values) -> Values:
        source = _tensor(args[0])
        check_version(ex, op, source)
        return (np.int64(source.buffer.shape[int(lanes(args[1]))]),)
