"""PTOAS's verifier rules for the `pto.vmi.*` ops built from the op table.

The table (`ptoas_op_table.py`) gives each op its operands and their type kinds;
what PTOAS's C++ `verify()` methods check beyond that (element types an op computes
on, lane counts and layouts that must agree, masks that must fit their data, memory
that must be in UB, attribute values) is here, one function per op family, keyed by
op name in `VMI_RULES`. Each rule raises `VerifyException` with PTOAS's message.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float8E4M3B11FNUZType,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E4M3Type,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    Signedness,
    StringAttr,
)
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.attrs import PTOEnumAttrBase
from xla_emit.dialects.pto.types import PtrType
from xla_emit.dialects.pto.vpto_types import (
    BF16x2Type,
    F4E1M2x2Type,
    F4E2M1x2Type,
    HiF8x2Type,
    LowPrecisionType,
    MaskType,
    VMILayoutAttr,
    VMIMaskType,
    VMIVRegType,
    VRegType,
    element_bits,
)

Rule = Callable[[Operation], None]

# -- element type classes ---------------------------------------------------------


def _width(element: Attribute) -> int | None:
    return element.width.data if isinstance(element, IntegerType) else None


def is_int(element: Attribute, *widths: int) -> bool:
    """An integer type (of one of `widths`, if given), of any signedness."""
    width = _width(element)
    return width is not None and (not widths or width in widths)


def is_signed(element: Attribute) -> bool:
    return isinstance(element, IntegerType) and element.signedness.data == Signedness.SIGNED


def is_unsigned_or_signless(element: Attribute) -> bool:
    return isinstance(element, IntegerType) and element.signedness.data != Signedness.SIGNED


def is_signless(element: Attribute) -> bool:
    return isinstance(element, IntegerType) and element.signedness.data == Signedness.SIGNLESS


def is_int_like(element: Attribute) -> bool:
    return isinstance(element, IntegerType | IndexType)


def is_float_like(element: Attribute) -> bool:
    return isinstance(element, AnyFloat | LowPrecisionType)


def is_f16_f32(element: Attribute) -> bool:
    return isinstance(element, Float16Type | Float32Type)


def is_f16_bf16_f32(element: Attribute) -> bool:
    return isinstance(element, Float16Type | BFloat16Type | Float32Type)


def is_i8_i16_i32(element: Attribute) -> bool:
    return is_int(element, 8, 16, 32)


def is_i8_16_32_or_f16_bf16_f32(element: Attribute) -> bool:
    return is_i8_i16_i32(element) or is_f16_bf16_f32(element)


def is_i16_32_or_f16_bf16_f32(element: Attribute) -> bool:
    return is_int(element, 16, 32) or is_f16_bf16_f32(element)


def is_i8_16_32_or_f16_f32(element: Attribute) -> bool:
    return is_i8_i16_i32(element) or is_f16_f32(element)


def is_si8_16_32(element: Attribute) -> bool:
    return is_i8_i16_i32(element) and is_signed(element)


FLOAT8_TYPES = (
    Float8E4M3Type,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E4M3B11FNUZType,
    Float8E5M2Type,
    Float8E5M2FNUZType,
)


def is_low_precision(element: Attribute) -> bool:
    """PTOAS's low-precision element types: its own (hif8, f8E8M0, packed pairs) and
    MLIR's float8 types."""
    return isinstance(element, (LowPrecisionType, *FLOAT8_TYPES))


def is_packed_float(element: Attribute) -> bool:
    """The carriers of two values per element (hif8x2, f4x2, bf16x2)."""
    return isinstance(element, HiF8x2Type | F4E1M2x2Type | F4E2M1x2Type | BF16x2Type)


def storage_bits(element: Attribute) -> int:
    """An element's storage bits; index counts 64 (as PTOAS counts it)."""
    if isinstance(element, IndexType):
        return 64
    return element_bits(element) or 0


# -- operands and attributes ------------------------------------------------------


def vreg(value: object) -> VMIVRegType:
    return value.type  # type: ignore[attr-defined, return-value]


def string_prop(op: Operation, name: str) -> str | None:
    attr = op.properties.get(name) or op.attributes.get(name)
    return attr.data if isinstance(attr, StringAttr) else None


def int_prop(op: Operation, name: str) -> int | None:
    attr = op.properties.get(name) or op.attributes.get(name)
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def has_prop(op: Operation, name: str) -> bool:
    return name in op.properties or name in op.attributes


def layout_of(type_: Attribute) -> VMILayoutAttr | None:
    layout = getattr(type_, "layout", None)
    return layout if isinstance(layout, VMILayoutAttr) else None


def is_contiguous(layout: VMILayoutAttr | None) -> bool:
    return layout is not None and layout.kind.data == "contiguous"


def is_dense_split(layout: VMILayoutAttr | None) -> bool:
    return layout is not None and layout.kind.data in ("deinterleaved", "block_deinterleaved")


def is_group_slots(layout: VMILayoutAttr | None) -> bool:
    return layout is not None and layout.kind.data == "num_groups"


# -- shared checks -----------------------------------------------------------------


def require(condition: bool, message: str) -> None:
    if not condition:
        raise VerifyException(message)


def no_bf16x2(element: Attribute) -> None:
    require(
        not isinstance(element, BF16x2Type),
        "does not support bf16x2 VMI element type; bf16x2 is conversion-only",
    )


def same_vregs(
    types: Sequence[VMIVRegType], same_element: bool = True, layout: bool = True
) -> None:
    """All data values share a lane count (and element type); all or none carry a
    layout, and (with `layout`) the layouts agree."""
    first = types[0]
    any_layout = any(layout_of(t) is not None for t in types)
    for type_ in types:
        require(
            type_.count.data == first.count.data,
            "requires all VMI data values to have the same logical lane count",
        )
        require(
            not same_element or type_.element_type == first.element_type,
            "requires all VMI data values to have the same element type",
        )
        require(
            not any_layout or layout_of(type_) is not None,
            "requires either all or no VMI data values to carry layout",
        )
        require(
            not (any_layout and layout) or type_.layout == first.layout,
            "requires all layout-assigned VMI data values to have the same layout",
        )


def same_masks(types: Sequence[VMIMaskType]) -> None:
    first = types[0]
    any_layout = any(layout_of(t) is not None for t in types)
    for type_ in types:
        require(
            type_.count.data == first.count.data,
            "requires all VMI mask values to have the same logical lane count",
        )
        require(
            type_.granularity == first.granularity,
            "requires all VMI mask values to have the same granularity",
        )
        require(
            not any_layout or layout_of(type_) is not None,
            "requires either all or no VMI mask values to carry layout",
        )
        require(
            not any_layout or type_.layout == first.layout,
            "requires all layout-assigned VMI mask values to have the same layout",
        )


def mask_fits(mask: VMIMaskType, data: VMIVRegType) -> None:
    """A mask covers its data lane for lane: same count and layout, and a concrete
    granularity equal to the data's element width."""
    require(
        mask.count.data == data.count.data,
        "requires mask logical lane count to match data lane count",
    )
    if layout_of(mask) is not None or layout_of(data) is not None:
        require(
            layout_of(mask) is not None and layout_of(data) is not None,
            "requires either both mask and data to carry layout or neither to carry layout",
        )
        require(mask.layout == data.layout, "requires mask layout to match data layout")
    granularity = mask.granularity.data
    if granularity == "pred":
        return
    bits = storage_bits(data.element_type)
    require(
        bits == 0 or bits == int(granularity[1:]),
        "requires mask granularity to match data element width",
    )


def pmode_ok(op: Operation) -> None:
    mode = string_prop(op, "pmode")
    require(
        mode is None or mode in ("merge", "zero"),
        f'pmode must be "merge" or "zero", got "{mode}"',
    )


def optional_mask(op: Operation, data: VMIVRegType) -> None:
    """The unified ops' `pmode` and at most one predication mask."""
    pmode_ok(op)
    masks = list(op.mask)  # type: ignore[attr-defined]
    require(len(masks) <= 1, "expects at most one mask operand")
    if masks:
        mask_fits(masks[0].type, data)


def memory_element(type_: Attribute) -> Attribute | None:
    if isinstance(type_, PtrType | MemRefType):
        return type_.element_type
    return None


def is_ub(type_: Attribute) -> bool:
    """PTOAS's UB-backed memory: a `ub` pointer, or a memref in `#pto.address_space<vec>`
    (or integer space 6, the enum's number for it)."""
    if isinstance(type_, PtrType):
        return type_.space.data == "ub"
    if isinstance(type_, MemRefType):
        space = type_.memory_space
        if isinstance(space, IntegerAttr):
            return space.value.data == VEC_SPACE_NUMBER
        return isinstance(space, PTOEnumAttrBase) and space.data == "vec"
    return False


VEC_SPACE_NUMBER = 6  # AddressSpace::VEC in PTOAS's enum


def ub_memory(type_: Attribute, role: str) -> None:
    require(is_ub(type_), f"requires memory {role} to be UB-backed")


def memory_matches(type_: Attribute, data: VMIVRegType, role: str) -> None:
    element = memory_element(type_)
    require(
        element is None or element == data.element_type,
        f"requires memory {role} element type to match VMI data element type",
    )


def num_groups_divide(data: VMIVRegType, groups: int) -> None:
    require(groups > 0, "requires num_groups to be positive")
    require(
        data.count.data % groups == 0,
        f"requires num_groups to evenly divide VMI logical lane count {data.count.data}",
    )


def _layouts_both_or_neither(source: Attribute, result: Attribute) -> None:
    require(
        (layout_of(source) is None) == (layout_of(result) is None),
        "requires either both source and result to carry layout or neither to carry layout",
    )


# -- legacy arithmetic (addf, addi, ..., not) ---------------------------------------

ElementCheck = Callable[[Attribute], bool]


