"""PTOAS's register-level types (VPTO and VMI) and its low-precision element types.

    !pto.vreg<64xf32>                      one 256-byte vector register
    !pto.mask<b32>                         a predicate register viewed per 32 bits
    !pto.align                             the carrier of an unaligned vector access
    !pto.vmi.vreg<128xf32, #pto.vmi.layout<deinterleaved = 2>>
                                           a logical vector of any length, and how its
                                           lanes sit in registers
    !pto.vmi.mask<128xpred>                a logical predicate
    !pto.hif8, !pto.f8E8M0, !pto.hif8x2, !pto.f4E1M2x2, !pto.f4E2M1x2, !pto.bf16x2
                                           A5's element types MLIR has no builtin for

The verifiers are PTOAS's (`VPTOTypeDefs.td`, `VMITypeDefs.td`, `VMIAttrs.td`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntAttr,
    IntegerType,
    NoneAttr,
    StringAttr,
)
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

# The bits of each element type that is not an MLIR builtin (one value, or a pair).
LOW_PRECISION_BITS = {
    "pto.hif8": 8,
    "pto.f8E8M0": 8,
    "pto.hif8x2": 16,
    "pto.f4E1M2x2": 8,
    "pto.f4E2M1x2": 8,
    "pto.bf16x2": 32,
}
VREG_BITS = 2048
MASK_GRANULARITIES = ("b8", "b16", "b32")
VMI_MASK_GRANULARITIES = ("pred", *MASK_GRANULARITIES)


class LowPrecisionType(ParametrizedAttribute, TypeAttribute):
    """An element type without parameters, named by PTOAS (`!pto.hif8`)."""

    @property
    def bits(self) -> int:
        return LOW_PRECISION_BITS[self.name]


def _low_precision(class_name: str, name: str, doc: str) -> type[LowPrecisionType]:
    namespace = {"name": name, "__doc__": doc}
    attr = type(class_name, (LowPrecisionType,), namespace)
    attr.__module__ = __name__
    return irdl_attr_definition(attr)


HiF8Type = _low_precision("HiF8Type", "pto.hif8", "A5's HiFloat8 (1 byte).")
F8E8M0Type = _low_precision("F8E8M0Type", "pto.f8E8M0", "An MX scale: 8 exponent bits.")
HiF8x2Type = _low_precision("HiF8x2Type", "pto.hif8x2", "A pair of HiFloat8 values (2 bytes).")
F4E1M2x2Type = _low_precision("F4E1M2x2Type", "pto.f4E1M2x2", "Two packed FP4 E1M2 values.")
F4E2M1x2Type = _low_precision("F4E2M1x2Type", "pto.f4E2M1x2", "Two packed FP4 E2M1 values.")
BF16x2Type = _low_precision("BF16x2Type", "pto.bf16x2", "A pair of bfloat16 values (4 bytes).")
LOW_PRECISION_TYPES = (HiF8Type, F8E8M0Type, HiF8x2Type, F4E1M2x2Type, F4E2M1x2Type, BF16x2Type)


def element_bits(element: Attribute) -> int | None:
    """The storage bits of a register's element type; None for a type that is none."""
    match element:
        case IntegerType():
            return element.width.data
        case LowPrecisionType():
            return element.bits
        case _ if isinstance(element, AnyFloat):
            return element.bitwidth
        case _:
            return None


def _parse_count_x(parser: AttrParser) -> int:
    """`64x`: a register's static element count and the `x` after it."""
    dims = parser.parse_dimension_list()
    if len(dims) != 1 or dims[0] < 0:
        parser.raise_error("expected one static element count, as in '64xf32'")
    parser.parse_shape_delimiter()
    return dims[0]


@irdl_attr_definition
class VRegType(ParametrizedAttribute, TypeAttribute):
    """`!pto.vreg<64xf32>`: one 256-byte vector register of `count` elements."""

    name = "pto.vreg"

    count: IntAttr
    element_type: Attribute

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            count = _parse_count_x(parser)
            return [IntAttr(count), parser.parse_type()]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.count.data}x")
        printer.print_attribute(self.element_type)
        printer.print_string(">")

    def verify(self) -> None:
        spelled = f"'!pto.vreg<{self.count.data}x{self.element_type}>'"
        if self.count.data <= 0:
            raise VerifyException(f"{spelled} expected a positive element count")
        bits = element_bits(self.element_type)
        if bits is None:
            raise VerifyException(
                f"{spelled} expected an integer, floating-point, or PTO low-precision element type"
            )
        if self.count.data * bits != VREG_BITS:
            raise VerifyException(f"{spelled} expected exactly 256 bytes")


