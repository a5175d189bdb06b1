"""PTOAS main's contracts on the scratch (`tmp`) tiles of reductions, selects and merge
sorts (`lib/PTO/IR/PTO.cpp`), on plain tile descriptions.

A vector repeat is 256 bytes and a block 32 bytes. On A2A3:

- tcolargmax / tcolargmin: a tmp of the source's valid shape needs 32 bytes; any other
  holds at least (ceil(2r / b) + ceil(r / b)) * b valid columns, r = the repeats
  over the source's valid columns, b = elements per block; the source's elements are
  1, 2 or 4 bytes wide (on A5 too);
- trowargmax / trowargmin: a source whose valid row fits one repeat takes an ND tmp of
  at least 2 valid columns covering its valid rows; a wider one, a tmp of the column
  count above;
- tsel: a tmp of 4-byte elements holding 16 bytes for 16-bit data, 8 for 32-bit.

On every target, tcolsum with `isBinary` needs a tmp row as wide as the source's valid
row, and tmrgsort's format-2 tmp is as wide as its destination.
"""

from __future__ import annotations

from collections.abc import Mapping

from xla_emit.pto.plain_tile import PlainTile

DYNAMIC = -1
REPEAT_BYTES = 256
BLOCK_BYTES = 32
_INT_OR_FLOAT = ("i", "si", "ui", "f", "bf")


def _ceil(numerator: int, denominator: int) -> int:
    return -(-numerator // denominator)


def arg_tmp_columns(element_bytes: int, valid_cols: int) -> int:
    """The fewest valid columns an A2A3 arg-reduction tmp needs (PTOAS's
    getArgReductionTmpMinStride)."""
    repeat, block = REPEAT_BYTES // element_bytes, BLOCK_BYTES // element_bytes
    repeats = _ceil(valid_cols, repeat)
    return (_ceil(repeats * 2, block) + _ceil(repeats, block)) * block


def _capacity_error(tmp: PlainTile, needed: int) -> str | None:
    if tmp.capacity < needed:
        return f"expects tmp capacity to be at least {needed} bytes, but got {tmp.capacity} bytes"
    return None


def _stride_error(src: PlainTile, tmp: PlainTile) -> str | None:
    cols = src.valid[1]
    if cols == DYNAMIC or tmp.valid[1] == DYNAMIC:
        return None
    needed = arg_tmp_columns(src.element_bytes, cols)
    if tmp.valid[1] < needed:
        return (
            f"expects A2/A3 tmp valid_shape[1] to be at least {needed} for src "
            f"valid_shape[1] = {cols}"
        )
    return None


def _sized_element(tile: PlainTile) -> bool:
    """An integer or float element of 1, 2 or 4 bytes."""
    return tile.element.startswith(_INT_OR_FLOAT) and tile.element_bytes in (1, 2, 4)


def col_arg_error(target: str, src: PlainTile, tmp: PlainTile | None) -> str | None:
    if target == "a5" or tmp is None:
        if not _sized_element(src):
            return "expects src element type to be 1, 2, or 4 bytes wide"
        return None
    if src.valid != tmp.valid:
        error = _stride_error(src, tmp)
        if error:
            return error
    error = _capacity_error(tmp, BLOCK_BYTES)
    if error:
        return error
    if not _sized_element(src):
        return "expects src/tmp element type to be 1, 2, or 4 bytes wide"
    return None


def row_arg_error(target: str, src: PlainTile, tmp: PlainTile | None) -> str | None:
    if target == "a5" or tmp is None or src.valid == tmp.valid:
        return None
    rows, cols = src.valid
    if cols != DYNAMIC and cols <= REPEAT_BYTES // src.element_bytes:
        if not tmp.is_nd:
            return None  # the DN one-column form; its rules are not modelled
        if DYNAMIC not in (rows, tmp.valid[0]) and tmp.valid[0] < rows:
            return "expects A2/A3 tmp valid_shape[0] to cover src valid rows"
        if tmp.valid[1] != DYNAMIC and tmp.valid[1] < 2:
            return "expects A2/A3 tmp valid_shape[1] to be at least 2 in the small-col ND path"
        return _capacity_error(tmp, BLOCK_BYTES)
    if DYNAMIC not in (rows, tmp.valid[0]) and tmp.valid[0] < rows:
        return "expects A2/A3 tmp valid_shape[0] to cover src valid rows"
    return _stride_error(src, tmp) or _capacity_error(tmp, BLOCK_BYTES)


def tsel_error(target: str, data: PlainTile, tmp: PlainTile | None) -> str | None:
    if target == "a5" or tmp is None or data.element_bytes not in (2, 4):
        return None  # an 8-bit select is A2A3's element-type rule (pto-verify-target)
    if tmp.element_bytes != 4:
        return "expects A2/A3 tsel tmp element type to be 4 bytes wide"
    return _capacity_error(tmp, 16 if data.element_bytes == 2 else 8)


def tcolsum_error(src: PlainTile, tmp: PlainTile | None, binary: bool) -> str | None:
    if not binary or tmp is None:
        return None
    cols, stride = src.valid[1], tmp.shape[1]
    if DYNAMIC not in (cols, stride) and stride < cols:
        return (
            "expects tmp shape[1] to be at least src valid_shape[1] when isBinary is true; "
            f"got {stride} vs {cols}"
        )
    return None


def merge_sort_error(dst: PlainTile, tmp: PlainTile | None) -> str | None:
    if tmp is None or DYNAMIC in (dst.shape[1], tmp.shape[1]):
        return None
    if tmp.shape[1] < dst.shape[1]:
        return "format2 expects tmp.cols >= dst.cols"
    return None


def _flag(attr: object) -> bool:
    """A bool attribute's value (an i1 `true` may read as -1)."""
    value = getattr(attr, "value", None)
    return bool(getattr(value, "data", 0))


TMP_CONTRACT_OPS = frozenset(
    {"tcolargmax", "tcolargmin", "trowargmax", "trowargmin", "tsel", "tcolsum", "tmrgsort"}
)


def tmp_contract_error(
    op: str,
    target: str,
    first: PlainTile,
    tmp: PlainTile | None,
    dst: PlainTile,
    attributes: Mapping[str, object],
) -> str | None:
    """The first tmp contract `op` (without `pto.`) breaks; `first` is its first input
    (tsel's mask), `tmp` its input past the tile inputs."""
    if op in ("tcolargmax", "tcolargmin"):
        return col_arg_error(target, first, tmp)
    if op in ("trowargmax", "trowargmin"):
        return row_arg_error(target, first, tmp)
    if op == "tsel":
        return tsel_error(target, dst, tmp)
    if op == "tcolsum":
        return tcolsum_error(first, tmp, _flag(attributes.get("isBinary")))
    if "no_tmp" in attributes:
        return None
    return merge_sort_error(dst, tmp)
