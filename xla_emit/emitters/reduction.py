"""The reduction emitters: per-thread partial results, warp shuffles and shared memory.

The hero reduce's input is viewed as contiguous components (see
`hero.reduction_groups`): row reductions `[K, R]` reduce the minor dim
(`row_reduction`), column reductions `[KM, R, Km]` a major one
(`column_reduction`). Both build on `reduction_parts`; this module picks one,
the only place that asks which kind a reduction is. Lane 0 of each row writes
the result (through the epilogue, if any).
"""

from __future__ import annotations

from xdsl.dialects import func

from xla_emit.emitters.addition_order import IN_ORDER, AdditionTree
from xla_emit.emitters.column_reduction import ColumnReductionTiling, combine_column
from xla_emit.emitters.functions import FusionFunctions, Subgraph
from xla_emit.emitters.hero import (
    EmitterKind,
    FusionAnalysis,
    ReductionGroups,
    analyze_fusion,
    reduction_groups,
)
from xla_emit.emitters.reduction_parts import emit_reduction_entry_with
from xla_emit.emitters.row_reduction import RowReductionTiling, combine_row
from xla_emit.hlo.ir import HloComputation, HloInstruction
from xla_emit.hlo.shape import flatten_shape


def tiling_of_groups(
    groups: ReductionGroups, input_shape: tuple[int, ...], output_shape: tuple[int, ...]
) -> RowReductionTiling | ColumnReductionTiling:
    """The row or column tiling of a reduction viewed as `groups`."""
    if groups.is_row:
        return RowReductionTiling(groups, input_shape, output_shape)
    return ColumnReductionTiling(groups, input_shape, output_shape)


def reduction_tiling(analysis: FusionAnalysis) -> RowReductionTiling | ColumnReductionTiling:
    hero = analysis.hero
    groups = reduction_groups(hero)
    assert groups is not None, "the hero choice only picks contiguous reductions"
    output = flatten_shape(hero.shape)[0]
    return tiling_of_groups(groups, hero.operands[0].array_shape.dimensions, output.dimensions)


def emit_reduction_entry(
    name: str, fusion: FusionFunctions, analysis: FusionAnalysis, epilogue: Subgraph | None
) -> func.FuncOp:
    """The reduction fusion's entry function, by the row or the column emitter."""
    tiling = reduction_tiling(analysis)
    combine = combine_row if isinstance(tiling, RowReductionTiling) else combine_column
    return emit_reduction_entry_with(name, fusion, analysis, epilogue, tiling, combine)


def reduce_addition_tree(computation: HloComputation, reduce: HloInstruction) -> AdditionTree:
    """How the kernel of the fused `computation` adds up `reduce` (one of its instructions):
    by the reduction emitter's tiling when it is the fusion's hero, else in order."""
    analysis = analyze_fusion(computation)
    if analysis.kind is EmitterKind.REDUCTION and analysis.hero is reduce:
        return reduction_tiling(analysis).addition_tree
    return IN_ORDER
