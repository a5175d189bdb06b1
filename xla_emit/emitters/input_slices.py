"""The input-slices emitter: a multi-output fusion whose roots all slice one input shape.

XLA's `InputSlicesFusion` (in XLA until 2025) launches a loop over the slices'
common input shape: each thread computes the input element once and stores it
into every output whose slice contains it, at the index shifted by the
slice's start. The slices have unit strides, so each input element lands in
each output at most once:

    %r:2 = xla.loop (%th, %bl)[...] -> (%input_dim0, ...) in #input_map
               iter_args(%out0 = %arg2, %out1 = %arg3) {
      %v = xla.pure_call @input(...)
      %in0 = <start0 <= %input_dim0 <= limit0 - 1 ...>
      %w0 = xla.predicated_insert %v into %out0[%input_dim0 - start0, ...] if %in0
      ...
    }
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, func
from xdsl.ir import SSAValue

from xla_emit.dialects.xla import PredicatedInsertOp, YieldOp
from xla_emit.emitters.elemental import ElementalEmitter
from xla_emit.emitters.entry import begin_entry_function, begin_loop, insert_element
from xla_emit.emitters.functions import FusionFunctions
from xla_emit.emitters.hero import FusionAnalysis
from xla_emit.emitters.loop import loop_launch_config, output_shapes
from xla_emit.emitters.types import builder_at_end
from xla_emit.emitters.work_items import default_work_item_map
from xla_emit.hlo.ir import HloInstruction
from xla_emit.indexing.affine import DimExpr
from xla_emit.indexing.interval import Interval


def emit_input_slices_entry(
    name: str, fusion: FusionFunctions, analysis: FusionAnalysis
) -> func.FuncOp:
    """One `xla.loop` over the input shape, writing each element into the slices holding it."""
    input_shape = analysis.roots[0].operands[0].array_shape
    unroll, launch = loop_launch_config(analysis, input_shape)
    entry = begin_entry_function(name, fusion, output_shapes(analysis), launch)
    input_map = default_work_item_map(
        launch, unroll, input_shape.dimensions, input_shape.minor_to_major
    )
    names = [f"input_dim{d}" for d in range(input_shape.rank)]
    loop = begin_loop(entry, input_map, entry.outputs, names)
    builder = builder_at_end(loop.body.block)
    emitter = entry.emitter(builder)
    input_index = list(loop.map_results)
    written = [
        _insert_if_in_slice(emitter, root, input_index, output)
        for root, output in zip(analysis.roots, loop.region_iter_args, strict=True)
    ]
    builder.insert(YieldOp(written))
    entry.body.insert(loop)
    return entry.finish(list(loop.res))


def _insert_if_in_slice(
    emitter: ElementalEmitter,
    slice_: HloInstruction,
    input_index: Sequence[SSAValue],
    output: SSAValue,
) -> SSAValue:
    """Stores the input element into `output` when `input_index` lies in the slice."""
    value = emitter.emit(slice_.operands[0], input_index)[0]
    input_dims = slice_.operands[0].array_shape.dimensions
    ranges = slice_.slice_ranges or ()
    checks: list[SSAValue] = []
    output_index: list[SSAValue] = []
    for position, (size, bounds) in enumerate(zip(input_dims, ranges, strict=True)):
        inside = Interval(bounds.start, bounds.limit - 1)
        checks.extend(emitter.range_checks(input_index[position], inside, Interval(0, size - 1)))
        shifted = DimExpr(position) - bounds.start
        output_index.append(emitter.apply_expr(shifted, input_index, input_dims))
    if not checks:
        return insert_element(emitter.builder, value, output, output_index)
    condition = checks[0]
    for check in checks[1:]:
        condition = emitter.insert(arith.AndIOp(condition, check)).results[0]
    return emitter.insert(PredicatedInsertOp(value, output, output_index, condition)).results[0]
