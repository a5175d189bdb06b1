"""PTOAS main's semantic no-alias rule (`verifySemanticNoAliasRanges` in
`lib/PTO/Transforms/Utils.cpp`), which its PlanMemory passes (below level 3) and its
ResolveReservedBuffers (at level 3) run: the tiles of an op that reads and writes
through scratch at once may not share bytes:

- an X-to-ZZ `tmov` (a source, its scratch tile, a ZZ destination): src, tmp, dst;
- `tquant.mx`: src and each output (dst, exp, max, scaling, exp_zz).

A tile's byte range is its allocation's (rows x cols x element bytes, at its constant
address when it has one), narrowed by a `subview` of a row-major tile (from its
offset, through the last valid element of its window; any other subview keeps its
parent's range), kept by `bitcast` and `treshape`. Two ranges of one allocation are
compared by their offsets; of two allocations, by their addresses when both have one
in the same memory.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xla_emit.dialects.pto.types import TileBufType
from xla_emit.passes.diagnostics import OpError

from xla_emit.pto.targets import element_bytes, is_element_type

MESSAGE = "PlanMemory semantic no-alias violation: operand byte ranges overlap"
PLAN_MEMORY_FLAGS = frozenset({"--pto-plan-memory", "-pto-plan-memory"})


@dataclass(frozen=True)
class _Range:
    root: SSAValue
    begin: int
    size: int
    address: int | None
    space: str


def _constant(value: SSAValue | None) -> int | None:
    attr = getattr(value.owner, "value", None) if value is not None else None
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def _tile_bytes(tile: object) -> int | None:
    if not isinstance(tile, TileBufType) or not is_element_type(tile.element_name):
        return None
    rows, cols = tile.shape
    return rows * cols * element_bytes(tile.element_name) if rows > 0 and cols > 0 else None


def _range(value: SSAValue) -> _Range | None:
    owner = value.owner
    if not isinstance(owner, Operation):
        return None
    if owner.name == "pto.alloc_tile":
        size = _tile_bytes(value.type)
        if size is None:
            return None
        address = _constant(getattr(owner, "addr", None))
        return _Range(value, 0, size, address, value.type.loc.data)  # type: ignore[attr-defined]
    if owner.name in ("pto.bitcast", "pto.treshape"):
        return _range(owner.operands[0])
    if owner.name == "pto.subview":
        return _subview(owner)
    return None


def _subview(op: Operation) -> _Range | None:
    source = _range(op.operands[0])
    parent = op.operands[0].type
    if source is None or not isinstance(parent, TileBufType):
        return source
    offsets = [_constant(v) for v in op.offsets]  # type: ignore[attr-defined]
    rows, cols = op.sizes_list()  # type: ignore[attr-defined]
    row_major = (parent.blayout.data, parent.slayout.data) == ("row_major", "none_box")
    if None in offsets or not row_major or not is_element_type(parent.element_name):
        return source  # no simple stride: the parent's whole range, conservatively
    width = element_bytes(parent.element_name)
    row_bytes = parent.shape[1] * width
    offset = offsets[0] * row_bytes + offsets[1] * width  # type: ignore[operator]
    span = (rows - 1) * row_bytes + cols * width
    if offset + span > source.size:
        return None
    address = source.address + offset if source.address is not None else None
    return replace(source, begin=source.begin + offset, size=span, address=address)


def _overlap(a: _Range, b: _Range) -> bool:
    def meets(begin_a: int, size_a: int, begin_b: int, size_b: int) -> bool:
        return (
            size_a > 0 and size_b > 0 and begin_a < begin_b + size_b and begin_b < begin_a + size_a
        )

    if a.root is b.root:
        return meets(a.begin, a.size, b.begin, b.size)
    if a.address is None or b.address is None or a.space != b.space:
        return False
    return meets(a.address, a.size, b.address, b.size)


def _no_alias_sets(op: Operation) -> list[list[SSAValue]]:
    """The operands of `op` that may not share bytes, in PTOAS's pairs' order."""
    if op.name == "pto.tquant.mx":
        return [[*op.operands]]
    is_x2zz = getattr(op, "is_x2zz", None)
    if op.name == "pto.tmov" and is_x2zz is not None and is_x2zz() and len(op.operands) == 3:
        src, tmp, dst = op.operands
        return [[src, dst], [src, tmp], [tmp, dst]]
    return []


def check_semantic_no_alias(module: ModuleOp) -> None:
    """Raise `OpError` at the first op whose no-alias operands share bytes."""
    for op in module.walk():
        for group in _no_alias_sets(op):
            ranges = [_range(value) for value in group]
            for left in range(len(ranges)):
                for right in range(left + 1, len(ranges)):
                    a, b = ranges[left], ranges[right]
                    if a is not None and b is not None and _overlap(a, b):
                        raise OpError(op, MESSAGE)
