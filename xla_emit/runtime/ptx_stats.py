"""Figures of a PTX module, kernel by kernel, read off its text.

What `tools/llvm_report.py` compares between our PTX and XLA's: each kernel's
parameters (and their alignment), launch bounds (`.reqntid`/`.maxntid`), the
widths of its global loads and stores (`ld.global.nc.v4.b32`: 4 lanes of 32
bits), its instruction count and its mix of instructions.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

_ENTRY = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+)?\.entry\s+(\w+)\s*\(", re.MULTILINE)
_PARAM = re.compile(r"\.param\s+\.(\w+)(?:\s+\.ptr)?(?:\s+\.global)?(?:\s+\.align\s+(\d+))?\s+\w+")
_BOUNDS = re.compile(r"\.(reqntid|maxntid)\s+([\d,\s]+)")
_TARGET = re.compile(r"^\s*\.target\s+(\w+)", re.MULTILINE)
_GLOBAL_ACCESS = re.compile(r"^(ld|st)\.global(?:\.nc)?(?:\.v(\d))?\.(\w+)$")


@dataclass
class KernelFigures:
    name: str
    # Each parameter: its PTX type and alignment (0: not given).
    params: list[tuple[str, int]] = field(default_factory=list)
    launch_bounds: str = ""
    instructions: int = 0
    # Mnemonics without their type suffixes (`ld.global.nc.v4.b32` -> `ld`), counted.
    mix: Counter[str] = field(default_factory=Counter)
    # Global loads and stores by shape (`v4.b32`, `b16`), counted.
    global_loads: Counter[str] = field(default_factory=Counter)
    global_stores: Counter[str] = field(default_factory=Counter)


def ptx_target(ptx: str) -> str | None:
    found = _TARGET.search(ptx)
    return found.group(1) if found else None


def kernel_figures(ptx: str) -> list[KernelFigures]:
    """Every `.entry` of the module with its figures, in the order of the text."""
    kernels: list[KernelFigures] = []
    for match in _ENTRY.finditer(ptx):
        figures = KernelFigures(match.group(1))
        close = ptx.index(")", match.end())
        figures.params = [
            (p.group(1), int(p.group(2) or 0)) for p in _PARAM.finditer(ptx[match.end() : close])
        ]
        body_start = ptx.index("{", close)
        bounds = _BOUNDS.search(ptx[close:body_start])
        if bounds:
            sizes = ", ".join(s.strip() for s in bounds.group(2).split(",") if s.strip())
            figures.launch_bounds = f"{bounds.group(1)} {sizes}"
        for instruction in body_instructions(ptx, body_start):
            count_instruction(figures, instruction)
        kernels.append(figures)
    return kernels


def body_instructions(ptx: str, start: int) -> list[str]:
    """The instruction words (predicate dropped) of the body whose `{` is at `start`."""
    depth = 0
    end = start
    for end in range(start, len(ptx)):
        depth += {"{": 1, "}": -1}.get(ptx[end], 0)
        if depth == 0:
            break
    words: list[str] = []
    for raw in ptx[start + 1 : end].splitlines():
        line = raw.split("//")[0].strip()
        if not line or line.startswith((".", "$", "{", "}")) or line.endswith(":"):
            continue
        parts = line.split()
        if parts[0].startswith("@"):
            parts = parts[1:]
        if parts:
            words.append(parts[0].rstrip(";"))
    return words


def count_instruction(figures: KernelFigures, word: str) -> None:
    figures.instructions += 1
    figures.mix[word.split(".")[0]] += 1
    access = _GLOBAL_ACCESS.match(word)
    if access:
        shape = f"v{access.group(2)}.{access.group(3)}" if access.group(2) else access.group(3)
        (figures.global_loads if access.group(1) == "ld" else figures.global_stores)[shape] += 1


def shapes_text(counts: Counter[str]) -> str:
    """`v4.b32 x2, f32 x1` (widest first); `-` when there are none."""
    if not counts:
        return "-"
    ordered = sorted(counts.items(), key=lambda kv: (-_lanes(kv[0]), kv[0]))
    return ", ".join(f"{shape} x{count}" for shape, count in ordered)


def _lanes(shape: str) -> int:
    return int(shape[1]) if shape.startswith("v") else 1
