"""The concatenate emitter: one loop per operand, each over the largest operand's shape.

XLA's `ConcatenateFusion` launches the grid of a loop fusion over the largest
operand (the one with most elements along the concatenated dim) instead of
the output, so no thread decides which operand an output element comes from:

    %r0 = xla.loop (%th, %bl)[...] -> (%dim0, ...) in #operand0_map iter_args(%out = %arg_out)
      { %v = pure_call @operand0(...); <epilogue>; tensor.insert %v into %out[%dim0, ...] }
    %r1 = xla.loop ... in #operand1_map iter_args(%out = %r0) { ... }

Each operand's map is the largest operand's work-item map, restricted to the
operand's extent along the concatenated dim and shifted by its offset there.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.ir import SSAValue

from xla_emit.dialects.xla import YieldOp
from xla_emit.emitters.entry import EntryFunction, begin_entry_function, begin_loop, insert_element
from xla_emit.emitters.functions import FusionFunctions, Subgraph
from xla_emit.emitters.hero import FusionAnalysis
from xla_emit.emitters.loop import loop_launch_config
from xla_emit.emitters.subgraphs import emit_epilogue
from xla_emit.emitters.types import builder_at_end
from xla_emit.emitters.work_items import default_work_item_map
from xla_emit.hlo.ir import HloInstruction
from xla_emit.hlo.shape import ArrayShape
from xla_emit.indexing.indexing_map import IndexingMap
from xla_emit.indexing.interval import Interval


def largest_operand_shape(concatenate: HloInstruction) -> ArrayShape:
    """The first operand with the most elements along the concatenated dim."""
    dim = concatenate_dimension(concatenate)
    return max(
        (operand.array_shape for operand in concatenate.operands),
        key=lambda shape: shape.dimensions[dim],
    )


def concatenate_dimension(concatenate: HloInstruction) -> int:
    (dim,) = concatenate.dimensions or (0,)
    return dim


def operand_output_map(
    input_map: IndexingMap, dim: int, offset: int, operand_size: int
) -> IndexingMap:
    """Where the threads write one operand: `input_map` inside the operand, shifted by `offset`."""
    along = input_map.results[dim]
    restricted = input_map.with_constraint(along, Interval(0, operand_size - 1))
    results = list(restricted.results)
    results[dim] = along + offset
    return IndexingMap(
        restricted.dim_vars,
        restricted.range_vars,
        restricted.rt_vars,
        tuple(results),
        restricted.constraints,
        restricted.is_known_empty,
    ).simplify()


def emit_concatenate_entry(
    name: str, fusion: FusionFunctions, analysis: FusionAnalysis, epilogue: Subgraph | None
) -> func.FuncOp:
    """The concatenate fusion's entry: one `xla.loop` per operand, threaded through the output."""
    concatenate = analysis.hero
    largest = largest_operand_shape(concatenate)
    unroll, launch = loop_launch_config(analysis, largest)
    input_map = default_work_item_map(launch, unroll, largest.dimensions, largest.minor_to_major)
    entry = begin_entry_function(name, fusion, [analysis.roots[0].array_shape], launch)
    dim = concatenate_dimension(concatenate)
    output = entry.outputs[0]
    offset = 0
    for operand in concatenate.operands:
        size = operand.array_shape.dimensions[dim]
        output_map = operand_output_map(input_map, dim, offset, size)
        output = _emit_operand_loop(
            entry, operand, input_map, output_map, output, analysis, epilogue
        )
        offset += size
    return entry.finish([output])


def _emit_operand_loop(
    entry: EntryFunction,
    operand: HloInstruction,
    input_map: IndexingMap,
    output_map: IndexingMap,
    output: SSAValue,
    analysis: FusionAnalysis,
    epilogue: Subgraph | None,
) -> SSAValue:
    rank = len(output_map.results)
    loop = begin_loop(entry, output_map, [output], [f"dim{d}" for d in range(rank)])
    builder = builder_at_end(loop.body.block)
    emitter = entry.emitter(builder)
    grid = [entry.thread_id, entry.block_id]
    input_index = [
        emitter.apply_grid_expr(expr, input_map, grid, loop.induction_vars)
        for expr in input_map.results
    ]
    value = emitter.emit(operand, input_index)[0]
    output_index = list(loop.map_results)
    if epilogue is not None:
        emitter.injected[analysis.hero] = [value]
        values, output_index = emit_epilogue(emitter, analysis, epilogue, output_index)
        value = values[0]
    inserted = insert_element(builder, value, loop.region_iter_args[0], output_index)
    builder.insert(YieldOp([inserted]))
    entry.body.insert(loop)
    return loop.res[0]