def _legacy_binary(
    first: tuple[ElementCheck, str] | None, second: tuple[ElementCheck, str]
) -> Rule:
    """`lhs OP rhs`: a coarse element class, then the widths the op supports."""

    def rule(op: Operation) -> None:
        lhs, rhs, result = vreg(op.lhs), vreg(op.rhs), vreg(op.result)  # type: ignore[attr-defined]
        for element_rule in (first, second):
            if element_rule is not None:  # maxi, mini and shrsi have no coarse class
                check, message = element_rule
                require(check(lhs.element_type), message)
        same_vregs([lhs, rhs, result])

    return rule


def _float_unary(check: ElementCheck, message: str) -> Rule:
    def rule(op: Operation) -> None:
        source, result = vreg(op.source), vreg(op.result)  # type: ignore[attr-defined]
        require(check(source.element_type), message)
        no_bf16x2(source.element_type)
        require(is_float_like(source.element_type), "requires floating-point-like VMI element type")
        same_vregs([source, result])

    return rule


def _unary(check: ElementCheck, message: str) -> Rule:
    def rule(op: Operation) -> None:
        source, result = vreg(op.source), vreg(op.result)  # type: ignore[attr-defined]
        require(check(source.element_type), message)
        same_vregs([source, result])

    return rule


_FLOAT_LIKE = (is_float_like, "requires floating-point-like VMI element type")
_INT_LIKE = (is_int_like, "requires integer-like VMI element type")
_F16_BF16_F32 = (is_f16_bf16_f32, "requires f16, bf16, or f32 VMI element type")
_I8_16_32 = (is_i8_i16_i32, "requires i8, i16, or i32 VMI element type")
_F16_F32 = (is_f16_f32, "requires f16 or f32 VMI element type")


def _is_si32(element: Attribute) -> bool:
    return is_int(element, 32) and is_signed(element)


def _relu_element(element: Attribute) -> bool:
    return _is_si32(element) or is_f16_f32(element)


def _fma(op: Operation) -> None:
    lhs = vreg(op.lhs)  # type: ignore[attr-defined]
    require(is_f16_bf16_f32(lhs.element_type), _F16_BF16_F32[1])
    same_vregs([lhs, vreg(op.rhs), vreg(op.acc), vreg(op.result)])  # type: ignore[attr-defined]


def _shrui_element(element: Attribute) -> bool:
    return is_int(element) and not is_signed(element)


def _compare(first: tuple[ElementCheck, str], second: tuple[ElementCheck, str]) -> Rule:
    def rule(op: Operation) -> None:
        lhs, rhs = vreg(op.lhs), vreg(op.rhs)  # type: ignore[attr-defined]
        for check, message in (first, second):
            require(check(lhs.element_type), message)
        same_vregs([lhs, rhs])
        mask_fits(op.result.type, lhs)  # type: ignore[attr-defined]

    return rule


def _select(op: Operation) -> None:
    result = vreg(op.result)  # type: ignore[attr-defined]
    same_vregs([vreg(op.true_value), vreg(op.false_value), result])  # type: ignore[attr-defined]
    mask_fits(op.mask.type, result)  # type: ignore[attr-defined]
    pmode_ok(op)


def _mask_logic(op: Operation) -> None:
    operands = [v.type for v in op.operands] + [op.result.type]  # type: ignore[attr-defined]
    same_masks(operands)


def _active_prefix_index(op: Operation) -> None:
    result = vreg(op.result)  # type: ignore[attr-defined]
    element = result.element_type
    require(is_signless(element), "requires signless integer result element type")
    require(is_i8_i16_i32(element), "requires i8, i16, or i32 result element type")
    mask_fits(op.mask.type, result)  # type: ignore[attr-defined]


def _compress(op: Operation) -> None:
    source = vreg(op.source)  # type: ignore[attr-defined]
    same_vregs([source, vreg(op.result)])  # type: ignore[attr-defined]
    mask_fits(op.mask.type, source)  # type: ignore[attr-defined]


def _compress_store(op: Operation) -> None:
    value = vreg(op.value)  # type: ignore[attr-defined]
    memory_matches(op.destination.type, value, "destination")  # type: ignore[attr-defined]
    ub_memory(op.destination.type, "destination")  # type: ignore[attr-defined]
    mask_fits(op.mask.type, value)  # type: ignore[attr-defined]


# -- reductions ---------------------------------------------------------------------


def _one_lane_result(source: VMIVRegType, result: VMIVRegType) -> None:
    require(
        source.element_type == result.element_type,
        "requires source and result element types to match",
    )
    require(result.count.data == 1, "requires result to be a 1-lane VMI vector")


def _reduce_addi(op: Operation) -> None:
    source, result = vreg(op.source), vreg(op.result)  # type: ignore[attr-defined]
    require(is_int_like(source.element_type), "requires integer-like VMI source element type")
    require(is_int(source.element_type, 32), "requires 32-bit integer source element type")
    _one_lane_result(source, result)
    mask_fits(op.mask.type, source)  # type: ignore[attr-defined]


def _reduce_float(needs_reassoc: bool) -> Rule:
    def rule(op: Operation) -> None:
        source, result = vreg(op.source), vreg(op.result)  # type: ignore[attr-defined]
        require(
            not needs_reassoc or has_prop(op, "reassoc"),
            "requires reassoc attr because VPTO vcadd performs pair-wise floating-point reduction",
        )
        require(
            is_float_like(source.element_type),
            "requires floating-point-like VMI source element type",
        )
        require(is_f16_f32(source.element_type), "requires f16 or f32 source element type")
        _one_lane_result(source, result)
        mask_fits(op.mask.type, source)  # type: ignore[attr-defined]

    return rule


def _reduce_int(op: Operation) -> None:
    source, result = vreg(op.source), vreg(op.result)  # type: ignore[attr-defined]
    require(
        is_i8_i16_i32(source.element_type),
        "requires 8-bit, 16-bit, or 32-bit integer source element type",
    )
    _one_lane_result(source, result)
    mask_fits(op.mask.type, source)  # type: ignore[attr-defined]


def _group_layouts(source: VMIVRegType, result: VMIVRegType, groups: int) -> None:
    source_layout = layout_of(source)
    if source_layout is not None:
        require(
            is_contiguous(source_layout)
            or (is_dense_split(source_layout) and source_layout.factor.data in (2, 4)),
            "requires layout-assigned source to use contiguous layout or deinterleaved=2/4 "
            "or block_deinterleaved=2/4 layout",
        )
    result_layout = layout_of(result)
    if result_layout is not None:
        require(
            is_group_slots(result_layout) and result_layout.factor.data == groups,
            f"requires layout-assigned result to use #pto.vmi.layout<num_groups = {groups}>",
        )


def _group_reduce(is_float: bool, needs_reassoc: bool = False) -> Rule:
    def rule(op: Operation) -> None:
        source, result = vreg(op.source), vreg(op.result)  # type: ignore[attr-defined]
        groups = int_prop(op, "num_groups") or 0
        element = source.element_type
        if is_float:
            require(
                not needs_reassoc or has_prop(op, "reassoc"),
                "requires reassoc attr because grouped lowering uses pair-wise "
                "floating-point reductions",
            )
            require(is_float_like(element), "requires floating-point-like VMI source element type")
            require(is_f16_f32(element), "requires f16 or f32 source element type")
        else:
            require(is_int_like(element), "requires integer-like VMI source element type")
            require(
                is_i8_i16_i32(element),
                "requires 8-bit, 16-bit, or 32-bit integer source element type",
            )
        require(
            result.count.data == groups,
            "requires result logical lane count to match num_groups",
        )
        require(
            element == result.element_type,
            "requires source and result element types to match",
        )
        _group_layouts(source, result, groups)
        mask_fits(op.mask.type, source)  # type: ignore[attr-defined]
        num_groups_divide(source, groups)

    return rule


def _group_broadcast(op: Operation) -> None:
    source, result = vreg(op.source), vreg(op.result)  # type: ignore[attr-defined]
    groups = int_prop(op, "num_groups") or 0
    _broadcast_groups(source, result, groups)


def _broadcast_groups(source: VMIVRegType, result: VMIVRegType, groups: int) -> None:
    require(
        source.count.data == groups,
        "requires source logical lane count to match num_groups",
    )
    require(
        groups > 0 and result.count.data % groups == 0,
        "requires num_groups to evenly divide result logical lane count",
    )
    _group_slots_to_dense(source, result, groups)


def _group_slots_to_dense(source: VMIVRegType, result: VMIVRegType, groups: int) -> None:
    """A source of one lane per group spread over a dense result (broadcast, grouped vbrc)."""
    require(
        source.element_type == result.element_type,
        "requires source and result element types to match",
    )
    source_layout = layout_of(source)
    if source_layout is not None:
        require(
            is_group_slots(source_layout) and source_layout.factor.data == groups,
            f"requires layout-assigned source to use #pto.vmi.layout<num_groups = {groups}>",
        )
    require(
        not is_group_slots(layout_of(result)),
        "requires layout-assigned result to use a dense VMI layout",
    )
    num_groups_divide(result, groups)


def _histogram(op: Operation) -> None:
    acc, source, result = vreg(op.acc), vreg(op.source), vreg(op.result)  # type: ignore[attr-defined]
    mask: VMIMaskType = op.mask.type  # type: ignore[attr-defined]
    bins = acc.count.data

    def unsigned16(element: Attribute) -> bool:
        return is_int(element, 16) and is_unsigned_or_signless(element)

    require(
        unsigned16(acc.element_type) and bins in (128, 256),
        "requires acc type to be !pto.vmi.vreg<128x{ui16|i16}> (Bin_N0-only) or "
        "!pto.vmi.vreg<256x{ui16|i16}>",
    )
    require(
        result.count.data == bins,
        "requires result element count to match acc (bins must be identical)",
    )
    require(result.layout == acc.layout, "requires result layout attribute to match acc")
    require(
        unsigned16(result.element_type),
        "requires result element type to be ui16 or i16 (interpreted as unsigned)",
    )
    require(
        is_int(source.element_type, 8) and is_unsigned_or_signless(source.element_type),
        "requires source type to be !pto.vmi.vreg<Nx{ui8|i8}> (interpreted as unsigned)",
    )
    require(
        mask.count.data == source.count.data,
        "requires mask logical lane count to match source",
    )
    for role, type_ in (("acc", acc), ("source", source), ("result", result), ("mask", mask)):
        layout = layout_of(type_)
        require(
            layout is None or is_contiguous(layout),
            f"requires layout-assigned {role} to use contiguous layout",
        )
    require(
        layout_of(mask) is None or mask.granularity.data == "b8",
        "requires layout-assigned mask granularity b8",
    )


