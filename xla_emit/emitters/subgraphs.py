"""The emitters' view of the computation partitioner's subgraphs.

`xla_emit.emitters.partitioner` cuts a fused computation into single-root
subgraphs by XLA's indexing-map rule, with the heroes and their operands
forced to be roots. The emitters need two adjustments: a `tuple` root
subgraph returns the tuple's elements (a multi-output loop fusion calls one
function for all outputs), and the subgraph of the fusion's root becomes the
*epilogue* when a hero sits below it: it receives the hero's value as an
extra argument instead of calling the hero's function, XLA's
`<computation>__epilogue__<root>` functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from xdsl.ir import SSAValue

from xla_emit.emitters import partitioner
from xla_emit.emitters.functions import Subgraph
from xla_emit.emitters.hero import EmitterKind, FusionAnalysis, epilogue_path
from xla_emit.hlo.indexing_analysis import epilogue_input_to_output_map
from xla_emit.hlo.ir import HloComputation, HloInstruction
from xla_emit.hlo.shape import flatten_shape

if TYPE_CHECKING:
    from xla_emit.emitters.elemental import ElementalEmitter


def forced_roots(analysis: FusionAnalysis) -> frozenset[HloInstruction]:
    """Heroes and their operands start their own subgraphs (the loop emitter has no hero)."""
    if analysis.kind is EmitterKind.LOOP:
        return frozenset()
    return partitioner.hero_roots(analysis.heroes)


def partition(analysis: FusionAnalysis) -> partitioner.PartitionedComputation:
    return partitioner.partition_computation(analysis.computation, forced_roots(analysis))


def epilogue_name(computation: HloComputation, *roots: HloInstruction) -> str:
    """XLA's epilogue name: `<computation>__epilogue__<roots joined by _>`, sanitized."""
    names = "_".join(root.name for root in roots)
    return partitioner.sanitize_function_name(f"{computation.name}__epilogue__{names}")


def emitter_subgraphs(analysis: FusionAnalysis) -> tuple[list[Subgraph], Subgraph | None]:
    """Every subgraph as the elemental emitter takes it, and the epilogue (if any)."""
    partitioned = partition(analysis)
    root = analysis.computation.root
    hero = analysis.hero
    has_epilogue = analysis.kind is not EmitterKind.LOOP and root is not hero
    subgraphs: list[Subgraph] = []
    epilogue: Subgraph | None = None
    for subgraph in partitioned.subgraphs:
        members = frozenset(subgraph.instructions)
        (subgraph_root,) = subgraph.roots
        if subgraph_root.opcode == "tuple":
            roots = tuple(dict.fromkeys(subgraph_root.operands))
            reduced = analysis.reduction_epilogue_roots
            if reduced and all(r in roots for r in reduced):
                # The reduction group's roots beside side outputs: one epilogue for them all,
                # taking every hero's value.
                name = epilogue_name(analysis.computation, *reduced)
                epilogue = Subgraph(
                    name, reduced, members - {subgraph_root}, injected=analysis.reduction_group
                )
                subgraphs.append(epilogue)
                roots = tuple(r for r in roots if r not in reduced)
            subgraphs.extend(_tuple_subgraphs(subgraph.name, roots, members - {subgraph_root}))
        elif has_epilogue and subgraph_root is root:
            epilogue = Subgraph(
                epilogue_name(analysis.computation, root), (root,), members, injected=(hero,)
            )
            subgraphs.append(epilogue)
        else:
            subgraphs.append(Subgraph(subgraph.name, (subgraph_root,), members))
    return subgraphs, epilogue


def _tuple_subgraphs(
    name: str, roots: tuple[HloInstruction, ...], members: frozenset[HloInstruction]
) -> list[Subgraph]:
    """One function for all the tuple's roots when they share their dimensions (computed at
    one index); else one per root, each over its own dimensions (the loop emitter moves
    the index to each root through memory order, as XLA's bitcast map does)."""
    dims = {leaf.dimensions for root in roots for leaf in flatten_shape(root.shape)}
    if len(dims) <= 1:
        return [Subgraph(name, roots, members)]
    return [
        Subgraph(name if i == 0 else f"{name}_{root.name}", (root,), members)
        for i, root in enumerate(roots)
    ]


def format_partitions(analysis: FusionAnalysis) -> str:
    """The partitioner's readable view of the fusion (and of the reducers it calls)."""
    return partitioner.format_partitions(
        partitioner.partition_fusion(analysis.computation, forced_roots(analysis))
    )


def emit_epilogue(
    emitter: ElementalEmitter,
    analysis: FusionAnalysis,
    epilogue: Subgraph,
    hero_index: Sequence[SSAValue],
) -> tuple[list[SSAValue], list[SSAValue]]:
    """The epilogue's values, every root's, for the heroes' element at `hero_index` (injected
    beforehand), and the root index they belong at: reshapes and bitcasts between the hero
    and the root (a reduce's keep-dims reshape) move the index, as XLA's epilogue indexing
    does. Several roots (a reduction group's) share their reduces' dims and so the index."""
    root = next((r for r in epilogue.roots if r is not analysis.hero_of(r)), epilogue.roots[0])
    hero = analysis.hero_of(root)
    root_index = list(hero_index)
    if root is not hero:
        to_root = epilogue_input_to_output_map(epilogue_path(hero, root))
        root_index = emitter.apply_map(to_root, hero_index, hero.array_shape.dimensions)
    values = [v for r in epilogue.roots for v in emitter.emit_call(epilogue, r, root_index)]
    return values, root_index
