"""The tile executor's handlers for the ops every stage holds: `xtile` tiles in and out,
`xla.apply_indexing` on the pid, constants and 0-d tensors."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

import numpy as np
from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType
from xdsl.ir import Operation

from xla_emit.dialects.xla import ApplyIndexingOpBase
from xla_emit.dialects.xtile import EntryFuncReturnOp, ExtractTileOp, InsertTileOp, MaskOp
from xla_emit.interpreter.element_types import numpy_dtype
from xla_emit.interpreter.registry import OpTable
from xla_emit.interpreter.scalar_arith import WholeValueArithImpls
from xla_emit.interpreter.tile.batched_loop import run_batched
from xla_emit.interpreter.tile.plan import operands_invariant
from xla_emit.interpreter.tile.tiles import TileAccess, TileFault, tile_access

if TYPE_CHECKING:
    from xla_emit.interpreter.tile.executor import Handler, TileExecutor


# Each dense constant's array, made once (read-only: every run shares it).
_DENSE: WeakKeyDictionary[Operation, np.ndarray] = WeakKeyDictionary()


def _dense_array(value: DenseIntOrFPElementsAttr) -> np.ndarray:
    type_ = value.get_type()
    values = np.array(value.get_values(), dtype=numpy_dtype(type_))
    shape = tuple(type_.get_shape())
    if values.size == 1:
        return np.broadcast_to(values.reshape(()), shape)
    values = values.reshape(shape)
    values.flags.writeable = False
    return values


def constant(ex: TileExecutor, op: Operation, _args: list[Any]) -> list[Any]:
    """Dense constants of any shape (a splat stays a broadcast view); scalars as in arith."""
    assert isinstance(op, arith.ConstantOp)
    value = op.value
    if isinstance(value, DenseIntOrFPElementsAttr):
        known = _DENSE.get(op)
        if known is None:
            known = _DENSE[op] = _dense_array(value)
        return [known]
    handler = _SCALAR_ARITH.lookup(arith.ConstantOp)
    assert handler is not None
    return handler(ex, op, [])


def tensor_extract(ex: TileExecutor, op: Operation, args: list[Any]) -> list[Any]:
    """The element of a 0-d tensor (per pid when the tensor is)."""
    assert isinstance(op, tensor.ExtractOp)
    if op.indices:
        raise ex.error(op, "with indices is not supported by the tile executor")
    return [args[0]]


def tensor_from_elements(ex: TileExecutor, op: Operation, args: list[Any]) -> list[Any]:
    """A 0-d tensor of one element (per pid when the element is)."""
    assert isinstance(op, tensor.FromElementsOp)
    if len(args) != 1:
        raise ex.error(op, "with more than one element is not supported by the tile executor")
    return [np.asarray(args[0], dtype=numpy_dtype(op.result.type))]


def apply_indexing(_ex: TileExecutor, op: Operation, args: list[Any]) -> list[Any]:
    assert isinstance(op, ApplyIndexingOpBase)
    indexing_map = op.indexing_map_attr.indexing_map
    values = [np.asarray(a, dtype=np.int64) for a in args]
    dims, symbols = values[: indexing_map.num_dims], values[indexing_map.num_dims :]
    return [np.asarray(r, dtype=np.int64) for r in indexing_map.evaluate(dims, symbols)]


@dataclass(frozen=True)
class _TileShapes:
    """What an extract or insert asks, read from its attributes once."""

    sizes: tuple[int, ...]
    strides: tuple[int, ...]
    # The sizes read from the buffer: 1 along a stride of 0.
    read_sizes: tuple[int, ...]
    result_shape: tuple[int, ...]


_SHAPES: WeakKeyDictionary[Operation, _TileShapes] = WeakKeyDictionary()


def _tile_shapes(op: ExtractTileOp | InsertTileOp) -> _TileShapes:
    known = _SHAPES.get(op)
    if known is None:
        sizes = tuple(op.full_tile_shape.get_values())
        strides = tuple(op.strides.get_values())
        read_sizes = tuple(
            1 if stride == 0 else size for size, stride in zip(sizes, strides, strict=True)
        )
        tile_type = op.result.type if isinstance(op, ExtractTileOp) else op.source.type
        assert isinstance(tile_type, TensorType)
        shape = tuple(tile_type.get_shape())
        known = _SHAPES[op] = _TileShapes(sizes, strides, read_sizes, shape)
    return known


def _access(
    ex: TileExecutor,
    op: ExtractTileOp | InsertTileOp,
    buffer: np.ndarray,
    offsets: list[Any],
    sizes: tuple[int, ...],
    writes: bool,
) -> TileAccess:
    """Where each pid's tile lies, made once per group of lanes where the offsets are the
    same at every launch."""
    kept = ex.kept_lanes()
    first = len(op.operands) - len(offsets)
    if kept is not None and operands_invariant(op, first):
        access = kept.accesses.get(op)
        if access is not None:
            return access
    try:
        access = tile_access(
            buffer.shape, ex.offsets(offsets), sizes, ex.pids, writes, ex.checks.races
        )
    except TileFault as fault:
        raise ex.fault(op, fault) from None
    if kept is not None and operands_invariant(op, first) and ex.may_keep(access.nbytes):
        kept.accesses[op] = access
    return access


def extract_tile(ex: TileExecutor, op: Operation, args: list[Any]) -> list[Any]:
    """Every pid's tile; a stride of 0 reads one element along that dimension for the whole
    tile (XLA writes it where a broadcast's operand is read at one offset)."""
    assert isinstance(op, ExtractTileOp)
    shapes = _tile_shapes(op)
    _check_strides(ex, op, shapes.strides, allowed=(0, 1))
    tiles = _access(ex, op, args[0], args[1:], shapes.read_sizes, False).read(args[0])
    if shapes.read_sizes != shapes.sizes:
        tiles = np.broadcast_to(tiles, (tiles.shape[0], *shapes.sizes))
    return [tiles.reshape(len(ex.pids), *shapes.result_shape)]


def insert_tile(ex: TileExecutor, op: Operation, args: list[Any]) -> list[Any]:
    assert isinstance(op, InsertTileOp)
    shapes = _tile_shapes(op)
    _check_strides(ex, op, shapes.strides)
    tiles = ex.per_pid(args[0], op.source.type).reshape(len(ex.pids), *shapes.sizes)
    buffer = args[1]
    work = buffer if buffer.flags.c_contiguous else np.ascontiguousarray(buffer)
    _access(ex, op, buffer, args[2:], shapes.sizes, True).write(work, tiles)
    if work is not buffer:
        buffer[...] = work
    return []


def _check_strides(
    ex: TileExecutor, op: Operation, strides: Sequence[int], allowed: Sequence[int] = (1,)
) -> None:
    if any(stride not in allowed for stride in strides):
        raise ex.error(op, f"with strides {list(strides)} is not supported by the tile executor")


def mask(ex: TileExecutor, op: Operation, args: list[Any]) -> list[Any]:
    """Positions of the tile at or past `bounds` become the value."""
    assert isinstance(op, MaskOp)
    tiles = ex.per_pid(args[0], op.source.type)
    keep = np.ones(tiles.shape[1:], dtype=np.bool_)
    for dim, bound in enumerate(op.bounds.get_values()):
        along = [1] * keep.ndim
        along[dim] = keep.shape[dim]
        keep = keep & (np.arange(keep.shape[dim]).reshape(along) < bound)
    value = np.asarray(args[1], dtype=tiles.dtype)
    value = value.reshape(value.shape + (1,) * keep.ndim) if value.ndim else value
    return [np.where(keep, tiles, value)]


def nothing(_ex: TileExecutor, _op: Operation, _args: list[Any]) -> list[Any]:
    return []


def for_loop(ex: TileExecutor, op: Operation, args: list[Any]) -> list[Any]:
    """`scf.for` with bounds the same for every pid (XLA's loop over K tiles); a gemm's loop
    runs its iterations side by side where it can (`batched_loop`)."""
    assert isinstance(op, scf.ForOp)
    bounds = [np.asarray(v) for v in args[:3]]
    if any(b.ndim for b in bounds):
        raise ex.error(op, "with bounds that differ between pids is not supported")
    lower, upper, step = (int(b) for b in bounds)
    iterations = range(lower, upper, step)
    batched = run_batched(ex, op, iterations, list(args[3:]))
    if batched is not None:
        return batched
    carried = list(args[3:])
    # Each iteration's values differ: none is kept between launches.
    with ex.lanes(None, op):
        for index in iterations:
            carried = ex.run_block(op.body.block, [index, *carried])
    return carried


_SCALAR_ARITH: OpTable[Handler] = OpTable()
_SCALAR_ARITH.register(WholeValueArithImpls())

XTILE_HANDLERS: tuple[tuple[type[Operation], Handler], ...] = (
    (arith.ConstantOp, constant),
    (tensor.ExtractOp, tensor_extract),
    (tensor.FromElementsOp, tensor_from_elements),
    (ApplyIndexingOpBase, apply_indexing),
    (ExtractTileOp, extract_tile),
    (InsertTileOp, insert_tile),
    (MaskOp, mask),
    (EntryFuncReturnOp, nothing),
    (scf.ForOp, for_loop),
)
