"""`tpu-infer-memref-layout`: give memrefs without a layout Mosaic's default `#tpu.tiled` layout.

Kernel arguments (`func.func` arguments) and `memref.alloc`/`memref.alloca`
results get the tiling `xla_emit.layout.mosaic.mosaic_default_tiles` chooses
from element bitwidth and shape, with contiguous tile strides; a 32-bit
`memref.alloca` whose last dim fits one tile row gets `(1,128)`.
`tpu.memref_slice` results inherit the tiles and strides of the memref they
view. Memrefs that already have a layout, semaphores and SMEM memrefs are left
alone, as is the memref shape (Mosaic would pad allocations up to whole
tiles; our layouts account for padding in the physical size instead).

Options: `hardware-generation` (default 6) selects the small-tile rules of
older TPU generations.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import FunctionType, MemRefType, ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xla_emit.dialects.tpu import MemRefSliceOp, TiledLayoutAttr, tiled_layout_of
from xla_emit.passes.analysis.tpu_alignment import check_hardware_generation, tiling_of


def _with_default_layout(value: SSAValue, generation: int) -> MemRefType[Attribute] | None:
    """The value's memref type with the default tiled layout, or None if it needs none."""
    type_ = value.type
    if not isinstance(type_, MemRefType):
        return None
    memref_type: MemRefType[Attribute] = type_
    if tiled_layout_of(memref_type) is not None:
        return None
    tiling = tiling_of(value, generation)
    if tiling is None or not tiling.layout.tiles:
        return None
    layout = TiledLayoutAttr(tiling.layout.tiles, tiling.layout.tile_strides)
    return MemRefType(memref_type.element_type, memref_type.shape, layout, memref_type.memory_space)


@dataclass(frozen=True)
class InferKernelArgumentLayouts(RewritePattern):
    """Kernel arguments without a layout get the default one; the function type follows."""

    generation: int

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: FuncOp, rewriter: PatternRewriter) -> None:
        entry = op.body.blocks.first
        if entry is None:
            return  # a declaration: nothing to retype
        changed = False
        for arg in entry.args:
            new_type = _with_default_layout(arg, self.generation)
            if new_type is not None:
                rewriter.replace_value_with_new_type(arg, new_type)
                changed = True
        if changed:
            inputs = [arg.type for arg in entry.args]
            op.function_type = FunctionType.from_lists(inputs, op.function_type.outputs.data)
            rewriter.handle_operation_modification(op)


@dataclass(frozen=True)
class InferAllocationLayouts(RewritePattern):
    """`memref.alloc`/`memref.alloca` results without a layout get the default one."""

    generation: int

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.AllocOp | memref.AllocaOp, rewriter: PatternRewriter
    ) -> None:
        new_type = _with_default_layout(op.memref, self.generation)
        if new_type is not None:
            rewriter.replace_value_with_new_type(op.memref, new_type)


class InheritSliceLayout(RewritePattern):
    """A `tpu.memref_slice` is a view: its result takes the source's tiles and strides."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MemRefSliceOp, rewriter: PatternRewriter) -> None:
        source, result = op.mem_ref.type, op.result.type
        assert isinstance(source, MemRefType) and isinstance(result, MemRefType)
        source_layout = tiled_layout_of(source)
        if source_layout is None or tiled_layout_of(result) is not None:
            return
        new_type = MemRefType(result.element_type, result.shape, source_layout, result.memory_space)
        rewriter.replace_value_with_new_type(op.result, new_type)


@dataclass(frozen=True)
class TpuInferMemrefLayoutPass(ModulePass):
    """Give kernel arguments, allocations and slices Mosaic's default `#tpu.tiled` layouts."""

    name = "tpu-infer-memref-layout"

    hardware_generation: int = 6

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_hardware_generation(self.hardware_generation)
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    InferKernelArgumentLayouts(self.hardware_generation),
                    InferAllocationLayouts(self.hardware_generation),
                    InheritSliceLayout(),
                ]
            ),
            apply_recursively=True,
        ).rewrite_module(op)
