"""memref: allocations, loads, stores and strided views.

A memref is a reference: unlike a tensor value it does not change when the
buffer behind it is written, so every use reads the buffer's current contents
(no version check). Allocations inside a kernel are private to each lane,
like `tensor.empty`.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import memref
from xdsl.dialects.builtin import MemRefType

from xla_emit.interpreter.access import read, write
from xla_emit.interpreter.budget import result_label
from xla_emit.interpreter.element_types import numpy_dtype
from xla_emit.interpreter.executor import Executor, Value, Values, lanes
from xla_emit.interpreter.memory import Buffer, BufferKind, TensorValue
from xla_emit.interpreter.registry import OpImpls, impl, register_impls

DYNAMIC = -9223372036854775808


def current(ex: Executor, value: Value) -> TensorValue:
    """The memref's buffer at its newest version (memrefs always see the latest contents)."""
    assert isinstance(value, TensorValue), "memref operands are TensorValues"
    return TensorValue(value.buffer, ex.version(value.buffer))


def _allocate(
    ex: Executor, op: memref.AllocOp | memref.AllocaOp, dynamic_sizes: Values
) -> TensorValue:
    type_ = op.memref.type
    assert isinstance(type_, MemRefType)
    sizes = iter(int(lanes(size)) for size in dynamic_sizes)
    shape = tuple(next(sizes) if extent < 0 else extent for extent in type_.get_shape())
    numel = int(np.prod(shape, dtype=np.int64))
    dtype = numpy_dtype(type_)
    reservation = ex.hold(op, result_label(op), numel * dtype.itemsize)
    data = reservation.keep(np.zeros(numel, dtype))
    buffer = Buffer(data, shape, BufferKind.PRIVATE, "a kernel-local memref")
    buffer.label = result_label(op)
    return TensorValue(buffer, 0)


def _mixed(static: tuple[int, ...], dynamic: Values) -> tuple[int, ...]:
    """Static entries with the dynamic ones (uniform operands) filled in."""
    values = iter(dynamic)
    result: list[int] = []
    for entry in static:
        if entry == DYNAMIC:
            value = lanes(next(values))
            if np.ndim(value):
                raise ValueError("lane-varying subview operands")
            result.append(int(value))
        else:
            result.append(entry)
    return tuple(result)


@register_impls
class MemrefImpls(OpImpls):
    """memref ops over lanes."""

    @impl(memref.AllocOp, memref.AllocaOp)
    def run_alloc(self, ex: Executor, op: memref.AllocOp | memref.AllocaOp, args: Values) -> Values:
        return (_allocate(ex, op, args[: len(op.dynamic_sizes)]),)

    @impl(memref.DeallocOp)
    def run_dealloc(self, _ex: Executor, _op: memref.DeallocOp, _args: Values) -> Values:
        # The buffer is freed, and leaves the memory budget, when its last value dies.
        return ()

    @impl(memref.LoadOp)
    def run_load(self, ex: Executor, op: memref.LoadOp, args: Values) -> Values:
        return (read(ex, op, current(ex, args[0]), [lanes(index) for index in args[1:]]),)

    @impl(memref.StoreOp)
    def run_store(self, ex: Executor, op: memref.StoreOp, args: Values) -> Values:
        indices = [lanes(index) for index in args[2:]]
        write(ex, op, current(ex, args[1]), indices, lanes(args[0]))
        return ()

    @impl(memref.SubviewOp)
    def run_subview(self, ex: Executor, op: memref.SubviewOp, args: Values) -> Values:
        source = current(ex, args[0])
        dynamic = args[1:]
        counts = (len(op.offsets), len(op.sizes), len(op.strides))
        try:
            offsets = _mixed(op.static_offsets.get_values(), dynamic[: counts[0]])
            sizes = _mixed(op.static_sizes.get_values(), dynamic[counts[0] : counts[0] + counts[1]])
            steps = _mixed(op.static_strides.get_values(), dynamic[counts[0] + counts[1] :])
        except ValueError:
            raise ex.error(
                op,
                "has lane-varying offsets, sizes or strides, which the interpreter does not "
                "support",
            ) from None
        result_type = op.result.type
        assert isinstance(result_type, MemRefType)
        kept = tuple(result_type.get_shape())
        if len(kept) != len(sizes):
            raise ex.error(op, "drops dimensions, which the interpreter does not support")
        view = source.buffer.view(offsets, sizes, steps, f"a view of {source.buffer.name}")
        return (TensorValue(view, 0),)

    @impl(memref.CopyOp)
    def run_copy(self, ex: Executor, op: memref.CopyOp, args: Values) -> Values:
        source, target = current(ex, args[0]), current(ex, args[1])
        # Every element at once: one index array per dimension, the elements as a vector.
        grid = list(np.indices(source.buffer.shape).reshape(len(source.buffer.shape), -1))
        values = read(ex, op, source, grid, vector_rank=1)
        write(ex, op, target, grid, values, vector_rank=1)
        return ()
