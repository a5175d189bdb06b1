"""The entry function of a fusion kernel, shared by every emitter kind.

    func.func @fusion(%arg0: tensor<...>, ..., %argN: tensor<...>, ...) -> (tensor<...>, ...)
        attributes {xla.entry} {
      %thread_id_x = gpu.thread_id  x {xla.range = [0 : index, T-1 : index]}
      %block_id_x = gpu.block_id  x {xla.range = [0 : index, B-1 : index]}
      ... writes the output arguments with tensor.insert ...
      return %written_outputs...
    }

The launch grid is recoverable from the `xla.range` of the two id ops.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import func, tensor
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr, UnitAttr, i64
from xdsl.ir import SSAValue

from xla_emit.dialects.gpu import BlockIdOp, ThreadIdOp
from xla_emit.dialects.xla import (
    XLA_RANGE,
    XLA_SLICE_INDEX,
    IndexingMapAttr,
    LoopOp,
    get_xla_range,
    xla_range_attr,
)
from xla_emit.emitters.elemental import ElementalEmitter
from xla_emit.emitters.functions import FusionFunctions, Subgraph, name_arguments
from xla_emit.emitters.launch import LaunchDimensions
from xla_emit.emitters.types import builder_at_end, tensor_type
from xla_emit.hlo.ir import HloInstruction
from xla_emit.hlo.shape import ArrayShape
from xla_emit.indexing.indexing_map import IndexingMap
from xla_emit.indexing.interval import Interval


@dataclass(frozen=True)
class EntryFunction:
    """An entry function under construction: its arguments, grid ids and a builder at the end
    of its body (nested regions get their own builders, passed explicitly)."""

    function: func.FuncOp
    inputs: list[SSAValue]
    outputs: list[SSAValue]
    thread_id: SSAValue
    block_id: SSAValue
    body: Builder
    fusion: FusionFunctions

    def emitter(
        self, builder: Builder, injected: dict[HloInstruction, list[SSAValue]] | None = None
    ) -> ElementalEmitter:
        """An emitter into the entry at `builder` that owns no instruction: every fusion
        value is a call, a parameter read or `injected`."""
        return ElementalEmitter(self.fusion, _ENTRY, builder, self.inputs, injected or {})

    def finish(self, results: Sequence[SSAValue]) -> func.FuncOp:
        self.body.insert(func.ReturnOp(*results))
        return self.function


def begin_entry_function(
    name: str,
    fusion: FusionFunctions,
    output_shapes: Sequence[ArrayShape],
    launch: LaunchDimensions,
    aliases: dict[int, int] | None = None,
) -> EntryFunction:
    """The entry's signature and its `gpu.thread_id`/`gpu.block_id` with the grid's ranges.

    `aliases` maps an output's position to the parameter whose buffer it reuses
    (in-place fusions): both arguments get that parameter's `xla.slice_index`,
    as XLA's buffer assignment gives arguments sharing one buffer slice.
    """
    input_types = fusion.parameter_types()
    output_types = [tensor_type(shape) for shape in output_shapes]
    arg_attrs = [DictionaryAttr({}) for _ in input_types + output_types]
    for output, parameter in (aliases or {}).items():
        slice_index = DictionaryAttr({XLA_SLICE_INDEX: IntegerAttr(parameter, i64)})
        arg_attrs[parameter] = arg_attrs[len(input_types) + output] = slice_index
    function = func.FuncOp(
        name, (input_types + output_types, output_types), arg_attrs=ArrayAttr(arg_attrs)
    )
    function.attributes["xla.entry"] = UnitAttr()
    args = function.body.block.args
    name_arguments(args)
    builder = builder_at_end(function.body.block)
    thread_id = builder.insert(
        ThreadIdOp("x", {XLA_RANGE: xla_range_attr(Interval(0, launch.threads_x - 1))})
    )
    block_id = builder.insert(
        BlockIdOp("x", {XLA_RANGE: xla_range_attr(Interval(0, launch.blocks_x - 1))})
    )
    thread_id.result.name_hint = "thread_id_x"
    block_id.result.name_hint = "block_id_x"
    return EntryFunction(
        function,
        list(args[: len(input_types)]),
        list(args[len(input_types) :]),
        thread_id.result,
        block_id.result,
        builder,
        fusion,
    )


def launch_dimensions_of(entry: func.FuncOp) -> LaunchDimensions:
    """The grid an entry function was emitted for, read back from its id ops' `xla.range`."""
    threads = blocks = 1
    for op in entry.walk():
        # Our grids are one-dimensional: the y and z ids (today's spelling prints them) are 1.
        if isinstance(op, ThreadIdOp | BlockIdOp) and op.dimension_name == "x":
            bounds = get_xla_range(op)
            if bounds is None:
                continue
            if isinstance(op, ThreadIdOp):
                threads = bounds.upper + 1
            else:
                blocks = bounds.upper + 1
    return LaunchDimensions(threads_x=threads, blocks_x=blocks)


def begin_loop(
    entry: EntryFunction,
    indexing_map: IndexingMap,
    inits: Sequence[SSAValue],
    result_names: Sequence[str],
) -> LoopOp:
    """An empty `xla.loop` over `(thread_id_x, block_id_x)` with named block arguments."""
    attr = IndexingMapAttr.from_map(indexing_map)
    loop = LoopOp(attr, [entry.thread_id, entry.block_id], inits)
    for iv, variable in zip(loop.induction_vars, indexing_map.range_vars, strict=True):
        iv.name_hint = variable.name or None
    for arg, name in zip(loop.map_results, result_names, strict=True):
        arg.name_hint = name
    for arg in loop.region_iter_args:
        arg.name_hint = "iter"
    return loop


def insert_element(
    builder: Builder, value: SSAValue, destination: SSAValue, indices: Sequence[SSAValue]
) -> SSAValue:
    """`%inserted = tensor.insert %value into %destination[indices]`."""
    insert = builder.insert(tensor.InsertOp(value, destination, list(indices)))
    insert.results[0].name_hint = "inserted"
    return insert.results[0]


# The subgraph of an entry function: it computes nothing itself.
_ENTRY = Subgraph("entry", (), frozenset())
