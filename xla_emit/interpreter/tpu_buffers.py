"""The TPU executor's buffers: memrefs in their tiled physical layout, and semaphores.

A memref is a flat numpy buffer the size of its padded tiles, indexed through
the memref's `#tpu.tiled` layout (or Mosaic's default), so a kernel that reads
the wrong offset reads the wrong data, as on the chip. Views (slices,
squeezes, bitcasts) share the buffer and bring their own offset map.

A memref of semaphores (`memref<2x!tpu.dma_semaphore>`, or rank 0) is a
memref whose storage holds `Semaphore` objects, so slicing and squeezing it
picks semaphores as it picks data; an op that takes one semaphore takes a
view of exactly one (`one_semaphore`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Attribute

from xla_emit.dialects import tpu
from xla_emit.interpreter.budget import Reservation
from xla_emit.interpreter.element_types import numpy_dtype
from xla_emit.layout.mosaic import MosaicTiledLayout, mosaic_default_layout

IndexArrays = tuple[npt.NDArray[np.int64], ...]


@dataclass
class MemRef:
    """A memref value: a flat physical buffer and a map from logical indices to offsets in it."""

    storage: npt.NDArray[np.generic]
    shape: tuple[int, ...]
    offsets: Callable[[IndexArrays], npt.NDArray[np.int64]]

    def logical(self) -> npt.NDArray[np.generic]:
        """The memref's contents as a logical array."""
        grid = np.indices(self.shape, dtype=np.int64) if self.shape else ()
        return self.storage[self.offsets(tuple(grid))].reshape(self.shape)


@dataclass
class Semaphore:
    """A semaphore's count; DMAs and signals raise it, waits lower it."""

    count: int = 0


def is_semaphore_memref(type_: Attribute) -> bool:
    return isinstance(type_, MemRefType) and isinstance(
        type_.element_type, tpu.SemaphoreType | tpu.DMASemaphoreType
    )


def semaphores(type_: MemRefType[Attribute]) -> MemRef:
    """A memref of fresh semaphores (count 0), one per element, in row-major order."""
    shape = type_.get_shape()
    storage = np.empty(max(1, math.prod(shape)), dtype=object)
    storage[:] = [Semaphore() for _ in range(storage.size)]

    def offsets(index: IndexArrays) -> npt.NDArray[np.int64]:
        return np.ravel_multi_index(index, shape) if shape else np.zeros((), np.int64)

    return MemRef(storage, shape, offsets)


def one_semaphore(value: object) -> Semaphore | None:
    """The semaphore `value` holds: a semaphore, or a view of exactly one; else None."""
    if isinstance(value, Semaphore):
        return value
    if isinstance(value, MemRef) and value.storage.dtype == object and math.prod(value.shape) == 1:
        first = tuple(np.zeros((), np.int64) for _ in value.shape)
        element = value.storage[int(value.offsets(first))]
        return element if isinstance(element, Semaphore) else None
    return None


def _layout_of(type_: MemRefType[Attribute]) -> MosaicTiledLayout:
    explicit = tpu.tiled_layout_of(type_)
    if explicit is not None:
        return explicit.layout
    bitwidth = tpu.element_bitwidth(type_.element_type) or 32
    return mosaic_default_layout(type_.get_shape(), bitwidth)


def _poison(dtype: np.dtype[Any]) -> object:
    """What a read of memory nothing wrote returns: NaN, or a value unlikely in data."""
    is_float = dtype.kind in "fV"  # ml_dtypes' floats (bf16, float8) are of kind V
    # For integers, wrapped to the type's width (i8, i1).
    return np.asarray(np.nan if is_float else -12345).astype(dtype)


def allocate(
    type_: MemRefType[Attribute],
    contents: npt.ArrayLike | None = None,
    hold: Callable[[int], Reservation] | None = None,
) -> MemRef:
    """A memref of `type_` in its tiled physical layout; padding is filled with a poison value.

    `hold` reserves its bytes (padding included) with the memory meter before they are
    allocated."""
    shape = type_.get_shape()
    dtype = numpy_dtype(type_.element_type)
    layout = _layout_of(type_)
    size = layout.footprint(shape) if layout.tiles else max(1, math.prod(shape))
    reservation = hold(size * dtype.itemsize) if hold is not None else None
    storage = np.full(size, _poison(dtype), dtype=dtype)
    if reservation is not None:
        reservation.keep(storage)

    def offsets(index: IndexArrays) -> npt.NDArray[np.int64]:
        if not layout.tiles:
            return np.ravel_multi_index(index, shape) if shape else np.zeros((), np.int64)
        return np.asarray(layout.offset(list(index)), dtype=np.int64)

    result = MemRef(storage, shape, offsets)
    if contents is not None:
        values = np.asarray(contents, dtype=dtype)
        if values.shape != shape:
            raise ValueError(
                f"expected an array of shape {shape} for {type_}, but got {values.shape}"
            )
        grid = np.indices(shape, dtype=np.int64) if shape else ()
        storage[offsets(tuple(grid))] = values
    return result
