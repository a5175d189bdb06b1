"""Target-dependent rules of the PTO ISA, on plain tile descriptions.

The `pto` dialect's verifiers check what holds on every target; the rules here
differ between A2A3 and A5 and are applied by `pto-verify-target` (and used by
the interpreter to pick TTRANS's transpose domain). Each rule returns the
messages of the violations it finds, worded with the rule and the numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from xla_emit.pto.targets import BLOCK_BYTES, Target, element_bytes

DYNAMIC = -1

# A2A3 vector elementwise ops accept these element types (pto-isa static_asserts).
_A2A3_ELEMENTWISE_TYPES: dict[str, frozenset[str]] = {
    name: frozenset({"i32", "si32", "i16", "si16", "f16", "f32"})
    for name in ("tadd", "tsub", "tmul", "tmax", "tmin")
} | {"tdiv": frozenset({"f16", "f32"}), "tsel": frozenset({"i32", "i16", "f16", "bf16", "f32"})}
# PTOAS main's A2A3 scalar and broadcast forms.
_A2A3_ELEMENTWISE_TYPES |= {
    name: frozenset({"i32", "si32", "i16", "si16", "f16", "f32"}) for name in ("tmaxs", "tmins")
} | {name: frozenset({"f16", "f32"}) for name in ("tcolexpanddiv", "trowexpanddiv")}

# A2A3 hardware limits on tile extents for tload and tmatmul.
_A2A3_MAX_EXTENT = 4095


@dataclass(frozen=True)
class TileDesc:
    """What the rules need to know about a tile (DYNAMIC for `?` valid dims)."""

    element: str
    rows: int
    cols: int
    valid_rows: int
    valid_cols: int
    row_major: bool

    @property
    def element_bytes(self) -> int:
        return element_bytes(self.element)

    @property
    def layout(self) -> str:
        return "row_major" if self.row_major else "col_major"


def _shape(rows: int, cols: int) -> str:
    def dim(d: int) -> str:
        return "?" if d == DYNAMIC else str(d)

    return f"{dim(rows)}x{dim(cols)}"


def transpose_domain(target: Target, src: TileDesc) -> tuple[int, int]:
    """The (rows, cols) of the source TTRANS reads: its valid region on A2A3,
    its static shape on A5."""
    if target == "a5":
        return src.rows, src.cols
    return src.valid_rows, src.valid_cols


def ttrans_errors(target: Target, src: TileDesc, dst: TileDesc) -> list[str]:
    """TTRANS rules of `target` beyond the element rules every target shares."""
    if target == "a2a3":
        return _ttrans_a2a3_errors(src, dst)
    return _ttrans_a5_errors(src, dst)


def _ttrans_a2a3_errors(src: TileDesc, dst: TileDesc) -> list[str]:
    """A2A3 transposes from a row-major source. PTOAS main's verifier no longer asks the
    destination's valid shape to be the source's transposed (the kernel transposes the
    valid region it finds at run time; the executor reports one that does not fit)."""
    if not src.row_major:
        return [f"A2A3 ttrans needs a row-major source, but the source is {src.layout}"]
    return []


def _major_dim_error(role: str, tile: TileDesc) -> str | None:
    """A5 aligns the major dimension (cols if row-major, rows if col-major) to 32 bytes."""
    major_name, major = ("Cols", tile.cols) if tile.row_major else ("Rows", tile.rows)
    size = major * tile.element_bytes
    if size % BLOCK_BYTES == 0:
        return None
    return (
        f"A5 ttrans needs the {role}'s major dimension aligned to 32 bytes: {tile.layout} "
        f"{major_name} * sizeof({tile.element}) = {major} * {tile.element_bytes} = {size} bytes "
        f"is not a multiple of 32"
    )


def _ttrans_a5_errors(src: TileDesc, dst: TileDesc) -> list[str]:
    errors = [
        message
        for message in (_major_dim_error("source", src), _major_dim_error("destination", dst))
        if message is not None
    ]
    if dst.rows < src.cols or dst.cols < src.rows:
        errors.append(
            f"A5 ttrans transposes the source's static shape {_shape(src.rows, src.cols)}, so the "
            f"destination must hold {_shape(src.cols, src.rows)}, but it is "
            f"{_shape(dst.rows, dst.cols)}"
        )
    return errors


def elementwise_errors(target: Target, op: str, element: str) -> list[str]:
    """Element types A2A3's vector unit lacks for an elementwise op (`tadd`, ...)."""
    if target != "a2a3":
        return []
    allowed = _A2A3_ELEMENTWISE_TYPES.get(op)
    if allowed is None or element in allowed:
        return []
    return [f"A2A3 {op} does not support {element} (supported: {', '.join(sorted(allowed))})"]


def low_precision_cvt_errors(target: Target, src: str, dst: str) -> list[str]:
    """A2A3's tcvt has no f8, hif8, packed f4 or e8m0 element types; A5's converts
    f32 to f8/hif8, f16 to hif8, bf16 to packed f4 and back, f8/hif8 to f32 (PTOAS
    main's isA5LowPrecisionTCvtPair)."""
    if not any(_low_precision(e) for e in (src, dst)):
        return []
    if target == "a2a3":
        return ["expects A2/A3 tcvt low-precision element types to be unsupported"]
    if _a5_low_precision_pair(src.removeprefix("!pto."), dst.removeprefix("!pto.")):
        return []
    return ["expects A5 tcvt low-precision type pairs to match PTO-ISA support"]


def _a5_low_precision_pair(src: str, dst: str) -> bool:
    f8 = dst.startswith("f8") and dst != "f8E8M0"
    if src == "f32":
        return f8 or dst == "hif8"
    if src == "f16":
        return dst == "hif8"
    if src == "bf16":
        return dst.startswith("f4")
    if src.startswith("f4"):
        return dst == "bf16"
    if (src.startswith("f8") and src != "f8E8M0") or src == "hif8":
        return dst == "f32"
    return False


def is_low_precision(element: str) -> bool:
    """PTOAS's low-precision element types: f8 kinds, hif8, packed f4, e8m0, bf16x2."""
    return _low_precision(element)


def _low_precision(element: str) -> bool:
    name = element.removeprefix("!pto.")
    return name.startswith(("f8", "hif8", "f4")) or name == "bf16x2"


def extent_errors(target: Target, op: str, extents: dict[str, int]) -> list[str]:
    """A2A3 limits tload rows and matmul m/k/n to [1, 4095]."""
    if target != "a2a3":
        return []
    return [
        f"A2A3 {op} needs {name} in [1, {_A2A3_MAX_EXTENT}], but got {value}"
        for name, value in extents.items()
        if value != DYNAMIC and not 1 <= value <= _A2A3_MAX_EXTENT
    ]


def tgather_compare_errors(target: Target, src_element: str, cmp_mode: str) -> list[str]:
    """The source element types of compare-form tgather (`ins(src, kValue, tmp)
    outs(dst, cdst)`) per target: A5 takes i16/i32/f16/f32, A2A3 f16/f32 and i32 for eq."""
    if target == "a2a3":
        if src_element in ("f16", "f32") or (src_element == "i32" and cmp_mode == "eq"):
            return []
        return [
            "expects A2/A3 compare-form tgather src element type to be f16/f32, or i32 when "
            f"cmpMode=eq, but got {src_element} with cmpMode={cmp_mode}"
        ]
    if src_element in ("i16", "i32", "f16", "f32"):
        return []
    return [
        "expects A5 compare-form tgather src element type to be i16/i32/f16/f32, but got "
        + src_element
    ]
