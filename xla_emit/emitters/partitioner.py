"""Computation partitioner: splits a fused computation into subgraph functions.

Emitting a whole fusion as one function can read a value at two different
indices for one output element (`add(log, transpose(log))` reads `log` at
`(i, j)` and `(j, i)`); duplicating `log` would make code size grow
exponentially along chains of such diamonds. Instead the computation is cut
into subgraphs, each emitted as one function that returns its root's element
at a given index and calls other subgraphs' functions for values at other
indices.

The rule (XLA's, indexing-map based): instructions are visited users first; an
instruction starts its own subgraph when the caller forces it (heroes and
their operands), when its users are not all in one subgraph (the computation
root has none), when those users read it through more than one distinct
indexing map from the subgraph root, or when the user's subgraph is full.
Otherwise it joins its users' subgraph, and the map through which the
subgraph's root reaches it is remembered for its own operands.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field

from xla_emit.hlo.indexing_analysis import compute_output_to_input_indexing
from xla_emit.hlo.ir import HloComputation, HloInstruction, HloModule
from xla_emit.hlo.shape import ArrayShape, PrimitiveType, Shape, flatten_shape
from xla_emit.hlo.symbols import sanitize_function_name
from xla_emit.indexing import IndexingMap, Interval, compose_indexing_maps, identity_map

MAX_INSTRUCTIONS_PER_SUBGRAPH = 2000

# Subgraphs of only these ops move data without computing; XLA marks their
# functions `xla.has_no_compute` and always inlines them.
NO_COMPUTE_OPS: frozenset[str] = frozenset(
    {
        "bitcast",
        "constant",
        "iota",
        "parameter",
        "reshape",
        "reverse",
        "transpose",
        "broadcast",
        "slice",
        "copy",
    }
)

_MLIR_ELEMENT_TYPES: dict[PrimitiveType, str] = {
    PrimitiveType.PRED: "i1",
    PrimitiveType.S8: "i8",
    PrimitiveType.S16: "i16",
    PrimitiveType.S32: "i32",
    PrimitiveType.S64: "i64",
    PrimitiveType.U8: "i8",
    PrimitiveType.U16: "i16",
    PrimitiveType.U32: "i32",
    PrimitiveType.U64: "i64",
    PrimitiveType.F16: "f16",
    PrimitiveType.BF16: "bf16",
    PrimitiveType.F32: "f32",
    PrimitiveType.F64: "f64",
    PrimitiveType.C64: "complex<f32>",
    PrimitiveType.C128: "complex<f64>",
}


def mlir_element_type(ptype: PrimitiveType) -> str:
    return _MLIR_ELEMENT_TYPES[ptype]


def mlir_tensor_type(shape: ArrayShape) -> str:
    """`tensor<2x3xf32>`; a non-default layout becomes the encoding `dense<[minor_to_major]>`."""
    dims = "".join(f"{d}x" for d in shape.dimensions)
    text = f"tensor<{dims}{mlir_element_type(shape.element_type)}"
    if not shape.has_default_layout:
        order = ", ".join(str(d) for d in shape.minor_to_major)
        text += f", dense<[{order}]> : tensor<{shape.rank}xi64>"
    return text + ">"


@dataclass(frozen=True)
class SubgraphSignature:
    """What the subgraph's function takes and returns.

    One tensor per parameter of the computation (scalars are passed as
    scalars), one index per dimension of the first root, each with
    `xla.range = [0, dim - 1]`, then the injected values (an epilogue's hero
    results), and one result per element of the roots.
    """

    parameters: tuple[ArrayShape, ...]
    index_ranges: tuple[Interval, ...]
    results: tuple[PrimitiveType, ...]
    injected: tuple[PrimitiveType, ...] = ()

    def argument_types(self) -> list[str]:
        types = [
            mlir_element_type(p.element_type) if p.rank == 0 else mlir_tensor_type(p)
            for p in self.parameters
        ]
        types += [
            f"index {{xla.range = [{r.lower} : index, {r.upper} : index]}}"
            for r in self.index_ranges
        ]
        types += [mlir_element_type(t) for t in self.injected]
        return types

    def result_types(self) -> list[str]:
        return [mlir_element_type(t) for t in self.results]

    def declaration(self, name: str) -> str:
        """`func.func private @name(args) -> results`, as XLA prints the declaration."""
        results = self.result_types()
        result_text = results[0] if len(results) == 1 else "(" + ", ".join(results) + ")"
        return f"func.func private @{name}({', '.join(self.argument_types())}) -> {result_text}"


@dataclass(frozen=True)
class Subgraph:
    """Instructions emitted as one function, computing `roots` at one index.

    `root_indexing` maps the function's index arguments to each root's index;
    `indexing[i]` is the map from the index arguments to instruction `i`
    (the index at which the function evaluates it). `injected` values (the
    heroes of an epilogue) arrive as arguments instead of being computed.
    """

    name: str
    roots: tuple[HloInstruction, ...]
    instructions: tuple[HloInstruction, ...]
    signature: SubgraphSignature
    indexing: dict[HloInstruction, IndexingMap] = field(compare=False, hash=False)
    injected: tuple[HloInstruction, ...] = ()

    @property
    def root_indexing(self) -> tuple[IndexingMap, ...]:
        return tuple(self.indexing[root] for root in self.roots)

    @property
    def has_no_compute(self) -> bool:
        return all(i.opcode in NO_COMPUTE_OPS for i in self.instructions)

    def __contains__(self, instruction: HloInstruction) -> bool:
        return instruction in self.instructions


@dataclass
class PartitionedComputation:
    """A computation cut into subgraphs; the first subgraph holds the computation's root."""

    computation: HloComputation
    subgraphs: list[Subgraph]
    subgraph_of: dict[HloInstruction, Subgraph]

    @property
    def root_subgraph(self) -> Subgraph:
        return self.subgraph_of[self.computation.root]

    def find_subgraph(self, instruction: HloInstruction) -> Subgraph:
        return self.subgraph_of[instruction]


