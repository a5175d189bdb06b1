"""The legacy VMI op a unified VMI op becomes under `-vmi-lower-unified-to-legacy`.

PTOAS's producers write unified ops (`pto.vmi.vload`, `vstore`, `vcvt`, `vcadd`, ...);
`-vmi-lower-unified-to-legacy` rewrites them into the legacy ops the later VMI passes
read (`group_load`, `group_store`, `extf`, `group_reduce_addf`, ...), choosing by
attributes and types (PTOAS `lib/PTO/Transforms/VMILowerUnifiedToLegacy.cpp`). The
checks of those later passes key their rules by the legacy op, so they read each op
through its `VMIForm`: the legacy op's name, its operands and results by role, its
group count and its row stride where it is a constant. An op the rewrite leaves alone
(a `pmode = "merge"` form, an op without a legacy twin) is its own form.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xla_emit.dialects.pto.vmi_rules import (
    int_prop,
    is_float_like,
    is_int,
    is_signed,
    layout_of,
    storage_bits,
    string_prop,
)
from xla_emit.dialects.pto.vpto_types import VMIVRegType
from xla_emit.passes.analysis.vmi_layout_support import constant_index

# Operand and result names of the legacy ops, read by role.
ROLES = (
    "source",
    "mask",
    "result",
    "value",
    "destination",
    "offset",
    "passthru",
    "indices",
    "lhs",
    "rhs",
    "acc",
    "index",
)
STRIDES = ("row_stride", "source_group_stride")
# Value counts written one group per lane (PTOAS's compact group counts).
COMPACT_GROUP_COUNTS = (1, 2, 4, 8)


@dataclass
class VMIForm:
    """An op as the VMI passes after the unified-to-legacy rewrite see it."""

    name: str
    op: Operation
    roles: dict[str, SSAValue] = field(default_factory=dict)
    num_groups: int = 0
    # The row or group stride: a constant's value, None where it is not constant.
    stride: int | None = None
    has_stride: bool = False

    def type(self, role: str) -> Attribute | None:
        value = self.roles.get(role)
        return value.type if value is not None else None


def _own_form(op: Operation) -> VMIForm:
    roles: dict[str, SSAValue] = {}
    for role in ROLES:
        value = getattr(op, role, None)
        if isinstance(value, SSAValue):
            roles[role] = value
    form = VMIForm(op.name, op, roles, int_prop(op, "num_groups") or 0)
    for name in STRIDES:
        value = getattr(op, name, None)
        if isinstance(value, SSAValue):
            form.stride, form.has_stride = constant_index(value), True
    return form


def _merge(op: Operation) -> bool:
    return string_prop(op, "pmode") == "merge"


def cvt_name(source: Attribute, result: Attribute) -> str | None:
    """`vcvt`'s legacy op by its element types; None where there is none."""
    src_fp, dst_fp = is_float_like(source), is_float_like(result)
    wider = storage_bits(result) > storage_bits(source)
    if src_fp and dst_fp:
        return "extf" if wider else "truncf"
    if src_fp:
        unsigned = is_int(result) and not is_signed(result)
        return "fptoui" if unsigned else "fptosi"
    if dst_fp:
        return "sitofp" if is_signed(source) else None
    if wider:
        return "extsi" if is_signed(source) else "extui"
    return "trunci"


def _all_active(mask: SSAValue) -> bool:
    """A mask that `pset` or a `create_mask` of at least every lane made."""
    owner = mask.owner
    if not isinstance(owner, Operation):
        return False
    if owner.name == "pto.vmi.pset":
        return True
    if owner.name == "pto.vmi.create_mask" and owner.operands:
        lanes = owner.operands[0].owner
        if isinstance(lanes, ConstantOp) and isinstance(lanes.value, IntegerAttr):
            count = mask.type.count.data  # type: ignore[attr-defined]
            return lanes.value.value.data >= count
    return False


def _load_form(op: Operation) -> VMIForm:
    result = op.results[0]
    roles = {"source": op.source, "offset": op.offset, "result": result}  # type: ignore[attr-defined]
    stride_value = op.stride  # type: ignore[attr-defined]
    group = int_prop(op, "group")
    dist = string_prop(op, "dist_mode") or "continuous"
    count = result.type.count.data  # type: ignore[attr-defined]

    def form(name: str, groups: int = 0, stride: int | None = None, has: bool = False) -> VMIForm:
        return VMIForm(f"pto.vmi.{name}", op, roles, groups, stride, has)

    if group is not None:
        stride = constant_index(stride_value)
        if dist == "brc":
            return form("group_broadcast_load", group, stride, True)
        name = "group_slot_load" if count == group else "group_load"
        return form(name, group, stride, True)
    if op.block_stride is not None:  # type: ignore[attr-defined]
        return form("stride_load")
    if _merge(op):
        return _own_form(op)
    if dist == "continuous":
        if count in COMPACT_GROUP_COUNTS:
            return form("group_slot_load", count, 1, True)
        return form("load")
    if dist == "dintlv":
        return form("deinterleave_load")
    if dist == "brc":
        return form("group_broadcast_load", 1, 0, True)
    return _own_form(op)


def _store_form(op: Operation) -> VMIForm:
    values = list(op.values)  # type: ignore[attr-defined]
    masks = list(op.mask)  # type: ignore[attr-defined]
    roles = {"value": values[0], "destination": op.destination, "offset": op.offset}  # type: ignore[attr-defined]
    if masks:
        roles["mask"] = masks[0]
    group = int_prop(op, "group")
    dist = string_prop(op, "dist_mode") or "continuous"

    def form(name: str, groups: int = 0, stride: int | None = None, has: bool = False) -> VMIForm:
        return VMIForm(f"pto.vmi.{name}", op, roles, groups, stride, has)

    if _merge(op):
        return _own_form(op)
    if group is not None:
        return form("group_store", group, constant_index(op.stride), True)  # type: ignore[attr-defined]
    if op.block_stride is not None:  # type: ignore[attr-defined]
        return form("stride_store")
    if dist == "dintlv":
        return form("interleave_store")
    count = values[0].type.count.data
    if count in COMPACT_GROUP_COUNTS and (not masks or _all_active(masks[0])):
        return form("group_store", count, 1, True)
    return form("masked_store" if masks else "store")


