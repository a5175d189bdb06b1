"""PTOAS main's PlanMemory capacity rule: a tile buffer larger than its memory's budget.

PTOAS's PlanMemory passes (legacy `PTOPlanMemory.cpp`, modern
`PTOPlanMemoryModern.cpp`; run by `ptoas` below level 3) place each `pto.alloc_tile`
in a budget per memory of their own, which is the planner's fact, not the hardware's:
it gives the bias table 64 KB and `scaling` the size of UB on both targets, where
pto-isa's memory model (`xla_emit/pto/targets.py`, which the executor allocates) gives
the bias table 1 KB (A2A3) or 4 KB (A5) and the fixpipe buffer 2 KB or 4 KB. So a
kernel the planner accepts may still not fit the hardware, and the planner's refusal is
modelled here with the planner's own table.

Only one buffer larger than the whole budget is refused: its memory cannot hold it
whatever the planner reuses, so PTOAS refuses it too. The bits a refusal reports are
that buffer's, which are PTOAS's where it is its memory's only buffer (PTOAS reports
the end of the group that did not fit). Buffers with an address (level 3's, which
PlanMemory skips) or a dynamic shape are not planned here.
"""

from __future__ import annotations

from typing import Final

from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation
from xla_emit.dialects.pto.types import TARGET_ATTR, TileBufType, enclosing_function
from xla_emit.passes.diagnostics import OpError

from xla_emit.pto.targets import Target, element_bytes, is_element_type, parse_target

_KB: Final = 1024
# PlanMemory's budget per memory in bytes (`getMemSpec`, and the legacy planner's
# `InitMemSpecsFromModule` in bits); A3 is its default.
PLANNER_CAPACITIES: Final[dict[Target, dict[str, int]]] = {
    "a2a3": {
        "vec": 192 * _KB,
        "mat": 512 * _KB,
        "left": 64 * _KB,
        "right": 64 * _KB,
        "acc": 128 * _KB,
        "bias": 64 * _KB,
        "scaling": 192 * _KB,
    },
    "a5": {
        "vec": 248 * _KB,
        "mat": 512 * _KB,
        "left": 64 * _KB,
        "right": 64 * _KB,
        "acc": 256 * _KB,
        "bias": 64 * _KB,
        "scaling": 248 * _KB,
    },
}
# `--plan-memory-impl`'s values; the legacy planner words its message otherwise.
_AVAILABLE: Final[dict[str, str]] = {
    "modern": "bits available",
    "legacy": "bits avaliable!",
}


def planner_target(module: ModuleOp, arch: str | None) -> Target:
    """The target PlanMemory plans for: A5 where the module says so, else the driver's
    `--pto-arch`, else A3."""
    own = module.attributes.get(TARGET_ATTR)
    if isinstance(own, StringAttr) and own.data.lower() == "a5":
        return "a5"
    try:
        return parse_target(arch) if arch else "a2a3"
    except ValueError:
        return "a2a3"


def planned_bytes(op: Operation) -> int | None:
    """The bytes PlanMemory reserves for an unaddressed static `pto.alloc_tile`."""
    if op.name != "pto.alloc_tile" or getattr(op, "addr", None) is not None:
        return None
    tile = op.results[0].type
    if not isinstance(tile, TileBufType) or not is_element_type(tile.element_name):
        return None
    rows, cols = tile.shape
    if rows <= 0 or cols <= 0:
        return None
    return rows * cols * element_bytes(tile.element_name)


def check_planner_capacity(module: ModuleOp, arch: str | None, impl: str = "legacy") -> None:
    """Raise `OpError` at the function of the first buffer its memory's budget cannot hold."""
    budgets = PLANNER_CAPACITIES[planner_target(module, arch)]
    available = _AVAILABLE.get(impl, _AVAILABLE["legacy"])
    for op in module.walk():
        size = planned_bytes(op)
        if size is None:
            continue
        space = op.results[0].type.loc.data  # type: ignore[attr-defined]
        budget = budgets.get(space)
        if budget is not None and size > budget:
            func = _enclosing_function(op)
            raise OpError(
                func,
                f"{space} overflow, requires {size * 8} bits while {budget * 8} {available}",
            )


def _enclosing_function(op: Operation) -> Operation:
    """The function around `op`, or `op` itself where it stands in none."""
    return enclosing_function(op) or op
