"""PTOAS main's rules on the scratch (`tmp`) tiles of vector ops, as its op
verifiers state them: which ops may leave the tile out, which must have it, and
what the A2A3 kernels need of its element type, layout and size.

- trem / trems (A2A3): tmp of dst's element type, at least 2 (trem) or 1 (trems)
  valid rows, valid columns covering dst's.
- tprelu (A2A3): an 8-bit tmp (the packed sign mask) of at least dst's valid rows + 1
  rows and ceil(dst valid cols / 8) valid columns.
- txors (A2A3): tmp of src's element type, row major, as many bytes as dst.
- tpow / tpows: no high precision on A2A3, and on A5 only for f16/f32/bf16; an
  integer power takes no tmp; a tmp is row major, of dst's element type and valid
  shape.
- trsqrt / trowexpanddiv with high precision need a tmp.
"""

from __future__ import annotations

from xla_emit.pto.plain_tile import PlainTile

SCRATCH_RULE_OPS = frozenset(
    {"trem", "trems", "tprelu", "txors", "tpow", "tpows", "trsqrt", "trowexpanddiv"}
)
_INTEGERS = ("i8", "i16", "i32", "ui8", "ui16", "ui32", "si8", "si16", "si32")


def scratch_error(
    op: str,
    target: str,
    dst: PlainTile,
    tmp: PlainTile | None,
    precision: str = "",
) -> str | None:
    """The first scratch rule `op` (a name without `pto.`) breaks, or None."""
    if op in ("trsqrt", "trowexpanddiv") and precision == "high_precision" and tmp is None:
        return "expects tmp when precisionType is high_precision"
    if op in ("tpow", "tpows"):
        return _pow_error(op, target, dst, tmp, precision)
    if tmp is None or target == "a5":
        return None
    if op in ("trem", "trems"):
        return _rem_error(op, dst, tmp)
    if op == "tprelu":
        return _prelu_error(dst, tmp)
    if op == "txors":
        return _xors_error(dst, tmp)
    return None


def _rem_error(op: str, dst: PlainTile, tmp: PlainTile) -> str | None:
    if tmp.element != dst.element:
        return "expects tmp and dst to have the same element type"
    rows = 2 if op == "trem" else 1
    if tmp.valid[0] != -1 and tmp.valid[0] < rows:
        return f"expects A2/A3 tmp valid_shape[0] to be at least {rows}"
    if -1 not in (tmp.valid[1], dst.valid[1]) and tmp.valid[1] < dst.valid[1]:
        return "expects A2/A3 tmp valid columns to cover dst valid columns"
    return None


