"""PTOAS's verifier rules of its accumulator stores (`pto.mte_l0c_gm`, `_ub`, `_l1`)
and of the cube multiply-accumulates that fill the accumulator (`pto.mad*`).

An acc store is written with clauses after its sizes (`mte_ops` keeps the words):

    pto.mte_l0c_ub %acc, %ub, %m, %n, %src_stride, %dst_stride, dst_mode(split_m),
        unit_flag(check_only), pre_quant(%scale, mode = f32_bf16),
        pre_relu(%slope, mode = scalar_relu, clip = %c), nz2dn(%loop0), sat : ...

Its rules (PTOAS's `verifyStructuredAccStoreLike` and the ops' own verifiers): the
pre-quantization mode fits the accumulator's and the destination's element types
and takes its payload (a scaling pointer for `*_vec` modes, a float scalar else),
a clip fits the destination type, a relu mode takes the payload it needs, the
layout modes' operands, atomics only into GM, one `sat`/`nosat`, and a UB
destination's single or dual (`split_m`, `split_n`) mode.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, IntegerType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.types import PtrType
from xla_emit.dialects.pto.vmi_rules import FLOAT8_TYPES, is_float_like, is_int, is_signed, require
from xla_emit.dialects.pto.vpto_rules import constant_int, memory_space
from xla_emit.dialects.pto.vpto_types import HiF8Type, HiF8x2Type

# The pre-quantization modes an f32 accumulator takes, and those an i32 one takes.
FLOAT_MODES = frozenset(
    [
        "f32_f16",
        "qf322hif8_pre_vec",
        "qf322hif8_pre_scalar",
        "qf322hif8_pre_hybrid_vec",
        "qf322hif8_pre_hybrid_scalar",
        "qf322fp8_pre_vec",
        "qf322fp8_pre_scalar",
        "qf322f32_pre_vec",
        "qf322f32_pre_scalar",
        "f32_bf16",
        "qf162b8_pre_vec",
        "qf162b8_pre_scalar",
        "qf162s4_pre_vec",
        "qf162s4_pre_scalar",
        "qf322b8_pre_vec",
        "qf322b8_pre_scalar",
        "qf322s4_pre_vec",
        "qf322s4_pre_scalar",
        "qf322f16_pre_vec",
        "qf322f16_pre_scalar",
        "qf322bf16_pre_vec",
        "qf322bf16_pre_scalar",
    ]
)
INT32_MODES = frozenset(
    [
        "deqs32_int_vec",
        "deqs32_int_scalar",
        "req8_vec",
        "req8_scalar",
        "deqf16_vec",
        "deqf16_scalar",
        "deqs16_vec",
        "deqs16_scalar",
        "qf162s16_pre_vec",
        "qf162s16_pre_scalar",
        "qs322bf16_pre_vec",
        "qs322bf16_pre_scalar",
    ]
)
# The destination element family each mode writes.
MODE_DESTINATIONS = {
    **dict.fromkeys(
        ["f32_f16", "qf322f16_pre_vec", "qf322f16_pre_scalar", "deqf16_vec", "deqf16_scalar"], "f16"
    ),
    **dict.fromkeys(
        [
            "f32_bf16",
            "qf322bf16_pre_vec",
            "qf322bf16_pre_scalar",
            "qs322bf16_pre_vec",
            "qs322bf16_pre_scalar",
        ],
        "bf16",
    ),
    **dict.fromkeys(["qf322f32_pre_vec", "qf322f32_pre_scalar"], "f32"),
    **dict.fromkeys(
        [
            "qf322hif8_pre_vec",
            "qf322hif8_pre_scalar",
            "qf322hif8_pre_hybrid_vec",
            "qf322hif8_pre_hybrid_scalar",
            "qf322fp8_pre_vec",
            "qf322fp8_pre_scalar",
        ],
        "fp8",
    ),
    **dict.fromkeys(["deqs32_int_vec", "deqs32_int_scalar"], "i32"),
    **dict.fromkeys(
        ["qf162s16_pre_vec", "qf162s16_pre_scalar", "deqs16_vec", "deqs16_scalar"], "i16"
    ),
    **dict.fromkeys(
        [
            "qf162b8_pre_vec",
            "qf162b8_pre_scalar",
            "req8_vec",
            "req8_scalar",
            "qf322b8_pre_vec",
            "qf322b8_pre_scalar",
        ],
        "i8",
    ),
    **dict.fromkeys(
        [
            "qf162s4_pre_vec",
            "qf162s4_pre_scalar",
            "req4_vec",
            "req4_scalar",
            "qf322s4_pre_vec",
            "qf322s4_pre_scalar",
        ],
        "i4",
    ),
}
SCALAR_FLOATS = (Float16Type, BFloat16Type, Float32Type)


def _in_family(element: Attribute, family: str) -> bool:
    if family in ("f16", "bf16", "f32"):
        return isinstance(
            element, {"f16": Float16Type, "bf16": BFloat16Type, "f32": Float32Type}[family]
        )
    if family == "fp8":
        return isinstance(element, (*FLOAT8_TYPES, HiF8Type, HiF8x2Type))
    width = int(family[1:])
    signed_only = family in ("i16", "i4")
    return is_int(element, width) and not (signed_only and _is_unsigned(element))


def _is_unsigned(element: Attribute) -> bool:
    return is_int(element) and not is_signed(element) and not _is_signless(element)


def _is_signless(element: Attribute) -> bool:
    return isinstance(element, IntegerType) and element.signedness.data.name == "SIGNLESS"


@dataclass
class Clause:
    """One `name` or `name(%operand, key = value, ...)` clause."""

    operands: list[SSAValue] = field(default_factory=list)
    keys: dict[str, object] = field(default_factory=dict)


def clauses(op: Operation) -> tuple[list[tuple[str, Clause]], list[SSAValue]]:
    """The op's clauses in order, and the operands written before them."""
    words = [w.data for w in op.syntax.data]  # type: ignore[attr-defined]
    found: list[tuple[str, Clause]] = []
    plain: list[SSAValue] = []
    index, depth, key = 0, 0, None
    current: Clause | None = None
    for position, word in enumerate(words):
        following = words[position + 1] if position + 1 < len(words) else ""
        if word == "%":
            value = op.operands[index]
            index += 1
            if current is None or depth == 0:
                plain.append(value)
            elif key is not None:
                current.keys[key] = value
                key = None
            else:
                current.operands.append(value)
        elif word == "(":
            depth += 1
        elif word == ")":
            depth -= 1
        elif word in (",", "=", "[", "]"):
            continue
        elif depth == 0:
            current = Clause()
            found.append((word, current))
        elif current is not None and following == "=":
            key = word
        elif current is not None and key is not None:
            current.keys[key] = word
            key = None
        elif current is not None:
            current.keys[word] = word
    return found, plain


