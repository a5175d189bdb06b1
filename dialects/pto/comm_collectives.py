"""PTOAS's collectives over a communication group (`comm.tbroadcast`, `comm.tgather`,
`comm.tscatter`, `comm.treduce`), in the syntax PTOAS parses by hand:

    pto.comm.tbroadcast(%src, recv(%ping, %pong), group(%g0, %g1) : SRC, PING, PONG, G, G)
        {root = 0 : i32}
    pto.comm.treduce(%dst, %acc, recv(%ping), group(%g0) : DST, ACC, PING, G)
        {reduceOp = #pto.reduce_op<sum>, root = 0 : i32}

Global operands are tensor or partition views of static positive shape; the staging
tiles (`recv` ping and optional pong, `treduce`'s accumulator) are `vec` tile buffers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Self

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.types import PartitionTensorViewType, TensorViewType, TileBufType


def _element(kind: Attribute) -> Attribute | None:
    return getattr(kind, "element_type", None)


def verify_global(value: SSAValue, name: str) -> None:
    kind = value.type
    if not isinstance(kind, TensorViewType | PartitionTensorViewType):
        raise VerifyException(f"expects {name} to be a tensor_view or partition_view")
    if not kind.dims:
        raise VerifyException(f"expects {name} to have rank >= 1")
    for dim in kind.dims:
        if dim < 0:
            raise VerifyException(f"does not support dynamic dimensions on {name}")
        if dim == 0:
            raise VerifyException(f"expects every static dimension of {name} to be positive")


def verify_staging_tile(value: SSAValue, name: str) -> None:
    kind = value.type
    if not isinstance(kind, TileBufType):
        raise VerifyException(f"expects {name} to be a tile_buf")
    if kind.loc.data != "vec":
        raise VerifyException(f"expects {name} to be in vec address space")
    if any(dim <= 0 for dim in kind.shape):
        raise VerifyException(f"expects {name} to have a positive static shape")


def verify_ping_pong(ping: SSAValue, pong: SSAValue | None, names: tuple[str, str]) -> None:
    if pong is None:
        return
    verify_staging_tile(ping, names[0])
    verify_staging_tile(pong, names[1])
    if ping.type != pong.type:
        raise VerifyException(f"expects {names[0]} and {names[1]} to have identical types")


def verify_group(group: Sequence[SSAValue]) -> None:
    if not group:
        raise VerifyException("expects at least one group operand")
    for index, member in enumerate(group):
        verify_global(member, f"group[{index}]")
        if member.type != group[0].type:
            raise VerifyException("expects all group operands to have identical types")


class _CollectiveOpBase(IRDLOperation):
    """`pto.comm.OP(FIXED..., recv(%ping[, %pong]), group(%g...) : TYPES...) {attrs}`."""

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    # The operands before `recv(...)`, and the attributes PTOAS requires.
    FIXED: ClassVar[tuple[str, ...]] = ()
    REQUIRED: ClassVar[tuple[str, ...]] = ("root",)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        parser.parse_punctuation("(")
        fixed: list[UnresolvedOperand] = []
        for _ in cls.FIXED:
            fixed.append(parser.parse_unresolved_operand())
            parser.parse_punctuation(",")
        parser.parse_keyword("recv")
        parser.parse_punctuation("(")
        recv = [parser.parse_unresolved_operand()]
        if parser.parse_optional_punctuation(",") is not None:
            recv.append(parser.parse_unresolved_operand())
        parser.parse_punctuation(")")
        parser.parse_punctuation(",")
        parser.parse_keyword("group")
        group = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        parser.parse_punctuation(":")
        names = [*fixed, *recv, *group]
        types = [parser.parse_type()]
        for _ in names[1:]:
            parser.parse_punctuation(",")
            types.append(parser.parse_type())
        parser.parse_punctuation(")")
        position = parser.pos
        attributes = parser.parse_optional_attr_dict()
        for required in cls.REQUIRED:
            if required not in attributes:
                parser.raise_error(f"expected '{required}' attribute", position)
        values = [parser.resolve_operand(n, t) for n, t in zip(names, types, strict=True)]
        count = len(fixed)
        operands: list[object] = [[v] for v in values[:count]]
        operands += [values[count], values[count + 1 : len(fixed) + len(recv)]]
        operands.append(values[len(fixed) + len(recv) :])
        properties = {name: attributes.pop(name) for name in cls.REQUIRED}
        op = cls.build(operands=operands, properties=properties)  # type: ignore[arg-type]
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        fixed = [getattr(self, name) for name in self.FIXED]
        recv = [self.ping, *([self.pong] if self.pong is not None else [])]
        printer.print_string("(")
        for value in fixed:
            printer.print_operand(value)
            printer.print_string(", ")
        printer.print_string("recv(")
        printer.print_list(recv, printer.print_operand)
        printer.print_string("), group(")
        printer.print_list(self.group, printer.print_operand)
        printer.print_string(") : ")
        printer.print_list([v.type for v in (*fixed, *recv, *self.group)], printer.print_attribute)
        printer.print_string(") ")
        printer.print_attr_dict(
            {**{name: self.properties[name] for name in self.REQUIRED}, **self.attributes}
        )

    def _verify_common(self, global_name: str, global_value: SSAValue) -> None:
        verify_global(global_value, global_name)
        names = ("recv_ping", "recv_pong") if self.FIXED == ("dst", "acc") else ("ping", "pong")
        if self.FIXED != ("dst", "acc"):
            verify_staging_tile(self.ping, "ping")
        else:
            verify_staging_tile(self.acc, "acc")
            verify_staging_tile(self.ping, "recv_ping")
        verify_ping_pong(self.ping, self.pong, names)
        verify_group(self.group)
        if self.root.value.data >= len(self.group):
            raise VerifyException("expects root to index into group operands")


@irdl_op_definition
class TBroadcastOp(_CollectiveOpBase):
    """Send `src` from the root to every member of the group."""

    name = "pto.comm.tbroadcast"
    src = operand_def()
    ping = operand_def()
    pong = opt_operand_def()
    group = var_operand_def()
    root = prop_def(IntegerAttr)
    FIXED: ClassVar[tuple[str, ...]] = ("src",)

    def verify_(self) -> None:
        self._verify_common("src", self.src)
        if self.src.type != self.group[0].type:
            raise VerifyException("expects src type to match group member type")
        if _element(self.ping.type) != _element(self.src.type):
            raise VerifyException("expects staging tile element type to match src")


@irdl_op_definition
class CommTGatherOp(_CollectiveOpBase):
    """Gather every member's data into `dst` at the root."""

    name = "pto.comm.tgather"
    dst = operand_def()
    ping = operand_def()
    pong = opt_operand_def()
    group = var_operand_def()
    root = prop_def(IntegerAttr)
    FIXED: ClassVar[tuple[str, ...]] = ("dst",)

    def verify_(self) -> None:
        self._verify_common("dst", self.dst)
        if _element(self.dst.type) != _element(self.group[0].type):
            raise VerifyException("expects dst element type to match group member type")
        if _element(self.ping.type) != _element(self.dst.type):
            raise VerifyException("expects staging tile element type to match dst")