@dataclass
class _Visit:
    """What the users of an instruction said about it while it was not yet placed."""

    maps: dict[str, IndexingMap] = field(default_factory=dict[str, IndexingMap])
    user_subgraphs: set[int] = field(default_factory=set[int])
    undefined: bool = False


def _first_leaf(shape: Shape) -> ArrayShape:
    return flatten_shape(shape)[0]


def _operand_maps(instruction: HloInstruction, own: IndexingMap) -> list[IndexingMap | None]:
    """The maps from the subgraph's index space to each operand of `instruction`."""
    if instruction.opcode == "tuple":
        # A tuple root returns each element at its own index.
        return [identity_map(_first_leaf(o.shape).dimensions) for o in instruction.operands]
    steps = compute_output_to_input_indexing(instruction)
    return [
        compose_indexing_maps(own, step).simplify() if step is not None else None for step in steps
    ]


def partition_computation(
    computation: HloComputation,
    is_forced_root: Callable[[HloInstruction], bool] | Collection[HloInstruction] = (),
    max_instructions: int = MAX_INSTRUCTIONS_PER_SUBGRAPH,
) -> PartitionedComputation:
    """Splits `computation` into subgraphs (see the module docstring for the rule).

    `is_forced_root` is a predicate or a collection of instructions that must
    start their own subgraph (the emitters pass heroes and their operands).
    """
    forced = is_forced_root if callable(is_forced_root) else frozenset(is_forced_root).__contains__
    visits: dict[HloInstruction, _Visit] = {i: _Visit() for i in computation.instructions}
    members: list[list[HloInstruction]] = []
    indexing: list[dict[HloInstruction, IndexingMap]] = []
    for instruction in reversed(computation.instructions):
        visit = visits[instruction]
        joined = _joined_subgraph(instruction, visit, forced, members, max_instructions)
        if joined is None:
            subgraph_id = len(members)
            members.append([])
            indexing.append({})
            own = identity_map(_first_leaf(instruction.shape).dimensions)
        else:
            subgraph_id = joined
            own = next(iter(visit.maps.values()))
        members[subgraph_id].append(instruction)
        indexing[subgraph_id][instruction] = own
        for operand, operand_map in zip(
            instruction.operands, _operand_maps(instruction, own), strict=True
        ):
            operand_visit = visits[operand]
            operand_visit.user_subgraphs.add(subgraph_id)
            if operand_map is None:
                operand_visit.undefined = True
            else:
                operand_visit.maps.setdefault(str(operand_map), operand_map)
    return _assemble(computation, members, indexing)


