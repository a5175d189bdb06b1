"""The VMI IR invariants PTOAS's VMI passes check before they rewrite a module.

PTOAS lowers `pto.vmi.*` in stages: a producer writes surface VMI IR (types without
layouts, masks of `pred` granularity), `-vmi-layout-assignment` gives every VMI type
a `#pto.vmi.layout` (and masks a b8/b16/b32 granularity), `-vmi-to-vpto` rewrites the
result into VPTO micro-ops. Each stage and its validator (`-pto-validate-vmi-ir`,
`-pto-validate-vmi-layout-ir`) refuses a module that is not in the form it expects
(PTOAS `lib/PTO/Transforms/PTOValidateVMIIR.cpp`, `VMILayoutAssignment.cpp`,
`VMIToVPTO.cpp`). These rules do not depend on what the passes compute, only on the
IR they are given, so they hold for our unchanged module:

- producer boundary (`-pto-validate-vmi-ir`): every VMI type, also inside function
  types, shaped element types and attributes, is a surface type; a VMI type sits in no
  attribute but a function's signature; layout helpers (`ensure_layout`, `pack`, ...)
  do not appear yet; a VMI value is used only by `pto.vmi.*` ops and structural ops
  (`builtin.module`, `func.*`, `scf.*`, `cf.*`).
- layout-assigned IR (`-pto-validate-vmi-layout-ir`, and what `-vmi-to-vpto` needs
  where no layout assignment ran before it): every VMI type carries a layout, masks a
  concrete granularity; the same attribute and user rules; `pack`/`unpack` do not
  appear before physicalization.
- `-vmi-layout-assignment`: `channel_split` / `channel_merge` of 2 or 4 channels only
  (it assigns them a `deinterleaved = N` layout), then its post gate: no VMI type in a
  non-signature attribute.
- `-vmi-to-vpto`: no VMI value through `unrealized_conversion_cast`, layout-assigned
  types where no layout assignment ran before it, the channel counts, and no VMI type
  left in an attribute after the rewrite (a residual it cannot convert).

Each check raises `OpError` at the first op (in MLIR's post-order walk) that breaks
it, with PTOAS's diagnostic prefix (`VMI-PASS-INVARIANT: `, `VMI-UNSUPPORTED: `,
`VMI-RESIDUAL-OP: `) and message.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, FunctionType, ModuleOp, NoneAttr
from xdsl.ir import Attribute, Operation
from xla_emit.dialects.pto.vpto_types import VMIMaskType, VMIVRegType
from xla_emit.passes.analysis.vmi_layout_plan import (
    SettledLayouts,
    check_unplaceable_reduces,
)
from xla_emit.passes.analysis.vmi_layout_solver import (
    check_mask_granularities,
    check_preferred_layouts,
)
from xla_emit.passes.analysis.vmi_lowering_checks import (
    check_assignment_boundaries,
    check_layout_support,
    verify_legacy_forms,
)
from xla_emit.passes.analysis.vmi_to_vpto_checks import check_supported_ops
from xla_emit.passes.diagnostics import OpError

PASS_INVARIANT = "VMI-PASS-INVARIANT: "
UNSUPPORTED = "VMI-UNSUPPORTED: "
RESIDUAL = "VMI-RESIDUAL-OP: "

# Ops that only move or convert a VMI value between layouts; they are inserted by
# layout assignment, so a producer may not write them.
HELPER_OPS = frozenset(
    {
        "pto.vmi.ensure_layout",
        "pto.vmi.ensure_mask_layout",
        "pto.vmi.ensure_mask_granularity",
        "pto.vmi.pack",
        "pto.vmi.unpack",
    }
)
LAYOUT_HELPER_OPS = HELPER_OPS - {"pto.vmi.pack", "pto.vmi.unpack"}
CHANNEL_COUNTS = (2, 4)

TypeRule = Callable[[Attribute], bool]


def is_vmi_type(attr: Attribute) -> bool:
    return isinstance(attr, VMIVRegType | VMIMaskType)


def is_surface_type(attr: Attribute) -> bool:
    """A VMI type as a producer writes it: no layout; a mask of `pred` granularity."""
    if isinstance(attr, VMIVRegType):
        return not _has_layout(attr.layout)
    if isinstance(attr, VMIMaskType):
        return attr.granularity.data == "pred" and not _has_layout(attr.layout)
    return True


def is_layout_assigned_type(attr: Attribute) -> bool:
    """A VMI type after layout assignment: a layout; a mask of b8/b16/b32 lanes too."""
    if isinstance(attr, VMIVRegType):
        return _has_layout(attr.layout)
    if isinstance(attr, VMIMaskType):
        return _has_layout(attr.layout) and attr.granularity.data != "pred"
    return True


def _has_layout(layout: Attribute) -> bool:
    return not isinstance(layout, NoneAttr)


def nested_types(attr: Attribute) -> Iterator[Attribute]:
    """A type and the types inside it, as PTOAS's type trees go: a function type's
    inputs and results, a shaped type's element type."""
    yield attr
    if isinstance(attr, FunctionType):
        for inner in (*attr.inputs.data, *attr.outputs.data):
            yield from nested_types(inner)
    element = getattr(attr, "element_type", None)
    if isinstance(element, Attribute) and element is not attr:
        yield from nested_types(element)