# -- constants, broadcasts, iotas, masks -----------------------------------------------


def _dense(op: Operation) -> DenseIntOrFPElementsAttr | None:
    value = op.properties.get("value") or op.attributes.get("value")
    return value if isinstance(value, DenseIntOrFPElementsAttr) else None


def _dense_count(value: DenseIntOrFPElementsAttr) -> int:
    count = 1
    for dim in value.get_shape() or ():
        count *= dim
    return count


def _constant(op: Operation) -> None:
    result = vreg(op.result)  # type: ignore[attr-defined]
    value = _dense(op)
    require(value is not None, "requires dense elements constant attribute")
    assert value is not None
    require(
        value.get_element_type() == result.element_type,
        "requires dense constant element type to match result element type",
    )
    require(
        _dense_count(value) == result.count.data,
        "requires dense constant element count to match result logical lane count",
    )


def _constant_mask(op: Operation) -> None:
    result: VMIMaskType = op.result.type  # type: ignore[attr-defined]
    value = _dense(op)
    require(value is not None, "requires dense elements mask constant attribute")
    assert value is not None
    require(
        value.get_element_type() == IntegerType(1),
        "requires dense mask constant element type to be i1",
    )
    require(
        _dense_count(value) == result.count.data,
        "requires dense mask constant element count to match result logical lane count",
    )


def _broadcast(op: Operation) -> None:
    _broadcast_value(op.value.type, vreg(op.result))  # type: ignore[attr-defined]


def _broadcast_value(value: Attribute, result: VMIVRegType) -> None:
    if value == result.element_type:
        return
    if isinstance(value, VMIVRegType):
        require(value.count.data == 1, "requires VMI vector input to have one logical lane")
        require(
            value.element_type == result.element_type,
            "requires VMI vector input element type to match result element type",
        )
        return
    raise VerifyException(
        "requires scalar or VMI vector input element type to match result element type"
    )


def _vbrc(op: Operation) -> None:
    result = vreg(op.result)  # type: ignore[attr-defined]
    value = op.value.type  # type: ignore[attr-defined]
    groups = int_prop(op, "group")
    if groups is None:
        _broadcast_value(value, result)
        return
    require(isinstance(value, VMIVRegType), "requires VMI vector input when num_groups is set")
    require(
        value.count.data == groups,
        f"requires source logical lane count {value.count.data} to match num_groups {groups}",
    )
    _group_slots_to_dense(value, result, groups)


def _iota_element(element: Attribute) -> bool:
    return is_i8_i16_i32(element) or is_f16_f32(element)


def scalar_fits(semantic: Attribute, scalar: Attribute) -> bool:
    """A scalar for lanes of `semantic` type: the same type, or an integer of its
    width whose signedness is the lanes' or signless."""
    if semantic == scalar:
        return True
    if not (is_int(semantic) and is_int(scalar)) or _width(semantic) != _width(scalar):
        return False
    lanes = semantic.signedness.data  # type: ignore[attr-defined]
    given = scalar.signedness.data  # type: ignore[attr-defined]
    return given == Signedness.SIGNLESS or (lanes != Signedness.SIGNLESS and given == lanes)


def lanes_per_register(element: Attribute) -> int:
    bits = storage_bits(element)
    return 2048 // bits if bits else 0


def _group_size_fits(result: VMIVRegType, groups: int) -> None:
    require(groups > 0, "requires group to be positive")
    require(
        result.count.data % groups == 0,
        "requires group to evenly divide result logical lane count",
    )
    size = result.count.data // groups
    per_part = lanes_per_register(result.element_type)
    if groups > 1 and per_part:
        require(
            size % per_part == 0 or per_part % size == 0,
            "requires group_size to divide or be a multiple of physical lanes per part "
            f"({per_part})",
        )


def _iota(grouped: str | None) -> Rule:
    """iota / vci (`group` optional) / group_iota (`group` > 1 required)."""

    def rule(op: Operation) -> None:
        result = vreg(op.result)  # type: ignore[attr-defined]
        element = result.element_type
        require(
            _iota_element(element),
            "requires result element type to be integer 8/16/32 or f16/f32",
        )
        require(
            scalar_fits(element, op.base.type),  # type: ignore[attr-defined]
            "requires base type to match result element type",
        )
        order = string_prop(op, "order")
        require(order in (None, "ASC", "DESC"), "requires order to be ASC or DESC")
        groups = int_prop(op, "group")
        if grouped == "required":
            require((groups or 0) > 1, "requires group greater than one")
        if groups is not None and grouped is not None:
            _group_size_fits(result, groups)
        if grouped == "required":
            layout = layout_of(result)
            require(layout is None or is_contiguous(layout), "requires contiguous result layout")

    return rule


def _create_group_mask(op: Operation) -> None:
    result: VMIMaskType = op.result.type  # type: ignore[attr-defined]
    groups, size = int_prop(op, "num_groups") or 0, int_prop(op, "group_size") or 0
    require(groups > 0, "requires positive num_groups")
    require(size > 0, "requires positive group_size")
    require(
        result.count.data == groups * size,
        "requires result lane count to equal num_groups * group_size",
    )


def _concrete_mask_result(result: VMIMaskType) -> None:
    require(
        result.granularity.data == "pred" or layout_of(result) is not None,
        "requires concrete mask result to carry layout",
    )


def _pset(op: Operation) -> None:
    require(string_prop(op, "pattern") == "PAT_ALL", 'requires pattern to be "PAT_ALL"')
    _concrete_mask_result(op.result.type)  # type: ignore[attr-defined]


def _pge(op: Operation) -> None:
    result: VMIMaskType = op.result.type  # type: ignore[attr-defined]
    pattern = string_prop(op, "pattern") or ""
    require(pattern.startswith("PAT_VL"), 'requires pattern to start with "PAT_VL"')
    digits = pattern[len("PAT_VL") :]
    require(digits.isdigit(), 'requires pattern "PAT_VL<n>" with integer n')
    lanes = int(digits)
    require(lanes > 0, 'requires positive n in pattern "PAT_VL<n>"')
    require(
        lanes <= result.count.data,
        f"PAT_VL active lanes {lanes} exceeds mask element count {result.count.data}",
    )
    _concrete_mask_result(result)


def _plt(op: Operation) -> None:
    _concrete_mask_result(op.mask.type)  # type: ignore[attr-defined]


# -- unified ops (v*) ---------------------------------------------------------------


def _unified_binary(check: ElementCheck, message: str, bf16x2_first: bool = True) -> Rule:
    """`vadd` ...: `lhs OP rhs` under an optional mask and pmode."""

    def rule(op: Operation) -> None:
        lhs, rhs, result = vreg(op.lhs), vreg(op.rhs), vreg(op.result)  # type: ignore[attr-defined]
        if bf16x2_first:
            no_bf16x2(lhs.element_type)
        require(check(lhs.element_type), message)
        same_vregs([lhs, rhs, result])
        optional_mask(op, result)

    return rule


def _unified_unary(check: ElementCheck, message: str, float_unary: bool = False) -> Rule:
    def rule(op: Operation) -> None:
        source, result = vreg(op.source), vreg(op.result)  # type: ignore[attr-defined]
        no_bf16x2(source.element_type)
        require(check(source.element_type), message)
        if float_unary:
            require(
                is_float_like(source.element_type),
                "requires floating-point-like VMI element type",
            )
        same_vregs([source, result])
        optional_mask(op, result)

    return rule


def _unified_logic(vector_check: ElementCheck, message: str, unary: bool = False) -> Rule:
    """vand/vor/vxor/vnot: on masks a mask logic op (no predication), else integers."""

    def rule(op: Operation) -> None:
        data = [op.source] if unary else [op.lhs, op.rhs]  # type: ignore[attr-defined]
        types = [v.type for v in data] + [op.result.type]  # type: ignore[attr-defined]
        first = types[0]
        if isinstance(first, VMIMaskType):
            require(not list(op.mask), "mask logic op does not support predication mask")  # type: ignore[attr-defined]
            require(not has_prop(op, "pmode"), "mask logic op does not support pmode")
            require(
                all(isinstance(t, VMIMaskType) for t in types),
                "requires all operands and the result to be VMI masks",
            )
            same_masks(types)
            return
        require(
            all(isinstance(t, VMIVRegType) for t in types),
            "requires VMI vector or VMI mask operands and result",
        )
        require(vector_check(first.element_type), message)
        same_vregs(types)
        optional_mask(op, types[-1])

    return rule


def _scalar_pmode(op: Operation) -> None:
    mode = string_prop(op, "pmode")
    require(
        mode is None or mode in ("merge", "zero"),
        f'unsupported pmode \'{mode}\'; expected "merge" or "zero"',
    )


def _vector_scalar(check: ElementCheck | None, message: str, bf16x2_first: bool) -> Rule:
    """vadds/vmuls/vmaxs/vmins: `src OP scalar` under a mask."""

    def rule(op: Operation) -> None:
        source, result = vreg(op.src), vreg(op.result)  # type: ignore[attr-defined]
        element = source.element_type
        if bf16x2_first:
            no_bf16x2(element)
        if check is not None:
            require(check(element), message)
        no_bf16x2(element)
        require(
            is_float_like(element) or is_int_like(element),
            "requires floating-point-like or integer-like VMI element type",
        )
        scalar = op.scalar.type  # type: ignore[attr-defined]
        require(
            scalar == element,
            f"requires scalar type to match vector element type, got scalar {scalar} vs "
            f"vector element {element}",
        )
        same_vregs([source, result])
        mask_fits(op.mask.type, result)  # type: ignore[attr-defined]
        _scalar_pmode(op)

    return rule