def _reduce_form(op: Operation, kind: str) -> VMIForm:
    source, result = op.source, op.result  # type: ignore[attr-defined]
    roles = {"source": source, "mask": op.mask, "result": result}  # type: ignore[attr-defined]
    suffix = "f" if is_float_like(source.type.element_type) else "i"
    group = int_prop(op, "group")
    if group is None and layout_of(result.type) is None:
        group = 1
    if group is not None:
        return VMIForm(f"pto.vmi.group_reduce_{kind}{suffix}", op, roles, group)
    return VMIForm(f"pto.vmi.reduce_{kind}{suffix}", op, roles)


def _simple(name: str, op: Operation, **roles: SSAValue) -> VMIForm:
    return VMIForm(f"pto.vmi.{name}", op, dict(roles))


def unified_form(op: Operation) -> VMIForm | None:
    """The legacy form of a unified op the rewrite lowers; None for other ops."""
    name = op.name.removeprefix("pto.vmi.")
    if name in ("vload", "vstore") and op.name.startswith("pto.vmi."):
        return _load_form(op) if name == "vload" else _store_form(op)
    if not op.name.startswith("pto.vmi.") or _merge(op):
        return None
    if name == "vinterpret_cast":
        return _simple("bitcast", op, source=op.source, result=op.result)  # type: ignore[attr-defined]
    if name == "vcvt":
        source, result = op.source, op.result  # type: ignore[attr-defined]
        legacy = cvt_name(source.type.element_type, result.type.element_type)
        return _simple(legacy, op, source=source, result=result) if legacy else None
    if name == "vbrc":
        group = int_prop(op, "group")
        value, result = op.value, op.result  # type: ignore[attr-defined]
        if group is not None and isinstance(value.type, VMIVRegType):
            form = _simple("group_broadcast", op, source=value, result=result)
            form.num_groups = group
            return form
        return _simple("broadcast", op, value=value, result=result)
    if name in ("vcadd", "vcmax", "vcmin"):
        return _reduce_form(op, {"vcadd": "add", "vcmax": "max", "vcmin": "min"}[name])
    if name == "vmula":
        result = op.result  # type: ignore[attr-defined]
        if not is_float_like(result.type.element_type):
            return None
        return _simple("fma", op, lhs=op.lhs, rhs=op.rhs, acc=op.acc, result=result)  # type: ignore[attr-defined]
    if name == "vgather":
        return _simple(
            "gather",
            op,
            source=op.source,  # type: ignore[attr-defined]
            indices=op.offsets,  # type: ignore[attr-defined]
            mask=op.mask,  # type: ignore[attr-defined]
            result=op.result,  # type: ignore[attr-defined]
        )
    if name == "vscatter":
        return _simple(
            "scatter",
            op,
            value=op.value,  # type: ignore[attr-defined]
            destination=op.destination,  # type: ignore[attr-defined]
            indices=op.offsets,  # type: ignore[attr-defined]
            mask=op.mask,  # type: ignore[attr-defined]
        )
    return None


def vmi_form(op: Operation, lowered: bool) -> VMIForm:
    """The op as the passes see it: its legacy form once the rewrite ran, else itself."""
    if lowered:
        form = unified_form(op)
        if form is not None:
            return form
    return _own_form(op)


# The unified ops `-vmi-lower-unified-to-legacy` rewrites; `-vmi-to-vpto` has no
# pattern of its own for them, so one it leaves is left unconverted.
REWRITTEN_UNIFIED_OPS = frozenset(
    f"pto.vmi.{name}"
    for name in [
        "vci",
        "vinterpret_cast",
        "vsel",
        "vbrc",
        "vadd",
        "vsub",
        "vmul",
        "vdiv",
        "vmin",
        "vmax",
        "vand",
        "vor",
        "vxor",
        "vshl",
        "vshr",
        "vneg",
        "vabs",
        "vsqrt",
        "vexp",
        "vln",
        "vrelu",
        "vnot",
        "vcmp",
        "vcmps",
        "vcvt",
        "vload",
        "vstore",
        "vsstb",
        "pset",
        "pge",
        "plt",
        "vcadd",
        "vcmax",
        "vcmin",
        "vmula",
        "vaxpy",
        "vgather",
        "vscatter",
        "vlrelu",
        "vprelu",
    ]
)


def left_unified(op: Operation, lowered: bool) -> bool:
    """A unified op still in the module for `-vmi-to-vpto`: every one where the rewrite
    did not run; after it, those it skips (a merging form, which legacy ops cannot
    express; a float-only fusion of integers; a conversion with no legacy twin)."""
    if op.name not in REWRITTEN_UNIFIED_OPS:
        return False
    if not lowered or _merge(op):
        return True
    name = op.name.removeprefix("pto.vmi.")
    if name in ("vmula", "vaxpy", "vlrelu", "vprelu"):
        return not is_float_like(op.results[0].type.element_type)  # type: ignore[attr-defined]
    if name == "vcvt":
        source, result = op.operands[0].type, op.results[0].type
        return cvt_name(source.element_type, result.element_type) is None  # type: ignore[attr-defined]
    return name == "vload" and string_prop(op, "dist_mode") == "unpack"
