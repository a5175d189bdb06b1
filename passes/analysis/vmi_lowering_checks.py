"""Checks PTOAS's VMI passes make of a module's ops before rewriting it: the support
gate of `-pto-validate-vmi-layout-ir`, the legacy ops' verifiers after
`-vmi-lower-unified-to-legacy`, and what `-vmi-layout-assignment` refuses while it
collects its constraints (`-vmi-to-vpto`'s op survey is in `vmi_to_vpto_checks.py`).

- the support gate (PTOAS `lib/PTO/Transforms/PTOValidateVMIIR.cpp`): each layout
  helper (`ensure_layout`, `ensure_mask_layout`) and each grouped, storing or casting op
  must match a row of the layout-support tables (`vmi_layout_support.py`); else
  `VMI-LAYOUT-CONTRACT:` with the op's VMI types, or, for a helper whose result has one
  user, on that user;
- after the unified-to-legacy rewrite (`VMILowerUnifiedToLegacy.cpp`) each unified op
  must satisfy the verifier of the legacy op it becomes (`vmi_rules.py`);
- layout assignment (`VMILayoutAssignment.cpp`) cannot plan a callee it does not see
  (a VMI-typed declaration or indirect call) nor a strided f32 group load whose rows
  are not whole 32-byte blocks.

Ops are read through their legacy form (`vmi_legacy_form.py`) once the pipeline ran
`-vmi-lower-unified-to-legacy`. The walks are MLIR's post-order walk and stop at the
first op that fails.
"""

from __future__ import annotations

import io