def _vector_scalar_shift(op: Operation) -> None:
    source, result = vreg(op.src), vreg(op.result)  # type: ignore[attr-defined]
    require(is_int_like(source.element_type), "requires integer-like VMI element type for shift")
    require(
        op.scalar.type == IntegerType(16),  # type: ignore[attr-defined]
        "requires signless i16 shift amount",
    )
    same_vregs([source, result])
    mask_fits(op.mask.type, result)  # type: ignore[attr-defined]
    _scalar_pmode(op)


def _lane_reduce(is_add: bool) -> Rule:
    """vcadd / vcmax / vcmin: a full reduction to one lane, or one per group."""

    def rule(op: Operation) -> None:
        source, result = vreg(op.source), vreg(op.result)  # type: ignore[attr-defined]
        element = source.element_type
        no_bf16x2(element)
        floating = is_float_like(element)
        require(
            floating or is_int_like(element),
            "requires integer-like or floating-point-like VMI source element type",
        )
        require(
            not (is_add and floating) or has_prop(op, "reassoc"),
            "floating add-reduction requires reassoc attr",
        )
        mask_fits(op.mask.type, source)  # type: ignore[attr-defined]
        groups = int_prop(op, "group")
        if groups is not None:
            require(
                groups > 0 and source.count.data % groups == 0,
                f"group count {groups} must divide source lane count {source.count.data}",
            )
            require(
                result.count.data == groups,
                f"result lane count must equal group count {groups}, got {result.count.data}",
            )
            layout = layout_of(result)
            require(
                layout is None or (is_group_slots(layout) and layout.factor.data == groups),
                f"layout-assigned result must use #pto.vmi.layout<num_groups = {groups}>",
            )
        else:
            require(
                result.count.data == 1,
                f"full reduction (no group) requires 1-lane result, got {result.count.data}",
            )
        require(element == result.element_type, "source and result element types must match")
        mode = string_prop(op, "pmode")
        require(
            mode is None or mode in ("zero", "merge"),
            f'pmode must be "zero" or "merge", got "{mode}"',
        )

    return rule


def _quoted_pmode(op: Operation) -> None:
    mode = string_prop(op, "pmode")
    require(mode is None or mode in ("merge", "zero"), "pmode must be 'merge' or 'zero'")


def _mask_and_pmode(op: Operation, data: VMIVRegType) -> None:
    """The predication of a masked VMI math op: its mask fits `data`, its pmode is known."""
    mask_fits(op.mask.type, data)  # type: ignore[attr-defined]
    _quoted_pmode(op)


def _float_vector(x: VMIVRegType) -> None:
    no_bf16x2(x.element_type)
    require(is_float_like(x.element_type), "requires vector element type to be f16 or f32")


def _offsets_element(offsets: VMIVRegType) -> int:
    element = offsets.element_type
    require(
        is_int(element, 16, 32) and not is_signed(element),
        "requires signless or unsigned 16-bit or 32-bit integer offsets",
    )
    return _width(element) or 0


def _vgather(blocked: bool) -> Rule:
    def rule(op: Operation) -> None:
        offsets, result = vreg(op.offsets), vreg(op.result)  # type: ignore[attr-defined]
        memory = op.source.type  # type: ignore[attr-defined]
        ub_memory(memory, "source")
        memory_matches(memory, result, "source")
        width = _offsets_element(offsets)
        if not blocked:
            same_vregs([offsets, result], same_element=False)
        mask_fits(op.mask.type, result)  # type: ignore[attr-defined]
        if not blocked and width == 16:
            element = result.element_type
            require(
                is_int(element, 16)
                and isinstance(element, IntegerType)
                and element.signedness.data == Signedness.UNSIGNED,
                "requires ui16 result element type when using ui16 offsets",
            )
        _quoted_pmode(op)

    return rule


def _vscatter(op: Operation) -> None:
    value, offsets = vreg(op.value), vreg(op.offsets)  # type: ignore[attr-defined]
    memory = op.destination.type  # type: ignore[attr-defined]
    ub_memory(memory, "destination")
    memory_matches(memory, value, "destination")
    _offsets_element(offsets)
    same_vregs([value, offsets], same_element=False)
    _mask_and_pmode(op, value)


def _vexpdif(op: Operation) -> None:
    x, max_, result = vreg(op.x), vreg(op.max), vreg(op.result)  # type: ignore[attr-defined]
    require(is_f16_f32(x.element_type), "requires x element type to be f16 or f32")
    require(
        max_.element_type == x.element_type,
        "requires x and max to have the same element type",
    )
    require(
        isinstance(result.element_type, Float32Type),
        "requires result element type to be f32",
    )
    require(
        x.count.data == max_.count.data == result.count.data,
        "requires x, max, and result logical lane counts to match",
    )
    _mask_and_pmode(op, x)


def _vaxpy(op: Operation) -> None:
    x, acc, result = vreg(op.x), vreg(op.acc), vreg(op.result)  # type: ignore[attr-defined]
    _float_vector(x)
    require(
        x == acc == result,
        "requires x, acc, and result to have identical VMI vreg types",
    )
    require(
        op.alpha.type == x.element_type,  # type: ignore[attr-defined]
        "requires alpha scalar type to match vector element type",
    )
    _mask_and_pmode(op, result)


def _vlrelu(op: Operation) -> None:
    x, result = vreg(op.x), vreg(op.result)  # type: ignore[attr-defined]
    _float_vector(x)
    require(x == result, "requires x and result to have identical VMI vreg types")
    require(
        op.slope.type == x.element_type,  # type: ignore[attr-defined]
        "requires slope scalar type to match vector element type",
    )
    _mask_and_pmode(op, result)


def _vprelu(op: Operation) -> None:
    x, alpha, result = vreg(op.x), vreg(op.alpha), vreg(op.result)  # type: ignore[attr-defined]
    _float_vector(x)
    require(
        x == alpha == result,
        "requires x, alpha, and result to have identical VMI vreg types",
    )
    _mask_and_pmode(op, result)


def _add_carry(op: Operation) -> None:
    lhs, rhs, result = vreg(op.lhs), vreg(op.rhs), vreg(op.result)  # type: ignore[attr-defined]
    require(is_int(lhs.element_type, 32), "requires 32-bit integer vector element types")
    same_vregs([lhs, rhs, result])
    masks = [op.mask.type, op.carry.type]  # type: ignore[attr-defined]
    carry_in = getattr(op, "carry_in", None)
    if carry_in is not None:
        masks.append(carry_in.type)
    for mask in masks:
        mask_fits(mask, lhs)
    same_masks(masks)


def _vmull(op: Operation) -> None:
    types = [vreg(op.a), vreg(op.b), vreg(op.low), vreg(op.high)]  # type: ignore[attr-defined]
    require(
        all(is_int(t.element_type, 32) and not is_signed(t.element_type) for t in types),
        "requires a, b, low, and high element types to be exactly i32 or ui32",
    )
    require(
        all(t == types[0] for t in types),
        "requires a, b, low, and high to have identical VMI vreg types",
    )
    require(
        types[0].count.data in (64, 128, 256),
        "requires logical lane count to be 64, 128, or 256",
    )
    mask_fits(op.mask.type, types[0])  # type: ignore[attr-defined]
    mode = string_prop(op, "pmode")
    require(mode in (None, "zero"), "pmode must be 'zero' when specified")


def _vmula(op: Operation) -> None:
    acc, lhs, rhs, result = (vreg(op.acc), vreg(op.lhs), vreg(op.rhs), vreg(op.result))  # type: ignore[attr-defined]
    no_bf16x2(acc.element_type)
    require(
        is_float_like(acc.element_type) or is_int_like(acc.element_type),
        "requires floating-point-like or integer-like VMI element type",
    )
    require(
        acc == lhs == rhs == result,
        "requires acc, lhs, rhs, and result to have identical VMI vreg types",
    )
    optional_mask(op, result)


# -- conversions --------------------------------------------------------------------


class FpContract:
    """What one fp-to-fp pair outside the generic widen/narrow rules allows."""

    def __init__(self, saturates: bool, rounding_modes: str) -> None:
        self.saturates = saturates
        self.rounding_modes = rounding_modes


def is_f4x2(element: Attribute) -> bool:
    return isinstance(element, F4E1M2x2Type | F4E2M1x2Type)


def fp_contract(source: Attribute, result: Attribute) -> FpContract | None:
    """PTOAS's fp-to-fp pairs: bf16x2 <-> f4x2 (packed, no saturation) and the
    same-width bf16 -> f16."""
    if not (is_float_like(source) and is_float_like(result)):
        return None
    if isinstance(source, BF16x2Type) and is_f4x2(result):
        return FpContract(saturates=False, rounding_modes="RAFZC")
    if is_f4x2(source) and isinstance(result, BF16x2Type):
        return FpContract(saturates=False, rounding_modes="")
    if isinstance(source, BFloat16Type) and isinstance(result, Float16Type):
        return FpContract(saturates=True, rounding_modes="")
    return None


def fp_to_si_saturates(source: Attribute, result: Attribute) -> bool | None:
    """Whether an fp-to-signed pair needs a `saturate` (None: no such pair)."""
    if not (is_float_like(source) and is_signed(result)):
        return None
    pairs = {
        (Float32Type, 32): True,
        (Float32Type, 16): True,
        (Float16Type, 32): False,
        (Float16Type, 16): True,
        (Float16Type, 8): True,
        (BFloat16Type, 32): True,
    }
    for (kind, width), saturates in pairs.items():
        if isinstance(source, kind) and _width(result) == width:
            return saturates
    return None


