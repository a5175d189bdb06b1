"""The Mosaic TPU `tpu` dialect: memory spaces, tiled memref layouts, semaphores and ops.

Ops print as Mosaic prints them (jax-ml/jax `jaxlib/mosaic/dialect/tpu/`):

    %v = tpu.vector_load %m[%i, %j] {strides = array<i32>} : memref<8x128xf32>, vector<8x128xf32>,
    %r = tpu.assume_multiple %x, 128 : index
    %s = tpu.memref_slice %m[%a, %b] : memref<4x256xf32> -> memref<1x128xf32>

Memory ops with an optional mask print a trailing `, ` after the last type
when the mask is absent, exactly as Mosaic's assembly format does. The tiled
memref layout `#tpu.tiled<(8,128)(2,1),[16,1]>` is a memref layout attribute;
its index arithmetic comes from `xla_emit.layout.mosaic`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import (
    I32,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefLayoutAttr,
    MemRefType,
    StringAttr,
    VectorType,
    i1,
    i32,
)
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    ParametrizedAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

from xla_emit.layout.mosaic import MosaicTiledLayout, MosaicTilingError

# ----------------------------------------------------------------------------- attributes

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
class SemaphoreType(ParametrizedAttribute, TypeAttribute):
    """`!tpu.semaphore`: a counting semaphore (a memref element type)."""

    name = "tpu.semaphore"


@irdl_attr_definition
class DMASemaphoreType(ParametrizedAttribute, TypeAttribute):
    """`!tpu.dma_semaphore`: a semaphore that DMAs signal (a memref element type)."""

    name = "tpu.dma_semaphore"


# ----------------------------------------------------------------------------- helpers


def memory_space_of(memref: MemRefType[Attribute]) -> str | None:
    """The `#tpu.memory_space` kind of a memref type, or None without one."""
    space = memref.memory_space
    return space.space.data if isinstance(space, MemorySpaceAttr) else None


def tiled_layout_of(memref: MemRefType[Attribute]) -> TiledLayoutAttr | None:
    layout = memref.layout
    return layout if isinstance(layout, TiledLayoutAttr) else None


def element_bitwidth(type_: Attribute) -> int | None:
    """Bits of an int/float/index element type (index counts as 32 on TPU), else None."""
    if isinstance(type_, IndexType):
        return 32
    bitwidth = getattr(type_, "bitwidth", None)
    return bitwidth if isinstance(bitwidth, int) else None


def _memref(value: SSAValue) -> MemRefType[Attribute]:
    assert isinstance(value.type, MemRefType)
    return value.type


def _vector(value: SSAValue) -> VectorType[Attribute]:
    assert isinstance(value.type, VectorType)
    return value.type


def _check_vmem(memref: MemRefType[Attribute]) -> None:
    space = memory_space_of(memref)
    if space is not None and space != "vmem":
        raise VerifyException("Expected base memref to be in VMEM.")


def _check_index_count(memref: MemRefType[Attribute], count: int) -> None:
    if count != memref.get_num_dims():
        raise VerifyException(f"Expected {memref.get_num_dims()} indices, but got {count}.")
    _check_layout_fits(memref)


def _check_layout_fits(memref: MemRefType[Attribute]) -> None:
    """Mosaic's `verifyLayout`: a `#tpu.tiled` layout must match the memref's rank."""
    layout = tiled_layout_of(memref)
    if layout is None:
        return
    try:
        layout.layout.check_for_shape(memref.get_shape())
    except MosaicTilingError as error:
        raise VerifyException(f"{memref}: {error}") from None


def _check_semaphore_memref(
    memref: Attribute, kinds: tuple[type[Attribute], ...], what: str
) -> None:
    if not isa(memref, MemRefType[Attribute]) or not isinstance(memref.element_type, kinds):
        raise VerifyException(f"Expected a memref of {what}, but got {memref}")


def strides_of(op: IRDLOperation) -> tuple[int, ...]:
    """The `strides = array<i32: ...>` property of a memory op (empty when absent)."""
    strides = op.properties.get("strides")
    if isa(strides, DenseArrayBase[I32]):
        return strides.get_values()
    return ()


def _empty_i32_array() -> DenseArrayBase[I32]:
    return DenseArrayBase.from_list(i32, [])


class _Syntax:
    """Parsing and printing pieces shared by the memory ops' custom formats."""

    @staticmethod
    def base_and_indices(parser: Parser) -> tuple[UnresolvedOperand, list[UnresolvedOperand]]:
        base_value = parser.parse_unresolved_operand()
        indices = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        return base_value, indices

    @staticmethod
    def resolve_all(
        parser: Parser, operands: Sequence[UnresolvedOperand], type_: Attribute
    ) -> list[SSAValue]:
        return [parser.resolve_operand(operand, type_) for operand in operands]

    @staticmethod
    def optional_mask(parser: Parser) -> UnresolvedOperand | None:
        if parser.parse_optional_keyword("masked") is None:
            return None
        return parser.parse_unresolved_operand()

    @staticmethod
    def resolve_mask(
        parser: Parser, mask: UnresolvedOperand | None, type_: Attribute | None
    ) -> list[SSAValue]:
        if mask is None:
            return []
        if type_ is None:
            parser.raise_error("expected the mask type after the last ','")
        return [parser.resolve_operand(mask, type_)]

    @staticmethod
    def print_base_and_indices(
        printer: Printer, base_value: SSAValue, indices: Sequence[SSAValue]
    ) -> None:
        printer.print_string(" ")
        printer.print_operand(base_value)
        printer.print_string("[")
        printer.print_list(indices, printer.print_operand)
        printer.print_string("]")

    @staticmethod
    def attributes(
        parser: Parser, property_names: Sequence[str]
    ) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
        """Parse `{...}` and split it into (properties, other attributes)."""
        parsed = parser.parse_optional_attr_dict()
        properties = {k: v for k, v in parsed.items() if k in property_names}
        attributes = {k: v for k, v in parsed.items() if k not in property_names}
        return properties, attributes

    @staticmethod
    def print_attributes(printer: Printer, op: Operation, elide: dict[str, Attribute]) -> None:
        """Properties and attributes in one dict, leaving out defaults listed in `elide`."""
        shown = {
            k: v
            for k, v in {**op.properties, **op.attributes}.items()
            if k != "operandSegmentSizes" and elide.get(k) != v
        }
        printer.print_op_attributes(shown)

    @staticmethod
    def optional_trailing_type(parser: Parser) -> Attribute | None:
        """Mosaic's `, type($mask)` where the mask may be absent (then nothing follows)."""
        if parser.parse_optional_punctuation(",") is None:
            return None
        return parser.parse_optional_type()

    @staticmethod
    def memref_and_vector_types(parser: Parser) -> tuple[Attribute, Attribute]:
        """`: M, V`."""
        parser.parse_punctuation(":")
        base_type = parser.parse_type()
        parser.parse_punctuation(",")
        return base_type, parser.parse_type()

    @staticmethod
    def print_memref_and_vector_types(printer: Printer, base: SSAValue, vector: SSAValue) -> None:
        printer.print_string(" : ")
        printer.print_attribute(base.type)
        printer.print_string(", ")
        printer.print_attribute(vector.type)

    @staticmethod
    def print_trailing_mask_type(printer: Printer, mask: SSAValue | None) -> None:
        """Mosaic prints the `, ` before the mask type even when there is no mask."""
        printer.print_string(", ")
        if mask is not None:
            printer.print_attribute(mask.type)

    @staticmethod
    def value_and_mask(parser: Parser) -> tuple[UnresolvedOperand, UnresolvedOperand | None]:
        """`, %v [masked %k]` after a store's base and indices."""
        parser.parse_punctuation(",")
        value = parser.parse_unresolved_operand()
        return value, _Syntax.optional_mask(parser)

    @staticmethod
    def print_value_and_mask(printer: Printer, value: SSAValue, mask: SSAValue | None) -> None:
        printer.print_string(", ")
        printer.print_operand(value)
        _Syntax.print_optional_mask(printer, mask)

    @staticmethod
    def print_optional_mask(printer: Printer, mask: SSAValue | None) -> None:
        if mask is not None:
            printer.print_string(" masked ")
            printer.print_operand(mask)

    @staticmethod
    def sublanes(parser: Parser) -> dict[str, Attribute]:
        """`sublanes array<i1: ...> [sublane_stride N]`, as properties."""
        parser.parse_keyword("sublanes")
        properties: dict[str, Attribute] = {"sublane_mask": parser.parse_attribute()}
        if parser.parse_optional_keyword("sublane_stride") is not None:
            properties["sublane_stride"] = IntegerAttr(parser.parse_integer(), 32)
        return properties

    @staticmethod
    def print_sublanes(
        printer: Printer, sublane_mask: Attribute, sublane_stride: IntegerAttr[I32]
    ) -> None:
        printer.print_string(" sublanes ")
        printer.print_attribute(sublane_mask)
        if sublane_stride.value.data != 1:
            printer.print_string(f" sublane_stride {sublane_stride.value.data}")

    @staticmethod
    def store_operands(
        parser: Parser,
        stored: tuple[UnresolvedOperand, Attribute],
        base: tuple[UnresolvedOperand, Attribute],
        indices: Sequence[UnresolvedOperand],
        mask: tuple[UnresolvedOperand | None, Attribute | None],
    ) -> list[SSAValue | list[SSAValue]]:
        """The operand groups of a store: value, base, indices, optional mask."""
        return [
            parser.resolve_operand(*stored),
            parser.resolve_operand(*base),
            _Syntax.resolve_all(parser, indices, IndexType()),
            _Syntax.resolve_mask(parser, *mask),
        ]


