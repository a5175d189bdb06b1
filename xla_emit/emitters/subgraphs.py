"""Which subgraph functions a fusion is emitted as.

Every emitter names the values it needs as functions: the fusion's roots
(loop emitter), a hero's operands (the values a transpose or reduction
reads), and the epilogue from a hero to the fusion's root, which receives
the hero's value as an extra argument. Each such root set becomes one
subgraph holding everything it reaches up to the fusion's parameters.
"""

from __future__ import annotations

from collections.abc import Sequence

from xla_emit.emitters.elemental import Subgraph, sanitize_name
from xla_emit.hlo.ir import HloComputation, HloInstruction


def reachable(roots: Sequence[HloInstruction], stop: frozenset[HloInstruction] = frozenset()) -> frozenset[HloInstruction]:
    """`roots` and their transitive operands, not looking past `stop` or parameters."""
    seen: set[HloInstruction] = set()
    stack = list(roots)
    while stack:
        instruction = stack.pop()
        if instruction in seen or instruction in stop:
            continue
        seen.add(instruction)
        if instruction.opcode != "parameter":
            stack.extend(instruction.operands)
    return frozenset(seen)


def subgraph_name(computation: HloComputation, roots: Sequence[HloInstruction]) -> str:
    """XLA's name: `<computation>_<root>_<root>...`, sanitized."""
    return sanitize_name("_".join([computation.name, *(root.name for root in roots)]))


def epilogue_name(computation: HloComputation, roots: Sequence[HloInstruction]) -> str:
    """XLA's epilogue name: `<computation>__epilogue__<root>_<root>...`, sanitized."""
    return sanitize_name(computation.name + "__epilogue__" + "_".join(root.name for root in roots))


def value_subgraph(computation: HloComputation, roots: Sequence[HloInstruction]) -> Subgraph | None:
    """One function computing `roots` (None when they are all parameters, read directly)."""
    computed = [root for root in dict.fromkeys(roots) if root.opcode != "parameter"]
    if not computed:
        return None
    return Subgraph(subgraph_name(computation, computed), tuple(computed), reachable(computed))


def epilogue_subgraph(
    computation: HloComputation, root: HloInstruction, hero: HloInstruction
) -> Subgraph | None:
    """The ops from `hero` (exclusive) to `root`; None when the root is the hero itself."""
    if root is hero:
        return None
    members = reachable([root], stop=frozenset({hero}))
    return Subgraph(epilogue_name(computation, [root]), (root,), members, injected=(hero,))
