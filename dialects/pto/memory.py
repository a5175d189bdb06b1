"""`pto` tile loads and stores, tile buffers and addresses, and tensor views."""

from __future__ import annotations

from collections.abc import Sequence
from math import prod
from typing import ClassVar, Self

from xdsl.dialects.builtin import IndexType, IntAttr, IntegerAttr, IntegerType, MemRefType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.tile_op import TileOpBase, plain_tile, shape_str
from xla_emit.dialects.pto.types import (
    DYNAMIC,
    PartitionTensorViewType,
    PtrType,
    TensorViewType,
    TileBufType,
    TileType,
    element_type_name,
    op_target,
)
from xla_emit.dialects.syntax import defined_value

from xla_emit.pto.acc_form_rules import acc_store_error
from xla_emit.pto.alloc_rules import address_error, tile_layout_error


@irdl_op_definition
class TLoadOp(TileOpBase):
    """Load a global-memory partition view into a vec or mat tile."""

    name = "pto.tload"
    TILE_INPUTS: ClassVar[int] = 0
    EXTRA_INPUTS: ClassVar[tuple[int, int]] = (1, 1)

    def verify_semantics(self) -> None:
        dst = self.destination_type()
        view = self.ins[0].type
        if not isinstance(view, PartitionTensorViewType):
            raise VerifyException(f"reads a !pto.partition_tensor_view, but got {view}")
        # A5 loads any local memory (fixpipe scaling tiles included); A2/A3 vec or mat.
        if dst.loc.data not in ("vec", "mat") and op_target(self) != "a5":
            raise VerifyException(
                f"writes a vec or mat tile, but the destination is in '{dst.loc.data}'"
            )
        if view.element_type != dst.element_type:
            raise VerifyException(
                f"element types differ: view {view.element_type}, tile {dst.element_name}"
            )
        layout = (dst.blayout.data, dst.slayout.data)
        if dst.loc.data == "vec" and op_target(self) == "a5" and layout not in _A5_VEC_LAYOUTS:
            raise VerifyException("expects A5 tload vec dst layout to be ND, DN, or NZ")
        # PTOAS main leaves the view's extent free: the transfer moves the tile's valid
        # region (the executor reports a view too small for it).


@irdl_op_definition
class TStoreOp(TileOpBase):
    """Store a tile's valid region into a global-memory partition view.

    Level 1: `pto.tstore %t, %view : (T, P) -> ()`; level 2: `ins(%t : T) outs(%view : P)`."""

    name = "pto.tstore"
    TILE_INPUTS: ClassVar[int] = 1

    def _verify_form(self) -> None:
        if self.res:
            raise VerifyException("has no results")
        if not self.is_dps and len(self.ins) != 2:
            raise VerifyException(
                f"level-1 form takes a tile and a view, but got {len(self.ins)} operands"
            )
        if self.is_dps and len(self.outs) != 1:
            raise VerifyException(f"expected 1 'outs' operand, but got {len(self.outs)}")
        if self.is_dps and len(self.ins) > 2:
            raise VerifyException(
                f"takes a tile and an optional pre-quantization scalar, but got {len(self.ins)} "
                "inputs"
            )
        expected = TileBufType if self.is_dps else TileType
        # A memref in a local address space is the tile after PTOAS's view lowering.
        if not isinstance(self.ins[0].type, expected | MemRefType):
            raise VerifyException(f"expected a {expected.name} source, but got {self.ins[0].type}")

    def _verify_operand_count(self) -> None:
        return

    def view(self) -> SSAValue:
        return self.outs[0] if self.is_dps else self.ins[1]

    def verify_semantics(self) -> None:
        if isinstance(self.view().type, MemRefType):
            return  # global memory as a memref: after PTOAS's view lowering
        self._verify_view_store()

    def _verify_view_store(self) -> None:
        src = self.source()
        view = self.view().type
        if not isinstance(view, PartitionTensorViewType):
            raise VerifyException(f"writes a !pto.partition_tensor_view, but got {view}")
        if src.loc.data not in ("vec", "mat", "acc"):
            raise VerifyException(
                f"reads a vec, mat or acc tile, but the source is in '{src.loc.data}'"
            )
        if src.loc.data != "acc" and view.element_type != src.element_type:
            raise VerifyException(
                f"element types differ: tile {src.element_name}, view {view.element_type}"
            )
        if src.loc.data == "mat" and op_target(self) == "a5":
            raise VerifyException("expects A5 tstore src to use loc=vec or loc=acc")
        if src.loc.data == "acc":
            error = acc_store_error(
                op_target(self),
                src.element_name,
                element_type_name(view.element_type),
                fp=False,
                prequant=len(self.ins) == 2,
            )
            if error:
                raise VerifyException(error)
        # PTOAS main: a fully static view holds exactly the tile's valid elements.
        count, valid = prod(view.dims), prod(src.valid_shape)
        # (An empty tile, PTOAS's no-op marker, is not counted.)
        static = all(d > 0 for d in (*view.dims, *src.valid_shape))
        if len(self.ins) == 1 and static and count != valid:
            raise VerifyException(
                f"expects dst static element count ({count}) to match src valid_shape static "
                f"element count ({valid})"
            )