def _joined_subgraph(
    instruction: HloInstruction,
    visit: _Visit,
    forced: Callable[[HloInstruction], bool],
    members: list[list[HloInstruction]],
    max_instructions: int,
) -> int | None:
    """The users' subgraph the instruction joins, or None when it must be a root."""
    if forced(instruction) or len(visit.user_subgraphs) != 1:
        return None
    if visit.undefined or len(visit.maps) != 1:
        return None
    (subgraph_id,) = visit.user_subgraphs
    if len(members[subgraph_id]) >= max_instructions:
        return None
    return subgraph_id


def _assemble(
    computation: HloComputation,
    members: list[list[HloInstruction]],
    indexing: list[dict[HloInstruction, IndexingMap]],
) -> PartitionedComputation:
    order = {instruction: i for i, instruction in enumerate(computation.instructions)}
    parameters = tuple(_first_leaf(p.shape) for p in computation.parameters)
    subgraphs: list[Subgraph] = []
    subgraph_of: dict[HloInstruction, Subgraph] = {}
    for group, maps in zip(members, indexing, strict=True):
        root = group[0]  # the first member placed is the one that started the subgraph
        index_shape = _first_leaf(root.shape)
        signature = SubgraphSignature(
            parameters,
            tuple(Interval(0, size - 1) for size in index_shape.dimensions),
            tuple(leaf.element_type for leaf in flatten_shape(root.shape)),
        )
        subgraph = Subgraph(
            sanitize_function_name(f"{computation.name}_{root.name}"),
            (root,),
            tuple(sorted(group, key=order.__getitem__)),
            signature,
            maps,
        )
        subgraphs.append(subgraph)
        for instruction in group:
            subgraph_of[instruction] = subgraph
    return PartitionedComputation(computation, subgraphs, subgraph_of)


def epilogue_subgraph(
    computation: HloComputation,
    heroes: Sequence[HloInstruction],
    roots: Sequence[HloInstruction],
    index_ranges: Sequence[int] | None = None,
) -> Subgraph:
    """The function from the heroes' values to `roots`: `<computation>__epilogue__<roots>`.

    It holds everything between the heroes (exclusive; their values are
    injected as scalar arguments after the indices) and the roots. The
    indices default to the first root's dimensions; the emitter may pass its
    own ranges (XLA passes the thread-to-output map's bounds).
    """
    members = _reachable(roots, stop=frozenset(heroes))
    order = {instruction: i for i, instruction in enumerate(computation.instructions)}
    sizes = (
        tuple(index_ranges) if index_ranges is not None else _first_leaf(roots[0].shape).dimensions
    )
    signature = SubgraphSignature(
        tuple(_first_leaf(p.shape) for p in computation.parameters),
        tuple(Interval(0, size - 1) for size in sizes),
        tuple(leaf.element_type for root in roots for leaf in flatten_shape(root.shape)),
        tuple(leaf.element_type for hero in heroes for leaf in flatten_shape(hero.shape)),
    )
    name = f"{computation.name}__epilogue__" + "_".join(root.name for root in roots)
    # Roots shaped like the index space are evaluated at the function's own index.
    indexing = {
        root: identity_map(sizes)
        for root in roots
        if _first_leaf(root.shape).dimensions == tuple(sizes)
    }
    return Subgraph(
        sanitize_function_name(name),
        tuple(roots),
        tuple(sorted(members, key=order.__getitem__)),
        signature,
        indexing,
        tuple(heroes),
    )


