"""tensor: element reads and writes (gathers/scatters) and tensors made in a kernel."""

from __future__ import annotations

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.builtin import TensorType

from xla_emit.interpreter.access import check_version, read, write
from xla_emit.interpreter.element_types import numpy_dtype
from xla_emit.interpreter.executor import Executor, Value, Values, lanes
from xla_emit.interpreter.memory import Buffer, BufferKind, Replication, TensorValue
from xla_emit.interpreter.registry import OpImpls, impl, register_impls


def _tensor(value: Value) -> TensorValue:
    assert isinstance(value, TensorValue), "tensor operands are TensorValues"
    return value


def private_tensor(
    ex: Executor, type_: TensorType, elements: list[Value] | None, dynamic_sizes: Values = ()
) -> TensorValue:
    """A tensor created inside the kernel: one copy, private per lane once a lane writes it."""
    sizes = iter(int(lanes(size)) for size in dynamic_sizes)
    shape = tuple(next(sizes) if extent < 0 else extent for extent in type_.get_shape())
    numel = int(np.prod(shape, dtype=np.int64))
    dtype = numpy_dtype(type_)
    if elements is None:
        return TensorValue(
            Buffer(np.zeros(numel, dtype), shape, BufferKind.PRIVATE, "a kernel-local tensor"), 0
        )
    scalars = [lanes(element) for element in elements]
    if all(np.ndim(scalar) == 0 for scalar in scalars):
        data = np.asarray(scalars, dtype=dtype).reshape(-1)
        return TensorValue(Buffer(data, shape, BufferKind.PRIVATE, "a kernel-local tensor"), 0)
    per_lane = np.stack([ex.to_lanes(scalar, 0) for scalar in scalars], axis=1).astype(dtype)
    buffer = Buffer(
        per_lane.reshape(-1), shape, BufferKind.PRIVATE, "a kernel-local tensor", Replication.LANE
    )
    return TensorValue(buffer, 0)


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
        return (private_tensor(ex, op.tensor.type, None, args),)

    @impl(tensor.FromElementsOp)
    def run_from_elements(self, ex: Executor, op: tensor.FromElementsOp, args: Values) -> Values:
        assert isinstance(op.result.type, TensorType)
        return (private_tensor(ex, op.result.type, list(args)),)

    @impl(tensor.SplatOp)
    def run_splat(self, ex: Executor, op: tensor.SplatOp, args: Values) -> Values:
        assert isinstance(op.result.type, TensorType)
        type_ = op.result.type
        numel = int(np.prod(type_.get_shape(), dtype=np.int64))
        return (private_tensor(ex, type_, [args[0]] * numel, args[1:]),)

    @impl(tensor.DimOp)
    def run_dim(self, ex: Executor, op: tensor.DimOp, args: Values) -> Values:
        source = _tensor(args[0])
        check_version(ex, op, source)
        return (np.int64(source.buffer.shape[int(lanes(args[1]))]),)