# A5 loads into vec tiles of these (blayout, slayout): ND, DN and NZ.
_A5_VEC_LAYOUTS = (("row_major", "none_box"), ("col_major", "none_box"), ("col_major", "row_major"))


# ---------------------------------------------------------------------------
# Buffers, addresses, views and synchronization.
# ---------------------------------------------------------------------------


@irdl_op_definition
class AllocTileOp(IRDLOperation):
    """`%t = pto.alloc_tile [addr = %a] [valid_row = %r valid_col = %c] : !pto.tile_buf<...>`."""

    name = "pto.alloc_tile"

    addr = opt_operand_def(IntegerType | IndexType)
    valid_row = opt_operand_def(IndexType)
    valid_col = opt_operand_def(IndexType)
    result = result_def(TileBufType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        result_type: TileBufType,
        addr: SSAValue | None = None,
        valid_row: SSAValue | None = None,
        valid_col: SSAValue | None = None,
    ) -> None:
        super().__init__(
            operands=[
                [addr] if addr else [],
                [valid_row] if valid_row else [],
                [valid_col] if valid_col else [],
            ],
            result_types=[result_type],
        )

    @classmethod
    def parse(cls, parser: Parser) -> AllocTileOp:
        operands: dict[str, SSAValue | None] = {"addr": None, "valid_row": None, "valid_col": None}
        while (
            key := parser.parse_optional_keyword_in(("addr", "valid_row", "valid_col"))
        ) is not None:
            parser.parse_punctuation("=")
            unresolved = parser.parse_unresolved_operand()
            operands[key] = parser.resolve_operand(
                unresolved, IntegerType(64) if key == "addr" else IndexType()
            )
        parser.parse_punctuation(":")
        result_type = parser.parse_type()
        if not isinstance(result_type, TileBufType):
            parser.raise_error(f"pto.alloc_tile makes a !pto.tile_buf, but got {result_type}")
        return cls(result_type, operands["addr"], operands["valid_row"], operands["valid_col"])

    def print(self, printer: Printer) -> None:
        for key, value in (
            ("addr", self.addr),
            ("valid_row", self.valid_row),
            ("valid_col", self.valid_col),
        ):
            if value is not None:
                printer.print_string(f" {key} = ")
                printer.print_operand(value)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        tile = self.result.type
        assert isinstance(tile, TileBufType)
        # Each dynamic valid dim takes its size from its operand, and only those do.
        pairs = (
            ("valid_row", self.valid_row, tile.valid_shape[0]),
            ("valid_col", self.valid_col, tile.valid_shape[1]),
        )
        shape = shape_str(tile.valid_shape)
        needed = [key for key, value, dim in pairs if dim == DYNAMIC and value is None]
        if needed:
            raise VerifyException(
                f"a tile with dynamic valid shape {shape} needs {' and '.join(needed)}"
            )
        extra = [key for key, value, dim in pairs if dim != DYNAMIC and value is not None]
        if extra:
            raise VerifyException(
                f"{'/'.join(extra)} only size dynamic valid dims, but the tile's valid shape "
                f"is {shape}"
            )

    def ptoas_layout_error(self) -> str | None:
        """PTOAS main's alloc_tile rules (box layout fit, aligned constant address);
        `pto-verify-target` checks them, since our level-1 tiles lower to any shape."""
        tile = self.result.type
        assert isinstance(tile, TileBufType)
        error = tile_layout_error("result", plain_tile(tile), tile.fractal.data)
        address = _constant(self.addr) if self.addr is not None else None
        if error is None and address is not None:
            error = address_error(tile.loc.data, address)
        return error


def _constant(value: SSAValue) -> int | None:
    """The integer an `arith.constant` gives `value`, if one does."""
    attr = getattr(value.owner, "value", None)
    return attr.value.data if isinstance(attr, IntegerAttr) else None


