"""PTOAS main's rules of the accumulator forms of textract, tinsert and tstore
(`lib/PTO/IR/PTO.cpp`), on element type names and locations:

- a `preQuantScalar` (a textract or tinsert given an i64 quantization word) reads an
  `acc` tile;
- an `acc` tstore reads i32 or f32; with a `preQuantScalar` it writes, on A5, from i32
  an 8-bit integer, f16 or bf16, from f32 also f32, hif8 or an f8E4M3; on A2A3, from
  i32 an 8-bit integer or f16, from f32 an 8-bit integer; without one (nor fixpipe
  params) it writes i32, f32, f16 or bf16.
"""

from __future__ import annotations

_I32 = ("i32", "si32", "ui32")
_I8 = ("i8", "si8", "ui8")
_E4M3 = ("f8E4M3", "f8E4M3FN", "!pto.f8E4M3", "!pto.f8E4M3FN")


def prequant_source_error(src_loc: str) -> str | None:
    if src_loc != "acc":
        return "expects preQuantScalar form to use loc=acc src"
    return None


def _prequant_destination(target: str, src: str, dst: str) -> bool:
    if target == "a5":
        if src in _I32:
            return dst in _I8 or dst in ("f16", "bf16")
        return dst in _I8 or dst in ("f16", "bf16", "f32", "!pto.hif8", *_E4M3)
    if src in _I32:
        return dst in _I8 or dst == "f16"
    return dst in _I8


def acc_store_error(target: str, src: str, dst: str, fp: bool, prequant: bool) -> str | None:
    """The acc tstore rule `src` -> `dst` (element names) breaks on `target`, or None."""
    prefix = "A5" if target == "a5" else "A2/A3"
    if src not in (*_I32, "f32"):
        return f"expects {prefix} acc tstore src element type to be i32 or f32"
    if prequant:
        if _prequant_destination(target, src, dst):
            return None
        types = (
            "i8/ui8/f16/bf16/f32/hif8/f8E4M3"
            if target == "a5"
            else ("i8/ui8/f16" if src in _I32 else "i8/ui8")
        )
        return f"expects {prefix} acc preQuantScalar tstore dst type to be {types}"
    if not fp and dst not in (*_I32, "f32", "f16", "bf16"):
        return f"expects {prefix} acc tstore dst element type to be i32/f32/f16/bf16"
    return None
