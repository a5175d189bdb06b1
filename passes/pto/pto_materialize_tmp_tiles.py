"""`pto-materialize-tmp-tiles`: give each level-2 `ttrans` its scratch tile.

The C++ intrinsic `TTRANS(dst, src, tmp)` and PTOAS take the scratch tile as
an explicit operand. For a level-2 `ttrans` without one, this pass sizes it by
the TTRANS rules (`xla_emit.pto.ttrans_tmp`) and allocates it right before the
op:

    pto.ttrans ins(%src : !pto.tile_buf<vec, 16x16xf32>) outs(%dst : ...)
  becomes
    %tmp = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
    pto.ttrans ins(%src, %tmp : ..., !pto.tile_buf<vec, 16x16xf32>) outs(%dst : ...)

A 2-D transpose of H valid rows by W valid columns needs W rows of H padded to
the row stride (16, or 32 for 8-bit types); conversions use their own formulas.
No scratch is added when the conversion needs none (to FRACTAL_Z) or when the
strides miss the fast path's alignment (TTRANS then copies element by element).
Level-1 ops and ops that already have a scratch tile are left alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xla_emit.dialects.pto import (
    DYNAMIC,
    AllocTileOp,
    TileBufType,
    TileTypeBase,
    TTransOp,
    ttrans_conversion,
)

from xla_emit.pto.ttrans_tmp import Conversion, tmp_tile_shape, uses_fast_path


def _row_stride_elements(tile: TileTypeBase) -> int:
    """Elements between consecutive rows of a tile's storage."""
    return tile.cols.data if tile.is_row_major else tile.rows.data


def _transposed_extent(tile: TileTypeBase) -> tuple[int, int]:
    """The valid rows and cols TTRANS reads (the static shape where they are dynamic)."""
    rows = tile.rows.data if tile.valid_rows.data == DYNAMIC else tile.valid_rows.data
    cols = tile.cols.data if tile.valid_cols.data == DYNAMIC else tile.valid_cols.data
    return rows, cols


def scratch_type(op: TTransOp) -> TileBufType | None:
    """The scratch tile `op` needs, or None when it runs without one."""
    src, dst = op.source(), op.destination_type()
    element_bytes = src.element_bytes
    conversion, source_shape, c0 = ttrans_conversion(op)
    if conversion is Conversion.TRANSPOSE_2D:
        if not uses_fast_path(_row_stride_elements(src), _row_stride_elements(dst), element_bytes):
            return None
        source_shape = _transposed_extent(src)
    shape = tmp_tile_shape(conversion, source_shape, c0, element_bytes)
    if shape is None:
        return None
    return TileBufType.of(src.element_type, shape[0], shape[1], loc="vec")


@dataclass(frozen=True)
class MaterializeTTransScratch(RewritePattern):
    """Adds the scratch operand to a level-2 ttrans that lacks one."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TTransOp, rewriter: PatternRewriter) -> None:
        if not op.is_dps or len(op.ins) != 1:
            return  # level 1, or the scratch is already explicit
        tile_type = scratch_type(op)
        if tile_type is None:
            return  # scalar copy or a conversion without scratch
        alloc = AllocTileOp(tile_type)
        alloc.result.name_hint = "tmp"
        new_op = TTransOp([op.ins[0], alloc.result], list(op.outs), (), dict(op.attributes))
        rewriter.replace(op, [alloc, new_op])


@dataclass(frozen=True)
class PTOMaterializeTmpTilesPass(ModulePass):
    """Allocates the scratch tile of every level-2 ttrans that needs one. No options."""

    name = "pto-materialize-tmp-tiles"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(MaterializeTTransScratch(), apply_recursively=False).rewrite_module(op)