def _reachable(
    roots: Iterable[HloInstruction], stop: frozenset[HloInstruction]
) -> set[HloInstruction]:
    seen: set[HloInstruction] = set()
    stack = [root for root in roots if root not in stop]
    while stack:
        instruction = stack.pop()
        if instruction in seen:
            continue
        seen.add(instruction)
        stack.extend(o for o in instruction.operands if o not in stop)
    return seen


def hero_roots(heroes: Iterable[HloInstruction]) -> frozenset[HloInstruction]:
    """The instructions emitters force to be subgraph roots: each hero and its operands."""
    roots: set[HloInstruction] = set()
    for hero in heroes:
        roots.add(hero)
        roots.update(hero.operands)
    return frozenset(roots)


def called_computations(computation: HloComputation) -> list[HloComputation]:
    """`computation` and every computation it calls, transitively, each once."""
    found: list[HloComputation] = []
    stack = [computation]
    while stack:
        current = stack.pop()
        if current in found:
            continue
        found.append(current)
        for instruction in current.instructions:
            stack.extend(reversed(instruction.called_computations))
    return found


def partition_fusion(
    computation: HloComputation,
    is_forced_root: Callable[[HloInstruction], bool] | Collection[HloInstruction] = (),
) -> list[PartitionedComputation]:
    """The fused computation and the computations it calls (reducers), each partitioned."""
    return [
        partition_computation(c, is_forced_root if c is computation else ())
        for c in called_computations(computation)
    ]


def format_partitions(partitions: Iterable[PartitionedComputation]) -> str:
    """A readable view: each subgraph's declaration, then its instructions.

    Every instruction shows the indexing map from the function's index
    arguments to the element it computes; instructions read at a different
    index than the root are where the graph would have needed duplication.
    """
    lines: list[str] = []
    for partitioned in partitions:
        count = len(partitioned.subgraphs)
        lines.append(
            f"computation {partitioned.computation.name}: {count} "
            f"subgraph{'s' if count != 1 else ''}"
        )
        for subgraph in partitioned.subgraphs:
            lines.extend(_format_subgraph(subgraph))
        lines.append("")
    return "\n".join(lines)


def format_module_partitions(module: HloModule) -> str:
    """`format_partitions` for every fusion of a module (no forced roots), in module order."""
    sections: list[str] = []
    for computation in module.computations:
        for instruction in computation.instructions:
            if instruction.opcode == "fusion":
                header = (
                    f"fusion {instruction.name} calls {instruction.called_computations[0].name}"
                )
                partitions = partition_fusion(instruction.called_computations[0])
                sections.append(header + "\n" + format_partitions(partitions))
    return "\n".join(sections)


def _operand_text(instruction: HloInstruction) -> str:
    if instruction.opcode == "parameter":
        return str(instruction.parameter_number)
    if (
        instruction.opcode == "constant"
        and instruction.literal is not None
        and instruction.literal.ndim == 0
    ):
        return str(instruction.literal)
    return ", ".join(f"%{o.name}" for o in instruction.operands)


def _format_subgraph(subgraph: Subgraph) -> list[str]:
    note = " (no compute)" if subgraph.has_no_compute else ""
    lines = [f"  {subgraph.signature.declaration(subgraph.name)}{note}"]
    for instruction in subgraph.instructions:
        marker = "ROOT " if instruction in subgraph.roots else ""
        if instruction not in subgraph.indexing:
            lines.append(
                f"    {marker}%{instruction.name} = "
                f"{instruction.opcode}({_operand_text(instruction)})"
            )
            continue
        text = (
            f"    {marker}%{instruction.name} = {instruction.opcode}({_operand_text(instruction)})"
        )
        lines.append(f"{text.ljust(44)} at {subgraph.indexing[instruction]}")
    return lines
