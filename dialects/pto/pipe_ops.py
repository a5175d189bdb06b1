"""PTOAS's cube-vector communication ops: the pipes tiles travel through
between the cube core and the vector cores (tpush/tpop and their
initialization), the reserved buffers backing them, and asynchronous DMA
sessions. The executor runs one core of each kind in program order, so these
move no data there; they parse, verify and print in PTOAS's syntax
(`PTOOps.td`'s declarative assembly formats, written in xDSL's).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, MemRefType, StringAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.attrs import (
    AddressSpaceAttr,
    AsyncEventType,
    AsyncSessionType,
    PipeHandleType,
)
from xla_emit.dialects.pto.fixpipe_rules import (
    verify_fixpipe_consumer_peer,
    verify_fixpipe_pop,
    verify_fixpipe_producer_peer,
    verify_fixpipe_push,
    verify_fixpipe_split,
    verify_no_unpublished_attributes,
)
from xla_emit.dialects.pto.internal_pipe_rules import entry_shape_error, verify_pipe_split
from xla_emit.dialects.pto.types import (
    DYNAMIC,
    TensorViewType,
    TileBufType,
    element_type_name,
    op_target,
)

from xla_emit.pto.targets import element_bytes, is_element_type

_INDEX = IndexType()


# -- cube <-> vector pipes ------------------------------------------------------------


# The clauses of a front-end init, in PTOAS's order, with their integer widths
# (nosplit is a bool, acc_push_epilogue an attribute).
INIT_CLAUSES = {
    "id": 32,
    "dir_mask": 8,
    "slot_size": 32,
    "slot_num": 32,
    "local_slot_num": 32,
    "nosplit": 1,
    "acc_push_epilogue": 0,
}
INIT_OPERANDS = ("gm_slot_buffer", "gm_slot_tensor", "c2v_consumer_buf", "v2c_consumer_buf")


class _InitializePipeOpBase(IRDLOperation):
    """`pto.aic_initialize_pipe {id = 0, dir_mask = 3, slot_size = 1024, ...}
    (gm_slot_buffer = %g : T, c2v_consumer_buf = %a : i32, v2c_consumer_buf = %b : i32)`:
    clauses and operands in any order, each at most once (PTOAS's own parser)."""

    gm_slot_buffer = opt_operand_def()
    gm_slot_tensor = opt_operand_def()
    c2v_consumer_buf = opt_operand_def()
    v2c_consumer_buf = opt_operand_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        start = parser.pos
        clauses = _parse_init_clauses(parser)
        for required in ("dir_mask", "slot_size"):
            if required not in clauses:
                parser.raise_error(f"expected '{required}' clause", start, start + 1)
        clauses.setdefault("id", IntegerAttr(0, IntegerType(32)))
        operands: dict[str, SSAValue] = {}

        def parse_operand() -> None:
            position = parser.pos
            keyword = parser.parse_identifier()
            if keyword not in INIT_OPERANDS:
                parser.raise_error(
                    f"unexpected initialize_pipe operand '{keyword}'", position, parser.pos
                )
            if keyword in operands:
                parser.raise_error(f"duplicate '{keyword}' operand", position, parser.pos)
            parser.parse_punctuation("=")
            value = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            operands[keyword] = parser.resolve_operand(value, parser.parse_type())

        parser.parse_punctuation("(")
        if parser.parse_optional_punctuation(")") is None:
            parse_operand()
            while parser.parse_optional_punctuation(",") is not None:
                parse_operand()
            parser.parse_punctuation(")")
        attributes = parser.parse_optional_attr_dict()
        op = cls.build(operands=[[operands[n]] if n in operands else [] for n in INIT_OPERANDS])
        op.attributes.update(clauses)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        clauses = [
            (name, self.attributes[name]) for name in INIT_CLAUSES if name in self.attributes
        ]
        printer.print_string(" {")
        printer.print_list(clauses, lambda clause: _print_clause(printer, *clause))
        printer.print_string("}(")
        operands = [(n, getattr(self, n)) for n in INIT_OPERANDS if getattr(self, n) is not None]
        printer.print_list(operands, lambda operand: _print_operand_clause(printer, *operand))
        printer.print_string(")")
        rest = {k: v for k, v in self.attributes.items() if k not in INIT_CLAUSES}
        printer.print_op_attributes(rest)

    def clause(self, name: str) -> int | None:
        """An integer clause's value (nosplit as 0 or 1), None when it is left out."""
        value = self.attributes.get(name)
        return value.value.data if isinstance(value, IntegerAttr) else None

    def verify_(self) -> None:
        """PTOAS's checks common to both front-end inits (`verifyFrontendInitCommon`)."""
        if (self.clause("id") or 0) < 0:
            raise VerifyException("expects 'id' to be non-negative")
        _verify_unique_id(self)
        dir_mask = self.clause("dir_mask")
        if dir_mask not in (1, 2, 3):
            raise VerifyException("expects 'dir_mask' to be 1, 2, or 3")
        if (self.clause("slot_size") or 0) <= 0:
            raise VerifyException("expects 'slot_size' to be greater than 0")
        slot_num = self.clause("slot_num")
        if slot_num is not None and slot_num <= 0:
            raise VerifyException("expects 'slot_num' to be greater than 0")
        if self.gm_slot_tensor is not None and self._verify_global_entries(dir_mask):
            return
        self._verify_consumer_buffers(dir_mask)
        self._verify_local_slot_num(dir_mask, slot_num or (4 if dir_mask == 3 else 8))
        epilogue = self.attributes.get("acc_push_epilogue")
        if epilogue is not None:
            self._verify_fixpipe(dir_mask, epilogue)
            if self.name == "pto.aic_initialize_pipe":
                verify_fixpipe_producer_peer(self)
            else:
                verify_fixpipe_consumer_peer(self)

    def _verify_global_entries(self, dir_mask: int) -> bool:
        """A pipe of GlobalTensor entries; True when it has no local consumer buffer."""
        if self.gm_slot_buffer is not None:
            raise VerifyException("'gm_slot_tensor' cannot be combined with 'gm_slot_buffer'")
        local = self.c2v_consumer_buf is not None or self.v2c_consumer_buf is not None
        if local and (dir_mask != 1 or self.c2v_consumer_buf is None or self.v2c_consumer_buf):
            raise VerifyException(
                "GM-backed tile pipe init currently supports only dir_mask = 1 with "
                "'gm_slot_tensor' and 'c2v_consumer_buf'"
            )
        if not local and "local_slot_num" in self.attributes:
            raise VerifyException("globaltensor pipe init does not use 'local_slot_num'")
        _verify_slot_tensor(self.gm_slot_tensor.type, self.clause("slot_size") or 0)  # type: ignore[union-attr]
        return not local

    def _verify_consumer_buffers(self, dir_mask: int) -> None:
        c2v, v2c = self.c2v_consumer_buf is not None, self.v2c_consumer_buf is not None
        if not c2v and not v2c:
            raise VerifyException(
                "expects local pipe init to provide at least one consumer buffer operand; "
                "use 'gm_slot_tensor' for globaltensor pipe entries"
            )
        if dir_mask == 1 and not c2v:
            raise VerifyException("expects 'c2v_consumer_buf' when dir_mask is 1")
        if dir_mask == 2 and not v2c:
            raise VerifyException("expects 'v2c_consumer_buf' when dir_mask is 2")
        if dir_mask == 3 and not (c2v and v2c):
            raise VerifyException(
                "expects both 'c2v_consumer_buf' and 'v2c_consumer_buf' when dir_mask is 3"
            )

    def _verify_local_slot_num(self, dir_mask: int, slot_num: int) -> None:
        local_slot_num = self.clause("local_slot_num")
        if local_slot_num is None:
            return
        if op_target(self) == "a5":
            raise VerifyException(
                "'local_slot_num' is only supported for a2/a3 frontend pipe lowering"
            )
        if local_slot_num <= 0:
            raise VerifyException("expects 'local_slot_num' to be greater than 0")
        if local_slot_num > slot_num:
            raise VerifyException(
                f"expects 'local_slot_num' to be less than or equal to slot_num ({slot_num}) "
                f"for dir_mask = {dir_mask}"
            )

    def _verify_fixpipe(self, dir_mask: int, epilogue: Attribute) -> None:
        """A fixpipe pipe (PTOAS's rules 1, 2, 5 and 10 of `acc_push_epilogue`)."""
        if dir_mask != 1:
            raise VerifyException(
                "expects fixpipe pipe (with 'acc_push_epilogue') to have dir_mask = 1 (C2V only)"
            )
        if not self.clause("nosplit"):
            raise VerifyException(
                "expects fixpipe pipe (with 'acc_push_epilogue') to have nosplit = true"
            )
        buffer = self.c2v_consumer_buf
        if buffer is not None and not isinstance(
            buffer.owner, ReserveBufferOp | ImportReservedBufferOp
        ):
            raise VerifyException(
                "expects fixpipe pipe 'c2v_consumer_buf' to trace to reserve_buffer or "
                "import_reserved_buffer for peer contract verification"
            )
        quant = epilogue.value("quant") if hasattr(epilogue, "value") else ""  # type: ignore[operator]
        if op_target(self) != "a5":
            if quant in ("qs322bf16_pre_scalar", "qs322bf16_pre_vec"):
                raise VerifyException(
                    "expects 'qs322bf16_pre_*' quantization modes to be used only on A5 target"
                )
            if quant in ("qf322hif8_pre_scalar", "qf322fp8_pre_scalar"):
                raise VerifyException(
                    "expects 'qf322hif8_pre_scalar'/'qf322fp8_pre_scalar' to be used only on "
                    "A5 target"
                )


def _verify_unique_id(init: IRDLOperation) -> None:
    function = init.parent_op()
    while function is not None and function.name != "func.func":
        function = function.parent_op()
    if function is None:
        raise VerifyException("must be nested under a func.func")
    same = [
        op
        for op in function.walk()
        if isinstance(op, _InitializePipeOpBase)
        and op.attributes.get("id") == init.attributes.get("id")
    ]
    if len(same) > 1:
        raise VerifyException(
            "requires 'id' to be unique across frontend initialize_pipe ops in the function"
        )


def _verify_slot_tensor(kind: Attribute, slot_size: int) -> None:
    """One slot's GlobalTensor entry: a tensor view the size of a slot or half of one."""
    if not isinstance(kind, TensorViewType):
        raise VerifyException("expects 'gm_slot_tensor' to be !pto.tensor_view")
    if not kind.dims:
        raise VerifyException("expects 'gm_slot_tensor' to describe one slot entry tensor")
    if DYNAMIC in kind.dims:
        return
    count = 1
    for dim in kind.dims:
        count *= dim
    element = element_type_name(kind.element_type)
    if not is_element_type(element):
        return
    size = count * element_bytes(element)
    if slot_size not in (size, 2 * size):
        raise VerifyException(
            "expects 'slot_size' to equal gm_slot_tensor byte size or twice gm_slot_tensor "
            f"byte size for split GlobalTensor entries (got slot_size = {slot_size}, "
            f"gm_slot_tensor byte size = {size})"
        )


def _parse_init_clauses(parser: Parser) -> dict[str, Attribute]:
    clauses: dict[str, Attribute] = {}
    parser.parse_punctuation("{")
    if parser.parse_optional_punctuation("}") is not None:
        return clauses
    while True:
        position = parser.pos
        keyword = parser.parse_identifier()
        if keyword not in INIT_CLAUSES:
            parser.raise_error(f"unexpected keyword '{keyword}'", position, parser.pos)
        if keyword in clauses:
            parser.raise_error(f"duplicate '{keyword}' clause", position, parser.pos)
        parser.parse_punctuation("=")
        width = INIT_CLAUSES[keyword]
        if width == 0:
            clauses[keyword] = parser.parse_attribute()
        elif width == 1:
            clauses[keyword] = IntegerAttr(int(parser.parse_boolean()), IntegerType(1))
        else:
            value = parser.parse_integer()
            if parser.parse_optional_punctuation(":") is not None:
                parser.parse_type()
            clauses[keyword] = IntegerAttr(value, IntegerType(width))
        if parser.parse_optional_punctuation("}") is not None:
            return clauses
        parser.parse_punctuation(",")


def _print_clause(printer: Printer, name: str, value: Attribute) -> None:
    printer.print_string(f"{name} = ")
    if isinstance(value, IntegerAttr):
        number = value.value.data
        text = ("true" if number else "false") if name == "nosplit" else str(number)
        printer.print_string(text)
    else:
        printer.print_attribute(value)


def _print_operand_clause(printer: Printer, name: str, value: SSAValue) -> None:
    printer.print_string(f"{name} = ")
    printer.print_operand(value)
    printer.print_string(" : ")
    printer.print_attribute(value.type)


@irdl_op_definition
class AicInitializePipeOp(_InitializePipeOpBase):
    name = "pto.aic_initialize_pipe"


@irdl_op_definition
class AivInitializePipeOp(_InitializePipeOpBase):
    name = "pto.aiv_initialize_pipe"


class _PushToOpBase(IRDLOperation):
    tile = operand_def()
    assembly_format = "`(` $tile `:` type($tile) `)` attr-dict"

    def verify_(self) -> None:
        verify_no_unpublished_attributes(self)
        if self.name == "pto.tpush_to_aiv":
            verify_fixpipe_push(self, self.tile.type)


@irdl_op_definition
class TPushToAivOp(_PushToOpBase):
    """`pto.tpush_to_aiv(%t : T) {split = 0}`: hand a cube tile to the vector cores."""

    name = "pto.tpush_to_aiv"


@irdl_op_definition
class TPushToAicOp(_PushToOpBase):
    """Hand a vector tile to the cube core (from one vector sub-block, PTOAS main)."""

    name = "pto.tpush_to_aic"
    aiv_subblockid = opt_operand_def(IntegerType(64))
    assembly_format = (
        "`(` $tile `:` type($tile) `)` attr-dict (`aiv_subblockid` `(` $aiv_subblockid^ `)`)?"
    )


class _PopFromOpBase(IRDLOperation):
    valid_row = opt_operand_def(_INDEX)
    valid_col = opt_operand_def(_INDEX)
    # The vector sub-block a split entry is popped for (PTOAS main).
    aiv_subblockid = opt_operand_def(IntegerType(64))
    tile = result_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = (
        "(`(` $valid_row^ `,` $valid_col `)`)? attr-dict "
        "(`aiv_subblockid` `(` $aiv_subblockid^ `)`)? `->` type($tile)"
    )

    def verify_(self) -> None:
        verify_no_unpublished_attributes(self)
        if self.name == "pto.tpop_from_aic":
            verify_fixpipe_split(self, "pto.aiv_initialize_pipe", "TPOP")
            verify_fixpipe_pop(self, self.tile.type)
        # The operands set the popped tile's valid shape at run time, so its type leaves it open.
        if self.valid_row is None:
            return
        tile = self.tile.type
        if not isinstance(tile, TileBufType):
            raise VerifyException(
                "expects tile result to be !pto.tile_buf when valid_row/valid_col operands are "
                "provided"
            )
        if tile.valid_shape != (DYNAMIC, DYNAMIC):
            raise VerifyException(
                "expects tile result to have dynamic validShape (?, ?) when valid_row/valid_col "
                "operands are provided"
            )


@irdl_op_definition
class TPopFromAicOp(_PopFromOpBase):
    """`%t = pto.tpop_from_aic {split = 0} -> T`: take the cube core's next tile."""

    name = "pto.tpop_from_aic"


@irdl_op_definition
class TPopFromAivOp(_PopFromOpBase):
    """Take the vector cores' next tile."""

    name = "pto.tpop_from_aiv"


class _FreeFromOpBase(IRDLOperation):
    # The GlobalTensor entry a `talloc` gave (PTOAS main); tile entries name none.
    entry = opt_operand_def()
    assembly_format = "(`(` $entry^ `:` type($entry) `)`)? attr-dict"

    def verify_(self) -> None:
        verify_no_unpublished_attributes(self)
        init = "pto.aiv_initialize_pipe" if self.name.endswith("aic") else "pto.aic_initialize_pipe"
        verify_fixpipe_split(self, init, "TFREE")


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

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        attributes: dict[str, Attribute] = {}

        def parse_entry() -> None:
            key = parser.parse_optional_identifier() or parser.parse_str_literal()
            parser.parse_punctuation("=")
            attributes[key] = _parse_entry_value(parser, key)

        parser.parse_comma_separated_list(parser.Delimiter.BRACES, parse_entry)
        parser.parse_punctuation("->")
        op = cls.create(result_types=[parser.parse_type()])
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string(" -> ")
        printer.print_attribute(self.addr.type)


def _parse_entry_value(parser: Parser, key: str) -> Attribute:
    """An attribute, or for `location` also MLIR's short form `<vec>` that PTOAS prints
    for its address-space property."""
    if key != "location" or parser.parse_optional_punctuation("<") is None:
        return parser.parse_attribute()
    position = parser.pos
    space = parser.parse_identifier()
    if space not in AddressSpaceAttr.ALLOWED:
        parser.raise_error(
            f"'{space}' is not an address space (expected one of "
            f"{', '.join(AddressSpaceAttr.ALLOWED)})",
            position,
            parser.pos,
        )
    parser.parse_punctuation(">")
    return AddressSpaceAttr.new([StringAttr(space)])


@irdl_op_definition
class ImportReservedBufferOp(IRDLOperation):
    """`%a = pto.import_reserved_buffer {name = "fifo", peer_func = @f} -> i32`."""

    name = "pto.import_reserved_buffer"
    addr = result_def(IntegerType(32))
    assembly_format = "attr-dict `->` type($addr)"


@irdl_op_definition
class InitializeL2G2LPipeOp(IRDLOperation):
    """`%p = pto.initialize_l2g2l_pipe {...} (%gm : T[, %local : U[, %peer : V]]) ->
    !pto.pipe` (PTOAS main may leave the local buffer out: a pipe through global
    memory only)."""

    name = "pto.initialize_l2g2l_pipe"
    gm_addr = operand_def()
    local_addr = opt_operand_def()
    peer_local_addr = opt_operand_def()
    pipe = result_def(PipeHandleType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def create(
        cls,
        *,
        properties: Mapping[str, Attribute] = {},
        attributes: Mapping[str, Attribute] = {},
        **fields: Any,
    ) -> Self:
        """PTOAS's generic form gives the pipe's options as properties; ours keeps them
        as attributes, beside the operand segments."""
        options = {k: v for k, v in properties.items() if k != "operandSegmentSizes"}
        kept = {k: v for k, v in properties.items() if k == "operandSegmentSizes"}
        return super().create(properties=kept, attributes={**attributes, **options}, **fields)

    assembly_format = (
        "attr-dict `(` $gm_addr `:` type($gm_addr) (`,` $local_addr^ `:` type($local_addr))? "
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

    def verify_(self) -> None:
        """The split mode, and a global-memory entry has the shape of the slots its pipe
        was made with."""
        verify_pipe_split(self, self.pipe_handle)
        init = self.pipe_handle.owner
        if isinstance(init, Operation):
            error = entry_shape_error(self.tile.type, init)
            if error:
                raise VerifyException(error)


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
    """`pto.tfree(%pipe : !pto.pipe) {split = 2}`; PTOAS main may name the popped tile
    first: `pto.tfree(%tile, %pipe : T, !pto.pipe)`."""

    name = "pto.tfree"
    entry = opt_operand_def()
    pipe_handle = operand_def(PipeHandleType)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        parser.parse_punctuation("(")
        names = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        parser.parse_punctuation(")")
        if not 1 <= len(names) <= 2 or len(types) != len(names):
            parser.raise_error("expected '(%pipe : !pto.pipe)' or '(%tile, %pipe : T, !pto.pipe)'")
        operands = [parser.resolve_operand(n, t) for n, t in zip(names, types, strict=True)]
        op = cls.create(operands=operands)
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        values = [*([self.entry] if self.entry is not None else []), self.pipe_handle]
        printer.print_string("(")
        printer.print_list(values, printer.print_operand)
        printer.print_string(" : ")
        printer.print_list([v.type for v in values], printer.print_attribute)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        verify_pipe_split(self, self.pipe_handle)


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

    def verify_(self) -> None:
        dst, src = self.dst.type, self.src.type
        if _element_type(dst) != _element_type(src):
            raise VerifyException("expects src and dst to have the same element type")
        for name, memory in (("dst", dst), ("src", src)):
            if isinstance(memory, MemRefType):
                _verify_flat_1d(name, memory)
        both_memrefs = isinstance(dst, MemRefType) and isinstance(src, MemRefType)
        if both_memrefs and dst.get_shape() != src.get_shape():
            raise VerifyException("expects src and dst to have the same static shape")


def _element_type(memory: Attribute) -> Attribute | None:
    return getattr(memory, "element_type", None)


def _verify_flat_1d(name: str, memory: MemRefType) -> None:
    """An async DMA moves one contiguous run of elements: a static shape whose dims are
    all 1 but the last, packed (a dynamic layout is checked when it is known)."""
    shape = memory.get_shape()
    if not shape:
        raise VerifyException(f"expects {name} to have rank >= 1")
    if DYNAMIC in shape:
        raise VerifyException(f"expects {name} to have a static shape")
    strides = memory.get_strides()
    if strides is None:
        raise VerifyException(f"expects {name} to be a strided memref with a known layout")
    if None in strides or memory.get_offset() is None:
        return
    packed = strides[-1] == 1 and all(
        strides[i] == strides[i + 1] * shape[i + 1] for i in range(len(shape) - 1)
    )
    if not packed or any(dim != 1 for dim in shape[:-1]):
        raise VerifyException(f"expects {name} to be a static flat contiguous logical 1D GM memref")


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


PIPE_OPS: tuple[type[IRDLOperation], ...] = (
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