def attribute_types(attr: Attribute) -> Iterator[Attribute]:
    """The types an attribute holds: itself if it is a type, a typed attribute's type,
    the elements of arrays and dictionaries."""
    if is_vmi_type(attr) or isinstance(attr, FunctionType) or hasattr(attr, "element_type"):
        yield from nested_types(attr)
    typed = getattr(attr, "type", None)
    if isinstance(typed, Attribute):
        yield from nested_types(typed)
    if isinstance(attr, ArrayAttr):
        for element in attr.data:
            yield from attribute_types(element)
    if isinstance(attr, DictionaryAttr):
        for element in attr.data.values():
            yield from attribute_types(element)


def _signature(op: Operation) -> Sequence[Attribute]:
    function_type = op.properties.get("function_type") if op.name == "func.func" else None
    return [function_type] if function_type is not None else []


def _value_types(op: Operation) -> Iterator[Attribute]:
    yield from (operand.type for operand in op.operands)
    yield from (result.type for result in op.results)
    for region in op.regions:
        for block in region.blocks:
            yield from (argument.type for argument in block.args)


def _non_signature_attributes(op: Operation) -> Iterator[Attribute]:
    for name, attr in (*op.attributes.items(), *op.properties.items()):
        if not (op.name == "func.func" and name == "function_type"):
            yield attr


def _has_vmi_value(op: Operation) -> bool:
    return any(is_vmi_type(attr) for attr in _value_types(op))


def _is_structural(op: Operation) -> bool:
    return op.name == "builtin.module" or op.name.startswith(("func.", "scf.", "cf."))


def _is_semantic(op: Operation) -> bool:
    return op.name.startswith("pto.vmi.") and op.name not in HELPER_OPS


def _check_types(op: Operation, rule: TypeRule, message: str) -> None:
    """Every VMI type of the op's signature, values and attributes obeys `rule`."""
    roots = (*_signature(op), *_value_types(op))
    if any(not rule(inner) for root in roots for inner in nested_types(root)):
        raise OpError(op, PASS_INVARIANT + message)
    _check_no_hidden_types(op, PASS_INVARIANT + "VMI type appears in a non-signature attribute")


def _check_no_hidden_types(op: Operation, message: str) -> None:
    """No VMI type in an attribute but a function's signature: a pass rewrites the
    types of values and signatures only, so one hidden elsewhere would outlive it."""
    for attr in _non_signature_attributes(op):
        if any(is_vmi_type(inner) for inner in attribute_types(attr)):
            raise OpError(op, message)


def _post_order(module: ModuleOp) -> Iterator[Operation]:
    """MLIR's default walk: an op after the ops nested in it."""
    return module.walk(region_first=True)


def check_producer_boundary(module: ModuleOp) -> None:
    """`-pto-validate-vmi-ir`: the module is surface VMI IR, as a producer hands it over."""
    for op in _post_order(module):
        _check_types(
            op,
            is_surface_type,
            "VMI producer boundary requires surface !pto.vmi.vreg or !pto.vmi.mask<Nxpred> type",
        )
        if not _has_vmi_value(op):
            continue
        if op.name in HELPER_OPS:
            raise OpError(
                op,
                PASS_INVARIANT + "VMI helper op appears before layout assignment or VMI-to-VPTO",
            )
        _check_vmi_user(op)


def check_layout_assigned(module: ModuleOp, lowered: bool = False) -> None:
    """`-pto-validate-vmi-layout-ir`: every VMI type has its layout, every VMI value
    is used by VMI ops; pack/unpack wait for physicalization; layout helpers and
    semantic ops pass the layout-support gate (`vmi_lowering_checks.py`, reading ops
    in their legacy form where `lowered`)."""
    for op in _post_order(module):
        _check_types(
            op,
            is_layout_assigned_type,
            "layout-assigned VMI IR requires !pto.vmi.vreg with layout and "
            "!pto.vmi.mask with b8/b16/b32 granularity plus layout",
        )
        if not _has_vmi_value(op):
            continue
        if op.name in LAYOUT_HELPER_OPS or _is_semantic(op):
            check_layout_support(op, lowered)
        if op.name in LAYOUT_HELPER_OPS:
            continue
        if op.name in HELPER_OPS:
            raise OpError(
                op,
                PASS_INVARIANT
                + "VMI pack/unpack helper appears before VMI-to-VPTO physicalization",
            )
        _check_vmi_user(op)