from xdsl.dialects.builtin import (
    Float32Type,
    FunctionType,
    IntegerAttr,
    ModuleOp,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.vmi_rules import (
    VMI_RULES,
    is_contiguous,
    layout_of,
)
from xla_emit.dialects.pto.vpto_types import VMILayoutAttr, VMIMaskType, VMIVRegType
from xla_emit.passes.analysis import vmi_layout_support as tables
from xla_emit.passes.analysis.vmi_legacy_form import (
    VMIForm,
    unified_form,
    vmi_form,
)
from xla_emit.passes.diagnostics import OpError

LAYOUT_CONTRACT = "VMI-LAYOUT-CONTRACT: "
UNSUPPORTED = "VMI-UNSUPPORTED: "
RESIDUAL = "VMI-RESIDUAL-OP: "


def type_text(attr: Attribute) -> str:
    stream = io.StringIO()
    Printer(stream=stream).print_attribute(attr)
    return stream.getvalue()


def _is_vmi(attr: Attribute) -> bool:
    return isinstance(attr, VMIVRegType | VMIMaskType)


def _has_vmi_value(op: Operation) -> bool:
    """An operand or result of VMI type, or of a function type taking or giving one."""
    types = [v.type for v in (*op.operands, *op.results)]
    inner = [
        t for f in types if isinstance(f, FunctionType) for t in (*f.inputs.data, *f.outputs.data)
    ]
    return any(_is_vmi(t) for t in (*types, *inner))


def post_order(module: ModuleOp) -> list[Operation]:
    return list(module.walk(region_first=True))


# -- the support gate of -pto-validate-vmi-layout-ir ------------------------------------


def _vmi_types_note(op: Operation) -> str:
    words = [f"operand#{i}={type_text(v.type)}" for i, v in enumerate(op.operands)]
    words += [f"result#{i}={type_text(v.type)}" for i, v in enumerate(op.results)]
    kept = [w for w, v in zip(words, (*op.operands, *op.results), strict=True) if _is_vmi(v.type)]
    return "; VMI types: " + " ".join(kept) if kept else ""


def _contract(op: Operation, message: str, reason: str) -> OpError:
    return OpError(op, f"{LAYOUT_CONTRACT}{message}: {reason}{_vmi_types_note(op)}")


def _helper_contract(helper: Operation, name: str, reason: str) -> OpError:
    """On the helper's one user where it has one (the op that asked for the layout)."""
    result = helper.results[0] if len(helper.results) == 1 else None
    uses = list(result.uses) if result is not None else []
    if len(uses) != 1:
        return OpError(
            helper, f"{LAYOUT_CONTRACT}{name} has no registered materialization support: {reason}"
        )
    use = uses[0]
    source = type_text(helper.operands[0].type)
    return OpError(
        use.operation,
        f"{LAYOUT_CONTRACT}{use.operation.name} operand #{use.index} has type {source} but "
        f"requires {type_text(result.type)}; {name} has no registered materialization "  # type: ignore[union-attr]
        f"support: {reason}",
    )


def helper_support(op: Operation) -> OpError | None:
    """An `ensure_layout` or `ensure_mask_layout` the tables cannot materialize."""
    if op.name == "pto.vmi.ensure_layout":
        reason = tables.ensure_layout_support(op.operands[0].type, op.results[0].type)  # type: ignore[arg-type]
    elif op.name == "pto.vmi.ensure_mask_layout":
        reason = tables.ensure_mask_layout_support(op.operands[0].type, op.results[0].type)  # type: ignore[arg-type]
    else:
        return None
    return _helper_contract(op, op.name, reason) if reason else None


def _group_slots(type_: Attribute | None) -> bool:
    layout = layout_of(type_) if type_ is not None else None
    return isinstance(layout, VMILayoutAttr) and layout.is_group_slots


def semantic_support(form: VMIForm) -> OpError | None:
    """A grouped, storing or casting op whose layouts match no table row."""
    name, op = form.name, form.op
    short = name.removeprefix("pto.vmi.")
    reason: str | None = None
    message = f"{name} has no registered layout support"
    if short == "store":
        value = form.type("value")
        if layout_of(value) is None or is_contiguous(layout_of(value)):
            return None
        reason = tables.store_support(value)  # type: ignore[arg-type]
        message = f"{name} has no registered contiguous-memory layout support"
    elif short == "group_load":
        result = form.type("result")
        if layout_of(result) is None:
            return None
        reason = tables.group_load_support(result, form.stride, form.num_groups)  # type: ignore[arg-type]
    elif short == "group_slot_load":
        reason = tables.group_slot_load_support(form.type("result"), form.num_groups)  # type: ignore[arg-type]
    elif short == "group_store":
        value = form.type("value")
        if not _group_slots(value):
            return None
        reason = tables.group_slot_store_support(value, form.num_groups)  # type: ignore[arg-type]
        message = f"{name} has no registered group_slots layout support"
    elif short.startswith("group_reduce_"):
        result = form.type("result")
        if not _group_slots(result):
            return None
        reason = tables.group_reduce_support(
            form.type("source"),  # type: ignore[arg-type]
            form.type("mask"),  # type: ignore[arg-type]
            result,  # type: ignore[arg-type]
            form.num_groups,
        )
        message = f"{name} has no registered group_slots layout support"
    elif short == "group_broadcast":
        source = form.type("source")
        layout = layout_of(source)
        if not _group_slots(source) or layout.slots.data <= 0:  # type: ignore[union-attr]
            return None
        reason = tables.group_broadcast_support(source, form.type("result"), form.num_groups)  # type: ignore[arg-type]
    elif short in ("truncf", "extf"):
        reason = tables.cast_support(form.type("source"), form.type("result"))  # type: ignore[arg-type]
    elif short == "bitcast":
        reason = tables.bitcast_support(form.type("source"), form.type("result"))  # type: ignore[arg-type]
    return _contract(op, message, reason) if reason else None


def check_layout_support(op: Operation, lowered: bool) -> None:
    """The support gate for one op of layout-assigned IR."""
    if not _has_vmi_value(op):
        return
    error = helper_support(op) or semantic_support(vmi_form(op, lowered))
    if error is not None:
        raise error


# -- after -vmi-lower-unified-to-legacy: the legacy ops' own verifiers ------------------


class _LegacyOp:
    """A unified op seen as the legacy op the rewrite builds: its operands and results
    by role, its properties, for the legacy op's verifier rule."""

    def __init__(self, form: VMIForm) -> None:
        self.name = form.name
        self.properties = dict(form.op.properties)
        self.properties.pop("group", None)
        if form.num_groups:
            self.properties["num_groups"] = IntegerAttr(form.num_groups, 64)
        self.attributes = {k: v for k, v in form.op.attributes.items() if k != "group"}
        for role, value in form.roles.items():
            setattr(self, role, value)


def verify_legacy_forms(module: ModuleOp) -> None:
    """The module verifier after the rewrite: each unified op it lowers must satisfy
    the C++ verifier of the legacy op it becomes (`vmi_rules.py`)."""
    for op in post_order(module):
        form = unified_form(op)
        if form is None:
            continue
        rule = VMI_RULES.get(form.name.removeprefix("pto."))
        if rule is None:
            continue
        try:
            rule(_LegacyOp(form))  # type: ignore[arg-type]
        except VerifyException as error:
            raise OpError(op, f"as '{form.name}': {error}") from None
        except AttributeError:
            # The rewrite builds an operand the unified op lacks (a zero passthru, a
            # second result): its verifier is not modelled here.
            continue


# -- -vmi-layout-assignment: the call boundaries it cannot plan -------------------------


def block8_group_size(form: VMIForm) -> int | None:
    """The group size of an unassigned f32 group load of 16 or 32 lanes per group whose
    rows are not back to back: layout assignment plans it block-deinterleaved, loading
    whole 32-byte blocks per row. None for any other load."""
    result = form.type("result")
    if form.name != "pto.vmi.group_load" or layout_of(result) is not None:
        return None
    if form.num_groups <= 0:
        return None
    count, element = result.count.data, result.element_type  # type: ignore[union-attr]
    if count % form.num_groups or not isinstance(element, Float32Type):
        return None
    group_size = count // form.num_groups
    if group_size not in (16, 32) or form.stride == group_size:
        return None
    return group_size


def block8_stride_fits(form: VMIForm) -> bool:
    """The block8 plan's row stride: a constant multiple of 8 f32 elements."""
    return form.stride is not None and form.stride > 0 and form.stride % 8 == 0


def _group_load_plan(form: VMIForm) -> str | None:
    """A block8 group load whose row stride is not whole 32-byte blocks."""
    group_size = block8_group_size(form)
    if group_size is None or block8_stride_fits(form):
        return None
    return (
        f"pto.vmi.group_load group_size {group_size} requires constant positive row_stride "
        "divisible by 8 f32 elements for the block8 stride plan; stable gather fallback is "
        "not implemented"
    )


def check_assignment_boundaries(module: ModuleOp, lowered: bool = False) -> None:
    """What layout assignment refuses while it collects its constraints: a function
    declared without a body whose signature has VMI types, or an indirect call of VMI
    values (it cannot choose layouts for a callee it does not see), a strided f32 group
    load it cannot plan."""
    for op in post_order(module):
        form = vmi_form(op, lowered) if op.name.startswith("pto.vmi.") else None
        if form is not None and form.name == "pto.vmi.group_load":
            reason = _group_load_plan(form)
            if reason:
                raise OpError(op, LAYOUT_CONTRACT + reason)
        if op.name == "func.call_indirect" and _has_vmi_value(op):
            raise OpError(
                op,
                LAYOUT_CONTRACT + "VMI typed call requires a direct internal callee with a body",
            )
        if not isinstance(op, FuncOp) or op.body.blocks:
            continue
        signature = (*op.function_type.inputs.data, *op.function_type.outputs.data)
        if any(_is_vmi(t) for t in signature):
            raise OpError(
                op,
                LAYOUT_CONTRACT + "VMI typed function declaration requires an explicit "
                "external ABI materialization plan",
            )
