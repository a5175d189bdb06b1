"""The `tpu` dialect's attributes and types: memory spaces, tiled layouts, dot and
convolution dimension numbers and semaphores."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import AnyFloat, ArrayAttr, IntAttr, MemRefLayoutAttr, StringAttr
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

from xla_emit.layout.mosaic import MosaicTiledLayout, MosaicTilingError

MEMORY_SPACES = ("any", "vmem", "smem", "hbm", "cmem", "semaphore_mem", "vmem_shared", "host")
CORE_TYPES = ("tc", "sc_scalar_subcore", "sc_vector_subcore")


@irdl_attr_definition
class MemorySpaceAttr(ParametrizedAttribute):
    """`#tpu.memory_space<vmem>` or `#tpu.memory_space<vmem, sc_vector_subcore>`."""

    name = "tpu.memory_space"

    space: StringAttr
    core_type: StringAttr  # empty when absent

    def __init__(self, space: str, core_type: str = "") -> None:
        super().__init__(StringAttr(space), StringAttr(core_type))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        space = parser.parse_identifier(" (a memory space)")
        core_type = ""
        if parser.parse_optional_punctuation(",") is not None:
            core_type = parser.parse_identifier(" (a core type)")
        parser.parse_punctuation(">")
        return (StringAttr(space), StringAttr(core_type))

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.space.data)
            if self.core_type.data:
                printer.print_string(f", {self.core_type.data}")

    def verify(self) -> None:
        if self.space.data not in MEMORY_SPACES:
            raise VerifyException(
                f"Expected a memory space in {{{', '.join(MEMORY_SPACES)}}}, but got "
                f"'{self.space.data}'"
            )
        if self.core_type.data and self.core_type.data not in CORE_TYPES:
            raise VerifyException(
                f"Expected a core type in {{{', '.join(CORE_TYPES)}}}, but got "
                f"'{self.core_type.data}'"
            )


@irdl_attr_definition
class TiledLayoutAttr(MemRefLayoutAttr, ParametrizedAttribute):
    """`#tpu.tiled<(8,128)(2,1),[16,1]>`: XLA-style tiles, then strides counted in first tiles."""

    name = "tpu.tiled"

    tiles: ArrayAttr[ArrayAttr[IntAttr]]
    tile_strides: ArrayAttr[IntAttr]

    def __init__(self, tiles: Sequence[Sequence[int]], tile_strides: Sequence[int]) -> None:
        super().__init__(
            ArrayAttr([ArrayAttr([IntAttr(t) for t in tile]) for tile in tiles]),
            ArrayAttr([IntAttr(s) for s in tile_strides]),
        )

    @property
    def layout(self) -> MosaicTiledLayout:
        return MosaicTiledLayout(
            tuple(tuple(t.data for t in tile.data) for tile in self.tiles.data),
            tuple(s.data for s in self.tile_strides.data),
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        tiles: list[ArrayAttr[IntAttr]] = []
        while parser.parse_optional_punctuation("(") is not None:
            sizes = [parser.parse_integer(allow_boolean=False)]
            while parser.parse_optional_punctuation(",") is not None:
                sizes.append(parser.parse_integer(allow_boolean=False))
            parser.parse_punctuation(")")
            tiles.append(ArrayAttr([IntAttr(s) for s in sizes]))
        parser.parse_punctuation(",")
        strides = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
        )
        parser.parse_punctuation(">")
        return (ArrayAttr(tiles), ArrayAttr([IntAttr(s) for s in strides]))

    def print_parameters(self, printer: Printer) -> None:
        layout = self.layout
        tiles = "".join("(" + ",".join(map(str, tile)) + ")" for tile in layout.tiles)
        printer.print_string(f"<{tiles},[{','.join(map(str, layout.tile_strides))}]>")

    def verify(self) -> None:
        try:
            self.layout.check_tiles()
        except MosaicTilingError as error:
            raise VerifyException(str(error)) from None

    def get_affine_map(self) -> AffineMap:
        """Element offset of an index: `xla_emit.layout.mosaic` offsets over affine dims."""
        rank = len(self.tile_strides.data)
        dims = [AffineExpr.dimension(i) for i in range(rank)]
        offset = self.layout.offset(dims)
        # A rank-0 memref gives the plain int 0: make it an expression.
        return AffineMap(rank, 0, (AffineExpr.constant(0) + offset,))


@irdl_attr_definition
class DotDimensionNumbersAttr(ParametrizedAttribute):
    """`#tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>`.

    Lists: lhs/rhs contracting dims, lhs/rhs non-contracting dims, output order
    as (operand, dim) pairs, lhs/rhs batch dims.
    """

    name = "tpu.dot_dimension_numbers"

    lists: ArrayAttr[ArrayAttr[IntAttr]]

    FIELDS: ClassVar[tuple[str, ...]] = (
        "lhs_contracting_dims",
        "rhs_contracting_dims",
        "lhs_non_contracting_dims",
        "rhs_non_contracting_dims",
        "output_dim_order",
        "lhs_batch_dims",
        "rhs_batch_dims",
    )

    def __init__(self, lists: Sequence[Sequence[int]]) -> None:
        super().__init__(ArrayAttr([ArrayAttr([IntAttr(v) for v in lst]) for lst in lists]))

    def field(self, name: str) -> tuple[int, ...]:
        return tuple(v.data for v in self.lists.data[self.FIELDS.index(name)].data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        def one_list() -> ArrayAttr[IntAttr]:
            values = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
            )
            return ArrayAttr([IntAttr(v) for v in values])

        lists = parser.parse_comma_separated_list(parser.Delimiter.ANGLE, one_list)
        return (ArrayAttr(lists),)

    def print_parameters(self, printer: Printer) -> None:
        parts = ["[" + ", ".join(str(v.data) for v in lst.data) + "]" for lst in self.lists.data]
        printer.print_string("<" + ", ".join(parts) + ">")

    def verify(self) -> None:
        if len(self.lists.data) != len(self.FIELDS):
            raise VerifyException(
                f"Expected {len(self.FIELDS)} dimension lists, but got {len(self.lists.data)}"
            )
        if len(self.field("output_dim_order")) % 2 != 0:
            raise VerifyException("output_dim_order must hold (operand, dim) pairs")


@irdl_attr_definition
class ConvDimensionNumbersAttr(ParametrizedAttribute):
    """`#tpu.conv_dimension_numbers<0, 3, [1, 2], 2, 3, [0, 1], 0, 3, [1, 2]>` (jaxlib 0.12).

    In order: the input's batch and feature dims and spatial dims, the kernel's input
    and output feature dims and spatial dims, the output's batch and feature dims and
    spatial dims (an NHWC input, HWIO kernel and NHWC output above).
    """

    name = "tpu.conv_dimension_numbers"

    values: ArrayAttr[Attribute]  # IntAttr for a dim, ArrayAttr[IntAttr] for spatial dims

    FIELDS: ClassVar[tuple[str, ...]] = (
        "input_batch_dimension",
        "input_feature_dimension",
        "input_spatial_dimensions",
        "kernel_input_feature_dimension",
        "kernel_output_feature_dimension",
        "kernel_spatial_dimensions",
        "output_batch_dimension",
        "output_feature_dimension",
        "output_spatial_dimensions",
    )

    def __init__(self, values: Sequence[int | Sequence[int]]) -> None:
        super().__init__(
            ArrayAttr(
                [
                    IntAttr(v) if isinstance(v, int) else ArrayAttr([IntAttr(d) for d in v])
                    for v in values
                ]
            )
        )

    def dim(self, name: str) -> int:
        value = self.values.data[self.FIELDS.index(name)]
        assert isinstance(value, IntAttr)
        return value.data

    def dims(self, name: str) -> tuple[int, ...]:
        value = self.values.data[self.FIELDS.index(name)]
        assert isa(value, ArrayAttr[IntAttr])
        return tuple(v.data for v in value.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        def integer() -> int:
            return parser.parse_integer(allow_boolean=False)

        def one(index: int) -> Attribute:
            if index > 0:
                parser.parse_punctuation(",")
            if cls.FIELDS[index].endswith("dimensions"):
                dims = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, integer)
                return ArrayAttr([IntAttr(d) for d in dims])
            return IntAttr(integer())

        parser.parse_punctuation("<")
        values = [one(index) for index in range(len(cls.FIELDS))]
        parser.parse_punctuation(">")
        return (ArrayAttr(values),)

    def print_parameters(self, printer: Printer) -> None:
        parts = [
            str(v.data)
            if isinstance(v, IntAttr)
            else "[" + ", ".join(str(d.data) for d in v.data) + "]"  # type: ignore[union-attr]
            for v in self.values.data
        ]
        printer.print_string("<" + ", ".join(parts) + ">")

    def verify(self) -> None:
        if len(self.values.data) != len(self.FIELDS):
            raise VerifyException(
                f"Expected {len(self.FIELDS)} dimension numbers, but got {len(self.values.data)}"
            )
        spatial = {len(self.dims(f)) for f in self.FIELDS if f.endswith("dimensions")}
        if len(spatial) != 1:
            raise VerifyException("input, kernel and output must have as many spatial dimensions")


# A vreg layout as `#tpu.vpad` holds it: bitwidth, the two offsets (`*`: replicated),
# the tiling and an optional implicit dim (-1, -2 or -2,-1); or "none".
_VECTOR_LAYOUT = re.compile(r"none|\d+,\{(\d+|\*),(\d+|\*)\},\(\d+,\d+\)(,-2,-1|,-1|,-2)?")


@irdl_attr_definition
class VectorLayoutAttr(ParametrizedAttribute):
    """`#tpu.vpad<"32,{0,0},(8,128)">`: a value's layout in vregs, as Mosaic's layout passes
    annotate ops (`in_layout`, `out_layout`). jaxlib 0.10.2 prints it; 0.12 has no `vpad`."""

    name = "tpu.vpad"

    layout: StringAttr

    def __init__(self, layout: str) -> None:
        super().__init__(StringAttr(layout))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        layout = parser.parse_str_literal(' (a vreg layout such as "32,{0,0},(8,128)")')
        parser.parse_punctuation(">")
        return (StringAttr(layout),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f'<"{self.layout.data}">')

    def verify(self) -> None:
        if not _VECTOR_LAYOUT.fullmatch(self.layout.data):
            raise VerifyException(
                f'Expected a vreg layout such as "32,{{0,0}},(8,128)" or "none", but got '
                f'"{self.layout.data}"'
            )


@irdl_attr_definition
class SemaphoreType(ParametrizedAttribute, TypeAttribute):
    """`!tpu.semaphore`: a counting semaphore (a memref element type)."""

    name = "tpu.semaphore"


@irdl_attr_definition
class DMASemaphoreType(ParametrizedAttribute, TypeAttribute):
    """`!tpu.dma_semaphore`: a semaphore that DMAs signal (a memref element type)."""

    name = "tpu.dma_semaphore"


@irdl_attr_definition
class Float8EXMYType(ParametrizedAttribute, TypeAttribute):
    """`!tpu.float8_exmy<f8E4M3FN>`: an EXMY float held in the low bits of an 8-bit container."""

    name = "tpu.float8_exmy"

    underlying_type: TypeAttribute

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        underlying = parser.parse_type()
        parser.parse_punctuation(">")
        return (underlying,)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.underlying_type)
        printer.print_string(">")

    def verify(self) -> None:
        bitwidth = getattr(self.underlying_type, "bitwidth", None)
        if not isa(self.underlying_type, AnyFloat) or not isinstance(bitwidth, int) or bitwidth > 8:
            raise VerifyException(
                f"Expected an EXMY float type of at most 8 bits, but got {self.underlying_type}"
            )
