"""PTOAS main's MTE transfer ops (`pto.mte_gm_ub`, `pto.mte_ub_gm`, `pto.mte_l1_l0a`,
...) and cube multiply-accumulates (`pto.mad`, `pto.mad_bias`, `pto.mad_mx`, ...):
buffers first (source and destination; a mad's lhs, rhs, dst and bias), then sizes,
strides and modes in PTOAS's keyword groups:

    pto.mte_ub_gm %ub, %gm, %len nburst(%n, %src_stride, %dst_stride)
        l2_cache_ctl(%c) loop(%count, %src_stride, %dst_stride)
        : !pto.ptr<f16, ub>, !pto.ptr<f16, gm>, i64, i64, i64, i64, i64, loop i64, i64, i64
    pto.mte_l0c_ub %src, %dst, %m, %n, %s, %d, dst_mode(split_m), pre_relu(mode = no_relu), nz2nd
        : ...

    pto.mad %a, %b, %c, %m, %n, %k unit_flag(check_and_set) : ...

The words between the operands (group keywords, modes, `=`) are kept as written and
printed back; each operand takes the type at its place in the type list (a loop
group's types follow its keyword there too). The verifier checks that the buffers
are pointers or memrefs and every other operand an integer, index or float scalar;
PTOAS's per-op rules are checked where `vpto_rules.MTE_RULES` (the L1 to L0A/L0B
loads) and `acc_store_rules` (the accumulator stores) have them.
"""

from __future__ import annotations

from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    IndexType,
    IntegerType,
    MemRefType,
    StringAttr,
)
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    prop_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.acc_store_rules import ACC_STORE_RULES, MAD_RULES
from xla_emit.dialects.pto.types import PtrType, element_type_name
from xla_emit.dialects.pto.vpto_rules import MTE_RULES

# A written word of the syntax: an operand's place, or the text itself.
OPERAND = "%"
_PUNCTUATION = (",", "(", ")", "=", "[", "]")


def _is_scaling_pointer(kind: object) -> bool:
    return isinstance(kind, PtrType) and kind.space.data == "fb"


def _verify_payload_pointer(group: str, kind: PtrType) -> None:
    """A payload in fixpipe memory holds f16, bf16 or f32 words."""
    if element_type_name(kind.element_type) not in ("f16", "bf16", "f32"):
        what = "vector pre_quant mode" if group == "pre_quant" else "vector_relu"
        raise VerifyException(
            f"{what} requires scaling pointer element type to be f16, bf16, or f32"
        )


