"""The loop emitter: one thread per `unroll_factor` consecutive output elements.

The entry function runs one `xla.loop` over XLA's default work-item map
(the linearized output, so that writes coalesce), calls the root subgraph
with `pure_call` at each element's index and inserts the results into the
output tensors. Multi-output fusions (tuple roots) insert every root.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.ir import SSAValue

from xla_emit.diagnostics import UserError
from xla_emit.dialects.xla import YieldOp
from xla_emit.emitters.elemental import ElementalEmitter
from xla_emit.emitters.entry import begin_entry_function, begin_loop, insert_element
from xla_emit.emitters.functions import FusionFunctions
from xla_emit.emitters.hero import FusionAnalysis
from xla_emit.emitters.launch import (
    LaunchDimensions,
    launch_dimensions,
    loop_unroll_factor,
    storage_bits,
)
from xla_emit.emitters.types import builder_at_end
from xla_emit.emitters.work_items import default_work_item_map
from xla_emit.hlo.indexing_analysis import memory_order_map
from xla_emit.hlo.ir import HloComputation, HloInstruction
from xla_emit.hlo.shape import ArrayShape, flatten_shape

# XLA does not unroll fusions whose ops get slower when unrolled.
_MAX_CONCATENATE_OPERANDS_FOR_UNROLLING = 10


def may_prevent_vectorization(computation: HloComputation) -> bool:
    """Concatenates of many operands and variadic reduces do not profit from unrolling."""
    for instruction in computation.instructions:
        if (
            instruction.opcode == "concatenate"
            and len(instruction.operands) > _MAX_CONCATENATE_OPERANDS_FOR_UNROLLING
        ):
            return True
        if instruction.opcode == "reduce" and len(instruction.operands) > 2:
            return True
    return False


def output_shapes(analysis: FusionAnalysis) -> list[ArrayShape]:
    return [leaf for root in analysis.roots for leaf in flatten_shape(root.shape)]


def loop_launch_config(
    analysis: FusionAnalysis, iteration_shape: ArrayShape | None = None
) -> tuple[int, LaunchDimensions]:
    """The unroll factor and grid of a loop over `iteration_shape` (default: the first output).

    XLA's `ComputeLoopFusionConfig`: the element count is the iteration space's,
    the narrowest element type is the outputs'.
    """
    shapes = output_shapes(analysis)
    num_elements = (iteration_shape or shapes[0]).num_elements
    bits = min(storage_bits(shape.element_type.bit_width) for shape in shapes)
    unroll = loop_unroll_factor(num_elements, bits, may_prevent_vectorization(analysis.computation))
    return unroll, launch_dimensions(num_elements, unroll)


def emit_loop_entry(name: str, fusion: FusionFunctions, analysis: FusionAnalysis) -> func.FuncOp:
    """The loop fusion's entry function (the subgraph functions come from `fusion`)."""
    shapes = output_shapes(analysis)
    _check_same_output_dims(analysis, shapes)
    unroll, launch = loop_launch_config(analysis)
    index_shape = shapes[0]
    entry = begin_entry_function(name, fusion, shapes, launch)
    if index_shape.num_elements == 0:
        # Nothing to write: the outputs are returned as they are.
        return entry.finish(entry.outputs)
    names = [f"dim{i}" for i in range(index_shape.rank)]
    work_items = default_work_item_map(
        launch, unroll, index_shape.dimensions, index_shape.minor_to_major
    )
    loop = begin_loop(entry, work_items, entry.outputs, names)
    builder = builder_at_end(loop.body.block)
    emitter = entry.emitter(builder)
    indices = list(loop.map_results)
    values: list[SSAValue] = []
    for root in analysis.roots:
        root_indices = _root_index(emitter, index_shape, root, indices)
        values.extend(emitter.emit(root, root_indices))
    updated = [
        insert_element(builder, value, iter_arg, index)
        for value, iter_arg, index in zip(
            values,
            loop.region_iter_args,
            _leaf_indices(emitter, analysis, index_shape, indices),
            strict=True,
        )
    ]
    builder.insert(YieldOp(updated))
    entry.body.insert(loop)
    return entry.finish(list(loop.res))


def _root_index(
    emitter: ElementalEmitter,
    index_shape: ArrayShape,
    root: HloInstruction,
    indices: list[SSAValue],
) -> list[SSAValue]:
    """The root's index for the loop's (the first output's) index: the same element in
    memory when the dimensions differ (XLA's bitcast map between the outputs)."""
    shape = flatten_shape(root.shape)[0]
    if shape.dimensions == index_shape.dimensions:
        return indices
    return emitter.apply_map(memory_order_map(index_shape, shape), indices, index_shape.dimensions)


def _leaf_indices(
    emitter: ElementalEmitter,
    analysis: FusionAnalysis,
    index_shape: ArrayShape,
    indices: list[SSAValue],
) -> list[list[SSAValue]]:
    """Where each output leaf is written."""
    return [
        indices
        if leaf.dimensions == index_shape.dimensions
        else emitter.apply_map(memory_order_map(index_shape, leaf), indices, index_shape.dimensions)
        for root in analysis.roots
        for leaf in flatten_shape(root.shape)
    ]


def _check_same_output_dims(analysis: FusionAnalysis, shapes: list[ArrayShape]) -> None:
    """All outputs are written from one loop over the first's elements: every output needs
    as many elements (XLA fuses outputs of one element count)."""
    for root in analysis.roots:
        for shape in flatten_shape(root.shape):
            if shape.num_elements != shapes[0].num_elements:
                raise UserError(
                    f"Unsupported: multi-output loop fusion with outputs of shapes "
                    f"{shapes[0]} and {shape}",
                    root.location,
                )