def fp_to_ui_saturates(source: Attribute, result: Attribute) -> bool | None:
    if not (is_float_like(source) and is_unsigned_or_signless(result)):
        return None
    return True if isinstance(source, Float16Type) and _width(result) == 8 else None


def _involves(check: ElementCheck, source: Attribute, result: Attribute) -> bool:
    return check(source) or check(result)


def _same_lanes(source: VMIVRegType, result: VMIVRegType) -> None:
    require(
        source.count.data == result.count.data,
        "requires source and result logical lane counts to match",
    )


def _saturate_given(op: Operation, required: str, bad: str = "saturate attr") -> None:
    value = string_prop(op, "saturate")
    require(value is not None, required)
    require(value in ("SAT", "NOSAT"), f"{bad} must be 'SAT' or 'NOSAT'")


def _extf(op: Operation) -> None:
    source, result = vreg(op.source), vreg(op.result)  # type: ignore[attr-defined]
    _same_lanes(source, result)
    a, b = source.element_type, result.element_type
    require(
        is_float_like(a) and is_float_like(b),
        "requires floating-point-like source and result element types",
    )
    require(
        not _involves(lambda t: isinstance(t, BF16x2Type), a, b) or fp_contract(a, b) is not None,
        "unsupported bf16x2 fp-to-fp conversion element type pair",
    )
    require(
        storage_bits(a) < storage_bits(b),
        "requires result element type to be wider than source element type",
    )


def _truncf(op: Operation) -> None:
    source, result = vreg(op.source), vreg(op.result)  # type: ignore[attr-defined]
    a, b = source.element_type, result.element_type
    contract = fp_contract(a, b)
    _same_lanes(source, result)
    require(
        is_float_like(a) and is_float_like(b),
        "requires floating-point-like source and result element types",
    )
    require(
        not _involves(lambda t: isinstance(t, BF16x2Type), a, b) or contract is not None,
        "unsupported bf16x2 fp-to-fp conversion element type pair",
    )
    require(
        not _involves(is_packed_float, a, b) or contract is not None,
        "unsupported packed fp-to-fp conversion element type pair",
    )
    require(
        storage_bits(a) >= storage_bits(b),
        "requires result element type to be narrower than or same-width as source element type",
    )
    require(
        storage_bits(a) != storage_bits(b) or contract is not None,
        "same-width fp-to-fp conversion is not supported for this type pair",
    )
    rounding = string_prop(op, "rounding")
    if rounding is not None:
        require(len(rounding) == 1, "rounding attr must be a single-character mode token")
        allowed = contract.rounding_modes if contract and contract.rounding_modes else "RAHZ"
        require(
            rounding in allowed,
            "rounding attr is not valid for this fp-to-fp conversion type pair"
            if contract and contract.rounding_modes
            else "rounding attr must be R, A, H, or Z",
        )
    if contract is None or contract.saturates:
        _saturate_given(op, "'saturate' attribute is required (SAT or NOSAT)")
    else:
        require(
            not has_prop(op, "saturate"),
            "'saturate' attribute is not valid for this fp-to-fp narrow conversion (no saturation)",
        )


def _fp_to_int(signed: bool) -> Rule:
    kind = "si" if signed else "ui"

    def rule(op: Operation) -> None:
        source, result = vreg(op.source), vreg(op.result)  # type: ignore[attr-defined]
        a, b = source.element_type, result.element_type
        _same_lanes(source, result)
        require(is_float_like(a), "requires floating-point-like source element type")
        if signed:
            require(is_signed(b), "requires signed integer result element type")
        else:
            require(
                is_unsigned_or_signless(b),
                "requires unsigned or signless integer result element type",
            )
        saturates = fp_to_si_saturates(a, b) if signed else fp_to_ui_saturates(a, b)
        require(saturates is not None, f"unsupported fp-to-{kind} conversion element type pair")
        rounding = string_prop(op, "rounding")
        require(
            rounding is None or rounding in ("R", "A", "F", "C", "Z"),
            "rounding attr must be R, A, F, C, or Z",
        )
        if saturates:
            _saturate_given(
                op, f"'saturate' attribute is required for this fp-to-{kind} conversion"
            )
        else:
            require(
                not has_prop(op, "saturate"),
                f"'saturate' attribute is not valid for this fp-to-{kind} conversion "
                "(no overflow possible)",
            )

    return rule


def _sitofp(op: Operation) -> None:
    source, result = vreg(op.source), vreg(op.result)  # type: ignore[attr-defined]
    _same_lanes(source, result)
    require(is_signed(source.element_type), "requires signed integer source element type")
    require(
        is_float_like(result.element_type),
        "requires floating-point-like result element type",
    )
    require(
        storage_bits(source.element_type) == 32,
        "requires 32-bit integer source element type",
    )
    require(isinstance(result.element_type, Float32Type), "requires f32 result element type")


def _int_extend(signed: bool) -> Rule:
    def rule(op: Operation) -> None:
        source, result = vreg(op.source), vreg(op.result)  # type: ignore[attr-defined]
        _same_lanes(source, result)
        a, b = source.element_type, result.element_type
        if signed:
            require(
                is_signed(a) and is_signed(b),
                "requires signed integer source and result element types",
            )
        else:
            require(
                is_unsigned_or_signless(a) and is_unsigned_or_signless(b),
                "requires unsigned or signless integer source and result element types",
            )
        require(
            storage_bits(a) < storage_bits(b),
            "requires result element type to be wider than source element type",
        )

    return rule


def _trunci(op: Operation) -> None:
    source, result = vreg(op.source), vreg(op.result)  # type: ignore[attr-defined]
    _same_lanes(source, result)
    a, b = source.element_type, result.element_type
    require(
        is_int_like(a) and is_int_like(b),
        "requires integer source and result element types",
    )
    require(
        storage_bits(a) > storage_bits(b),
        "requires result element type to be narrower than source element type",
    )
    _saturate_given(op, "'saturate' attribute is required (SAT or NOSAT)")


def _bitcast(op: Operation) -> None:
    source, result = vreg(op.source), vreg(op.result)  # type: ignore[attr-defined]
    a, b = storage_bits(source.element_type), storage_bits(result.element_type)
    require(
        a != 0 and b != 0,
        "requires integer or floating-point source and result element types",
    )
    require(
        source.count.data * a == result.count.data * b,
        "requires source and result to carry the same total number of bits",
    )
    _layouts_both_or_neither(source, result)
    if layout_of(source) is not None:
        require(source.layout == result.layout, "requires source and result layouts to match")


def _cvt_direction(op: Operation, a: Attribute, b: Attribute, contract: FpContract | None) -> str:
    """vcvt's direction: fp-widen, fp-narrow, fp-to-si, fp-to-ui, si-to-fp, int-widen,
    int-narrow (PTOAS's classification, with its errors for pairs it has no form of)."""
    a_bits, b_bits = storage_bits(a), storage_bits(b)
    if is_float_like(a) and is_float_like(b):
        if b_bits > a_bits:
            return "fp-widen"
        require(
            b_bits < a_bits or contract is not None,
            "same-width fp-to-fp conversion is not supported for this type pair",
        )
        return "fp-narrow"
    if is_float_like(a) and is_int_like(b):
        return "fp-to-ui" if is_unsigned_or_signless(b) else "fp-to-si"
    if is_int_like(a) and is_float_like(b):
        require(
            is_signed(a),
            "int-to-fp conversion requires explicitly signed integer source element type",
        )
        return "si-to-fp"
    if is_int_like(a) and is_int_like(b):
        require(a_bits != b_bits, "int-to-int conversion must change element bit-width")
        return "int-widen" if b_bits > a_bits else "int-narrow"
    raise VerifyException("unsupported element type combination for vcvt")


def _vcvt(op: Operation) -> None:
    source, result = vreg(op.source), vreg(op.result)  # type: ignore[attr-defined]
    _same_lanes(source, result)
    a, b = source.element_type, result.element_type
    both_float = is_float_like(a) and is_float_like(b)
    contract = fp_contract(a, b) if both_float else None
    require(
        not _involves(lambda t: isinstance(t, BF16x2Type), a, b) or contract is not None,
        "unsupported conversion involving bf16x2 element type",
    )
    require(
        not (both_float and _involves(is_packed_float, a, b)) or contract is not None,
        "unsupported packed fp-to-fp conversion element type pair",
    )
    direction = _cvt_direction(op, a, b, contract)
    _cvt_rounding(op, direction, contract)
    _cvt_saturate(op, direction, contract, a, b)
    _quoted_pmode(op)


def _cvt_rounding(op: Operation, direction: str, contract: FpContract | None) -> None:
    rounding = string_prop(op, "rounding")
    if rounding is None:
        return
    require(
        direction in ("fp-narrow", "fp-to-si", "fp-to-ui"),
        "'rounding' attribute is only valid for floating-point narrowing or "
        "floating-point-to-integer conversions",
    )
    require(len(rounding) == 1, "rounding must be a single-character mode token")
    if direction == "fp-narrow":
        special = contract is not None and bool(contract.rounding_modes)
        allowed = contract.rounding_modes if special and contract else "RAHZ"
        require(
            rounding in allowed,
            "rounding is not valid for this fp-to-fp conversion type pair"
            if special
            else "rounding must be 'R' (nearest-even), 'A' (away-from-zero), 'H' (half-up), "
            "or 'Z' (toward-zero)",
        )
    else:
        require(
            rounding in "RAFCZ",
            "rounding must be 'R', 'A', 'F', 'C', or 'Z' for floating-point-to-integer conversions",
        )