def _check_vmi_user(op: Operation) -> None:
    if not (_is_semantic(op) or _is_structural(op)):
        raise OpError(op, PASS_INVARIANT + "VMI typed value is used by a non-VMI semantic op")


def check_channel_counts(module: ModuleOp) -> None:
    """channel_split / channel_merge of 2 or 4 channels: the `deinterleaved = N`
    layouts and the VPTO interleave instructions exist for those counts only."""
    for op in _post_order(module):
        if op.name == "pto.vmi.channel_split":
            channels, name = len(op.results), "channel_split"
        elif op.name == "pto.vmi.channel_merge":
            channels, name = len(op.operands), "channel_merge"
        else:
            continue
        if channels not in CHANNEL_COUNTS:
            raise OpError(op, f"{UNSUPPORTED}pto.vmi.{name} supports only 2 or 4 channels")


def check_layout_assignment(module: ModuleOp, lowered: bool = False) -> None:
    """`-vmi-layout-assignment`: the channel counts, then its post gate's attribute rule
    (the layouts it assigns make every value's type layout-assigned)."""
    check_channel_counts(module)
    check_assignment_boundaries(module, lowered)
    for op in _post_order(module):
        _check_no_hidden_types(op, PASS_INVARIANT + "VMI type appears in a non-signature attribute")


def check_vmi_to_vpto(module: ModuleOp, layouts_assigned: bool, lowered: bool = False) -> None:
    """`-vmi-to-vpto`: its input carries no VMI value through an unrealized cast and
    has layout-assigned types (unless a layout assignment ran first); the channel
    counts it lowers; no VMI type left in an attribute after the rewrite."""
    for op in _post_order(module):
        if op.name == "builtin.unrealized_conversion_cast" and _has_vmi_value(op):
            raise OpError(
                op,
                RESIDUAL + "unrealized_conversion_cast cannot carry VMI types into "
                "VMI-to-VPTO conversion",
            )
        roots = (*_signature(op), *_value_types(op))
        roots += tuple(t for attr in _non_signature_attributes(op) for t in attribute_types(attr))
        assigned = all(is_layout_assigned_type(t) for root in roots for t in nested_types(root))
        if not (layouts_assigned or assigned):
            raise OpError(op, PASS_INVARIANT + "vmi-to-vpto requires layout-assigned VMI types")
    check_channel_counts(module)
    # The op survey reads the layouts it lowers; after a layout assignment we do not
    # run, those are not the module's: only its rules that read no layout apply, and
    # those that read the layouts assignment certainly gave (`vmi_layout_plan.py`).
    if layouts_assigned:
        settled = SettledLayouts(module, lowered)
        check_supported_ops(module, lowered, True, settled.support_error)
        settled.check_conversions()
    else:
        check_supported_ops(module, lowered)
    for op in _post_order(module):
        _check_no_hidden_types(op, RESIDUAL + "failed to convert all VMI ops/types to VPTO")


# RUN-line pass flags of PTOAS's `pto-test-opt` whose checks are modelled here.
VMI_PASS_FLAGS = (
    "pto-validate-vmi-ir",
    "pto-validate-vmi-layout-ir",
    "vmi-layout-assignment",
    "vmi-to-vpto",
)
# Flags that leave what the checks read as it was: options, and the rewrite of unified
# VMI ops into their legacy forms (same types, VMI ops still).
KEEPING_FLAGS = frozenset({"split-input-file", "verify-diagnostics"})
# Rewrites unified VMI ops into their legacy forms: same types, VMI ops still; the
# checks after it read each op in its legacy form (`vmi_legacy_form.py`).
UNIFIED_TO_LEGACY_FLAG = "vmi-lower-unified-to-legacy"
# Gives every `pred` mask a b8/b16/b32 granularity.
MASK_GRANULARITY_FLAG = "vmi-mask-granularity-assignment"


def check_vmi_passes(module: ModuleOp, flags: Sequence[str]) -> None:
    """Run the checks of the VMI passes a pipeline names, in its order. A pass not
    modelled here may rewrite what a later check reads: the checks stop there."""
    assigned = granular = lowered = False
    for flag in flags:
        if flag == "pto-validate-vmi-ir":
            if not granular:
                check_producer_boundary(module)
        elif flag == "pto-validate-vmi-layout-ir":
            if not assigned:
                check_layout_assigned(module, lowered)
        elif flag == "vmi-layout-assignment":
            check_layout_assignment(module, lowered)
            check_preferred_layouts(module, lowered)
            check_unplaceable_reduces(module, lowered)
            assigned = True
        elif flag == "vmi-to-vpto":
            check_vmi_to_vpto(module, assigned, lowered)
            return
        elif flag == MASK_GRANULARITY_FLAG:
            check_mask_granularities(module, lowered)
            granular = True
        elif flag == UNIFIED_TO_LEGACY_FLAG:
            verify_legacy_forms(module)
            lowered = True
        elif flag not in KEEPING_FLAGS:
            return
