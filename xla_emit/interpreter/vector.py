"""vector: per-lane vectors (trailing array dimensions) and vector memory accesses.

A vector value of type vector<4xbf16> is an array of shape (4,) when uniform
and (lanes, 4) otherwise. Transfers follow their permutation map (a vector
dimension runs along a tensor dimension or is broadcast) and `in_bounds`:
elements past the end of a dimension that is not in bounds read the padding
and are not written.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects import vector
from xdsl.dialects.builtin import VectorType
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr

from xla_emit.dialects.vector_ext import FromElementsOp, SplatOp
from xla_emit.interpreter.access import read, write
from xla_emit.interpreter.element_types import numpy_dtype, shaped_rank
from xla_emit.interpreter.executor import Array, Executor, Value, Values, lanes
from xla_emit.interpreter.memory import TensorValue
from xla_emit.interpreter.registry import OpImpls, impl, register_impls
from xla_emit.interpreter.scalars import typed


def _vector_shape(type_: Attribute) -> tuple[int, ...]:
    assert isinstance(type_, VectorType)
    return tuple(type_.get_shape())


def _has_lanes(value: Array, rank: int) -> bool:
    return np.ndim(value) > rank


def _transfer_dims(
    ex: Executor, op: vector.TransferReadOp | vector.TransferWriteOp
) -> list[int | None]:
    """For each vector dim, the tensor dim it runs along (None: broadcast)."""
    dims: list[int | None] = []
    for result in op.permutation_map.data.results:
        if isinstance(result, AffineDimExpr):
            dims.append(result.position)
        elif isinstance(result, AffineConstantExpr) and result.value == 0:
            dims.append(None)
        else:
            raise ex.error(op, f"has an unsupported permutation map {op.permutation_map.data}")
    return dims


def _element_indices(
    ex: Executor,
    op: vector.TransferReadOp | vector.TransferWriteOp,
    tensor: TensorValue,
    bases: Sequence[Value],
    shape: tuple[int, ...],
    in_bounds: Sequence[bool],
    mask: Value | None,
) -> tuple[list[Array], Array | None]:
    """Per tensor dim, the index of every vector element; and which elements are valid."""
    rank = len(shape)
    along = _transfer_dims(ex, op)
    indices: list[Array] = []
    for base in bases:
        base_array = np.asarray(base, np.int64)
        indices.append(base_array.reshape(base_array.shape + (1,) * rank))
    valid: Array | None = None
    for position, (dim, extent) in enumerate(zip(along, shape, strict=True)):
        if dim is None:
            continue
        step = np.arange(extent, dtype=np.int64).reshape((extent,) + (1,) * (rank - position - 1))
        indices[dim] = indices[dim] + step
        if not in_bounds[position]:
            inside = (indices[dim] >= 0) & (indices[dim] < tensor.buffer.shape[dim])
            valid = inside if valid is None else valid & inside
    if mask is not None:
        valid = np.asarray(mask) if valid is None else valid & np.asarray(mask)
    return indices, valid


def _is_contiguous_run(
    ex: Executor,
    op: vector.TransferReadOp | vector.TransferWriteOp,
    tensor: TensorValue,
    shape: tuple[int, ...],
    mask: Value | None,
) -> bool:
    """A 1-d, unmasked, in-bounds transfer along the last tensor dimension (the common case)."""
    last = len(tensor.buffer.shape) - 1
    return (
        len(shape) == 1
        and mask is None
        and last >= 0
        and _in_bounds(op, 1)[0]
        and _transfer_dims(ex, op) == [last]
    )


def _in_bounds(op: vector.TransferReadOp | vector.TransferWriteOp, rank: int) -> list[bool]:
    return [bool(flag.value.data) for flag in op.in_bounds.data] or [False] * rank


@register_impls
class VectorImpls(OpImpls):
    """vector ops over lanes."""

    @impl(vector.TransferReadOp)
    def run_transfer_read(self, ex: Executor, op: vector.TransferReadOp, args: Values) -> Values:
        shape = _vector_shape(op.result.type)
        tensor = args[0]
        assert isinstance(tensor, TensorValue)
        bases = args[1 : 1 + len(op.indices)]
        padding = args[1 + len(op.indices)]
        mask = args[2 + len(op.indices)] if op.mask is not None else None
        if _is_contiguous_run(ex, op, tensor, shape, mask):
            values = read(ex, op, tensor, [lanes(base) for base in bases], 1, run=shape[0])
            return (typed(np.asarray(values), op.result.type),)
        indices, valid = _element_indices(
            ex, op, tensor, bases, shape, _in_bounds(op, len(shape)), mask
        )
        values = read(ex, op, tensor, indices, len(shape), valid)
        values = np.broadcast_to(values, np.broadcast_shapes(np.shape(values), shape))
        if valid is not None:
            values = np.where(valid, values, lanes(padding))
        return (typed(np.ascontiguousarray(values), op.result.type),)

    @impl(vector.TransferWriteOp)
    def run_transfer_write(self, ex: Executor, op: vector.TransferWriteOp, args: Values) -> Values:
        shape = _vector_shape(op.vector.type)
        values, tensor = lanes(args[0]), args[1]
        assert isinstance(tensor, TensorValue)
        bases = [lanes(base) for base in args[2 : 2 + len(op.indices)]]
        mask = args[2 + len(op.indices)] if op.mask is not None else None
        if _is_contiguous_run(ex, op, tensor, shape, mask):
            updated = write(ex, op, tensor, bases, values, 1, run=shape[0])
            return (updated,) if op.result is not None else ()
        indices, valid = _element_indices(
            ex, op, tensor, bases, shape, _in_bounds(op, len(shape)), mask
        )
        updated = write(ex, op, tensor, indices, values, len(shape), valid)
        return (updated,) if op.result is not None else ()

    @impl(vector.LoadOp)
    def run_load(self, ex: Executor, op: vector.LoadOp, args: Values) -> Values:
        shape = _vector_shape(op.result.type)
        memref = args[0]
        assert isinstance(memref, TensorValue)
        indices = _trailing_indices(args[1:], shape)
        return (np.asarray(read(ex, op, memref, indices, len(shape))),)

    @impl(vector.StoreOp)
    def run_store(self, ex: Executor, op: vector.StoreOp, args: Values) -> Values:
        shape = _vector_shape(op.vector.type)
        memref = args[1]
        assert isinstance(memref, TensorValue)
        write(ex, op, memref, _trailing_indices(args[2:], shape), lanes(args[0]), len(shape))
        return ()

    @impl(vector.ExtractOp)
    def run_extract(self, ex: Executor, op: vector.ExtractOp, args: Values) -> Values:
        source = args[0]
        positions = _positions(op.get_mixed_position(), op.dynamic_position, args[1:])
        return (_take(ex, np.asarray(source), shaped_rank(op.vector.type), positions),)

    @impl(vector.InsertOp)
    def run_insert(self, ex: Executor, op: vector.InsertOp, args: Values) -> Values:
        source, dest = np.asarray(args[0]), np.asarray(args[1])
        positions = _positions(op.get_mixed_position(), op.dynamic_position, args[2:])
        rank = shaped_rank(op.dest.type)
        varying = (
            _has_lanes(dest, rank)
            or _has_lanes(source, shaped_rank(op.source.type))
            or any(np.ndim(p) > 0 for p in positions)
        )
        if not varying:
            result = dest.copy()
            result[tuple(int(p) for p in positions)] = source
            return (result,)
        result = np.array(ex.to_lanes(dest, rank))
        if all(np.ndim(p) == 0 for p in positions):
            result[(slice(None), *(int(p) for p in positions))] = source
        else:
            lane_ids = np.arange(ex.lanes.count)
            result[(lane_ids, *(np.asarray(p) for p in positions))] = source
        return (result,)

    @impl(vector.BroadcastOp)
    def run_broadcast(self, ex: Executor, op: vector.BroadcastOp, args: Values) -> Values:
        shape = _vector_shape(op.vector.type)
        source = np.asarray(args[0])
        source_rank = shaped_rank(op.source.type)
        if not _has_lanes(source, source_rank):
            return (np.broadcast_to(source, shape).copy(),)
        lead = source.reshape(
            (source.shape[0],) + (1,) * (len(shape) - source_rank) + source.shape[1:]
        )
        return (np.broadcast_to(lead, (source.shape[0], *shape)).copy(),)

    @impl(vector.FMAOp)
    def run_fma(self, _ex: Executor, op: vector.FMAOp, args: Values) -> Values:
        lhs, rhs, acc = (np.asarray(a, np.float64) for a in args)
        return (typed(lhs * rhs + acc, op.res.type),)

    @impl(vector.ReductionOp)
    def run_reduction(self, ex: Executor, op: vector.ReductionOp, args: Values) -> Values:
        source = np.asarray(args[0])
        combine = _COMBINERS.get(op.kind.data.value)
        if combine is None:
            raise ex.error(op, f"has an unsupported combining kind '{op.kind.data.value}'")
        # In order, element by element: reassociating would change float results.
        result = source[..., 0]
        for position in range(1, source.shape[-1]):
            result = combine(result, source[..., position])
        if op.acc is not None:
            result = combine(lanes(args[1]), result)
        return (typed(np.asarray(result), op.dest.type)[()],)

    @impl(vector.CreateMaskOp)
    def run_create_mask(self, ex: Executor, op: vector.CreateMaskOp, args: Values) -> Values:
        shape = _vector_shape(op.results[0].type)
        result: Array = np.asarray(True)
        for position, (size, extent) in enumerate(zip(args, shape, strict=True)):
            step = np.arange(extent).reshape((extent,) + (1,) * (len(shape) - position - 1))
            bound = np.asarray(size, np.int64)
            bound = bound.reshape(bound.shape + (1,) * len(shape))
            result = result & (step < bound)
        return (np.asarray(result) if np.ndim(result) else np.broadcast_to(result, shape).copy(),)

    @impl(vector.BitcastOp)
    def run_bitcast(self, _ex: Executor, op: vector.BitcastOp, args: Values) -> Values:
        source = np.ascontiguousarray(args[0])
        return (source.view(numpy_dtype(op.results[0].type)),)


def _trailing_indices(bases: Sequence[Value], shape: tuple[int, ...]) -> list[Array]:
    """vector.load/store: the vector covers the innermost tensor dimensions."""
    rank = len(shape)
    indices: list[Array] = []
    for base in bases:
        array = np.asarray(lanes(base), np.int64)
        indices.append(array.reshape(array.shape + (1,) * rank))
    first = len(bases) - rank
    for position, extent in enumerate(shape):
        step = np.arange(extent, dtype=np.int64).reshape((extent,) + (1,) * (rank - position - 1))
        indices[first + position] = indices[first + position] + step
    return indices


def _positions(
    mixed: Sequence[SSAValue | int], dynamic: Sequence[SSAValue], values: Values
) -> list[Array]:
    lookup = dict(zip(dynamic, values, strict=True))
    return [lanes(lookup[p] if isinstance(p, SSAValue) else np.int64(p)) for p in mixed]


def _take(ex: Executor, source: np.ndarray, rank: int, positions: list[Array]) -> Array:
    varying_positions = any(np.ndim(p) > 0 for p in positions)
    if not varying_positions:
        static = tuple(int(p) for p in positions)
        if not _has_lanes(source, rank):
            result = source[static]
            return result[()] if np.ndim(result) == 0 else result
        # One copy here instead of a strided walk in every op that reads the element
        # (numpy casts strided bf16 far slower than contiguous).
        return np.ascontiguousarray(source[(slice(None), *static)])
    lanes_source = ex.to_lanes(source, rank)
    return lanes_source[(np.arange(ex.lanes.count), *(np.asarray(p) for p in positions))]


_COMBINERS = {
    "add": np.add,
    "mul": np.multiply,
    "minsi": np.minimum,
    "maxsi": np.maximum,
    "minnumf": np.fmin,
    "maxnumf": np.fmax,
    "minimumf": np.minimum,
    "maximumf": np.maximum,
    "and": np.bitwise_and,
    "or": np.bitwise_or,
    "xor": np.bitwise_xor,
}


@register_impls
class VectorExtImpls(OpImpls):
    """The vector ops xDSL lacks (`dialects.vector_ext`)."""

    @impl(SplatOp)
    def run_splat(self, ex: Executor, op: SplatOp, args: Values) -> Values:
        shape = _vector_shape(op.result.type)
        source = np.asarray(args[0])
        if source.ndim == 0:
            return (np.full(shape, source, dtype=numpy_dtype(op.result.type)),)
        return (
            np.broadcast_to(
                source.reshape(source.shape + (1,) * len(shape)), (ex.lanes.count, *shape)
            ).copy(),
        )

    @impl(FromElementsOp)
    def run_from_elements(self, ex: Executor, op: FromElementsOp, args: Values) -> Values:
        shape = _vector_shape(op.result.type)
        dtype = numpy_dtype(op.result.type)
        elements = [lanes(arg) for arg in args]
        if all(np.ndim(element) == 0 for element in elements):
            return (np.asarray(elements, dtype=dtype).reshape(shape),)
        stacked = np.stack([ex.to_lanes(element, 0) for element in elements], axis=1)
        return (stacked.astype(dtype, copy=False).reshape((ex.lanes.count, *shape)),)
