"""PTOAS's enum attributes and its opaque handle types.

Each enum attribute has a fixed list of keywords (PTOAS `PTOAttrs.td`). MLIR
prints PTOAS's attributes in two spellings and both parse here:

    #pto.address_space<gm>        (the attribute's own mnemonic)
    #pto<round_mode ROUND>        (the dialect's opaque form, PTOAS's `EnumAttr`s)

Both print as the first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import ArrayAttr, IntAttr, StringAttr
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

ADDRESS_SPACES = ("zero", "gm", "mat", "left", "right", "acc", "vec", "bias", "scaling")
SYNC_OP_TYPES = (
    "TLOAD",
    "TSTORE_ACC",
    "TSTORE_VEC",
    "TMOV_M2L",
    "TMOV_M2S",
    "TMOV_M2B",
    "TMOV_M2V",
    "TMOV_V2M",
    "TMATMUL",
    "TVEC",
    "TVECWAIT_EVENT",
)
ROUND_MODES = ("NONE", "RINT", "ROUND", "FLOOR", "CEIL", "TRUNC", "ODD", "CAST_RINT")
CMP_MODES = ("eq", "ne", "lt", "le", "gt", "ge")


# A dataclass so that subclasses compare and hash by these parameters.
@dataclass(frozen=True, init=False)
class PTOEnumAttrBase(ParametrizedAttribute):
    """`#pto.NAME<VALUE>` (or `#pto<NAME VALUE>`) with VALUE from `ALLOWED`."""

    value: StringAttr
    ALLOWED: ClassVar[tuple[str, ...]] = ()

    def __init__(self, value: str) -> None:
        super().__init__(StringAttr(value))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        # The opaque form `#pto<NAME VALUE>` arrives here after NAME, without `<`.
        if parser.parse_optional_punctuation("<") is None:
            return [StringAttr(cls._parse_value(parser))]
        value = cls._parse_value(parser)
        parser.parse_punctuation(">")
        return [StringAttr(value)]

    @classmethod
    def _parse_value(cls, parser: AttrParser) -> str:
        position = parser.pos
        value = parser.parse_identifier()
        if value not in cls.ALLOWED:
            parser.raise_error(
                f"'{value}' is not a {cls.name} (expected one of {', '.join(cls.ALLOWED)})",
                position,
                parser.pos,
            )
        return value

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.value.data}>")

    @property
    def data(self) -> str:
        return self.value.data


def _enum(attr_name: str, allowed: Sequence[str], doc: str) -> type[PTOEnumAttrBase]:
    """An enum attribute class `#pto.<attr_name><...>`, one of `allowed`."""
    class_name = "".join(part.title() for part in attr_name.split("_")) + "Attr"
    namespace = {"name": f"pto.{attr_name}", "ALLOWED": tuple(allowed), "__doc__": doc}
    attr = type(class_name, (PTOEnumAttrBase,), namespace)
    attr.__module__ = __name__
    return irdl_attr_definition(attr)


# PTOAS's further enum attributes are made from its .td's table (`declared_ops`).
enum_attr = _enum


# A dataclass so that subclasses compare and hash by these parameters.
@dataclass(frozen=True, init=False)
class PTOKeywordEnumAttrBase(ParametrizedAttribute):
    """`#pto.NAME<key = VALUE, ...>`: one enum value per key of `KEYS`, in that order."""

    values: ArrayAttr[StringAttr]
    KEYS: ClassVar[tuple[tuple[str, tuple[str, ...]], ...]] = ()

    def __init__(self, values: Sequence[str]) -> None:
        super().__init__(ArrayAttr([StringAttr(value) for value in values]))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        values = []
        for index, (key, allowed) in enumerate(cls.KEYS):
            if index:
                parser.parse_punctuation(",")
            parser.parse_keyword(key)
            parser.parse_punctuation("=")
            position = parser.pos
            value = parser.parse_identifier()
            if value not in allowed:
                parser.raise_error(
                    f"'{value}' is not a {cls.name} {key} (expected one of {', '.join(allowed)})",
                    position,
                    parser.pos,
                )
            values.append(StringAttr(value))
        parser.parse_punctuation(">")
        return [ArrayAttr(values)]

    def print_parameters(self, printer: Printer) -> None:
        pairs = (
            f"{key} = {value.data}" for (key, _), value in zip(self.KEYS, self.values, strict=True)
        )
        printer.print_string(f"<{', '.join(pairs)}>")

    def value(self, key: str) -> str:
        """The value of one key."""
        names = [name for name, _ in self.KEYS]
        return self.values.data[names.index(key)].data


def keyword_enum_attr(
    attr_name: str, keys: Sequence[tuple[str, Sequence[str]]], doc: str
) -> type[PTOKeywordEnumAttrBase]:
    """An attribute class `#pto.<attr_name><key = value, ...>` with `keys` in order."""
    class_name = "".join(part.title() for part in attr_name.split("_")) + "Attr"
    namespace = {
        "name": f"pto.{attr_name}",
        "KEYS": tuple((key, tuple(allowed)) for key, allowed in keys),
        "__doc__": doc,
    }
    attr = type(class_name, (PTOKeywordEnumAttrBase,), namespace)
    attr.__module__ = __name__
    return irdl_attr_definition(attr)


AddressSpaceAttr = _enum("address_space", ADDRESS_SPACES, "A memory: `#pto.address_space<gm>`.")
KernelKindAttr = _enum("kernel_kind", ("cube", "vector"), "A kernel's core: cube or vector.")
FuncCoreTypeAttr = _enum(
    "func_core_type", ("AIC", "AIV", "MIX", "AIC_OR_AIV"), "The cores a function runs on."
)
ModuleCoreTypeAttr = _enum("module_core_type", ("AIC", "AIV", "MIX"), "The cores of a module.")
PipeEventTypeAttr = _enum("pipe_event_type", SYNC_OP_TYPES, "The op class a high-level sync names.")
SyncOpTypeAttr = _enum("sync_op_type", SYNC_OP_TYPES, "The op class a high-level sync names.")
LayoutAttr = _enum("layout", ("nd", "dn", "nz"), "A global tensor's layout.")
PadModeAttr = _enum(
    "padmode", ("PadNull", "PadFirstElem", "PadValue"), "How tload pads a partial tile."
)
CmpModeAttr = _enum("cmp", CMP_MODES, "A comparison: `#pto<cmp lt>`.")
RoundModeAttr = _enum("round_mode", ROUND_MODES, "A rounding mode: `#pto<round_mode ROUND>`.")
SaturationModeAttr = _enum("saturation_mode", ("ON", "OFF"), "Whether a conversion saturates.")
StPhaseAttr = _enum(
    "st_phase", ("unspecified", "partial", "final"), "Which part of a split store this is."
)
AtomicTypeAttr = _enum("atomic_type", ("atomic_none", "atomic_add"), "A store's atomic mode.")
ReluPreModeAttr = _enum(
    "relu_pre_mode", ("no_relu", "normal_relu"), "Whether a store applies relu first."
)
GatherOobAttr = _enum(
    "gather_oob", ("undefined", "clamp", "wrap", "zero"), "mgather's out-of-bounds rule."
)
ScatterAtomicOpAttr = _enum(
    "scatter_atomic_op", ("none", "add", "max", "min"), "How mscatter combines."
)
ScatterOobAttr = _enum(
    "scatter_oob", ("undefined", "skip", "clamp", "wrap"), "mscatter's out-of-bounds rule."
)
AccToVecModeAttr = _enum(
    "acc_to_vec_mode",
    ("single_mode_vec0", "single_mode_vec1", "dual_mode_split_m", "dual_mode_split_n"),
    "Which vector cores a tmov from acc feeds.",
)
MaskPatternAttr = _enum(
    "mask_pattern",
    ("P0101", "P1010", "P0001", "P0010", "P0100", "P1000", "P1111"),
    "A fixed select mask.",
)
BLayoutAttr = _enum("blayout", ("row_major", "col_major"), "A tile's box layout.")
SLayoutAttr = _enum("slayout", ("none_box", "row_major", "col_major"), "A tile's in-box layout.")
PadValueAttr = _enum("pad_value", ("null", "zero", "max", "min"), "A tile's pad value.")
CompactModeAttr = _enum("compact_mode", ("null", "normal", "row_plus_one"), "A compact mode.")
QuantTypeAttr = _enum(
    "quant_type", ("INT8_SYM", "INT8_ASYM", "MXFP8", "MXFP4_E2M1"), "A quantization type."
)
MemPlanModeAttr = _enum(
    "mem_plan_mode", ("LOCAL_MEM_PLAN", "GLOBAL_WORKSPACE_PLAN"), "What PlanMemory plans."
)


@irdl_attr_definition
class TileBufConfigAttr(ParametrizedAttribute):
    """`#pto.tile_buf_config<blayout=..., slayout=..., s_fractal_size=512, pad=...>`:
    a tile's layout bundle as `key=attribute` pairs (PTOAS writes either enum
    attributes or `i32` integers as the values)."""

    name = "pto.tile_buf_config"

    keys: ArrayAttr[StringAttr]
    values: ArrayAttr[Attribute]

    KEYS: ClassVar[tuple[str, ...]] = ("blayout", "slayout", "s_fractal_size", "pad", "compact")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        def parse_pair() -> tuple[str, Attribute]:
            key = parser.parse_identifier()
            if key not in cls.KEYS:
                parser.raise_error(f"unknown tile_buf_config key '{key}'")
            parser.parse_punctuation("=")
            return key, parser.parse_attribute()

        pairs = parser.parse_comma_separated_list(parser.Delimiter.ANGLE, parse_pair)
        return [ArrayAttr(StringAttr(k) for k, _ in pairs), ArrayAttr(v for _, v in pairs)]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        for index, (key, value) in enumerate(zip(self.keys, self.values, strict=True)):
            printer.print_string(f"{', ' if index else ''}{key.data}=")
            printer.print_attribute(value)
        printer.print_string(">")


@irdl_attr_definition
class EventIdArrayType(ParametrizedAttribute, TypeAttribute):
    """`!pto.eventid_array<4>`: a local array of event ids, indexed at run time."""

    name = "pto.eventid_array"

    size: IntAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return [IntAttr(parser.parse_integer(allow_boolean=False, allow_negative=False))]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.size.data}>")

    def verify(self) -> None:
        if self.size.data <= 0:
            raise VerifyException(f"an event id array holds at least 1 id, not {self.size.data}")


@irdl_attr_definition
class PipeHandleType(ParametrizedAttribute, TypeAttribute):
    """`!pto.pipe`: the handle tpush/tpop exchange tiles through between cube and vector."""

    name = "pto.pipe"


@irdl_attr_definition
class AsyncSessionType(ParametrizedAttribute, TypeAttribute):
    """`!pto.async_session`: an asynchronous DMA session."""

    name = "pto.async_session"


@irdl_attr_definition
class AsyncEventType(ParametrizedAttribute, TypeAttribute):
    """`!pto.async_event`: the completion event of an asynchronous transfer."""

    name = "pto.async_event"


ENUM_ATTRS: tuple[type[PTOEnumAttrBase], ...] = (
    AddressSpaceAttr,
    KernelKindAttr,
    FuncCoreTypeAttr,
    ModuleCoreTypeAttr,
    PipeEventTypeAttr,
    SyncOpTypeAttr,
    LayoutAttr,
    PadModeAttr,
    CmpModeAttr,
    RoundModeAttr,
    SaturationModeAttr,
    StPhaseAttr,
    AtomicTypeAttr,
    ReluPreModeAttr,
    GatherOobAttr,
    ScatterAtomicOpAttr,
    ScatterOobAttr,
    AccToVecModeAttr,
    MaskPatternAttr,
    BLayoutAttr,
    SLayoutAttr,
    PadValueAttr,
    CompactModeAttr,
    QuantTypeAttr,
    MemPlanModeAttr,
)
ATTRIBUTES: tuple[type[Attribute], ...] = (
    *ENUM_ATTRS,
    TileBufConfigAttr,
    EventIdArrayType,
    PipeHandleType,
    AsyncSessionType,
    AsyncEventType,
)