def _cvt_saturate(
    op: Operation, direction: str, contract: FpContract | None, a: Attribute, b: Attribute
) -> None:
    given = has_prop(op, "saturate")
    if direction in ("fp-to-si", "fp-to-ui"):
        kind = direction[-2:]
        saturates = fp_to_si_saturates(a, b) if kind == "si" else fp_to_ui_saturates(a, b)
        require(saturates is not None, f"unsupported fp-to-{kind} conversion element type pair")
        if saturates:
            _saturate_given(
                op,
                f"'saturate' attribute is required for this fp-to-{kind} conversion; "
                "write 'SAT' or 'NOSAT'",
                "saturate",
            )
        else:
            require(
                not given,
                f"'saturate' attribute is not valid for this fp-to-{kind} conversion "
                "(no overflow possible)",
            )
        return
    needs = direction == "int-narrow" or (
        direction == "fp-narrow" and (contract is None or contract.saturates)
    )
    if needs:
        _saturate_given(
            op,
            "'saturate' attribute is required for fp-narrow / int-narrow conversions; "
            "write 'SAT' or 'NOSAT'",
            "saturate",
        )
        require(
            not (
                direction == "int-narrow"
                and string_prop(op, "saturate") == "SAT"
                and storage_bits(a) == 32
                and storage_bits(b) == 8
                and is_signed(a)
                and is_signed(b)
            ),
            'si32 -> si8 int-narrow does not support saturate="SAT" (no native hardware '
            'form; only saturate="NOSAT" is allowed)',
        )
    elif given and direction == "fp-narrow":
        raise VerifyException(
            "'saturate' attribute is not valid for this fp-to-fp narrow conversion (no saturation)"
        )
    elif given:
        raise VerifyException(
            "'saturate' attribute is only valid for fp-narrow / int-narrow conversions"
        )


# -- memory ---------------------------------------------------------------------------


def _ub_data(memory: Attribute, data: VMIVRegType, role: str) -> None:
    memory_matches(memory, data, role)
    ub_memory(memory, role)


def contiguous_if_assigned(data: VMIVRegType, role: str) -> None:
    layout = layout_of(data)
    require(
        layout is None or is_contiguous(layout),
        f"requires layout-assigned {role} to use #pto.vmi.layout<contiguous>",
    )


def packed_byte_store(memory: Attribute, value: VMIVRegType) -> bool:
    """A grouped store of i32 lanes into byte memory (one byte per lane), which need
    not match the memory's element type."""
    element = memory_element(memory)
    return element is not None and is_int(element, 8) and is_int(value.element_type, 32)


def _load(op: Operation) -> None:
    _ub_data(op.source.type, vreg(op.result), "source")  # type: ignore[attr-defined]


def _store(op: Operation) -> None:
    _ub_data(op.destination.type, vreg(op.value), "destination")  # type: ignore[attr-defined]


def _deinterleave_load(op: Operation) -> None:
    low, high = vreg(op.low), vreg(op.high)  # type: ignore[attr-defined]
    same_vregs([low, high])
    _ub_data(op.source.type, low, "source")  # type: ignore[attr-defined]
    contiguous_if_assigned(low, "low result")
    contiguous_if_assigned(high, "high result")


def _interleave_store(op: Operation) -> None:
    low, high = vreg(op.low), vreg(op.high)  # type: ignore[attr-defined]
    same_vregs([low, high])
    _ub_data(op.destination.type, low, "destination")  # type: ignore[attr-defined]
    contiguous_if_assigned(low, "low input")
    contiguous_if_assigned(high, "high input")


def _group_load(op: Operation) -> None:
    result = vreg(op.result)  # type: ignore[attr-defined]
    _ub_data(op.source.type, result, "source")  # type: ignore[attr-defined]
    num_groups_divide(result, int_prop(op, "num_groups") or 0)


def _group_slot_load(op: Operation) -> None:
    result = vreg(op.result)  # type: ignore[attr-defined]
    groups = int_prop(op, "num_groups") or 0
    require(
        result.count.data == groups,
        "requires result logical lane count to match num_groups",
    )
    _ub_data(op.source.type, result, "source")  # type: ignore[attr-defined]
    layout = layout_of(result)
    require(
        layout is None or (is_group_slots(layout) and layout.factor.data == groups),
        f"requires layout-assigned result to use #pto.vmi.layout<num_groups = {groups}>",
    )
    num_groups_divide(result, groups)


def _group_broadcast_load(op: Operation) -> None:
    result = vreg(op.result)  # type: ignore[attr-defined]
    groups = int_prop(op, "num_groups") or 0
    require(groups > 0, "requires num_groups to be positive")
    require(
        result.count.data % groups == 0,
        "requires num_groups to evenly divide result logical lane count",
    )
    _ub_data(op.source.type, result, "source")  # type: ignore[attr-defined]
    require(
        not is_group_slots(layout_of(result)),
        "requires layout-assigned result to use a dense VMI layout",
    )


def _group_store(op: Operation) -> None:
    value = vreg(op.value)  # type: ignore[attr-defined]
    memory = op.destination.type  # type: ignore[attr-defined]
    if not packed_byte_store(memory, value):
        memory_matches(memory, value, "destination")
    ub_memory(memory, "destination")
    num_groups_divide(value, int_prop(op, "num_groups") or 0)


def _masked_load(op: Operation) -> None:
    result = vreg(op.result)  # type: ignore[attr-defined]
    _ub_data(op.source.type, result, "source")  # type: ignore[attr-defined]
    same_vregs([vreg(op.passthru), result])  # type: ignore[attr-defined]
    mask_fits(op.mask.type, result)  # type: ignore[attr-defined]


def _indices_element(indices: VMIVRegType) -> int:
    element = indices.element_type
    require(
        is_int(element, 16, 32) and not is_signed(element),
        "requires signless or unsigned 16-bit or 32-bit integer indices",
    )
    return _width(element) or 0


def _gather(op: Operation) -> None:
    indices, passthru, result = vreg(op.indices), vreg(op.passthru), vreg(op.result)  # type: ignore[attr-defined]
    _ub_data(op.source.type, result, "source")  # type: ignore[attr-defined]
    width = _indices_element(indices)
    same_vregs([indices, passthru, result], same_element=False)
    same_vregs([passthru, result])
    element = result.element_type
    require(
        width != 16
        or (
            isinstance(element, IntegerType)
            and element.signedness.data == Signedness.UNSIGNED
            and element.width.data == 16
        ),
        "requires ui16 result and passthru element type when using ui16 indices",
    )
    mask_fits(op.mask.type, result)  # type: ignore[attr-defined]


def _masked_store(op: Operation) -> None:
    value = vreg(op.value)  # type: ignore[attr-defined]
    _ub_data(op.destination.type, value, "destination")  # type: ignore[attr-defined]
    mask_fits(op.mask.type, value)  # type: ignore[attr-defined]


def _stride_load(op: Operation) -> None:
    result = vreg(op.result)  # type: ignore[attr-defined]
    _ub_data(op.source.type, result, "source")  # type: ignore[attr-defined]
    mask_fits(op.mask.type, result)  # type: ignore[attr-defined]


def _scatter(op: Operation) -> None:
    value, indices = vreg(op.value), vreg(op.indices)  # type: ignore[attr-defined]
    _ub_data(op.destination.type, value, "destination")  # type: ignore[attr-defined]
    _indices_element(indices)
    same_vregs([value, indices], same_element=False)
    mask_fits(op.mask.type, value)  # type: ignore[attr-defined]


def _shuffle(op: Operation) -> None:
    source, result = vreg(op.source), vreg(op.result)  # type: ignore[attr-defined]
    require(
        source.element_type == result.element_type,
        "requires result element type to match source element type",
    )
    indices = _int_list(op.properties.get("indices") or op.attributes.get("indices"))
    require(
        len(indices) == result.count.data,
        "requires shuffle index count to match result logical lane count",
    )
    require(
        all(0 <= index < source.count.data for index in indices),
        "requires every shuffle index to select an existing source logical lane",
    )
    _layouts_both_or_neither(source, result)


def _int_list(attr: Attribute | None) -> list[int]:
    """The integers of a `array<i64: ...>` or `[1, 2]` attribute."""
    data = getattr(attr, "data", None)
    if data is None:
        return []
    if hasattr(attr, "get_values"):
        return list(attr.get_values())  # type: ignore[union-attr]
    values = []
    for item in data:
        inner = getattr(item, "value", item)
        values.append(getattr(inner, "data", inner))
    return [v for v in values if isinstance(v, int)]


# -- channels and layout helpers --------------------------------------------------------


def _deinterleaved_by(layout: VMILayoutAttr, channels: int) -> bool:
    return (
        layout.kind.data == "deinterleaved"
        and layout.factor.data == channels
        and layout.lane_stride.data == 1
    )


def _channel_layouts(whole: VMIVRegType, channels: list[VMIVRegType], split: bool) -> None:
    """Channels with layout are contiguous; the whole vector is contiguous or
    deinterleaved by the channel count (for 2 or 4 channels)."""
    name = "channel_split" if split else "channel_merge"
    whole_role, part_role = ("source", "result") if split else ("result", "input")
    if layout_of(whole) is None and all(layout_of(c) is None for c in channels):
        return
    require(
        layout_of(whole) is not None,
        f"requires layout-assigned {name} {whole_role} when any channel {part_role} has layout",
    )
    for channel in channels:
        require(
            layout_of(channel) is not None,
            f"requires every {name} {part_role} to carry layout when {whole_role} has layout",
        )
        require(
            is_contiguous(layout_of(channel)),
            f"requires layout-assigned {name} {part_role}s to be contiguous",
        )
    layout = layout_of(whole)
    assert layout is not None
    if len(channels) in (2, 4):
        require(
            is_contiguous(layout) or _deinterleaved_by(layout, len(channels)),
            f"requires layout-assigned {name} {whole_role} to be contiguous or deinterleaved "
            f"by {part_role} count",
        )


def _channel_split(op: Operation) -> None:
    source = vreg(op.source)  # type: ignore[attr-defined]
    results = [r.type for r in op.results]
    require(len(results) >= 2, "requires at least two channel results")
    require(
        source.count.data == len(results) * results[0].count.data,
        "requires source lane count to equal result count times per-channel lane count",
    )
    require(
        all(
            r.count.data == results[0].count.data and r.element_type == source.element_type
            for r in results
        ),
        "requires every channel result to have equal lane count and source element type",
    )
    _channel_layouts(source, results, split=True)


