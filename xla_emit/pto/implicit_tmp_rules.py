"""PTOAS main's PTOMaterializeImplicitTmp pass: the scratch tiles a kernel may leave
out, which the pass allocates before PlanMemory. At `--pto-level=level3` nothing
plans memory, so an op that would need one must name its tmp; below level 3 the
pass sizes a tmp from static shapes. Which ops need one depends on the target
(A5's kernels need no scratch for most of them).
"""

from __future__ import annotations

from xla_emit.pto.plain_tile import PlainTile

_GENERIC = "requires explicit tmp when PlanMemory is skipped"
# Ops that need a tmp on A2A3 only (A5 kernels use none, or a placeholder).
_A2A3_ONLY = frozenset(
    {
        "tci",
        "tquant",
        "txor",
        "txors",
        "trowmax",
        "trowmin",
        "trowsum",
        "trowprod",
        "tcolargmax",
        "tcolargmin",
        "trowargmax",
        "trowargmin",
        "tprelu",
        "trem",
        "trems",
        "tsel",
        "tsels",
    }
)
_FLOATS = ("f16", "bf16", "f32")
_FLOAT_POWERS = frozenset({"tpow", "tpows"})


def implicit_tmp_error(
    op: str,
    target: str,
    level3: bool,
    src: PlainTile | None,
    dst: PlainTile | None,
    attrs: dict[str, str],
) -> str | None:
    """Why PTOAS's pass rejects `op` (without a tmp), or None."""
    reason = _needs_tmp(op, target, src, dst, attrs)
    if reason is None:
        return None
    if level3:
        return reason
    like = dst if op in ("tpow", "tpows", "txor", "txors") else src
    sized = op in ("tquant", "tpow", "tpows", "txor", "txors") and target != "a5"
    if sized and (like is None or -1 in (*like.shape, *like.valid)):
        side = "dst" if like is dst else "src"
        return f"requires static tile_buf {side} to materialize implicit {op} tmp"
    return None


def _needs_tmp(
    op: str, target: str, src: PlainTile | None, dst: PlainTile | None, attrs: dict[str, str]
) -> str | None:
    """The error PTOAS gives at level 3 when `op` has no tmp but needs one."""
    if op in _A2A3_ONLY:
        return _GENERIC if target != "a5" else None
    if op in _FLOAT_POWERS:
        return _GENERIC if dst is not None and dst.element in _FLOATS else None
    if op == "tcolsum" and attrs.get("isBinary") == "true":
        return "requires explicit tmp for binary tcolsum when PlanMemory is skipped"
    if op == "tsort32" and src is not None and (src.valid[1] == -1 or src.valid[1] % 32):
        return (
            "requires explicit tmp for tsort32 with dynamic or non-32-aligned width when "
            "PlanMemory is skipped"
        )
    if op == "tcvt" and _narrowing_cvt(target, src, dst, attrs):
        return "requires explicit tmp for non-saturating narrowing tcvt when PlanMemory is skipped"
    if op == "tmrgsort" and "no_tmp" in attrs:
        return "requires explicit tmp for tmrgsort format2 when PlanMemory is skipped"
    return None


def _narrowing_cvt(
    target: str, src: PlainTile | None, dst: PlainTile | None, attrs: dict[str, str]
) -> bool:
    if target == "a5" or src is None or dst is None:
        return False
    if attrs.get("satmode", attrs.get("sat_mode", "OFF")) != "OFF":
        return False
    narrow_f32 = src.element == "f32" and dst.element in ("i16", "si16", "ui16")
    narrow_f16 = src.element == "f16" and dst.element in ("i16", "si16", "ui16", "i8", "si8", "ui8")
    return narrow_f32 or narrow_f16
