"""The `pto` dialect's types and attributes: tiles, tile buffers, pointers, tensor
views, pipes and events."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntAttr,
    IntegerType,
    Signedness,
    StringAttr,
)
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from xla_emit.pto.rules import TileDesc
from xla_emit.pto.targets import (
    DEFAULT_TARGET,
    LOCATIONS,
    Target,
    element_bytes,
    is_element_type,
    parse_target,
)

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
    "PIPE_MTE4",
    "PIPE_MTE5",
    "PIPE_V2",
    "VIRTUAL_PIPE_MTE2_L1A",
    "VIRTUAL_PIPE_MTE2_L1B",
    "PIPE_NUM",
    "PIPE_UNASSIGNED",
)
EVENTS = tuple(f"EVENT_ID{i}" for i in range(8))

# The key form's keys, in the order PTOAS prints them (`compact` may be left out).
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
    `pto.target_arch` attribute, else A2A3 (PTOAS's default). A module whose device
    spec is an A5 chip is A5 whatever the option says, as in PTOAS."""
    if is_a5_device(module):
        return "a5"
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


DEVICE_SPEC_ATTR = "pto.device-spec"


def is_a5_device(module: Operation) -> bool:
    """A module whose `pto.device-spec` names an A5 chip (PTOAS: Ascend950, Ascend910_95)."""
    spec = module.attributes.get(DEVICE_SPEC_ATTR)
    return isinstance(spec, StringAttr) and spec.data.startswith(("Ascend950", "Ascend910_95"))


def op_target(op: Operation) -> Target:
    """The target an op verifies for: the nearest enclosing A5 device spec or
    `pto.target_arch`, else A2A3 (an unreadable attribute is left to the module's
    verifier)."""
    parent = op.parent_op()
    while parent is not None:
        if is_a5_device(parent):
            return "a5"
        if TARGET_ATTR in parent.attributes:
            try:
                return module_target(parent)
            except VerifyException:
                return DEFAULT_TARGET
        parent = parent.parent_op()
    return DEFAULT_TARGET


def enclosing_function(op: Operation) -> Operation | None:
    """The nearest `func.func` around `op`, if it stands in one."""
    parent = op.parent_op()
    while parent is not None and parent.name != "func.func":
        parent = parent.parent_op()
    return parent


