"""The TPU executor's handlers for Mosaic's indexed memory ops, views, ids and no-ops.

Semantics are Mosaic's (`tpu_ops.td`) on one core of one device:

- `tpu.shuffled_load` / `tpu.shuffled_store`: sublane i of the vreg is memory row
  `indices[-2] + sublane_offsets[i]`; sublanes off in `sublane_mask` read as
  unspecified values (NaN, or the most negative integer) and are not written;
- `tpu.vector_load_idx` / `tpu.vector_store_idx`: element e is at
  `base[indices[0][e], indices[1][e], ...]`; masked-off elements read as
  unspecified and are not written; when elements share an index the highest
  lane's is stored, or with `add` all are added from the lowest lane up;
- jaxlib 0.12's `tpu.vector_compress_store` / `tpu.vector_expand_load`: along
  `compress_dim` (`expand_dim`), each line's unmasked elements go to (come from)
  consecutive memory positions from the line's start, in order; `add` adds them;
  expanded masked-off elements are unspecified. `tpu.compress_store_vreg` /
  `tpu.expand_load_vreg` do the same over the whole vreg in row-major order (the
  k-th unmasked element at the k-th position of the vreg-shaped window);
- `tpu.annotate`, `tpu.shared_memref_slice` (jaxlib 0.12): the same memref;
  `tpu.memref_memory_space_is`: whether the ref's type is in that memory space;
  `tpu.tile_size`: dimension `index` of the ref's first tile (its `#tpu.tiled`
  layout, else Mosaic's default);
- `tpu.memref_bitcast`: the same bytes as another element type; a 32-bit row of
  the source holds `packing` rows of a narrower type, the first in the low bits
  (as `tpu.bitcast` on vregs), so the layout must keep those rows in one word;
- `tpu.assume_layout`, `tpu.erase_memref_layout`: the same memref;
  `tpu.internal_scratch`: a fresh buffer whose contents are unspecified;
- `tpu.device_id`, `tpu.core_id`, `tpu.subcore_id`: 0 (the interpreter runs one
  device, core and subcore); `tpu.sem_read` reads a semaphore's count;
  `tpu.sem_barrier` is the device's barrier semaphore; `tpu.fetch_and_add_sync`
  adds to its own core's SMEM and returns the old value;
- `tpu.wait_dma`: waits on the target semaphore (`wait_target`) or the source's,
  as `tpu.wait_dma2`;
- `tpu.enqueue_indirect_dma`: the indexed memref (the source of a gather into
  VMEM, the target of a scatter from VMEM) is one row per slice along its sample
  dim; slice i of the other memref is the row at `offsets[i]` (copied, or added
  with `add`; offsets equal to `offset_filter` are skipped; a repeated scatter
  offset keeps the last slice), done at once, signalling the semaphore that
  `tpu.wait_indirect_dma` waits on;
- no value, so no effect: `tpu.barrier` (one subcore arrives), `tpu.delay`,
  `tpu.trace_value`, `tpu.log`, `tpu.log_buffer`, `tpu.prng_set_seed_32`.

What the interpreter cannot compute (`UNSUPPORTED`) fails with the reason.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
from xdsl.dialects.builtin import DenseArrayBase, MemRefType
from xdsl.ir import Operation, SSAValue

from xla_emit.diagnostics import UserError
from xla_emit.dialects import tpu
from xla_emit.interpreter.budget import Reservation, result_label
from xla_emit.interpreter.element_types import numpy_dtype
from xla_emit.interpreter.tpu_buffers import IndexArrays, MemRef, Semaphore, allocate, one_semaphore
from xla_emit.interpreter.tpu_compute import unspecified
from xla_emit.layout.mosaic import mosaic_default_layout


class Machine(Protocol):
    """What these handlers need of the TPU executor."""

    barrier_semaphore: Semaphore

    def value(self, value: SSAValue) -> Any: ...
    def integer(self, value: SSAValue) -> int: ...
    def array(self, value: SSAValue) -> npt.NDArray[np.generic]: ...
    def memref(self, value: SSAValue) -> MemRef: ...
    def error(self, op: Operation, message: str) -> UserError: ...
    def holder(self, op: Operation, what: str) -> Callable[[int], Reservation]: ...


def _field(op: Operation, name: str) -> Any:
    """An operand, result or property of a catalog op, by its `tpu_ops.td` name."""
    return getattr(op, name)


def _bools(op: Operation, name: str) -> npt.NDArray[np.bool_]:
    attr = getattr(op, name)
    assert isinstance(attr, DenseArrayBase)
    return np.array([bool(v) for v in attr.get_values()], dtype=bool)


def _ints(op: Operation, name: str) -> list[int]:
    attr = getattr(op, name)
    assert isinstance(attr, DenseArrayBase)
    return [int(v) for v in attr.get_values()]


def _offsets(ex: Machine, op: Operation, ref: MemRef, index: IndexArrays) -> npt.NDArray[np.int64]:
    """Storage offsets of the elements at `index`, each index checked against the shape."""
    for dim, (where, size) in enumerate(zip(index, ref.shape, strict=True)):
        outside = (where < 0) | (where >= size)
        if outside.any():
            bad = int(where[outside].flat[0])
            raise ex.error(
                op,
                f"reads or writes out of bounds: index {bad} in dimension {dim} of a memref "
                f"with shape {list(ref.shape)}",
            )
    return ref.offsets(index)


# ----------------------------------------------------------------------------- shuffled access


def _shuffled_rows(
    ex: Machine, op: Operation, ref: MemRef, shape: Sequence[int]
) -> tuple[npt.NDArray[np.bool_], IndexArrays]:
    """The sublane mask and the memory index of every element of a shuffled access."""
    if len(ref.shape) < 2 or len(shape) != 2:
        raise ex.error(
            op, "is supported by the interpreter on 2-D vregs of memrefs of rank 2 or more"
        )
    start = [ex.integer(i) for i in op.operands[-len(ref.shape) :]]
    keep = _bools(op, "sublane_mask")
    rows = np.array(_ints(op, "sublane_offsets"), dtype=np.int64)[keep]
    lanes = np.arange(shape[-1], dtype=np.int64)
    index = [np.full((len(rows), len(lanes)), s, dtype=np.int64) for s in start]
    index[-2] = index[-2] + rows[:, None]
    index[-1] = index[-1] + lanes[None, :]
    return keep, tuple(index)


def shuffled_load(ex: Machine, op: Operation) -> list[Any]:
    ref = ex.memref(op.operands[0])
    shape = op.results[0].type.get_shape()  # type: ignore[attr-defined]
    keep, index = _shuffled_rows(ex, op, ref, shape)
    result = np.full(shape, unspecified(ref.storage.dtype), dtype=ref.storage.dtype)
    result[keep] = ref.storage[_offsets(ex, op, ref, index)]
    return [result]


def shuffled_store(ex: Machine, op: Operation) -> list[Any]:
    data, ref = ex.array(op.operands[0]), ex.memref(op.operands[1])
    keep, index = _shuffled_rows(ex, op, ref, data.shape)
    ref.storage[_offsets(ex, op, ref, index)] = data[keep]
    return []


# ----------------------------------------------------------------------------- indexed access


def _indexed(
    ex: Machine, op: Operation, ref: MemRef, shape: Sequence[int]
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
    """The mask and the storage offsets of the unmasked elements of an indexed access."""
    indices = [ex.array(v).astype(np.int64) for v in _field(op, "indices")]
    if len(indices) != len(ref.shape):
        raise ex.error(
            op, f"has {len(indices)} index vectors for a memref of rank {len(ref.shape)}"
        )
    mask_value = _field(op, "mask")
    keep = np.ones(shape, dtype=bool) if mask_value is None else ex.array(mask_value).astype(bool)
    return keep, _offsets(ex, op, ref, tuple(i[keep] for i in indices))


def vector_load_idx(ex: Machine, op: Operation) -> list[Any]:
    ref = ex.memref(_field(op, "base"))
    shape = op.results[0].type.get_shape()  # type: ignore[attr-defined]
    keep, offsets = _indexed(ex, op, ref, shape)
    result = np.full(shape, unspecified(ref.storage.dtype), dtype=ref.storage.dtype)
    result[keep] = ref.storage[offsets]
    return [result]


def vector_store_idx(ex: Machine, op: Operation) -> list[Any]:
    data, ref = ex.array(_field(op, "valueToStore")), ex.memref(_field(op, "base"))
    keep, offsets = _indexed(ex, op, ref, data.shape)
    add = _field(op, "add")
    if add is not None and add.value.data:
        np.add.at(ref.storage, offsets, data[keep])  # in lane order
    else:
        ref.storage[offsets] = data[keep]  # numpy keeps the last of repeated indices
    return []


# ----------------------------------------------------------------------------- compress, expand


def _packed_index(
    ex: Machine, op: Operation, ref: MemRef, keep: npt.NDArray[np.bool_], dim: int | None
) -> npt.NDArray[np.int64]:
    """Storage offsets of the unmasked elements packed to the front of their line along
    `dim` (None: of the whole vreg in row-major order), from the op's start indices."""
    start = [ex.integer(i) for i in _field(op, "indices")]
    if len(start) != len(ref.shape) or keep.ndim > len(ref.shape):
        raise ex.error(op, f"has {len(start)} indices for a memref of rank {len(ref.shape)}")
    grid = [np.asarray(axis, dtype=np.int64) for axis in np.indices(keep.shape, dtype=np.int64)]
    if dim is None:
        ranks = np.cumsum(keep.reshape(-1)).reshape(keep.shape) - 1
        unraveled = np.unravel_index(np.where(keep, ranks, 0), keep.shape)
        grid = [np.asarray(position, dtype=np.int64) for position in unraveled]
    else:
        if not 0 <= dim < keep.ndim:
            raise ex.error(op, f"packs along dimension {dim} of a rank-{keep.ndim} vector")
        grid[dim] = np.asarray(np.cumsum(keep, axis=dim) - 1, dtype=np.int64)
    leading = len(ref.shape) - keep.ndim
    index = [np.full(keep.shape, s, dtype=np.int64) for s in start]
    for d, position in enumerate(grid):
        index[leading + d] = index[leading + d] + np.asarray(position, dtype=np.int64)
    return _offsets(ex, op, ref, tuple(i[keep] for i in index))


