"""PTOAS's non-tile ops: pointers and scalars in global memory, tile binding
and views, block ids, cube/vector sections, event-id arrays, high-level and
dynamic synchronization, cube-vector pipes (tpush/tpop), reserved buffers and
asynchronous DMA sessions. Their syntax is PTOAS's declarative assembly format
(`PTOOps.td`), written here in xDSL's.
"""

from __future__ import annotations

from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    I64,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StringAttr,
    i32,
    i64,
)
from xdsl.ir import Attribute, Region
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import NoTerminator
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.attrs import (
    EventIdArrayType,
)
from xla_emit.dialects.pto.types import PIPES, EventAttr, PipeAttr, PtrType, TileBufType
from xla_emit.dialects.syntax import parse_body_region

_INDEX = IndexType()


@irdl_op_definition
class AddPtrOp(IRDLOperation):
    """`%q = pto.addptr %p, %n : !pto.ptr<f32> -> !pto.ptr<f32>`: p + n elements."""

    name = "pto.addptr"
    ptr = operand_def(PtrType)
    offset = operand_def(_INDEX)
    result = result_def(PtrType)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        ptr = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        offset = parser.parse_operand(_INDEX)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ptr_type = _parse_ptr_type(parser)
        parser.parse_punctuation("->")
        result_type = _parse_ptr_type(parser)
        op = cls.create(
            operands=[parser.resolve_operand(ptr, ptr_type), offset], result_types=[result_type]
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.ptr)
        printer.print_string(", ")
        printer.print_operand(self.offset)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.ptr.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)


def _parse_ptr_type(parser: Parser) -> Attribute:
    """`!pto.ptr<f32, gm>`, or `<f32, gm>` / `<f32>`: MLIR's short form for a type the
    op's format fixes to `!pto.ptr` (PTOAS prints addptr's types that way)."""
    # xDSL has no public peek.
    if parser._current_token.text != "<":  # pyright: ignore[reportPrivateUsage]
        return parser.parse_type()
    return PtrType.new(PtrType.parse_parameters(parser))


@irdl_op_definition
class LoadScalarOp(IRDLOperation):
    """`%v = pto.load_scalar %p[%i] : !pto.ptr<f32> -> f32`."""

    name = "pto.load_scalar"
    ptr = operand_def()
    offset = operand_def(_INDEX)
    value = result_def()
    assembly_format = "$ptr `[` $offset `]` attr-dict `:` type($ptr) `->` type($value)"


@irdl_op_definition
class StoreScalarOp(IRDLOperation):
    """`pto.store_scalar %v, %p[%i] : !pto.ptr<f32>, f32`."""

    name = "pto.store_scalar"
    value = operand_def()
    ptr = operand_def()
    offset = operand_def(_INDEX)
    assembly_format = "$value `,` $ptr `[` $offset `]` attr-dict `:` type($ptr) `,` type($value)"


@irdl_op_definition
class GetTensorViewDimOp(IRDLOperation):
    """`%d = pto.get_tensor_view_dim %v, %i : !pto.tensor_view<?x?xf32> -> index`."""

    name = "pto.get_tensor_view_dim"
    tensor_view = operand_def()
    dim_index = operand_def(_INDEX)
    result = result_def(_INDEX)
    assembly_format = (
        "$tensor_view `,` $dim_index `:` type($tensor_view) `->` type($result) attr-dict"
    )