def _pre_quant(clause: Clause, source: Attribute, destination: Attribute) -> None:
    mode = str(clause.keys.get("mode", ""))
    if mode == "no_convert":
        return
    payload = clause.operands[0] if clause.operands else None
    if mode.endswith("vec"):
        require(
            payload is not None and memory_space(payload.type) == "fb",
            "vector pre_quant mode requires scaling pointer payload",
        )
    else:
        require(
            payload is not None and isinstance(payload.type, SCALAR_FLOATS),
            "scalar pre_quant mode requires f16/bf16/f32 payload",
        )
    incompatible = (
        f"pre_quant mode {mode} is incompatible with source element type '{source}' and "
        f"destination element type '{destination}'"
    )
    if isinstance(source, Float32Type):
        require(mode in FLOAT_MODES, incompatible)
    elif is_int(source, 32) and _is_signless(source):
        require(mode in INT32_MODES, incompatible)
    else:
        raise VerifyException(
            f"pre_quant requires source element type to be f32 or i32, got {source}"
        )
    family = MODE_DESTINATIONS.get(mode)
    require(family is None or _in_family(destination, family), incompatible)


CLIP_DESTINATIONS = (
    "clip requires destination element type to be f16, ui8, or signed 4/8/16-bit integer"
)


def _clip(clip: SSAValue, destination: Attribute) -> None:
    require(
        isinstance(destination, Float16Type)
        or (is_int(destination, 8) and _is_unsigned(destination))
        or (is_int(destination, 4, 8, 16) and not _is_unsigned(destination)),
        f"{CLIP_DESTINATIONS}, got {destination}",
    )
    payload = clip.type
    if isinstance(destination, Float16Type):
        require(isinstance(payload, Float16Type), "clip for f16 destination requires f16 payload")
    elif _is_unsigned(destination):
        require(
            is_int(payload, 16) and not is_signed(payload),
            "clip for ui8 destination requires ui16/signless i16 payload",
        )
    else:
        require(
            is_int(payload, 4, 8, 16) and not _is_unsigned(payload),
            "clip for signed 4/8/16-bit destination requires signed/signless i4/i8/i16 payload",
        )


def _pre_relu(clause: Clause, destination: Attribute) -> None:
    mode = str(clause.keys.get("mode", ""))
    payload = clause.operands[0] if clause.operands else None
    clip = clause.keys.get("clip")
    if isinstance(clip, SSAValue):
        _clip(clip, destination)
    if mode in ("no_relu", "normal_relu"):
        require(payload is None, "mode does not accept pre_relu payload")
    elif mode == "scalar_relu":
        require(payload is not None, "scalar_relu requires payload")
        assert payload is not None
        require(
            isinstance(payload.type, SCALAR_FLOATS), "scalar_relu requires f16/bf16/f32 payload"
        )
    elif mode == "vector_relu":
        require(payload is not None, "vector_relu requires payload")
        assert payload is not None
        require(memory_space(payload.type) == "fb", "vector_relu requires scaling pointer payload")
    elif mode == "pwl":
        raise VerifyException("pwl is not supported for target_profile mte_l0c_l1")


