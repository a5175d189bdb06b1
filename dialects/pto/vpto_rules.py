"""PTOAS's verifier rules for the register-level (VPTO) ops built from the op table.

As `vmi_rules` does for `pto.vmi.*`: what PTOAS's C++ `verify()` methods of its
VPTO micro-ops check beyond the operands' type constraints (registers of one shape,
low-precision elements only where an op moves or converts them, masks of the
granularity a gather or scatter needs, post-update bases of the base's type, L1
fills' geometry, no synchronization inside a vector scope), keyed by op name in
`VPTO_RULES`. Each rule raises `VerifyException` with PTOAS's message.
"""

from __future__ import annotations

from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    IntegerAttr,
    IntegerType,
    MemRefType,
    Signedness,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.types import PTR_SPACES, PtrType
from xla_emit.dialects.pto.vmi_rules import (
    Rule,
    int_prop,
    is_f4x2,
    is_int,
    is_low_precision,
    require,
    scalar_fits,
    storage_bits,
    string_prop,
)
from xla_emit.dialects.pto.vpto_types import (
    BF16x2Type,
    F4E1M2x2Type,
    F4E2M1x2Type,
    HiF8Type,
    MaskType,
    VRegType,
)

# -- shared checks -------------------------------------------------------------------

LOW_PRECISION_NOTE = (
    "must not use low-precision vector element type; low-precision vreg elements are "
    "currently only supported on explicit memory/conversion ops such as "
    "vlds/vsts/vcvt/vmulscvt/vpack"
)


def not_low_precision(type_: Attribute, role: str) -> None:
    require(
        not (isinstance(type_, VRegType) and is_low_precision(type_.element_type)),
        f"{role} {LOW_PRECISION_NOTE}",
    )


def mask_granularity(type_: Attribute, role: str, granularity: str) -> None:
    require(
        isinstance(type_, MaskType) and type_.granularity.data == granularity,
        f"{role} must be !pto.mask<{granularity}>",
    )