@irdl_op_definition
class BindTileOp(IRDLOperation):
    """`%t = pto.bind_tile %m, %vr, %vc {config = ...} : memref<...> -> memref<...>`."""

    name = "pto.bind_tile"
    source = operand_def(MemRefType)
    valid_row = opt_operand_def(_INDEX)
    valid_col = opt_operand_def(_INDEX)
    result = result_def(MemRefType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = (
        "$source (`,` $valid_row^ `,` $valid_col)? attr-dict `:` type($source) `->` type($result)"
    )


@irdl_op_definition
class SubsetOp(IRDLOperation):
    """`%s = pto.subset %t[%i, %j] sizes [32, 32] : !pto.tile_buf<...>`: a window of a tile."""

    name = "pto.subset"
    # PTOAS infers the window's type from `sizes`; here it keeps the source's.
    T: ClassVar = VarConstraint("T", base(TileBufType))
    source = operand_def(T)
    offsets = var_operand_def(_INDEX)
    sizes = prop_def(Attribute)
    result = result_def(T)
    assembly_format = "$source `[` $offsets `]` `sizes` $sizes attr-dict `:` type($source)"


@irdl_op_definition
class SetValidShapeOp(IRDLOperation):
    """`pto.set_validshape %t, %rows, %cols : !pto.tile_buf<...>` (dynamic valid shape)."""

    name = "pto.set_validshape"
    source = operand_def()
    valid_row = operand_def(_INDEX)
    valid_col = operand_def(_INDEX)
    assembly_format = "$source `,` $valid_row `,` $valid_col attr-dict `:` type($source)"


class _I64QueryOpBase(IRDLOperation):
    result = result_def(I64)
    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__(result_types=[i64])


@irdl_op_definition
class GetBlockIdxOp(_I64QueryOpBase):
    """`%b = pto.get_block_idx`: this core's block index (i64)."""

    name = "pto.get_block_idx"


@irdl_op_definition
class GetSubblockIdxOp(_I64QueryOpBase):
    """`%s = pto.get_subblock_idx`: the vector sub-core index within the block."""

    name = "pto.get_subblock_idx"


@irdl_op_definition
class GetBlockNumOp(_I64QueryOpBase):
    """`%n = pto.get_block_num`: the number of blocks launched."""

    name = "pto.get_block_num"


@irdl_op_definition
class GetSubblockNumOp(_I64QueryOpBase):
    """`%n = pto.get_subblock_num`: vector sub-cores per block."""

    name = "pto.get_subblock_num"


class _SectionOpBase(IRDLOperation):
    """A section's body: one block (an empty `{ }` is an empty block, as MLIR's
    generated parser makes it for a single-block region without terminator)."""

    body = region_def("single_block")
    traits = traits_def(NoTerminator())

    def __init__(self, body: Region) -> None:
        super().__init__(regions=[body])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        op = cls(parse_body_region(parser))
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_region(self.body, print_empty_block=False)
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class SectionCubeOp(_SectionOpBase):
    """`pto.section.cube { ... }`: code for the cube core only."""

    name = "pto.section.cube"


@irdl_op_definition
class SectionVectorOp(_SectionOpBase):
    """`pto.section.vector { ... }`: code for the vector cores only."""

    name = "pto.section.vector"


class _EventPairOpBase(IRDLOperation):
    """`[SRC, DST, EVENT]`: the event may be written `<EVENT_ID0>` or in full."""

    src_op = prop_def(Attribute)
    dst_op = prop_def(Attribute)
    event_id = prop_def(EventAttr)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        with parser.in_square_brackets():
            src = parser.parse_attribute()
            parser.parse_punctuation(",")
            dst = parser.parse_attribute()
            parser.parse_punctuation(",")
            event = EventAttr.parse_short(parser)
        attributes = parser.parse_optional_attr_dict()
        return cls.build(
            properties={"src_op": src, "dst_op": dst, "event_id": event}, attributes=attributes
        )

    def print(self, printer: Printer) -> None:
        printer.print_string("[")
        printer.print_list((self.src_op, self.dst_op, self.event_id), printer.print_attribute)
        printer.print_string("]")
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)


@irdl_op_definition
class RecordEventOp(_EventPairOpBase):
    """`pto.record_event[#pto.sync_op_type<TLOAD>, #pto.sync_op_type<TMOV_M2L>, <EVENT_ID0>]`."""

    name = "pto.record_event"


@irdl_op_definition
class WaitEventOp(_EventPairOpBase):
    """Wait for the event `record_event` set between the same op classes."""

    name = "pto.wait_event"


@irdl_op_definition
class BarrierSyncOp(IRDLOperation):
    """`pto.barrier_sync[#pto.sync_op_type<TVEC>]`: drain the op class's pipe."""

    name = "pto.barrier_sync"
    op_type = prop_def(Attribute)
    assembly_format = "`[` $op_type `]` attr-dict"


class _DynamicFlagOpBase(IRDLOperation):
    src_pipe = prop_def(Attribute)
    dst_pipe = prop_def(Attribute)
    event_id = operand_def(_INDEX)
    assembly_format = "`[` $src_pipe `,` $dst_pipe `,` $event_id `]` attr-dict"


@irdl_op_definition
class SetFlagDynOp(_DynamicFlagOpBase):
    """`pto.set_flag_dyn [#pto.pipe<A>, #pto.pipe<B>, %eid]`: an event id known at run time."""

    name = "pto.set_flag_dyn"


@irdl_op_definition
class WaitFlagDynOp(_DynamicFlagOpBase):
    """The wait matching `set_flag_dyn`."""

    name = "pto.wait_flag_dyn"


def parse_pipe_head(parser: Parser) -> tuple[Attribute, bool]:
    """The op type that opens `[#pto.pipe_event_type<..>, ...]` or `"PIPE_V", ...`, and
    whether it opened a bracket (closed after the operands)."""
    if parser.parse_optional_punctuation("[") is not None:
        return parser.parse_attribute(), True
    position = parser.pos
    pipe = parser.parse_optional_str_literal()
    if pipe is None:
        parser.raise_error(
            "expected string pipe/op_type or '['", position, max(parser.pos, position + 1)
        )
    if pipe not in PIPES:
        parser.raise_error(f"unknown pipe token: {pipe}", position, parser.pos)
    return PipeAttr.new([StringAttr(pipe)]), False