def _channel_merge(op: Operation) -> None:
    inputs = [v.type for v in op.operands]
    result = vreg(op.result)  # type: ignore[attr-defined]
    require(len(inputs) >= 2, "requires at least two channel inputs")
    first = inputs[0]
    require(
        all(
            i.count.data == first.count.data and i.element_type == first.element_type
            for i in inputs
        ),
        "requires all channel inputs to have the same lane count and element type",
    )
    require(
        result.count.data == len(inputs) * first.count.data
        and result.element_type == first.element_type,
        "requires result lane count and element type to match merged channels",
    )
    _channel_layouts(result, inputs, split=False)


def _both_layout_assigned(source: Attribute, result: Attribute) -> None:
    require(
        layout_of(source) is not None and layout_of(result) is not None,
        "requires source and result to be layout-assigned",
    )


def _ensure_layout(op: Operation) -> None:
    source, result = vreg(op.source), vreg(op.result)  # type: ignore[attr-defined]
    require(
        source.count.data == result.count.data and source.element_type == result.element_type,
        "requires source and result to preserve VMI data shape and element type",
    )
    _both_layout_assigned(source, result)


def _ensure_mask_layout(op: Operation) -> None:
    source, result = op.source.type, op.result.type  # type: ignore[attr-defined]
    require(
        source.count.data == result.count.data and source.granularity == result.granularity,
        "requires source and result to preserve VMI mask shape and granularity",
    )
    _both_layout_assigned(source, result)


def _ensure_mask_granularity(op: Operation) -> None:
    source, result = op.source.type, op.result.type  # type: ignore[attr-defined]
    require(
        source.count.data == result.count.data,
        "requires source and result to preserve VMI mask lane count",
    )
    require(
        "pred" not in (source.granularity.data, result.granularity.data),
        "requires concrete source and result mask granularities",
    )
    _layouts_both_or_neither(source, result)


# -- stores, lane selects, interleaves, compares ------------------------------------------

STORE_MERGE = (
    'pmode "merge" is not supported for stores: the store is governed by its mask alone '
    'and cannot keep the destination\'s inactive blocks; omit pmode (it defaults to "zero")'
)


def _vsstb(op: Operation) -> None:
    value = vreg(op.value)  # type: ignore[attr-defined]
    _ub_data(op.destination.type, value, "destination")  # type: ignore[attr-defined]
    mode = string_prop(op, "pmode")
    require(mode in (None, "zero", "merge"), f'invalid pmode: "{mode}"')
    require(mode in (None, "zero"), STORE_MERGE)
    mask_fits(op.mask.type, value)  # type: ignore[attr-defined]


def _vselr(op: Operation) -> None:
    source, index, result = vreg(op.source), vreg(op.index), vreg(op.result)  # type: ignore[attr-defined]
    require(
        source.element_type == result.element_type,
        "requires result element type to match source element type",
    )
    require(
        index.count.data == result.count.data,
        "requires index lane count to match result lane count",
    )
    require(is_int(index.element_type), "requires index element type to be integer")
    bits = storage_bits(source.element_type)
    require(
        bits in (8, 16, 32),
        "requires source/result element storage width to be 8, 16, or 32 bits",
    )
    require(
        storage_bits(index.element_type) == bits,
        "requires index element storage width to match source element storage width",
    )
    require(
        (layout_of(source) is None) == (layout_of(result) is None),
        "requires source and result to both carry layout or neither carry layout",
    )
    require(
        layout_of(index) is None or layout_of(source) is not None,
        "requires index to carry layout only when source does",
    )


def _interleave(op: Operation) -> None:
    lhs = vreg(op.lhs)  # type: ignore[attr-defined]
    types = [lhs, vreg(op.rhs), vreg(op.low), vreg(op.high)]  # type: ignore[attr-defined]
    same_vregs(types, layout=False)
    mask_fits(op.mask.type, lhs)  # type: ignore[attr-defined]
    pmode_ok(op)


VCMP_PREDICATES = ("eq", "ne", "lt", "le", "gt", "ge", "oeq", "one", "olt", "ole", "ogt", "oge")


def _vcmp(scalar: bool) -> Rule:
    def rule(op: Operation) -> None:
        lhs = vreg(op.src if scalar else op.lhs)  # type: ignore[attr-defined]
        element = lhs.element_type
        no_bf16x2(element)
        require(
            is_i8_16_32_or_f16_bf16_f32(element),
            "requires i8, i16, i32, f16, bf16, or f32 VMI element type",
        )
        predicate = string_prop(op, "cmp") or ""
        require(
            not (is_int_like(element) and predicate.startswith("o")),
            "requires integer compare predicate eq/ne/lt/le/gt/ge; signedness is selected "
            "by the integer element type",
        )
        if scalar:
            given = op.scalar.type  # type: ignore[attr-defined]
            require(
                given == element,
                f"requires scalar type to match vector element type, got scalar {given} vs "
                f"vector element {element}",
            )
        else:
            same_vregs([lhs, vreg(op.rhs)])  # type: ignore[attr-defined]
        require(
            predicate in VCMP_PREDICATES,
            f"unsupported compare predicate '{predicate}'; expected eq/ne/lt/le/gt/ge, or "
            "oeq/one/olt/ole/ogt/oge",
        )
        mode = string_prop(op, "pmode")
        require(
            mode in (None, "zeroing", "merge"),
            f'unsupported pmode \'{mode}\'; expected "zeroing" or "merge"',
        )
        seed: VMIMaskType = op.seed.type  # type: ignore[attr-defined]
        mask_fits(seed, lhs)
        require(
            seed.count.data == op.result.type.count.data,  # type: ignore[attr-defined]
            "requires result mask lane count to match seed mask lane count",
        )

    return rule


# -- the table ------------------------------------------------------------------------

_ANY_ARITH = (
    is_i8_16_32_or_f16_bf16_f32,
    "requires i8, i16, i32, f16, bf16, or f32 VMI element type",
)
_MUL = (is_i16_32_or_f16_bf16_f32, "requires i16, i32, f16, bf16, or f32 VMI element type")