def format_dim(dim: int) -> str:
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
            raise VerifyException(f"tile_buf rows/cols must be positive, but got {rows}x{cols}")
        for name, valid, static in (
            ("row", self.valid_rows.data, rows),
            ("col", self.valid_cols.data, cols),
        ):
            # PTOAS main allows an empty valid region (a no-op tile, PTOAS issue 708).
            if valid != DYNAMIC and valid < 0:
                raise VerifyException(f"tile_buf valid_{name} must be >= 0 (or '?'), got {valid}")
            if valid != DYNAMIC and valid > static:
                raise VerifyException(f"tile_buf valid_{name} ({valid}) exceeds {name} ({static})")
        if self.fractal.data not in (32, 512, 1024):
            raise VerifyException(
                f"unsupported s_fractal_size: {self.fractal.data}, must be one of {{32, 512, 1024}}"
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
                if cls._prints_location is TileTypeBase._prints_location:
                    # PTOAS's tile_buf parser reads a location keyword first: a shape
                    # there is the pre-`loc` syntax it no longer has.
                    parser.raise_error(
                        f"{cls.name} needs a location before its shape ('vec, 16x16xf32' "
                        "or 'loc=vec, ...'): a tile buffer has no default location"
                    )
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
            printer.print_string(f", valid={format_dim(vr)}x{format_dim(vc)}")
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
    slayout=..., fractal=512, pad=0[, compact=0]`: every key once, `compact`
    optional. PTOAS writes them in this order but reads them in any.
    """
    parser.parse_punctuation("=")
    values: dict[str, Attribute] = {"loc": _parse_key_value(parser, "loc")}
    keys = (*_KEY_FORM_KEYS, "compact")
    while parser.parse_optional_punctuation(",") is not None:
        unseen = [k for k in keys if k not in values]
        key = parser.parse_keyword_in(unseen, " (a tile_buf key not given yet)")
        parser.parse_punctuation("=")
        values[key] = _parse_key_value(parser, key)
    missing = [k for k in _KEY_FORM_KEYS if k not in values]
    if missing:
        parser.raise_error(f"tile_buf needs the keys {', '.join(missing)}")
    return [values.get(key, IntAttr(0)) for key in keys]


def _parse_key_value(parser: AttrParser, key: str) -> Attribute:
    match key:
        case "loc":
            return StringAttr(_parse_keyword_value(parser, LOCATIONS, key))
        case "dtype":
            return parser.parse_type()
        case "v_row" | "v_col":
            return IntAttr(_parse_valid_dim(parser))
        case "blayout":
            return StringAttr(_parse_keyword_value(parser, BLAYOUTS, key))
        case "slayout":
            return StringAttr(_parse_keyword_value(parser, SLAYOUTS, key))
        case _:
            return IntAttr(parser.parse_integer(allow_boolean=False))


def parse_tile_buf_body(parser: AttrParser, trailing_key: str) -> list[Attribute]:
    """A tile_buf's compact form without its brackets (`vec, 16x16xf16, ...`), up to
    `, TRAILING_KEY` (left for the caller to read its `= value`): the slot of a
    `!pto.multi_tile_buf<vec, 16x16xf16, count=2>`."""
    loc = parser.parse_identifier(" (a tile location)")
    parser.parse_punctuation(",")
    return _parse_compact_form(parser, loc, trailing_key)


def _parse_compact_form(
    parser: AttrParser, loc: str, trailing_key: str | None = None
) -> list[Attribute]:
    """`RxCxT`, then optional `, key=value` pairs.

    The keys are valid, blayout, slayout, fractal, pad and compact; a trailing key
    ends the list (the type holding the tile reads its value).
    """
    if loc not in LOCATIONS:
        parser.raise_error(f"unknown tile location '{loc}', expected one of {', '.join(LOCATIONS)}")
    dims, element = parser.parse_ranked_shape()
    if len(dims) != 2 or any(d < 0 for d in dims):
        parser.raise_error(
            "a tile has a static 2-D shape, but got "
            f"{'x'.join(format_dim(max(d, DYNAMIC)) for d in dims)}"
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
        if trailing_key is not None and parser.parse_optional_keyword(trailing_key) is not None:
            break
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


# `!pto.ptr`'s address spaces: each spelling PTOAS reads, and the one it prints.
PTR_SPACES = {
    "gm": "gm",
    "mat": "l1",
    "l1": "l1",
    "left": "l0a",
    "l0a": "l0a",
    "right": "l0b",
    "l0b": "l0b",
    "acc": "l0c",
    "l0c": "l0c",
    "vec": "ub",
    "ub": "ub",
    "bias": "bt",
    "bt": "bt",
    "scaling": "fb",
    "fb": "fb",
}


@irdl_attr_definition
class PtrType(ParametrizedAttribute, TypeAttribute):
    """A pointer `!pto.ptr<f32, gm>` into one memory: global memory when the space is
    left out (`!pto.ptr<f32>`), or a local one (`ub`, `l1`, ...)."""

    name = "pto.ptr"

    element_type: Attribute
    space: StringAttr

    def __init__(self, element_type: Attribute, space: str = "gm") -> None:
        super().__init__(element_type, StringAttr(PTR_SPACES.get(space, space)))

    @property
    def is_global(self) -> bool:
        return self.space.data == "gm"

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            element = parser.parse_type()
            space = "gm"
            if parser.parse_optional_punctuation(",") is not None:
                space = parser.parse_keyword_in(tuple(PTR_SPACES), " (a !pto.ptr address space)")
        return [element, StringAttr(PTR_SPACES[space])]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.element_type)
        printer.print_string(f", {self.space.data}>")


def parse_spaced_ranked_shape(parser: AttrParser) -> tuple[list[int], Attribute]:
    """`8x128xf32`, or as MLIR also reads it, `8 x 128 x f32` (xDSL's dimension list
    cannot put back an `x` that a space separates from the element type)."""
    dims: list[int] = []
    while True:
        if parser.parse_optional_punctuation("?") is not None:
            dims.append(DYNAMIC)
        elif parser._current_token.kind == MLIRTokenKind.INTEGER_LIT:
            # xDSL's dimension reader splits `0x4096` into 0 and `x4096`, as MLIR does
            # (an integer reader would take it for hexadecimal).
            dims.append(parser.parse_shape_dimension())
        else:
            break
        parser.parse_shape_delimiter()
    return dims, parser.parse_type()


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
            dims, element = parse_spaced_ranked_shape(parser)
        return [ArrayAttr(IntAttr(DYNAMIC if d < 0 else d) for d in dims), element]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        for dim in self.dims:
            printer.print_string(f"{format_dim(dim)}x")
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

    @classmethod
    def parse_short(cls, parser: AttrParser) -> Self:
        """The value written `<PIPE_V>` or `#pto.pipe<PIPE_V>` (MLIR drops the prefix
        where the op's syntax names the attribute)."""
        if parser.parse_optional_punctuation("<") is not None:
            value = parser.parse_keyword_in(cls.ALLOWED)
            parser.parse_punctuation(">")
            return cls.new([StringAttr(value)])
        position = parser.pos
        # PTOAS's register-level syntax names them as strings: `["PIPE_MTE2", ...]`.
        literal = parser.parse_optional_str_literal()
        if literal is not None:
            if literal not in cls.ALLOWED:
                parser.raise_error(
                    f"'{literal}' is not a {cls.name} (expected one of {', '.join(cls.ALLOWED)})",
                    position,
                )
            return cls.new([StringAttr(literal)])
        attr = parser.parse_attribute()
        if not isinstance(attr, cls):
            parser.raise_error(f"expected a #{cls.name}<...>, but got #{attr}", position)
        return attr

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
