"""Where a layout-assigned VMI value's logical lanes sit in its physical registers.

A `!pto.vmi.vreg` or `!pto.vmi.mask` with a `#pto.vmi.layout` occupies `factor`
parts (2 or 4 for a deinterleaved layout, else 1); each part is a run of physical
chunks (registers of 256 bytes: 64 f32 lanes, 128 f16 lanes, ...). Logical lane `l`
of a dense layout lies in part `(l // block) % factor` at index
`(l // block // factor) * block + l % block` (block: 1, or the 32-byte block of a
`block_deinterleaved` layout), times the lane stride. A physical lane that holds no
logical lane is padding; PTOAS's `-vmi-to-vpto` lowers many ops only for "full"
chunks, chunks without padding (PTOAS `lib/PTO/IR/VMI.cpp`: `isPaddingLane`;
`VMIToVPTO.cpp`: `checkFullVMIPhysicalChunks`).
"""

from __future__ import annotations

from xdsl.ir import Attribute
from xla_emit.dialects.pto.vmi_rules import (
    MASK_LANES,
    is_dense_split,
    is_group_slots,
    lanes_per_register,
    layout_of,
)
from xla_emit.dialects.pto.vpto_types import VMIMaskType, VMIVRegType

# A physical register holds eight 32-byte blocks.
BLOCKS_PER_CHUNK = 8


def lanes_per_chunk(type_: Attribute) -> int:
    """Physical lanes of one register of the value: by element width for data, by
    the carrier granularity (granularity times lane stride) for masks; 0 if unknown."""
    if isinstance(type_, VMIVRegType):
        return lanes_per_register(type_.element_type)
    if isinstance(type_, VMIMaskType) and type_.granularity.data != "pred":
        layout = layout_of(type_)
        stride = layout.lane_stride.data if layout is not None else 1
        return MASK_LANES.get(f"b{int(type_.granularity.data[1:]) * stride}", 0)
    return 0


def split_factor(type_: Attribute) -> int:
    """The number of parts: a deinterleaved layout's factor, else 1."""
    layout = layout_of(type_)
    return layout.factor.data if is_dense_split(layout) else 1  # type: ignore[union-attr]


def block_elems(type_: Attribute) -> int:
    """Lanes kept together in one part: a 32-byte block for `block_deinterleaved`."""
    layout = layout_of(type_)
    if layout is None or layout.kind.data != "block_deinterleaved":
        return 1
    return max(lanes_per_chunk(type_) // BLOCKS_PER_CHUNK, 1)


def lane_stride(type_: Attribute) -> int:
    """The data lane stride of a dense layout; masks address lanes by their carrier."""
    layout = layout_of(type_)
    dense = layout is not None and layout.kind.data in ("contiguous", "deinterleaved")
    return layout.lane_stride.data if dense and isinstance(type_, VMIVRegType) else 1  # type: ignore[union-attr]


def _count(type_: Attribute) -> int:
    return type_.count.data  # type: ignore[attr-defined]


def lanes_in_part(type_: Attribute, part: int) -> int:
    """How many logical lanes part `part` holds (as its largest index plus one)."""
    factor, block = split_factor(type_), block_elems(type_)
    top = -1
    for lane in range(_count(type_)):
        blocks, within = divmod(lane, block)
        part_block, lane_part = divmod(blocks, factor)
        if lane_part == part:
            top = max(top, part_block * block + within)
    return top + 1


def chunks_in_part(type_: Attribute, part: int, strided: bool = True) -> int:
    """Registers of one part, as `-vmi-to-vpto` counts them (lanes spread evenly; its
    data-only count leaves the lane stride out)."""
    factor, per_chunk = split_factor(type_), lanes_per_chunk(type_)
    logical = (_count(type_) + factor - 1 - part) // factor
    stride = lane_stride(type_) if strided else 1
    physical = 0 if logical == 0 else (logical - 1) * stride + 1
    return -(-physical // per_chunk) if per_chunk else 0


def is_padding_lane(type_: Attribute, part: int, chunk: int, lane: int) -> bool:
    """Whether physical lane `lane` of chunk `chunk` of part `part` holds no logical lane."""
    layout = layout_of(type_)
    per_chunk = lanes_per_chunk(type_)
    if is_group_slots(layout) and layout.slots.data > 0:  # type: ignore[union-attr]
        slots = layout.slots.data  # type: ignore[union-attr]
        return part != 0 or lane >= slots or chunk * slots + lane >= _count(type_)
    index = chunk * per_chunk + lane
    stride = lane_stride(type_)
    return index % stride != 0 or index // stride >= lanes_in_part(type_, part)


def padding_free(type_: Attribute, data_chunks: bool = False) -> str | None:
    """None when every physical chunk of the value is full, else PTOAS's reason.
    `data_chunks` counts a data value's chunks without its lane stride, as PTOAS's
    data-only check does."""
    if layout_of(type_) is None or lanes_per_chunk(type_) <= 0:
        return "requires assigned layout with known physical lanes per part"
    per_chunk = lanes_per_chunk(type_)
    for part in range(split_factor(type_)):
        for chunk in range(chunks_in_part(type_, part, strided=not data_chunks)):
            if any(is_padding_lane(type_, part, chunk, lane) for lane in range(per_chunk)):
                return "found padding lane in physical chunk"
    return None


def total_chunks(type_: Attribute) -> int:
    """Registers of all parts."""
    return sum(chunks_in_part(type_, part) for part in range(split_factor(type_)))


def logical_to_physical(type_: Attribute, logical: int) -> tuple[int, int, int] | None:
    """The (part, chunk, lane) holding logical lane `logical`; None where none does."""
    per_chunk = lanes_per_chunk(type_)
    if not 0 <= logical < _count(type_) or per_chunk <= 0:
        return None
    layout = layout_of(type_)
    if is_group_slots(layout) and layout.slots.data > 0:  # type: ignore[union-attr]
        slots = layout.slots.data  # type: ignore[union-attr]
        lane = logical % slots
        return None if lane >= per_chunk else (0, logical // slots, lane)
    factor, block = split_factor(type_), block_elems(type_)
    blocks, within = divmod(logical, block)
    part_block, part = divmod(blocks, factor)
    index = (part_block * block + within) * lane_stride(type_)
    return part, index // per_chunk, index % per_chunk


def physical_to_logical(type_: Attribute, part: int, chunk: int, lane: int) -> int | None:
    """The logical lane a physical lane holds; None for padding."""
    per_chunk = lanes_per_chunk(type_)
    if not (0 <= part < split_factor(type_) and chunk >= 0 and 0 <= lane < per_chunk):
        return None
    layout = layout_of(type_)
    if is_group_slots(layout) and layout.slots.data > 0:  # type: ignore[union-attr]
        slots = layout.slots.data  # type: ignore[union-attr]
        logical = chunk * slots + lane
        return logical if part == 0 and lane < slots and logical < _count(type_) else None
    index = chunk * per_chunk + lane
    stride = lane_stride(type_)
    if index % stride:
        return None
    index //= stride
    factor, block = split_factor(type_), block_elems(type_)
    part_block, within = divmod(index, block)
    logical = (part_block * factor + part) * block + within
    return logical if logical < _count(type_) else None


def flat_chunk_index(type_: Attribute, part: int, chunk: int) -> int | None:
    """A chunk's position among all registers, parts in order (data counts)."""
    if not 0 <= part < split_factor(type_) or not 0 <= chunk < chunks_in_part(type_, part, False):
        return None
    return sum(chunks_in_part(type_, p, False) for p in range(part)) + chunk