# ----------------------------------------------------------------------------- memory ops


@irdl_op_definition
class LoadOp(IRDLOperation):
    """`%v = tpu.load %m[%i, %j] sublanes array<i1: ...> [sublane_stride N] : M, V`."""

    name = "tpu.load"

    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    sublane_mask = prop_def(DenseArrayBase.constr(i1))
    sublane_stride = prop_def(IntegerAttr[I32], default_value=IntegerAttr(1, 32))
    result = result_def(VectorType)

    irdl_options = (ParsePropInAttrDict(),)

    def __init__(
        self,
        base_value: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation],
        sublane_mask: Sequence[bool],
        result_type: VectorType[Attribute],
        sublane_stride: int = 1,
    ) -> None:
        super().__init__(
            operands=[base_value, indices],
            result_types=[result_type],
            properties={
                "sublane_mask": DenseArrayBase.from_list(i1, [int(b) for b in sublane_mask]),
                "sublane_stride": IntegerAttr(sublane_stride, 32),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        base_value, indices = _Syntax.base_and_indices(parser)
        properties = _Syntax.sublanes(parser)
        more, attributes = _Syntax.attributes(parser, ("sublane_stride",))
        properties.update(more)
        base_type, result_type = _Syntax.memref_and_vector_types(parser)
        return cls.build(
            operands=[
                parser.resolve_operand(base_value, base_type),
                _Syntax.resolve_all(parser, indices, IndexType()),
            ],
            result_types=[result_type],
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        _Syntax.print_base_and_indices(printer, self.base, self.indices)
        _Syntax.print_sublanes(printer, self.sublane_mask, self.sublane_stride)
        printer.print_op_attributes(self.attributes)
        _Syntax.print_memref_and_vector_types(printer, self.base, self.result)

    def verify_(self) -> None:
        memref = _memref(self.base)
        _check_index_count(memref, len(self.indices))
        if _vector(self.result).element_type != memref.element_type:
            raise VerifyException("Expected base and result element type to match")


@irdl_op_definition
class StoreOp(IRDLOperation):
    """`tpu.store %m[%i, %j], %v [masked %k] sublanes array<i1: ...> : M, V, [K]`."""

    name = "tpu.store"

    value_to_store = operand_def(VectorType)
    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    mask = opt_operand_def(AnyAttr())
    sublane_mask = prop_def(DenseArrayBase.constr(i1))
    sublane_stride = prop_def(IntegerAttr[I32], default_value=IntegerAttr(1, 32))
    add = prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))

    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())

    def __init__(
        self,
        value: SSAValue | Operation,
        base_value: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation],
        sublane_mask: Sequence[bool],
        mask: SSAValue | Operation | None = None,
    ) -> None:
        super().__init__(
            operands=[value, base_value, indices, [mask] if mask is not None else []],
            properties={
                "sublane_mask": DenseArrayBase.from_list(i1, [int(b) for b in sublane_mask])
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        base_value, indices = _Syntax.base_and_indices(parser)
        value, mask = _Syntax.value_and_mask(parser)
        properties = _Syntax.sublanes(parser)
        more, attributes = _Syntax.attributes(parser, ("sublane_stride", "add"))
        properties.update(more)
        base_type, value_type = _Syntax.memref_and_vector_types(parser)
        mask_type = _Syntax.optional_trailing_type(parser)
        return cls.build(
            operands=_Syntax.store_operands(
                parser, (value, value_type), (base_value, base_type), indices, (mask, mask_type)
            ),
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        _Syntax.print_base_and_indices(printer, self.base, self.indices)
        _Syntax.print_value_and_mask(printer, self.value_to_store, self.mask)
        _Syntax.print_sublanes(printer, self.sublane_mask, self.sublane_stride)
        extra: dict[str, Attribute] = dict(self.attributes)
        if self.add.value:
            extra["add"] = self.add
        printer.print_op_attributes(extra)
        _Syntax.print_memref_and_vector_types(printer, self.base, self.value_to_store)
        _Syntax.print_trailing_mask_type(printer, self.mask)

    def verify_(self) -> None:
        memref = _memref(self.base)
        _check_index_count(memref, len(self.indices))
        if _vector(self.value_to_store).element_type != memref.element_type:
            raise VerifyException("Expected base and valueToStore element type to match")


class _VectorMemoryOpBase(IRDLOperation):
    """Shared verification of `tpu.vector_load` and `tpu.vector_store`."""

    def _verify_access(
        self,
        memref: MemRefType[Attribute],
        vector: VectorType[Attribute],
        kind: str,
        indices: int,
        mask: SSAValue | None,
    ) -> None:
        if strides_of(self):
            raise VerifyException(f"Not implemented: general vector {kind} with strides.")
        _check_vmem(memref)
        _check_index_count(memref, indices)
        if vector.element_type != memref.element_type:
            noun = "result" if kind == "load" else "valueToStore"
            raise VerifyException(f"Expected base and {noun} element type to match")
        if mask is not None:
            if element_bitwidth(vector.element_type) != 32:
                raise VerifyException(
                    f"Not implemented: masked {kind} with non-32-bit element type"
                )
            mask_shape = _vector(mask).get_shape()
            if mask_shape != vector.get_shape():
                raise VerifyException(
                    "Expected mask shape to match result shape: "
                    f"({', '.join(map(str, vector.get_shape()))}). "
                    f"Got: ({', '.join(map(str, mask_shape))})."
                )


@irdl_op_definition
class VectorLoadOp(_VectorMemoryOpBase):
    """`%v = tpu.vector_load %m[%i, %j] [masked %k] {strides = array<i32>} : M, V, [K]`."""

    name = "tpu.vector_load"

    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    mask = opt_operand_def(VectorType)
    strides = prop_def(DenseArrayBase.constr(i32), default_value=_empty_i32_array())
    result = result_def(VectorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())

    def __init__(
        self,
        base_value: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation],
        result_type: VectorType[Attribute],
        mask: SSAValue | Operation | None = None,
    ) -> None:
        super().__init__(
            operands=[base_value, indices, [mask] if mask is not None else []],
            result_types=[result_type],
            properties={"strides": _empty_i32_array()},
        )

    @classmethod
    def parse(cls, parser: Parser) -> VectorLoadOp:
        base_value, indices = _Syntax.base_and_indices(parser)
        mask = _Syntax.optional_mask(parser)
        properties, attributes = _Syntax.attributes(parser, ("strides",))
        properties.setdefault("strides", _empty_i32_array())
        base_type, result_type = _Syntax.memref_and_vector_types(parser)
        mask_type = _Syntax.optional_trailing_type(parser)
        return cls.build(
            operands=[
                parser.resolve_operand(base_value, base_type),
                _Syntax.resolve_all(parser, indices, IndexType()),
                _Syntax.resolve_mask(parser, mask, mask_type),
            ],
            result_types=[result_type],
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        _Syntax.print_base_and_indices(printer, self.base, self.indices)
        _Syntax.print_optional_mask(printer, self.mask)
        _Syntax.print_attributes(printer, self, {})
        _Syntax.print_memref_and_vector_types(printer, self.base, self.result)
        _Syntax.print_trailing_mask_type(printer, self.mask)

    def verify_(self) -> None:
        self._verify_access(
            _memref(self.base), _vector(self.result), "load", len(self.indices), self.mask
        )


@irdl_op_definition
class VectorStoreOp(_VectorMemoryOpBase):
    """`tpu.vector_store %m[%i, %j], %v [masked %k] {strides = array<i32>} : M, V, [K]`."""

    name = "tpu.vector_store"

    value_to_store = operand_def(VectorType)
    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    mask = opt_operand_def(VectorType)
    strides = prop_def(DenseArrayBase.constr(i32), default_value=_empty_i32_array())
    add = prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))

    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())

    def __init__(
        self,
        value: SSAValue | Operation,
        base_value: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation],
        mask: SSAValue | Operation | None = None,
    ) -> None:
        super().__init__(
            operands=[value, base_value, indices, [mask] if mask is not None else []],
            properties={"strides": _empty_i32_array()},
        )

    @classmethod
    def parse(cls, parser: Parser) -> VectorStoreOp:
        base_value, indices = _Syntax.base_and_indices(parser)
        value, mask = _Syntax.value_and_mask(parser)
        properties, attributes = _Syntax.attributes(parser, ("strides", "add"))
        properties.setdefault("strides", _empty_i32_array())
        base_type, value_type = _Syntax.memref_and_vector_types(parser)
        mask_type = _Syntax.optional_trailing_type(parser)
        return cls.build(
            operands=_Syntax.store_operands(
                parser, (value, value_type), (base_value, base_type), indices, (mask, mask_type)
            ),
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        _Syntax.print_base_and_indices(printer, self.base, self.indices)
        _Syntax.print_value_and_mask(printer, self.value_to_store, self.mask)
        _Syntax.print_attributes(printer, self, {"add": BoolAttr.from_bool(False)})
        _Syntax.print_memref_and_vector_types(printer, self.base, self.value_to_store)
        _Syntax.print_trailing_mask_type(printer, self.mask)

    def verify_(self) -> None:
        self._verify_access(
            _memref(self.base), _vector(self.value_to_store), "store", len(self.indices), self.mask
        )


def _verify_strided(
    memref: MemRefType[Attribute],
    vector: VectorType[Attribute],
    indices: int,
    strides: tuple[int, ...],
    min_stride: int,
) -> None:
    _check_index_count(memref, indices)
    if vector.element_type != memref.element_type:
        raise VerifyException("Expected base and vector element type to match")
    if len(strides) != memref.get_num_dims():
        raise VerifyException(f"Expected {memref.get_num_dims()} strides, but got {len(strides)}.")
    if memref.get_num_dims() != vector.get_num_dims():
        raise VerifyException(
            "Base memref's rank and result's rank do not match: "
            f"{memref.get_num_dims()} vs {vector.get_num_dims()}"
        )
    for position, stride in enumerate(strides):
        if stride < min_stride:
            raise VerifyException(f"Strides[{position}]={stride} must be >= {min_stride}")


@irdl_op_definition
class StridedLoadOp(IRDLOperation):
    """`%v = tpu.strided_load %m[%i, %j] {strides = array<i32: 2, 1>} : M, V`."""

    name = "tpu.strided_load"

    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    strides = prop_def(DenseArrayBase.constr(i32))
    result = result_def(VectorType)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$base `[` $indices `]` attr-dict `:` type($base) `,` type($result)"

    def verify_(self) -> None:
        _verify_strided(
            _memref(self.base), _vector(self.result), len(self.indices), strides_of(self), 0
        )


@irdl_op_definition
class StridedStoreOp(IRDLOperation):
    """`tpu.strided_store %m[%i, %j], %v {strides = array<i32: 2, 1>} : M, V`."""

    name = "tpu.strided_store"

    value_to_store = operand_def(VectorType)
    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    strides = prop_def(DenseArrayBase.constr(i32))

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$base `[` $indices `]` `,` $value_to_store attr-dict "
        "`:` type($base) `,` type($value_to_store)"
    )

    def verify_(self) -> None:
        _verify_strided(
            _memref(self.base), _vector(self.value_to_store), len(self.indices), strides_of(self), 1
        )


