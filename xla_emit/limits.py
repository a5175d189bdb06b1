"""The budgets of one `xla-emit-run`: how much it may allocate and compute.

A program that names a 3 TiB array, or a loop of 10^12 trips, is stopped with
a located error before (memory) or while (steps) it runs, instead of taking
the machine's memory or running forever. The budgets are plain numbers here,
importable before anything heavy loads (the command line names them); the
runtime checks shapes against the memory budget before it allocates
(`xla_emit.hlo.limits`), and the interpreters count the ops they run against
the step budget and the bytes a kernel holds at once against the memory
budget (`xla_emit.interpreter.budget`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

GIB = 1 << 30
DEFAULT_MAX_MEMORY = 8 * GIB
# About a minute of interpretation; real kernels need far fewer steps (one op
# runs over all the lanes of a chunk at once: a full-size GELU takes ~10^4).
DEFAULT_MAX_STEPS = 10_000_000

# How many of the largest parts a message over the budget names; the rest are summed.
NAMED_PARTS = 3

_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?", re.IGNORECASE)
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


@dataclass(frozen=True)
class RunLimits:
    """The budgets of one run."""

    max_memory: int = DEFAULT_MAX_MEMORY
    max_steps: int = DEFAULT_MAX_STEPS


def parse_byte_size(text: str) -> int:
    """`4G`, `512M`, `1.5GiB`, `1000000` (bytes): powers of 1024; ValueError otherwise."""
    match = _SIZE.fullmatch(text.strip())
    if match is None:
        raise ValueError(text)
    size = int(float(match.group(1)) * _UNITS[match.group(2).upper()])
    if size <= 0:
        raise ValueError(text)
    return size


def format_bytes(size: int) -> str:
    """`3.64 TiB`, `8 GiB`, `512 B`: the largest binary unit, three significant digits."""
    for unit, name in ((1 << 40, "TiB"), (1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if size >= unit:
            return f"{size / unit:.3g} {name}"
    return f"{size} B"


def held_over_budget(total: int, budget: int, parts: Sequence[tuple[str, int]]) -> str:
    """`3 KiB at once, over the memory budget of 2 KiB (--max-memory): 'p0' 1 KiB, ...`:
    what a run would hold, named by its largest `parts` (description, bytes)."""
    largest = sorted(parts, key=lambda part: part[1], reverse=True)
    named = ", ".join(f"{what} {format_bytes(size)}" for what, size in largest[:NAMED_PARTS])
    rest = largest[NAMED_PARTS:]
    if rest:
        named += f" and {len(rest)} more ({format_bytes(sum(size for _, size in rest))})"
    held, allowed = format_bytes(total), format_bytes(budget)
    if held == allowed:  # just over: three digits would print the two alike
        held, allowed = f"{total} B", f"{budget} B"
    return f"{held} at once, over the memory budget of {allowed} (--max-memory): {named}"
