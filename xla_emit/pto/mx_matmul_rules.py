"""PTOAS main's A5 rules of the MX matmuls and gemvs (`tmatmul.mx*`, `tgemv.mx*`;
`lib/PTO/IR/PTO.cpp`), on plain tile descriptions. With M, K from the left tile and N
from the right one:

- tmatmul.mx: the left tile's physical K (columns) and the right one's (rows) are
  positive multiples of 64; `a_scale` is [M, ceil(K/32)] in shape and in valid shape
  (row_major blayout and slayout), `b_scale` [ceil(K/32), N] (col_major both);
- tgemv.mx: `a_scale` is [M, ceil(K/32)], `b_scale` [ceil(K/32), N] (its physical
  columns those of the right tile);
- both multiply an fp8 pair (f8E4M3FN or f8E5M2 each) or a packed fp4 pair, into f32.

A dynamic extent fits any.
"""

from __future__ import annotations

from xla_emit.pto.plain_tile import PlainTile

DYNAMIC = -1
MX_FP8 = ("f8E4M3FN", "f8E5M2")
MX_FP4 = ("!pto.f4E1M2x2", "!pto.f4E2M1x2")


def _fits(extent: int, expected: int) -> bool:
    return DYNAMIC in (extent, expected) or extent == expected


def _groups(k: int) -> int:
    return DYNAMIC if k == DYNAMIC else -(-k // 32)


def _physical_k_error(left: PlainTile, right: PlainTile) -> str | None:
    for name, k in (("lhs", left.shape[1]), ("rhs", right.shape[0])):
        if k != DYNAMIC and (k < 1 or k % 64):
            return f"expects {name} physical K shape to be a positive multiple of 64 on A5"
    return None


def _matmul_scale_error(
    scale: PlainTile, left: PlainTile, right: PlainTile, is_a: bool
) -> str | None:
    name = "a_scale" if is_a else "b_scale"
    wanted = "[M, ceil(K/32)]" if is_a else "[ceil(K/32), N]"
    for dims_name, dims, lhs, rhs in (
        ("shape", scale.shape, left.shape, right.shape),
        ("valid_shape", scale.valid, left.valid, right.valid),
    ):
        m, k, n = lhs[0], lhs[1], rhs[1]
        rows, cols = (m, _groups(k)) if is_a else (_groups(k), n)
        if not (_fits(dims[0], rows) and _fits(dims[1], cols)):
            return f"expects {name} {dims_name} to be {wanted}"
    layout = "row_major" if is_a else "col_major"
    if scale.blayout != layout:
        return f"expects {name} to use the {layout} blayout on A5"
    if scale.slayout != layout:
        return f"expects {name} to use the {layout} slayout on A5"
    return None


def _gemv_scale_error(
    scale: PlainTile, left: PlainTile, right: PlainTile, is_a: bool
) -> str | None:
    m, k, n = left.valid[0], left.valid[1], right.valid[1]
    groups = _groups(k)
    shape = (m, groups) if is_a else (groups, right.shape[1])
    valid = (m, groups) if is_a else (groups, n)
    fits = all(
        _fits(a, b) for a, b in zip((*scale.shape, *scale.valid), (*shape, *valid), strict=True)
    )
    if fits:
        return None
    if is_a:
        return "expects a_scale shape/valid_shape to be [M, ceil(K/32)]"
    return "expects b_scale shape/valid_shape to be [ceil(K/32), aligned_N]/[ceil(K/32), N]"


def mx_type_error(left: str, right: str, dst: str) -> str | None:
    pair = (left in MX_FP8 and right in MX_FP8) or (left in MX_FP4 and right in MX_FP4)
    if not pair:
        return "expects A5 mx lhs/rhs element types to be a supported fp8/fp8 or fp4/fp4 pair"
    if dst != "f32":
        return "expects A5 mx result dst to use f32 element type"
    return None


def mx_error(
    gemv: bool,
    left: PlainTile,
    a_scale: PlainTile,
    right: PlainTile,
    b_scale: PlainTile,
    dst: PlainTile,
) -> str | None:
    """The first A5 MX rule broken, in PTOAS's order (operands, scales, types)."""
    if not gemv:
        error = _physical_k_error(left, right)
        if error:
            return error
    scale_error = _gemv_scale_error if gemv else _matmul_scale_error
    for scale, is_a in ((a_scale, True), (b_scale, False)):
        error = scale_error(scale, left, right, is_a)
        if error:
            return error
    return mx_type_error(left.element, right.element, dst.element)
