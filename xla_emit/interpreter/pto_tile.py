"""The PTO executor's values: a `Tile` (storage of its static shape plus its run-time
valid region and location), global memory as numpy arrays, and scalars."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from xdsl.dialects.builtin import MemRefType

from xla_emit.dialects import pto
from xla_emit.interpreter.budget import Reservation
from xla_emit.interpreter.element_types import explicit_signedness_dtype

Array = NDArray[np.generic]
Scalar = int | float


@dataclass
class Tile:
    """A tile: storage of its static shape and its (run-time) valid region."""

    data: Array
    valid_rows: int
    valid_cols: int
    loc: str = "vec"

    @property
    def valid(self) -> Array:
        return self.data[: self.valid_rows, : self.valid_cols]

    @staticmethod
    def of_type(
        tile_type: pto.TileTypeBase,
        valid: tuple[int, int] | None = None,
        hold: Callable[[int], Reservation] | None = None,
    ) -> Tile:
        """A zeroed tile; `hold` reserves its bytes with the memory meter first."""
        rows, cols = tile_type.shape
        vr, vc = tile_type.valid_shape
        if valid is not None:
            vr = valid[0] if vr == pto.DYNAMIC else vr
            vc = valid[1] if vc == pto.DYNAMIC else vc
        vr, vc = (rows if vr == pto.DYNAMIC else vr), (cols if vc == pto.DYNAMIC else vc)
        data = _zeros(rows, cols, explicit_signedness_dtype(tile_type.element_type), hold)
        return Tile(data, vr, vc, tile_type.loc.data)

    @staticmethod
    def of_memref(memref: MemRefType, hold: Callable[[int], Reservation] | None = None) -> Tile:
        """A zeroed local buffer (`memref.alloc` in a local address space) as a tile; `hold`
        as for `of_type`."""
        shape = memref.get_shape()
        rows, cols = (1, shape[0]) if len(shape) == 1 else shape[-2:]
        space = memref.memory_space
        loc = space.data if isinstance(space, pto.PTOEnumAttrBase) else "vec"
        data = _zeros(rows, cols, explicit_signedness_dtype(memref.element_type), hold)
        return Tile(data, rows, cols, loc)


def _zeros(
    rows: int, cols: int, dtype: np.dtype, hold: Callable[[int], Reservation] | None
) -> Array:
    if hold is None:
        return np.zeros((rows, cols), dtype=dtype)
    reservation = hold(rows * cols * dtype.itemsize)
    return reservation.keep(np.zeros((rows, cols), dtype=dtype))


# A tile, a global-memory array or a scalar (i1 values are Python bools).
Value = Tile | Array | Scalar
