"""The scatter emitter: one thread per update element, combined into the output in place.

As XLA's `ScatterFusion`: the output reuses the scatter operand's buffer (the
two entry arguments share an `xla.slice_index`), and the grid covers the
*updates*. Each thread reads its update element and the index vector of its
update window, and drops the element when the window would not fit in the
operand along some indexed dim (`start ule dim - window`, which also drops
negative starts). Otherwise it combines the element into the output at
`start + window offset`:

- with `unique_indices=true` no two threads meet, so the combiner runs on the
  operand's element and the result is stored with `tensor.insert`;
- else `xla.atomic_rmw` runs the combiner on the current element, so that
  colliding updates all land (in some order, as on the GPU);
- a scatter of several operands without unique indices needs all of them at
  once, which no atomic gives: XLA's `ScatterExpander` turns it into a loop
  over the updates in order, and so does this emitter (one thread walks every
  update element, reading, combining and storing like the unique case).

The combiner computation is inlined into the kernel, as XLA inlines it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, func, scf, tensor
from xdsl.dialects.builtin import IntegerAttr, TensorType, i1
from xdsl.ir import Attribute, Block, Region, SSAValue

from xla_emit.diagnostics import UserError
from xla_emit.dialects.xla import AtomicRMWOp, YieldOp
from xla_emit.emitters.elemental import ElementalEmitter
from xla_emit.emitters.entry import begin_entry_function, begin_loop
from xla_emit.emitters.functions import FusionFunctions, Subgraph
from xla_emit.emitters.hero import FusionAnalysis
from xla_emit.emitters.launch import LaunchDimensions
from xla_emit.emitters.loop import loop_launch_config, output_shapes
from xla_emit.emitters.types import builder_at_end
from xla_emit.emitters.work_items import default_work_item_map
from xla_emit.hlo.ir import HloComputation, HloInstruction, ScatterDimensions
from xla_emit.indexing.affine import DimExpr


def emit_scatter_entry(name: str, fusion: FusionFunctions, analysis: FusionAnalysis) -> func.FuncOp:
    """One `xla.loop` over the updates, each element combined into the output(s)."""
    scatter = analysis.hero
    _check_supported(scatter)
    operands, updates = _scattered(scatter), _updates(scatter)
    update_shape = updates[0].array_shape
    unroll, launch = loop_launch_config(analysis, update_shape)
    if _runs_in_sequence(scatter):
        unroll, launch = 1, LaunchDimensions(threads_x=1, blocks_x=1)
    aliases = {n: operand.parameter_number or 0 for n, operand in enumerate(operands)}
    entry = begin_entry_function(name, fusion, output_shapes(analysis), launch, aliases)
    if update_shape.num_elements == 0:
        return entry.finish(entry.outputs)
    update_map = default_work_item_map(
        launch, unroll, update_shape.dimensions, update_shape.minor_to_major
    )
    names = [f"update_dim{d}" for d in range(update_shape.rank)]
    loop = begin_loop(entry, update_map, entry.outputs, names)
    builder = builder_at_end(loop.body.block)
    emitter = entry.emitter(builder)
    update_index = list(loop.map_results)
    values = [emitter.emit(u, update_index)[0] for u in updates]
    starts = _window_starts(emitter, scatter, update_index)
    in_bounds = _window_fits(emitter, scatter, starts)
    outputs = list(loop.region_iter_args)

    def combine() -> list[SSAValue]:
        output_index = _output_index(emitter, scatter, starts, update_index)
        return _combine_into(emitter, scatter, outputs, output_index, values)

    written = _if_then_else(emitter, in_bounds, combine, outputs)
    builder.insert(YieldOp(written))
    entry.body.insert(loop)
    return entry.finish(list(loop.res))


def _scattered(scatter: HloInstruction) -> list[HloInstruction]:
    """The operands updated in place (one per output)."""
    return list(scatter.operands[: len(scatter.operands) // 2])


def _indices(scatter: HloInstruction) -> HloInstruction:
    return scatter.operands[len(scatter.operands) // 2]


def _updates(scatter: HloInstruction) -> list[HloInstruction]:
    return list(scatter.operands[len(scatter.operands) // 2 + 1 :])


def _runs_in_sequence(scatter: HloInstruction) -> bool:
    """Several operands whose updates may collide: one thread applies them in order."""
    return len(scatter.operands) != 3 and not scatter.unique_indices


def _check_supported(scatter: HloInstruction) -> None:
    dims = scatter.scatter_dimensions
    assert dims is not None, "a scatter has dimension numbers"
    for operand in _scattered(scatter):
        if operand.opcode != "parameter":
            raise UserError(
                f"Unsupported: scatter '{scatter.name}' whose operand is computed in the "
                "fusion (XLA updates a parameter's buffer in place)",
                scatter.location,
            )


def _dims(scatter: HloInstruction) -> ScatterDimensions:
    assert scatter.scatter_dimensions is not None
    return scatter.scatter_dimensions


def _window_starts(
    emitter: ElementalEmitter, scatter: HloInstruction, update_index: Sequence[SSAValue]
) -> list[SSAValue]:
    """The index vector of this update's window: one `index` per scatter-indexed operand dim."""
    dims = _dims(scatter)
    indices = _indices(scatter)
    batch = [index for d, index in enumerate(update_index) if d not in dims.update_window_dims]
    starts: list[SSAValue] = []
    for component in range(len(dims.scatter_dims_to_operand_dims)):
        position = list(batch)
        if dims.index_vector_dim < indices.array_shape.rank:
            position.insert(dims.index_vector_dim, emitter.constant_index(component))
        raw = emitter.emit(indices, position)[0]
        starts.append(emitter.index_value(raw, indices.array_shape.element_type))
    return starts


