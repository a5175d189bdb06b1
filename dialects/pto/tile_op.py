"""The base of every `pto` tile op (both levels in one class) and the checks
the tile ops share."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerType,
    MemRefType,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.types import (
    DYNAMIC,
    PartitionTensorViewType,
    PtrType,
    TensorViewType,
    TileBufType,
    TileType,
    TileTypeBase,
    format_dim,
    op_target,
)

from xla_emit.pto.plain_tile import PlainTile
from xla_emit.pto.scratch_rules import SCRATCH_RULE_OPS, scratch_error
from xla_emit.pto.targets import is_element_type
from xla_emit.pto.tmp_contract_rules import TMP_CONTRACT_OPS, tmp_contract_error

# The property of a generic-form op that splits its operands into groups.
SEGMENTS = "operandSegmentSizes"


def tile_params(value: SSAValue) -> TileTypeBase | None:
    t = value.type
    return t if isinstance(t, TileTypeBase) else None


class TileOpBase(IRDLOperation):
    """A tile op in level-1 (SSA, results) or level-2 (DPS, `outs`) form.

    Level 1: `%d = pto.OP %a, %b {attrs} : (T, T) -> T` (one operand: `T -> T`).
    Level 2: `pto.OP ins(%a, %b {attrs} : T, T) outs(%d : T)`.
    """

    ins = var_operand_def()
    outs = var_operand_def()
    res = var_result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        ins: Sequence[SSAValue],
        outs: Sequence[SSAValue] = (),
        result_types: Sequence[Attribute] = (),
        attributes: dict[str, Attribute] | None = None,
    ) -> None:
        super().__init__(operands=[ins, outs], result_types=[result_types], attributes=attributes)

    # -- level-neutral accessors -------------------------------------------

    @property
    def is_dps(self) -> bool:
        return len(self.outs) > 0 or (self.OUTS[0] == 0 and not self.res)

    def destination_type(self) -> TileTypeBase:
        """The tile this op writes: its result (level 1) or its `outs` buffer (level 2)."""
        t = self.outs[0].type if self.is_dps else self.res[0].type
        assert isinstance(t, TileTypeBase)
        return t

    def input_types(self) -> list[Attribute]:
        return [v.type for v in self.ins]

    # -- syntax --------------------------------------------------------------

    @classmethod
    def parse(cls, parser: Parser) -> TileOpBase:
        if parser.parse_optional_keyword("ins") is not None:
            return cls._parse_dps(parser)
        return cls._parse_ssa(parser)

    @classmethod
    def _parse_dps(cls, parser: Parser) -> TileOpBase:
        parser.parse_punctuation("(")
        unresolved = [parser.parse_unresolved_operand()]
        # PTOAS also writes the attributes after a comma: `ins(%src, {maskPattern = ...} : T)`.
        while parser.parse_optional_punctuation(",") is not None:
            operand = parser.parse_optional_unresolved_operand()
            if operand is None:
                break
            unresolved.append(operand)
        # PTOAS main's `no_tmp` (tmrgsort without a scratch tile) is kept as a unit attribute.
        no_tmp = parser.parse_optional_keyword("no_tmp") is not None
        attributes = parser.parse_optional_attr_dict()
        if no_tmp:
            attributes["no_tmp"] = UnitAttr()
        parser.parse_punctuation(":")
        types = _parse_input_types(parser, unresolved, attributes)
        fp_at = parser.pos
        fp = _parse_fp_clause(parser)
        pre_quant = _parse_pre_quant_clause(parser)
        parser.parse_punctuation(")")
        ins = _resolve(parser, unresolved, types) + pre_quant
        op_class: type[TileOpBase] = cls
        if fp is not None:
            # PTOAS main's `fp %f : T` clause is the older `_fp` op's second input.
            if cls.name not in FP_FORMS:
                parser.raise_error(f"'{cls.name}' takes no 'fp' operand", fp_at, fp_at + 2)
            op_class, ins = FP_FORMS[cls.name], [ins[0], fp, *ins[1:]]
        outs: list[SSAValue] = []
        if parser.parse_optional_keyword("outs") is not None:
            parser.parse_punctuation("(")
            out_unresolved = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
            parser.parse_punctuation(":")
            out_types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            parser.parse_punctuation(")")
            outs = _resolve(parser, out_unresolved, out_types)
        attributes |= parser.parse_optional_attr_dict()
        return op_class(ins, outs, (), attributes)

    @classmethod
    def _parse_ssa(cls, parser: Parser) -> TileOpBase:
        unresolved = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        if parser.parse_optional_punctuation("(") is not None:
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            parser.parse_punctuation(")")
        else:
            types = [parser.parse_type()]
        parser.parse_punctuation("->")
        result_types = parser.parse_optional_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_type
        )
        if result_types is None:
            result_types = [parser.parse_type()]
        return cls(_resolve(parser, unresolved, types), (), result_types, attributes)

    def print(self, printer: Printer) -> None:
        attributes = {k: v for k, v in self.attributes.items()}
        if self.is_dps:
            printer.print_string(" ins(")
            printer.print_list(self.ins, printer.print_operand)
            if attributes:
                printer.print_string(" ")
                printer.print_attr_dict(attributes)
            printer.print_string(" : ")
            printer.print_list(self.input_types(), printer.print_attribute)
            printer.print_string(")")
            if not self.outs:
                return
            printer.print_string(" outs(")
            printer.print_list(self.outs, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list([v.type for v in self.outs], printer.print_attribute)
            printer.print_string(")")
            return
        printer.print_string(" ")
        printer.print_list(self.ins, printer.print_operand)
        if attributes:
            printer.print_string(" ")
            printer.print_attr_dict(attributes)
        printer.print_string(" : ")
        if len(self.ins) == 1:
            printer.print_attribute(self.ins[0].type)
        else:
            printer.print_string("(")
            printer.print_list(self.input_types(), printer.print_attribute)
            printer.print_string(")")
        printer.print_string(" -> ")
        if len(self.res) == 1:
            printer.print_attribute(self.res[0].type)
        else:
            printer.print_string("(")
            printer.print_list(self.result_types, printer.print_attribute)
            printer.print_string(")")

    # -- verification ------------------------------------------------------

    # Number of tile operands the op reads (scalars and scratch tiles come after).
    TILE_INPUTS: ClassVar[int] = 1
    # Extra trailing operands allowed at most (scalars, optional scratch tiles).
    EXTRA_INPUTS: ClassVar[tuple[int, int]] = (0, 0)
    # The inputs that may be global-memory views rather than tiles.
    VIEW_INPUTS: ClassVar[tuple[int, ...]] = ()

    # How many `outs` level 2 has: none for ops that write no tile (tprint,
    # tsync), a second one for ops that also report a count (tmrgsort, tgather).
    OUTS: ClassVar[tuple[int, int]] = (1, 1)

    def verify_(self) -> None:
        self._verify_form()
        self._verify_operand_count()
        # After PTOAS's view-to-memref lowering the tiles are memrefs in a local
        # address space; the tile rules need tile types to read.
        if not any(isinstance(v.type, MemRefType) for v in [*self.ins, *self.outs]):
            self.verify_semantics()
            self._verify_scratch()
            self._verify_tmp_contract()

    def _verify_scratch(self) -> None:
        """PTOAS main's rules on the scratch tile: the last input past the tile inputs."""
        op = self.name.removeprefix("pto.")
        if op not in SCRATCH_RULE_OPS or not self.is_dps or not self.outs:
            return
        last = self.ins[-1].type if len(self.ins) > self.TILE_INPUTS else None
        tmp = plain_tile(last) if isinstance(last, TileTypeBase) else None
        dst = self.outs[0].type
        if not isinstance(dst, TileTypeBase):
            return
        precision = self.attributes.get("precisionType")
        error = scratch_error(
            op, op_target(self), plain_tile(dst), tmp, str(getattr(precision, "data", ""))
        )
        if error:
            raise VerifyException(error)

    def _verify_tmp_contract(self) -> None:
        """PTOAS main's tmp contracts of arg reductions, tsel, tcolsum and tmrgsort."""
        op = self.name.removeprefix("pto.")
        if op not in TMP_CONTRACT_OPS or not self.is_dps or not self.outs:
            return
        tiles = [v.type for v in self.ins]
        last = tiles[-1] if len(tiles) > self.TILE_INPUTS else None
        tmp = plain_tile(last) if isinstance(last, TileTypeBase) else None
        first, dst = tiles[0], self.outs[0].type
        if not isinstance(first, TileTypeBase) or not isinstance(dst, TileTypeBase):
            return
        error = tmp_contract_error(
            op, op_target(self), plain_tile(first), tmp, plain_tile(dst), self.attributes
        )
        if error:
            raise VerifyException(error)

    def _verify_form(self) -> None:
        """Level 1 returns tiles and has no `outs`; level 2 writes `outs` and returns nothing."""
        if self.is_dps:
            if self.res:
                raise VerifyException("a DPS (level-2) op writes its 'outs' and has no results")
            low, high = self.OUTS
            if not low <= len(self.outs) <= high:
                expected = str(low) if low == high else f"{low} to {high}"
                raise VerifyException(
                    f"expected {expected} 'outs' operands, but got {len(self.outs)}"
                )
            tile_class: type[TileTypeBase] = TileBufType
        else:
            if len(self.res) != 1:
                raise VerifyException(f"expected 1 result, but got {len(self.res)}")
            tile_class = TileType
        other = TileType if tile_class is TileBufType else TileBufType
        for value in [*self.ins, *self.outs, *self.res]:
            if isinstance(value.type, other):
                level = "level-2 (ins/outs)" if self.is_dps else "level-1 (SSA)"
                raise VerifyException(
                    f"{level} form expects {tile_class.name} tiles, but got {value.type}"
                )

    def _verify_operand_count(self) -> None:
        low = self.TILE_INPUTS + self.EXTRA_INPUTS[0]
        high = self.TILE_INPUTS + self.EXTRA_INPUTS[1]
        if not low <= len(self.ins) <= high:
            expected = str(low) if low == high else f"{low} to {high}"
            raise VerifyException(f"expected {expected} input operands, but got {len(self.ins)}")
        for index in range(self.TILE_INPUTS):
            kind = self.ins[index].type
            if index in self.VIEW_INPUTS and isinstance(
                kind, TensorViewType | PartitionTensorViewType
            ):
                continue  # global memory, as PTOAS main's mgather reads it
            if tile_params(self.ins[index]) is None and not isinstance(kind, MemRefType):
                raise VerifyException(
                    f"input #{index} must be a tile, but got {self.ins[index].type}"
                )

    def verify_semantics(self) -> None:
        """Op-specific rules; operand counts and the level are already checked."""

    def source(self, index: int = 0) -> TileTypeBase:
        t = self.ins[index].type
        assert isinstance(t, TileTypeBase)
        return t