VMI_RULES: dict[str, Rule] = {
    # legacy arithmetic
    "vmi.addf": _legacy_binary(_FLOAT_LIKE, _F16_BF16_F32),
    "vmi.subf": _legacy_binary(_FLOAT_LIKE, _F16_BF16_F32),
    "vmi.mulf": _legacy_binary(_FLOAT_LIKE, _F16_BF16_F32),
    "vmi.minf": _legacy_binary(_FLOAT_LIKE, _F16_BF16_F32),
    "vmi.maxf": _legacy_binary(_FLOAT_LIKE, _F16_BF16_F32),
    "vmi.divf": _legacy_binary(_FLOAT_LIKE, _F16_F32),
    "vmi.addi": _legacy_binary(_INT_LIKE, _I8_16_32),
    "vmi.subi": _legacy_binary(_INT_LIKE, _I8_16_32),
    "vmi.muli": _legacy_binary(
        _INT_LIKE, (lambda t: is_int(t, 16, 32), "requires i16 or i32 VMI element type")
    ),
    "vmi.mini": _legacy_binary(
        None, (is_i8_i16_i32, "requires i8, i16, or i32 integer-like VMI element type")
    ),
    "vmi.maxi": _legacy_binary(
        None, (is_i8_i16_i32, "requires i8, i16, or i32 integer-like VMI element type")
    ),
    "vmi.andi": _legacy_binary(_INT_LIKE, _I8_16_32),
    "vmi.ori": _legacy_binary(_INT_LIKE, _I8_16_32),
    "vmi.xori": _legacy_binary(_INT_LIKE, _I8_16_32),
    "vmi.shli": _legacy_binary(_INT_LIKE, _I8_16_32),
    "vmi.shrui": _legacy_binary(
        (_shrui_element, "requires signless or unsigned integer VMI element type"), _I8_16_32
    ),
    "vmi.shrsi": _legacy_binary(
        None, (is_si8_16_32, "requires signed i8, i16, or i32 VMI element type")
    ),
    "vmi.fma": _fma,
    "vmi.negf": _float_unary(*_F16_F32),
    "vmi.absf": _float_unary(*_F16_F32),
    "vmi.sqrt": _float_unary(*_F16_F32),
    "vmi.exp": _float_unary(*_F16_F32),
    "vmi.ln": _float_unary(*_F16_F32),
    "vmi.negi": _unary(*_I8_16_32),
    "vmi.absi": _unary(is_si8_16_32, "requires si8, si16, or si32 VMI element type"),
    "vmi.relu": _unary(_relu_element, "requires si32, f16, or f32 VMI element type"),
    "vmi.not": _unary(*_I8_16_32),
    "vmi.cmpf": _compare(_FLOAT_LIKE, _F16_BF16_F32),
    "vmi.cmpi": _compare(_INT_LIKE, _I8_16_32),
    "vmi.select": _select,
    "vmi.mask_and": _mask_logic,
    "vmi.mask_or": _mask_logic,
    "vmi.mask_xor": _mask_logic,
    "vmi.mask_not": _mask_logic,
    "vmi.active_prefix_index": _active_prefix_index,
    "vmi.compress": _compress,
    "vmi.compress_store": _compress_store,
    # reductions and groups
    "vmi.reduce_addi": _reduce_addi,
    "vmi.reduce_addf": _reduce_float(needs_reassoc=True),
    "vmi.reduce_maxf": _reduce_float(needs_reassoc=False),
    "vmi.reduce_minf": _reduce_float(needs_reassoc=False),
    "vmi.reduce_maxi": _reduce_int,
    "vmi.reduce_mini": _reduce_int,
    "vmi.group_reduce_addf": _group_reduce(is_float=True, needs_reassoc=True),
    "vmi.group_reduce_maxf": _group_reduce(is_float=True),
    "vmi.group_reduce_minf": _group_reduce(is_float=True),
    "vmi.group_reduce_addi": _group_reduce(is_float=False),
    "vmi.group_reduce_maxi": _group_reduce(is_float=False),
    "vmi.group_reduce_mini": _group_reduce(is_float=False),
    "vmi.group_broadcast": _group_broadcast,
    "vmi.vdhist": _histogram,
    "vmi.vchist": _histogram,
    # constants, broadcasts, iotas, masks
    "vmi.constant": _constant,
    "vmi.constant_mask": _constant_mask,
    "vmi.broadcast": _broadcast,
    "vmi.vbrc": _vbrc,
    "vmi.iota": _iota(None),
    "vmi.vci": _iota("optional"),
    "vmi.group_iota": _iota("required"),
    "vmi.create_group_mask": _create_group_mask,
    "vmi.pset": _pset,
    "vmi.pge": _pge,
    "vmi.plt": _plt,
    # conversions
    "vmi.extf": _extf,
    "vmi.truncf": _truncf,
    "vmi.fptosi": _fp_to_int(signed=True),
    "vmi.fptoui": _fp_to_int(signed=False),
    "vmi.sitofp": _sitofp,
    "vmi.extsi": _int_extend(signed=True),
    "vmi.extui": _int_extend(signed=False),
    "vmi.trunci": _trunci,
    "vmi.bitcast": _bitcast,
    "vmi.vinterpret_cast": _bitcast,
    "vmi.vcvt": _vcvt,
    # memory
    "vmi.load": _load,
    "vmi.store": _store,
    "vmi.deinterleave_load": _deinterleave_load,
    "vmi.interleave_store": _interleave_store,
    "vmi.group_load": _group_load,
    "vmi.group_slot_load": _group_slot_load,
    "vmi.group_broadcast_load": _group_broadcast_load,
    "vmi.group_store": _group_store,
    "vmi.masked_load": _masked_load,
    "vmi.expand_load": _masked_load,
    "vmi.gather": _gather,
    "vmi.masked_store": _masked_store,
    "vmi.stride_load": _stride_load,
    "vmi.stride_store": _masked_store,
    "vmi.scatter": _scatter,
    "vmi.shuffle": _shuffle,
    "vmi.channel_split": _channel_split,
    "vmi.channel_merge": _channel_merge,
    "vmi.ensure_layout": _ensure_layout,
    "vmi.ensure_mask_layout": _ensure_mask_layout,
    "vmi.ensure_mask_granularity": _ensure_mask_granularity,
    # unified ops
    "vmi.vadd": _unified_binary(*_ANY_ARITH),
    "vmi.vsub": _unified_binary(*_ANY_ARITH),
    "vmi.vmul": _unified_binary(*_MUL),
    "vmi.vdiv": _unified_binary(*_F16_F32),
    "vmi.vmin": _unified_binary(*_ANY_ARITH),
    "vmi.vmax": _unified_binary(*_ANY_ARITH),
    "vmi.vshl": _unified_binary(*_INT_LIKE, bf16x2_first=False),
    "vmi.vshr": _unified_binary(is_int, "requires integer VMI element type", bf16x2_first=False),
    "vmi.vneg": _unified_unary(
        is_i8_16_32_or_f16_f32, "requires i8, i16, i32, f16, or f32 VMI element type"
    ),
    "vmi.vabs": _unified_unary(
        lambda t: is_si8_16_32(t) or is_f16_bf16_f32(t),
        "requires si8, si16, si32, f16, bf16, or f32 VMI element type",
    ),
    "vmi.vsqrt": _unified_unary(*_F16_F32, float_unary=True),
    "vmi.vexp": _unified_unary(*_F16_F32, float_unary=True),
    "vmi.vln": _unified_unary(*_F16_F32, float_unary=True),
    "vmi.vrelu": _unified_unary(_relu_element, "requires si32, f16, or f32 VMI element type"),
    "vmi.vand": _unified_logic(*_INT_LIKE),
    "vmi.vor": _unified_logic(*_INT_LIKE),
    "vmi.vxor": _unified_logic(*_INT_LIKE),
    "vmi.vnot": _unified_logic(*_INT_LIKE, unary=True),
    "vmi.vsel": _select,
    "vmi.vadds": _vector_scalar(is_i8_16_32_or_f16_bf16_f32, _ANY_ARITH[1], bf16x2_first=True),
    "vmi.vmuls": _vector_scalar(
        lambda t: is_int(t, 16, 32) or is_f16_f32(t),
        "requires i16, i32, f16, or f32 VMI element type",
        bf16x2_first=False,
    ),
    "vmi.vmaxs": _vector_scalar(is_i8_16_32_or_f16_bf16_f32, _ANY_ARITH[1], bf16x2_first=False),
    "vmi.vmins": _vector_scalar(is_i8_16_32_or_f16_bf16_f32, _ANY_ARITH[1], bf16x2_first=False),
    "vmi.vshls": _vector_scalar_shift,
    "vmi.vshrs": _vector_scalar_shift,
    "vmi.vcadd": _lane_reduce(is_add=True),
    "vmi.vcmax": _lane_reduce(is_add=False),
    "vmi.vcmin": _lane_reduce(is_add=False),
    "vmi.vgather": _vgather(blocked=False),
    "vmi.vgatherb": _vgather(blocked=True),
    "vmi.vscatter": _vscatter,
    "vmi.vexpdif": _vexpdif,
    "vmi.vaxpy": _vaxpy,
    "vmi.vlrelu": _vlrelu,
    "vmi.vprelu": _vprelu,
    "vmi.vaddc": _add_carry,
    "vmi.vaddcs": _add_carry,
    "vmi.vmull": _vmull,
    "vmi.vmula": _vmula,
    "vmi.vsstb": _vsstb,
    "vmi.vselr": _vselr,
    "vmi.vintlv": _interleave,
    "vmi.vdintlv": _interleave,
    "vmi.vcmp": _vcmp(scalar=False),
    "vmi.vcmps": _vcmp(scalar=True),
}


# -- physical parts (pack / unpack) -----------------------------------------------------

MASK_LANES = {"b8": 256, "b16": 128, "b32": 64}


def _mask_carrier(mask: VMIMaskType) -> str | None:
    """The `!pto.mask` granularity that carries a concrete mask: its own, widened by
    the layout's lane stride."""
    if mask.granularity.data == "pred":
        return None
    layout = layout_of(mask)
    stride = layout.lane_stride.data if layout is not None else 1
    bits = int(mask.granularity.data[1:]) * stride
    return f"b{bits}" if bits in (8, 16, 32) else None


def _lanes_per_part(type_: Attribute) -> int:
    if isinstance(type_, VMIVRegType):
        return lanes_per_register(type_.element_type)
    carrier = _mask_carrier(type_)  # type: ignore[arg-type]
    return MASK_LANES[carrier] if carrier else 0


def physical_arity(type_: Attribute) -> int | None:
    """How many registers a layout-assigned logical vector or mask occupies (PTOAS's
    `getVMIPhysicalArity`); None where it cannot be said."""
    layout = layout_of(type_)
    per_part = _lanes_per_part(type_)
    if layout is None or per_part <= 0:
        return None
    count = type_.count.data  # type: ignore[attr-defined]
    if is_group_slots(layout) and layout.slots.data > 0:
        return -(-layout.factor.data // layout.slots.data)
    factor = layout.factor.data if is_dense_split(layout) else 1
    block = 1
    if layout.kind.data == "block_deinterleaved":
        if per_part % 8:
            return None
        block = per_part // 8
    dense = layout.kind.data in ("contiguous", "deinterleaved")
    stride = layout.lane_stride.data if dense and isinstance(type_, VMIVRegType) else 1
    lanes_in_part = [0] * factor
    for lane in range(count):
        blocks, within = divmod(lane, block)
        part_block, part = divmod(blocks, factor)
        lanes_in_part[part] = max(lanes_in_part[part], part_block * block + within + 1)
    physical = [0 if n == 0 else (n - 1) * stride + 1 for n in lanes_in_part]
    return sum(-(-lanes // per_part) for lanes in physical)


def physical_parts(logical: Attribute, parts: Sequence[Attribute]) -> None:
    arity = physical_arity(logical)
    require(arity is not None, "requires a layout-assigned VMI type with computable physical arity")
    require(len(parts) == arity, f"requires {arity} physical parts, got {len(parts)}")
    if isinstance(logical, VMIVRegType):
        per_part = _lanes_per_part(logical)
        for part in parts:
            require(isinstance(part, VRegType), "requires physical data parts to be !pto.vreg")
            require(
                part.count.data == per_part  # type: ignore[attr-defined]
                and part.element_type == logical.element_type,  # type: ignore[attr-defined]
                "requires physical data part type to match VMI lane-map helper",
            )
        return
    require(isinstance(logical, VMIMaskType), "requires VMI data or mask type")
    require(
        logical.granularity.data != "pred",  # type: ignore[attr-defined]
        "requires layout-assigned mask with concrete granularity",
    )
    carrier = _mask_carrier(logical)  # type: ignore[arg-type]
    require(
        carrier is not None,
        "requires mask type with supported physical carrier granularity",
    )
    for part in parts:
        require(isinstance(part, MaskType), "requires physical mask parts to be !pto.mask")
        require(
            part.granularity.data == carrier,  # type: ignore[attr-defined]
            "requires physical mask part granularity to match VMI mask carrier",
        )


def _unpack(op: Operation) -> None:
    physical_parts(op.source.type, [r.type for r in op.results])  # type: ignore[attr-defined]


def _pack(op: Operation) -> None:
    physical_parts(op.result.type, [v.type for v in op.operands])  # type: ignore[attr-defined]


VMI_RULES["vmi.unpack"] = _unpack
VMI_RULES["vmi.pack"] = _pack
