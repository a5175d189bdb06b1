"""PTOAS's VMI layout-support tables: which layouts each VMI op can be lowered with.

After layout assignment every VMI value has a `#pto.vmi.layout`; whether an op can be
lowered to VPTO depends on its layouts, element widths, lane counts and group sizes,
which PTOAS keeps as rule tables (`lib/PTO/Transforms/VMILayoutSupport.cpp`), read by
`-pto-validate-vmi-layout-ir`'s support gate and by `-vmi-to-vpto`. The rows here are
those tables' facts, written as data; each query returns None when a row matches and
otherwise PTOAS's reason.

A layout pattern is `("c",)` (contiguous), `("ls", s)` (contiguous with lane stride
s), `("d", f)` (deinterleaved), `("bd", f)` (block-deinterleaved) or `("gs", slots,
lane_stride)` (group slots, with the value's own num_groups). Group sizes are classed
by 32-byte VCG blocks: `("gb", n, d)` is a group of n/d blocks, `("full", k)` a
multiple of k whole registers.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Attribute, SSAValue
from xla_emit.dialects.pto.vmi_rules import lanes_per_register, layout_of, storage_bits
from xla_emit.dialects.pto.vpto_types import VMILayoutAttr, VMIMaskType, VMIVRegType

Pattern = tuple[object, ...]
C: Pattern = ("c",)


def ls(stride: int) -> Pattern:
    return ("ls", stride)


def d(factor: int) -> Pattern:
    return ("d", factor)


def bd(factor: int) -> Pattern:
    return ("bd", factor)


def gs(slots: int, stride: int = 1) -> Pattern:
    return ("gs", slots, stride)


def gb(numerator: int, denominator: int = 1) -> Pattern:
    return ("gb", numerator, denominator)


def full(multiple: int = 1) -> Pattern:
    return ("full", multiple)


def layout_matches(pattern: Pattern, layout: Attribute | None, num_groups: int = 0) -> bool:
    """Whether `layout` is the layout the pattern names (a group-slot pattern names one
    only for a known, positive num_groups)."""
    if not isinstance(layout, VMILayoutAttr) or layout.block_elems.data != 1:
        return False
    kind, factor = layout.kind.data, layout.factor.data
    slots, stride = layout.slots.data, layout.lane_stride.data
    tag = pattern[0]
    if tag == "c":
        return kind == "contiguous" and stride == 1
    if tag == "ls":
        return kind == "contiguous" and stride == pattern[1]
    if tag == "d":
        return kind == "deinterleaved" and factor == pattern[1] and stride == 1
    if tag == "bd":
        return kind == "block_deinterleaved" and factor == pattern[1]
    return (
        num_groups > 0
        and kind == "num_groups"
        and factor == num_groups
        and slots == pattern[1]
        and stride == pattern[2]
    )


def constant_index(value: SSAValue | None) -> int | None:
    """The value of an `arith.constant` index operand, if it is one."""
    owner = value.owner if value is not None else None
    if isinstance(owner, ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


# -- ensure_layout / ensure_mask_layout ---------------------------------------------

_ANY = None
# (element bits, logical lane counts or None for any, source, result)
ENSURE_LAYOUT_ROWS: tuple[tuple[tuple[int, ...], tuple[int, ...] | None, Pattern, Pattern], ...] = (
    ((8, 16, 32, 64), (1,), C, gs(1)),
    ((8, 16, 32, 64), (1,), gs(1), C),
    ((16,), (256,), C, d(2)),
    ((32,), (128, 256), C, d(2)),
    ((64,), (64, 128, 256), C, d(2)),
    ((16,), (256,), d(2), C),
    ((32,), (128, 256), d(2), C),
    ((64,), (64, 128, 256), d(2), C),
    ((32,), (256,), C, d(4)),
    ((64,), (128, 256), C, d(4)),
    ((32,), (256,), d(4), C),
    ((64,), (128, 256), d(4), C),
    ((32,), (256, 512), d(2), d(4)),
    ((64,), (128, 256), d(2), d(4)),
    ((32,), (256, 512), d(4), d(2)),
    ((64,), (128, 256), d(4), d(2)),
    ((8, 16), _ANY, C, ls(2)),
    ((8, 16), _ANY, ls(2), C),
    ((8,), _ANY, C, ls(4)),
    ((8,), _ANY, ls(4), C),
    ((8, 16), _ANY, gs(8), gs(8, 2)),
    ((8, 16), _ANY, gs(8, 2), gs(8)),
    ((8,), _ANY, gs(8), gs(8, 4)),
    ((8,), _ANY, gs(8, 4), gs(8)),
    ((8,), _ANY, gs(8, 2), gs(8, 4)),
    ((8,), _ANY, gs(8, 4), gs(8, 2)),
)

# (mask granularity, logical lane counts, source, result)
ENSURE_MASK_LAYOUT_ROWS: tuple[tuple[str, tuple[int, ...], Pattern, Pattern], ...] = (
    ("b16", (256,), C, d(2)),
    ("b32", (128, 256, 512), C, d(2)),
    ("b32", (128,), C, bd(2)),
    ("b16", (256,), d(2), C),
    ("b32", (128, 256, 512), d(2), C),
    ("b32", (128,), bd(2), C),
    ("b32", (256,), C, d(4)),
    ("b32", (256,), C, bd(4)),
    ("b32", (256,), d(4), C),
    ("b32", (256,), bd(4), C),
    ("b8", (1, 2, 4, 8, 64, 128), C, ls(2)),
    ("b16", (1, 2, 4, 8, 64), C, ls(2)),
    ("b32", (1, 2, 4, 8, 64), C, ls(2)),
    ("b8", (1, 2, 4, 8, 64, 128), ls(2), C),
    ("b16", (1, 2, 4, 8, 64), ls(2), C),
    ("b32", (1, 2, 4, 8, 64), ls(2), C),
    ("b8", (1, 2, 4, 8, 64), C, ls(4)),
    ("b16", (1, 2, 4, 8), C, ls(4)),
    ("b32", (1, 2, 4, 8), C, ls(4)),
    ("b8", (1, 2, 4, 8, 64), ls(4), C),
    ("b16", (1, 2, 4, 8), ls(4), C),
    ("b32", (1, 2, 4, 8), ls(4), C),
)


def _group_count(layout: Attribute | None) -> int:
    if isinstance(layout, VMILayoutAttr) and layout.is_group_slots:
        return layout.factor.data
    return 0


def ensure_layout_support(source: VMIVRegType, result: VMIVRegType) -> str | None:
    """`ensure_layout`: the same layout, or a row converting one into the other."""
    src, dst = layout_of(source), layout_of(result)
    if src is None or dst is None:
        return "requires assigned source/result layouts"
    if src == dst:
        return None
    groups = _group_count(src) or _group_count(dst)
    bits = storage_bits(source.element_type)
    for widths, counts, from_, to in ENSURE_LAYOUT_ROWS:
        lanes_fit = counts is None or source.count.data in counts
        row_fits = bits in widths and lanes_fit
        if row_fits and layout_matches(from_, src, groups) and layout_matches(to, dst, groups):
            return None
    return "source/result layouts do not match a supported ensure_layout table row"


def ensure_mask_layout_support(source: VMIMaskType, result: VMIMaskType) -> str | None:
    src, dst = layout_of(source), layout_of(result)
    if src is None or dst is None:
        return "requires assigned source/result layouts"
    if src == dst:
        return None
    for granularity, counts, from_, to in ENSURE_MASK_LAYOUT_ROWS:
        fits = source.granularity.data == granularity and source.count.data in counts
        if fits and layout_matches(from_, src) and layout_matches(to, dst):
            return None
    return "source/result mask layouts do not match a supported ensure_mask_layout table row"


# -- dense stores ---------------------------------------------------------------------

# (element bits, logical lane counts or None)
DENSE_STORE_ROWS: tuple[tuple[tuple[int, ...], Pattern, tuple[int, ...] | None], ...] = (
    ((8, 16, 32), C, None),
    ((8,), ls(4), (64,)),
    ((8,), ls(2), (128,)),
    ((16,), ls(2), (64,)),
    ((8, 16, 32), ls(2), None),
    ((8,), ls(4), None),
    ((8, 16, 32), d(2), None),
    ((8, 16, 32), d(4), None),
)


def store_support(value: VMIVRegType) -> str | None:
    layout = layout_of(value)
    if layout is None:
        return "requires assigned value layout"
    bits = storage_bits(value.element_type)
    for widths, pattern, counts in DENSE_STORE_ROWS:
        lanes_fit = counts is None or value.count.data in counts
        if bits in widths and lanes_fit and layout_matches(pattern, layout):
            return None
    return "value layout does not match a supported dense store table row"


# -- grouped ops -----------------------------------------------------------------------

BLOCK_CLASSES: tuple[Pattern, ...] = (
    gb(1, 4),
    gb(1, 2),
    gb(1),
    gb(2),
    gb(4),
    full(),
    full(2),
    full(4),
)


@dataclass(frozen=True)
class GroupKey:
    """A grouped op's group size against the register: lanes per register and
    lanes per 32-byte VCG block."""

    group_size: int
    lanes_per_part: int
    block_elems: int

    def matches(self, block: Pattern) -> bool:
        if block[0] == "full":
            whole = self.lanes_per_part * int(block[1])  # type: ignore[call-overload]
            return self.group_size >= whole and self.group_size % whole == 0
        numerator = self.block_elems * int(block[1])  # type: ignore[call-overload]
        denominator = int(block[2])  # type: ignore[call-overload]
        return numerator % denominator == 0 and self.group_size == numerator // denominator


def group_key(type_: VMIVRegType, num_groups: int, no_row: str) -> GroupKey | str:
    """The key a group table is read with, or why there is none."""
    if num_groups <= 0:
        return "requires num_groups to be positive"
    if type_.count.data % num_groups:
        return "requires num_groups to evenly divide logical lane count"
    per_part = lanes_per_register(type_.element_type)
    if per_part <= 0 or per_part % 8:
        return "requires element type with known 32B VCG block width"
    key = GroupKey(type_.count.data // num_groups, per_part, per_part // 8)
    if not any(key.matches(block) for block in BLOCK_CLASSES):
        return no_row
    return key


def _grouped_operand(
    type_: VMIVRegType, num_groups: int, role: str, op: str
) -> tuple[VMILayoutAttr, int, GroupKey] | str:
    """The layout, element bits and group key the tables of the grouped memory op `op`
    read its `role` operand with, or why they cannot read it."""
    layout = layout_of(type_)
    if layout is None:
        return f"requires assigned {role} layout"
    bits = storage_bits(type_.element_type)
    if bits == 0:
        return f"{op} requires known element bit width"
    key = group_key(type_, num_groups, f"{op} layout table has no row for this group size")
    if isinstance(key, str):
        return key
    return layout, bits, key


def _memory_matches(memory: str, row_stride: int | None, group_size: int, bits: int) -> bool:
    """A group table's memory form: any, rows back to back, or rows 32-byte aligned."""
    if memory == "any":
        return True
    if memory == "contiguous":
        return row_stride is not None and row_stride == group_size
    if row_stride is None or bits <= 0 or 256 % bits:
        return False
    return row_stride > 0 and row_stride % (256 // bits) == 0


# (element bits, block class, memory form, result layout)
GROUP_LOAD_ROWS: tuple[tuple[tuple[int, ...], Pattern, str, Pattern], ...] = (
    ((8, 16, 32), gb(1, 4), "contiguous", C),
    ((8, 16, 32), gb(1, 2), "contiguous", C),
    ((8, 16, 32), gb(1), "contiguous", C),
    ((8, 16, 32), gb(2), "contiguous", C),
    ((8, 16, 32), gb(4), "contiguous", C),
    ((8, 16, 32), full(), "any", C),
    ((32,), gb(2), "aligned", bd(2)),
    ((32,), gb(4), "aligned", bd(4)),
)


def _dense_group_row(
    rows: tuple[tuple[tuple[int, ...], Pattern, str, Pattern], ...],
    operand: tuple[VMILayoutAttr, int, GroupKey],
    stride: int | None,
) -> Pattern | None:
    """The block class of the first row of a dense group load or store table that the
    operand (layout, element bits, group key) and row stride match."""
    layout, bits, key = operand
    for widths, block, memory, pattern in rows:
        if (
            bits in widths
            and key.matches(block)
            and _memory_matches(memory, stride, key.group_size, bits)
            and layout_matches(pattern, layout)
        ):
            return block
    return None


def group_load_support(result: VMIVRegType, stride: int | None, num_groups: int) -> str | None:
    """A group load; `stride` is its row stride where that is a constant."""
    operand = _grouped_operand(result, num_groups, "result", "group_load")
    if isinstance(operand, str):
        return operand
    if _dense_group_row(GROUP_LOAD_ROWS, operand, stride) is not None:
        return None
    return "result layout, group size, and row_stride do not match a supported group_load table row"


# The group-slot layouts a slot load or a slot store reads and writes.
GROUP_SLOT_MEMORY_LAYOUTS: tuple[Pattern, ...] = (gs(1), gs(8), gs(8, 2), gs(8, 4))


def group_slot_memory_layout(layout: Attribute | None, num_groups: int) -> bool:
    if not isinstance(layout, VMILayoutAttr) or not layout.is_group_slots:
        return False
    if layout.factor.data != num_groups or layout.slots.data <= 0:
        return False
    return any(layout_matches(p, layout, num_groups) for p in GROUP_SLOT_MEMORY_LAYOUTS)


def _group_slot_support(type_: VMIVRegType, num_groups: int, role: str, op: str) -> str | None:
    """Why the `role` operand of the slot load or store `op` has no slot memory layout."""
    if layout_of(type_) is None:
        return f"requires assigned {role} layout"
    if not group_slot_memory_layout(layout_of(type_), num_groups):
        return f"{role} layout does not match a supported {op} table row"
    return None


def group_slot_load_support(result: VMIVRegType, num_groups: int) -> str | None:
    return _group_slot_support(result, num_groups, "result", "group_slot_load")


def group_slot_store_support(value: VMIVRegType, num_groups: int) -> str | None:
    return _group_slot_support(value, num_groups, "value", "group_store")


# (block class, source layout, result layout); the mask's layout is the source's.
GROUP_REDUCE_ROWS: tuple[tuple[Pattern, Pattern, Pattern], ...] = (
    (gb(1, 4), ls(4), gs(8)),
    (gb(1, 2), ls(2), gs(8)),
    (gb(1), C, gs(8)),
    (gb(2), d(2), gs(8)),
    (gb(2), bd(2), gs(8)),
    (gb(4), d(4), gs(8)),
    (gb(4), bd(4), gs(8)),
    (full(), C, gs(1)),
    (full(2), d(2), gs(1)),
    (full(4), d(4), gs(1)),
)


def group_reduce_support(
    source: VMIVRegType, mask: VMIMaskType, result: VMIVRegType, num_groups: int
) -> str | None:
    src, msk, dst = layout_of(source), layout_of(mask), layout_of(result)
    if src is None or msk is None or dst is None:
        return "requires assigned source, mask, and result layouts"
    key = group_key(source, num_groups, "group_reduce layout table has no row for this group size")
    if isinstance(key, str):
        return key
    for block, source_pattern, result_pattern in GROUP_REDUCE_ROWS:
        if (
            key.matches(block)
            and layout_matches(source_pattern, src)
            and layout_matches(source_pattern, msk)
            and layout_matches(result_pattern, dst, num_groups)
        ):
            return None
    return (
        "group_reduce source/mask/result layouts do not match a legal layout table row for "
        "the group size"
    )


# (block class, source layout, result layout)
GROUP_BROADCAST_ROWS: tuple[tuple[Pattern, Pattern, Pattern], ...] = (
    (gb(1, 4), gs(8), ls(4)),
    (gb(1, 2), gs(8), ls(2)),
    (gb(1), gs(8), C),
    (gb(1), gs(8), ls(2)),
    (gb(1), gs(8, 2), C),
    (gb(1), gs(8, 4), C),
    (gb(2), gs(8), C),
    (gb(2), gs(8), d(2)),
    (gb(2), gs(8), bd(2)),
    (gb(2), gs(1), C),
    (gb(4), gs(8), C),
    (gb(4), gs(8), d(4)),
    (gb(4), gs(8), bd(4)),
    (gb(4), gs(1), C),
    (full(), gs(8), C),
    (full(), gs(1), C),
    (full(2), gs(1), d(2)),
    (full(4), gs(1), d(4)),
)


def group_broadcast_support(
    source: VMIVRegType, result: VMIVRegType, num_groups: int
) -> str | None:
    src, dst = layout_of(source), layout_of(result)
    if src is None or dst is None:
        return "requires assigned source/result layouts"
    no_row = "group_broadcast layout table has no row for this group size"
    key = group_key(result, num_groups, no_row)
    if isinstance(key, str):
        return key
    for block, source_pattern, result_pattern in GROUP_BROADCAST_ROWS:
        if (
            key.matches(block)
            and layout_matches(source_pattern, src, num_groups)
            and layout_matches(result_pattern, dst, num_groups)
        ):
            return None
    return "source/result layouts do not match a supported group_broadcast table row"


# -- casts --------------------------------------------------------------------------

# (source bits, result bits, source layout, result layout)
LEGAL_CAST_ROWS: tuple[tuple[int, int, Pattern, Pattern], ...] = (
    (16, 16, C, C),
    (8, 16, C, d(2)),
    (8, 16, ls(2), C),
    (8, 16, d(2), d(4)),
    (16, 32, C, d(2)),
    (16, 32, ls(2), C),
    (16, 32, d(2), d(4)),
    (16, 8, d(2), C),
    (16, 8, C, ls(2)),
    (16, 8, d(4), d(2)),
    (32, 16, d(2), C),
    (32, 16, C, ls(2)),
    (32, 16, d(4), d(2)),
    (8, 32, C, d(4)),
    (8, 32, ls(2), d(2)),
    (8, 32, ls(4), C),
    (32, 8, d(4), C),
    (32, 8, C, ls(4)),
    (32, 8, d(2), ls(2)),
    (8, 16, gs(1), gs(1)),
    (8, 16, gs(8, 2), gs(8)),
    (16, 32, gs(1), gs(1)),
    (16, 32, gs(8, 2), gs(8)),
    (8, 32, gs(1), gs(1)),
    (8, 32, gs(8, 4), gs(8)),
    (8, 16, gs(2), gs(2)),
    (8, 16, gs(4), gs(4)),
    (8, 16, gs(8), gs(8)),
    (16, 32, gs(2), gs(2)),
    (16, 32, gs(4), gs(4)),
    (16, 32, gs(8), gs(8)),
    (8, 32, gs(2), gs(2)),
    (8, 32, gs(4), gs(4)),
    (8, 32, gs(8), gs(8)),
    (16, 8, gs(1), gs(1)),
    (16, 8, gs(8), gs(8, 2)),
    (32, 16, gs(1), gs(1)),
    (32, 16, gs(8), gs(8, 2)),
    (32, 8, gs(1), gs(1)),
    (32, 8, gs(8), gs(8, 4)),
)


def cast_support(source: VMIVRegType, result: VMIVRegType) -> str | None:
    """A layout-changing cast (extf, truncf, ext/trunc of integers): a legal row from
    the source's layout, and exactly one of those to the result's."""
    src, dst = layout_of(source), layout_of(result)
    src_bits, dst_bits = storage_bits(source.element_type), storage_bits(result.element_type)
    groups = _group_count(src)
    rows = [
        row
        for row in LEGAL_CAST_ROWS
        if row[0] == src_bits and row[1] == dst_bits and layout_matches(row[2], src, groups)
    ]
    if not rows:
        return "requires a legal cast relation for the source layout"
    matching = [row for row in rows if layout_matches(row[3], dst, groups)]
    if len(matching) > 1:
        return "cast layout query produced ambiguous layout facts"
    if not matching:
        return "source/result layouts do not match a legal cast table row"
    return None


# Width-changing bitcasts keep their lanes in place only in a contiguous layout.
WIDTH_CHANGING_BITCAST_LAYOUTS: tuple[Pattern, ...] = (C,)


def bitcast_support(source: VMIVRegType, result: VMIVRegType) -> str | None:
    src, dst = layout_of(source), layout_of(result)
    if src is None or dst is None:
        return "requires assigned source and result layouts"
    if src != dst:
        return "requires matching source and result layouts"
    src_bits, dst_bits = storage_bits(source.element_type), storage_bits(result.element_type)
    if src_bits == 0 or dst_bits == 0:
        return "requires source and result with known storage element width"
    groups = _group_count(src)
    if src_bits != dst_bits and not any(
        layout_matches(p, src, groups) and layout_matches(p, dst, groups)
        for p in WIDTH_CHANGING_BITCAST_LAYOUTS
    ):
        return "width-changing bitcast layout does not match a bitcast layout table row"
    return None


# (element bits, block class, memory form, value layout) of dense group stores.
GROUP_STORE_ROWS: tuple[tuple[tuple[int, ...], Pattern, str, Pattern], ...] = (
    ((8, 16, 32), gb(1), "aligned", C),
    ((8, 16, 32), full(), "any", C),
    ((8, 16, 32), full(2), "any", d(2)),
)


def group_store_row(value: VMIVRegType, stride: int | None, num_groups: int) -> Pattern | str:
    """The block class of the dense group-store row the value matches, or why none."""
    operand = _grouped_operand(value, num_groups, "value", "group_store")
    if isinstance(operand, str):
        return operand
    block = _dense_group_row(GROUP_STORE_ROWS, operand, stride)
    if block is not None:
        return block
    return "value layout, group size, and row_stride do not match a supported group_store table row"


# (block class, element bits, memory form, result layout, group counts or None)
GROUP_BROADCAST_LOAD_ROWS: tuple[
    tuple[Pattern, tuple[int, ...], str, Pattern, tuple[int, ...] | None], ...
] = (
    (gb(1, 4), (8, 16, 32), "unit", ls(4), None),
    (gb(1, 2), (8, 16, 32), "unit", ls(2), None),
    (gb(1), (8, 16, 32), "unit", C, None),
    (gb(2), (8, 16, 32), "unit", C, None),
    (gb(2), (8, 16, 32), "unit", d(2), None),
    (gb(4), (8, 16, 32), "unit", C, None),
    (gb(4), (8, 16, 32), "unit", d(4), None),
    (full(), (8, 16, 32), "any", C, None),
    # One group is a scalar broadcast: every lane equal, any split layout holds it.
    (full(), (8, 16, 32), "any", d(2), (1,)),
    (full(), (8, 16, 32), "any", d(4), (1,)),
)


def group_broadcast_load_support(
    result: VMIVRegType, stride: int | None, num_groups: int
) -> str | None:
    operand = _grouped_operand(result, num_groups, "result", "group_broadcast_load")
    if isinstance(operand, str):
        return operand
    layout, bits, key = operand
    for block, widths, memory, pattern, groups in GROUP_BROADCAST_LOAD_ROWS:
        if (
            key.matches(block)
            and (groups is None or num_groups in groups)
            and bits in widths
            and (memory == "any" or stride == 1)
            and layout_matches(pattern, layout, num_groups)
        ):
            return None
    return (
        "group_broadcast_load requires a table row for result layout, group size, and either "
        "constant unit source_group_stride or constant positive source_group_stride divisible "
        f"by {256 // bits} elements"
    )
