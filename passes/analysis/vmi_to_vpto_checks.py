"""The op survey `-vmi-to-vpto` runs before converting a module (PTOAS
`lib/PTO/Transforms/VMIToVPTO.cpp`, `verifySupportedVMIToVPTOOps`), and the
conversion's own refusal of a unified op left for it.

Per op, the physical form its VPTO lowering needs, read from where the layouts put
each logical lane (`dialects/pto/vmi_lanes.py`): contiguous layouts, full physical
chunks (registers without padding lanes), one register where the instruction works on
one, element and mask widths, strides the instructions can encode, lane-address plans
of the memory operands; else `VMI-UNSUPPORTED:` with PTOAS's message and reason. Ops
are read through their legacy form (`vmi_legacy_form.py`) once the pipeline ran
`-vmi-lower-unified-to-legacy`; after a layout assignment we do not run, only the
rules that read no layout apply.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    Signedness,
    StridedLayoutAttr,
    StringAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xla_emit.dialects.pto.types import PtrType
from xla_emit.dialects.pto.vmi_lanes import (
    chunks_in_part,
    flat_chunk_index,
    is_padding_lane,
    lanes_per_chunk,
    logical_to_physical,
    padding_free,
    physical_to_logical,
    split_factor,
)
from xla_emit.dialects.pto.vmi_rules import (
    is_contiguous,
    is_group_slots,
    lanes_per_register,
    layout_of,
    physical_arity,
    storage_bits,
    string_prop,
)
from xla_emit.dialects.pto.vpto_rules import VCVT_PAIR_MESSAGE, vcvt_pair_supported
from xla_emit.dialects.pto.vpto_types import VMILayoutAttr, VMIVRegType
from xla_emit.passes.analysis import vmi_layout_support as tables
from xla_emit.passes.analysis.vmi_layout_support import constant_index
from xla_emit.passes.analysis.vmi_legacy_form import (
    VMIForm,
    left_unified,
    vmi_form,
)
from xla_emit.passes.analysis.vmi_lowering_checks import (
    RESIDUAL,
    UNSUPPORTED,
    post_order,
    type_text,
)
from xla_emit.passes.diagnostics import OpError

Rule = Callable[[VMIForm], str | None]


def _layouts(*types: Attribute | None) -> list[VMILayoutAttr | None]:
    return [layout_of(t) if t is not None else None for t in types]


def _contiguous(*types: Attribute | None) -> bool:
    return all(is_contiguous(layout) for layout in _layouts(*types))


def _assigned(*types: Attribute | None) -> bool:
    return all(layout is not None for layout in _layouts(*types))


def _full(type_: Attribute, data: bool = True) -> str | None:
    return padding_free(type_, data_chunks=data)


def _contiguous_layouts(names: str, *types: Attribute | None) -> str | None:
    """Why the operands `names` are not all laid out contiguously: a layout missing on one,
    or one that is not contiguous."""
    if not _assigned(*types):
        return f"requires assigned {names} layouts"
    if not _contiguous(*types):
        return f"requires contiguous {names} layouts"
    return None


def _full_chunks(
    rows: Sequence[tuple[str, Attribute | None, bool]], prefix: str = ""
) -> str | None:
    """Why one of the operands of `rows` (its label, type, whether data or mask) has a
    padding lane in a physical chunk."""
    for label, type_, data in rows:
        full = _full(type_, data)  # type: ignore[arg-type]
        if full:
            return f"{prefix}{label} full physical chunks; {full}"
    return None


def _equal_arities(types: Sequence[Attribute | None], names: str) -> str | None:
    """Why the operands `names` do not split into the same number of registers."""
    arities = [physical_arity(t) for t in types]  # type: ignore[arg-type]
    if None in arities:
        return "requires computable physical arity"
    if len(set(arities)) != 1:
        return f"requires {names} to have the same physical arity"
    return None


def _memory_plan_of(form: VMIForm, role: str) -> str | None:
    """Why the lane addresses of the memory operand `role` cannot be planned."""
    return memory_plan(form.roles.get(role), role)


def _contiguous_full_source(
    source: Attribute | None, mask: Attribute | None, result: Attribute | None, why: str
) -> str | None:
    """Why a source, mask and result are not contiguous with a source free of padding
    lanes, which `why` explains the need of."""
    layouts = _contiguous_layouts("source, mask, and result", source, mask, result)
    if layouts:
        return layouts
    full = _full(source)  # type: ignore[arg-type]
    if full:
        return f"requires full source physical chunks so {why}; {full}"
    return None


def _reduce(requires_reassoc: bool) -> Rule:
    def rule(form: VMIForm) -> str | None:
        if requires_reassoc and "reassoc" not in form.op.attributes | form.op.properties:
            return "requires reassoc attr for pair-wise floating-point vcadd"
        source, mask, result = form.type("source"), form.type("mask"), form.type("result")
        why = "padding lanes do not participate in the reduction"
        reason = _contiguous_full_source(source, mask, result, why)
        if reason:
            return reason
        arities = [physical_arity(t) for t in (source, mask, result)]  # type: ignore[arg-type]
        if None in arities:
            return "requires computable physical arity"
        if arities[0] < 1 or arities[1] != arities[0]:  # type: ignore[operator]
            return "requires source and mask physical arity to match and be non-empty"
        if arities[2] != 1:
            return "requires one result physical chunk"
        return None

    return rule


def _one_chunk(types: Sequence[Attribute], what: str, why: str) -> str | None:
    arities = [physical_arity(t) for t in types]
    if None in arities:
        return f"requires computable {what} physical arity"
    if any(arity != 1 for arity in arities):
        return f"requires a single physical chunk; {why}"
    return None


def _active_prefix_index(form: VMIForm) -> str | None:
    mask, result = form.type("mask"), form.type("result")
    layouts = _contiguous_layouts("mask and result", mask, result)
    if layouts:
        return layouts
    why = "padding mask lanes cannot affect the observable prefix; "
    full = _full(result)  # type: ignore[arg-type]
    if full:
        return f"requires full result physical chunks so {why}{full}"
    full = _full(mask, data=False)  # type: ignore[arg-type]
    if full:
        return f"requires full mask physical chunks so {why}{full}"
    return _one_chunk(
        [mask, result], "mask and result", "multi-chunk prefix needs cross-chunk carry"
    )  # type: ignore[list-item]


def _compress(form: VMIForm) -> str | None:
    source, mask, result = form.type("source"), form.type("mask"), form.type("result")
    why = "padding mask lanes cannot be squeezed into the result"
    reason = _contiguous_full_source(source, mask, result, why)
    if reason:
        return reason
    return _one_chunk(
        [source, mask, result],  # type: ignore[list-item]
        "source, mask, and result",
        "multi-chunk compress needs cross-chunk compaction",
    )


def _compress_store(form: VMIForm) -> str | None:
    value, mask = form.type("value"), form.type("mask")
    layouts = _contiguous_layouts("value and mask", value, mask)
    if layouts:
        return layouts
    if not isinstance(form.type("destination"), PtrType):
        return "requires !pto.ptr destination because pto.vstur is pointer-only"
    full = _full(value)  # type: ignore[arg-type]
    if full:
        return (
            "requires full physical chunks so padding mask lanes cannot be squeezed into "
            f"memory; {full}"
        )
    return _one_chunk(
        [value, mask],  # type: ignore[list-item]
        "value and mask",
        "multi-chunk compress_store needs cross-chunk compaction and SQZN state planning",
    )


def _index_element(type_: Attribute) -> IntegerType | None:
    element = type_.element_type  # type: ignore[attr-defined]
    if isinstance(element, IntegerType) and element.signedness.data != Signedness.SIGNED:
        return element
    return None


def _gather(form: VMIForm) -> str | None:
    result, indices, mask = form.type("result"), form.type("indices"), form.type("mask")
    # The unified gather's passthru is a zero constant of the result's type.
    passthru = form.type("passthru") or result
    layouts = _contiguous_layouts(
        "result, indices, passthru, and mask", result, indices, passthru, mask
    )
    if layouts:
        return layouts
    if not isinstance(form.type("source"), PtrType):
        return "requires !pto.ptr source because pto.vgather2_bc is pointer-only"
    bits = storage_bits(result.element_type)  # type: ignore[union-attr]
    index = _index_element(indices)  # type: ignore[arg-type]
    if index is None:
        return "requires signless or unsigned integer indices"
    granularity = mask.granularity.data  # type: ignore[union-attr]
    u16 = (
        bits == 16
        and index.signedness.data == Signedness.UNSIGNED
        and index.width.data == 16
        and granularity == "b16"
    )
    b32 = bits == 32 and index.width.data == 32 and granularity == "b32"
    if not (u16 or b32):
        return (
            "requires either 32-bit results with 32-bit indices and b32 mask, or ui16 results "
            "with ui16 indices and b16 mask"
        )
    arities = _equal_arities(
        (result, indices, passthru, mask), "result, indices, passthru, and mask"
    )
    if arities:
        return arities
    if u16:
        one = physical_arity(result) == 1  # type: ignore[arg-type]
        return None if one else "ui16 gather currently supports one physical chunk"
    return _full_chunks(
        (
            ("result requires", result, True),
            ("indices require", indices, True),
            ("passthru requires", passthru, True),
            ("mask requires", mask, False),
        )
    )


def _scatter(form: VMIForm) -> str | None:
    value, indices, mask = form.type("value"), form.type("indices"), form.type("mask")
    layouts = _contiguous_layouts("value, indices, and mask", value, indices, mask)
    if layouts:
        return layouts
    if not isinstance(form.type("destination"), PtrType):
        return "requires !pto.ptr destination because pto.vscatter is pointer-only"
    bits = storage_bits(value.element_type)  # type: ignore[union-attr]
    index = _index_element(indices)  # type: ignore[arg-type]
    if index is None:
        return "requires signless or unsigned integer indices"
    width, granularity = index.width.data, mask.granularity.data  # type: ignore[union-attr]
    if (bits, width, granularity) not in ((8, 16, "b16"), (16, 16, "b16"), (32, 32, "b32")):
        return (
            "requires either 32-bit values with 32-bit indices and b32 mask, 16-bit values "
            "with 16-bit indices and b16 mask, or 8-bit values with 16-bit indices and b16 mask"
        )
    arities = _equal_arities((value, indices, mask), "value, indices, and mask")
    if arities:
        return arities
    return _full_chunks(
        (
            ("value requires", value, True),
            ("indices require", indices, True),
            ("mask requires", mask, False),
        )
    )


# vselr's rows: (element bits, logical lane counts), contiguous, one register each.
VSELR_ROWS = ((8, (64, 128, 256)), (16, (64, 128)), (32, (64,)))
VSELR_ROWS_MESSAGE = (
    "vselr requires contiguous layouts and supports N=64, 128, or 256 for 8-bit, N=64 or "
    "128 for 16-bit, and N=64 for 32-bit elements"
)


def _vselr_row_fits(source: Attribute, index: Attribute, result: Attribute) -> bool:
    """Whether the element widths and lane counts of a vselr are those of a row."""
    bits = storage_bits(source.element_type)  # type: ignore[attr-defined]
    return (
        source.element_type == result.element_type  # type: ignore[attr-defined]
        and index.count.data == result.count.data  # type: ignore[attr-defined]
        and bits == storage_bits(index.element_type)  # type: ignore[attr-defined]
        and any(
            bits == width and all(t.count.data in counts for t in (source, index, result))  # type: ignore[attr-defined]
            for width, counts in VSELR_ROWS
        )
    )


def _vselr(form: VMIForm) -> str | None:
    source, index, result = (v.type for v in (*form.op.operands, *form.op.results))
    if not _assigned(source, index, result):
        return "vselr requires assigned source/index/result layouts"
    fits = (
        _contiguous(source, index, result)
        and _vselr_row_fits(source, index, result)
        and all(physical_arity(t) == 1 for t in (source, index, result))
    )
    return None if fits else VSELR_ROWS_MESSAGE


def _vselr_shape(op: Operation) -> str | None:
    """vselr after a layout assignment: every row is contiguous and one register per
    operand, so only element widths and lane counts decide, as in a contiguous layout."""
    source, index, result = (v.type for v in (*op.operands, *op.results))
    one_register = all(
        t.count.data <= lanes_per_register(t.element_type)  # type: ignore[attr-defined]
        for t in (source, index, result)
    )
    if _vselr_row_fits(source, index, result) and one_register:
        return None
    return f"{SUPPORT_RULES['vselr'][1]} ({VSELR_ROWS_MESSAGE})"


def _vmull(form: VMIForm) -> str | None:
    a, b, mask = (v.type for v in form.op.operands)
    low, high = (v.type for v in form.op.results)
    element = a.element_type  # type: ignore[attr-defined]
    if not (
        isinstance(element, IntegerType)
        and element.width.data == 32
        and element.signedness.data != Signedness.SIGNED
    ):
        return "requires element type to be exactly i32 or ui32"
    if not a == b == low == high:
        return "requires identical a, b, low, and high VMI vreg types"
    if a.count.data not in (64, 128, 256):  # type: ignore[attr-defined]
        return "requires logical lane count 64, 128, or 256"
    layout = layout_of(a)
    if layout is None:
        return "requires an assigned data layout"
    kind, factor = layout.kind.data, layout.factor.data
    dense = kind == "contiguous" or (kind == "deinterleaved" and factor in (2, 4))
    if layout.lane_stride.data != 1 or not dense:
        return "requires contiguous or deinterleaved factor 2/4 layout with lane_stride=1"
    if layout_of(mask) != layout:
        return "requires the mask and all four data values to share one layout"
    if mask.granularity.data != "b32":  # type: ignore[attr-defined]
        return "requires b32 mask granularity"
    return None


def _channel_arity(types: Sequence[Attribute]) -> int | None:
    arities = [physical_arity(t) for t in types]
    return None if None in arities else sum(arities)  # type: ignore[arg-type]


def _channel_layout(layout: VMILayoutAttr, channels: int) -> bool:
    """Whether `channels` registers split from or merge into `layout` lane by lane:
    it is contiguous, or deinterleaved by the channel count with unit lane stride."""
    deinterleaved = layout.kind.data == "deinterleaved" and layout.factor.data == channels
    return is_contiguous(layout) or (deinterleaved and layout.lane_stride.data == 1)


def _channel_split(form: VMIForm) -> str | None:
    op = form.op
    source, results = op.operands[0].type, [r.type for r in op.results]
    channels = len(results)
    layout = layout_of(source)
    if layout is None:
        return "requires assigned source layout"
    if not _channel_layout(layout, channels):
        return "requires source layout to be contiguous or matching deinterleaved channel layout"
    if not all(is_contiguous(layout_of(t)) for t in results):
        return "requires every result layout to be contiguous"
    if physical_arity(source) != _channel_arity(results):
        return "requires source and result to have the same physical arity"
    return None


def _channel_merge(form: VMIForm) -> str | None:
    op = form.op
    inputs, result = [v.type for v in op.operands], op.results[0].type
    channels = len(inputs)
    if not all(is_contiguous(layout_of(t)) for t in inputs):
        return "requires every input layout to be contiguous"
    layout = layout_of(result)
    if layout is None:
        return "requires assigned result layout"
    if not _channel_layout(layout, channels):
        return "requires result layout to be contiguous or matching deinterleaved channel layout"
    if physical_arity(result) != _channel_arity(inputs):
        return "requires source and result to have the same physical arity"
    return None


def _identity_layout(memref: MemRefType) -> bool:
    """A memref whose elements lie at their row-major offsets from its base."""
    layout = memref.layout
    if isinstance(layout, NoneAttr):
        return True
    if not isinstance(layout, StridedLayoutAttr):
        return False
    shape = [int(d) for d in memref.get_shape()]
    expected, step = [], 1
    for extent in reversed(shape):
        expected.insert(0, step)
        step *= max(extent, 0)
    return layout.get_offset() == 0 and list(layout.get_strides()) == expected


def memory_plan(value: SSAValue | None, role: str) -> str | None:
    """Whether `-vmi-to-vpto` can plan the lane addresses of a memory operand (PTOAS's
    `requireIdentityMemRefLayout`): a pointer, or a memref with the identity layout."""
    type_ = value.type if value is not None else None
    if not isinstance(type_, MemRefType) or _identity_layout(type_):
        return None
    reason = (
        f"{role} memref layout is non-identity; current VMI memory access plan supports only "
        "contiguous identity lane-to-address maps"
    )
    owner = value.owner  # type: ignore[union-attr]
    if isinstance(owner, Operation) and owner.name == "memref.subview":
        reason += "; memref.subview requires normalized base/offset/stride lane-to-address planning"
    return reason


def safe_full_read(form: VMIForm, result: VMIVRegType) -> str | None:
    """None when reading whole registers from the source's offset stays inside the
    source (PTOAS's safe full-read proof), else why it is not proven."""
    offset = constant_index(form.roles.get("offset"))
    if offset is None:
        return "requires constant index offset"
    source = form.type("source")
    shape = source.get_shape() if isinstance(source, MemRefType) else None
    if shape is None or any(d < 0 for d in shape):
        return "requires statically shaped memref source"
    elements = 1
    for extent in shape:
        elements *= extent
    if offset < 0:
        return "requires non-negative offset"
    arity = physical_arity(result)
    if arity is None:
        return "requires computable physical read footprint"
    end = offset + arity * lanes_per_register(result.element_type)
    if end > elements:
        return (
            f"full physical read footprint [{offset}, {end}) exceeds static memref element "
            f"count {elements}"
        )
    return None


def _slot_load_stride(slots: int, element: Attribute, stride: int | None) -> str | None:
    """A slot load reads eight slots from consecutive elements, or one slot per group
    with one 32-byte-aligned scalar load each."""
    if slots == 8:
        if stride != 1:
            return "slots=8 group_slot_load requires constant unit source_group_stride"
        return None
    bits = storage_bits(element)
    if bits == 0 or 256 % bits:
        return "slots=1 group_slot_load requires supported element width"
    aligned = 256 // bits
    if stride is None or stride <= 0 or stride % aligned:
        return (
            "slots=1 group_slot_load currently lowers as one lane-0 vsldb per group and "
            f"requires constant positive source_group_stride divisible by {aligned} elements "
            "for 32B load alignment; packed or unaligned scalar load lowering is not "
            "implemented"
        )
    return None


def _pointer_source(form: VMIForm, op_name: str) -> str | None:
    """Why the source of the group load `op_name` is not a pointer whose lane addresses
    can be planned."""
    plan = _memory_plan_of(form, "source")
    if plan:
        return plan
    if not isinstance(form.type("source"), PtrType):
        return f"{op_name} requires !pto.ptr source"
    return None


def _group_slot_load(form: VMIForm) -> str | None:
    result = form.type("result")
    reason = tables.group_slot_load_support(result, form.num_groups)  # type: ignore[arg-type]
    if reason:
        return reason
    reason = _pointer_source(form, "group_slot_load")
    if reason:
        return reason
    slots = layout_of(result).slots.data  # type: ignore[union-attr]
    return _slot_load_stride(slots, result.element_type, form.stride)  # type: ignore[union-attr]


def _group_slot_load_any_layout(op: Operation, form: VMIForm) -> str | None:
    """After a layout assignment we do not run: the result is one of the slot layouts
    (slots 8 or 1); a stride neither lowering reads is refused whichever it chose."""
    element = op.results[0].type.element_type  # type: ignore[attr-defined]
    if not isinstance(form.type("source"), PtrType):
        return None
    eight = _slot_load_stride(8, element, form.stride)
    one = _slot_load_stride(1, element, form.stride)
    return f"{eight}; {one}" if eight and one else None


def _group_broadcast_load(form: VMIForm) -> str | None:
    reason = tables.group_broadcast_load_support(
        form.type("result"),  # type: ignore[arg-type]
        form.stride,
        form.num_groups,
    )
    if reason:
        return reason
    return _pointer_source(form, "group_broadcast_load")


# vsstb's block stride is a 16-bit field.
VSSTB_MAX_BLOCK_STRIDE = 0xFFFF


def _group_store(form: VMIForm) -> str | None:
    value = form.type("value")
    layout = layout_of(value)
    plan = _memory_plan_of(form, "destination")
    if isinstance(layout, VMILayoutAttr) and layout.is_group_slots:
        reason = tables.group_slot_store_support(value, form.num_groups)  # type: ignore[arg-type]
        if reason or plan:
            return reason or plan
        if layout.slots.data == 1:
            return None  # a point store per group; its store token is not modelled
        if form.stride != 1:
            return "slots=8 group_store currently requires constant unit row_stride"
        return None
    block = tables.group_store_row(value, form.stride, form.num_groups)  # type: ignore[arg-type]
    if isinstance(block, str):
        return block
    store = _store(form)
    if store or block != tables.gb(1):
        return store
    if not isinstance(form.type("destination"), PtrType):
        return "one-block group_store requires !pto.ptr destination"
    # One group per 32-byte block: one vsstb, striding whole blocks.
    group_size = value.count.data // form.num_groups  # type: ignore[union-attr]
    stride = form.stride
    if stride is None or stride <= 0 or stride % group_size:
        return "one-block group_store requires a constant positive row_stride aligned to 32B blocks"
    if stride // group_size > VSSTB_MAX_BLOCK_STRIDE:
        return "one-block group_store block_stride exceeds the 16-bit vsstb control field"
    return None


def _materialization_parts(type_: Attribute) -> int | str:
    """Registers of the value once made contiguous (PTOAS's
    `getContiguousMaterializationPartCount`), or why it cannot be."""
    arity = physical_arity(type_)
    layout = layout_of(type_)
    if arity is None or layout is None:
        return "requires computable physical arity and assigned layout"
    if is_contiguous(layout) and layout.lane_stride.data == 1:
        return arity
    factor = layout.factor.data
    split = layout.kind.data in ("deinterleaved", "block_deinterleaved")
    if not split or factor not in (2, 4):
        return "requires contiguous, deinterleaved=2/4, or block_deinterleaved=2/4 layout"
    first = chunks_in_part(type_, 0)
    if first == 0:
        return "requires at least one physical chunk per part"
    if factor == 2 and chunks_in_part(type_, 1) != first:
        return "requires every deinterleaved part to have the same physical chunk count"
    contiguous = VMILayoutAttr(
        StringAttr("contiguous"), IntAttr(1), IntAttr(1), IntAttr(0), IntAttr(1)
    )
    # The same lanes and element (or granularity), laid out contiguously.
    return physical_arity(type(type_)(*type_.parameters[:-1], contiguous))  # type: ignore[attr-defined, call-arg, return-value]


def _store(form: VMIForm) -> str | None:
    value = form.type("value")
    layout = layout_of(value)
    plan = _memory_plan_of(form, "destination")
    if plan:
        return plan
    if layout is None:
        return None
    arity = physical_arity(value)  # type: ignore[arg-type]
    if arity is None or arity < 1:
        return "requires computable non-empty physical vreg parts"
    reason = tables.store_support(value)  # type: ignore[arg-type]
    if reason:
        return reason
    if is_contiguous(layout) and layout.lane_stride.data != 1:
        return None  # a lane-stride store distribution; not modelled further
    full = _full(value)  # type: ignore[arg-type]
    if full is None or (is_contiguous(layout) and layout.lane_stride.data == 1):
        return None
    parts = _materialization_parts(value)  # type: ignore[arg-type]
    if isinstance(parts, int):
        return None
    return (
        "partial/tail store requires contiguous layout or deinterleaved layout that can "
        f"materialize to contiguous; value {full}, materialization {parts}"
    )


def _masked_store(form: VMIForm) -> str | None:
    value, mask = form.type("value"), form.type("mask")
    plan = _memory_plan_of(form, "destination")
    if plan:
        return plan
    value_full, mask_full = _full(value), _full(mask, data=False)  # type: ignore[arg-type]
    if value_full is None and mask_full is None:
        return None
    if not _assigned(value, mask):
        return "requires assigned value and mask layouts"
    if physical_arity(value) != physical_arity(mask):  # type: ignore[arg-type]
        return "requires matching value/mask physical arity"
    layout = layout_of(value)
    if layout is not None and layout.lane_stride.data != 1:
        return None  # the lane-stride masked-store table; not modelled further
    value_parts = _materialization_parts(value)  # type: ignore[arg-type]
    if isinstance(value_parts, str):
        return (
            f"value cannot materialize to contiguous; value {value_full or ''}, "
            f"materialization {value_parts}"
        )
    mask_parts = _materialization_parts(mask)  # type: ignore[arg-type]
    if isinstance(mask_parts, str):
        return (
            f"mask cannot materialize to contiguous; mask {mask_full or ''}, "
            f"materialization {mask_parts}"
        )
    if value_parts != mask_parts:
        return "requires value/mask contiguous materialization arity to match"
    return None


def _static_all_active(mask: SSAValue, lanes: int) -> bool | None:
    """Whether a mask is all active by construction: a `create_mask` of a constant
    lane count says; a mask made otherwise is not, unless it is a constant or moved
    between layouts (not modelled: None)."""
    owner = mask.owner
    if not isinstance(owner, Operation):
        return False
    if owner.name != "pto.vmi.create_mask":
        return None if owner.name.startswith("pto.vmi.") else False
    active = constant_index(owner.operands[0])
    return active is not None and active >= lanes


def _expand_load(form: VMIForm) -> str | None:
    result, passthru, mask = form.type("result"), form.type("passthru"), form.type("mask")
    reason = _memory_plan_of(form, "source") or _contiguous_layouts(
        "result, passthru, and mask", result, passthru, mask
    )
    if reason:
        return reason
    all_active = _static_all_active(form.roles["mask"], result.count.data)  # type: ignore[union-attr]
    if all_active is None:
        return None  # a constant mask or one moved between layouts: not modelled
    if all_active:
        full = _full(result)  # type: ignore[arg-type]
        proof = safe_full_read(form, result) if full else None  # type: ignore[arg-type]
        if full is None or proof is None:
            return None
        all_active_path = (
            f"requires full physical chunks or statically safe full-read footprint; value "
            f"{full}, safe-read proof {proof}"
        )
    else:
        all_active_path = "create_mask active_lanes is smaller than the logical lane count"
    if not isinstance(form.type("source"), PtrType):
        return (
            "runtime-mask path requires !pto.ptr source because pto.vgather2_bc is "
            f"pointer-only; all-active path {all_active_path}"
        )
    if storage_bits(result.element_type) != 32:  # type: ignore[union-attr]
        return (
            "runtime-mask path currently requires 32-bit result element type so prefix "
            "indices and gather result lane counts match"
        )
    if mask.granularity.data != "b32":  # type: ignore[union-attr]
        return "runtime-mask path requires b32 mask granularity"
    arities = [physical_arity(t) for t in (result, passthru, mask)]  # type: ignore[arg-type]
    if None in arities:
        return "runtime-mask path requires computable physical arity"
    if arities != [1, 1, 1]:
        return (
            "runtime-mask path currently supports only one physical chunk because prefix "
            "indices must not reset across chunks"
        )
    return _full_chunks(
        (
            ("result requires", result, True),
            ("passthru requires", passthru, True),
            ("mask requires", mask, False),
        ),
        prefix="runtime-mask ",
    )


# (element bits, layout) a dense load reads into.
DENSE_LOAD_ROWS = (
    ((8, 16, 32), tables.C),
    ((8, 16, 32), tables.ls(2)),
    ((8,), tables.ls(4)),
    ((8, 16, 32), tables.d(2)),
    ((8, 16, 32), tables.d(4)),
)


def _load(form: VMIForm) -> str | None:
    plan = _memory_plan_of(form, "source")
    if plan:
        return plan
    result = form.type("result")
    layout = layout_of(result)
    if layout is None:
        return "requires assigned result layout"
    bits = storage_bits(result.element_type)  # type: ignore[union-attr]
    if not any(
        bits in widths and tables.layout_matches(p, layout) for widths, p in DENSE_LOAD_ROWS
    ):
        return "result layout does not match a supported dense load table row"
    return None


def _masked_load(form: VMIForm) -> str | None:
    result, passthru, mask = form.type("result"), form.type("passthru"), form.type("mask")
    # A tail read past full registers needs a safe-read proof: not modelled.
    return _memory_plan_of(form, "source") or _contiguous_layouts(
        "result, passthru, and mask", result, passthru, mask
    )


def _shuffle_lanes(op: Operation) -> tuple[Attribute, Attribute, list[int]]:
    indices = op.properties.get("indices") or op.attributes.get("indices")
    values = [int(v) for v in indices.get_values()] if indices is not None else []  # type: ignore[attr-defined]
    return op.operands[0].type, op.results[0].type, values


def _result_lanes(
    result: Attribute, indices: list[int], full: bool
) -> list[list[tuple[int, int]]] | str:
    """Each result register's lanes as (lane, logical source lane), or a reason."""
    per_chunk = lanes_per_chunk(result)
    registers = []
    for part in range(split_factor(result)):
        for chunk in range(chunks_in_part(result, part, False)):
            lanes = []
            for lane in range(per_chunk):
                if is_padding_lane(result, part, chunk, lane):
                    if full:
                        return "requires full physical result chunks"
                    continue
                logical = physical_to_logical(result, part, chunk, lane)
                if logical is None or logical >= len(indices):
                    return "failed to map result lane"
                lanes.append((lane, indices[logical]))
            registers.append(lanes)
    return registers


def _shuffle_forwarding(source: Attribute, result: Attribute, indices: list[int]) -> str | None:
    """Each result register is one source register, lanes in place."""
    if not indices:
        return "requires non-empty indices"
    registers = _result_lanes(result, indices, full=False)
    if isinstance(registers, str):
        return registers
    for lanes in registers:
        where = set()
        for lane, logical in lanes:
            physical = logical_to_physical(source, logical)
            if physical is None:
                return "failed to map source lane"
            if physical[2] != lane:
                return "requires same-lane physical chunks"
            where.add(physical[:2])
        if not where:
            return "requires at least one logical lane per result chunk"
        if len(where) > 1:
            return "requires one source chunk per result chunk"
        if flat_chunk_index(source, *where.pop()) is None:
            return "source part range is out of bounds"
    return None


def _shuffle_splat(source: Attribute, indices: list[int]) -> str | None:
    if not indices:
        return "requires non-empty indices"
    if any(index != 0 for index in indices):
        return "requires every result lane to select source lane 0"
    physical = logical_to_physical(source, 0)
    if physical is None:
        return "failed to map source lane 0"
    if flat_chunk_index(source, *physical[:2]) is None:
        return "source lane 0 part range is out of bounds"
    return None


def _shuffle_vselr(source: Attribute, result: Attribute, indices: list[int]) -> str | None:
    """Each full result register selects from one source register with indices that
    `vci` makes: ascending or descending from a base lane."""
    if not indices:
        return "requires non-empty indices"
    registers = _result_lanes(result, indices, full=True)
    if isinstance(registers, str):
        return registers
    for lanes in registers:
        first: tuple[int, int, int] | None = None
        order: bool | None = None
        for lane, logical in lanes:
            physical = logical_to_physical(source, logical)
            if physical is None:
                return "failed to map source lane"
            if first is None:
                first = physical
                continue
            if physical[:2] != first[:2]:
                return "requires one source chunk per result chunk"
            ascending, descending = physical[2] == first[2] + lane, physical[2] == first[2] - lane
            if not (ascending or descending):
                return "requires ASC or DESC affine source lane indices"
            lane_descending = descending and not ascending
            if order is None:
                order = lane_descending
            elif order != lane_descending:
                return "requires one index order per result chunk"
        if first is not None and flat_chunk_index(source, *first[:2]) is None:
            return "source part range is out of bounds"
    return None


def _shuffle(form: VMIForm) -> str | None:
    source, result, indices = _shuffle_lanes(form.op)
    if layout_of(result) is None or layout_of(source) is None:
        return None
    forwarding = _shuffle_forwarding(source, result, indices)
    if forwarding is None:
        return None
    splat = _shuffle_splat(source, indices)
    if splat is None:
        return None
    vselr = _shuffle_vselr(source, result, indices)
    if vselr is None:
        return None
    return f"forwarding: {forwarding}; lane0 splat: {splat}; vselr: {vselr}"


def _cast(form: VMIForm) -> str | None:
    return tables.cast_support(form.type("source"), form.type("result"))  # type: ignore[arg-type]


def _bitcast(form: VMIForm) -> str | None:
    return tables.bitcast_support(form.type("source"), form.type("result"))  # type: ignore[arg-type]


def _group_reduce(form: VMIForm) -> str | None:
    return tables.group_reduce_support(
        form.type("source"),  # type: ignore[arg-type]
        form.type("mask"),  # type: ignore[arg-type]
        form.type("result"),  # type: ignore[arg-type]
        form.num_groups,
    )


# (rule, the message before its reason) per legacy op.
SUPPORT_RULES: dict[str, tuple[Rule, str]] = {
    "reduce_addi": (
        _reduce(False),
        "pto.vmi.reduce_addi lowers through pto.vcadd only for contiguous full 32-bit "
        "integer source chunks with matching mask chunks and one init/result chunk",
    ),
    "reduce_addf": (
        _reduce(True),
        "pto.vmi.reduce_addf lowers through pto.vcadd only with reassoc, f32 contiguous full "
        "source chunks, matching mask chunks, and one init/result chunk",
    ),
    "reduce_maxf": (
        _reduce(False),
        "pto.vmi.reduce_maxf lowers through pto.vcmax only for f16/f32 contiguous full source "
        "chunks with matching mask chunks and one init/result chunk",
    ),
    "reduce_minf": (
        _reduce(False),
        "pto.vmi.reduce_minf lowers through pto.vcmin only for f16/f32 contiguous full source "
        "chunks with matching mask chunks and one init/result chunk",
    ),
    "reduce_maxi": (
        _reduce(False),
        "pto.vmi.reduce_maxi lowers through pto.vcmax only for contiguous full integer source "
        "chunks with matching mask chunks and one init/result chunk",
    ),
    "reduce_mini": (
        _reduce(False),
        "pto.vmi.reduce_mini lowers through pto.vcmin only for contiguous full integer source "
        "chunks with matching mask chunks and one init/result chunk",
    ),
    "group_reduce_addf": (
        _group_reduce,
        "pto.vmi.group_reduce_addf lowers through pto.vcgadd for 32B blocks or through "
        "pto.vcadd for contiguous full source/mask chunks, #pto.vmi.layout<num_groups = G, "
        "slots = K> result chunks, and num_groups deriving a group size aligned to physical "
        "chunks",
    ),
    "group_slot_load": (
        _group_slot_load,
        "pto.vmi.group_slot_load requires explicit group_slots result layout matching "
        "num_groups, a supported UB pointer source, and either slots=8 with constant unit "
        "source_group_stride or slots=1 row-local lowering",
    ),
    "group_broadcast_load": (
        _group_broadcast_load,
        "pto.vmi.group_broadcast_load requires either the BRC full-group chunk form, the E2B "
        "packet form for b16/b32 direct or split group size, or the generic "
        "group-slot-load then group-broadcast fallback with supported UB pointer source and "
        "source_group_stride",
    ),
    "group_store": (
        _group_store,
        "pto.vmi.group_store requires a supported UB destination and a table-supported value "
        "layout lowering through one-block vsstb, full-chunk vsts, or deinterleaved vstsx2",
    ),
    "load": (_load, "pto.vmi.load direct lowering requires a supported memory source"),
    "masked_load": (
        _masked_load,
        "pto.vmi.masked_load direct lowering requires a supported memory source, contiguous "
        "result/passthru/mask layouts, and either full physical chunks or a statically safe "
        "full-read footprint",
    ),
    "store": (
        _store,
        "pto.vmi.store requires an 8/16/32-bit predicate-maskable element type and either "
        "full physical chunks or contiguous tail-store layout, with UB-backed destination",
    ),
    "masked_store": (
        _masked_store,
        "pto.vmi.masked_store requires either full physical chunks or contiguous tail-store "
        "value/mask layout, with UB-backed destination",
    ),
    "expand_load": (
        _expand_load,
        "pto.vmi.expand_load direct lowering is currently supported for either a static "
        "all-active mask lowered as pto.vlds, or a one-full-chunk 32-bit UB runtime mask "
        "lowered through pto.vusqz + pto.vgather2_bc + pto.vsel",
    ),
    "truncf": (
        _cast,
        "pto.vmi.truncf supports f32/f16/bf16 source narrowing (dense EvenOdd, Packed4, or "
        "f32 group_slots(num_groups=G, slots=1) to f16 group_slots(num_groups=G, slots=1)); "
        "non-f32 sources currently require dense contiguous layouts",
    ),
    "extsi": (
        _cast,
        "pto.vmi.extsi supports contiguous signed/signless 8-bit or 16-bit integer physical "
        "source chunks to 2x/4x wider integer deinterleaved results, or matching "
        "group_slots(num_groups=G, slots=1) layouts and natural group_slots(num_groups=G, "
        "slots=8, lane_stride=2/4) to group_slots(num_groups=G, slots=8) widening layouts",
    ),
    "extui": (
        _cast,
        "pto.vmi.extui supports contiguous unsigned 8-bit or 16-bit integer physical source "
        "chunks to 2x/4x wider unsigned integer deinterleaved results, or matching "
        "group_slots(num_groups=G, slots=1) layouts and natural group_slots(num_groups=G, "
        "slots=8, lane_stride=2/4) to group_slots(num_groups=G, slots=8) widening layouts",
    ),
    "trunci": (
        _cast,
        "pto.vmi.trunci supports integer deinterleaved source layouts whose factor is the "
        "2x/4x narrowing multiple of the contiguous or deinterleaved result layout factor, or "
        "matching group_slots(num_groups=G, slots=1) layouts and natural "
        "group_slots(num_groups=G, slots=8) to group_slots(num_groups=G, slots=8, "
        "lane_stride=2/4) narrowing layouts",
    ),
    "shuffle": (
        _shuffle,
        "pto.vmi.shuffle requires physical chunk forwarding or lane0 splat or "
        "vci-materializable vselr indices",
    ),
    "active_prefix_index": (
        _active_prefix_index,
        "pto.vmi.active_prefix_index lowers through pto.vusqz only for one contiguous physical "
        "chunk",
    ),
    "compress": (
        _compress,
        "pto.vmi.compress lowers through pto.vsqz only for one contiguous full physical chunk",
    ),
    "compress_store": (
        _compress_store,
        "pto.vmi.compress_store lowers through pto.vsqz + pto.vstur only for one contiguous "
        "full physical chunk with a UB pointer destination",
    ),
    "gather": (
        _gather,
        "pto.vmi.gather lowers through pto.vgather2_bc + pto.vsel only for UB pointer sources, "
        "contiguous full physical chunks, 32-bit result elements, i32 indices, and b32 masks",
    ),
    "scatter": (
        _scatter,
        "pto.vmi.scatter lowers through pto.vscatter only with a UB pointer destination, "
        "contiguous full physical chunks, 32-bit value elements, i32 indices, and b32 masks",
    ),
    "vselr": (
        _vselr,
        "pto.vmi.vselr supports only contiguous lane_stride=1 layouts with N=64, 128, or 256 "
        "for 8-bit, N=64 or 128 for 16-bit, or N=64 for 32-bit elements",
    ),
    "vmull": (
        _vmull,
        "pto.vmi.vmull requires equal 64/128/256-lane i32/ui32 data ports, a matching b32 mask, "
        "and contiguous or deinterleaved factor-2/factor-4 lane_stride=1 layout",
    ),
    "bitcast": (
        _bitcast,
        "pto.vmi.bitcast requires matching source/result layouts with width-changing forms "
        "restricted to supported layout table rows",
    ),
    "channel_split": (
        _channel_split,
        "pto.vmi.channel_split requires source layout to be contiguous or matching "
        "deinterleaved channel layout, every result layout to be contiguous, and complete "
        "physical channel groups",
    ),
    "channel_merge": (
        _channel_merge,
        "pto.vmi.channel_merge requires every input layout to be contiguous and result layout "
        "to be contiguous or matching deinterleaved channel layout, with complete physical "
        "channel groups",
    ),
}

# Vector-scalar ops: a merge needs the old destination, which their lowering lacks.
VECTOR_SCALAR_OPS = ("vadds", "vmuls", "vmaxs", "vmins", "vshls", "vshrs")


def _constant(op: Operation) -> str | None:
    value = op.properties.get("value") or op.attributes.get("value")
    splat = isinstance(value, DenseIntOrFPElementsAttr) and len(set(_dense_values(value))) <= 1
    if splat:
        return None
    return "non-splat pto.vmi.constant requires a vreg immediate or scratch materialization plan"


def _dense_values(value: DenseIntOrFPElementsAttr) -> list[object]:
    return list(value.get_values())


def _ensure_layout(op: Operation) -> str | None:
    source, result = op.operands[0].type, op.results[0].type
    reason = tables.ensure_layout_support(source, result)  # type: ignore[arg-type]
    if reason is None:
        return None
    tail = "partial/tail layout materialization requires an explicit packing plan"
    uses = list(op.results[0].uses)
    if len(uses) == 1:
        raise OpError(
            uses[0].operation,
            f"{UNSUPPORTED}{uses[0].operation.name} operand #{uses[0].index} has type "
            f"{type_text(source)} but requires {type_text(result)}; pto.vmi.ensure_layout "
            "cannot materialize this conversion",
        )
    return (
        "pto.vmi.ensure_layout cannot materialize the requested data layout conversion "
        f"({reason}); {tail}"
    )


def _ensure_mask_layout(op: Operation) -> str | None:
    reason = tables.ensure_mask_layout_support(op.operands[0].type, op.results[0].type)  # type: ignore[arg-type]
    if reason is None:
        return None
    return (
        "pto.vmi.ensure_mask_layout cannot materialize the requested mask layout conversion "
        f"({reason}); partial/tail predicate layout materialization requires an explicit "
        "packing plan"
    )


# Rules that read no layout: they hold whatever layout assignment chose.
LAYOUT_FREE_RULES = ("constant", "vselr", "group_slot_load", "vload", *VECTOR_SCALAR_OPS)


def supported_op_error(op: Operation, lowered: bool, assigned: bool = False) -> str | None:
    """Why `-vmi-to-vpto` cannot lower the op (its message without the prefix). After a
    layout assignment we do not run (`assigned`), only the rules that read no layout."""
    short = op.name.removeprefix("pto.vmi.")
    if not op.name.startswith("pto.vmi."):
        return None
    if assigned and short not in LAYOUT_FREE_RULES:
        return None
    if assigned and short == "vselr":
        return _vselr_shape(op)
    form = vmi_form(op, lowered)
    if assigned and form.name == "pto.vmi.group_slot_load":
        reason = _group_slot_load_any_layout(op, form)
        return f"{SUPPORT_RULES['group_slot_load'][1]} ({reason})" if reason else None
    if short == "constant":
        return _constant(op)
    if short == "ensure_layout":
        return _ensure_layout(op)
    if short == "ensure_mask_layout":
        return _ensure_mask_layout(op)
    if short in VECTOR_SCALAR_OPS and string_prop(op, "pmode") == "merge":
        return f"pto.vmi.{short} with pmode=merge requires an explicit passthru lowering"
    if assigned:
        return None
    entry = SUPPORT_RULES.get(form.name.removeprefix("pto.vmi."))
    if entry is None:
        return None
    rule, message = entry
    reason = rule(form)
    return f"{message} ({reason})" if reason else None


def check_supported_ops(
    module: ModuleOp,
    lowered: bool,
    assigned: bool = False,
    settled: Callable[[Operation], OpError | None] | None = None,
) -> None:
    """`-vmi-to-vpto`'s survey of the ops it converts, before converting any; then the
    conversion itself fails on a unified op left for it, which it has no pattern for.
    `settled` judges an op on the layouts a layout assignment certainly gave it."""
    for op in post_order(module):
        reason = supported_op_error(op, lowered, assigned)
        if reason:
            raise OpError(op, UNSUPPORTED + reason)
        error = settled(op) if settled is not None else None
        if error is not None:
            raise error
    for op in post_order(module):
        if left_unified(op, lowered):
            raise OpError(op, RESIDUAL + "failed to convert all VMI ops/types to VPTO")
    if assigned:
        return
    # The module the conversion built is verified after it: an op it builds may break
    # that op's own rule.
    for op in post_order(module):
        reason = built_op_error(op, lowered)
        if reason:
            raise OpError(op, reason)


def built_op_error(op: Operation, lowered: bool) -> str | None:
    """The verifier error of a VPTO op the conversion of `op` builds, if it has one."""
    if not op.name.startswith("pto.vmi."):
        return None
    form = vmi_form(op, lowered)
    if form.name == "pto.vmi.trunci":
        return _trunci_vcvt_error(form)
    return None


def _trunci_vcvt_error(form: VMIForm) -> str | None:
    """`trunci` narrows through `pto.vcvt` on its own element types, save that it
    converts si32 to si8 as ui32 to ui8 between bitcasts (the same bits)."""
    source, result = form.type("source"), form.type("result")
    if not isinstance(source, VMIVRegType) or not isinstance(result, VMIVRegType):
        return None
    if not _trunci_builds_vcvt(form.op, source, result):
        return None
    narrow, wide = result.element_type, source.element_type
    if _signed_width(wide) == 32 and _signed_width(narrow) == 8:
        return None
    if vcvt_pair_supported(wide, narrow):
        return None
    return f"'pto.vcvt' op {VCVT_PAIR_MESSAGE}"


def _trunci_builds_vcvt(op: Operation, source: VMIVRegType, result: VMIVRegType) -> bool:
    """Whether the trunci lowering emits a `vcvt`: not where it only reinterprets the
    wide register (NOSAT into a dense lane-strided result; 32 to 8 bits into eight
    group slots, left for the store to pack)."""
    src, dst = layout_of(source), layout_of(result)
    if src is None or dst is None:
        return False
    wide, narrow = storage_bits(source.element_type), storage_bits(result.element_type)
    factor = wide // narrow if narrow else 0
    lane_strided = (
        is_contiguous(src)
        and is_contiguous(dst)
        and src.lane_stride.data == 1
        and dst.lane_stride.data == factor
    )
    if lane_strided and string_prop(op, "saturate") == "NOSAT":
        return False
    return not (is_group_slots(dst) and dst.slots.data == 8 and (wide, narrow) == (32, 8))


def _signed_width(element: Attribute) -> int | None:
    if isinstance(element, IntegerType) and element.signedness.data == Signedness.SIGNED:
        return element.width.data
    return None