def _layout_modes(named: dict[str, Clause], destination: Attribute) -> None:
    nz2dn = named.get("nz2dn")
    if nz2dn is not None:
        require(bool(nz2dn.operands), "nz2dn requires loop0_src_stride")
        unit_flag = named.get("unit_flag")
        if unit_flag is not None and "off" not in unit_flag.keys:
            require(
                constant_int(nz2dn.operands[0]) == 1,
                "unit_flag must be off when nz2dn loop0_src_stride is not 1",
            )
    if "nz2nz" in named:
        require(
            isinstance(destination, Float32Type),
            "nz2nz requires destination element type to be f32",
        )


def _ub_destination_mode(op: Operation, named: dict[str, Clause], plain: list[SSAValue]) -> None:
    mode = named.get("dst_mode")
    if mode is None:
        return
    if mode.operands:
        block = constant_int(mode.operands[0])
        require(block is None or 0 <= block <= 1, "sub_blockid must be 0 or 1")
        return
    dual = next((k for k in mode.keys if k in ("split_m", "split_n")), None)
    if dual is None:
        return
    require(
        not any(name in named for name in ("pre_quant", "pre_relu", "nz2dn", "nz2nz", "loop3")),
        "dual destination mode cannot be combined with pre_quant, pre_relu, clip, nz2dn, "
        "nz2nz, or loop3",
    )
    m, n = (constant_int(v) for v in plain[:2]) if len(plain) >= 2 else (None, None)
    if dual == "split_m":
        require(m is None or m % 2 == 0, "split-M dual destination requires m to be even")
    else:
        require(
            n is None or n % 32 == 0, "split-N dual destination requires n to be a multiple of 32"
        )


DESTINATIONS = {
    "pto.mte_l0c_gm": ("gm", "GM"),
    "pto.mte_l0c_ub": ("ub", "UB"),
    "pto.mte_l0c_l1": ("l1", "MAT"),
}


def acc_store(op: Operation) -> None:
    space, role = DESTINATIONS[op.name]
    source_type, destination_type = op.operands[0].type, op.operands[1].type
    require(
        memory_space(source_type) == "l0c" and memory_space(destination_type) == space,
        f"requires ACC source and {role} destination",
    )
    source = source_type.element_type  # type: ignore[attr-defined]
    destination = destination_type.element_type  # type: ignore[attr-defined]
    found, plain = clauses(op)
    names = [name for name, _ in found]
    require(sum(name in ("sat", "nosat") for name in names) <= 1, "duplicate sat/nosat clause")
    named = dict(found)
    if "pre_quant" in named:
        _pre_quant(named["pre_quant"], source, destination)
    if "pre_relu" in named:
        _pre_relu(named["pre_relu"], destination)
    _layout_modes(named, destination)
    require(
        "atomic" not in named or op.name == "pto.mte_l0c_gm",
        "atomic is only supported for mte_l0c_gm",
    )
    if op.name == "pto.mte_l0c_ub":
        _ub_destination_mode(op, named, plain[2:])


ACC_STORE_RULES = dict.fromkeys(DESTINATIONS, acc_store)


# -- cube multiply-accumulates (mad, mad_acc, mad_bias and their _mx forms) ---------------


def mad(op: Operation) -> None:
    """PTOAS's `verifyMadSemanticClauses`: L0A x L0B -> L0C pointers (a bias in BT of
    the accumulator's type), tf32 rounding of f32 only, hif8 on both sides or
    neither, saturation of floats only."""
    pointers = [v.type for v in op.operands[: op.BUFFERS]]  # type: ignore[attr-defined]
    require(
        all(isinstance(p, PtrType) for p in pointers),
        "requires typed !pto.ptr lhs/rhs/dst operands",
    )
    lhs, rhs, dst = pointers[:3]
    require(
        [memory_space(p) for p in pointers[:3]] == ["l0a", "l0b", "l0c"],
        "requires l0a/l0b/l0c-typed lhs/rhs/dst pointers",
    )
    if len(pointers) == 4:
        bias = pointers[3]
        require(memory_space(bias) == "bt", "requires bias pointer in !pto.ptr<..., bt>")
        require(
            bias.element_type == dst.element_type,  # type: ignore[attr-defined]
            "requires bias element type to match dst element type",
        )
    elements = [p.element_type for p in (lhs, rhs, dst)]  # type: ignore[attr-defined]
    found, _ = clauses(op)
    names = {name for name, _ in found}
    if "tf32_mode" in names:
        require(
            all(isinstance(e, Float32Type) for e in elements),
            "requires tf32_mode only for f32 lhs/rhs/dst element types",
        )
    require(
        isinstance(elements[0], HiF8Type) == isinstance(elements[1], HiF8Type),
        "requires lhs/rhs to both use hif8 or both use non-hif8 element types",
    )
    if names & {"sat", "nosat"}:
        require(
            all(is_float_like(e) for e in elements),
            "requires sat/nosat only for floating lhs/rhs/dst element types",
        )


MAD_RULES = {
    f"pto.{name}": mad
    for name in ("mad", "mad_acc", "mad_bias", "mad_mx", "mad_mx_acc", "mad_mx_bias")
}
