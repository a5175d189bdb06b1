"""xla_gpu: shared memory, block barriers and warp reductions.

Shared memory has one copy per block of the chunk; chunks hold whole blocks,
so a block's threads always see the same copy and meet at the same barriers.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import TensorType

from xla_emit.dialects.gpu import ShuffleMode
from xla_emit.dialects.xla_gpu import WARP_SIZE, AllocateSharedOp, ShuffleReduceOp, SyncThreadsOp
from xla_emit.interpreter.budget import result_label
from xla_emit.interpreter.element_types import is_float, numpy_dtype
from xla_emit.interpreter.executor import Executor, Values, lanes
from xla_emit.interpreter.gpu import barrier, shuffle, shuffle_sources
from xla_emit.interpreter.memory import Buffer, BufferKind, Replication, TensorValue
from xla_emit.interpreter.registry import OpImpls, impl, register_impls


@register_impls
class XlaGpuImpls(OpImpls):
    """xla_gpu ops over lanes."""

    @impl(AllocateSharedOp)
    def run_allocate_shared(self, ex: Executor, op: AllocateSharedOp, _args: Values) -> Values:
        type_ = op.result.type
        assert isinstance(type_, TensorType)
        shape = tuple(type_.get_shape())
        numel = int(np.prod(shape, dtype=np.int64))
        dtype = numpy_dtype(type_)
        # NaN makes an unchecked read of uninitialised floats visible in the output.
        fill = np.nan if is_float(type_) else 0
        blocks = ex.lanes.num_blocks
        # One copy per block of the chunk, and with write checks two int32 per element.
        per_element = dtype.itemsize + (8 if ex.checks.tracks_writes else 0)
        what = f"{result_label(op)} for {blocks} blocks"
        reservation = ex.hold(op, what, numel * blocks * per_element)
        data = reservation.keep(np.full(numel * blocks, fill, dtype=dtype))
        name = f"shared memory {(op.result.name_hint and '%' + op.result.name_hint) or ''}".rstrip()
        buffer = Buffer(data, shape, BufferKind.SHARED, name, Replication.BLOCK)
        buffer.label = result_label(op)
        if ex.checks.tracks_writes:
            buffer.start_tracking(initialized=False)
        return (TensorValue(buffer, 0),)

    @impl(SyncThreadsOp)
    def run_sync_threads(self, ex: Executor, op: SyncThreadsOp, args: Values) -> Values:
        barrier(ex, op)
        return args

    @impl(ShuffleReduceOp)
    def run_shuffle_reduce(self, ex: Executor, op: ShuffleReduceOp, args: Values) -> Values:
        values = tuple(np.asarray(ex.to_lanes(lanes(v), 0)) for v in args)
        distance = op.max_distance.value.data
        combiner = op.combiner.string_value()
        while distance > 0:
            source, valid = shuffle_sources(ex, ShuffleMode.DOWN, np.int64(distance), WARP_SIZE)
            shuffled = tuple(shuffle(ex, v, source, valid) for v in values)
            values = tuple(
                np.asarray(ex.to_lanes(lanes(v), 0))
                for v in ex.call_function(combiner, (*values, *shuffled), op)
            )
            distance //= 2
        return values