@irdl_op_definition
class TAssignOp(IRDLOperation):
    """Bind a tile to an address of its location's memory (manual mode).

    The seed's form `pto.tassign %t, @tile(0x1000)` binds `%t` in place; the
    SSA-address form `%t2 = pto.tassign %t, %addr : T -> T` (PTOAS level 3)
    returns the rebound buffer."""

    name = "pto.tassign"

    tile = operand_def(TileType | TileBufType)
    dynamic_address = opt_operand_def(IntegerType | IndexType)
    result = var_result_def(TileType | TileBufType)
    address = opt_prop_def(IntAttr)

    def __init__(self, tile: SSAValue, address: int | SSAValue) -> None:
        if isinstance(address, int):
            super().__init__(
                operands=[tile, []], result_types=[[]], properties={"address": IntAttr(address)}
            )
        else:
            super().__init__(operands=[tile, [address]], result_types=[[tile.type]])

    @classmethod
    def parse(cls, parser: Parser) -> TAssignOp:
        tile = _parse_defined_operand(parser)
        parser.parse_punctuation(",")
        if parser.parse_optional_symbol_name() is not None:
            with parser.in_parens():
                address = parser.parse_integer(allow_boolean=False, allow_negative=False)
            return cls(tile, address)
        unresolved = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        tile_type = parser.parse_type()
        parser.parse_punctuation("->")
        parser.parse_type()
        address_type = IntegerType(64)
        if unresolved.operand_name in parser.ssa_values:
            address_type = parser.ssa_values[unresolved.operand_name][unresolved.index].type
        if tile.type != tile_type:
            parser.raise_error(f"expected {tile.type} for the tassign tile, but got {tile_type}")
        return cls(tile, parser.resolve_operand(unresolved, address_type))

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.tile)
        if self.dynamic_address is None:
            assert self.address is not None
            printer.print_string(f", @tile({hex(self.address.data)})")
            return
        printer.print_string(", ")
        printer.print_operand(self.dynamic_address)
        printer.print_string(" : ")
        printer.print_attribute(self.tile.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.tile.type)

    def verify_(self) -> None:
        if (self.address is None) == (self.dynamic_address is None):
            raise VerifyException("takes either @tile(ADDRESS) or an address operand")
        if self.dynamic_address is None and self.result:
            raise VerifyException("with @tile(ADDRESS) binds in place and has no result")
        if self.dynamic_address is not None and len(self.result) != 1:
            raise VerifyException("with an address operand returns the rebound tile")
        if self.result and self.result[0].type != self.tile.type:
            raise VerifyException(
                f"returns the tile's own type {self.tile.type}, but got {self.result[0].type}"
            )
        if self.address is not None and self.address.data % 32 != 0:
            raise VerifyException(
                f"tile addresses are 32-byte aligned, but got {hex(self.address.data)}"
            )
        # PTOAS main: a constant address operand is aligned as its memory wants.
        address = _constant(self.dynamic_address) if self.dynamic_address is not None else None
        tile = self.tile.type
        if address is not None and isinstance(tile, TileBufType):
            error = address_error(tile.loc.data, address)
            if error:
                raise VerifyException(error)


def _parse_defined_operand(parser: Parser) -> SSAValue:
    """An operand whose type is known because it is already defined (the seed's
    `pto.tassign %t, @tile(...)` names no type)."""
    unresolved = parser.parse_unresolved_operand()
    value = defined_value(parser, unresolved)
    if value is None:
        parser.raise_error("the tassign tile must be defined before it is bound", unresolved.span)
    return value


def _parse_index_lists(parser: Parser, keys: Sequence[str]) -> list[list[SSAValue]]:
    """`, key = [%i, ...]` for each key in turn."""
    lists: list[list[SSAValue]] = []
    for key in keys:
        parser.parse_punctuation(",")
        parser.parse_keyword(key)
        parser.parse_punctuation("=")
        lists.append(
            parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, lambda: parser.parse_operand(IndexType())
            )
        )
    return lists