def _operand_window_dims(scatter: HloInstruction) -> list[int]:
    """The operand dims an update window spans: neither inserted nor batching dims."""
    dims = _dims(scatter)
    removed = set(dims.inserted_window_dims) | set(dims.input_batching_dims)
    return [d for d in range(scatter.operands[0].array_shape.rank) if d not in removed]


def _window_sizes(scatter: HloInstruction) -> list[int]:
    """The update window's extent along each operand dim (1 along inserted and batching
    dims)."""
    dims = _dims(scatter)
    rank = scatter.operands[0].array_shape.rank
    window_dims = _operand_window_dims(scatter)
    update_dims = _updates(scatter)[0].array_shape.dimensions
    sizes = [1] * rank
    for window_dim, update_dim in zip(window_dims, sorted(dims.update_window_dims), strict=True):
        sizes[window_dim] = update_dims[update_dim]
    return sizes


def _window_fits(
    emitter: ElementalEmitter, scatter: HloInstruction, starts: Sequence[SSAValue]
) -> SSAValue:
    """`start ule dim - window` along every indexed dim: negative starts wrap and fail too."""
    operand_dims = scatter.operands[0].array_shape.dimensions
    sizes = _window_sizes(scatter)
    fits: SSAValue | None = None
    for start, d in zip(starts, _dims(scatter).scatter_dims_to_operand_dims, strict=True):
        bound = emitter.constant_index(operand_dims[d] - sizes[d])
        check = emitter.insert(arith.CmpiOp(start, bound, "ule")).results[0]
        fits = check if fits is None else emitter.insert(arith.AndIOp(fits, check)).results[0]
    if fits is None:
        return emitter.constant(IntegerAttr(-1, i1), "true")
    return fits


def _output_index(
    emitter: ElementalEmitter,
    scatter: HloInstruction,
    starts: Sequence[SSAValue],
    update_index: Sequence[SSAValue],
) -> list[SSAValue]:
    """`start + window offset` along each operand dim; along a batching dim, the update's
    index along the scatter dim paired with it (always in range)."""
    dims = _dims(scatter)
    rank = scatter.operands[0].array_shape.rank
    window_dims = _operand_window_dims(scatter)
    update_dims = sorted(dims.update_window_dims)
    update_shape = _updates(scatter)[0].array_shape.dimensions
    scatter_dims = [d for d in range(len(update_shape)) if d not in dims.update_window_dims]
    index_rank = _indices(scatter).array_shape.rank
    index_batch = [d for d in range(index_rank) if d != dims.index_vector_dim]
    index: list[SSAValue] = []
    for d in range(rank):
        if d in dims.input_batching_dims:
            paired = dims.scatter_indices_batching_dims[dims.input_batching_dims.index(d)]
            index.append(update_index[scatter_dims[index_batch.index(paired)]])
            continue
        offset = None
        if d in window_dims:
            update_dim = update_dims[window_dims.index(d)]
            offset = emitter.apply_expr(DimExpr(update_dim), update_index, update_shape)
        start = (
            starts[dims.scatter_dims_to_operand_dims.index(d)]
            if d in dims.scatter_dims_to_operand_dims
            else None
        )
        index.append(_add(emitter, start, offset))
    return index