def print_pipe_head(printer: Printer, op_type: Attribute) -> str:
    """Prints the op type as `parse_pipe_head` reads it; returns what closes it."""
    if isinstance(op_type, PipeAttr):
        printer.print_string(f' "{op_type.value.data}", ')
        return ""
    printer.print_string("[")
    printer.print_attribute(op_type)
    printer.print_string(", ")
    return "]"


class _BufferOpBase(IRDLOperation):
    """`pto.OP[#pto.pipe_event_type<TLOAD>, 0]` or, as PTOAS main also writes it,
    `pto.OP "PIPE_V", 0[, MODE]` (a pipe by name; the mode defaults to 0)."""

    op_type = prop_def(Attribute)
    buf_id = prop_def(Attribute)
    mode = opt_prop_def(IntegerAttr)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        op_type, bracketed = parse_pipe_head(parser)
        parser.parse_punctuation(",")
        properties: dict[str, Attribute] = {"op_type": op_type}
        properties["buf_id"] = IntegerAttr(parser.parse_integer(), i64)
        if parser.parse_optional_punctuation(",") is not None:
            properties["mode"] = IntegerAttr(parser.parse_integer(), i32)
        if bracketed:
            parser.parse_punctuation("]")
        op = cls.build(properties=properties)
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        buf_id = self.buf_id.value.data if isinstance(self.buf_id, IntegerAttr) else self.buf_id
        mode = f", {self.mode.value.data}" if self.mode is not None else ""
        closing = print_pipe_head(printer, self.op_type)
        printer.print_string(f"{buf_id}{mode}{closing}")
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class GetBufOp(_BufferOpBase):
    """`pto.get_buf[#pto.pipe_event_type<TLOAD>, 0]`: acquire buffer slot 0 for TLOAD."""

    name = "pto.get_buf"


@irdl_op_definition
class RlsBufOp(_BufferOpBase):
    """Release the buffer slot `get_buf` acquired."""

    name = "pto.rls_buf"


class _CrossCoreSyncOpBase(IRDLOperation):
    """`pto.sync.OP <PIPE>, N`: a flag between the cube and the vector cores; PTOAS
    main also takes the flag as an index value (`<PIPE_FIX>, %e {ffts_mode = 1 : i32}`)."""

    pipe = prop_def(PipeAttr)
    event_id = opt_prop_def(IntegerAttr)
    event_id_dyn = opt_operand_def(IndexType)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        # The pipe is written without its prefix: `<PIPE_FIX>`.
        pipe = PipeAttr.new(PipeAttr.parse_parameters(parser))
        parser.parse_punctuation(",")
        dynamic = parser.parse_optional_unresolved_operand()
        if dynamic is not None:
            operands = [parser.resolve_operand(dynamic, IndexType())]
            properties: dict[str, Attribute] = {"pipe": pipe}
        else:
            operands, properties = [], {"pipe": pipe, "event_id": parser.parse_attribute()}
        op = cls.build(operands=[operands], properties=properties)
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        self.pipe.print_parameters(printer)
        printer.print_string(", ")
        if self.event_id_dyn is not None:
            printer.print_operand(self.event_id_dyn)
        elif self.event_id is not None:
            printer.print_attribute(self.event_id)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if (self.event_id is None) == (self.event_id_dyn is None):
            raise VerifyException(
                "expects exactly one event-id form: static attr or dynamic index operand"
            )
        mode = self.attributes.get("ffts_mode")
        if isinstance(mode, IntegerAttr) and not 0 <= mode.value.data <= 2:
            raise VerifyException(f"requires ffts_mode in range [0, 2], but got {mode.value.data}")


@irdl_op_definition
class SyncSetOp(_CrossCoreSyncOpBase):
    """`pto.sync.set <PIPE_FIX>, 0`: raise cross-core flag 0 when the pipe is done."""

    name = "pto.sync.set"


@irdl_op_definition
class SyncWaitOp(_CrossCoreSyncOpBase):
    """`pto.sync.wait <PIPE_V>, 0`: stall the pipe until cross-core flag 0 is raised."""

    name = "pto.sync.wait"


@irdl_op_definition
class DeclareTileOp(IRDLOperation):
    """`%t = pto.declare_tile -> !pto.tile_buf<...>`: a tile whose storage a pipe provides."""

    name = "pto.declare_tile"
    tile = result_def()
    assembly_format = "attr-dict `->` type($tile)"


@irdl_op_definition
class DeclareEventIdArrayOp(IRDLOperation):
    """`%a = pto.declare_eventid_array -> !pto.eventid_array<4>`."""

    name = "pto.declare_eventid_array"
    array = result_def(EventIdArrayType)
    assembly_format = "attr-dict `->` type($array)"


