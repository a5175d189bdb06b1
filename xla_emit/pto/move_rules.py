"""Target rules of PTO's data-movement ops between tile locations (textract,
tinsert) and of the ops only A5 has, as PTOAS's verifiers state them
(`lib/PTO/IR/PTO.cpp`, dispatched on the module's target).

- A2A3 tinsert moves acc -> mat, both NZ (col_major boxes of row_major), dst
  fractal 512, f32 -> f16/bf16.
- A5 tinsert moves acc -> mat (f32 -> f16/bf16/f32 or i32 -> i32), vec -> mat
  (dst NZ, src ND or NZ, same element) or vec -> vec (both ND, same element).
- A5 textract from vec to vec needs ND tiles.
- thistogram and tpack exist on A5 only.
"""

from __future__ import annotations

from dataclasses import dataclass

from xla_emit.pto.targets import Target

A5_ONLY_OPS = ("thistogram", "tpack")
_A5_VEC_ELEMENTS = frozenset({"f8E4M3", "f8E4M3FN", "f8E5M2", "f16", "bf16", "f32", "i8", "i32"})


@dataclass(frozen=True)
class PlacedTile:
    """A tile's location, element type and box layouts."""

    loc: str
    element: str
    blayout: str
    slayout: str
    fractal: int

    @property
    def is_nd(self) -> bool:
        return self.blayout == "row_major" and self.slayout == "none_box"

    @property
    def is_nz(self) -> bool:
        return self.blayout == "col_major" and self.slayout == "row_major"


def a5_only_errors(target: Target, op: str) -> list[str]:
    if target == "a5" or op not in A5_ONLY_OPS:
        return []
    return [f"{op} is only supported on A5"]


def textract_errors(target: Target, src: PlacedTile, dst: PlacedTile) -> list[str]:
    if target == "a5" and src.loc == dst.loc == "vec" and not (src.is_nd and dst.is_nd):
        return [
            "expects A5 vec->vec textract src/dst to use ND layout "
            "(blayout=row_major, slayout=none_box)"
        ]
    return []


def tinsert_errors(target: Target, src: PlacedTile, dst: PlacedTile) -> list[str]:
    return _tinsert_a5_errors(src, dst) if target == "a5" else _tinsert_a2a3_errors(src, dst)


def _tinsert_a2a3_errors(src: PlacedTile, dst: PlacedTile) -> list[str]:
    if (src.loc, dst.loc) != ("acc", "mat"):
        return ["expects A2/A3 tinsert src to use loc=acc and dst to use loc=mat"]
    if not src.is_nz:
        return ["expects A2/A3 tinsert src to use blayout=col_major and slayout=row_major"]
    if not dst.is_nz:
        return ["expects A2/A3 tinsert dst to use blayout=col_major and slayout=row_major"]
    if dst.fractal != 512:
        return ["expects A2/A3 tinsert dst fractal size to be 512"]
    if not (src.element == "f32" and dst.element in ("f16", "bf16")):
        return ["expects A2/A3 tinsert element types to be src=f32, dst=f16/bf16"]
    return []


def _tinsert_a5_errors(src: PlacedTile, dst: PlacedTile) -> list[str]:
    pair = (src.loc, dst.loc)
    if pair == ("acc", "mat"):
        if not (src.is_nz and dst.is_nz):
            return [
                "expects A5 acc->mat tinsert src and dst to use blayout=col_major and "
                "slayout=row_major"
            ]
        ok = (src.element == "f32" and dst.element in ("f16", "bf16", "f32")) or (
            src.element == dst.element == "i32"
        )
        if not ok:
            return [
                "expects A5 acc->mat tinsert element types to be "
                "(src=f32,dst=f16/bf16/f32) or (src=i32,dst=i32)"
            ]
        return []
    if pair in (("vec", "mat"), ("vec", "vec")):
        if pair == ("vec", "mat") and not (dst.is_nz and (src.is_nd or src.is_nz)):
            return ["expects A5 vec->mat tinsert dst to be NZ and src ND or NZ"]
        if pair == ("vec", "vec") and not (src.is_nd and dst.is_nd):
            return [
                "expects A5 vec->vec tinsert src/dst to use ND layout "
                "(blayout=row_major, slayout=none_box)"
            ]
        if src.element != dst.element or src.element not in _A5_VEC_ELEMENTS:
            return [
                f"expects A5 {pair[0]}->{pair[1]} tinsert src/dst to have same supported dtype "
                "(fp8/f16/bf16/f32/i8/i32)"
            ]
        return []
    return [
        "expects A5 tinsert to use a supported src/dst loc pair: acc->mat, vec->mat, or vec->vec"
    ]
