"""PTOAS main's rules for `pto.alloc_tile`'s result (and `alloc_multi_tile`'s slot):
the tile's rows and columns fit its box layout, and an explicit constant address is
aligned for its memory.

- none_box (ND/DN): a row (row major) or a column (column major) is a whole number of
  32-byte blocks (16 for packed f4 pairs);
- boxed: rows a multiple of the box's inner rows (16; not checked for vec tiles,
  fractal 32 or a single row), columns of its inner columns (1024: 16x16, 32: 16x2,
  512: 16 x 32/bytes for row_major boxes, 32/bytes x 16 for col_major);
- addresses: 32-byte aligned in vec, mat, bias and scaling; 512 in left, right, acc.
"""

from __future__ import annotations

from xla_emit.pto.plain_tile import PlainTile

ADDRESS_ALIGNMENT = {"vec": 32, "mat": 32, "bias": 32, "scaling": 32}
ADDRESS_ALIGNMENT |= {"left": 512, "right": 512, "acc": 512}


def tile_layout_error(name: str, tile: PlainTile, fractal: int) -> str | None:
    """The first layout rule tile `name` breaks, or None."""
    rows, cols = tile.shape
    packed_f4 = tile.element.startswith("!pto.f4") and tile.element.endswith("x2")
    alignment = 16 if packed_f4 else 32
    if tile.slayout == "none_box":
        row_major = tile.blayout == "row_major"
        dim = cols if row_major else rows
        if dim == -1 or dim * tile.element_bytes % alignment == 0:
            return None
        layout, what = (
            ("row-major", "row byte size (cols * sizeof(dtype))")
            if row_major
            else ("col-major", "column byte size (rows * sizeof(dtype))")
        )
        return (
            f"expects {name} {layout} none_box tile {what} to be {alignment}-byte aligned, "
            f"but got {dim * tile.element_bytes} bytes"
        )
    inner = _box(tile, fractal)
    if inner is None:
        return f"expects {name} to use a supported boxed tile layout"
    inner_rows, inner_cols = inner
    unaligned_rows_ok = tile.loc == "vec" or fractal == 32 or rows == 1
    if not unaligned_rows_ok and rows != -1 and rows % inner_rows:
        return (
            f"expects {name} boxed tile rows to be a multiple of innerRows ({inner_rows}), "
            f"but got {rows}"
        )
    if cols != -1 and cols % inner_cols:
        return (
            f"expects {name} boxed tile cols to be a multiple of innerCols ({inner_cols}), "
            f"but got {cols}"
        )
    return None


def _box(tile: PlainTile, fractal: int) -> tuple[int, int] | None:
    if fractal == 1024:
        return 16, 16
    if fractal == 32:
        return 16, 2
    if fractal == 512 and 32 % tile.element_bytes == 0:
        per_block = 32 // tile.element_bytes
        if tile.slayout == "row_major":
            return 16, per_block
        if tile.slayout == "col_major":
            return per_block, 16
    return None


def address_error(loc: str, address: int) -> str | None:
    """An explicit address's alignment rule for memory `loc`."""
    alignment = ADDRESS_ALIGNMENT.get(loc)
    if alignment is None:
        return None
    if address < 0:
        return f"addr must be non-negative, got {address}"
    if address % alignment:
        return (
            f"addr must be aligned to {alignment} bytes for local tile memory space, got {address}"
        )
    return None