@irdl_op_definition
class EventIdArrayGetOp(IRDLOperation):
    """`%e = pto.eventid_array_get %a[%i] : !pto.eventid_array<4>` (an index)."""

    name = "pto.eventid_array_get"
    array = operand_def(EventIdArrayType)
    index = operand_def(_INDEX)
    result = result_def(_INDEX)
    assembly_format = "$array `[` $index `]` attr-dict `:` type($array)"


@irdl_op_definition
class EventIdArraySetOp(IRDLOperation):
    """`pto.eventid_array_set %a[%i], %v : !pto.eventid_array<4>`."""

    name = "pto.eventid_array_set"
    array = operand_def(EventIdArrayType)
    index = operand_def(_INDEX)
    value = operand_def(_INDEX)
    assembly_format = "$array `[` $index `]` `,` $value attr-dict `:` type($array)"


@irdl_op_definition
class DeclareTileMemrefOp(IRDLOperation):
    """`%m = pto.declare_tile_memref -> memref<...>` (PTOAS a56b18c's; main retired it):
    a memref handle, as a56b18c's `AnyMemRef` result has it."""

    name = "pto.declare_tile_memref"
    result = result_def(MemRefType)
    assembly_format = "attr-dict `->` type($result)"


@irdl_op_definition
class SetFftsOp(IRDLOperation):
    """`pto.set_ffts %base : !pto.ptr<i64>`: the cross-core flag table's address (a
    memref in PTOAS a56b18c, which still reads; PTOAS main wants a pointer to i64 or i8)."""

    name = "pto.set_ffts"
    ffts = operand_def(MemRefType | PtrType)
    assembly_format = "$ffts attr-dict `:` type($ffts)"

    def verify_(self) -> None:
        kind = self.ffts.type
        if isinstance(kind, PtrType) and kind.element_type not in (i64, IntegerType(8)):
            raise VerifyException("expects element type i64 (or i8)")


@irdl_op_definition
class TrapOp(IRDLOperation):
    """`pto.trap`: stop the kernel."""

    name = "pto.trap"
    assembly_format = "attr-dict"


@irdl_op_definition
class PrintOp(IRDLOperation):
    """`pto.print ins("fmt %f", %x : f32)`: print one scalar."""

    name = "pto.print"
    format = prop_def(Attribute)
    scalar = operand_def()
    assembly_format = "`ins` `(` $format `,` $scalar `:` type($scalar) `)` attr-dict"


@irdl_op_definition
class BitcastOp(IRDLOperation):
    """`%u = pto.bitcast %t : T -> U`: the same tile bytes as another element type."""

    name = "pto.bitcast"
    src = operand_def(TileBufType)
    result = result_def(TileBufType)
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"


@irdl_op_definition
class PointerCastOp(IRDLOperation):
    """`%m = pto.pointer_cast(%addr) : memref<...>`: a buffer at fixed addresses."""

    name = "pto.pointer_cast"
    addrs = var_operand_def(IntegerType(64))
    valid_row = opt_operand_def(_INDEX)
    valid_col = opt_operand_def(_INDEX)
    result = result_def(MemRefType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = "`(` $addrs `)` ($valid_row^ `,` $valid_col)? attr-dict `:` type($result)"


# Ops that order pipes or cores and move no data.
SYNCHRONIZATION_OPS: tuple[type[IRDLOperation], ...] = (
    RecordEventOp,
    WaitEventOp,
    BarrierSyncOp,
    SyncSetOp,
    SyncWaitOp,
    SetFlagDynOp,
    WaitFlagDynOp,
    GetBufOp,
    RlsBufOp,
    SetFftsOp,
)

INFRA_OPS: tuple[type[IRDLOperation], ...] = (
    AddPtrOp,
    LoadScalarOp,
    StoreScalarOp,
    GetTensorViewDimOp,
    BindTileOp,
    SubsetOp,
    SetValidShapeOp,
    GetBlockIdxOp,
    GetSubblockIdxOp,
    GetBlockNumOp,
    GetSubblockNumOp,
    SectionCubeOp,
    SectionVectorOp,
    RecordEventOp,
    WaitEventOp,
    BarrierSyncOp,
    SyncSetOp,
    SyncWaitOp,
    SetFlagDynOp,
    WaitFlagDynOp,
    GetBufOp,
    RlsBufOp,
    DeclareEventIdArrayOp,
    EventIdArrayGetOp,
    EventIdArraySetOp,
    DeclareTileOp,
    DeclareTileMemrefOp,
    SetFftsOp,
    TrapOp,
    PrintOp,
    BitcastOp,
    PointerCastOp,
)