# ----------------------------------------------------------------------------- memref views


@irdl_op_definition
class AssumeMultipleOp(IRDLOperation):
    """`%r = tpu.assume_multiple %x, 128 : index`: a promise that %x is a multiple of 128."""

    name = "tpu.assume_multiple"

    T: ClassVar = VarConstraint("T", base(IndexType) | base(IntegerType))

    value = operand_def(T)
    multiple = prop_def(IntegerAttr[I32])
    result = result_def(T)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$value `,` $multiple attr-dict `:` type($result)"

    def __init__(self, value: SSAValue | Operation, multiple: int) -> None:
        value = SSAValue.get(value)
        super().__init__(
            operands=[value],
            result_types=[value.type],
            properties={"multiple": IntegerAttr(multiple, 32)},
        )

    def verify_(self) -> None:
        multiple = self.multiple.value.data
        if multiple < 1:
            raise VerifyException(f"Multiple must be >= 1, got {multiple}")
        owner = self.value.owner
        if isinstance(owner, ConstantOp) and isinstance(owner.value, IntegerAttr):
            constant = owner.value.value.data
            if constant % multiple != 0:
                raise VerifyException(
                    f"Operand is a constant {constant} that is not a multiple of {multiple}"
                )


@irdl_op_definition
class MemRefSliceOp(IRDLOperation):
    """`%s = tpu.memref_slice %m[%i, %j] [<%sz, ...>] : M -> S` (offsets and sizes are i32)."""

    name = "tpu.memref_slice"

    mem_ref = operand_def(MemRefType)
    base_idx = var_operand_def(IntegerType)
    dynamic_sizes = var_operand_def(IntegerType)
    result = result_def(MemRefType)

    traits = traits_def(Pure())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        mem_ref: SSAValue | Operation,
        base_idx: Sequence[SSAValue | Operation],
        result_type: MemRefType[Attribute],
    ) -> None:
        super().__init__(operands=[mem_ref, base_idx, []], result_types=[result_type])

    @classmethod
    def parse(cls, parser: Parser) -> MemRefSliceOp:
        mem_ref, base_idx = _Syntax.base_and_indices(parser)
        sizes: list[UnresolvedOperand] = []
        if parser.parse_optional_punctuation("<") is not None:
            sizes = [parser.parse_unresolved_operand()]
            while parser.parse_optional_punctuation(",") is not None:
                sizes.append(parser.parse_unresolved_operand())
            parser.parse_punctuation(">")
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        # Mosaic's offsets and sizes are i32; the verifier reports other types.
        offsets = [parser.resolve_operand(o, _type_of_unresolved(parser, o, i32)) for o in base_idx]
        dynamic = [parser.resolve_operand(o, _type_of_unresolved(parser, o, i32)) for o in sizes]
        return cls.build(
            operands=[parser.resolve_operand(mem_ref, source_type), offsets, dynamic],
            result_types=[result_type],
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        _Syntax.print_base_and_indices(printer, self.mem_ref, self.base_idx)
        if self.dynamic_sizes:
            printer.print_string(" <")
            printer.print_list(self.dynamic_sizes, printer.print_operand)
            printer.print_string(">")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.mem_ref.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        source, result = _memref(self.mem_ref), _memref(self.result)
        for value in (*self.base_idx, *self.dynamic_sizes):
            if value.type != i32:
                raise VerifyException(f"Expected i32 offsets and sizes, but got {value.type}")
        if len(self.base_idx) != source.get_num_dims():
            raise VerifyException(
                f"Expected {source.get_num_dims()} offsets, but got {len(self.base_idx)}."
            )
        if source.get_num_dims() != result.get_num_dims():
            raise VerifyException(
                f"Expected the result rank {result.get_num_dims()} to equal the source rank "
                f"{source.get_num_dims()}."
            )
        if source.element_type != result.element_type:
            raise VerifyException("Expected the source and result element types to match.")
        if source.memory_space != result.memory_space:
            raise VerifyException("Memory spaces must match.")
        dynamic = sum(1 for d in result.get_shape() if d < 0)
        if dynamic != len(self.dynamic_sizes):
            raise VerifyException(
                f"Expected {dynamic} dynamic sizes for {result}, but got {len(self.dynamic_sizes)}."
            )
        for position, (size, bound) in enumerate(
            zip(result.get_shape(), source.get_shape(), strict=True)
        ):
            if size >= 0 and bound >= 0 and size > bound:
                raise VerifyException(
                    f"Slice size {size} at dimension {position} exceeds the source size {bound}."
                )
        _verify_static_offsets(self.base_idx, result.get_shape(), source.get_shape())


def _verify_static_offsets(
    offsets: Sequence[SSAValue], sizes: Sequence[int], bounds: Sequence[int]
) -> None:
    for position, (offset, size, bound) in enumerate(zip(offsets, sizes, bounds, strict=True)):
        owner = offset.owner
        if not isinstance(owner, ConstantOp) or not isinstance(owner.value, IntegerAttr):
            continue
        start = owner.value.value.data
        if size >= 0 and bound >= 0 and not 0 <= start <= bound - size:
            raise VerifyException(
                f"Slice at dimension {position} is out of bounds: "
                f"offset {start} + size {size} > {bound}."
            )


class _MemRefCastOpBase(IRDLOperation):
    """`%r = tpu.<op> %m : M -> R`: a view of the same memory with another type."""

    input = operand_def(MemRefType)
    result = result_def(MemRefType)

    traits = traits_def(Pure())
    assembly_format = "$input attr-dict `:` type($input) `->` type($result)"

    def __init__(self, input: SSAValue | Operation, result_type: MemRefType[Attribute]) -> None:
        super().__init__(operands=[input], result_types=[result_type])

    def _source_and_result(self) -> tuple[MemRefType[Attribute], MemRefType[Attribute]]:
        return _memref(self.input), _memref(self.result)

    def _check_memory_space(self) -> None:
        source, result = self._source_and_result()
        if source.memory_space != result.memory_space:
            raise VerifyException("Memory spaces must match.")


@irdl_op_definition
class MemRefSqueezeOp(_MemRefCastOpBase):
    """`tpu.memref_squeeze`: drop unit dims (the result shape is the source without some 1s)."""

    name = "tpu.memref_squeeze"

    def verify_(self) -> None:
        self._check_memory_space()
        source, result = self._source_and_result()
        if source.element_type != result.element_type:
            raise VerifyException("Element types don't match.")
        remaining = list(result.get_shape())
        for size in source.get_shape():
            if remaining and remaining[0] == size:
                remaining.pop(0)
            elif size != 1:
                raise VerifyException(
                    f"Cannot squeeze {list(source.get_shape())} into {list(result.get_shape())}: "
                    f"only dims of size 1 may be removed."
                )
        if remaining:
            raise VerifyException(
                f"Cannot squeeze {list(source.get_shape())} into {list(result.get_shape())}."
            )


@irdl_op_definition
class MemRefReshapeOp(_MemRefCastOpBase):
    """`tpu.memref_reshape`: same elements, another shape."""

    name = "tpu.memref_reshape"

    def verify_(self) -> None:
        self._check_memory_space()
        source, result = self._source_and_result()
        if source.element_type != result.element_type:
            raise VerifyException("Element types don't match.")
        if source.element_count() != result.element_count():
            raise VerifyException(
                f"Number of elements doesn't match: {source.element_count()} vs "
                f"{result.element_count()}."
            )


@irdl_op_definition
class MemRefBitcastOp(_MemRefCastOpBase):
    """`tpu.memref_bitcast`: reinterpret the bits; the second-minor dim scales with bitwidth."""

    name = "tpu.memref_bitcast"

    def verify_(self) -> None:
        self._check_memory_space()
        source, result = self._source_and_result()
        source_bits = element_bitwidth(source.element_type)
        result_bits = element_bitwidth(result.element_type)
        if source_bits is None or result_bits is None:
            raise VerifyException("Expected int or float element types.")
        src_shape, dst_shape = list(source.get_shape()), list(result.get_shape())
        if len(src_shape) != len(dst_shape) or not src_shape:
            raise VerifyException("Expected the source and result ranks to match.")
        if src_shape[:-2] + src_shape[-1:] != dst_shape[:-2] + dst_shape[-1:]:
            raise VerifyException("Only the second-minor dimension may change in a bitcast.")
        if len(src_shape) >= 2 and src_shape[-2] * source_bits != dst_shape[-2] * result_bits:
            raise VerifyException(
                f"Expected the second-minor dimension to scale with the bitwidth: "
                f"{src_shape[-2]} x {source_bits} bits != {dst_shape[-2]} x {result_bits} bits."
            )


# ----------------------------------------------------------------------------- vector compute


@irdl_op_definition
class DynamicRotateOp(IRDLOperation):
    """`%r = tpu.dynamic_rotate %v by %amount dim 1 : V, i32 -> V`.

    Element i moves to (i + amount) mod n.
    """

    name = "tpu.dynamic_rotate"

    T: ClassVar = VarConstraint("T", base(VectorType))

    value = operand_def(T)
    amount = operand_def(i32)
    dimension = prop_def(IntegerAttr[I32])
    stride = opt_prop_def(IntegerAttr[I32])
    stride_dimension = opt_prop_def(IntegerAttr[I32])
    result = result_def(T)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$value `by` $amount `dim` $dimension attr-dict "
        "`:` type($value) `,` type($amount) `->` type($result)"
    )

    def __init__(
        self, value: SSAValue | Operation, amount: SSAValue | Operation, dimension: int
    ) -> None:
        value = SSAValue.get(value)
        super().__init__(
            operands=[value, amount],
            result_types=[value.type],
            properties={"dimension": IntegerAttr(dimension, 32)},
        )

    def verify_(self) -> None:
        rank = _vector(self.value).get_num_dims()
        dimension = self.dimension.value.data
        if not 0 <= dimension < rank:
            raise VerifyException(f"Invalid dimension: {dimension}, expected it in [0, {rank})")
        if (self.stride is None) != (self.stride_dimension is None):
            raise VerifyException(
                "Expected either none or both stride and stride dimension are present"
            )