def _pack_dim(op: Operation, name: str) -> int | None:
    attr = op.properties.get(name)
    return None if attr is None else attr.value.data  # type: ignore[attr-defined]


def compress_store(ex: Machine, op: Operation) -> list[Any]:
    data, ref = ex.array(_field(op, "valueToStore")), ex.memref(_field(op, "base"))
    keep = np.broadcast_to(ex.array(_field(op, "mask")).astype(bool), data.shape)
    offsets = _packed_index(ex, op, ref, keep, _pack_dim(op, "compress_dim"))
    add = _field(op, "add")
    if add is not None and add.value.data:
        np.add.at(ref.storage, offsets, data[keep])
    else:
        ref.storage[offsets] = data[keep]
    return []


def expand_load(ex: Machine, op: Operation) -> list[Any]:
    ref = ex.memref(_field(op, "base"))
    shape = op.results[0].type.get_shape()  # type: ignore[attr-defined]
    keep = np.broadcast_to(ex.array(_field(op, "mask")).astype(bool), shape)
    offsets = _packed_index(ex, op, ref, keep, _pack_dim(op, "expand_dim"))
    result = np.full(shape, unspecified(ref.storage.dtype), dtype=ref.storage.dtype)
    result[keep] = ref.storage[offsets]
    return [result]


