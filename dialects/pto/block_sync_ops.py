"""PTOAS's synchronization and cache-maintenance ops that it parses by hand: flags
between the cores of a block and across blocks, dynamic buffer slots, all-core
barriers, and the data-cache ops, in PTOAS's syntax:

    pto.set_intra_block <PIPE_FIX>, 1          (or a dynamic index: `<PIPE_V>, %e`)
    pto.wait_cross_block <PIPE_MTE2>, 0
    pto.get_buf_dyn "PIPE_V", %slot, 0         (or `[#pto.pipe_event_type<TLOAD>, %slot, 0]`)
    pto.syncall() mode = #pto.sync_all_mode<hard>, core_type = #pto.sync_core_type<mix>
    pto.syncall(%ws, %n : !pto.ptr<i32, gm>, i32) mode = #pto.sync_all_mode<soft>, ...
    pto.dcci %p "SINGLE_CACHE_LINE", "CACHELINE_UB" : !pto.ptr<i8, ub>
    pto.dsb "DDR"
"""

from __future__ import annotations

from typing import ClassVar, Self

from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, StringAttr, i32
from xdsl.ir import Attribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.attrs import PTOEnumAttrBase
from xla_emit.dialects.pto.declared_ops import declared_attribute
from xla_emit.dialects.pto.infra_ops import parse_pipe_head, print_pipe_head
from xla_emit.dialects.pto.types import (
    DYNAMIC,
    PIPES,
    PartitionTensorViewType,
    PipeAttr,
    PtrType,
    TensorViewType,
    op_target,
)

SyncAllMode = declared_attribute("sync_all_mode")
SyncCoreType = declared_attribute("sync_core_type")
DcciCacheLine = declared_attribute("dcci_cache_line")
DcciDst = declared_attribute("dcci_dst")
DsbMem = declared_attribute("dsb_mem")

# The pipes a named block flag may wait on or raise.
FLAG_PIPES = ("PIPE_FIX", "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3", "PIPE_V")


# -- flags between the cores of a block, and across blocks ---------------------------


class _BlockFlagOpBase(IRDLOperation):
    """`pto.OP <PIPE>, N` or `pto.OP <PIPE>, %n`: one event id, static or dynamic."""

    pipe = prop_def(PipeAttr)
    event_id = opt_prop_def(IntegerAttr)
    event_id_dyn = opt_operand_def(IndexType)
    # The largest static event id on A2/A3 and on A5.
    MAX_EVENT: ClassVar[tuple[int, int]] = (15, 15)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        if parser.parse_optional_punctuation("<") is not None:
            position = parser.pos
            pipe = parser.parse_identifier()
            if pipe not in PIPES:
                parser.raise_error(f"unknown pipe token: {pipe}", position, parser.pos)
            parser.parse_punctuation(">")
            pipe_attr: Attribute = PipeAttr.new([StringAttr(pipe)])
        else:
            pipe_attr = parser.parse_attribute()
        parser.parse_punctuation(",")
        properties: dict[str, Attribute] = {"pipe": pipe_attr}
        operands: list[object] = []
        dynamic = parser.parse_optional_unresolved_operand()
        if dynamic is not None:
            operands.append(parser.resolve_operand(dynamic, IndexType()))
        else:
            properties["event_id"] = IntegerAttr(parser.parse_integer(), i32)
        attributes = parser.parse_optional_attr_dict()
        op = cls.build(operands=[operands], properties=properties)  # type: ignore[list-item]
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" <{self.pipe.value.data}>, ")
        if self.event_id is not None:
            printer.print_string(str(self.event_id.value.data))
        elif self.event_id_dyn is not None:
            printer.print_operand(self.event_id_dyn)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if (self.event_id is None) == (self.event_id_dyn is None):
            raise VerifyException(
                "expects exactly one event-id form: static attr or dynamic index operand"
            )
        limit = self.MAX_EVENT[1] if op_target(self) == "a5" else self.MAX_EVENT[0]
        if self.event_id is not None and not 0 <= self.event_id.value.data <= limit:
            raise VerifyException(
                f"expects static event_id in [0, {limit}], but got {self.event_id.value.data}"
            )
        if self.pipe.value.data not in FLAG_PIPES:
            raise VerifyException(
                f"{self.name} expects pipe to be one of "
                + ", ".join(f"<{pipe}>" for pipe in FLAG_PIPES)
            )


@irdl_op_definition
class SetIntraBlockOp(_BlockFlagOpBase):
    """Raise a flag between the cube and vector cores of one block."""

    name = "pto.set_intra_block"
    MAX_EVENT: ClassVar[tuple[int, int]] = (15, 31)