def constant_int(value: SSAValue) -> int | None:
    """The value of an `arith.constant` integer operand; None for any other value."""
    owner = value.owner
    if isinstance(owner, ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def memory_space(type_: Attribute) -> str | None:
    """A pointer's or memref's PTO address space, by PTOAS's `ptr` names."""
    if isinstance(type_, PtrType):
        return type_.space.data
    if isinstance(type_, MemRefType):
        space = type_.memory_space
        name = getattr(space, "data", None)
        if isinstance(name, str):
            return PTR_SPACES.get(name, name)
    return None


SPACE_NAMES = {"gm": "gm", "ub": "vec/ub", "l1": "mat/l1", "l0a": "l0a/left", "l0b": "l0b/right"}


# -- arithmetic ----------------------------------------------------------------------


def _binary(bitwise: bool) -> Rule:
    """vadd/vsub/vmul/vdiv (no low-precision lanes) and vand/vor/vxor (8-bit
    low-precision payloads, not bf16x2): lhs, rhs and result of one vector type."""

    def rule(op: Operation) -> None:
        lhs = op.lhs.type  # type: ignore[attr-defined]
        if bitwise:
            require(
                not isinstance(lhs.element_type, BF16x2Type),
                "does not support bf16x2 vector elements; low-precision bitwise operations "
                "require an 8-bit payload type",
            )
        else:
            not_low_precision(lhs, "lhs type")
        require(
            lhs == op.rhs.type == op.result.type,  # type: ignore[attr-defined]
            "requires matching register vector shapes",
        )

    return rule


def _unary(op: Operation) -> None:
    not_low_precision(op.input.type, "operand type")  # type: ignore[attr-defined]
    require(
        op.input.type == op.result.type,  # type: ignore[attr-defined]
        "requires matching register vector shape",
    )


def _vrelu(op: Operation) -> None:
    _unary(op)
    element = op.input.type.element_type  # type: ignore[attr-defined]
    if isinstance(element, IntegerType):
        supported = element.width.data == 32 and not _is_unsigned(element)
    else:
        supported = isinstance(element, Float16Type | Float32Type)
    require(supported, "requires si32/i32/f16/f32 vector element type")


def _is_unsigned(element: Attribute) -> bool:
    return isinstance(element, IntegerType) and element.signedness.data == Signedness.UNSIGNED


def _shift(op: Operation) -> None:
    """vshl/vshr: integer lanes shifted by a signed count of their width, lane by lane."""
    lhs, rhs = op.lhs.type, op.rhs.type  # type: ignore[attr-defined]
    not_low_precision(lhs, "lhs type")
    require(is_int(lhs.element_type), "requires integer vector element type")
    require(lhs == op.result.type, "requires matching result register vector shape")  # type: ignore[attr-defined]
    require(lhs.count == rhs.count, "requires matching lane count for shift count")
    require(is_int(rhs.element_type), "requires integer vector element type for shift count")
    require(
        storage_bits(rhs.element_type) == storage_bits(lhs.element_type),
        "requires shift count with matching element bitwidth",
    )
    require(
        _is_signed(rhs.element_type),
        "requires shift count to use a signed integer element type",
    )


def _carry(op: Operation) -> None:
    """vaddc/vsubc (and their carry-in forms): 32-bit integer lanes of one type."""
    lhs = op.lhs.type  # type: ignore[attr-defined]
    require(
        lhs == op.rhs.type == op.result.type,  # type: ignore[attr-defined]
        "requires lhs, rhs, and result to have matching vector types",
    )
    require(is_int(lhs.element_type, 32), "currently requires 32-bit integer vector elements")


def _vector_scalar(op: Operation) -> None:
    """vadds/vmuls/vmaxs/vmins/vlrelu: `input OP scalar`."""
    input_ = op.input.type  # type: ignore[attr-defined]
    require(input_ == op.result.type, "input and result vector types must match")  # type: ignore[attr-defined]
    element, scalar = input_.element_type, op.scalar.type  # type: ignore[attr-defined]
    if scalar != element:
        require(
            is_int(element) and is_int(scalar) and storage_bits(element) == storage_bits(scalar),
            "scalar type must match vector element type",
        )
        require(
            scalar_fits(element, scalar),
            "integer scalar type must match vector element width and use matching signedness "
            "or signless i<width>",
        )
    not_low_precision(input_, "input type")


def _vsel(op: Operation) -> None:
    source = op.src0.type  # type: ignore[attr-defined]
    not_low_precision(source, "src0 type")
    require(
        source == op.src1.type == op.result.type,  # type: ignore[attr-defined]
        "requires src0, src1, and result to have identical vector types",
    )


def _vmulscvt(op: Operation) -> None:
    input_, result = op.input.type, op.result.type  # type: ignore[attr-defined]
    require(isinstance(input_.element_type, Float32Type), "requires f32 input vector element type")
    require(isinstance(result.element_type, Float16Type), "requires f16 result vector element type")
    require(isinstance(op.scalar.type, Float32Type), "requires f32 scalar operand")  # type: ignore[attr-defined]
    mask_granularity(op.mask.type, "mask type", "b32")  # type: ignore[attr-defined]
    rounding = (string_prop(op, "rnd") or "").removeprefix("ROUND_")
    require(rounding in ("R", "A", "F", "C", "Z", "O"), "rnd must be one of R/A/F/C/Z/O")
    require(rounding == "A", "currently only supports rnd A")
    part = (string_prop(op, "part") or "").upper()
    require(part in ("EVEN", "ODD", "PART_EVEN", "PART_ODD"), "part must be EVEN or ODD")


def _vscatter(op: Operation) -> None:
    value, offsets = op.value.type, op.offsets.type  # type: ignore[attr-defined]
    require(is_int(offsets.element_type), "offset vector must use integer element type")
    bits = storage_bits(value.element_type)
    require(bits in (8, 16, 32), "requires 8-, 16-, or 32-bit value elements")
    want = 32 if bits == 32 else 16
    require(
        storage_bits(offsets.element_type) == want,
        f"requires {want}-bit offset vector elements for {bits}-bit values",
    )
    count = value.count.data // 2 if bits == 8 else value.count.data
    require(
        offsets.count.data == count,
        f"requires {count} offsets for {value.count.data}x{bits}-bit values",
    )
    mask_granularity(op.mask.type, "mask type", "b32" if bits == 32 else "b16")  # type: ignore[attr-defined]
    destination = op.destination.type  # type: ignore[attr-defined]
    require(
        destination.element_type == value.element_type,
        "requires destination element type to match value element type",
    )
    require(memory_space(destination) != "gm", "requires a UB-backed destination")


def _same_integer_kind(source: Attribute, result: Attribute, result_bits: int) -> bool:
    """A gathered integer keeps its signedness (signless reads as signed)."""
    return (
        isinstance(source, IntegerType)
        and isinstance(result, IntegerType)
        and result.width.data == result_bits
        and _is_unsigned(source) == _is_unsigned(result)
    )


def _vgather2(op: Operation) -> None:
    """A gather of 8-bit (widened to 16), 16-bit or 32-bit elements from UB: offsets
    and mask of the width its lanes need, one register of results."""
    source = op.source.type  # type: ignore[attr-defined]
    offsets, result = op.offsets.type, op.result.type  # type: ignore[attr-defined]
    require(memory_space(source) != "gm", "requires a UB-backed source")
    require(is_int(offsets.element_type), "offset vector must use integer element type")
    require(
        offsets.count.data == result.count.data,
        "offset and result vectors must have the same element count",
    )
    element, lanes = source.element_type, result.element_type
    bits = storage_bits(element)
    if bits == 8 and is_int(element):
        require(
            _same_integer_kind(element, lanes, 16),
            "8-bit gather requires i8/ui8 source and matching i16/ui16 result",
        )
    elif bits == 16 and is_int(element):
        require(
            _same_integer_kind(element, lanes, 16),
            "16-bit integer gather requires matching i16/ui16 result",
        )
    elif bits == 16:
        require(
            isinstance(element, Float16Type | BFloat16Type) and element == lanes,
            "16-bit gather requires i16/ui16/f16/bf16 source and matching result",
        )
    elif bits == 32 and is_int(element):
        require(
            _same_integer_kind(element, lanes, 32),
            "32-bit integer gather requires matching i32/ui32 result",
        )
    elif bits == 32:
        require(
            isinstance(element, Float32Type) and element == lanes,
            "32-bit gather requires i32/ui32/f32 source and matching result",
        )
    else:
        raise VerifyException("requires source element type i8/ui8/i16/ui16/i32/ui32/f16/bf16/f32")
    width = 32 if bits == 32 else 16
    lanes_wanted = 2048 // width
    require(storage_bits(lanes) in (16, 32), "result element type must be 16-bit or 32-bit")
    require(
        result.count.data == lanes_wanted,
        f"expects result type !pto.vreg<{lanes_wanted}x{lanes}>",
    )
    require(
        is_int(offsets.element_type, width) and not _is_signed(offsets.element_type),
        f"requires ui{width}/i{width} offset vector elements",
    )
    mask_granularity(op.mask.type, "mask type", f"b{width}")  # type: ignore[attr-defined]


def _is_signed(element: Attribute) -> bool:
    return isinstance(element, IntegerType) and element.signedness.data == Signedness.SIGNED


VSTS_DISTRIBUTIONS = [
    "NORM_B8",
    "NORM_B16",
    "NORM_B32",
    "1PT_B8",
    "1PT_B16",
    "1PT_B32",
    "PK_B16",
    "PK_B32",
    "PK_B64",
    "PK4_B32",
    "MRG4CHN_B8",
    "MRG2CHN_B8",
    "MRG2CHN_B16",
]
# The mask a packing or merging store distribution reads, whatever the lanes' width.
VSTS_DIST_MASKS = {
    "MRG4CHN_B8": "b32",
    "MRG2CHN_B8": "b16",
    "MRG2CHN_B16": "b32",
    "PK_B16": "b16",
    "PK_B32": "b32",
    "PK_B64": "b32",
    "PK4_B32": "b32",
}


def _vsts(op: Operation) -> None:
    require(memory_space(op.destination.type) != "gm", "requires a UB-backed destination")  # type: ignore[attr-defined]
    dist = string_prop(op, "dist")
    if dist is None:
        return
    require(dist in VSTS_DISTRIBUTIONS, "requires a supported store distribution token")
    granularity = VSTS_DIST_MASKS.get(dist)
    if granularity is not None and storage_bits(op.value.type.element_type):  # type: ignore[attr-defined]
        mask_granularity(op.mask.type, "mask type", granularity)  # type: ignore[attr-defined]


# -- post-update bases -------------------------------------------------------------------


def _updated_base(base_field: str, role: str = "base") -> Rule:
    """A post-update load or store's updated base has the type of the base it steps."""

    def rule(op: Operation) -> None:
        updated = getattr(op, "updated_base", None) or getattr(op, "base_out", None)
        base = getattr(op, base_field)
        require(
            updated is None or updated.type == base.type,
            f"requires updated base result to match {role} type",
        )

    return rule


def _vsts_and_base(op: Operation) -> None:
    _vsts(op)
    _updated_base("destination")(op)


# -- L1 fills --------------------------------------------------------------------------

RAW_FILL_FIELD_MAX = 32767
RAW_FILL_OFFSET_ALIGNMENT = 32


def _fill_geometry(op: Operation, with_offset: bool) -> None:
    fields = ["repeat_times", "block_num_32b", "dst_gap_32b"]
    named = (["byte_offset"] if with_offset else []) + fields
    values = {name: constant_int(getattr(op, name)) for name in named}
    for name in named:
        value = values[name]
        require(value is None or value >= 0, f"{name} must be non-negative")
    offset = values.get("byte_offset")
    require(
        offset is None or offset % RAW_FILL_OFFSET_ALIGNMENT == 0,
        f"byte_offset must be a multiple of {RAW_FILL_OFFSET_ALIGNMENT} bytes",
    )
    for name in fields:
        value = values[name]
        require(
            value is None or value <= RAW_FILL_FIELD_MAX,
            f"{name} must be <= {RAW_FILL_FIELD_MAX}",
        )


def _fill_word_bits(op: Operation) -> int:
    bits = int_prop(op, "fill_word_bits") or 0
    require(bits in (16, 32), f"fill_word_bits must be 16 or 32, got {bits}")
    return bits


def _raw_fill_l1(op: Operation) -> None:
    space = memory_space(op.dst.type)  # type: ignore[attr-defined]
    require(space is not None, "requires dst with an explicit PTO address space for L1 raw fill")
    require(
        space == "l1",
        f"requires dst in the mat/l1 address space, got {SPACE_NAMES.get(space or '', space)}",
    )
    _fill_word_bits(op)
    _fill_geometry(op, with_offset=True)


def _create_cbuf_matrix(op: Operation) -> None:
    destination = op.dst.type  # type: ignore[attr-defined]
    space = memory_space(destination)
    require(
        space == "l1",
        f"requires a mat/l1 destination, got {SPACE_NAMES.get(space or '', space)}",
    )
    element = destination.element_type
    require(
        is_int(element, 16, 32) and _is_unsigned(element),
        f"requires a ui16 or ui32 destination view, got element type '{element}'",
    )
    bits = _fill_word_bits(op)
    require(
        bits == storage_bits(element),
        f"fill_word_bits {bits} does not match the {storage_bits(element)}-bit destination view",
    )
    _fill_geometry(op, with_offset=False)


# -- cube bridge loads (L1 to L0A/L0B) ---------------------------------------------------

U16_MAX = 65535
U8_MAX = 255
SPACE_ROLES = {"l0a": "LEFT", "l0b": "RIGHT"}


def control_in_range(value: SSAValue, name: str, low: int, high: int) -> None:
    """A constant control field fits its hardware field (`low` is 0 or 1)."""
    number = constant_int(value)
    if number is None:
        return
    require(
        number >= low,
        f"{name} must be non-negative" if low == 0 else f"{name} must be greater than zero",
    )
    require(number <= high, f"{name} must be <= {high} to fit the hardware control field")


def _bridge_spaces(op: Operation, destination_space: str) -> tuple[Attribute, Attribute]:
    source, destination = op.operands[0].type, op.operands[1].type
    require(memory_space(source) == "l1", "requires MAT source")
    require(
        memory_space(destination) == destination_space,
        f"requires {SPACE_ROLES[destination_space]} destination",
    )
    a, b = storage_bits(source.element_type), storage_bits(destination.element_type)
    require(
        a > 0 and b > 0,
        "requires source and destination element types with known byte width",
    )
    require(a == b, "requires source and destination element byte widths to match")
    return source.element_type, destination.element_type


def _explicit_controls(op: Operation) -> None:
    for name, low, high in (
        ("m_start", 0, U16_MAX),
        ("k_start", 0, U16_MAX),
        ("m_step", 1, U8_MAX),
        ("k_step", 1, U8_MAX),
        ("src_stride", 1, U16_MAX),
        ("dst_stride", 1, U16_MAX),
    ):
        control_in_range(getattr(op, name), name, low, high)


def _bridge_load(destination_space: str) -> Rule:
    """load_cbuf_to_ca/cb: not of packed FP4 (the S4 forms load those)."""

    def rule(op: Operation) -> None:
        source, destination = _bridge_spaces(op, destination_space)
        require(not is_f4x2(source), "packed FP4 source requires the S4 load operation")
        require(not is_f4x2(destination), "packed FP4 destination requires the S4 load operation")
        _explicit_controls(op)

    return rule


def _bridge_load_s4(destination_space: str) -> Rule:
    def rule(op: Operation) -> None:
        source, destination = _bridge_spaces(op, destination_space)
        require(is_f4x2(source), "requires packed FP4 source element type f4e1m2x2 or f4e2m1x2")
        require(
            is_f4x2(destination),
            "requires packed FP4 destination element type f4e1m2x2 or f4e2m1x2",
        )
        require(
            source == destination,
            "requires source and destination packed FP4 element types to match",
        )
        _explicit_controls(op)
        control_in_range(op.transpose, "transpose", 0, 1)  # type: ignore[attr-defined]

    return rule


def _bridge_load_mx(destination_space: str) -> Rule:
    def rule(op: Operation) -> None:
        _bridge_spaces(op, destination_space)
        for name in ("x_start_position", "y_start_position"):
            number = constant_int(getattr(op, name))
            require(number is None or number >= 0, f"{name} must be non-negative")

    return rule


# -- vector scopes ---------------------------------------------------------------------

# Synchronization delimits vector scopes, so none of it may sit inside one
# (`pto.mem_bar` may).
SCOPE_SYNC_OPS = frozenset(
    f"pto.{name}"
    for name in [
        "record_event",
        "wait_event",
        "barrier_sync",
        "set_flag",
        "wait_flag",
        "set_flag_dyn",
        "wait_flag_dyn",
        "get_buf",
        "get_buf_dyn",
        "rls_buf",
        "rls_buf_dyn",
        "barrier",
        "sync.set",
        "sync.wait",
        "cmo.cacheinvalid",
        "fence.barrier_all",
        "tsync",
        "syncall",
        "dsb",
        "dcci",
        "syncthreads",
        "threadfence",
        "threadfence_block",
    ]
)


def _no_sync_inside(scope: str) -> Rule:
    def rule(op: Operation) -> None:
        for region in op.regions:
            for inner in region.walk():
                if inner.name in SCOPE_SYNC_OPS:
                    raise VerifyException(
                        f"'{inner.name}' must be outside '{scope}'; synchronization operations "
                        "delimit vector scopes"
                    )

    return rule


def _strict_vecscope(op: Operation) -> None:
    body = op.regions[0]
    require(bool(body.blocks), "expects a non-empty body region")
    arguments = body.blocks.first.args  # type: ignore[union-attr]
    captures = list(op.operands)
    require(
        len(arguments) == len(captures),
        f"expects body block to have {len(captures)} arguments to match explicit captures, "
        f"got {len(arguments)}",
    )
    for index, (argument, capture) in enumerate(zip(arguments, captures, strict=True)):
        require(
            argument.type == capture.type,
            f"expects body block argument #{index} to have type {capture.type}, got "
            f"{argument.type}",
        )
    _no_sync_inside("pto.strict_vecscope")(op)


VPTO_RULES: dict[str, Rule] = {
    **{name: _binary(bitwise=False) for name in ("vadd", "vsub", "vmul", "vdiv")},
    **{name: _binary(bitwise=True) for name in ("vand", "vor", "vxor")},
    **{name: _unary for name in ("vexp", "vln", "vsqrt", "vneg", "vnot")},
    "vrelu": _vrelu,
    "vshl": _shift,
    "vshr": _shift,
    **{name: _carry for name in ("vaddc", "vsubc", "vaddcs", "vsubcs")},
    **{name: _vector_scalar for name in ("vmuls", "vadds", "vmaxs", "vmins")},
    "vsel": _vsel,
    "vmulscvt": _vmulscvt,
    "vscatter": _vscatter,
    "vgather2": _vgather2,
    **{name: _updated_base("source") for name in ("vlds", "vldsx2", "vsldb", "plds", "pldi")},
    "vldus": _updated_base("source", role="source"),
    **{
        name: _updated_base("destination")
        for name in ("vsstb", "psts", "psti", "sprsti", "sprsts", "vstas")
    },
    "vstus": _updated_base("base"),
    "vsts": _vsts_and_base,
    "load_cbuf_to_ca": _bridge_load("l0a"),
    "load_cbuf_to_cb": _bridge_load("l0b"),
    "load_cbuf_to_ca_s4": _bridge_load_s4("l0a"),
    "load_cbuf_to_cb_s4": _bridge_load_s4("l0b"),
    "load_cbuf_to_ca_mx": _bridge_load_mx("l0a"),
    "load_cbuf_to_cb_mx": _bridge_load_mx("l0b"),
    "raw_fill_l1": _raw_fill_l1,
    "create_cbuf_matrix": _create_cbuf_matrix,
    "vecscope": _no_sync_inside("pto.vecscope"),
    "strict_vecscope": _strict_vecscope,
}


# -- MTE L1 -> L0A/L0B (keyword-group syntax, `mte_ops`) ----------------------------------

SHAPE_FIELDS = {
    "a": ("m", "k", "start_row", "start_col"),
    "b": ("k", "n", "start_row", "start_col"),
}
FULL_FIELDS = ("m_start", "k_start", "m_step", "k_step", "src_stride", "dst_stride")
MX_FULL_FIELDS = ("x_start", "y_start", "x_step", "y_step", "src_stride", "dst_stride")
MX_SOURCE_ALIGNMENT = 32
MX_DESTINATION_ALIGNMENT = 16


def written_operands(op: Operation, buffers: int) -> tuple[list[SSAValue], dict[str, SSAValue]]:
    """The operands after the buffers: those written by position, and those written
    in `name(%v)` groups, by name."""
    words = [w.data for w in op.syntax.data]  # type: ignore[attr-defined]
    positional: list[SSAValue] = []
    named: dict[str, SSAValue] = {}
    index, group, depth = 0, None, 0
    for position, word in enumerate(words):
        if word == "%":
            if index >= buffers:
                if group is not None:
                    named[group] = op.operands[index]
                else:
                    positional.append(op.operands[index])
            index += 1
        elif word == "(":
            depth += 1
            if depth == 1 and position > 0 and words[position - 1] not in ("%", ",", "("):
                group = words[position - 1]
        elif word == ")":
            depth -= 1
            if depth == 0:
                group = None
    return positional, named


def _l1_l0_fields(
    op: Operation, shape: tuple[str, ...], full: tuple[str, ...], mx: str
) -> tuple[dict[str, SSAValue], bool]:
    """The shape-derived or full control fields, written by position or by name."""
    positional, named = written_operands(op, 2)
    if positional:
        require(
            not named and len(positional) in (4, 6),
            f"expects either four shape-derived or six full positional {mx}operands",
        )
        names = shape if len(positional) == 4 else full
        return dict(zip(names, positional, strict=True)), len(positional) == 4
    has_shape = any(name in named for name in shape)
    has_full = any(name in named for name in full)
    what = f"{mx}operands" if mx else "operands"
    require(
        not (has_shape and has_full),
        f"cannot mix shape-derived {what} with full {'MX operands' if mx else 'control operands'}",
    )
    require(
        has_shape or has_full,
        f"requires either all shape-derived {what} or all full "
        f"{'MX operands' if mx else 'control operands'}",
    )
    form = "shape-derived" if has_shape else "full"
    for name in shape if has_shape else full:
        require(
            name in named,
            f"{form} {'MX form' if mx else ('form' if has_shape else 'control form')} "
            f"requires {name}",
        )
    return named, has_shape


def _non_negative(fields: dict[str, SSAValue], *names: str) -> None:
    for name in names:
        number = constant_int(fields[name])
        require(number is None or number >= 0, f"{name} must be non-negative")


def cast_address(value: SSAValue) -> int | None:
    """The constant integer address a `pto.castptr` makes a pointer of."""
    owner = value.owner
    if getattr(owner, "name", None) != "pto.castptr" or not owner.operands:  # type: ignore[union-attr]
        return None
    return constant_int(owner.operands[0])  # type: ignore[union-attr]


def _mte_l1_l0(side: str, mx: bool) -> Rule:
    destination_space = "l0a" if side == "a" else "l0b"

    def rule(op: Operation) -> None:
        _bridge_spaces(op, destination_space)
        shape = SHAPE_FIELDS[side]
        full = MX_FULL_FIELDS if mx else FULL_FIELDS
        fields, shaped = _l1_l0_fields(op, shape, full, "MX " if mx else "")
        if shaped:
            _non_negative(fields, "start_row", "start_col")
        elif mx:
            _non_negative(fields, *MX_FULL_FIELDS)
        else:
            for name, low, high in zip(
                FULL_FIELDS,
                (0, 0, 1, 1, 1, 1),
                (U16_MAX, U16_MAX, U8_MAX, U8_MAX, U16_MAX, U16_MAX),
                strict=True,
            ):
                control_in_range(fields[name], name, low, high)
        if mx:
            for role, value, alignment in (
                ("source", op.operands[0], MX_SOURCE_ALIGNMENT),
                ("destination", op.operands[1], MX_DESTINATION_ALIGNMENT),
            ):
                address = cast_address(value)
                require(
                    address is None or address % alignment == 0,
                    f"statically known LOAD.MX {role} address must be aligned to {alignment} "
                    f"bytes, got {address}",
                )

    return rule


MTE_RULES: dict[str, Rule] = {
    "pto.mte_l1_l0a": _mte_l1_l0("a", mx=False),
    "pto.mte_l1_l0b": _mte_l1_l0("b", mx=False),
    "pto.mte_l1_l0a_mx": _mte_l1_l0("a", mx=True),
    "pto.mte_l1_l0b_mx": _mte_l1_l0("b", mx=True),
}


# -- vcvt ---------------------------------------------------------------------------------

# (source kind, result kind) -> (needs rnd, needs sat, needs part, part family, rnd modes);
# PTOAS's `lookupVcvtContract`. A family of None is set by the widths (2x EVEN/ODD, 4x P0-P3).
_RSP = (True, True, True, None, "")
VCVT_CONTRACTS: dict[tuple[str, str], tuple[bool, bool, bool, str | None, str]] = {
    **{("f32", k): (True, True, True, "packed4", "RAHZ") for k in ("f8e4m3", "f8e5m2")},
    ("f32", "hif8"): (True, True, True, "packed4", "AH"),
    **{("f32", k): _RSP for k in ("f16", "bf16", "s16", "s64")},
    ("f32", "s32"): (True, True, False, None, ""),
    **{("f16", k): (True, True, True, None, "RAFZC") for k in ("f8e4m3", "f8e5m2")},
    ("f16", "hif8"): (True, True, True, None, "AH"),
    ("f16", "f32"): (False, False, True, None, ""),
    ("f16", "s32"): (True, False, True, None, ""),
    ("f16", "s16"): (True, True, False, None, ""),
    **{("f16", k): _RSP for k in ("s8", "u8")},
    **{("bf16", k): (True, True, True, None, "RAFZC") for k in ("f8e4m3", "f8e5m2")},
    **{("bf16", k): (True, False, True, "packed4", "RAFZC") for k in ("f4e1m2x2", "f4e2m1x2")},
    ("bf16", "f16"): (True, True, False, None, ""),
    ("bf16", "f32"): (False, False, True, None, ""),
    ("bf16", "s32"): _RSP,
    **{("u8", k): (False, False, True, None, "") for k in ("f16", "u16", "u32")},
    **{("s8", k): (False, False, True, None, "") for k in ("f16", "s16", "s32")},
    ("u16", "u8"): (False, True, True, None, ""),
    ("u16", "u32"): (False, False, True, None, ""),
    ("s16", "f16"): (True, False, False, None, ""),
    **{("s16", k): (False, False, True, None, "") for k in ("f32", "u32", "s32")},
    ("s16", "u8"): (False, True, True, None, ""),
    **{("u32", k): (False, True, True, None, "") for k in ("u8", "u16", "s16")},
    ("s32", "f32"): (True, False, False, None, ""),
    **{("s32", k): (False, True, True, None, "") for k in ("u8", "u16", "s16")},
    ("s32", "s64"): (False, False, True, None, ""),
    ("s64", "f32"): (True, False, True, None, ""),
    ("s64", "s32"): (False, True, True, None, ""),
    **{(k, "f32"): (False, False, True, "packed4", "") for k in ("f8e4m3", "f8e5m2", "hif8")},
    **{(k, "bf16"): (False, False, True, "packed4", "") for k in ("f4e1m2x2", "f4e2m1x2")},
}
VCVT_KIND_BITS = {"f16": 16, "bf16": 16, "s16": 16, "u16": 16, "f32": 32, "s32": 32, "u32": 32}


def vcvt_kind(element: Attribute) -> str | None:
    """PTOAS's `classifyVcvtElemType`: signless integers count as signed."""
    simple = {Float16Type: "f16", BFloat16Type: "bf16", Float32Type: "f32"}
    for kind, name in simple.items():
        if isinstance(element, kind):
            return name
    name = type(element).__name__
    if name.startswith("Float8E4M3"):
        return "f8e4m3"
    if name.startswith("Float8E5M2"):
        return "f8e5m2"
    if isinstance(element, HiF8Type):
        return "hif8"
    if isinstance(element, F4E1M2x2Type):
        return "f4e1m2x2"
    if isinstance(element, F4E2M1x2Type):
        return "f4e2m1x2"
    if isinstance(element, IntegerType) and element.width.data in (8, 16, 32, 64):
        if element.width.data == 64 and _is_unsigned(element):
            return None
        return f"{'u' if _is_unsigned(element) else 's'}{element.width.data}"
    return None


def _kind_bits(kind: str) -> int:
    return VCVT_KIND_BITS.get(kind, 64 if kind == "s64" else 8)


def _token(op: Operation, names: tuple[str, ...], prefix: str) -> str | None:
    for name in names:
        value = string_prop(op, name)
        if value is not None:
            return value.removeprefix(prefix)
    return None


VCVT_PAIR_MESSAGE = "unsupported vcvt source/result element type pair"


def vcvt_pair_supported(source: Attribute, result: Attribute) -> bool:
    """Whether `pto.vcvt` converts `source` elements to `result` ones at all (its
    verifier's first rule; `-vmi-to-vpto` checks the ops it builds with it too)."""
    pair = (vcvt_kind(source) or "", vcvt_kind(result) or "")
    return pair in VCVT_CONTRACTS


def _vcvt(op: Operation) -> None:
    input_, result = op.input.type, op.result.type  # type: ignore[attr-defined]
    source, target = vcvt_kind(input_.element_type), vcvt_kind(result.element_type)
    contract = VCVT_CONTRACTS.get((source or "", target or ""))
    require(contract is not None, VCVT_PAIR_MESSAGE)
    assert contract is not None and source is not None and target is not None
    needs_rnd, needs_sat, needs_part, family, modes = contract
    a, b = _kind_bits(source), _kind_bits(target)
    mask_granularity(op.mask.type, "mask type", f"b{min(a, 32)}")  # type: ignore[attr-defined]
    require(
        input_.count.data * a == result.count.data * b,
        "requires source and result vectors to carry the same total number of bits",
    )
    rnd = _token(op, ("rnd", "round_mode"), "ROUND_")
    if rnd is not None:
        require(rnd in "RAFCZOH" and len(rnd) == 1, "rnd must be one of R/A/F/C/Z/O/H")
        require(not modes or rnd in modes, "rnd attr is not valid for this vcvt type pair")
    require(
        (rnd is not None) == needs_rnd,
        "requires rnd attr for this vcvt type pair"
        if needs_rnd
        else "rnd attr is not valid for this vcvt type pair",
    )
    sat = string_prop(op, "sat")
    if sat is not None:
        require(sat in ("SAT", "NOSAT", "RS_ENABLE", "RS_DISABLE"), "sat must be SAT or NOSAT")
    require(
        (sat is not None) == needs_sat,
        "requires sat attr for this vcvt type pair"
        if needs_sat
        else "sat attr is not valid for this vcvt type pair",
    )
    part = _token(op, ("part",), "PART_")
    if part is not None:
        require(
            part in ("EVEN", "ODD", "P0", "P1", "P2", "P3"),
            "part must be one of EVEN/ODD/P0/P1/P2/P3",
        )
        larger, smaller = max(a, b), min(a, b)
        family = family or {2: "even_odd", 4: "packed4"}.get(larger // smaller)
        require(family is not None, "part attr is not supported for this vcvt width relation")
        if family == "packed4":
            require(
                part in ("P0", "P1", "P2", "P3"),
                "part must be P0, P1, P2, or P3 for packed vcvt forms",
            )
        else:
            require(
                part in ("EVEN", "ODD"),
                "part must be EVEN or ODD for 8/16 and 16/32 vcvt forms",
            )
    require(
        (part is not None) == needs_part,
        "requires part attr for this vcvt type pair"
        if needs_part
        else "part attr is not valid for this vcvt type pair",
    )


VPTO_RULES["vcvt"] = _vcvt


# -- SIMT shuffles and keep/resume ----------------------------------------------------------

SIMT_SLOTS = 123


def _shuffle_value_ok(type_: Attribute) -> bool:
    if type_ in (IntegerType(32), IntegerType(64)) or isinstance(type_, Float16Type | Float32Type):
        return True
    shape = getattr(type_, "get_shape", None)
    return (
        isinstance(type_, VectorType)
        and shape is not None
        and tuple(shape()) == (2,)
        and isinstance(type_.element_type, Float16Type)
    )


def _shuffle(op: Operation) -> None:
    require(
        _shuffle_value_ok(op.result.type),  # type: ignore[attr-defined]
        "requires i32, i64, f16, f32 or vector<2xf16> value/result type",
    )
    width = int_prop(op, "width")
    require(width is None or width in (16, 32), "requires width to be 16 or 32")


def _slot_words(type_: Attribute) -> int | None:
    """How many 32-bit slots a kept value takes."""
    if isinstance(type_, IntegerType):
        return 1 if type_.width.data <= 32 else (2 if type_.width.data == 64 else None)
    return 1 if isinstance(type_, Float16Type | BFloat16Type | Float32Type) else None


def _keep_resume(op: Operation) -> None:
    value = (op.operands[0] if op.operands else op.results[0]).type
    words = _slot_words(value)
    slot = int_prop(op, "slot")
    if words is None or slot is None:
        return
    require(0 <= slot < SIMT_SLOTS, f"requires slot in range [0, {SIMT_SLOTS - 1}]")
    if words == 2:
        require(slot % 2 == 0, "requires an even slot for 64-bit keep/resume values")
        require(
            slot + 1 < SIMT_SLOTS,
            f"requires slot in range [0, {SIMT_SLOTS - 2}] for 64-bit keep/resume values",
        )


VPTO_RULES.update(
    {f"shuffle_{kind}": _shuffle for kind in ("bfly", "down", "idx", "up")},
    keep=_keep_resume,
    resume=_keep_resume,
)


# -- ub.* vector instructions over UB buffers ---------------------------------------------


def _ub_operands(op: Operation) -> None:
    """PTOAS's ub.* arithmetic reads and writes UB only."""
    buffers = [v.type for v in op.operands if isinstance(v.type, PtrType)]
    require(all(memory_space(t) == "ub" for t in buffers), "requires UB-backed operands")


UB_CHECKED = ("vabs", "vadd", "vand", "vdiv", "vmax", "vmin", "vmul", "vmuls", "vor", "vrelu")
VPTO_RULES.update({f"ub.{name}": _ub_operands for name in (*UB_CHECKED, "vshr", "vsub")})
