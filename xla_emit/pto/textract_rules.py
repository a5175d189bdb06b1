"""PTOAS main's textract rules, per target (`lib/PTO/IR/PTO.cpp`, TExtractOp::verify).

A textract copies a window of `src` into `dst`; where the tiles live decides which
hardware path moves it, and each path has its own layouts and element types:

- every target: src and dst have the same element type unless src is the
  accumulator (acc -> mat/vec converts through the fixpipe); a fixpipe tile (`fp`)
  lives in `scaling`; `fp` and the pre-quantization scalar exclude each other and,
  with `reluPreMode`, need an acc source.
- A2A3: vec -> vec (the base form only); acc -> mat (both NZ, dst fractal 512,
  f32 -> f16/bf16, quantized f32 -> i8 or i32 -> i8/f16/i16); mat -> left/right
  (src row_major boxes or row_major inner boxes; left dst zZ, right dst nZ).
  Elements i8/f16/bf16/f32 (i16 too through `fp`).
- A5: mat -> left/right/scaling, vec -> mat/vec, acc -> mat/vec, no other pair;
  `accToVecMode` on acc -> vec only; mat sources' box layouts per dst (left dst
  col_major boxes of row_major, right dst row_major boxes of col_major); vec -> vec
  both ND; acc sources NZ, to an NZ mat or an ND vec; f32 -> f16/bf16/f32 or
  i32 -> i32, quantized f32 -> i8/fp8/f16/bf16/f32 or i32 -> i8/f16/bf16. Elements
  the 8-bit kinds (fp8, hif8, packed f4, 8-bit integers), f16, bf16 and f32.

Integer widths count whatever the signedness, as MLIR's `isInteger(width)` does.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from xla_emit.pto.move_rules import PlacedTile
from xla_emit.pto.targets import Target


@dataclass(frozen=True)
class ExtractForm:
    """What a textract adds to its two tiles: a fixpipe tile's location (None: no
    `fp`), a pre-quantization scalar, a ReLU before quantization, an acc -> vec mode."""

    fp_loc: str | None = None
    pre_quant: bool = False
    relu: bool = False
    acc_to_vec: bool = False

    @property
    def quantized(self) -> bool:
        return self.fp_loc is not None or self.pre_quant


def textract_errors(
    target: Target, src: PlacedTile, dst: PlacedTile, form: ExtractForm
) -> list[str]:
    """The first textract rule `src -> dst` breaks on `target` (empty: none)."""
    if dst.loc == "left":
        # PTOAS's tile_buf parser overrides a left tile's box layout with its target's
        # (`resolveTileBufBLayout`): row_major on A2A3, col_major on A5.
        dst = replace(dst, blayout="col_major" if target == "a5" else "row_major")
    error = _common_error(src, dst, form) or (
        _a5_error(src, dst, form) if target == "a5" else _a2a3_error(src, dst, form)
    )
    return [error] if error else []


def _common_error(src: PlacedTile, dst: PlacedTile, form: ExtractForm) -> str:
    if form.fp_loc is not None and form.fp_loc != "scaling":
        return "expects fp to use loc=scaling"
    if src.loc != "acc" and src.element != dst.element:
        return "expects src and dst to have the same element type"
    return ""


def _source_form_error(src: PlacedTile, form: ExtractForm) -> str:
    """The forms that only an acc source takes (both targets check them alike). A
    pre-quantization word on another source is the op verifier's to reject
    (`acc_form_rules.prequant_source_error`), before any target pass runs."""
    if form.fp_loc is not None and form.pre_quant:
        return "expects fp and preQuantScalar to be mutually exclusive"
    if src.loc == "acc":
        return ""
    if form.fp_loc is not None:
        return "expects fp form to use loc=acc src"
    if form.relu:
        return "expects reluPreMode form to use loc=acc src"
    return ""


def _a2a3_error(src: PlacedTile, dst: PlacedTile, form: ExtractForm) -> str:
    i16_through_fp = form.fp_loc is not None and _int_width(dst.element) == 16
    if not (_a2a3_element(dst.element) or i16_through_fp):
        return "expects A2/A3 textract element type to be i8/f16/bf16/f32"
    error = _source_form_error(src, form)
    if error:
        return error
    if form.acc_to_vec:
        return "expects accToVecMode only on A5 acc->vec textract forms"
    if src.loc == dst.loc == "vec":
        if form.pre_quant or form.relu:
            return (
                "expects vec->vec textract to use the base form without preQuantScalar or "
                "reluPreMode"
            )
        return ""
    if src.loc == "acc":
        return _a2a3_acc_error(src, dst, form)
    if src.loc != "mat":
        return "expects A2/A3 textract src to use loc=mat, loc=acc, or loc=vec"
    if dst.loc not in ("left", "right"):
        return "expects A2/A3 textract dst to use loc=left, loc=right, loc=mat, or loc=vec"
    if not (src.blayout == "row_major" or src.slayout == "row_major"):
        return "expects A2/A3 textract src to use a supported mat blayout/slayout combination"
    if dst.loc == "left" and (dst.blayout, dst.slayout) != ("row_major", "row_major"):
        return "expects A2/A3 left dst to use row_major blayout and row_major slayout"
    if dst.loc == "right" and (dst.blayout, dst.slayout) != ("row_major", "col_major"):
        return "expects A2/A3 right dst to use row_major blayout and col_major slayout"
    return ""


def _a2a3_acc_error(src: PlacedTile, dst: PlacedTile, form: ExtractForm) -> str:
    if dst.loc != "mat":
        return "expects A2/A3 acc-source textract dst to use loc=mat"
    if not src.is_nz:
        return (
            "expects A2/A3 acc-source textract src to use blayout=col_major and slayout=row_major"
        )
    if not dst.is_nz:
        return (
            "expects A2/A3 acc-source textract dst to use blayout=col_major and slayout=row_major"
        )
    if dst.fractal != 512:
        return "expects A2/A3 acc-source textract dst fractal size to be 512"
    s, d = src.element, dst.element
    if form.quantized:
        quant = (s == "f32" and _int_width(d) == 8) or (
            _int_width(s) == 32 and (_int_width(d) in (8, 16) or d == "f16")
        )
        if not quant:
            return (
                "expects A2/A3 acc preQuantScalar textract element types to be "
                "(src=f32,dst=i8) or (src=i32,dst=i8/f16/i16)"
            )
    elif not (s == "f32" and d in ("f16", "bf16")):
        return "expects A2/A3 acc textract element types to be src=f32, dst=f16/bf16"
    return ""


_A5_PAIRS = {
    "mat": ("left", "right", "scaling"),
    "vec": ("mat", "vec"),
    "acc": ("mat", "vec"),
}


def _a5_error(src: PlacedTile, dst: PlacedTile, form: ExtractForm) -> str:
    if not _a5_element(dst.element):
        return "expects A5 textract element type to be an fp8/f16/bf16/f32 or int8 family type"
    error = _source_form_error(src, form)
    if error:
        return error
    if form.acc_to_vec and (src.loc, dst.loc) != ("acc", "vec"):
        return "expects accToVecMode only on A5 acc->vec textract forms"
    if dst.loc not in _A5_PAIRS.get(src.loc, ()):
        return "expects A5 textract to use a supported src/dst loc pair"
    if src.loc == "mat":
        return _a5_mat_error(src, dst, form)
    if src.loc == "vec":
        if dst.loc != "vec":
            return ""
        if form.pre_quant or form.relu:
            return (
                "expects vec-source textract to use the base form without preQuantScalar or "
                "reluPreMode"
            )
        if not (src.is_nd and dst.is_nd):
            return (
                "expects A5 vec->vec textract src/dst to use ND layout "
                "(blayout=row_major, slayout=none_box)"
            )
        return ""
    return _a5_acc_error(src, dst, form)


def _a5_mat_error(src: PlacedTile, dst: PlacedTile, form: ExtractForm) -> str:
    if form.pre_quant or form.relu:
        return (
            "expects mat-source textract to use the base form without preQuantScalar or reluPreMode"
        )
    row_boxes = src.blayout == "row_major"
    zn = row_boxes and src.slayout == "col_major"
    nz = not row_boxes and src.slayout == "row_major"
    # A left dst also takes any source of row_major boxes.
    if not (zn or nz or (dst.loc == "left" and row_boxes)):
        return "expects A5 textract src to use a supported mat blayout/slayout combination"
    if dst.loc == "left" and not dst.is_nz:
        return "expects A5 left dst to use col_major blayout and row_major slayout"
    if dst.loc == "right" and (dst.blayout, dst.slayout) != ("row_major", "col_major"):
        return "expects A5 right dst to use row_major blayout and col_major slayout"
    return ""


def _a5_acc_error(src: PlacedTile, dst: PlacedTile, form: ExtractForm) -> str:
    if not src.is_nz:
        return "expects A5 acc-source textract src to use blayout=col_major and slayout=row_major"
    if dst.loc == "mat" and not dst.is_nz:
        return "expects A5 acc-source textract dst to use blayout=col_major and slayout=row_major"
    if dst.loc == "vec" and not dst.is_nd:
        return (
            "expects A5 acc->vec textract dst to use ND layout (blayout=row_major, "
            "slayout=none_box)"
        )
    s, d = src.element, dst.element
    if form.quantized:
        # Builtin 8-bit floats only: PTOAS's hif8 is a type of its own, not a FloatType.
        to_8_bit = _int_width(d) == 8 or d.startswith("f8")
        quant = (s == "f32" and (d in ("f16", "bf16", "f32") or to_8_bit)) or (
            _int_width(s) == 32 and (_int_width(d) == 8 or d in ("f16", "bf16"))
        )
        if not quant:
            return (
                "expects A5 acc preQuantScalar textract element types to be "
                "(src=f32,dst=i8/fp8/f16/bf16/f32) or (src=i32,dst=i8/f16/bf16)"
            )
    elif not ((s == "f32" and d in ("f16", "bf16", "f32")) or _int_width(s) == _int_width(d) == 32):
        return (
            "expects A5 acc textract element types to be "
            "(src=f32,dst=f16/bf16/f32) or (src=i32,dst=i32)"
        )
    return ""


def _int_width(element: str) -> int | None:
    """The width of an integer element (`i8`, `si32`, `ui16`), None for the rest."""
    digits = element.removeprefix("si").removeprefix("ui").removeprefix("i")
    if digits != element and digits.isdigit():
        return int(digits)
    return None


def _a2a3_element(element: str) -> bool:
    return _int_width(element) == 8 or element in ("f16", "bf16", "f32")


def _8_bit(element: str) -> bool:
    """The 8-bit floats (fp8 kinds, hif8) and 8-bit integers."""
    return _int_width(element) == 8 or element.startswith("f8") or "hif8" in element


def _a5_element(element: str) -> bool:
    return _8_bit(element) or "f4" in element or element in ("f16", "bf16", "f32")