class _ViewOpBase(IRDLOperation):
    """`%r = OP %v, KEY = [%i, ...], KEY = [%j, ...] : TYPES`: a view op of one operand and
    two lists of index operands, named by `LIST_KEYS`; each op spells its own types."""

    LIST_KEYS: ClassVar[tuple[str, str]]

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operand = parser.parse_unresolved_operand()
        lists = _parse_index_lists(parser, cls.LIST_KEYS)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operand_type, result_type = cls.parse_types(parser, lists)
        return cls.build(
            operands=[parser.resolve_operand(operand, operand_type), *lists],
            result_types=[result_type],
            attributes=attributes,
        )

    @classmethod
    def parse_types(
        cls, parser: Parser, lists: list[list[SSAValue]]
    ) -> tuple[Attribute, Attribute]:
        """The operand's and the result's type, from what follows the `:` (and the index
        lists, for a type inferred from them)."""
        raise NotImplementedError

    def index_lists(self) -> tuple[Sequence[SSAValue], Sequence[SSAValue]]:
        raise NotImplementedError

    def print_types(self, printer: Printer) -> None:
        raise NotImplementedError

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operands[0])
        for key, values in zip(self.LIST_KEYS, self.index_lists(), strict=True):
            printer.print_string(f", {key} = [")
            printer.print_list(values, printer.print_operand)
            printer.print_string("]")
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" : ")
        self.print_types(printer)


@irdl_op_definition
class MakeTensorViewOp(_ViewOpBase):
    """`%v = pto.make_tensor_view %ptr, shape = [...], strides = [...] : !pto.tensor_view<...>`."""

    name = "pto.make_tensor_view"
    LIST_KEYS: ClassVar[tuple[str, str]] = ("shape", "strides")

    ptr = operand_def(PtrType)
    shape = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    result = result_def(TensorViewType)

    def index_lists(self) -> tuple[Sequence[SSAValue], Sequence[SSAValue]]:
        return self.shape, self.strides

    @classmethod
    def parse_types(
        cls, parser: Parser, lists: list[list[SSAValue]]
    ) -> tuple[Attribute, Attribute]:
        view = parser.parse_type()
        if not isinstance(view, TensorViewType):
            parser.raise_error(f"expected a !pto.tensor_view, but got {view}")
        return PtrType(view.element_type), view

    def print_types(self, printer: Printer) -> None:
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        view = self.result.type
        assert isinstance(view, TensorViewType)
        if not len(self.shape) == len(self.strides) == len(view.dims):
            raise VerifyException(
                f"expected {len(view.dims)} sizes and strides for {view}, but got "
                f"{len(self.shape)} and {len(self.strides)}"
            )


def inferred_partition_type(
    source: Attribute, sizes: Sequence[SSAValue]
) -> PartitionTensorViewType | None:
    """The partition view type PTOAS infers from a view's sizes (a constant size is its
    dim, any other a dynamic one)."""
    if not isinstance(source, TensorViewType) or len(sizes) != len(source.dims):
        return None
    dims = []
    for size in sizes:
        value = getattr(size.owner, "value", None)
        number = value.value.data if isinstance(value, IntegerAttr) else -1
        dims.append(number if size.owner.name == "arith.constant" and number >= 0 else DYNAMIC)
    return PartitionTensorViewType(dims, source.element_type)


@irdl_op_definition
class PartitionViewOp(_ViewOpBase):
    """`%p = pto.partition_view %v, offsets = [...], sizes = [...] : TV -> PTV`."""

    name = "pto.partition_view"
    LIST_KEYS: ClassVar[tuple[str, str]] = ("offsets", "sizes")

    source = operand_def(TensorViewType)
    offsets = var_operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    result = result_def(PartitionTensorViewType)

    @classmethod
    def parse_types(
        cls, parser: Parser, lists: list[list[SSAValue]]
    ) -> tuple[Attribute, Attribute]:
        source_type = parser.parse_type()
        if parser.parse_optional_punctuation("->") is not None:
            return source_type, parser.parse_type()
        # PTOAS infers the result from the sizes: constants, else dynamic dims.
        inferred = inferred_partition_type(source_type, lists[1])
        if inferred is None:
            parser.raise_error("failed to infer pto.partition_view result type")
        return source_type, inferred

    def index_lists(self) -> tuple[Sequence[SSAValue], Sequence[SSAValue]]:
        return self.offsets, self.sizes

    def print_types(self, printer: Printer) -> None:
        printer.print_attribute(self.source.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        source, result = self.source.type, self.result.type
        assert isinstance(source, TensorViewType) and isinstance(result, PartitionTensorViewType)
        rank = len(source.dims)
        if not len(self.offsets) == len(self.sizes) == rank:
            raise VerifyException(
                f"expected {rank} offsets and sizes, but got {len(self.offsets)} and "
                f"{len(self.sizes)}"
            )
        if source.element_type != result.element_type:
            raise VerifyException(
                f"element types differ: {source.element_type} and {result.element_type}"
            )