# Ops whose `ins(...)` may end in PTOAS main's `fp %f : T` clause -> the op that
# carries that operand (textract -> textract_fp, ...), filled in by the cube ops.
FP_FORMS: dict[str, type[TileOpBase]] = {}


def _parse_fp_clause(parser: Parser) -> SSAValue | None:
    if parser.parse_optional_keyword("fp") is None:
        return None
    operand = parser.parse_unresolved_operand()
    parser.parse_punctuation(":")
    return parser.resolve_operand(operand, parse_op_type(parser))


def _parse_pre_quant_clause(parser: Parser) -> list[SSAValue]:
    """PTOAS main's `pre_quant %s : i64` (tinsert's scalar quantization), a last input."""
    if parser.parse_optional_keyword("pre_quant") is None:
        return []
    operand = parser.parse_unresolved_operand()
    parser.parse_punctuation(":")
    return [parser.resolve_operand(operand, parser.parse_type())]


def _parse_input_types(
    parser: Parser, unresolved: list[UnresolvedOperand], attributes: dict[str, Attribute]
) -> list[Attribute]:
    """`T, U` after `ins(%a, %b :`; PTOAS also writes optional operands with their own
    types, `ins(%a : T, %b : U)`, whose operands this appends to `unresolved`, and the
    mask-form tgather's axis last (`ins(%src, {maskPattern = ...} : T, "row")`)."""
    types = [parse_op_type(parser)]
    while parser.parse_optional_punctuation(",") is not None:
        position = parser.pos
        axis = parser.parse_optional_str_literal()
        if axis is not None:
            if axis not in ("row", "col"):
                parser.raise_error('axis must be "row" or "col"', position, parser.pos)
            attributes["axis"] = StringAttr(axis)
            break
        operand = parser.parse_optional_unresolved_operand()
        if operand is not None:
            unresolved.append(operand)
            parser.parse_punctuation(":")
        types.append(parse_op_type(parser))
    return types


