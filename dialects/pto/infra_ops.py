"""PTOAS's non-tile ops: pointers and scalars in global memory, tile binding
and views, block ids, cube/vector sections, event-id arrays, high-level and
dynamic synchronization, cube-vector pipes (tpush/tpop), reserved buffers and
asynchronous DMA sessions. Their syntax is PTOAS's declarative assembly format
(`PTOOps.td`), written here in xDSL's.
"""

from __future__ import annotations

from typing import ClassVar, Self

from xdsl.dialects.builtin import I64, IndexType, IntegerAttr, IntegerType, MemRefType, i64
from xdsl.ir import Attribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import NoTerminator

from dialects.pto.attrs import (
    AsyncEventType,
    AsyncSessionType,
    EventIdArrayType,
    PipeHandleType,
)
from dialects.pto.types import EventAttr, PipeAttr, PtrType, TileBufType

_INDEX = IndexType()


@irdl_op_definition
class AddPtrOp(IRDLOperation):
    """`%q = pto.addptr %p, %n : !pto.ptr<f32> -> !pto.ptr<f32>`: p + n elements."""

    name = "pto.addptr"
    ptr = operand_def(PtrType)
    offset = operand_def(_INDEX)
    result = result_def(PtrType)
    assembly_format = "$ptr `,` $offset attr-dict `:` type($ptr) `->` type($result)"


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
    body = region_def("single_block")
    traits = traits_def(NoTerminator())
    assembly_format = "$body attr-dict"


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


class _CrossCoreSyncOpBase(IRDLOperation):
    pipe = prop_def(PipeAttr)
    event_id = prop_def(IntegerAttr)
    assembly_format = "$pipe `,` $event_id attr-dict"


@irdl_op_definition
class SyncSetOp(_CrossCoreSyncOpBase):
    """`pto.sync.set <PIPE_FIX>, 0`: raise cross-core flag 0 when the pipe is done."""

    name = "pto.sync.set"


@irdl_op_definition
class SyncWaitOp(_CrossCoreSyncOpBase):
    """`pto.sync.wait <PIPE_V>, 0`: stall the pipe until cross-core flag 0 is raised."""

    name = "pto.sync.wait"


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


class _BufferOpBase(IRDLOperation):
    op_type = prop_def(Attribute)
    buf_id = prop_def(Attribute)
    assembly_format = "`[` $op_type `,` $buf_id `]` attr-dict"


@irdl_op_definition
class GetBufOp(_BufferOpBase):
    """`pto.get_buf[#pto.pipe_event_type<TLOAD>, 0]`: acquire buffer slot 0 for TLOAD."""

    name = "pto.get_buf"


@irdl_op_definition
class RlsBufOp(_BufferOpBase):
    """Release the buffer slot `get_buf` acquired."""

    name = "pto.rls_buf"


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
class DeclareTileOp(IRDLOperation):
    """`%t = pto.declare_tile -> !pto.tile_buf<...>`: a tile whose storage a pipe provides."""

    name = "pto.declare_tile"
    tile = result_def()
    assembly_format = "attr-dict `->` type($tile)"


@irdl_op_definition
class DeclareTileMemrefOp(IRDLOperation):
    """`%m = pto.declare_tile_memref -> memref<...>`."""

    name = "pto.declare_tile_memref"
    result = result_def()
    assembly_format = "attr-dict `->` type($result)"


@irdl_op_definition
class SetFftsOp(IRDLOperation):
    """`pto.set_ffts %base : memref<256xi64>`: the cross-core flag table's address."""

    name = "pto.set_ffts"
    ffts = operand_def(MemRefType)
    assembly_format = "$ffts attr-dict `:` type($ffts)"


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


# -- cube <-> vector pipes ------------------------------------------------------------


