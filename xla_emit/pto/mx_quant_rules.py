"""PTOAS main's rules for `pto.tquant.mx` (MX quantization: one shared exponent per
group of 32 values), as its TQuantMxOp verifier states them for A5. `grpAxis`
axis1 (default, "ND") groups 32 columns of a row; axis0 ("DN") 32 rows of a column.
Outputs: dst (the quantized values; f4 pairs for MXFP4), exp (the exponents), max
and scaling (per group, the source's element type), and in the older fused form an
`exp_zz`. The shapes follow the pinned pto-isa kernels' addressing: canonical
grouped shapes ([M, N/32] or [M/32, N]) or the legacy flat [1, M*N/32], compact
prefixes, and scratch capacities of the flat forms.
"""

from __future__ import annotations

from dataclasses import dataclass

from xla_emit.pto.plain_tile import PlainTile


@dataclass(frozen=True)
class MxQuant:
    """The tiles and options of one tquant.mx."""

    src: PlainTile
    dst: PlainTile
    exp: PlainTile
    max: PlainTile
    scaling: PlainTile
    exp_zz: PlainTile | None
    quant_type: str  # MXFP8 or MXFP4_E2M1
    axis: str  # axis0 (DN) or axis1 (ND)
    interleave: bool
    store_mode: bool
    scale_alg: str  # ocp or nv

    @property
    def is_dn(self) -> bool:
        return self.axis == "axis0"

    @property
    def is_fp4(self) -> bool:
        return self.quant_type == "MXFP4_E2M1"

    @property
    def groups(self) -> int:
        rows, cols = self.src.valid
        return rows * (cols // 32)


class MxRuleError(Exception):
    """A rule the op breaks (the message is PTOAS's)."""


def tquant_mx_error(target: str, op: MxQuant) -> str | None:
    """The first rule `op` breaks on `target`, or None."""
    if target != "a5":
        return "tquant.mx is only supported on A5"
    try:
        _check_tiles(op)
        _check_elements(op)
        _check_shapes(op)
        _check_grouped(op)
        _check_dst(op)
        _check_dn(op) if op.is_dn else _check_nd(op)
        _check_b16_padding(op)
    except MxRuleError as error:
        return str(error)
    return None


def _fail(message: str) -> None:
    raise MxRuleError(message)


def _named(op: MxQuant) -> list[tuple[str, PlainTile]]:
    named = [("src", op.src), ("dst", op.dst), ("exp", op.exp), ("max", op.max)]
    named.append(("scaling", op.scaling))
    return named


def _check_tiles(op: MxQuant) -> None:
    tiles = _named(op) + ([("exp_zz", op.exp_zz)] if op.exp_zz else [])
    for name, tile in tiles:
        if tile.loc != "vec":
            _fail(f"expects {name} to be in the vec address space")
        if tile.blayout != "row_major":
            _fail(f"expects {name} to use the row_major blayout")
        if tile.slayout != "none_box":
            _fail(f"expects {name} to use the none_box slayout")
    if op.interleave and not op.is_dn:
        _fail("expects interleave to be used only with grpAxis=axis0")
    if op.exp_zz and op.is_dn:
        _fail(
            "expects the deprecated exp_zz form to use grpAxis=axis1; use pto.tmov with a "
            "non-scaling tmp for axis0 exponents"
        )
    if op.store_mode and op.scale_alg != "ocp":
        _fail("storeMode form must not override quantScaleAlg")


def _check_elements(op: MxQuant) -> None:
    src = op.src.element
    if src not in ("f32", "f16", "bf16"):
        _fail("expects src element type to be f32/f16/bf16")
    if op.exp.element not in ("i8", "ui8", "si8"):
        _fail("expects exp element type to be i8/ui8")
    if op.exp_zz and op.exp_zz.element not in ("i8", "ui8", "si8"):
        _fail("expects exp_zz element type to be i8/ui8")
    if op.max.element != src:
        _fail("expects max element type to match src element type")
    if op.scaling.element != src:
        _fail("expects scaling element type to match src element type")
    if not op.is_fp4 and op.dst.element not in ("i8", "ui8", "si8"):
        _fail("expects MXFP8 dst element type to be i8/ui8")
    if op.is_fp4 and op.dst.element != "!pto.f4E2M1x2":
        _fail("expects MXFP4_E2M1 dst element type to be !pto.f4E2M1x2")
    if op.is_fp4 and src not in ("f16", "bf16"):
        _fail("expects MXFP4_E2M1 src element type to be f16/bf16")


def _check_shapes(op: MxQuant) -> None:
    for name, tile in _named(op):
        if -1 in (*tile.valid, *tile.shape):
            _fail(f"expects static valid and physical shapes for {name} in MX quantization")
    if op.exp_zz and -1 in (*op.exp_zz.valid, *op.exp_zz.shape):
        _fail(
            "expects static valid and physical shapes for exp_zz in the deprecated fused MX "
            "quantization form"
        )
    (rows, cols), (prows, pcols) = op.src.valid, op.src.shape
    if rows <= 0 or cols <= 0 or prows < rows or pcols < cols:
        _fail("expects positive source valid shape within physical shape")
    grouped = rows if op.is_dn else cols
    if grouped % 32:
        axis = 0 if op.is_dn else 1
        _fail(f"expects src valid_shape[{axis}] to be a multiple of 32 when grpAxis is {op.axis}")
    if op.exp_zz and op.exp_zz.valid[0] * op.exp_zz.valid[1] != op.groups:
        _fail("expects exp_zz valid element count to equal MX group count")


def _grouped_shape_ok(op: MxQuant, tile: PlainTile) -> bool:
    rows, cols = op.src.valid
    canonical = (rows // 32, cols) if op.is_dn else (rows, cols // 32)
    legacy = not op.is_dn and tile.valid == (1, op.groups)
    return tile.valid == canonical or legacy


def _check_grouped(op: MxQuant) -> None:
    wanted = (
        "canonical [M/32, N] for grpAxis=axis0"
        if op.is_dn
        else "canonical [M, N/32] or legacy flat [1, M*N/32] for grpAxis=axis1"
    )
    for name, tile in (("max", op.max), ("scaling", op.scaling)):
        if not _grouped_shape_ok(op, tile):
            _fail(f"expects {name} valid_shape to match {wanted}")
    if not op.interleave:
        if not _grouped_shape_ok(op, op.exp):
            _fail(f"expects exp valid_shape to match {wanted}")
        return
    (rows, cols), prows = op.src.valid, op.src.shape[0]
    if rows % 64:
        _fail("expects src valid rows to be a multiple of 64 when interleave is true")
    if prows % 64:
        _fail("expects src physical rows to be a multiple of 64 when interleave is true")
    if op.exp.valid != (rows // 64, 2 * cols):
        _fail("expects exp valid_shape to match [M/64, 2N] for grpAxis=axis0 with interleave=true")


def _check_dst(op: MxQuant) -> None:
    (rows, cols), pcols = op.src.valid, op.src.shape[1]
    if op.is_fp4 and pcols % 2:
        _fail("expects MXFP4 src physical cols to be even for packed destination addressing")
    dst_cols = cols // 2 if op.is_fp4 else cols
    if op.dst.valid != (rows, dst_cols):
        _fail(f"expects dst valid_shape to be [{rows}, {dst_cols}] for MX quantization")
    if op.dst.shape[0] < rows:
        _fail("expects dst physical rows to cover src valid rows")


def _require(name: str, tile: PlainTile, elements: int) -> None:
    if tile.elements < elements:
        _fail(f"expects {name} physical capacity to cover {elements} elements")


def _require_bytes(name: str, tile: PlainTile, size: int) -> None:
    if tile.capacity < size:
        _fail(f"expects {name} physical capacity to cover {size} bytes")


def _align(value: int, alignment: int) -> int:
    return -(-value // alignment) * alignment


def _check_dn(op: MxQuant) -> None:
    (rows, cols), pcols = op.src.valid, op.src.shape[1]
    pack = 2 if op.is_fp4 else 1
    dst_cols = cols // pack
    if op.is_fp4 and op.dst.shape[1] != pcols // pack:
        _fail("expects MXFP4 axis0 dst physical cols to equal src physical cols / 2")
    stride = pcols // pack if op.is_fp4 else op.dst.shape[1]
    _require("dst", op.dst, (rows - 1) * stride + dst_cols)
    if op.is_fp4 and (pcols // pack) % 32 and op.src.element == "f16":
        _fail(
            "does not support FP16 MXFP4 axis0 when packed source stride is not a multiple of "
            "32 bytes"
        )
    if op.max.shape[1] != pcols:
        _fail("expects max physical cols to equal src physical cols for grpAxis=axis0")
    if op.scaling.shape[1] != pcols:
        _fail("expects scaling physical cols to equal src physical cols for grpAxis=axis0")
    aux = rows // 32 * pcols
    _require("max", op.max, aux)
    _require("scaling", op.scaling, aux)
    if not op.interleave:
        if op.exp.shape[1] != pcols:
            _fail("expects exp physical cols to equal src physical cols for grpAxis=axis0")
        _require("exp", op.exp, aux)
    else:
        if op.exp.shape[0] != op.src.shape[0] // 64:
            _fail("expects interleaved exp physical rows to be src physical rows / 64")
        if op.exp.shape[1] != _align(2 * pcols, 32):
            _fail("expects interleaved exp physical cols to be align32(2 * src physical cols)")
    if op.src.element == "f32" and op.interleave:
        _fail("does not support FP32 interleave with the pinned pto-isa revision")


def _check_nd(op: MxQuant) -> None:
    (rows, cols), (prows, pcols) = op.src.valid, op.src.shape
    pack = 2 if op.is_fp4 else 1
    if op.dst.shape[1] != pcols // pack:
        kind = "MXFP4 axis1 dst physical cols to equal src physical cols / 2"
        _fail(f"expects {kind}" if op.is_fp4 else _MXFP8_DST_COLS)
    _require("dst", op.dst, (rows - 1) * (pcols // pack) + cols // pack)
    for name, tile in (("max", op.max), ("scaling", op.scaling)):
        if tile.valid[0] != 1 and tile.shape[1] != tile.valid[1]:
            _fail(f"expects {name} valid elements to form a compact physical prefix")
    _require("max", op.max, op.groups)
    if op.exp.shape[0] == 1:
        _check_nd_flat(op, rows, cols, prows, pcols)
        return
    if op.exp.valid[0] == 1:
        _fail("expects legacy flat exp to use physical rows == 1")
    if op.src.element in ("f16", "bf16"):
        _fail(
            "does not support axis1 canonical 2D B16 quantization with the pinned pto-isa revision"
        )
    if op.exp.valid != (rows, cols // 32):
        _fail("expects exp valid_shape to match canonical [M, N/32] for grpAxis=axis1")
    if op.exp.shape[0] < rows or op.exp.shape[1] < cols // 32:
        _fail("expects axis1 canonical exp physical shape to cover [M, N/32]")
    _require("exp", op.exp, (rows - 1) * op.exp.shape[1] + cols // 32)
    _require("scaling", op.scaling, op.groups)


_MXFP8_DST_COLS = "expects MXFP8 axis1 dst physical cols to equal src physical cols"


def _check_nd_flat(op: MxQuant, rows: int, cols: int, prows: int, pcols: int) -> None:
    if pcols != cols:
        _fail("expects axis1 flat exp to use a tight source with physical cols equal to valid cols")
    if op.exp.valid != (1, op.groups):
        _fail("expects axis1 flat exp valid_shape to match legacy flat [1, M*N/32]")
    _require("exp", op.exp, op.groups)
    # The pinned kernels unroll twice over big sources, which doubles the f32 scratch.
    unroll = prows * pcols > 1024 and (prows * pcols) % 256 == 0 and (rows * pcols) % 256 == 0
    if op.src.element == "f32":
        groups = op.groups * 2 if unroll else op.groups
        name = "axis1 flat unrolled f32 scaling" if unroll else "axis1 flat f32 scaling"
        _require_bytes(name, op.scaling, _align(groups, 64) * 4)
    elif op.scale_alg == "ocp":
        _require_bytes("axis1 flat B16 OCP scaling", op.scaling, _align(op.groups, 128) * 2)
    else:
        _fail("does not support axis1 flat B16 NV quantization with the pinned pto-isa revisions")


def _check_b16_padding(op: MxQuant) -> None:
    (rows, cols), pcols = op.src.valid, op.src.shape[1]
    padded = op.src.element in ("f16", "bf16") and cols < pcols and 128 % pcols == 0
    if padded and rows * pcols % 128:
        _fail(
            "does not support padded B16 source whose VL-aligned padding store has an "
            "incomplete final VL"
        )