# ----------------------------------------------------------------------------- views


def _result_memref(op: Operation) -> MemRefType[Any]:
    type_ = op.results[0].type
    assert isinstance(type_, MemRefType)
    return type_


def memref_bitcast(ex: Machine, op: Operation) -> list[Any]:
    ref = ex.memref(op.operands[0])
    result_type = _result_memref(op)
    dtype = np.dtype(numpy_dtype(result_type.element_type))
    source_bytes, target_bytes = ref.storage.dtype.itemsize, dtype.itemsize
    if ref.storage.dtype == np.bool_ or dtype == np.bool_ or len(ref.shape) < 2:
        raise ex.error(op, "is supported by the interpreter on memrefs of rank 2 or more, not i1")
    storage = ref.storage.view(dtype)
    shape = result_type.get_shape()

    def source_index(index: IndexArrays, row: npt.NDArray[np.int64]) -> IndexArrays:
        return (*index[:-2], row, index[-1])

    if source_bytes >= target_bytes:
        packing = source_bytes // target_bytes

        def offsets(index: IndexArrays) -> npt.NDArray[np.int64]:
            words = ref.offsets(source_index(index, index[-2] // packing))
            return words * packing + index[-2] % packing

        return [MemRef(storage, shape, offsets)]
    packing = target_bytes // source_bytes
    grid = tuple(np.indices(shape, dtype=np.int64))
    first = ref.offsets(source_index(grid, grid[-2] * packing))
    rows_in_word = all(
        (ref.offsets(source_index(grid, grid[-2] * packing + k)) == first + k).all()
        for k in range(packing)
    )
    if not rows_in_word or (first % packing).any():
        raise ex.error(op, f"packs rows whose elements are not adjacent in memory ({ref.shape})")

    def wide_offsets(index: IndexArrays) -> npt.NDArray[np.int64]:
        return ref.offsets(source_index(index, index[-2] * packing)) // packing

    return [MemRef(storage, shape, wide_offsets)]


def same_value(ex: Machine, op: Operation) -> list[Any]:
    return [ex.value(op.operands[0])]


def memory_space_is(ex: Machine, op: Operation) -> list[Any]:
    source_type = op.operands[0].type
    assert isinstance(source_type, MemRefType)
    wanted = _field(op, "memory_space")
    return [tpu.memory_space_of(source_type) == wanted.space.data]


def tile_size(ex: Machine, op: Operation) -> list[Any]:
    source_type = op.operands[0].type
    assert isinstance(source_type, MemRefType)
    explicit = tpu.tiled_layout_of(source_type)
    bitwidth = tpu.element_bitwidth(source_type.element_type) or 32
    layout = (
        explicit.layout
        if explicit is not None
        else mosaic_default_layout(source_type.get_shape(), bitwidth)
    )
    index = _field(op, "index").value.data
    if not layout.tiles or not 0 <= index < len(layout.tiles[0]):
        raise ex.error(op, f"asks for dimension {index} of a tile, but the layout is {layout}")
    return [int(layout.tiles[0][index])]


def internal_scratch(ex: Machine, op: Operation) -> list[Any]:
    return [allocate(_result_memref(op), hold=ex.holder(op, result_label(op)))]


# ----------------------------------------------------------------------------- ids and semaphores


def zero(ex: Machine, op: Operation) -> list[Any]:
    return [0]


def sem_read(ex: Machine, op: Operation) -> list[Any]:
    return [semaphore_operand(ex, op, op.operands[0]).count]


def sem_barrier(ex: Machine, op: Operation) -> list[Any]:
    return [ex.barrier_semaphore]


def fetch_and_add_sync(ex: Machine, op: Operation) -> list[Any]:
    ref = ex.memref(op.operands[0])
    *indices, value, core = op.operands[1:]
    if ex.integer(core) != 0:
        raise ex.error(op, f"targets core {ex.integer(core)}, but the interpreter runs core 0 only")
    where = tuple(np.array(ex.integer(i), dtype=np.int64) for i in indices)
    offset = _offsets(ex, op, ref, where)
    old = ref.storage[offset].item()
    ref.storage[offset] = old + ex.integer(value)
    return [old]


def semaphore_operand(ex: Machine, op: Operation, value: SSAValue) -> Semaphore:
    """The one semaphore `op` takes as `value`; a memref of several is an error at `op`."""
    semaphore = one_semaphore(ex.value(value))
    if semaphore is None:
        raise ex.error(op, f"takes {value.type} where one semaphore is expected")
    return semaphore


def _wait_on(ex: Machine, op: Operation, semaphore: Semaphore) -> None:
    if semaphore.count < 1:
        raise ex.error(op, "waits for a DMA that was never started: it would wait forever")
    semaphore.count -= 1


def wait_dma(ex: Machine, op: Operation) -> list[Any]:
    wait_target = _field(op, "wait_target")
    name = "target_semaphore" if wait_target.value.data else "source_semaphore"
    semaphore_value = _field(op, name)
    if semaphore_value is None:
        raise ex.error(op, f"waits on its {name.replace('_', ' ')}, but has none")
    _wait_on(ex, op, semaphore_operand(ex, op, semaphore_value))
    return []


def _memory_space(value: SSAValue) -> str | None:
    type_ = value.type
    assert isinstance(type_, MemRefType)
    return tpu.memory_space_of(type_)


def _is_gather(ex: Machine, op: Operation, source: SSAValue, target: SSAValue) -> bool:
    """Whether an indirect DMA gathers into VMEM (else it scatters from VMEM)."""
    source_space, target_space = _memory_space(source), _memory_space(target)
    if target_space == "vmem" and source_space != "vmem":
        return True
    if source_space == "vmem" and target_space != "vmem":
        return False
    raise ex.error(
        op, "must copy between VMEM and HBM or VMEM_SHARED for the interpreter to run it"
    )


def _rows(ref: MemRef, slice_size: int) -> npt.NDArray[Any]:
    """The memref's contents as one row per slice."""
    return ref.logical().reshape(-1, slice_size)


def _write_back(ref: MemRef, rows: npt.NDArray[Any]) -> None:
    grid = tuple(np.indices(ref.shape, dtype=np.int64))
    ref.storage[ref.offsets(grid)] = rows.reshape(ref.shape)


def enqueue_indirect_dma(ex: Machine, op: Operation) -> list[Any]:
    """A gather (or scatter) of slices at `offsets` along the indexed memref's sample dim."""
    source_value, target_value = _field(op, "source"), _field(op, "target")
    source, target = ex.memref(source_value), ex.memref(target_value)
    offsets_value = ex.value(_field(op, "offsets"))
    listed = offsets_value.logical() if isinstance(offsets_value, MemRef) else offsets_value
    offsets: npt.NDArray[np.int64] = np.asarray(listed, dtype=np.int64).reshape(-1)
    gather = _is_gather(ex, op, source_value, target_value)
    indexed, packed = (source, target) if gather else (target, source)
    # The packed memref is [o, s0, ...] or [1, o, s0, ...]: one slice per offset.
    slice_size = math.prod(packed.shape) // max(1, len(offsets))
    indexed_rows, packed_rows = _rows(indexed, slice_size), _rows(packed, slice_size)
    outside = (offsets < 0) | (offsets >= len(indexed_rows))
    if outside.any():
        raise ex.error(
            op,
            f"has offset {int(offsets[outside][0])} outside 0..{len(indexed_rows) - 1} of the "
            "indexed dimension",
        )
    filter_value = _field(op, "offset_filter")
    keep = np.ones(len(offsets), dtype=bool)
    if filter_value is not None:
        keep = offsets != ex.integer(filter_value)
    add = _field(op, "add") is not None and bool(_field(op, "add").value.data)
    if gather:
        picked = indexed_rows[offsets[keep]]
        packed_rows[keep] = packed_rows[keep] + picked if add else picked
        _write_back(packed, packed_rows)
    else:
        if add:
            np.add.at(indexed_rows, offsets[keep], packed_rows[keep])  # in offset order
        else:
            indexed_rows[offsets[keep]] = packed_rows[keep]  # the last of repeated offsets
        _write_back(indexed, indexed_rows)
    semaphore_operand(ex, op, _field(op, "semaphore")).count += 1
    return []


def wait_indirect_dma(ex: Machine, op: Operation) -> list[Any]:
    _wait_on(ex, op, semaphore_operand(ex, op, _field(op, "semaphore")))
    return []


def nothing(ex: Machine, op: Operation) -> list[Any]:
    return []


UNSUPPORTED: dict[str, str] = {
    "roll_vectors": "its value depends on the vreg layout it was given",
    "unroll_vectors": "its value depends on the vreg layout it was given",
    "prng_random_bits": "the chip's random bits are not specified",
    "stochastic_convert": "the chip's stochastic rounding is not specified",
    "stochastic_convert_elementwise": "the chip's stochastic rounding is not specified",
    "reinterpret_cast": "it reinterprets raw addresses, which the interpreter does not model",
    "pack_vmsk": "the packed mask register format is not specified",
}


def _unsupported(reason: str) -> Callable[[Machine, Operation], list[Any]]:
    def fail(ex: Machine, op: Operation) -> list[Any]:
        raise ex.error(op, f"is not supported by the TPU interpreter: {reason}")

    return fail


_BY_NAME: dict[str, Callable[[Any, Operation], list[Any]]] = {
    "shuffled_load": shuffled_load,
    "shuffled_store": shuffled_store,
    "vector_load_idx": vector_load_idx,
    "vector_store_idx": vector_store_idx,
    "assume_layout": same_value,
    "annotate": same_value,
    "shared_memref_slice": same_value,
    "memref_memory_space_is": memory_space_is,
    "tile_size": tile_size,
    "compress_store_vreg": compress_store,
    "vector_compress_store": compress_store,
    "expand_load_vreg": expand_load,
    "vector_expand_load": expand_load,
    "erase_memref_layout": same_value,
    "internal_scratch": internal_scratch,
    "device_id": zero,
    "core_id": zero,
    "subcore_id": zero,
    "sem_read": sem_read,
    "sem_barrier": sem_barrier,
    "fetch_and_add_sync": fetch_and_add_sync,
    "wait_dma": wait_dma,
    "enqueue_indirect_dma": enqueue_indirect_dma,
    "wait_indirect_dma": wait_indirect_dma,
    "barrier": nothing,
    "delay": nothing,
    "trace_value": nothing,
    "log": nothing,
    "log_buffer": nothing,
    "prng_set_seed_32": nothing,
} | {name: _unsupported(reason) for name, reason in UNSUPPORTED.items()}


MEMORY_HANDLERS: tuple[tuple[type[Operation], Callable[[Any, Operation], list[Any]]], ...] = (
    (tpu.MemRefBitcastOp, memref_bitcast),
    *((tpu.CATALOG_BY_NAME[f"tpu.{name}"], run) for name, run in _BY_NAME.items()),
)