class _InitializePipeOpBase(IRDLOperation):
    """`pto.aic_initialize_pipe {dir_mask = 3, slot_size = 1024} (c2v_consumer_buf = %a : i32,
    v2c_consumer_buf = %b : i32)`."""

    gm_slot_buffer = opt_operand_def()
    c2v_consumer_buf = operand_def()
    v2c_consumer_buf = operand_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = (
        "attr-dict `(` (`gm_slot_buffer` `=` $gm_slot_buffer^ `:` type($gm_slot_buffer) `,`)? "
        "`c2v_consumer_buf` `=` $c2v_consumer_buf `:` type($c2v_consumer_buf) `,` "
        "`v2c_consumer_buf` `=` $v2c_consumer_buf `:` type($v2c_consumer_buf) `)`"
    )


@irdl_op_definition
class AicInitializePipeOp(_InitializePipeOpBase):
    name = "pto.aic_initialize_pipe"


@irdl_op_definition
class AivInitializePipeOp(_InitializePipeOpBase):
    name = "pto.aiv_initialize_pipe"


class _PushToOpBase(IRDLOperation):
    tile = operand_def()
    assembly_format = "`(` $tile `:` type($tile) `)` attr-dict"


@irdl_op_definition
class TPushToAivOp(_PushToOpBase):
    """`pto.tpush_to_aiv(%t : T) {split = 0}`: hand a cube tile to the vector cores."""

    name = "pto.tpush_to_aiv"


@irdl_op_definition
class TPushToAicOp(_PushToOpBase):
    """Hand a vector tile to the cube core."""

    name = "pto.tpush_to_aic"


class _PopFromOpBase(IRDLOperation):
    valid_row = opt_operand_def(_INDEX)
    valid_col = opt_operand_def(_INDEX)
    tile = result_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = "(`(` $valid_row^ `,` $valid_col `)`)? attr-dict `->` type($tile)"


@irdl_op_definition
class TPopFromAicOp(_PopFromOpBase):
    """`%t = pto.tpop_from_aic {split = 0} -> T`: take the cube core's next tile."""

    name = "pto.tpop_from_aic"


@irdl_op_definition
class TPopFromAivOp(_PopFromOpBase):
    """Take the vector cores' next tile."""

    name = "pto.tpop_from_aiv"


class _FreeFromOpBase(IRDLOperation):
    assembly_format = "attr-dict"


@irdl_op_definition
class TFreeFromAicOp(_FreeFromOpBase):
    """`pto.tfree_from_aic {split = 0}`: give the popped slot back."""

    name = "pto.tfree_from_aic"


@irdl_op_definition
class TFreeFromAivOp(_FreeFromOpBase):
    name = "pto.tfree_from_aiv"


@irdl_op_definition
class ReserveBufferOp(IRDLOperation):
    """`%a = pto.reserve_buffer {name = "fifo", size = 4096, location = ..., auto = true}
    -> i32`: a named buffer the peer function imports."""

    name = "pto.reserve_buffer"
    addr = result_def(IntegerType(32))
    assembly_format = "attr-dict `->` type($addr)"


@irdl_op_definition
class ImportReservedBufferOp(IRDLOperation):
    """`%a = pto.import_reserved_buffer {name = "fifo", peer_func = @f} -> i32`."""

    name = "pto.import_reserved_buffer"
    addr = result_def(IntegerType(32))
    assembly_format = "attr-dict `->` type($addr)"


@irdl_op_definition
class InitializeL2G2LPipeOp(IRDLOperation):
    """`%p = pto.initialize_l2g2l_pipe {...} (%gm : T, %local : U[, %peer : V]) -> !pto.pipe`."""

    name = "pto.initialize_l2g2l_pipe"
    gm_addr = operand_def()
    local_addr = operand_def()
    peer_local_addr = opt_operand_def()
    pipe = result_def(PipeHandleType)
    assembly_format = (
        "attr-dict `(` $gm_addr `:` type($gm_addr) `,` $local_addr `:` type($local_addr) "
        "(`,` $peer_local_addr^ `:` type($peer_local_addr))? `)` `->` type($pipe)"
    )