@irdl_attr_definition
class MaskType(ParametrizedAttribute, TypeAttribute):
    """`!pto.mask<b32>`: a predicate register, one bit per 8, 16 or 32-bit lane."""

    name = "pto.mask"

    granularity: StringAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return [StringAttr(parser.parse_identifier(" (a mask granularity)"))]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.granularity.data}>")

    def verify(self) -> None:
        if self.granularity.data not in MASK_GRANULARITIES:
            raise VerifyException(
                f"'!pto.mask<{self.granularity.data}>' expected granularity to be one of "
                "b8, b16, b32"
            )


@irdl_attr_definition
class AlignType(ParametrizedAttribute, TypeAttribute):
    """`!pto.align`: the state an unaligned vector load or store carries along."""

    name = "pto.align"


# -- VMI ------------------------------------------------------------------------

VMI_LAYOUT_KINDS = ("contiguous", "deinterleaved", "block_deinterleaved", "num_groups")


@irdl_attr_definition
class VMILayoutAttr(ParametrizedAttribute):
    """`#pto.vmi.layout<...>`: how a logical vector's lanes sit in its registers.

    `contiguous[, lane_stride = s]`, `deinterleaved = 2|4[, lane_stride = s]`,
    `block_deinterleaved = 2|4`, `num_groups = g[, slots = n][, lane_stride = s]`.
    """

    name = "pto.vmi.layout"

    kind: StringAttr
    factor: IntAttr
    block_elems: IntAttr
    slots: IntAttr
    lane_stride: IntAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        factor, block_elems, slots, lane_stride = 1, 1, 0, 1
        with parser.in_angle_brackets():
            kind = parser.parse_keyword_in(VMI_LAYOUT_KINDS, " (a VMI layout kind)")
            if kind != "contiguous":
                parser.parse_punctuation("=")
                factor = parser.parse_integer(allow_boolean=False)
            fields = {
                "contiguous": ("lane_stride",),
                "deinterleaved": ("lane_stride", "block_elems"),
                "block_deinterleaved": ("block_elems",),
                "num_groups": ("slots", "lane_stride"),
            }[kind]
            while parser.parse_optional_punctuation(",") is not None:
                field = parser.parse_keyword_in(fields, f" (a field of a {kind} layout)")
                parser.parse_punctuation("=")
                value = parser.parse_integer(allow_boolean=False)
                if field == "lane_stride":
                    lane_stride = value
                elif field == "slots":
                    slots = value
                else:
                    block_elems = value
        return [StringAttr(kind), *(IntAttr(v) for v in (factor, block_elems, slots, lane_stride))]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.text()}>")

    def text(self) -> str:
        kind = self.kind.data
        words = [kind if kind == "contiguous" else f"{kind} = {self.factor.data}"]
        if self.block_elems.data != 1:
            words.append(f"block_elems = {self.block_elems.data}")
        if kind == "num_groups" and self.slots.data != 0:
            words.append(f"slots = {self.slots.data}")
        if self.lane_stride.data != 1:
            words.append(f"lane_stride = {self.lane_stride.data}")
        return ", ".join(words)

    def verify(self) -> None:
        kind, factor = self.kind.data, self.factor.data
        block, slots, stride = self.block_elems.data, self.slots.data, self.lane_stride.data
        spelled = f"#pto.vmi.layout<{self.text()}>"
        if stride <= 0:
            raise VerifyException(f"{spelled} requires lane_stride to be positive")
        if kind in ("deinterleaved", "block_deinterleaved") and factor not in (2, 4):
            raise VerifyException(f"{spelled} expected factor to be 2 or 4")
        if kind == "deinterleaved" and block != 1:
            raise VerifyException(f"{spelled} requires block_elems to be omitted")
        if kind == "block_deinterleaved" and (block != 1 or stride != 1):
            raise VerifyException(f"{spelled} does not accept block_elems, slots, or lane_stride")
        if kind == "num_groups" and factor <= 0:
            raise VerifyException(f"{spelled} requires num_groups to be positive")
        if kind == "num_groups" and slots < 0:
            raise VerifyException(f"{spelled} requires slots to be omitted or positive")

    @property
    def is_group_slots(self) -> bool:
        return self.kind.data == "num_groups"