class MteOpBase(IRDLOperation):
    # How many leading operands are buffers.
    BUFFERS: ClassVar[int] = 2
    operands_ = var_operand_def()
    # The words between the op name and the attributes, and of the type list.
    syntax = prop_def(ArrayAttr[StringAttr])
    type_syntax = prop_def(ArrayAttr[StringAttr])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        words, operands = _parse_words(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_words, types = _parse_type_words(parser)
        if len(types) != len(operands):
            parser.raise_error(
                f"{cls.name} has {len(operands)} operands, but {len(types)} types follow"
            )
        resolved = [parser.resolve_operand(o, t) for o, t in zip(operands, types, strict=True)]
        op = cls.build(
            operands=[resolved],
            properties={
                "syntax": ArrayAttr(StringAttr(w) for w in words),
                "type_syntax": ArrayAttr(StringAttr(w) for w in type_words),
            },
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        operands = iter(self.operands_)
        _print_words(printer, self.syntax, lambda: printer.print_operand(next(operands)))
        printer.print_op_attributes(self.attributes)
        printer.print_string(" :")
        types = iter(self.operands_.types)
        _print_words(printer, self.type_syntax, lambda: printer.print_attribute(next(types)))

    def group_operands(self, keywords: tuple[str, ...]) -> dict[int, str]:
        """The operands written inside `keyword(...)` groups: index -> keyword."""
        found: dict[int, str] = {}
        index, group, depth = 0, None, 0
        for word in (w.data for w in self.syntax.data):
            if word == OPERAND:
                if group is not None:
                    found[index] = group
                index += 1
            elif word in keywords and depth == 0:
                group = word
            elif word == "(":
                depth += 1
            elif word == ")":
                depth -= 1
                if depth == 0:
                    group = None
        return found

    def verify_(self) -> None:
        if len(self.operands_) < self.BUFFERS:
            raise VerifyException(f"expects {self.BUFFERS} buffers first")
        roles = ("source", "destination") if self.BUFFERS == 2 else ("lhs", "rhs", "dst", "bias")
        for role, operand in zip(roles, self.operands_[: self.BUFFERS], strict=False):
            if not isinstance(operand.type, PtrType | MemRefType):
                raise VerifyException(f"expects the {role} to be a !pto.ptr or a memref")
        payloads = self.group_operands(("pre_quant", "pre_relu"))
        for index, operand in enumerate(self.operands_[self.BUFFERS :], self.BUFFERS):
            # An acc store's pre_quant / pre_relu payload may live in fixpipe memory.
            if index in payloads and _is_scaling_pointer(operand.type):
                _verify_payload_pointer(payloads[index], operand.type)
                continue
            if not isinstance(operand.type, IntegerType | IndexType | AnyFloat):
                raise VerifyException(
                    f"expects operand #{index} to be an integer or float scalar, "
                    f"but got {operand.type}"
                )
        rule = (
            MTE_RULES.get(self.name) or ACC_STORE_RULES.get(self.name) or MAD_RULES.get(self.name)
        )
        if rule is not None:
            rule(self)


def _parse_words(parser: Parser) -> tuple[list[str], list[UnresolvedOperand]]:
    words: list[str] = []
    operands: list[UnresolvedOperand] = []
    while True:
        operand = parser.parse_optional_unresolved_operand()
        if operand is not None:
            words.append(OPERAND)
            operands.append(operand)
            continue
        word = _parse_optional_word(parser)
        if word is None:
            return words, operands
        words.append(word)


def _parse_optional_word(parser: Parser) -> str | None:
    for punctuation in _PUNCTUATION:
        if parser.parse_optional_punctuation(punctuation) is not None:  # type: ignore[arg-type]
            return punctuation
    identifier = parser.parse_optional_identifier()
    if identifier is not None:
        return identifier
    integer = parser.parse_optional_integer()
    return None if integer is None else str(integer)


def _parse_type_words(parser: Parser) -> tuple[list[str], list[object]]:
    """The type list: types, with group keywords among them as PTOAS writes them
    (`..., nd2nz, shape i64, i64, src_layout(i64, i64), loop i64, i64, i64`). It ends
    after a type or `)` that no `,` follows."""
    words: list[str] = []
    types: list[object] = []
    while True:
        # A `(` opens a keyword's group here, never a function type.
        if parser.parse_optional_punctuation("(") is not None:
            words.append("(")
            continue
        type_ = parser.parse_optional_type()
        if type_ is None:
            keyword = parser.parse_optional_identifier()
            if keyword is None:
                parser.raise_error("expected a type")
            words.append(keyword)
            if parser.parse_optional_punctuation(",") is not None:
                words.append(",")
            continue
        words.append(OPERAND)
        types.append(type_)
        while parser.parse_optional_punctuation(")") is not None:
            words.append(")")
        if parser.parse_optional_punctuation(",") is None:
            return words, types
        words.append(",")


def _print_words(printer: Printer, words: ArrayAttr[StringAttr], operand: object) -> None:
    previous = ""
    for attr in words.data:
        word = attr.data
        printer.print_string(_separator(previous, word))
        if word == OPERAND:
            operand()  # type: ignore[operator]
        else:
            printer.print_string(word)
        previous = word


def _separator(previous: str, word: str) -> str:
    """MLIR's spacing: none before `,` `)` `]`, nor after `(` `[`, nor between a
    keyword and its `(`."""
    if word in (",", ")", "]") or previous in ("(", "["):
        return ""
    if word == "(" and previous not in ("", ",", "=", OPERAND):
        return ""
    return " "


MTE_OP_NAMES = (
    "mte_gm_l1",
    "mte_gm_l1_frac",
    "mte_gm_ub",
    "mte_l0c_gm",
    "mte_l0c_l1",
    "mte_l0c_ub",
    "mte_l1_bt",
    "mte_l1_fb",
    "mte_l1_l0a",
    "mte_l1_l0a_mx",
    "mte_l1_l0b",
    "mte_l1_l0b_mx",
    "mte_l1_ub",
    "mte_ub_gm",
)


# Cube multiply-accumulates: lhs, rhs and dst buffers (and a bias), then m, n, k.
MAD_OP_BUFFERS = {
    "mad": 3,
    "mad_acc": 3,
    "mad_bias": 4,
    "mad_mx": 3,
    "mad_mx_acc": 3,
    "mad_mx_bias": 4,
}


def _keyword_group_op(mnemonic: str, buffers: int) -> type[MteOpBase]:
    class_name = "".join(part.title() for part in mnemonic.split("_")) + "Op"
    namespace = {
        "name": f"pto.{mnemonic}",
        "__doc__": f"PTOAS's `pto.{mnemonic}`.",
        "__annotations__": {"BUFFERS": ClassVar},
        "BUFFERS": buffers,
    }
    op = type(class_name, (MteOpBase,), namespace)
    op.__module__ = __name__
    return irdl_op_definition(op)


MTE_OPS = tuple(_keyword_group_op(name, 2) for name in MTE_OP_NAMES) + tuple(
    _keyword_group_op(name, buffers) for name, buffers in MAD_OP_BUFFERS.items()
)
