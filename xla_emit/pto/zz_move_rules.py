"""PTOAS main's rules for the X-to-ZZ `tmov` (a third tile outside `scaling`: the
scratch tile of a move of MX exponents into the ZZ box layout), as its TMovOp
verifier states them. ND-to-ZZ (`grpAxis` axis1, the default) regroups an exponent
column pair per row; DN-to-ZZ (axis0) pairs rows. Tiles are described by plain data
so that the rules need no IR.
"""

from __future__ import annotations

from xla_emit.pto.plain_tile import PlainTile

_ZZ_ELEMENTS = ("ui8", "!pto.hif8", "!pto.f8E8M0")


def x2zz_errors(
    target: str, src: PlainTile, dst: PlainTile, tmp: PlainTile, axis: str, distinct: bool
) -> str | None:
    """The first rule an X-to-ZZ tmov breaks; `axis` is `axis0` (DN) or `axis1` (ND),
    `distinct` whether src, dst and tmp are three values."""
    if target != "a5":
        return "X-to-ZZ tmov is only supported on A5"
    if not src.loc == dst.loc == tmp.loc == "vec":
        return "expects X-to-ZZ src/dst/tmp to be vec tiles"
    if not distinct:
        return "expects X-to-ZZ src, dst, and tmp to be distinct tile values"
    if -1 in (*src.valid, *src.shape, *dst.valid, *dst.shape, *tmp.shape):
        return (
            "expects static valid and physical shapes for src/dst and a static tmp "
            "physical shape for X-to-ZZ"
        )
    if not src.element == dst.element == tmp.element:
        return "expects src, dst, and tmp to share one element type"
    if src.element not in _ZZ_ELEMENTS:
        return (
            "expects element type to be one of ui8, !pto.hif8, !pto.f8E8M0 (i8 lowers to "
            "int8_t, which PTO-ISA CommonCheckZZ rejects)"
        )
    if (src.blayout, src.slayout) != ("row_major", "none_box"):
        return "expects src to use blayout=row_major, slayout=none_box"
    if (dst.blayout, dst.slayout) != ("row_major", "row_major"):
        return "expects dst to use blayout=row_major, slayout=row_major (ZZ box)"
    if src.valid[0] * src.valid[1] != dst.valid[0] * dst.valid[1]:
        return "expects src and dst to hold the same exponent count"
    return _dn_errors(src, dst) if axis == "axis0" else _nd_errors(src, dst, tmp)


def _nd_errors(src: PlainTile, dst: PlainTile, tmp: PlainTile) -> str | None:
    rows, cols = dst.valid
    if cols % 2:
        return "expects ND-to-ZZ dst valid_shape[1] (the grouped exponent column count) to be even"
    if src.valid[0] != 1 and src.shape[1] != src.valid[1]:
        return (
            "expects ND-to-ZZ src valid elements to form a compact prefix (single-row legacy "
            "flat or physical row stride equal to valid cols)"
        )
    # Sizes in elements against capacities in bytes, as PTOAS compares them (the ZZ
    # element types are one byte wide).
    padded = (rows + 15) // 16 * 16 * cols
    if src.capacity < padded:
        return (
            "expects ND-to-ZZ src physical capacity to cover align16(dst rows) * dst cols "
            "because source padding is zeroed in place"
        )
    if dst.capacity < padded:
        return "expects ND-to-ZZ dst physical capacity to cover align16(dst rows) * dst cols"
    needed = 64 + (rows + 15) // 16 * cols
    if tmp.capacity < needed:
        return (
            f"expects tmp to provide at least {needed} bytes for ND-to-ZZ "
            "(64 + ceil(dst rows / 16) * dst cols)"
        )
    return None


def _dn_errors(src: PlainTile, dst: PlainTile) -> str | None:
    rows, cols = src.valid
    if rows < 2 or rows % 2:
        return (
            "expects DN-to-ZZ src valid_shape[0] to be an even count >= 2; a single row-group "
            "produces no output in PTO-ISA"
        )
    if cols % 16:
        return "expects DN-to-ZZ src valid_shape[1] to be a multiple of 16"
    if src.shape[1] != cols:
        return "expects DN-to-ZZ src physical row stride to equal src valid_shape[1]"
    if min(src.capacity, dst.capacity) < rows * cols:
        return "expects DN-to-ZZ src/dst physical capacity to cover src valid rows * src valid cols"
    return None