def _add(emitter: ElementalEmitter, a: SSAValue | None, b: SSAValue | None) -> SSAValue:
    if a is None and b is None:
        return emitter.constant_index(0)
    if a is None or b is None:
        present = a if a is not None else b
        assert present is not None
        return present
    return emitter.insert(arith.AddiOp(a, b)).results[0]


def _combine_into(
    emitter: ElementalEmitter,
    scatter: HloInstruction,
    outputs: list[SSAValue],
    output_index: list[SSAValue],
    updates: list[SSAValue],
) -> list[SSAValue]:
    """The combiner applied to the output elements and the updates, written back."""
    combiner = scatter.called_computations[0]
    if scatter.unique_indices or _runs_in_sequence(scatter):
        if scatter.unique_indices:
            current = [emitter.emit(operand, output_index)[0] for operand in _scattered(scatter)]
        else:  # earlier updates may have written the element: read the output so far
            current = [
                emitter.insert(
                    tensor.ExtractOp(output, output_index, _element_type(output))
                ).results[0]
                for output in outputs
            ]
        combined = _inline(combiner, emitter, [*current, *updates])
        return [
            emitter.insert(tensor.InsertOp(value, output, output_index)).results[0]
            for value, output in zip(combined, outputs, strict=True)
        ]
    (update,) = updates
    body = Block(arg_types=[update.type])
    body.args[0].name_hint = "current"
    outer = emitter.builder
    emitter.builder = builder_at_end(body)
    (combined,) = _inline(combiner, emitter, [body.args[0], update])
    emitter.insert(YieldOp([combined]))
    emitter.builder = outer
    return [emitter.insert(AtomicRMWOp(outputs[0], output_index, Region(body))).results[0]]


def _element_type(tensor_value: SSAValue) -> Attribute:
    type_ = tensor_value.type
    assert isinstance(type_, TensorType)
    return type_.element_type


def _inline(
    combiner: HloComputation,
    emitter: ElementalEmitter,
    arguments: list[SSAValue],
) -> list[SSAValue]:
    """The combiner's results (one per tuple element) computed from `arguments` at the
    emitter's insertion point."""
    root = combiner.root
    roots = tuple(root.operands) if root.opcode == "tuple" else (root,)
    subgraph = Subgraph(combiner.name, roots, frozenset(combiner.instructions))
    scalars = {
        parameter: [argument]
        for parameter, argument in zip(combiner.parameters, arguments, strict=True)
    }
    inlined = ElementalEmitter(
        FusionFunctions(combiner, [subgraph]), subgraph, emitter.builder, [], scalars
    )
    return [value for r in roots for value in inlined.emit(r, [])]


def _if_then_else(
    emitter: ElementalEmitter,
    condition: SSAValue,
    then_body: Callable[[], list[SSAValue]],
    unchanged: list[SSAValue],
) -> list[SSAValue]:
    """`scf.if %condition` yielding `then_body()` or `unchanged` (tensors)."""
    then_block = Block()
    outer = emitter.builder
    emitter.builder = builder_at_end(then_block)
    emitter.caches.append({})
    written = then_body()
    emitter.insert(scf.YieldOp(*written))
    emitter.caches.pop()
    emitter.builder = outer
    else_block = Block()
    builder_at_end(else_block).insert(scf.YieldOp(*unchanged))
    types = [value.type for value in unchanged]
    if_op = scf.IfOp(condition, types, Region(then_block), Region(else_block))
    return list(emitter.insert(if_op).results)