@irdl_op_definition
class WaitIntraBlockOp(_BlockFlagOpBase):
    """Wait for the flag `set_intra_block` raises."""

    name = "pto.wait_intra_block"
    MAX_EVENT: ClassVar[tuple[int, int]] = (15, 31)


@irdl_op_definition
class SetCrossBlockOp(_BlockFlagOpBase):
    """Raise a flag every block sees (FFTS mode 0 only)."""

    name = "pto.set_cross_block"
    ffts_mode = opt_prop_def(IntegerAttr)

    def verify_(self) -> None:
        if self.ffts_mode is not None and self.ffts_mode.value.data != 0:
            raise VerifyException(f"requires ffts_mode 0, but got {self.ffts_mode.value.data}")
        super().verify_()


@irdl_op_definition
class WaitCrossBlockOp(_BlockFlagOpBase):
    """Wait for the flag `set_cross_block` raises."""

    name = "pto.wait_cross_block"


# -- dynamic buffer slots -------------------------------------------------------------


class _BufDynOpBase(IRDLOperation):
    """`pto.OP "PIPE_V", %slot, MODE` or `pto.OP[#pto.pipe_event_type<..>, %slot, MODE]`."""

    op_type = prop_def(Attribute)
    buf_id = operand_def(IndexType)
    mode = prop_def(IntegerAttr)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        op_type, bracketed = parse_pipe_head(parser)
        parser.parse_punctuation(",")
        slot = parser.resolve_operand(parser.parse_unresolved_operand(), IndexType())
        mode = 0
        if parser.parse_optional_punctuation(",") is not None:
            mode = parser.parse_integer()
        if bracketed:
            parser.parse_punctuation("]")
        attributes = parser.parse_optional_attr_dict()
        op = cls.build(
            operands=[slot], properties={"op_type": op_type, "mode": IntegerAttr(mode, i32)}
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        closing = print_pipe_head(printer, self.op_type)
        printer.print_operand(self.buf_id)
        printer.print_string(f", {self.mode.value.data}{closing}")
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class GetBufDynOp(_BufDynOpBase):
    """Acquire the buffer slot a run-time index names."""

    name = "pto.get_buf_dyn"


@irdl_op_definition
class RlsBufDynOp(_BufDynOpBase):
    """Release the slot `get_buf_dyn` acquired."""

    name = "pto.rls_buf_dyn"


# -- all-core barrier -----------------------------------------------------------------


@irdl_op_definition
class SyncAllOp(IRDLOperation):
    """`pto.syncall`: every participating core waits for the others; a soft barrier
    counts arrivals in a global-memory workspace of at least 16 i32."""

    name = "pto.syncall"
    gm_workspace = opt_operand_def()
    used_cores = opt_operand_def(IntegerType(32))
    mode = prop_def(SyncAllMode)
    core_type = prop_def(SyncCoreType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        start = parser.pos
        parser.parse_punctuation("(")
        operands, types = [], []
        if parser.parse_optional_punctuation(")") is None:
            operands = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            parser.parse_punctuation(")")
            if len(operands) != len(types):
                parser.raise_error("expects the same number of operands and operand types")
        parser.parse_keyword("mode")
        parser.parse_punctuation("=")
        mode = parser.parse_attribute()
        if not isinstance(mode, SyncAllMode):
            parser.raise_error("expects mode to be #pto.sync_all_mode<...>")
        parser.parse_punctuation(",")
        parser.parse_keyword("core_type")
        parser.parse_punctuation("=")
        core_type = parser.parse_attribute()
        if not isinstance(core_type, SyncCoreType):
            parser.raise_error("expects core_type to be #pto.sync_core_type<...>")
        attributes = parser.parse_optional_attr_dict()
        if mode.data == "hard" and operands:
            parser.raise_error("expects hard syncall to have no operands", start, start + 1)
        if mode.data == "soft" and len(operands) not in (1, 2):
            parser.raise_error("expects soft syncall to have gm_workspace and optional used_cores")
        values = [parser.resolve_operand(o, t) for o, t in zip(operands, types, strict=True)]
        op = cls.build(
            operands=[values[:1], values[1:2]],
            properties={"mode": mode, "core_type": core_type},
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        values = [v for v in (self.gm_workspace, self.used_cores) if v is not None]
        printer.print_string("(")
        if values:
            printer.print_list(values, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list([v.type for v in values], printer.print_attribute)
        printer.print_string(") mode = ")
        printer.print_attribute(self.mode)
        printer.print_string(", core_type = ")
        printer.print_attribute(self.core_type)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if self.mode.data == "hard":
            if self.gm_workspace is not None or self.used_cores is not None:
                raise VerifyException("expects hard syncall to have no gm_workspace or used_cores")
            return
        if self.gm_workspace is None:
            raise VerifyException("expects soft syncall to provide gm_workspace")
        verify_sync_workspace(self.gm_workspace.type, "gm_workspace")


def verify_sync_workspace(kind: Attribute, name: str) -> None:
    """A soft barrier's counters: i32 in global memory, 16 of them at least (a pointer
    carries no size; the run time provides the 64 bytes)."""
    if isinstance(kind, PtrType):
        if not kind.is_global:
            raise VerifyException(f"expects {name} to be in GM address space")
        element, dims = kind.element_type, None
    elif isinstance(kind, TensorViewType | PartitionTensorViewType):
        element, dims = kind.element_type, kind.dims
    else:
        raise VerifyException(f"expects {name} to be a GM ptr/tensor_view/partition_view")
    if element != IntegerType(32):
        raise VerifyException(f"expects {name} element type to be i32")
    if dims is None:
        return
    if not dims:
        raise VerifyException(f"expects {name} to have rank >= 1")
    if any(d != DYNAMIC and d <= 0 for d in dims):
        raise VerifyException(f"expects {name} shape to be positive")
    if DYNAMIC not in dims:
        capacity = 1
        for dim in dims:
            capacity *= dim
        if capacity < 16:
            raise VerifyException(
                f"expects {name} to contain at least 16 i32 elements (64 bytes), but static "
                f"capacity is {capacity}"
            )


# -- data cache -----------------------------------------------------------------------


def _parse_legacy_or_attr(parser: Parser, kind: type[PTOEnumAttrBase], what: str) -> Attribute:
    """`"TOKEN"` (PTOAS's legacy spelling) or the attribute itself."""
    position = parser.pos
    token = parser.parse_optional_str_literal()
    if token is not None:
        if token not in kind.ALLOWED:
            parser.raise_error(f"invalid {what} token: {token}", position, parser.pos)
        return kind(token)
    attr = parser.parse_attribute()
    if not isinstance(attr, kind):
        parser.raise_error(f"expected {kind.name.removeprefix('pto.')} attribute", position)
    return attr


@irdl_op_definition
class DcciOp(IRDLOperation):
    """`pto.dcci %p "SINGLE_CACHE_LINE"[, "CACHELINE_UB"] : PTR`: clean and invalidate
    the data cache, one line or all of it."""

    name = "pto.dcci"
    ptr = operand_def(PtrType)
    cache = prop_def(DcciCacheLine)
    dst = opt_prop_def(DcciDst)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        ptr = parser.parse_unresolved_operand()
        properties = {"cache": _parse_legacy_or_attr(parser, DcciCacheLine, "dcci cache")}
        if parser.parse_optional_punctuation(",") is not None:
            properties["dst"] = _parse_legacy_or_attr(parser, DcciDst, "dcci dst")
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls.build(
            operands=[parser.resolve_operand(ptr, parser.parse_type())], properties=properties
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.ptr)
        printer.print_string(f' "{self.cache.data}"')
        if self.dst is not None:
            printer.print_string(f', "{self.dst.data}"')
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.ptr.type)

    def verify_(self) -> None:
        verify_outside_vecscope(self)


@irdl_op_definition
class DsbOp(IRDLOperation):
    """`pto.dsb "DDR"`: a data synchronization barrier over one memory."""

    name = "pto.dsb"
    mem = prop_def(DsbMem)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        op = cls.build(properties={"mem": _parse_legacy_or_attr(parser, DsbMem, "dsb memory")})
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f' "{self.mem.data}"')
        printer.print_op_attributes(self.attributes)


def verify_outside_vecscope(op: IRDLOperation) -> None:
    parent = op.parent_op()
    while parent is not None:
        if parent.name in ("pto.vecscope", "pto.strict_vecscope"):
            raise VerifyException("must be outside 'pto.vecscope'")
        parent = parent.parent_op()


BLOCK_SYNC_OPS = (
    SetIntraBlockOp,
    WaitIntraBlockOp,
    SetCrossBlockOp,
    WaitCrossBlockOp,
    GetBufDynOp,
    RlsBufDynOp,
    SyncAllOp,
    DcciOp,
    DsbOp,
)
