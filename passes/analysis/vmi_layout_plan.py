"""Layouts PTOAS's `-vmi-layout-assignment` settles whatever the rest of a kernel asks,
and what its materialization and `-vmi-to-vpto` then refuse.

The propagator (`VMILayoutPropagation.cpp`) gives a value its primary layout only where
the defining op can produce it; a use that wants another layout gets a conflict, which
`apply` materializes as an `ensure_layout` / `ensure_mask_layout` before the user. Three
facts of it hold for any kernel:

- a strided f32 group load of 16 or 32 lanes per group (the block8 plan) can produce
  only `block_deinterleaved = 2` / `= 4`: no other group-load row fits rows that are not
  back to back;
- a block argument gets a primary layout only from an explicit layout, a join (branch,
  yield, return, call) or mask logic; an entry argument of a function no call reaches,
  used only by plain VMI ops, is given the final fallback, `contiguous`, and each use
  that asks for another layout gets a helper from it;
- a group reduction whose group size has no table row can produce no result layout, so
  a use asking for one has nothing to convert from.

From them: the block8 value's users that need another layout (a narrowing cast has no
block-deinterleaved row, nor `ensure_layout` from one), its group reduction's mask
taken from an argument (`-vmi-to-vpto` lowers no mask helper into or out of
`block_deinterleaved`), a reduction whose preferred source layout no `ensure_layout` row
makes from a contiguous argument, and a group store of an unplaceable reduction.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects.builtin import IntAttr, ModuleOp, StringAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xla_emit.dialects.pto.vmi_rules import layout_of, storage_bits
from xla_emit.dialects.pto.vpto_types import VMILayoutAttr, VMIMaskType, VMIVRegType
from xla_emit.passes.analysis import vmi_layout_support as tables
from xla_emit.passes.analysis.vmi_layout_solver import vmi_layout
from xla_emit.passes.analysis.vmi_legacy_form import VMIForm, vmi_form
from xla_emit.passes.analysis.vmi_lowering_checks import (
    LAYOUT_CONTRACT,
    RESIDUAL,
    UNSUPPORTED,
    block8_group_size,
    block8_stride_fits,
    post_order,
    type_text,
)
from xla_emit.passes.diagnostics import OpError

# Ops whose operands join layouts or rewrite masks: an argument they use may be given
# a primary layout other than the fallback.
_JOINING_VMI_OPS = frozenset(
    f"pto.vmi.{name}"
    for name in (
        "mask_and",
        "mask_or",
        "mask_xor",
        "mask_not",
        "ensure_layout",
        "ensure_mask_layout",
        "ensure_mask_granularity",
    )
)
_NARROWING_CASTS = frozenset({"pto.vmi.truncf"})
_NO_ROW = "no row"


def _forms(module: ModuleOp, lowered: bool) -> Iterator[VMIForm]:
    for op in post_order(module):
        if op.name.startswith("pto.vmi."):
            yield vmi_form(op, lowered)


def _group_slots(groups: int, slots: int) -> VMILayoutAttr:
    return VMILayoutAttr(
        StringAttr("num_groups"), IntAttr(groups), IntAttr(1), IntAttr(slots), IntAttr(1)
    )


def _with_layout(type_: VMIVRegType, layout: VMILayoutAttr) -> VMIVRegType:
    return VMIVRegType(type_.count, type_.element_type, layout)


def _function_of(op: Operation) -> FuncOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, FuncOp):
        parent = parent.parent_op()
    return parent


def _called(function: FuncOp, module: ModuleOp) -> bool:
    name = function.sym_name.data
    return any(
        op.name == "func.call" and op.callee.root_reference.data == name  # type: ignore[attr-defined]
        for op in module.walk()
    )


def _contiguous_argument(value: SSAValue | None, module: ModuleOp) -> bool:
    """An unassigned entry argument whose primary layout is the fallback `contiguous`."""
    if not isinstance(value, BlockArgument) or layout_of(value.type) is not None:
        return False
    block = value.owner
    function = block.parent_op() if isinstance(block, Block) else None
    if not isinstance(function, FuncOp) or function.body.blocks.first is not block:
        return False
    if _called(function, module):
        return False
    return all(
        use.operation.name.startswith("pto.vmi.")
        and use.operation.name not in _JOINING_VMI_OPS
        and not use.operation.regions
        for use in value.uses
    )


def _plain_function(function: FuncOp | None, lowered: bool) -> bool:
    """A function with no explicit layout and no block8 load: no seed of a phase before
    the reductions' own reaches them."""
    if function is None:
        return False
    for op in function.walk():
        types = [v.type for v in (*op.operands, *op.results)]
        types += [a.type for r in op.regions for b in r.blocks for a in b.args]
        if any(layout_of(t) is not None for t in types if isinstance(t, VMIVRegType)):
            return False
        if any(layout_of(t) is not None for t in types if isinstance(t, VMIMaskType)):
            return False
        if op.name.startswith("pto.vmi.") and vmi_form(op, lowered).name == "pto.vmi.group_load":
            return False
    return True