@irdl_op_definition
class CommTScatterOp(_CollectiveOpBase):
    """Scatter the root's `src` over the members of the group."""

    name = "pto.comm.tscatter"
    src = operand_def()
    ping = operand_def()
    pong = opt_operand_def()
    group = var_operand_def()
    root = prop_def(IntegerAttr)
    FIXED: ClassVar[tuple[str, ...]] = ("src",)

    def verify_(self) -> None:
        self._verify_common("src", self.src)
        if _element(self.src.type) != _element(self.group[0].type):
            raise VerifyException("expects src element type to match group member type")
        if _element(self.ping.type) != _element(self.src.type):
            raise VerifyException("expects staging tile element type to match src")


@irdl_op_definition
class TReduceOp(_CollectiveOpBase):
    """Reduce every member's data into `dst` at the root, through `acc`."""

    name = "pto.comm.treduce"
    dst = operand_def()
    acc = operand_def()
    ping = operand_def()
    pong = opt_operand_def()
    group = var_operand_def()
    root = prop_def(IntegerAttr)
    reduceOp = prop_def(Attribute)
    FIXED: ClassVar[tuple[str, ...]] = ("dst", "acc")
    REQUIRED: ClassVar[tuple[str, ...]] = ("reduceOp", "root")

    def verify_(self) -> None:
        self._verify_common("dst", self.dst)
        if _element(self.dst.type) != _element(self.group[0].type):
            raise VerifyException("expects dst element type to match group member type")
        if self.acc.type != self.ping.type:
            raise VerifyException("expects acc and recv_ping to have identical types")
        if _element(self.acc.type) != _element(self.dst.type):
            raise VerifyException("expects accumulator/receive tiles to match dst element type")


COMM_COLLECTIVE_OPS = (TBroadcastOp, CommTGatherOp, CommTScatterOp, TReduceOp)