@irdl_op_definition
class IotaOp(IRDLOperation):
    """`%i = tpu.iota {dimensions = array<i32: 0>} : vector<8x128xi32>`."""

    name = "tpu.iota"

    dimensions = prop_def(DenseArrayBase.constr(i32))
    output = result_def(VectorType)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict `:` type($output)"

    def verify_(self) -> None:
        vector = _vector(self.output)
        if not isinstance(vector.element_type, IntegerType | IndexType):
            raise VerifyException(
                f"Expected an integer or index element type, but got {vector.element_type}"
            )
        rank = vector.get_num_dims()
        dims = int_values(self.dimensions)
        if not dims:
            raise VerifyException("At least one dimension must be specified.")
        if len(set(dims)) != len(dims):
            raise VerifyException("Dimensions must be unique.")
        for dim in dims:
            if not 0 <= dim < rank:
                raise VerifyException(f"Invalid dimension: {dim}, expected it in [0, {rank})")


def int_values(array: DenseArrayBase[I32]) -> list[int]:
    """The values of an `array<i32: ...>` property."""
    return list(array.get_values())


@irdl_op_definition
class MatmulOp(IRDLOperation):
    """`%r = tpu.matmul %l, %r, %acc {dimension_numbers = ...} : VL, VR, VA -> VA`: acc + l x r."""

    name = "tpu.matmul"

    lhs = operand_def(VectorType)
    rhs = operand_def(VectorType)
    acc = operand_def(VectorType)
    transpose_lhs = prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))
    transpose_rhs = prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))
    precision = opt_prop_def(AnyAttr())
    dimension_numbers = opt_prop_def(DotDimensionNumbersAttr)
    result = result_def(VectorType)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$lhs `,` $rhs `,` $acc attr-dict "
        "`:` type($lhs) `,` type($rhs) `,` type($acc) `->` type($result)"
    )

    def contraction(self) -> tuple[int, int]:
        """(lhs contracting dim, rhs contracting dim) for 2-D operands."""
        if self.dimension_numbers is not None:
            return (
                self.dimension_numbers.field("lhs_contracting_dims")[0],
                self.dimension_numbers.field("rhs_contracting_dims")[0],
            )
        return (0 if self.transpose_lhs.value else 1, 1 if self.transpose_rhs.value else 0)

    def verify_(self) -> None:
        lhs, rhs, acc = _vector(self.lhs), _vector(self.rhs), _vector(self.acc)
        if self.result.type != acc:
            raise VerifyException(f"Expected the result type to be the accumulator type {acc}")
        if not lhs.get_num_dims() == rhs.get_num_dims() == acc.get_num_dims() == 2:
            raise VerifyException("Expected 2-D lhs, rhs and acc (batched matmul is not supported)")
        lhs_k, rhs_k = self.contraction()
        lhs_shape, rhs_shape = lhs.get_shape(), rhs.get_shape()
        if lhs_shape[lhs_k] != rhs_shape[rhs_k]:
            raise VerifyException(
                f"Expected the contracting dims to match: lhs has {lhs_shape[lhs_k]}, rhs has "
                f"{rhs_shape[rhs_k]}."
            )
        expected = (lhs_shape[1 - lhs_k], rhs_shape[1 - rhs_k])
        if acc.get_shape() != expected:
            raise VerifyException(
                f"Expected the accumulator shape {list(expected)}, but got {list(acc.get_shape())}."
            )


