"""What every module of PTO tile semantics shares: the tile protocol, the error an op
raises when it asks for something the hardware does not do, and reading and writing a
tile's valid region.

`pto_semantics` defines most tile ops on these; `pto_bit_ops` (tgatherb, tpack,
trandom) and `pto_fixpipe` (the `_fp` forms) add theirs to its table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, TypeAlias

import ml_dtypes
import numpy as np
from numpy.typing import NDArray

Array: TypeAlias = NDArray[np.generic]
Scalar: TypeAlias = int | float
AttrValue: TypeAlias = str | int | float | bool
# What an op reports besides its destination tile (tmrgsort's executed counts), or None.
Report: TypeAlias = list[int] | None


class TileLike(Protocol):
    """A tile's storage (its static shape) and its valid region."""

    data: Array
    valid_rows: int
    valid_cols: int


@dataclass
class ViewRegion:
    """A global view read as a tile: all of it valid (PTOAS main's GM index operands)."""

    data: Array
    valid_rows: int
    valid_cols: int

    @classmethod
    def of(cls, rows: Array) -> ViewRegion:
        return cls(rows, rows.shape[0], rows.shape[1])


class SemanticsError(ValueError):
    """An op asked for something the hardware does not do (the executor locates it)."""


def compute_dtype(dtype: np.dtype[np.generic]) -> np.dtype[np.generic]:
    """Half-precision math runs in f32 and rounds once per op, like the vector unit."""
    if dtype in (np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)):
        return np.dtype(np.float32)
    return dtype


# The comparison modes (tcmp's, vcmp's, the VMI cmpf/cmpi predicates), as lane functions.
COMPARE: dict[str, Callable[[Array, Array], Array]] = {
    "eq": np.equal,
    "ne": np.not_equal,
    "lt": np.less,
    "le": np.less_equal,
    "gt": np.greater,
    "ge": np.greater_equal,
}

# `tcvt`'s rounding modes (`rmode`), as float -> float functions.
ROUNDING: dict[str, Callable[[Array], Array]] = {
    "CAST_RINT": np.rint,
    "CAST_ROUND": lambda x: np.sign(x) * np.floor(np.abs(x) + 0.5),
    "CAST_FLOOR": np.floor,
    "CAST_CEIL": np.ceil,
    "CAST_TRUNC": np.trunc,
}


def valid(tile: TileLike, rows: int, cols: int) -> Array:
    """The top-left rows x cols of a tile, in its compute type."""
    if rows > tile.data.shape[0] or cols > tile.data.shape[1]:
        raise SemanticsError(
            f"reads {rows}x{cols} elements of a {tile.data.shape[0]}x{tile.data.shape[1]} tile"
        )
    return tile.data[:rows, :cols].astype(compute_dtype(tile.data.dtype))


def write(dst: TileLike, values: Array, rows: int | None = None, cols: int | None = None) -> None:
    rows = values.shape[0] if rows is None else rows
    cols = values.shape[1] if cols is None else cols
    dst.data[:rows, :cols] = values[:rows, :cols].astype(dst.data.dtype)


def write_report(counts: object, report: list[int]) -> None:
    """tmrgsort's executed counts into its second `outs` operand (a vector<4xi16> value,
    updated in place as pto-isa's executedNumList is), each count as an unsigned 16 bits."""
    assert isinstance(counts, np.ndarray)  # the verifier requires a vector<4xi16>
    counts.reshape(-1)[: len(report)] = np.array(report, np.uint16).astype(counts.dtype)
