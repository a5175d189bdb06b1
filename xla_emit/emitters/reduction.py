"""The reduction emitters: per-thread partial results, warp shuffles and shared memory.

The hero reduce's input is viewed as contiguous components (see
`hero.reduction_groups`): row reductions `[K, R]` reduce the minor dim
(`row_reduction`, or `multi_row_reduction` for rows that fit a warp's vectors),
column reductions `[KM, R, Km]` a major one (`column_reduction`, or
`small_column_reduction` for columns a warp's width divides). All build on
`reduction_parts`; this module picks one, the only place that asks which kind a
reduction is, as XLA's CreateReductionFusion. The first lane of each row writes
the result (through the epilogue, if any).
"""

from __future__ import annotations

from xdsl.dialects import func

from xla_emit.dialects.xla_gpu import WARP_SIZE
from xla_emit.emitters.addition_order import IN_ORDER, AdditionTree
from xla_emit.emitters.column_reduction import ColumnReductionTiling, combine_column
from xla_emit.emitters.functions import FusionFunctions, Subgraph
from xla_emit.emitters.hero import (
    FusionAnalysis,
    ReductionGroups,
    analyze_fusion,
    reduction_groups,
)
from xla_emit.emitters.launch import storage_bits
from xla_emit.emitters.multi_row_reduction import (
    MultiRowReductionTiling,
    combine_multi_row,
    multi_row_vector_size,
)
from xla_emit.emitters.reduction_parts import (
    CombinePartials,
    ReductionTiling,
    emit_reduction_entry_with,
)
from xla_emit.emitters.row_reduction import RowReductionTiling, combine_row
from xla_emit.emitters.small_column_reduction import (
    SmallColumnReductionTiling,
    combine_small_column,
    is_small_column,
    small_column_vector_size,
)
from xla_emit.hlo.ir import HloComputation, HloInstruction
from xla_emit.hlo.shape import flatten_shape

ReductionTilings = (
    MultiRowReductionTiling
    | RowReductionTiling
    | SmallColumnReductionTiling
    | ColumnReductionTiling
)

# How each tiling combines its threads' partial results and writes them.
_COMBINES: dict[type[ReductionTiling], CombinePartials] = {
    MultiRowReductionTiling: combine_multi_row,
    RowReductionTiling: combine_row,
    SmallColumnReductionTiling: combine_small_column,
    ColumnReductionTiling: combine_column,
}


def tiling_of_groups(
    groups: ReductionGroups,
    input_shape: tuple[int, ...],
    output_shape: tuple[int, ...],
    smallest_input_bits: int | None = None,
    smallest_output_bits: int = 32,
) -> ReductionTilings:
    """The tiling of a reduction viewed as `groups`, vectorized as XLA does for fusion inputs
    whose narrowest element has `smallest_input_bits` (None: no inputs) and outputs whose
    narrowest has `smallest_output_bits`: rows that fit a warp's vectors several a warp,
    longer rows a warp or more each; columns a warp's width divides by 128 threads a block,
    wider ones in 32 x 32 tiles (as XLA's CreateReductionFusion chooses)."""
    if groups.is_row:
        size = multi_row_vector_size(groups, smallest_input_bits, smallest_output_bits)
        if size is not None:
            return MultiRowReductionTiling(groups, input_shape, output_shape, size)
        row = RowReductionTiling(groups, input_shape, output_shape)
        size = vector_size(row.reduced, row.threads_per_row, smallest_input_bits)
        return RowReductionTiling(groups, input_shape, output_shape, size)
    if is_small_column(groups):
        # The vector runs along the block's whole `R x Km` slice, read linearly.
        _, reduced, minor = groups.components
        size = vector_size(reduced * minor, WARP_SIZE, smallest_input_bits)
        size = small_column_vector_size(groups, size)
        return SmallColumnReductionTiling(groups, input_shape, output_shape, size)
    column = ColumnReductionTiling(groups, input_shape, output_shape)
    size = vector_size(column.minor, column.threads_per_row, smallest_input_bits)
    return ColumnReductionTiling(groups, input_shape, output_shape, size)


def vector_size(minor: int, threads: int, smallest_input_bits: int | None) -> int:
    """How many consecutive elements of the `minor` dim a thread reads per step, when
    `threads` threads share it (XLA's GetVectorSizeForMlir): 2 for 32-bit inputs, 4 for
    narrower ones where the dim is wide enough; none for odd dims, 64-bit inputs, no
    inputs, or dims too narrow to leave every thread a vector."""
    if minor % 2 != 0 or threads * 2 > minor:
        return 1
    if smallest_input_bits is None or smallest_input_bits >= 64:
        return 1
    if smallest_input_bits >= 32 or threads * 4 > minor:
        return 2
    return 4 if minor % 4 == 0 else 2


def smallest_input_bits(analysis: FusionAnalysis) -> int | None:
    """The narrowest element type among the fusion's array inputs, in bits as XLA counts
    them (`pred` a byte)."""
    widths = [
        storage_bits(leaf.element_type.bit_width)
        for parameter in analysis.computation.parameters
        for leaf in flatten_shape(parameter.shape)
    ]
    return min(widths, default=None)


def smallest_output_bits(analysis: FusionAnalysis) -> int:
    """The narrowest element type among the fusion's outputs, in bits as XLA counts them."""
    return min(
        storage_bits(leaf.element_type.bit_width)
        for root in analysis.roots
        for leaf in flatten_shape(root.shape)
    )


def reduction_tiling(analysis: FusionAnalysis) -> ReductionTilings:
    hero = analysis.hero
    groups = reduction_groups(hero)
    assert groups is not None, "the hero choice only picks contiguous reductions"
    output = flatten_shape(hero.shape)[0]
    input_shape = hero.operands[0].array_shape.dimensions
    return tiling_of_groups(
        groups,
        input_shape,
        output.dimensions,
        smallest_input_bits(analysis),
        smallest_output_bits(analysis),
    )


def emit_reduction_entry(
    name: str, fusion: FusionFunctions, analysis: FusionAnalysis, epilogue: Subgraph | None
) -> func.FuncOp:
    """The reduction fusion's entry function, by the tiling's emitter."""
    tiling = reduction_tiling(analysis)
    combine = _COMBINES[type(tiling)]
    return emit_reduction_entry_with(name, fusion, analysis, epilogue, tiling, combine)


def reduce_addition_tree(computation: HloComputation, reduce: HloInstruction) -> AdditionTree:
    """How the kernel of the fused `computation` adds up `reduce` (one of its instructions):
    by the reduction emitter's tiling when it is one of the fusion's heroes, else in order."""
    analysis = analyze_fusion(computation)
    if reduce in analysis.reduction_group:
        return reduction_tiling(analysis).addition_tree
    return IN_ORDER
