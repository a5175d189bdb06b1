"""The functions of one fusion: its subgraphs, their names, and their emission.

A `Subgraph` is emitted as `func.func private @name(tensors..., indices...,
injected...) -> (elements...)`; a reducer computation as a scalar function.
`FusionFunctions` records which subgraph owns each root and which functions
were called, so only those are emitted, in the order a reader meets them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IndexType
from xdsl.ir import Attribute, SSAValue

from xla_emit.dialects.xla import XLA_RANGE, xla_range_attr
from xla_emit.emitters.elemental import ElementalEmitter
from xla_emit.emitters.partitioner import sanitize_function_name
from xla_emit.emitters.types import builder_at_end, element_type, tensor_type
from xla_emit.hlo.ir import HloComputation, HloInstruction
from xla_emit.hlo.shape import ArrayShape, flatten_shape
from xla_emit.indexing.interval import Interval

# Names of index arguments, as in the seed's `@gelu(%arg0, %i, %j, %k)`.
_INDEX_NAMES = ("i", "j", "k", "l", "m", "n", "o", "p")


@dataclass(eq=False)
class Subgraph:
    """A piece of a fused computation emitted as one function.

    `roots` are the values the function returns, `instructions` every
    instruction computed inside it; `injected` values (a hero's result, for
    epilogues) arrive as extra scalar arguments after the indices.
    """

    name: str
    roots: tuple[HloInstruction, ...]
    instructions: frozenset[HloInstruction]
    injected: tuple[HloInstruction, ...] = ()

    @property
    def index_shape(self) -> tuple[int, ...]:
        """The shape the index arguments range over: the first root's (first leaf's) shape."""
        return flatten_shape(self.roots[0].shape)[0].dimensions

    @property
    def result_shapes(self) -> list[ArrayShape]:
        return [leaf for root in self.roots for leaf in flatten_shape(root.shape)]


@dataclass
class FusionFunctions:
    """Every subgraph of a fusion, where each instruction lives, and the emitted functions."""

    computation: HloComputation
    subgraphs: list[Subgraph]
    root_of: dict[HloInstruction, Subgraph] = field(default_factory=dict[HloInstruction, Subgraph])
    reducers: dict[str, func.FuncOp] = field(default_factory=dict[str, func.FuncOp])
    # Names taken by kernels' entry functions, which other functions must not reuse.
    reserved: frozenset[str] = frozenset()
    # Names of the subgraphs some emitted function calls: only those are emitted.
    called: dict[str, None] = field(default_factory=dict[str, None])

    def __post_init__(self) -> None:
        for subgraph in self.subgraphs:
            subgraph.name = self.unreserved(subgraph.name)
            for root in subgraph.roots:
                self.root_of[root] = subgraph

    def parameter_types(self) -> list[Attribute]:
        return [tensor_type(p.array_shape) for p in self.computation.parameters]

    def emit_all(self) -> list[func.FuncOp]:
        """The functions of the subgraphs the entry calls (transitively), then the reducers."""
        by_name = {subgraph.name: subgraph for subgraph in self.subgraphs}
        emitted: dict[str, func.FuncOp] = {}
        while pending := [name for name in self.called if name not in emitted]:
            for name in pending:
                emitted[name] = emit_subgraph_function(self, by_name[name])
        # In the order of their first calls, as a reader meets them.
        return [emitted[name] for name in self.called] + list(self.reducers.values())

    def unreserved(self, name: str) -> str:
        while name in self.reserved:
            name += "_"
        return name

    def reducer(self, computation: HloComputation) -> str:
        """The name of `computation` as a scalar function, emitting it on first use."""
        name = self.unreserved(sanitize_function_name(computation.name))
        if name not in self.reducers:
            self.reducers[name] = emit_scalar_function(computation, name)
        return name


def index_argument_attrs(shape: Sequence[int]) -> list[DictionaryAttr]:
    return [
        DictionaryAttr({XLA_RANGE: xla_range_attr(Interval(0, max(size, 1) - 1))}) for size in shape
    ]


def emit_subgraph_function(fusion: FusionFunctions, subgraph: Subgraph) -> func.FuncOp:
    """`func.func private @<subgraph>(tensors..., indices..., injected...) -> (elements...)`."""
    tensor_types = fusion.parameter_types()
    index_shape = subgraph.index_shape
    injected_types = [
        element_type(leaf.element_type)
        for i in subgraph.injected
        for leaf in flatten_shape(i.shape)
    ]
    input_types = [*tensor_types, *([IndexType()] * len(index_shape)), *injected_types]
    result_types = [element_type(s.element_type) for s in subgraph.result_shapes]
    arg_attrs = (
        [DictionaryAttr({})] * len(tensor_types)
        + index_argument_attrs(index_shape)
        + [DictionaryAttr({})] * len(injected_types)
    )
    function = func.FuncOp(
        subgraph.name,
        (input_types, result_types),
        visibility="private",
        arg_attrs=ArrayAttr(arg_attrs),
    )
    args = function.body.block.args
    tensors = list(args[: len(tensor_types)])
    name_arguments(tensors)
    indices = list(args[len(tensor_types) : len(tensor_types) + len(index_shape)])
    for position, index in enumerate(indices):
        index.name_hint = (
            _INDEX_NAMES[position] if position < len(_INDEX_NAMES) else f"idx{position}"
        )
    injected_args = list(args[len(tensor_types) + len(index_shape) :])
    injected: dict[HloInstruction, list[SSAValue]] = {}
    for instruction in subgraph.injected:
        width = len(flatten_shape(instruction.shape))
        injected[instruction] = list[SSAValue](injected_args[:width])
        injected_args = injected_args[width:]
    builder = builder_at_end(function.body.block)
    emitter = ElementalEmitter(fusion, subgraph, builder, tensors, injected)
    results = [value for root in subgraph.roots for value in emitter.emit(root, indices)]
    builder.insert(func.ReturnOp(*results))
    return function


def emit_scalar_function(computation: HloComputation, name: str) -> func.FuncOp:
    """A reducer: `func.func private @name(scalars...) -> (scalars...)`."""
    params = computation.parameters
    input_types = [element_type(p.array_shape.element_type) for p in params]
    roots = (
        [computation.root]
        if computation.root.opcode != "tuple"
        else list(computation.root.operands)
    )
    result_types = [element_type(r.array_shape.element_type) for r in roots]
    function = func.FuncOp(name, (input_types, result_types), visibility="private")
    subgraph = Subgraph(name, tuple(roots), frozenset(computation.instructions))
    fusion = FusionFunctions(computation, [subgraph])
    builder = builder_at_end(function.body.block)
    scalars = {
        param: list[SSAValue]([arg])
        for param, arg in zip(params, function.body.block.args, strict=True)
    }
    emitter = ElementalEmitter(fusion, subgraph, builder, [], scalars)
    results = [value for root in roots for value in emitter.emit(root, [])]
    builder.insert(func.ReturnOp(*results))
    return function


def name_arguments(arguments: Sequence[SSAValue]) -> None:
    """`%arg0`, `%arg1`, ...: the names MLIR gives function arguments."""
    for position, argument in enumerate(arguments):
        argument.name_hint = f"arg{position}"