def _parse_optional_layout(parser: AttrParser) -> Attribute:
    if parser.parse_optional_punctuation(",") is None:
        return NoneAttr()
    return parser.parse_attribute()


def _print_optional_layout(printer: Printer, layout: Attribute) -> None:
    if not isinstance(layout, NoneAttr):
        printer.print_string(", ")
        printer.print_attribute(layout)


def _vmi_element_ok(element: Attribute) -> bool:
    return isinstance(element, IndexType) or element_bits(element) is not None


@irdl_attr_definition
class VMIVRegType(ParametrizedAttribute, TypeAttribute):
    """`!pto.vmi.vreg<128xf32[, #pto.vmi.layout<...>]>`: a logical vector."""

    name = "pto.vmi.vreg"

    count: IntAttr
    element_type: Attribute
    layout: Attribute

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            count = _parse_count_x(parser)
            element = parser.parse_type()
            return [IntAttr(count), element, _parse_optional_layout(parser)]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.count.data}x")
        printer.print_attribute(self.element_type)
        _print_optional_layout(printer, self.layout)
        printer.print_string(">")

    def verify(self) -> None:
        spelled = f"'!pto.vmi.vreg<{self.count.data}x{self.element_type}>'"
        if self.count.data <= 0:
            raise VerifyException(f"{spelled} expected a positive element count")
        if not _vmi_element_ok(self.element_type):
            raise VerifyException(
                f"{spelled} expected an integer, index, floating-point, or PTO low-precision "
                "element type"
            )
        bits = element_bits(self.element_type)
        if bits is not None and bits not in (8, 16, 32):
            raise VerifyException(
                f"{spelled} expected an 8-bit, 16-bit, or 32-bit logical element type"
            )
        _verify_layout(spelled, self.layout)
        layout = self.layout
        if isinstance(layout, VMILayoutAttr) and layout.is_group_slots:
            _verify_one_lane_per_group(spelled, self.count.data, layout)


def _verify_one_lane_per_group(spelled: str, count: int, layout: VMILayoutAttr) -> None:
    if count != layout.factor.data:
        raise VerifyException(
            f"{spelled} expected num_groups layout to describe exactly one logical result "
            "lane per group"
        )


def _verify_layout(spelled: str, layout: Attribute) -> None:
    if not isinstance(layout, NoneAttr | VMILayoutAttr):
        raise VerifyException(f"{spelled} expected layout to be #pto.vmi.layout")


@irdl_attr_definition
class VMIMaskType(ParametrizedAttribute, TypeAttribute):
    """`!pto.vmi.mask<128xpred>` or `<128xb32, #pto.vmi.layout<...>>`: a logical
    predicate, abstract (`pred`) or tied to a lane width."""

    name = "pto.vmi.mask"

    count: IntAttr
    granularity: StringAttr
    layout: Attribute

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            count = _parse_count_x(parser)
            granularity = parser.parse_identifier(" (a mask granularity)")
            return [IntAttr(count), StringAttr(granularity), _parse_optional_layout(parser)]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.count.data}x{self.granularity.data}")
        _print_optional_layout(printer, self.layout)
        printer.print_string(">")

    def verify(self) -> None:
        spelled = f"'!pto.vmi.mask<{self.count.data}x{self.granularity.data}>'"
        if self.count.data <= 0:
            raise VerifyException(f"{spelled} expected a positive element count")
        if self.granularity.data not in VMI_MASK_GRANULARITIES:
            raise VerifyException(f"{spelled} expected granularity to be one of pred, b8, b16, b32")
        _verify_layout(spelled, self.layout)
        if self.granularity.data == "pred" and not isinstance(self.layout, NoneAttr):
            raise VerifyException(f"{spelled} pred mask must not carry layout")


VPTO_TYPES: tuple[type[Attribute], ...] = (
    *LOW_PRECISION_TYPES,
    VRegType,
    MaskType,
    AlignType,
    VMILayoutAttr,
    VMIVRegType,
    VMIMaskType,
)
__all__ = [
    "LOW_PRECISION_BITS",
    "VPTO_TYPES",
    "AlignType",
    "MaskType",
    "VMILayoutAttr",
    "VMIMaskType",
    "VMIVRegType",
    "VRegType",
    "element_bits",
]