def parse_op_type(parser: Parser) -> Attribute:
    """A type in an op's type list: MLIR drops the `!pto.tile_buf` of a tile buffer
    there (`<loc=left, dtype=f32, ...>`)."""
    # xDSL has no public peek.
    if parser._current_token.text == "<":  # pyright: ignore[reportPrivateUsage]
        return TileBufType.new(TileBufType.parse_parameters(parser))
    return parser.parse_type()


def _resolve(
    parser: Parser, unresolved: Sequence[UnresolvedOperand], types: Sequence[Attribute]
) -> list[SSAValue]:
    if len(unresolved) != len(types):
        parser.raise_error(
            f"expected {len(unresolved)} types for {len(unresolved)} operands, but got {len(types)}"
        )
    return [parser.resolve_operand(u, t) for u, t in zip(unresolved, types, strict=True)]


# -- shared checks ---------------------------------------------------------


def require_vec_row_major(op_name: str, role: str, tile: TileTypeBase) -> None:
    if tile.loc.data != "vec":
        raise VerifyException(f"computes on vec tiles, but {role} is in '{tile.loc.data}'")
    if not tile.is_row_major:
        raise VerifyException(f"computes on row-major tiles, but {role} is {tile.blayout.data}")


def require_same_element(role: str, expected: TileTypeBase, tile: TileTypeBase) -> None:
    if tile.element_type != expected.element_type:
        raise VerifyException(
            f"expected {role} element type {expected.element_name}, but got {tile.element_name}"
        )


