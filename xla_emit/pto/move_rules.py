"""Target rules of PTO's data-movement ops between tile locations (tinsert;
textract's are in `textract_rules.py`) and of the ops only A5 has, as PTOAS's verifiers state them
(`lib/PTO/IR/PTO.cpp`, dispatched on the module's target).

- A2A3 tinsert moves vec -> vec (same i8/f16/bf16/f32 element) or acc -> mat, both
  NZ (col_major boxes of row_major), dst fractal 512, f32 -> f16/bf16 (quantized:
  f32 -> i8, i32 -> i8/f16/i16).
- A5 tinsert moves acc -> mat or vec (f32 -> f16/bf16/f32 or i32 -> i32; quantized
  f32 -> i8/fp8/f16/bf16/f32, i32 -> i8/f16/bf16), vec -> mat (dst NZ, src ND or
  NZ, same element) or vec -> vec (both ND or both NZ, same element).
- thistogram and tpack exist on A5 only.
"""

from __future__ import annotations

from dataclasses import dataclass

from xla_emit.pto.targets import Target

A5_ONLY_OPS = ("thistogram", "tpack")
_A5_VEC_ELEMENTS = frozenset({"f8E4M3", "f8E4M3FN", "f8E5M2", "f16", "bf16", "f32", "i8", "i32"})
_A2A3_VEC_ELEMENTS = frozenset({"i8", "f16", "bf16", "f32"})
_A2A3_QUANT_PAIRS = frozenset({("f32", "i8"), ("i32", "i8"), ("i32", "f16"), ("i32", "i16")})
_A5_F32_QUANT = frozenset({"i8", "ui8", "f16", "bf16", "f32"})


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


# PTOAS main's ops of one target only (thistogram, tpack: A5; taddrelu: A2A3).
A2A3_ONLY_OPS = ("taddrelu",)


def a5_only_errors(target: Target, op: str) -> list[str]:
    if op in A2A3_ONLY_OPS and target == "a5":
        return [f"{op} is only supported on A2/A3 targets"]
    if target == "a5" or op not in A5_ONLY_OPS:
        return []
    return [f"{op} is only supported on A5"]


def tinsert_errors(
    target: Target, src: PlacedTile, dst: PlacedTile, quantized: bool = False
) -> list[str]:
    """`quantized`: the form with a pre-quantization scalar or fixpipe tile, whose
    acc-source element pairs differ."""
    if target == "a5":
        return _tinsert_a5_errors(src, dst, quantized)
    return _tinsert_a2a3_errors(src, dst, quantized)


def _tinsert_a2a3_errors(src: PlacedTile, dst: PlacedTile, quantized: bool) -> list[str]:
    if (src.loc, dst.loc) == ("vec", "vec"):
        if src.element != dst.element or src.element not in _A2A3_VEC_ELEMENTS:
            return [
                "expects A2/A3 vec->vec tinsert src/dst to have same supported dtype "
                "(i8/f16/bf16/f32)"
            ]
        return []
    if (src.loc, dst.loc) != ("acc", "mat"):
        return ["expects A2/A3 tinsert to use acc->mat or vec->vec"]
    if not src.is_nz:
        return ["expects A2/A3 tinsert src to use blayout=col_major and slayout=row_major"]
    if not dst.is_nz:
        return ["expects A2/A3 tinsert dst to use blayout=col_major and slayout=row_major"]
    if dst.fractal != 512:
        return ["expects A2/A3 tinsert dst fractal size to be 512"]
    if quantized:
        if (src.element, dst.element) not in _A2A3_QUANT_PAIRS:
            return [
                "expects A2/A3 acc fp/preQuantScalar tinsert element types to be "
                "(src=f32,dst=i8) or (src=i32,dst=i8/f16/i16)"
            ]
    elif not (src.element == "f32" and dst.element in ("f16", "bf16")):
        return ["expects A2/A3 tinsert element types to be src=f32, dst=f16/bf16"]
    return []


def _tinsert_a5_errors(src: PlacedTile, dst: PlacedTile, quantized: bool) -> list[str]:
    pair = (src.loc, dst.loc)
    if src.loc == "acc" and dst.loc in ("mat", "vec"):
        return _tinsert_a5_acc_errors(src, dst, quantized)
    if pair == ("vec", "mat") and not dst.is_nz:
        return ["expects A5 vec->mat tinsert dst to use blayout=col_major and slayout=row_major"]
    if pair == ("vec", "mat") and not (src.is_nd or src.is_nz):
        return [
            "expects A5 vec->mat tinsert src to use ND(row_major/none_box) or "
            "NZ(col_major/row_major) layout"
        ]
    if pair == ("vec", "vec") and not ((src.is_nd and dst.is_nd) or (src.is_nz and dst.is_nz)):
        return [
            "expects A5 vec->vec tinsert src/dst layouts to match: both ND(row_major/none_box) "
            "or both NZ(col_major/row_major)"
        ]
    if pair in (("vec", "mat"), ("vec", "vec")):
        if src.element != dst.element or not _a5_vec_element(src.element):
            return [
                f"expects A5 {pair[0]}->{pair[1]} tinsert src/dst to have same supported dtype "
                "(fp8/f16/bf16/f32/i8/i32)"
            ]
        return []
    return [
        "expects A5 tinsert to use a supported src/dst loc pair: "
        "acc->mat, acc->vec, vec->mat, or vec->vec"
    ]


def _tinsert_a5_acc_errors(src: PlacedTile, dst: PlacedTile, quantized: bool) -> list[str]:
    if not src.is_nz:
        return ["expects A5 acc->mat tinsert src to use blayout=col_major and slayout=row_major"]
    if dst.loc == "mat" and not dst.is_nz:
        return ["expects A5 acc->mat tinsert dst to use blayout=col_major and slayout=row_major"]
    if dst.loc == "vec" and not (dst.is_nd or dst.is_nz):
        return [
            "expects A5 acc->vec tinsert dst to use ND(row_major/none_box) or "
            "NZ(col_major/row_major) layout"
        ]
    plain = (src.element == "f32" and dst.element in ("f16", "bf16", "f32")) or (
        src.element == dst.element == "i32"
    )
    quant = (src.element == "f32" and (dst.element in _A5_F32_QUANT or _fp8(dst.element))) or (
        src.element == "i32" and dst.element in ("i8", "ui8", "f16", "bf16")
    )
    if not (quant if quantized else plain):
        extra = (
            "; with fp/scalar: (src=f32,dst=i8/fp8/f16/bf16/f32) or (src=i32,dst=i8/f16/bf16)"
            if quantized
            else ""
        )
        return [
            "expects A5 acc-source tinsert element types to be "
            "(src=f32,dst=f16/bf16/f32) or (src=i32,dst=i32)" + extra
        ]
    return []


def _fp8(element: str) -> bool:
    return element.startswith("f8") or element in ("hif8", "!pto.hif8")


def _a5_vec_element(element: str) -> bool:
    """f8 and hif8 kinds, packed f4 pairs, 8- and 32-bit integers, f16, bf16, f32."""
    return (
        element in _A5_VEC_ELEMENTS
        or _fp8(element)
        or "f4" in element
        or element in ("ui8", "si8", "ui32", "si32")
    )