@irdl_op_definition
class InitializeL2LPipeOp(IRDLOperation):
    """`%p = pto.initialize_l2l_pipe {...} (%local : T[, %peer : U]) -> !pto.pipe`."""

    name = "pto.initialize_l2l_pipe"
    local_addr = operand_def()
    peer_local_addr = opt_operand_def()
    pipe = result_def(PipeHandleType)
    assembly_format = (
        "attr-dict `(` $local_addr `:` type($local_addr) "
        "(`,` $peer_local_addr^ `:` type($peer_local_addr))? `)` `->` type($pipe)"
    )


class _PipeTileOpBase(IRDLOperation):
    tile = operand_def()
    pipe_handle = operand_def(PipeHandleType)
    assembly_format = (
        "`(` $tile `,` $pipe_handle `:` type($tile) `,` type($pipe_handle) `)` attr-dict"
    )


@irdl_op_definition
class TPushOp(_PipeTileOpBase):
    """`pto.tpush(%t, %pipe : T, !pto.pipe) {split = 0}`."""

    name = "pto.tpush"


@irdl_op_definition
class TPopOp(_PipeTileOpBase):
    """`pto.tpop(%t, %pipe : T, !pto.pipe) {split = 1}`."""

    name = "pto.tpop"


@irdl_op_definition
class TFreeOp(IRDLOperation):
    """`pto.tfree(%pipe : !pto.pipe) {split = 2}`."""

    name = "pto.tfree"
    pipe_handle = operand_def(PipeHandleType)
    assembly_format = "`(` $pipe_handle `:` type($pipe_handle) `)` attr-dict"


# -- asynchronous DMA -------------------------------------------------------------------


@irdl_op_definition
class BuildAsyncSessionOp(IRDLOperation):
    """`%s = pto.build_async_session(%scratch, %ws : T, U) -> !pto.async_session`."""

    name = "pto.build_async_session"
    scratch = operand_def()
    workspace = operand_def()
    session = result_def(AsyncSessionType)
    assembly_format = (
        "`(` $scratch `,` $workspace `:` type($scratch) `,` type($workspace) `)` attr-dict "
        "`->` type($session)"
    )


class _AsyncTransferOpBase(IRDLOperation):
    dst = operand_def()
    src = operand_def()
    session = operand_def(AsyncSessionType)
    event = result_def(AsyncEventType)
    assembly_format = (
        "`(` $dst `,` $src `,` $session `:` type($dst) `,` type($src) `,` type($session) `)` "
        "attr-dict `->` type($event)"
    )


@irdl_op_definition
class TPutAsyncOp(_AsyncTransferOpBase):
    """Start copying src to dst (a remote buffer) in the session."""

    name = "pto.tput_async"


@irdl_op_definition
class TGetAsyncOp(_AsyncTransferOpBase):
    """Start copying a remote src into dst in the session."""

    name = "pto.tget_async"


class _AsyncEventQueryOpBase(IRDLOperation):
    event = operand_def(AsyncEventType)
    session = operand_def(AsyncSessionType)
    completed = result_def(IntegerType(1))
    assembly_format = (
        "`(` $event `,` $session `:` type($event) `,` type($session) `)` attr-dict "
        "`->` type($completed)"
    )


@irdl_op_definition
class WaitAsyncEventOp(_AsyncEventQueryOpBase):
    """Block until the transfer completes; true when it did."""

    name = "pto.wait_async_event"


@irdl_op_definition
class TestAsyncEventOp(_AsyncEventQueryOpBase):
    """Whether the transfer has completed, without waiting."""

    name = "pto.test_async_event"


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
    AicInitializePipeOp,
    AivInitializePipeOp,
    TPushToAivOp,
    TPushToAicOp,
    TPopFromAicOp,
    TPopFromAivOp,
    TFreeFromAicOp,
    TFreeFromAivOp,
    ReserveBufferOp,
    ImportReservedBufferOp,
    InitializeL2G2LPipeOp,
    InitializeL2LPipeOp,
    TPushOp,
    TPopOp,
    TFreeOp,
    BuildAsyncSessionOp,
    TPutAsyncOp,
    TGetAsyncOp,
    WaitAsyncEventOp,
    TestAsyncEventOp,
)
