"""PTOAS main's verifier rules of `pto.mgather` and `pto.mscatter` (`lib/PTO/IR/PTO.cpp`)
beyond their operand types.

- An mgather from a global view (PTOAS main's form; ours also reads the older one
  from a memref, which has no coalesce mode) names its `coalesce` mode (`row` or
  `elem`), which PTOAS's op definition requires.
- Into a `mat` tile (the cube's L1) it reads its indices from global memory, never
  from a UB tile.
- The index tile's valid shape fits the data tile's (rows R, cols C): without a mode,
  [R, 0|1] row-major or [R, C]; `row`: [0|1, R] row-major or [R, 0|1] col-major;
  `elem`: [R, C] (a dynamic extent fits any, and may be 0 or 1).
- An mscatter that names an atomic op, an out-of-bounds rule or a conflict rule
  names its coalesce mode too.
"""

from __future__ import annotations

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.types import DYNAMIC, TileBufType

SCATTER_OPTIONS = ("scatterAtomicOp", "scatterOob", "scatterConflict")
# The values that mean "not given" for mscatter's defaulted options.
SCATTER_DEFAULTS = {"scatterAtomicOp": "none", "scatterOob": "undefined"}


def _mode(op: Operation) -> str | None:
    attr = op.attributes.get("coalesce")
    return getattr(attr, "data", None) if attr is not None else None


def _fits(extent: int, other: int) -> bool:
    return DYNAMIC in (extent, other) or extent == other


def _unit(extent: int) -> bool:
    return extent in (0, 1, DYNAMIC)


def tile_shape_error(data: Attribute, index: Attribute, name: str, mode: str | None) -> str | None:
    """PTOAS's verifyMGatherMScatterTileShape on the valid shapes."""
    if not isinstance(data, TileBufType) or not isinstance(index, TileBufType):
        return None
    rows, cols = data.valid_shape
    index_rows, index_cols = index.valid_shape
    row_major = index.blayout.data == "row_major"
    col_major = index.blayout.data == "col_major"
    by_row = row_major and _fits(index_rows, rows) and _unit(index_cols)
    by_element = _fits(index_rows, rows) and _fits(index_cols, cols)
    if mode is None:
        if by_row or by_element:
            return None
        return (
            f"expects idx valid_shape to be [{name}.valid_row, 0|1] or match {name} "
            "valid_shape when coalesce is omitted"
        )
    if mode == "row":
        one_by_rows = row_major and _unit(index_rows) and _fits(index_cols, rows)
        rows_by_one = col_major and _fits(index_rows, rows) and _unit(index_cols)
        if one_by_rows or rows_by_one:
            return None
        return (
            f"expects row-coalesce idx valid_shape to be [0|1, {name}.valid_row] or "
            f"[{name}.valid_row, 0|1]"
        )
    if by_element:
        return None
    return f"expects elem-coalesce idx valid_shape to match {name} valid_shape"


def verify_mgather(op: Operation, memory: Attribute, index: Attribute, dst: Attribute) -> None:
    mode = _mode(op)
    if not isinstance(memory, MemRefType) and mode is None:
        raise VerifyException("requires attribute 'coalesce'")
    if isinstance(dst, TileBufType) and dst.loc.data == "mat":
        if isinstance(index, TileBufType):
            raise VerifyException(
                "expects GM->L1 mgather idx to be a GM tensor partition_tensor_view, not a tile_buf"
            )
        return
    message = tile_shape_error(dst, index, "dst", mode)
    if message is not None:
        raise VerifyException(message)


def _given(op: Operation, name: str) -> bool:
    attr = op.attributes.get(name)
    if attr is None:
        return False
    return getattr(attr, "data", None) != SCATTER_DEFAULTS.get(name)


def verify_mscatter(op: Operation, src: Attribute, index: Attribute) -> None:
    mode = _mode(op)
    message = tile_shape_error(src, index, "src", mode)
    if message is not None:
        raise VerifyException(message)
    if mode is None and any(_given(op, name) for name in SCATTER_OPTIONS):
        raise VerifyException(
            "expects coalesce when scatterAtomicOp/scatterOob/scatterConflict is specified"
        )