def _group_reduce(form: VMIForm) -> bool:
    return form.name.startswith("pto.vmi.group_reduce_")


def _reduce_key(form: VMIForm) -> tables.GroupKey | str:
    source = form.type("source")
    if not isinstance(source, VMIVRegType):
        return "no source"
    return tables.group_key(source, form.num_groups, _NO_ROW)


# -- block8 group loads --------------------------------------------------------------


def block8_layouts(module: ModuleOp, lowered: bool) -> dict[SSAValue, VMILayoutAttr]:
    """Each block8 group load's result and the `block_deinterleaved` layout it gets."""
    layouts: dict[SSAValue, VMILayoutAttr] = {}
    for form in _forms(module, lowered):
        group_size = block8_group_size(form)
        if group_size is not None and block8_stride_fits(form):
            layouts[form.roles["result"]] = vmi_layout("block_deinterleaved", group_size // 8)
    return layouts


def _narrowing_from_block8(form: VMIForm, block8: dict[SSAValue, VMILayoutAttr]) -> OpError | None:
    """A narrowing cast of a block8 value: no cast row reads a block-deinterleaved
    source, and no `ensure_layout` row leaves one. The cast's lane-stride narrowing row
    wants its source contiguous."""
    source = form.roles.get("source")
    if form.name not in _NARROWING_CASTS or source not in block8:
        return None
    assigned = _with_layout(source.type, block8[source])  # type: ignore[arg-type]
    wanted = _with_layout(source.type, vmi_layout("contiguous"))  # type: ignore[arg-type]
    return _helper_error(form, 0, assigned, wanted)


def _helper_error(form: VMIForm, index: int, source: VMIVRegType, wanted: VMIVRegType) -> OpError:
    return OpError(
        form.op,
        f"{UNSUPPORTED}{form.name} operand #{index} has type {type_text(source)} but requires "
        f"{type_text(wanted)}; pto.vmi.ensure_layout cannot materialize this conversion",
    )


def _reduce_from_argument(form: VMIForm, module: ModuleOp, lowered: bool) -> OpError | None:
    """A reduction of contiguous arguments whose preferred source layout (the first
    row of its group size) no `ensure_layout` row makes from `contiguous`."""
    source, mask = form.roles.get("source"), form.roles.get("mask")
    result = form.type("result")
    if not _group_reduce(form) or layout_of(result) is not None:
        return None
    if not (_contiguous_argument(source, module) and _contiguous_argument(mask, module)):
        return None
    if not _plain_function(_function_of(form.op), lowered):
        return None
    key = _reduce_key(form)
    if isinstance(key, str):
        return None
    pattern = next(src for block, src, _ in tables.GROUP_REDUCE_ROWS if key.matches(block))
    if pattern[0] != "d":
        return None
    preferred = vmi_layout("deinterleaved", int(pattern[1]))  # type: ignore[call-overload]
    have = _with_layout(source.type, vmi_layout("contiguous"))  # type: ignore[union-attr, arg-type]
    wanted = _with_layout(source.type, preferred)  # type: ignore[union-attr, arg-type]
    if tables.ensure_layout_support(have, wanted) is None:
        return None
    return _helper_error(form, 0, have, wanted)


class SettledLayouts:
    """What `-vmi-to-vpto` makes of the layouts assignment certainly gave a module."""

    def __init__(self, module: ModuleOp, lowered: bool) -> None:
        self.module, self.lowered = module, lowered
        self.block8 = block8_layouts(module, lowered)

    def support_error(self, op: Operation) -> OpError | None:
        """Its survey of one op (`verifySupportedVMIToVPTOOps`)."""
        if not op.name.startswith("pto.vmi."):
            return None
        form = vmi_form(op, self.lowered)
        return _narrowing_from_block8(form, self.block8) or _reduce_from_argument(
            form, self.module, self.lowered
        )

    def check_conversions(self) -> None:
        """The conversion's refusal: a block8 value's group reduction takes its mask
        from a contiguous argument, so a helper into `block_deinterleaved` precedes it,
        and `-vmi-to-vpto` lowers no mask helper into or out of that layout."""
        for form in _forms(self.module, self.lowered):
            if not _group_reduce(form) or form.roles.get("source") not in self.block8:
                continue
            mask = form.roles.get("mask")
            if _contiguous_argument(mask, self.module) and _b32_capable(mask, self.lowered):
                raise OpError(form.op, RESIDUAL + "failed to convert all VMI ops/types to VPTO")


def _b32_capable(mask: SSAValue | None, lowered: bool) -> bool:
    """A pred or b32 mask that only reductions of 32-bit lanes use: the granularity
    pass makes it b32 in place, with no helper between it and the reductions."""
    granularity = getattr(getattr(mask, "type", None), "granularity", None)
    if mask is None or granularity is None or granularity.data not in ("pred", "b32"):
        return False
    for use in mask.uses:
        form = vmi_form(use.operation, lowered)
        source = form.type("source")
        if not _group_reduce(form) or form.roles.get("mask") is not mask:
            return False
        if not isinstance(source, VMIVRegType) or storage_bits(source.element_type) != 32:
            return False
    return True


# -- unplaceable group reductions ------------------------------------------------------


def check_unplaceable_reduces(module: ModuleOp, lowered: bool) -> None:
    """A group reduction of a group size no table row has produces no layout; a group
    store of its result asks for a group-slots layout that `apply` cannot make."""
    for form in _forms(module, lowered):
        result = form.roles.get("result")
        if not _group_reduce(form) or result is None or layout_of(result.type) is not None:
            continue
        if _reduce_key(form) != _NO_ROW:
            continue
        for use in result.uses:
            wanted = _slot_store_request(use.operation, result, lowered)
            if wanted is not None:
                raise OpError(
                    use.operation,
                    f"{LAYOUT_CONTRACT}cannot materialize requested VMI operand layout "
                    f"{type_text(wanted)}",
                )


def _slot_store_request(op: Operation, value: SSAValue, lowered: bool) -> Attribute | None:
    """The group-slots layout a group store of one lane per group asks of its value
    (8 slots for packed rows of at least 8 groups, else 1), where that store has a row."""
    if not op.name.startswith("pto.vmi."):
        return None
    form = vmi_form(op, lowered)
    type_ = value.type
    if form.name != "pto.vmi.group_store" or form.roles.get("value") is not value:
        return None
    if not isinstance(type_, VMIVRegType) or type_.count.data != form.num_groups:
        return None
    if storage_bits(type_.element_type) not in (8, 16, 32):
        return None
    packed = form.stride == 1 and form.num_groups >= 8
    layout = _group_slots(form.num_groups, 8 if packed else 1)
    if tables.group_slot_store_support(_with_layout(type_, layout), form.num_groups):
        return None
    return layout
