"""The `pto` dialect: PTO's tile ISA as PTOAS spells it, in two levels.

Level 1 is SSA: tile ops take and return `!pto.tile<...>` values,

    %d = pto.tadd %a, %b : (!pto.tile<16x16xf32>, !pto.tile<16x16xf32>) -> !pto.tile<16x16xf32>

Level 2 is destination-passing: ops write into `!pto.tile_buf<...>` buffers
made by `pto.alloc_tile`,

    pto.tadd ins(%a, %b : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>)
             outs(%d : !pto.tile_buf<vec, 16x16xf32>)

Both tile types carry the same parameters (location, element type, static
rows/cols, valid rows/cols, box layout, inner box layout, fractal size, pad,
compact mode), so lowering level 1 to level 2 keeps every type. `tile_buf`
parses PTOAS's key form (`loc=vec, dtype=f32, rows=16, ...`) and its compact
form (`vec, 16x16xf32, valid=16x8`), and prints the compact one; `!pto.tile`
also accepts the shorthand `16x16xf32` (a row-major `vec` tile).

Op verifiers hold the target-independent rules; rules that differ between
A2A3 and A5 live in `passes/pto/pto_verify_target.py`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    BFloat16Type,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    StringAttr,
)
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    ParametrizedAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

from xla_emit.pto.rules import TileDesc
from xla_emit.pto.targets import (
    DEFAULT_TARGET,
    LOCATIONS,
    TRANSPOSABLE_TYPES,
    Target,
    element_bytes,
    is_element_type,
    parse_target,
)
from xla_emit.pto.ttrans_tmp import SOURCE_RANK, Conversion

DYNAMIC = -1
BLAYOUTS = ("row_major", "col_major")
SLAYOUTS = ("none_box", "row_major", "col_major")
DEFAULT_FRACTAL = 512
PIPES = (
    "PIPE_S",
    "PIPE_V",
    "PIPE_M",
    "PIPE_MTE1",
    "PIPE_MTE2",
    "PIPE_MTE3",
    "PIPE_FIX",
    "PIPE_ALL",
)
EVENTS = tuple(f"EVENT_ID{i}" for i in range(8))

# The key form lists every key in this order (`compact` may be left out).
_KEY_FORM_KEYS = (
    "loc",
    "dtype",
    "rows",
    "cols",
    "v_row",
    "v_col",
    "blayout",
    "slayout",
    "fractal",
    "pad",
)


def element_type_name(element: Attribute) -> str:
    """The MLIR spelling of a scalar element type (`f32`, `bf16`, `ui8`, ...)."""
    match element:
        case Float32Type():
            return "f32"
        case Float16Type():
            return "f16"
        case BFloat16Type():
            return "bf16"
        case Float64Type():
            return "f64"
        case IntegerType():
            prefix = {Signedness.SIGNLESS: "i", Signedness.SIGNED: "si", Signedness.UNSIGNED: "ui"}
            return f"{prefix[element.signedness.data]}{element.width.data}"
        case _:
            return str(element)


TARGET_ATTR = "pto.target_arch"


def module_target(module: Operation, override: str | None = None) -> Target:
    """The target a pass works for: its option if given, else the module's
    `pto.target_arch` attribute, else A2A3 (PTOAS's default)."""
    if override:
        return parse_target(override)
    attr = module.attributes.get(TARGET_ATTR)
    if attr is None:
        return DEFAULT_TARGET
    if not isinstance(attr, StringAttr):
        raise VerifyException(f'{TARGET_ATTR} must be a string ("a2a3" or "a5"), but got {attr}')
    try:
        return parse_target(attr.data)
    except ValueError as error:
        raise VerifyException(str(error)) from None


def _format_dim(dim: int) -> str:
    return "?" if dim == DYNAMIC else str(dim)


# A dataclass so that subclasses compare and hash by these parameters.
@dataclass(frozen=True, init=False)
class TileTypeBase(ParametrizedAttribute, TypeAttribute):
    """Parameters and syntax shared by `!pto.tile` and `!pto.tile_buf`."""

    loc: StringAttr
    element_type: Attribute
    rows: IntAttr
    cols: IntAttr
    valid_rows: IntAttr
    valid_cols: IntAttr
    blayout: StringAttr
    slayout: StringAttr
    fractal: IntAttr
    pad: IntAttr
    compact: IntAttr

    @classmethod
    def of(
        cls,
        element_type: Attribute,
        rows: int,
        cols: int,
        *,
        loc: str = "vec",
        valid_rows: int | None = None,
        valid_cols: int | None = None,
        blayout: str = "row_major",
        slayout: str = "none_box",
        fractal: int = DEFAULT_FRACTAL,
        pad: int = 0,
        compact: int = 0,
    ) -> Self:
        """A tile type; the valid shape defaults to the static shape."""
        return cls.new(
            (
                StringAttr(loc),
                element_type,
                IntAttr(rows),
                IntAttr(cols),
                IntAttr(rows if valid_rows is None else valid_rows),
                IntAttr(cols if valid_cols is None else valid_cols),
                StringAttr(blayout),
                StringAttr(slayout),
                IntAttr(fractal),
                IntAttr(pad),
                IntAttr(compact),
            )
        )

    # -- convenient views -------------------------------------------------

    @property
    def shape(self) -> tuple[int, int]:
        return self.rows.data, self.cols.data

    @property
    def valid_shape(self) -> tuple[int, int]:
        return self.valid_rows.data, self.valid_cols.data

    @property
    def has_dynamic_valid_shape(self) -> bool:
        return DYNAMIC in self.valid_shape

    @property
    def element_name(self) -> str:
        return element_type_name(self.element_type)

    @property
    def element_bytes(self) -> int:
        return element_bytes(self.element_name)

    @property
    def is_row_major(self) -> bool:
        return self.blayout.data == "row_major"

    def desc(self) -> TileDesc:
        """The plain description the target rules of `xla_emit.pto.rules` take."""
        return TileDesc(
            self.element_name,
            self.rows.data,
            self.cols.data,
            self.valid_rows.data,
            self.valid_cols.data,
            self.is_row_major,
        )

    # -- verification ------------------------------------------------------

    def verify(self) -> None:
        if self.loc.data not in LOCATIONS:
            raise VerifyException(
                f"unknown tile location '{self.loc.data}', expected one of {', '.join(LOCATIONS)}"
            )
        if not is_element_type(self.element_name):
            raise VerifyException(f"'{self.element_name}' is not a tile element type")
        rows, cols = self.shape
        if rows <= 0 or cols <= 0:
            raise VerifyException(f"tile shape must be positive, but got {rows}x{cols}")
        for name, valid, static in (
            ("rows", self.valid_rows.data, rows),
            ("cols", self.valid_cols.data, cols),
        ):
            if valid != DYNAMIC and not 0 < valid <= static:
                raise VerifyException(
                    f"valid {name} must be in [1, {static}] (or '?'), but got {valid}"
                )
        if self.blayout.data not in BLAYOUTS:
            raise VerifyException(f"unknown blayout '{self.blayout.data}'")
        if self.slayout.data not in SLAYOUTS:
            raise VerifyException(f"unknown slayout '{self.slayout.data}'")
        if self.pad.data not in (0, 1, 2, 3):
            raise VerifyException(
                f"pad must be 0 (null), 1 (zero), 2 (max) or 3 (min), but got {self.pad.data}"
            )
        if self.compact.data not in (0, 1, 2):
            raise VerifyException(f"compact must be 0, 1 or 2, but got {self.compact.data}")

    # -- syntax --------------------------------------------------------------

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            if parser.parse_optional_keyword("loc") is not None:
                return _parse_key_form(parser)
            # xDSL has no public peek; the compact form starts with a size or `?`.
            token = parser._current_token.text  # pyright: ignore[reportPrivateUsage]
            if token[:1].isdigit() or token == "?":
                return _parse_compact_form(parser, "vec")
            loc = parser.parse_identifier(" (a tile location, 'loc=' or a shape)")
            parser.parse_punctuation(",")
            return _parse_compact_form(parser, loc)

    def print_parameters(self, printer: Printer) -> None:
        rows, cols = self.shape
        printer.print_string("<")
        if self._prints_location():
            printer.print_string(f"{self.loc.data}, ")
        printer.print_string(f"{rows}x{cols}x")
        printer.print_attribute(self.element_type)
        if self.valid_shape != self.shape:
            vr, vc = self.valid_shape
            printer.print_string(f", valid={_format_dim(vr)}x{_format_dim(vc)}")
        if self.blayout.data != "row_major":
            printer.print_string(f", blayout={self.blayout.data}")
        if self.slayout.data != "none_box":
            printer.print_string(f", slayout={self.slayout.data}")
        if self.fractal.data != DEFAULT_FRACTAL:
            printer.print_string(f", fractal={self.fractal.data}")
        if self.pad.data != 0:
            printer.print_string(f", pad={self.pad.data}")
        if self.compact.data != 0:
            printer.print_string(f", compact={self.compact.data}")
        printer.print_string(">")

    def _prints_location(self) -> bool:
        return True


def _parse_valid_dim(parser: AttrParser) -> int:
    if parser.parse_optional_punctuation("?") is not None:
        return DYNAMIC
    return parser.parse_integer(allow_boolean=False)


def _parse_keyword_value(parser: AttrParser, options: Sequence[str], key: str) -> str:
    return parser.parse_keyword_in(options, f" for tile key '{key}'")


def _parse_key_form(parser: AttrParser) -> list[Attribute]:
    """The key form of a tile buffer type.

    `loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=...,
    slayout=..., fractal=512, pad=0[, compact=0]`.
    """
    values: dict[str, Attribute] = {}
    for index, key in enumerate(_KEY_FORM_KEYS):
        if index > 0:
            parser.parse_punctuation(",")
            parser.parse_keyword(
                key, " (tile_buf keys come in the order " + ", ".join(_KEY_FORM_KEYS) + ")"
            )
        parser.parse_punctuation("=")
        match key:
            case "loc":
                values[key] = StringAttr(_parse_keyword_value(parser, LOCATIONS, key))
            case "dtype":
                values[key] = parser.parse_type()
            case "v_row" | "v_col":
                values[key] = IntAttr(_parse_valid_dim(parser))
            case "blayout":
                values[key] = StringAttr(_parse_keyword_value(parser, BLAYOUTS, key))
            case "slayout":
                values[key] = StringAttr(_parse_keyword_value(parser, SLAYOUTS, key))
            case _:
                values[key] = IntAttr(parser.parse_integer(allow_boolean=False))
    compact = IntAttr(0)
    if parser.parse_optional_punctuation(",") is not None:
        parser.parse_keyword("compact")
        parser.parse_punctuation("=")
        compact = IntAttr(parser.parse_integer(allow_boolean=False))
    return [
        values["loc"],
        values["dtype"],
        values["rows"],
        values["cols"],
        values["v_row"],
        values["v_col"],
        values["blayout"],
        values["slayout"],
        values["fractal"],
        values["pad"],
        compact,
    ]


def _parse_compact_form(parser: AttrParser, loc: str) -> list[Attribute]:
    """`RxCxT`, then optional `, key=value` pairs.

    The keys are valid, blayout, slayout, fractal, pad and compact.
    """
    if loc not in LOCATIONS:
        parser.raise_error(f"unknown tile location '{loc}', expected one of {', '.join(LOCATIONS)}")
    dims, element = parser.parse_ranked_shape()
    if len(dims) != 2 or any(d < 0 for d in dims):
        parser.raise_error(
            "a tile has a static 2-D shape, but got "
            f"{'x'.join(_format_dim(max(d, DYNAMIC)) for d in dims)}"
        )
    rows, cols = dims
    options: dict[str, Attribute] = {
        "valid_rows": IntAttr(rows),
        "valid_cols": IntAttr(cols),
        "blayout": StringAttr("row_major"),
        "slayout": StringAttr("none_box"),
        "fractal": IntAttr(DEFAULT_FRACTAL),
        "pad": IntAttr(0),
        "compact": IntAttr(0),
    }
    seen: set[str] = set()
    while parser.parse_optional_punctuation(",") is not None:
        key = parser.parse_keyword_in(
            ("valid", "blayout", "slayout", "fractal", "pad", "compact"), " (a tile_buf option)"
        )
        if key in seen:
            parser.raise_error(f"duplicate '{key}' in tile type")
        seen.add(key)
        parser.parse_punctuation("=")
        match key:
            case "valid":
                valid = [DYNAMIC if d < 0 else d for d in parser.parse_dimension_list()]
                if len(valid) != 2:
                    parser.raise_error("valid must have exactly two dims")
                options["valid_rows"], options["valid_cols"] = IntAttr(valid[0]), IntAttr(valid[1])
            case "blayout":
                options[key] = StringAttr(_parse_keyword_value(parser, BLAYOUTS, key))
            case "slayout":
                options[key] = StringAttr(_parse_keyword_value(parser, SLAYOUTS, key))
            case _:
                options[key] = IntAttr(parser.parse_integer(allow_boolean=False))
    return [
        StringAttr(loc),
        element,
        IntAttr(rows),
        IntAttr(cols),
        options["valid_rows"],
        options["valid_cols"],
        options["blayout"],
        options["slayout"],
        options["fractal"],
        options["pad"],
        options["compact"],
    ]


@irdl_attr_definition
class TileType(TileTypeBase):
    """A level-1 tile value: `!pto.tile<16x16xf32>` or with tile_buf's parameters."""

    name = "pto.tile"

    def _prints_location(self) -> bool:
        # The shorthand `!pto.tile<16x16xf32>` means a vec tile.
        return self.loc.data != "vec"


@irdl_attr_definition
class TileBufType(TileTypeBase):
    """A level-2 tile buffer in a local memory (`!pto.tile_buf<vec, 16x16xf32>`)."""

    name = "pto.tile_buf"


def buffer_type_of(tile: TileTypeBase) -> TileBufType:
    """The level-2 buffer type holding a level-1 tile of the same parameters."""
    return TileBufType.new(tile.parameters)


@irdl_attr_definition
class PtrType(ParametrizedAttribute, TypeAttribute):
    """A global-memory pointer `!pto.ptr<f32>`."""

    name = "pto.ptr"

    element_type: Attribute


# A dataclass so that subclasses compare and hash by these parameters.
@dataclass(frozen=True, init=False)
class _ShapedViewBase(ParametrizedAttribute, TypeAttribute):
    """A global-memory view `<?x?xf32>`: a shape (`?` = dynamic) and an element type."""

    shape: ArrayAttr[IntAttr]
    element_type: Attribute

    def __init__(self, shape: Sequence[int], element_type: Attribute) -> None:
        super().__init__(ArrayAttr(IntAttr(d) for d in shape), element_type)

    @property
    def dims(self) -> tuple[int, ...]:
        return tuple(d.data for d in self.shape.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            dims, element = parser.parse_ranked_shape()
        return [ArrayAttr(IntAttr(DYNAMIC if d < 0 else d) for d in dims), element]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        for dim in self.dims:
            printer.print_string(f"{_format_dim(dim)}x")
        printer.print_attribute(self.element_type)
        printer.print_string(">")


@irdl_attr_definition
class TensorViewType(_ShapedViewBase):
    """`!pto.tensor_view<?x?xf32>`: a strided view of global memory."""

    name = "pto.tensor_view"


@irdl_attr_definition
class PartitionTensorViewType(_ShapedViewBase):
    """`!pto.partition_tensor_view<32x32xf32>`: the window tload/tstore move."""

    name = "pto.partition_tensor_view"

    def verify(self) -> None:
        if not 1 <= len(self.dims) <= 5:
            raise VerifyException(f"a partition view has 1 to 5 dims, but got {len(self.dims)}")


# A dataclass so that subclasses compare and hash by these parameters.
@dataclass(frozen=True, init=False)
class _EnumAttrBase(ParametrizedAttribute):
    """`#pto.NAME<VALUE>` with VALUE from a fixed list."""

    value: StringAttr
    ALLOWED: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return [StringAttr(parser.parse_keyword_in(cls.ALLOWED))]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.value.data}>")


@irdl_attr_definition
class PipeAttr(_EnumAttrBase):
    """A hardware pipe, `#pto.pipe<PIPE_V>`."""

    name = "pto.pipe"
    ALLOWED: ClassVar[tuple[str, ...]] = PIPES


@irdl_attr_definition
class EventAttr(_EnumAttrBase):
    """A synchronization event id, `#pto.event<EVENT_ID0>`."""

    name = "pto.event"
    ALLOWED: ClassVar[tuple[str, ...]] = EVENTS


# ---------------------------------------------------------------------------
# Tile ops: one class per op, both levels in one class.
# ---------------------------------------------------------------------------


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
        return len(self.outs) > 0

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
        unresolved = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        parser.parse_punctuation(")")
        ins = _resolve(parser, unresolved, types)
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
        return cls(ins, outs, (), attributes)

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
            printer.print_string(") outs(")
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

    def verify_(self) -> None:
        self._verify_form()
        self._verify_operand_count()
        self.verify_semantics()

    def _verify_form(self) -> None:
        """Level 1 returns tiles and has no `outs`; level 2 writes `outs` and returns nothing."""
        if self.is_dps:
            if self.res:
                raise VerifyException("a DPS (level-2) op writes its 'outs' and has no results")
            if len(self.outs) != 1:
                raise VerifyException(f"expected 1 'outs' operand, but got {len(self.outs)}")
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
            if tile_params(self.ins[index]) is None:
                raise VerifyException(
                    f"input #{index} must be a tile, but got {self.ins[index].type}"
                )

    def verify_semantics(self) -> None:
        """Op-specific rules; operand counts and the level are already checked."""

    def source(self, index: int = 0) -> TileTypeBase:
        t = self.ins[index].type
        assert isinstance(t, TileTypeBase)
        return t


def _resolve(
    parser: Parser, unresolved: Sequence[UnresolvedOperand], types: Sequence[Attribute]
) -> list[SSAValue]:
    if len(unresolved) != len(types):
        parser.raise_error(
            f"expected {len(unresolved)} types for {len(unresolved)} operands, but got {len(types)}"
        )
    return [parser.resolve_operand(u, t) for u, t in zip(unresolved, types, strict=True)]


# -- shared checks ---------------------------------------------------------


def _require_vec_row_major(op_name: str, role: str, tile: TileTypeBase) -> None:
    if tile.loc.data != "vec":
        raise VerifyException(f"computes on vec tiles, but {role} is in '{tile.loc.data}'")
    if not tile.is_row_major:
        raise VerifyException(f"computes on row-major tiles, but {role} is {tile.blayout.data}")


def _require_same_element(role: str, expected: TileTypeBase, tile: TileTypeBase) -> None:
    if tile.element_type != expected.element_type:
        raise VerifyException(
            f"expected {role} element type {expected.element_name}, but got {tile.element_name}"
        )


def _require_same_valid_shape(role: str, expected: TileTypeBase, tile: TileTypeBase) -> None:
    for axis in range(2):
        a, b = expected.valid_shape[axis], tile.valid_shape[axis]
        if DYNAMIC not in (a, b) and a != b:
            raise VerifyException(
                f"expected {role} valid shape {_shape_str(expected.valid_shape)}, "
                f"but got {_shape_str(tile.valid_shape)} (elementwise ops do not broadcast)"
            )


def _shape_str(shape: tuple[int, int]) -> str:
    return f"{_format_dim(shape[0])}x{_format_dim(shape[1])}"


def _is_float(element: Attribute) -> bool:
    return isinstance(element, AnyFloat)


class ElementwiseOpBase(TileOpBase):
    """Vector elementwise ops: every tile is a row-major vec tile of one element
    type and one valid shape; the op runs over the destination's valid region."""

    FLOAT_ONLY: ClassVar[bool] = False

    def verify_semantics(self) -> None:
        dst = self.destination_type()
        _require_vec_row_major(self.name, "the destination", dst)
        if self.FLOAT_ONLY and not _is_float(dst.element_type):
            raise VerifyException(f"needs a float element type, but got {dst.element_name}")
        for index in range(self.TILE_INPUTS):
            src = self.source(index)
            _require_vec_row_major(self.name, f"input #{index}", src)
            _require_same_element(f"input #{index}", dst, src)
            _require_same_valid_shape(f"input #{index}", dst, src)


class BinaryOpBase(ElementwiseOpBase):
    TILE_INPUTS: ClassVar[int] = 2


class UnaryOpBase(ElementwiseOpBase):
    TILE_INPUTS: ClassVar[int] = 1


class TileScalarOpBase(ElementwiseOpBase):
    """`tile OP scalar`; the scalar has the tile's element type."""

    TILE_INPUTS: ClassVar[int] = 1
    EXTRA_INPUTS: ClassVar[tuple[int, int]] = (1, 1)

    def verify_semantics(self) -> None:
        super().verify_semantics()
        scalar = self.ins[1].type
        if scalar != self.destination_type().element_type:
            raise VerifyException(
                "expected a scalar of the tile element type "
                f"{self.destination_type().element_name}, but got {scalar}"
            )


@irdl_op_definition
class TAddOp(BinaryOpBase):
    """dst = a + b over the destination's valid region."""

    name = "pto.tadd"


@irdl_op_definition
class TSubOp(BinaryOpBase):
    """dst = a - b."""

    name = "pto.tsub"


@irdl_op_definition
class TMulOp(BinaryOpBase):
    """dst = a * b."""

    name = "pto.tmul"


@irdl_op_definition
class TDivOp(BinaryOpBase):
    """dst = a / b."""

    name = "pto.tdiv"


@irdl_op_definition
class TMaxOp(BinaryOpBase):
    """dst = max(a, b)."""

    name = "pto.tmax"


@irdl_op_definition
class TMinOp(BinaryOpBase):
    """dst = min(a, b)."""

    name = "pto.tmin"


@irdl_op_definition
class TExpOp(UnaryOpBase):
    """dst = exp(src)."""

    name = "pto.texp"
    FLOAT_ONLY: ClassVar[bool] = True


@irdl_op_definition
class TLogOp(UnaryOpBase):
    """dst = log(src)."""

    name = "pto.tlog"
    FLOAT_ONLY: ClassVar[bool] = True


@irdl_op_definition
class TSqrtOp(UnaryOpBase):
    """dst = sqrt(src)."""

    name = "pto.tsqrt"
    FLOAT_ONLY: ClassVar[bool] = True


@irdl_op_definition
class TRsqrtOp(UnaryOpBase):
    """dst = 1 / sqrt(src)."""

    name = "pto.trsqrt"
    FLOAT_ONLY: ClassVar[bool] = True


@irdl_op_definition
class TAbsOp(UnaryOpBase):
    """dst = |src|."""

    name = "pto.tabs"


@irdl_op_definition
class TReluOp(UnaryOpBase):
    """dst = max(src, 0)."""

    name = "pto.trelu"


@irdl_op_definition
class TAddsOp(TileScalarOpBase):
    """dst = src + scalar."""

    name = "pto.tadds"


@irdl_op_definition
class TMulsOp(TileScalarOpBase):
    """dst = src * scalar."""

    name = "pto.tmuls"


@irdl_op_definition
class TCvtOp(TileOpBase):
    """dst = convert(src) to the destination's element type (optional `rmode`)."""

    name = "pto.tcvt"

    def verify_semantics(self) -> None:
        dst, src = self.destination_type(), self.source()
        _require_vec_row_major(self.name, "the destination", dst)
        _require_vec_row_major(self.name, "the source", src)
        _require_same_valid_shape("source", dst, src)


# Row/column reductions: source element -> allowed accumulator elements.
_REDUCTION_RESULTS: dict[str, tuple[str, ...]] = {
    "f16": ("f16", "f32"),
    "bf16": ("bf16", "f32"),
    "f32": ("f32",),
    "i16": ("i16", "i32"),
    "si16": ("si16", "si32"),
    "i32": ("i32",),
    "si32": ("si32",),
}


class ReductionOpBase(TileOpBase):
    """Reduce each row (to a one-column tile) or each column (to a one-row tile).
    An optional second input is the scratch tile PTOAS passes explicitly."""

    EXTRA_INPUTS: ClassVar[tuple[int, int]] = (0, 1)
    REDUCES_ROWS: ClassVar[bool] = True

    def verify_semantics(self) -> None:
        dst, src = self.destination_type(), self.source()
        _require_vec_row_major(self.name, "the source", src)
        if dst.loc.data != "vec":
            raise VerifyException(f"writes a vec tile, but the destination is in '{dst.loc.data}'")
        allowed = _REDUCTION_RESULTS.get(src.element_name)
        if allowed is None or dst.element_name not in allowed:
            raise VerifyException(
                f"cannot reduce {src.element_name} into {dst.element_name}"
                + (f" (allowed: {', '.join(allowed)})" if allowed else "")
            )
        kept, reduced = (0, 1) if self.REDUCES_ROWS else (1, 0)
        if dst.valid_shape[reduced] not in (1, DYNAMIC):
            what = "columns" if self.REDUCES_ROWS else "rows"
            raise VerifyException(
                f"leaves one valid {what[:-1]} per {'row' if self.REDUCES_ROWS else 'column'}, "
                f"but the destination has {dst.valid_shape[reduced]} valid {what}"
            )
        a, b = src.valid_shape[kept], dst.valid_shape[kept]
        if DYNAMIC not in (a, b) and a != b:
            what = "rows" if self.REDUCES_ROWS else "columns"
            raise VerifyException(
                f"expected {a} valid {what} in the destination, as in the source, but got {b}"
            )
        if len(self.ins) == 2 and tile_params(self.ins[1]) is None:
            raise VerifyException(f"the scratch operand must be a tile, but got {self.ins[1].type}")


@irdl_op_definition
class TRowSumOp(ReductionOpBase):
    """dst[i, 0] = sum_j src[i, j]."""

    name = "pto.trowsum"


@irdl_op_definition
class TRowMaxOp(ReductionOpBase):
    """dst[i, 0] = max_j src[i, j]."""

    name = "pto.trowmax"


@irdl_op_definition
class TColSumOp(ReductionOpBase):
    """dst[0, j] = sum_i src[i, j]."""

    name = "pto.tcolsum"
    REDUCES_ROWS: ClassVar[bool] = False


@irdl_op_definition
class TColMaxOp(ReductionOpBase):
    """dst[0, j] = max_i src[i, j]."""

    name = "pto.tcolmax"
    REDUCES_ROWS: ClassVar[bool] = False


@irdl_op_definition
class TRowExpandOp(TileOpBase):
    """dst[i, j] = src[i, 0]: broadcast a one-column tile along each row."""

    name = "pto.trowexpand"

    def verify_semantics(self) -> None:
        dst, src = self.destination_type(), self.source()
        _require_vec_row_major(self.name, "the destination", dst)
        _require_vec_row_major(self.name, "the source", src)
        _require_same_element("source", dst, src)
        if src.valid_cols.data not in (1, DYNAMIC):
            raise VerifyException(
                f"broadcasts one column, but the source has {src.valid_cols.data} valid columns"
            )
        a, b = src.valid_rows.data, dst.valid_rows.data
        if DYNAMIC not in (a, b) and a != b:
            raise VerifyException(
                f"expected {a} valid rows in the destination, as in the source, but got {b}"
            )


_MATMUL_TYPES = {
    ("i32", "i8", "i8"),
    ("f32", "f16", "f16"),
    ("f32", "f32", "f32"),
    ("f32", "bf16", "bf16"),
}


@irdl_op_definition
class TMatmulOp(TileOpBase):
    """acc[M, N] = left[M, K] x right[K, N]."""

    name = "pto.tmatmul"
    TILE_INPUTS: ClassVar[int] = 2

    def verify_semantics(self) -> None:
        dst, a, b = self.destination_type(), self.source(0), self.source(1)
        for role, tile, loc in (
            ("the left operand", a, "left"),
            ("the right operand", b, "right"),
            ("the destination", dst, "acc"),
        ):
            if tile.loc.data != loc:
                raise VerifyException(f"expects {role} in '{loc}', but got '{tile.loc.data}'")
        types = (dst.element_name, a.element_name, b.element_name)
        if types not in _MATMUL_TYPES:
            raise VerifyException(f"unsupported types (acc, left, right) = ({', '.join(types)})")
        (m, k), (k2, n), (dm, dn) = a.valid_shape, b.valid_shape, dst.valid_shape
        for what, x, y in (("K", k, k2), ("M", m, dm), ("N", n, dn)):
            if DYNAMIC not in (x, y) and x != y:
                raise VerifyException(
                    f"{what} mismatch: {x} != {y} (left {_shape_str(a.valid_shape)}, right "
                    f"{_shape_str(b.valid_shape)}, acc {_shape_str(dst.valid_shape)})"
                )


@irdl_op_definition
class TMovOp(TileOpBase):
    """Copy the valid region of a tile into another (possibly another location)."""

    name = "pto.tmov"

    def verify_semantics(self) -> None:
        dst, src = self.destination_type(), self.source()
        _require_same_element("source", dst, src)
        _require_same_valid_shape("source", dst, src)


def ttrans_conversion(op: Operation) -> tuple[Conversion, tuple[int, ...], int]:
    """A ttrans's conversion (default a 2-D transpose), logical source shape and C0."""
    attr = op.attributes.get("conversion")
    conversion = Conversion(attr.data) if isinstance(attr, StringAttr) else Conversion.TRANSPOSE_2D
    shape_attr = op.attributes.get("source_shape")
    shape = tuple(shape_attr.get_values()) if isa(shape_attr, DenseArrayBase[IntegerType]) else ()
    c0_attr = op.attributes.get("c0")
    c0 = c0_attr.value.data if isinstance(c0_attr, IntegerAttr) else 0
    return conversion, tuple(int(d) for d in shape), c0


@irdl_op_definition
class TTransOp(TileOpBase):
    """dst[i, j] = src[j, i] over the transpose domain (A2A3: the source's valid
    region; A5: its static shape). A second input is the scratch tile. With
    `{conversion = "nchw_to_nc1hwc0", source_shape = array<i64: ...>, c0 = 8}`
    it performs a ConvTile format change on the tiles' row-major contents."""

    name = "pto.ttrans"
    EXTRA_INPUTS: ClassVar[tuple[int, int]] = (0, 1)

    def verify_semantics(self) -> None:
        dst, src = self.destination_type(), self.source()
        for role, tile in (("source", src), ("destination", dst)):
            if tile.element_name not in TRANSPOSABLE_TYPES:
                raise VerifyException(
                    f"{role} element type {tile.element_name} is not supported "
                    "(4 B: ui32/i32/f32, 2 B: ui16/i16/f16/bf16, 1 B: ui8/i8)"
                )
        if src.element_bytes != dst.element_bytes:
            raise VerifyException(
                f"needs equal element sizes, but the source {src.element_name} has "
                f"{src.element_bytes} bytes and the destination {dst.element_name} has "
                f"{dst.element_bytes}"
            )
        if len(self.ins) == 2:
            tmp = tile_params(self.ins[1])
            if tmp is None:
                raise VerifyException(
                    f"the scratch operand must be a tile, but got {self.ins[1].type}"
                )
            if tmp.element_bytes != src.element_bytes:
                raise VerifyException(
                    f"scratch elements must have {src.element_bytes} bytes like the source, but "
                    f"{tmp.element_name} has {tmp.element_bytes}"
                )
        if self.is_dps and (
            self.outs[0] == self.ins[0] or (len(self.ins) == 2 and self.outs[0] == self.ins[1])
        ):
            raise VerifyException(
                "cannot write the buffer it reads (the destination aliases an input)"
            )
        self._verify_conversion(src, dst)

    def _verify_conversion(self, src: TileTypeBase, dst: TileTypeBase) -> None:
        conversion, shape, c0 = ttrans_conversion(self)
        if conversion is Conversion.TRANSPOSE_2D:
            return
        if len(shape) != SOURCE_RANK[conversion]:
            raise VerifyException(
                f"{conversion.value} needs a rank-{SOURCE_RANK[conversion]} source_shape, but got "
                f"{list(shape)}"
            )
        if src.loc.data != "vec" or dst.loc.data != "vec":
            raise VerifyException("ConvTile conversions run on vec tiles")
        if c0 <= 0 and conversion.value.endswith(("to_nc1hwc0", "to_gnc1hwc0", "fractal_z_3d")):
            raise VerifyException(f"{conversion.value} needs a positive c0 attribute")
        capacity = src.rows.data * src.cols.data
        if prod(shape) > capacity:
            raise VerifyException(
                f"source_shape {list(shape)} holds {prod(shape)} elements, more than the "
                f"{src.shape[0]}x{src.shape[1]} source tile"
            )


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
        if dst.loc.data not in ("vec", "mat"):
            raise VerifyException(
                f"writes a vec or mat tile, but the destination is in '{dst.loc.data}'"
            )
        if view.element_type != dst.element_type:
            raise VerifyException(
                f"element types differ: view {view.element_type}, tile {dst.element_name}"
            )
        _verify_view_fits(view, dst)


def _verify_view_fits(view: PartitionTensorViewType, tile: TileTypeBase) -> None:
    """The view's last dim is the tile's valid columns, the others its valid rows."""
    *outer, cols = view.dims
    rows = prod(outer)
    for what, a, b in (("rows", rows, tile.valid_rows.data), ("cols", cols, tile.valid_cols.data)):
        if DYNAMIC not in (a, b) and a != b:
            raise VerifyException(f"view {view} has {a} {what}, but the tile has {b} valid {what}")


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
        expected = TileBufType if self.is_dps else TileType
        if not isinstance(self.ins[0].type, expected):
            raise VerifyException(f"expected a {expected.name} source, but got {self.ins[0].type}")

    def _verify_operand_count(self) -> None:
        return

    def view(self) -> SSAValue:
        return self.outs[0] if self.is_dps else self.ins[1]

    def verify_semantics(self) -> None:
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
        _verify_view_fits(view, src)


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
        dynamic = tile.has_dynamic_valid_shape
        given = self.valid_row is not None and self.valid_col is not None
        if (self.valid_row is None) != (self.valid_col is None):
            raise VerifyException("valid_row and valid_col come together")
        if dynamic and not given:
            raise VerifyException(
                f"a tile with dynamic valid shape {_shape_str(tile.valid_shape)} needs valid_row "
                "and valid_col"
            )
        if given and not dynamic:
            raise VerifyException(
                "valid_row/valid_col are only for dynamic valid shapes, but the tile's is "
                f"{_shape_str(tile.valid_shape)}"
            )


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


def _parse_defined_operand(parser: Parser) -> SSAValue:
    """An operand whose type is known because it is already defined (the seed's
    `pto.tassign %t, @tile(...)` names no type)."""
    unresolved = parser.parse_unresolved_operand()
    values = parser.ssa_values.get(unresolved.operand_name)
    if values is None:
        parser.raise_error("the tassign tile must be defined before it is bound", unresolved.span)
    return values[unresolved.index]


@irdl_op_definition
class MakeTensorViewOp(IRDLOperation):
    """`%v = pto.make_tensor_view %ptr, shape = [...], strides = [...] : !pto.tensor_view<...>`."""

    name = "pto.make_tensor_view"

    ptr = operand_def(PtrType)
    shape = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    result = result_def(TensorViewType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> MakeTensorViewOp:
        ptr = parser.parse_unresolved_operand()
        lists: list[list[SSAValue]] = []
        for key in ("shape", "strides"):
            parser.parse_punctuation(",")
            parser.parse_keyword(key)
            parser.parse_punctuation("=")
            lists.append(
                parser.parse_comma_separated_list(
                    parser.Delimiter.SQUARE, lambda: parser.parse_operand(IndexType())
                )
            )
        parser.parse_punctuation(":")
        view = parser.parse_type()
        if not isinstance(view, TensorViewType):
            parser.raise_error(f"expected a !pto.tensor_view, but got {view}")
        op = cls.build(
            operands=[parser.resolve_operand(ptr, PtrType(view.element_type)), lists[0], lists[1]],
            result_types=[view],
        )
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.ptr)
        for key, values in (("shape", self.shape), ("strides", self.strides)):
            printer.print_string(f", {key} = [")
            printer.print_list(values, printer.print_operand)
            printer.print_string("]")
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        view = self.result.type
        assert isinstance(view, TensorViewType)
        if not len(self.shape) == len(self.strides) == len(view.dims):
            raise VerifyException(
                f"expected {len(view.dims)} sizes and strides for {view}, but got "
                f"{len(self.shape)} and {len(self.strides)}"
            )


@irdl_op_definition
class PartitionViewOp(IRDLOperation):
    """`%p = pto.partition_view %v, offsets = [...], sizes = [...] : TV -> PTV`."""

    name = "pto.partition_view"

    source = operand_def(TensorViewType)
    offsets = var_operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    result = result_def(PartitionTensorViewType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> PartitionViewOp:
        source = parser.parse_unresolved_operand()
        lists: list[list[SSAValue]] = []
        for key in ("offsets", "sizes"):
            parser.parse_punctuation(",")
            parser.parse_keyword(key)
            parser.parse_punctuation("=")
            lists.append(
                parser.parse_comma_separated_list(
                    parser.Delimiter.SQUARE, lambda: parser.parse_operand(IndexType())
                )
            )
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        return cls.build(
            operands=[parser.resolve_operand(source, source_type), lists[0], lists[1]],
            result_types=[result_type],
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        for key, values in (("offsets", self.offsets), ("sizes", self.sizes)):
            printer.print_string(f", {key} = [")
            printer.print_list(values, printer.print_operand)
            printer.print_string("]")
        printer.print_string(" : ")
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


@irdl_op_definition
class BarrierOp(IRDLOperation):
    """`pto.barrier #pto.pipe<PIPE_V>`: wait until the pipe drains."""

    name = "pto.barrier"

    pipe = prop_def(PipeAttr)

    def __init__(self, pipe: str) -> None:
        super().__init__(properties={"pipe": PipeAttr(StringAttr(pipe))})

    @classmethod
    def parse(cls, parser: Parser) -> BarrierOp:
        pipe = parser.parse_attribute()
        if not isinstance(pipe, PipeAttr):
            parser.raise_error(f"expected a #pto.pipe<...>, but got {pipe}")
        return cls(pipe.value.data)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.pipe)


class FlagOpBase(IRDLOperation):
    """`pto.OP[<PIPE_SRC>, <PIPE_DST>, <EVENT_IDn>]`."""

    src_pipe = prop_def(PipeAttr)
    dst_pipe = prop_def(PipeAttr)
    event = prop_def(EventAttr)

    def __init__(self, src_pipe: str, dst_pipe: str, event: str) -> None:
        super().__init__(
            properties={
                "src_pipe": PipeAttr(StringAttr(src_pipe)),
                "dst_pipe": PipeAttr(StringAttr(dst_pipe)),
                "event": EventAttr(StringAttr(event)),
            }
        )

    @classmethod
    def parse(cls, parser: Parser) -> FlagOpBase:
        def keyword_in(allowed: tuple[str, ...]) -> str:
            with parser.in_angle_brackets():
                return parser.parse_keyword_in(allowed)

        with parser.in_square_brackets():
            src = keyword_in(PIPES)
            parser.parse_punctuation(",")
            dst = keyword_in(PIPES)
            parser.parse_punctuation(",")
            event = keyword_in(EVENTS)
        return cls(src, dst, event)

    def print(self, printer: Printer) -> None:
        printer.print_string(
            f"[<{self.src_pipe.value.data}>, <{self.dst_pipe.value.data}>, "
            f"<{self.event.value.data}>]"
        )


@irdl_op_definition
class SetFlagOp(FlagOpBase):
    """Signal `event` from the source pipe to the destination pipe."""

    name = "pto.set_flag"


@irdl_op_definition
class WaitFlagOp(FlagOpBase):
    """Wait in the destination pipe for `event` from the source pipe."""

    name = "pto.wait_flag"


TILE_COMPUTE_OPS: tuple[type[TileOpBase], ...] = (
    TAddOp,
    TSubOp,
    TMulOp,
    TDivOp,
    TMaxOp,
    TMinOp,
    TExpOp,
    TLogOp,
    TSqrtOp,
    TRsqrtOp,
    TAbsOp,
    TReluOp,
    TAddsOp,
    TMulsOp,
    TCvtOp,
    TRowSumOp,
    TRowMaxOp,
    TColSumOp,
    TColMaxOp,
    TRowExpandOp,
    TMatmulOp,
    TMovOp,
    TTransOp,
    TLoadOp,
    TStoreOp,
)

PTO = Dialect(
    "pto",
    [
        *TILE_COMPUTE_OPS,
        AllocTileOp,
        TAssignOp,
        MakeTensorViewOp,
        PartitionViewOp,
        BarrierOp,
        SetFlagOp,
        WaitFlagOp,
    ],
    [
        TileType,
        TileBufType,
        PtrType,
        TensorViewType,
        PartitionTensorViewType,
        PipeAttr,
        EventAttr,
    ],
)
