"""The in-place dynamic-update-slice emitter: only the update's elements are written.

When a fusion's roots are dynamic-update-slices of parameters that nothing
else reads, XLA lets each output reuse its parameter's buffer and launches a
loop over the *update* shape (`InPlaceDynamicUpdateSliceFusion`). Each thread
computes its update element and writes it at `start + index`, the start
indices clamped to `[0, dim - update_dim]` as the HLO semantics ask; the rest
of the output already holds the operand. The shared buffer shows in the entry
signature: the parameter and its output carry the same `xla.slice_index`.
"""

from __future__ import annotations

from xdsl.dialects import func

from xla_emit.dialects.xla import YieldOp
from xla_emit.emitters.entry import begin_entry_function, begin_loop, insert_element
from xla_emit.emitters.functions import FusionFunctions
from xla_emit.emitters.hero import FusionAnalysis, in_place_dus_parameters
from xla_emit.emitters.loop import loop_launch_config, output_shapes
from xla_emit.emitters.types import builder_at_end
from xla_emit.emitters.work_items import default_work_item_map
from xla_emit.indexing.affine import DimExpr, SymbolExpr


def emit_in_place_dus_entry(
    name: str, fusion: FusionFunctions, analysis: FusionAnalysis
) -> func.FuncOp:
    """One `xla.loop` over the update shape writing every root's update into its output."""
    parameters = in_place_dus_parameters(analysis.computation)
    assert parameters is not None, "chosen only for in-place dynamic-update-slice fusions"
    aliases = {
        output: parameter.parameter_number or 0 for output, parameter in enumerate(parameters)
    }
    update = analysis.roots[0].operands[1].array_shape
    unroll, launch = loop_launch_config(analysis, update)
    entry = begin_entry_function(name, fusion, output_shapes(analysis), launch, aliases)
    if update.num_elements == 0:
        return entry.finish(entry.outputs)
    update_map = default_work_item_map(launch, unroll, update.dimensions, update.minor_to_major)
    names = [f"update_dim{d}" for d in range(update.rank)]
    loop = begin_loop(entry, update_map, entry.outputs, names)
    builder = builder_at_end(loop.body.block)
    emitter = entry.emitter(builder)
    update_index = list(loop.map_results)
    written = []
    for root, output in zip(analysis.roots, loop.region_iter_args, strict=True):
        value = emitter.emit(root.operands[1], update_index)[0]
        starts, domain = emitter.clamped_starts(root, 2, update.dimensions)
        output_index = [
            emitter.apply_grid_expr(DimExpr(d) + SymbolExpr(d), domain, update_index, starts)
            for d in range(update.rank)
        ]
        written.append(insert_element(builder, value, output, output_index))
    builder.insert(YieldOp(written))
    entry.body.insert(loop)
    return entry.finish(list(loop.res))