# ----------------------------------------------------------------------------- semaphores and DMA


@irdl_op_definition
class SemaphoreAllocOp(IRDLOperation):
    """`%s = tpu.sem_alloc : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>`."""

    name = "tpu.sem_alloc"

    result = result_def(MemRefType)

    assembly_format = "attr-dict `:` type($result)"

    def verify_(self) -> None:
        _check_semaphore_memref(self.result.type, (SemaphoreType, DMASemaphoreType), "semaphores")


@irdl_op_definition
class SemaphoreWaitOp(IRDLOperation):
    """`tpu.sem_wait %sem, %n : memref<!tpu.semaphore, ...>`: wait for a count of n, take it."""

    name = "tpu.sem_wait"

    semaphore = operand_def(MemRefType)
    amount = operand_def(i32)

    assembly_format = "$semaphore `,` $amount attr-dict `:` type($semaphore)"

    def verify_(self) -> None:
        _check_semaphore_memref(self.semaphore.type, (SemaphoreType,), "!tpu.semaphore")
        _check_rank_zero(_memref(self.semaphore))


def _check_rank_zero(memref: MemRefType[Attribute]) -> None:
    if memref.get_num_dims() != 0:
        raise VerifyException(f"Semaphore reference must be rank 0, but got {memref}")


@irdl_op_definition
class SemaphoreSignalOp(IRDLOperation):
    """`tpu.sem_signal %sem, %n [device_id %d] [core_id %c] : memref<!tpu.semaphore, ...>`."""

    name = "tpu.sem_signal"

    semaphore = operand_def(MemRefType)
    amount = operand_def(i32)
    device_id = opt_operand_def(i32)
    core_id = opt_operand_def(i32)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> SemaphoreSignalOp:
        semaphore = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        amount = parser.parse_unresolved_operand()
        device_id = (
            parser.parse_unresolved_operand()
            if parser.parse_optional_keyword("device_id")
            else None
        )
        core_id = (
            parser.parse_unresolved_operand() if parser.parse_optional_keyword("core_id") else None
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        semaphore_type = parser.parse_type()
        return cls.build(
            operands=[
                parser.resolve_operand(semaphore, semaphore_type),
                parser.resolve_operand(amount, i32),
                _resolve_optional(parser, device_id, i32),
                _resolve_optional(parser, core_id, i32),
            ],
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.semaphore)
        printer.print_string(", ")
        printer.print_operand(self.amount)
        for keyword, value in (("device_id", self.device_id), ("core_id", self.core_id)):
            if value is not None:
                printer.print_string(f" {keyword} ")
                printer.print_operand(value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.semaphore.type)

    def verify_(self) -> None:
        _check_semaphore_memref(self.semaphore.type, (SemaphoreType,), "!tpu.semaphore")
        _check_rank_zero(_memref(self.semaphore))


def _optional(value: SSAValue | None) -> list[SSAValue]:
    return [value] if value is not None else []


def _resolve_optional(
    parser: Parser, value: UnresolvedOperand | None, type_: Attribute
) -> list[SSAValue]:
    return [parser.resolve_operand(value, type_)] if value is not None else []


def _type_of_unresolved(
    parser: Parser, operand: UnresolvedOperand, default: Attribute
) -> Attribute:
    """The type of an already defined value (so the verifier names a wrong one), else `default`."""
    values = parser.ssa_values.get(operand.operand_name)
    if values is not None and operand.index < len(values):
        return values[operand.index].type
    return default


def _parse_keyword_operand(parser: Parser, keyword: str, typed: bool) -> SSAValue:
    """`keyword(%v : T)` (typed) or `keyword(%v)` (an i32)."""
    parser.parse_keyword(keyword)
    return _parse_parenthesized_operand(parser, typed)


def _parse_optional_keyword_operand(parser: Parser, keyword: str, typed: bool) -> SSAValue | None:
    if parser.parse_optional_keyword(keyword) is None:
        return None
    return _parse_parenthesized_operand(parser, typed)


def _parse_parenthesized_operand(parser: Parser, typed: bool) -> SSAValue:
    parser.parse_punctuation("(")
    value = parser.parse_unresolved_operand()
    type_: Attribute = i32
    if typed:
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
    parser.parse_punctuation(")")
    return parser.resolve_operand(value, type_)


def _print_keyword_operand(
    printer: Printer, keyword: str, value: SSAValue | None, typed: bool
) -> None:
    if value is None:
        return
    printer.print_string(f" {keyword}(")
    printer.print_operand(value)
    if typed:
        printer.print_string(" : ")
        printer.print_attribute(value.type)
    printer.print_string(")")


@irdl_op_definition
class EnqueueDMAOp(IRDLOperation):
    """`tpu.enqueue_dma source(%a : A) target(%b : B) [source_semaphore(%s : S)]
    target_semaphore(%t : S) [device_id(%d)] [core_id(%c)]`."""

    name = "tpu.enqueue_dma"

    source = operand_def(MemRefType)
    source_semaphore = opt_operand_def(MemRefType)
    target = operand_def(MemRefType)
    target_semaphore = operand_def(MemRefType)
    device_id = opt_operand_def(i32)
    core_id = opt_operand_def(i32)
    priority = prop_def(IntegerAttr[I32], default_value=IntegerAttr(0, 32))

    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())

    @classmethod
    def parse(cls, parser: Parser) -> EnqueueDMAOp:
        source = _parse_keyword_operand(parser, "source", True)
        target = _parse_keyword_operand(parser, "target", True)
        source_semaphore = _parse_optional_keyword_operand(parser, "source_semaphore", True)
        target_semaphore = _parse_keyword_operand(parser, "target_semaphore", True)
        device_id = _parse_optional_keyword_operand(parser, "device_id", False)
        core_id = _parse_optional_keyword_operand(parser, "core_id", False)
        properties, attributes = _Syntax.attributes(parser, ("priority",))
        return cls.build(
            operands=[
                source,
                _optional(source_semaphore),
                target,
                target_semaphore,
                _optional(device_id),
                _optional(core_id),
            ],
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        _print_keyword_operand(printer, "source", self.source, True)
        _print_keyword_operand(printer, "target", self.target, True)
        _print_keyword_operand(printer, "source_semaphore", self.source_semaphore, True)
        _print_keyword_operand(printer, "target_semaphore", self.target_semaphore, True)
        _print_keyword_operand(printer, "device_id", self.device_id, False)
        _print_keyword_operand(printer, "core_id", self.core_id, False)
        _Syntax.print_attributes(printer, self, {"priority": IntegerAttr(0, 32)})

    def verify_(self) -> None:
        source, target = _memref(self.source), _memref(self.target)
        if source.get_shape() != target.get_shape():
            raise VerifyException(
                f"Expected the source and target shapes to match: {list(source.get_shape())} vs "
                f"{list(target.get_shape())}"
            )
        if source.element_type != target.element_type:
            raise VerifyException("Expected the source and target element types to match")
        for semaphore in (self.source_semaphore, self.target_semaphore):
            if semaphore is not None:
                _check_semaphore_memref(
                    semaphore.type, (SemaphoreType, DMASemaphoreType), "semaphores"
                )
                _check_rank_zero(_memref(semaphore))


@irdl_op_definition
class WaitDMA2Op(IRDLOperation):
    """`tpu.wait_dma2 semaphore(%s : S) src(%a : A) dst(%b : B) [device_id(%d)] [core_id(%c)]`."""

    name = "tpu.wait_dma2"

    semaphore = operand_def(MemRefType)
    src = operand_def(MemRefType)
    dst = operand_def(MemRefType)
    device_id = opt_operand_def(i32)
    core_id = opt_operand_def(i32)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> WaitDMA2Op:
        semaphore = _parse_keyword_operand(parser, "semaphore", True)
        src = _parse_keyword_operand(parser, "src", True)
        dst = _parse_keyword_operand(parser, "dst", True)
        device_id = _parse_optional_keyword_operand(parser, "device_id", False)
        core_id = _parse_optional_keyword_operand(parser, "core_id", False)
        attributes = parser.parse_optional_attr_dict()
        return cls.build(
            operands=[semaphore, src, dst, _optional(device_id), _optional(core_id)],
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        _print_keyword_operand(printer, "semaphore", self.semaphore, True)
        _print_keyword_operand(printer, "src", self.src, True)
        _print_keyword_operand(printer, "dst", self.dst, True)
        _print_keyword_operand(printer, "device_id", self.device_id, False)
        _print_keyword_operand(printer, "core_id", self.core_id, False)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        _check_semaphore_memref(self.semaphore.type, (DMASemaphoreType,), "!tpu.dma_semaphore")
        _check_rank_zero(_memref(self.semaphore))
        if _memref(self.src).get_shape() != _memref(self.dst).get_shape():
            raise VerifyException("Expected the src and dst shapes to match")


TPU = Dialect(
    "tpu",
    [
        LoadOp,
        StoreOp,
        VectorLoadOp,
        VectorStoreOp,
        StridedLoadOp,
        StridedStoreOp,
        AssumeMultipleOp,
        MemRefSliceOp,
        MemRefSqueezeOp,
        MemRefReshapeOp,
        MemRefBitcastOp,
        DynamicRotateOp,
        IotaOp,
        MatmulOp,
        SemaphoreAllocOp,
        SemaphoreWaitOp,
        SemaphoreSignalOp,
        EnqueueDMAOp,
        WaitDMA2Op,
    ],
    [
        MemorySpaceAttr,
        TiledLayoutAttr,
        DotDimensionNumbersAttr,
        SemaphoreType,
        DMASemaphoreType,
    ],
)