def _prelu_error(dst: PlainTile, tmp: PlainTile) -> str | None:
    if tmp.element not in ("i8", "ui8", "si8"):
        return "expects A2/A3 tmp element type to be u8"
    if -1 not in (dst.valid[0], tmp.shape[0]) and tmp.shape[0] < dst.valid[0] + 1:
        return (
            f"expects A2/A3 tmp shape[0] to be at least dst valid_shape[0] + 1 ({dst.valid[0] + 1})"
        )
    if -1 not in (dst.valid[1], tmp.valid[1]):
        packed = -(-dst.valid[1] // 8)
        if tmp.valid[1] < packed:
            return (
                "expects A2/A3 tmp valid_shape[1] to be at least ceil(dst valid_shape[1] / 8) "
                f"({packed})"
            )
    return None


def _xors_error(dst: PlainTile, tmp: PlainTile) -> str | None:
    if tmp.element != dst.element:
        return "expects tmp to have the same element type as src and dst"
    if tmp.blayout != "row_major":
        return "expects tmp to use row-major layout"
    if tmp.capacity < dst.capacity:
        return (
            f"expects tmp capacity to be at least {dst.capacity} bytes, but got "
            f"{tmp.capacity} bytes"
        )
    return None


def _pow_error(
    op: str, target: str, dst: PlainTile, tmp: PlainTile | None, precision: str
) -> str | None:
    high = precision == "high_precision"
    if high and target != "a5":
        return "A2/A3 does not support precisionType=high_precision"
    if high and dst.element not in ("f16", "f32", "bf16"):
        return f"expects A5 {op} element type to be f16/f32/bf16 when precisionType=high_precision"
    if tmp is None:
        return None
    if dst.element in _INTEGERS:
        return f"does not accept tmp when element type is integer (the integer {op[1:]} lowering"
    if tmp.element != dst.element:
        return "expects tmp and dst to have the same element type"
    if tmp.blayout != "row_major":
        return "expects tmp to use row-major layout"
    if not same_valid(tmp, dst):
        return "expects tmp and dst to have the same valid_shape"
    return None


def tci_tmp_error(target: str, dst: PlainTile, tmp: PlainTile) -> str | None:
    """tci's A2A3 scratch: a 4-byte vec tile, ND, fractal 512, of 768 bytes (32-bit
    dst) or 1792 (16-bit); `fractal` is the tile's fractal size."""
    if target == "a5":
        return None
    if tmp.loc != "vec":
        return "expects tmp to be in vec address space"
    if tmp.element not in ("f32", "i32", "si32", "ui32"):
        return "expects A2/A3 tmp element type to be a 4-byte type"
    if tmp.blayout != "row_major":
        return "expects tmp blayout to be row_major"
    if tmp.slayout != "none_box":
        return "expects tmp slayout to be none_box"
    bits = 8 * dst.element_bytes
    needed = 768 if bits == 32 else 1792
    if tmp.capacity < needed:
        return (
            f"expects A2/A3 tmp capacity to be at least {needed} bytes for {bits}-bit dst "
            "element type"
        )
    return None


def tquant_error(
    target: str,
    src: PlainTile,
    dst: PlainTile,
    params: list[tuple[str, PlainTile]],
    tmp: PlainTile | None,
) -> str | None:
    """tquant (INT8_SYM/ASYM): `params` are the per-row scale (`fp`) and offset tiles."""
    if not same_valid(src, dst):
        return "expects src and dst to have the same valid_shape"
    if src.element != "f32":
        return "expects src to have element type f32"
    if target == "a5":
        return None
    if src.blayout != "row_major" or dst.blayout != "row_major":
        return "expects A2/A3 src and dst to use row-major layout"
    if tmp is not None:
        if tmp.element != src.element:
            return "expects src and tmp to have the same element type"
        if tmp.blayout != "row_major":
            return "expects A2/A3 tmp to use row-major layout"
        if tmp.shape != src.shape:
            return "expects A2/A3 tmp to have the same shape as src"
    for name, param in params:
        if param.blayout == "row_major":
            return f"expects A2/A3 {name} to use non-row-major layout"
        if -1 not in (param.valid[0], dst.valid[0]) and param.valid[0] != dst.valid[0]:
            return f"expects A2/A3 {name} valid_shape[0] to equal dst valid_shape[0]"
        if param.valid[1] not in (-1, 1):
            return f"expects A2/A3 {name} valid_shape[1] to be 1"
    return None


def same_valid(a: PlainTile, b: PlainTile) -> bool:
    """The valid shapes agree where both are static."""
    return all(x == y or -1 in (x, y) for x, y in zip(a.valid, b.valid, strict=True))


def _int_width(element: str) -> int | None:
    digits = element.lstrip("su").removeprefix("i")
    if element.lstrip("su").startswith("i") and digits.isdigit():
        return int(digits)
    return None


def tgather_index_error(
    target: str, src: PlainTile, dst: PlainTile, indices: PlainTile | None, tmp: PlainTile | None
) -> str | None:
    """Index-form tgather (`ins(src, indices[, tmp]) outs(dst)`): A2A3 needs the tmp,
    of the indices' element type and valid shape; A5 takes 16-bit indices and 8-bit
    data too; indices and dst are written in whole rows."""
    a5 = target == "a5"
    if indices is None or (tmp is None and not a5):
        return "index-form tgather expects indices" + ("" if a5 else " and tmp")
    if src.element != dst.element:
        return "expects src and dst to have the same element type"
    widths = (8, 16, 32) if a5 else (16, 32)
    f8 = a5 and src.element.startswith("f8")
    if not (f8 or src.element in ("f16", "f32") or _int_width(src.element) in widths):
        kinds = "i8/i16/i32/f16/f32" if a5 else "i16/i32/f16/f32"
        return f"expects {'A5 ' if a5 else ''}gather src/dst element type to be {kinds}"
    if _int_width(indices.element) not in ((16, 32) if a5 else (32,)):
        return "expects indices element type to be i32" + (" or i16" if a5 else "")
    if dst.valid[1] not in (-1, dst.shape[1]):
        return "expects dst valid_shape[1] to equal dst cols"
    if indices.valid[1] not in (-1, indices.shape[1]):
        return "expects indices valid_shape[1] to equal indices cols"
    if not a5 and tmp is not None:
        if tmp.element != indices.element:
            return "expects tmp and indices to have the same element type"
        if not same_valid(tmp, indices):
            return "expects indices and tmp to have the same valid_shape"
    return None
