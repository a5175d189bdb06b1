"""VMI's unified logical-vector load and store, in PTOAS's syntax:

    %v = pto.vmi.vload %src[%off] [, %stride | , %block, %repeat] {attrs}
           : !pto.ptr<f32, ub> -> !pto.vmi.vreg<64xf32> [, ...]
    pto.vmi.vstore %v [, %w], %dst[%off] [, %stride | , %block, %repeat] [, %mask] {attrs}
           : !pto.vmi.vreg<64xf32> [, ...], !pto.ptr<f32, ub> [, !pto.vmi.mask<...>]

The operands after the brackets mean what the attributes say: with `group` one is a
row stride (then a store's mask), else two are block and repeat strides (then a
store's mask), else a store's one is its mask. The verifiers make PTOAS's checks on
how the modes combine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, MemRefType, StringAttr
from xdsl.ir import Attribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    BaseAttr,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.types import PtrType
from xla_emit.dialects.pto.vmi_rules import (
    contiguous_if_assigned as _contiguous_if_assigned,
)
from xla_emit.dialects.pto.vmi_rules import (
    mask_fits,
    memory_matches,
    num_groups_divide,
    packed_byte_store,
    same_vregs,
    vreg,
)
from xla_emit.dialects.pto.vpto_types import VMIMaskType, VMIVRegType

_INDEX = IndexType()
_I16 = IntegerType(16)
_MEMORY = BaseAttr(PtrType) | BaseAttr(MemRefType)


def _parse_trailing_operands(parser: Parser, limit: int) -> list[UnresolvedOperand]:
    operands = []
    while len(operands) < limit and parser.parse_optional_punctuation(",") is not None:
        operands.append(parser.parse_unresolved_operand())
    return operands


def _strides(
    parser: Parser, trailing: list[UnresolvedOperand], grouped: bool
) -> tuple[list[object], list[object], list[object], list[UnresolvedOperand]]:
    """The stride, block and repeat operand groups, and what is left (a mask)."""
    if grouped and trailing:
        return [parser.resolve_operand(trailing[0], _INDEX)], [], [], trailing[1:]
    if len(trailing) >= 2:
        block = [parser.resolve_operand(trailing[0], _I16)]
        repeat = [parser.resolve_operand(trailing[1], _I16)]
        return [], block, repeat, trailing[2:]
    return [], [], [], trailing


def _print_strides(printer: Printer, op: VLoadOp | VStoreOp) -> None:
    for operand in (op.stride, op.block_stride, op.repeat_stride):
        if operand is not None:
            printer.print_string(", ")
            printer.print_operand(operand)


DIST_MODES = ("continuous", "unpack", "dintlv", "brc")


def _verify_modes(op: VLoadOp | VStoreOp, values: Sequence[VMIVRegType], noun: str) -> None:
    """PTOAS's rules for how group, dist_mode and block/repeat strides combine; `noun`
    is what the op has several of (a load's results, a store's values)."""
    dist = op.dist_mode.data if op.dist_mode is not None else None
    group = op.group.value.data if op.group is not None else None
    # A load may broadcast one scalar per group (`brc`); nothing else mixes the two.
    if group is not None and dist is not None and not (noun == "result" and dist == "brc"):
        raise VerifyException("group and dist_mode are mutually exclusive")
    if group is not None and op.stride is None:
        raise VerifyException("group requires a stride operand")
    if group is None and op.stride is not None:
        raise VerifyException("stride operand is only valid with group")
    if group is not None and noun == "value" and op.mask:  # type: ignore[union-attr]
        raise VerifyException("group mode does not support mask operand")
    if group is not None:
        if group <= 0:
            raise VerifyException(f"group must be positive, got {group}")
        if len(values) != 1:
            raise VerifyException(f"group mode requires exactly 1 {noun}")
        num_groups_divide(values[0], group)
    if (op.block_stride is None) != (op.repeat_stride is None):
        raise VerifyException("block_stride and repeat_stride must both be present or absent")
    if op.block_stride is not None:
        if dist is not None:
            raise VerifyException("block_stride and dist_mode are mutually exclusive")
        if len(values) != 1:
            raise VerifyException(f"block-stride mode requires exactly 1 {noun}")
    if noun == "value" and not values:
        raise VerifyException("requires at least 1 value")
    if dist == "dintlv" and len(values) != 2:
        raise VerifyException(f'dist-mode "dintlv" requires exactly 2 {noun}s')
    if dist != "dintlv" and len(values) != 1:
        raise VerifyException(f'requires exactly 1 {noun} for dist-mode "{dist or "continuous"}"')
    if dist is not None and dist not in DIST_MODES:
        raise VerifyException(f'invalid dist-mode: "{dist}"')
    pmode = op.pmode.data if op.pmode is not None else None
    if pmode is not None and pmode not in ("zero", "merge"):
        raise VerifyException(f'invalid pmode: "{pmode}"')


@irdl_op_definition
class VLoadOp(IRDLOperation):
    """Load one logical vector (two with `dist_mode = "dintlv"`) from memory."""

    name = "pto.vmi.vload"
    source = operand_def(_MEMORY)
    offset = operand_def(_INDEX)
    stride = opt_operand_def(_INDEX)
    block_stride = opt_operand_def(_I16)
    repeat_stride = opt_operand_def(_I16)
    results_ = var_result_def(VMIVRegType)
    dist_mode = opt_prop_def(StringAttr)
    group = opt_prop_def(IntegerAttr)
    pmode = opt_prop_def(StringAttr)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        offset = parser.parse_unresolved_operand()
        parser.parse_punctuation("]")
        trailing = _parse_trailing_operands(parser, 2)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        stride, block, repeat, _ = _strides(parser, trailing, grouped=len(trailing) == 1)
        op = cls.build(
            operands=[
                parser.resolve_operand(source, source_type),
                parser.resolve_operand(offset, _INDEX),
                stride,
                block,
                repeat,
            ],
            result_types=[result_types],
            properties=_properties(attributes),
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string("[")
        printer.print_operand(self.offset)
        printer.print_string("]")
        _print_strides(printer, self)
        printer.print_op_attributes(_printed_attributes(self))
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" -> ")
        printer.print_list(self.results_.types, printer.print_attribute)

    def verify_(self) -> None:
        results = [vreg(r) for r in self.results_]
        _verify_modes(self, results, "result")
        dist = self.dist_mode.data if self.dist_mode is not None else None
        for result in results:
            # `unpack` widens: the memory's element type differs from the result's.
            if dist != "unpack":
                memory_matches(self.source.type, result, "source")
            if dist == "dintlv":
                _contiguous_if_assigned(result, "result")


@irdl_op_definition
class VStoreOp(IRDLOperation):
    """Store one logical vector (two interleaved with `dist_mode = "dintlv"`)."""

    name = "pto.vmi.vstore"
    values = var_operand_def(VMIVRegType)
    destination = operand_def(_MEMORY)
    offset = operand_def(_INDEX)
    stride = opt_operand_def(_INDEX)
    block_stride = opt_operand_def(_I16)
    repeat_stride = opt_operand_def(_I16)
    mask = var_operand_def(VMIMaskType)
    dist_mode = opt_prop_def(StringAttr)
    group = opt_prop_def(IntegerAttr)
    pmode = opt_prop_def(StringAttr)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        before = [parser.parse_unresolved_operand()]
        while parser.parse_optional_punctuation("[") is None:
            parser.parse_punctuation(",")
            if parser.parse_optional_punctuation("[") is not None:
                break
            before.append(parser.parse_unresolved_operand())
        offset = parser.parse_unresolved_operand()
        parser.parse_punctuation("]")
        trailing = _parse_trailing_operands(parser, 3)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        at = parser.pos
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        stride, block, repeat, rest = _strides(parser, trailing, "group" in attributes)
        values = len(before) - 1
        expected = values + 1 + len(rest)
        if len(types) != expected:
            parser.raise_error(
                f"expected {expected} types ({values} value(s), 1 destination"
                f"{', 1 mask' if rest else ''}), got {len(types)}",
                at,
            )
        mask = [parser.resolve_operand(rest[0], types[-1])] if rest else []
        op = cls.build(
            operands=[
                [parser.resolve_operand(v, t) for v, t in zip(before[:-1], types, strict=False)],
                parser.resolve_operand(before[-1], types[values]),
                parser.resolve_operand(offset, _INDEX),
                stride,
                block,
                repeat,
                mask,
            ],
            properties=_properties(attributes),
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        for value in self.values:
            printer.print_operand(value)
            printer.print_string(", ")
        printer.print_operand(self.destination)
        printer.print_string("[")
        printer.print_operand(self.offset)
        printer.print_string("]")
        _print_strides(printer, self)
        for mask in self.mask:
            printer.print_string(", ")
            printer.print_operand(mask)
        printer.print_op_attributes(_printed_attributes(self))
        printer.print_string(" : ")
        types = [*self.values.types, self.destination.type, *self.mask.types]
        printer.print_list(types, printer.print_attribute)

    def verify_(self) -> None:
        values = [vreg(v) for v in self.values]
        _verify_modes(self, values, "value")
        if len(self.mask) > 1:
            raise VerifyException("at most one mask allowed")
        dist = self.dist_mode.data if self.dist_mode is not None else None
        if dist in ("unpack", "brc"):
            raise VerifyException(f'dist-mode "{dist}" is not valid for vstore')
        if self.pmode is not None and self.pmode.data != "zero":
            raise VerifyException(
                'pmode "merge" is not supported for stores: the store is governed by its '
                "mask alone and cannot keep the destination's inactive lanes; omit pmode "
                '(it defaults to "zero")'
            )
        if not (self.group is not None and packed_byte_store(self.destination.type, values[0])):
            memory_matches(self.destination.type, values[0], "destination")
        if len(values) == 2:
            same_vregs(values)
            _contiguous_if_assigned(values[0], "low input")
            _contiguous_if_assigned(values[1], "high input")
        if self.mask:
            mask_fits(self.mask[0].type, values[0])


def _printed_attributes(op: IRDLOperation) -> dict[str, Attribute]:
    shown = {**op.properties, **op.attributes}
    shown.pop("operandSegmentSizes", None)
    return shown


def _properties(attributes: dict[str, Attribute]) -> dict[str, Attribute]:
    """The attributes the ops keep as properties, moved out of the attribute dict."""
    return {
        name: attributes.pop(name) for name in ("dist_mode", "group", "pmode") if name in attributes
    }


VMI_MEMORY_OPS = (VLoadOp, VStoreOp)