def logical_valid_shape(tile: TileTypeBase) -> tuple[int, int]:
    """The valid shape in elements: a packed pair of f4 values (`!pto.f4E2M1x2`) is two
    elements along the packed axis (columns of a row_major tile, else rows)."""
    rows, cols = tile.valid_shape
    if not re.fullmatch(r"!pto\.f4\w*x2", tile.element_name):
        return rows, cols
    if tile.is_row_major:
        return rows, cols if cols == DYNAMIC else 2 * cols
    return (rows if rows == DYNAMIC else 2 * rows), cols


def require_same_valid_shape(role: str, expected: TileTypeBase, tile: TileTypeBase) -> None:
    """The two tiles' logical valid shapes agree (f4 pairs counted as two elements)."""
    for axis in range(2):
        a, b = logical_valid_shape(expected)[axis], logical_valid_shape(tile)[axis]
        if DYNAMIC not in (a, b) and a != b:
            raise VerifyException(
                f"expected {role} valid shape {shape_str(expected.valid_shape)}, "
                f"but got {shape_str(tile.valid_shape)} (elementwise ops do not broadcast)"
            )


def shape_str(shape: tuple[int, int]) -> str:
    return f"{format_dim(shape[0])}x{format_dim(shape[1])}"


def is_float(element: Attribute) -> bool:
    return isinstance(element, AnyFloat)


def define_tile_op(
    mnemonic: str,
    base: type[TileOpBase],
    doc: str,
    tile_inputs: int | None = None,
    extra_inputs: tuple[int, int] | None = None,
    **class_vars: object,
) -> type[TileOpBase]:
    """The op class `pto.<mnemonic>` on `base`, with its own operand counts when given.

    PTOAS has about 150 tile ops that differ only in name and operand counts;
    one line each keeps the catalogue readable.
    """
    values: dict[str, object] = dict(class_vars)
    if tile_inputs is not None:
        values["TILE_INPUTS"] = tile_inputs
    if extra_inputs is not None:
        values["EXTRA_INPUTS"] = extra_inputs
    namespace: dict[str, object] = {
        "name": f"pto.{mnemonic}",
        "__doc__": doc,
        "__module__": base.__module__,
        "__annotations__": {key: ClassVar for key in values},
        **values,
    }
    class_name = "T" + "".join(p.title() for p in mnemonic[1:].replace(".", "_").split("_"))
    return irdl_op_definition(type(class_name + "Op", (base,), namespace))


class LooseTileOpBase(TileOpBase):
    """A tile op whose operands are checked for count and kind only: the
    irregular ops (sorts, gathers, histograms, quantization) have per-op type
    rules that PTOAS checks at code generation, not in the verifier."""

    def verify_semantics(self) -> None:
        for value in self.ins[self.TILE_INPUTS :]:
            if not isinstance(value.type, _OPERAND_TYPES) and not is_scalar(value.type):
                raise VerifyException(
                    f"expected a tile, a view or a scalar operand, but got {value.type}"
                )


_OPERAND_TYPES = (TileTypeBase, MemRefType, PartitionTensorViewType, TensorViewType, PtrType)


def is_scalar(t: Attribute) -> bool:
    return isinstance(t, IntegerType | IndexType | AnyFloat)


def plain_tile(tile: Attribute) -> PlainTile:
    """A tile type as the IR-free rules take it (bytes per element 1 where the element
    has no fixed width, as PTOAS's byte counts of the packed and f8 kinds)."""
    assert isinstance(tile, TileTypeBase)
    bytes_each = tile.element_bytes if is_element_type(tile.element_name) else 1
    return PlainTile(
        tile.loc.data,
        tile.element_name,
        tile.shape,
        tile.valid_shape,
        tile.blayout.data,
        tile.slayout.data,
        bytes_each,
    )
