"""MLIR `vector` ops that Pallas TPU kernels use and xDSL 0.74 lacks.

    %5 = vector.multi_reduction <maximumf>, %4, %acc [1] : vector<8x128xf32> to vector<8xf32>
    %6 = vector.shape_cast %5 : vector<8xf32> to vector<8x1xf32>

    %7 = vector.contract {indexing_maps = [#lhs, #rhs, #acc],
           iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
           %a, %b, %c : vector<8x16xbf16>, vector<16x128xbf16> into vector<8x128xf32>

`multi_reduction` combines the source over `reduction_dims` into the
accumulator; `shape_cast` reshapes keeping the row-major element order;
`contract` is a generalized matmul: its indexing maps place each iteration
dimension in the operands, `reduction` dimensions are summed (the contracting
dimensions, in both lhs and rhs and not in the accumulator). All print in
MLIR's custom form and parse from it or the generic form.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from enum import StrEnum

from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    DenseArrayBase,
    StringAttr,
    VectorType,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.dialects.vector import CombiningKindAttr, CombiningKindFlag
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

FLOAT_ONLY_KINDS = {"minnumf", "maxnumf", "minimumf", "maximumf"}
INTEGER_ONLY_KINDS = {"minui", "minsi", "maxui", "maxsi", "and", "or", "xor"}


def _shape_of(type_: Attribute) -> tuple[int, ...]:
    """A vector's shape; a scalar counts as rank 0."""
    return type_.get_shape() if isinstance(type_, VectorType) else ()


def _element_of(type_: Attribute) -> Attribute:
    return type_.get_element_type() if isinstance(type_, VectorType) else type_


@irdl_op_definition
class MultiReductionOp(IRDLOperation):
    """`vector.multi_reduction <kind>, %src, %acc [dims] : S to A`."""

    name = "vector.multi_reduction"

    source = operand_def(VectorType)
    acc = operand_def(AnyAttr())
    dest = result_def(AnyAttr())
    kind = prop_def(CombiningKindAttr)
    reduction_dims = prop_def(DenseArrayBase.constr(i64))

    traits = traits_def(Pure())

    def __init__(
        self,
        kind: str,
        source: SSAValue | Operation,
        acc: SSAValue | Operation,
        dims: Sequence[int],
    ) -> None:
        acc_value = SSAValue.get(acc)
        super().__init__(
            operands=[source, acc_value],
            result_types=[acc_value.type],
            properties={
                "kind": CombiningKindAttr(CombiningKindFlag(kind)),
                "reduction_dims": DenseArrayBase.from_list(i64, list(dims)),
            },
        )

    @property
    def dims(self) -> tuple[int, ...]:
        return tuple(self.reduction_dims.get_values())

    @classmethod
    def parse(cls, parser: Parser) -> MultiReductionOp:
        kind = CombiningKindAttr.parse_parameter(parser)
        parser.parse_punctuation(",")
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        acc = parser.parse_unresolved_operand()
        dims = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_keyword("to")
        acc_type = parser.parse_type()
        source_value, acc_value = parser.resolve_operands(
            [source, acc], [source_type, acc_type], parser.pos
        )
        op = cls(kind, source_value, acc_value, dims)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" <{self.kind.data}>, ")
        printer.print_list((self.source, self.acc), printer.print_operand)
        printer.print_string(f" [{', '.join(map(str, self.dims))}]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" : {self.source.type} to {self.acc.type}")

    def verify_(self) -> None:
        source_shape = _shape_of(self.source.type)
        dims = self.dims
        if any(d < 0 or d >= len(source_shape) for d in dims) or len(set(dims)) != len(dims):
            raise VerifyException(
                f"'vector.multi_reduction' op reduction dims {list(dims)} out of range or "
                f"repeated for rank {len(source_shape)}"
            )
        kept = tuple(size for d, size in enumerate(source_shape) if d not in dims)
        if kept != _shape_of(self.acc.type):
            raise VerifyException(
                f"'vector.multi_reduction' op destination shape {list(_shape_of(self.acc.type))} "
                f"is incompatible with the source shape {list(source_shape)} reduced over "
                f"{list(dims)}"
            )
        element = _element_of(self.source.type)
        if element != _element_of(self.acc.type):
            raise VerifyException(
                "'vector.multi_reduction' op source and accumulator element types differ"
            )
        is_float = isa(element, AnyFloat)
        kind = self.kind.data
        if (is_float and kind in INTEGER_ONLY_KINDS) or (not is_float and kind in FLOAT_ONLY_KINDS):
            raise VerifyException(
                f"'vector.multi_reduction' op unsupported reduction kind '{kind}' for "
                f"element type {element}"
            )


@irdl_op_definition
class ShapeCastOp(IRDLOperation):
    """`vector.shape_cast %v : vector<8xf32> to vector<8x1xf32>`: same elements, new shape."""

    name = "vector.shape_cast"

    source = operand_def(VectorType)
    result = result_def(VectorType)

    traits = traits_def(Pure())

    assembly_format = "$source attr-dict `:` type($source) `to` type($result)"

    def __init__(self, source: SSAValue | Operation, result_type: VectorType) -> None:
        super().__init__(operands=[source], result_types=[result_type])

    def verify_(self) -> None:
        source, result = self.source.type, self.result.type
        assert isinstance(source, VectorType) and isinstance(result, VectorType)
        if source.get_element_type() != result.get_element_type():
            raise VerifyException("'vector.shape_cast' op source and result element types differ")
        if math.prod(source.get_shape()) != math.prod(result.get_shape()):
            raise VerifyException(
                f"'vector.shape_cast' op source {source} and result {result} have different "
                "element counts"
            )


class IteratorType(StrEnum):
    PARALLEL = "parallel"
    REDUCTION = "reduction"


@irdl_attr_definition
class IteratorTypeAttr(EnumAttribute[IteratorType]):
    """`#vector.iterator_type<parallel>`: how `vector.contract` treats an iteration dimension."""

    name = "vector.iterator_type"

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data}>")

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> IteratorType:
        with parser.in_angle_brackets():
            return IteratorType(parser.parse_identifier())


# The attributes MLIR prints inside the leading dictionary of `vector.contract`.
_CONTRACT_TRAITS = ("indexing_maps", "iterator_types", "kind")


@irdl_op_definition
class ContractOp(IRDLOperation):
    """`vector.contract {indexing_maps, iterator_types, kind} %lhs, %rhs, %acc : L, R into A`."""

    name = "vector.contract"

    lhs = operand_def(VectorType)
    rhs = operand_def(VectorType)
    acc = operand_def(AnyAttr())
    result = result_def(AnyAttr())
    indexing_maps = prop_def(ArrayAttr[AffineMapAttr])
    iterator_types = prop_def(ArrayAttr[IteratorTypeAttr])
    kind = prop_def(CombiningKindAttr)

    traits = traits_def(Pure())

    def __init__(
        self,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        acc: SSAValue | Operation,
        maps: Sequence[AffineMap],
        iterators: Sequence[str],
        kind: str = "add",
    ) -> None:
        acc_value = SSAValue.get(acc)
        super().__init__(
            operands=[lhs, rhs, acc_value],
            result_types=[acc_value.type],
            properties={
                "indexing_maps": ArrayAttr(AffineMapAttr(m) for m in maps),
                "iterator_types": ArrayAttr(IteratorTypeAttr(IteratorType(i)) for i in iterators),
                "kind": CombiningKindAttr(CombiningKindFlag(kind)),
            },
        )

    @property
    def maps(self) -> tuple[AffineMap, ...]:
        return tuple(m.data for m in self.indexing_maps)

    @property
    def iterators(self) -> tuple[str, ...]:
        return tuple(i.data.value for i in self.iterator_types)

    @classmethod
    def parse(cls, parser: Parser) -> ContractOp:
        traits = parser.parse_optional_attr_dict()
        operands = [parser.parse_unresolved_operand()]
        for _ in range(2):
            parser.parse_punctuation(",")
            operands.append(parser.parse_unresolved_operand())
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = [parser.parse_type()]
        parser.parse_punctuation(",")
        types.append(parser.parse_type())
        parser.parse_keyword("into")
        types.append(parser.parse_type())
        lhs, rhs, acc = parser.resolve_operands(operands, types, parser.pos)
        maps = traits.pop("indexing_maps", None)
        iterators = traits.pop("iterator_types", None)
        kind = traits.pop("kind", CombiningKindAttr(CombiningKindFlag.ADD))
        if not isa(maps, ArrayAttr[AffineMapAttr]) or not isinstance(iterators, ArrayAttr):
            parser.raise_error("'vector.contract' needs indexing_maps and iterator_types")
        if not isinstance(kind, CombiningKindAttr):
            parser.raise_error(f"'vector.contract' kind must be a #vector.kind, got {kind}")
        if traits:
            parser.raise_error(
                f"'vector.contract' has unexpected attributes {', '.join(sorted(traits))}"
            )
        names = [_iterator_name(i) for i in iterators]
        if any(name not in IteratorType.__members__.values() for name in names):
            parser.raise_error(
                f"'vector.contract' iterator types must be parallel or reduction, got {names}"
            )
        op = cls(lhs, rhs, acc, [m.data for m in maps], names, kind.data)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        maps = ", ".join(f"affine_map<{m}>" for m in self.maps)
        iterators = ", ".join(f'"{i}"' for i in self.iterators)
        printer.print_string(
            f" {{indexing_maps = [{maps}], iterator_types = [{iterators}], "
            f"kind = #vector.kind<{self.kind.data}>}} "
        )
        printer.print_list((self.lhs, self.rhs, self.acc), printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" : {self.lhs.type}, {self.rhs.type} into {self.result.type}")

    def verify_(self) -> None:
        if self.result.type != self.acc.type:
            raise VerifyException(
                f"'vector.contract' op result type {self.result.type} differs from the "
                f"accumulator type {self.acc.type}"
            )
        maps, iterators = self.maps, self.iterators
        operands = (("lhs", self.lhs), ("rhs", self.rhs), ("acc", self.acc))
        if len(maps) != 3:
            raise VerifyException("'vector.contract' op expected an indexing map for each operand")
        for number, (map_, (_, value)) in enumerate(zip(maps, operands, strict=True)):
            _verify_contract_map(number, map_, len(iterators), len(_shape_of(value.type)))
        placed = [[r.position for r in m.results] for m in maps]  # type: ignore[attr-defined]
        for dim, iterator in enumerate(iterators):
            in_lhs, in_rhs, in_acc = (dim in p for p in placed)
            if iterator == "reduction" and not (in_lhs and in_rhs and not in_acc):
                raise VerifyException(
                    f"'vector.contract' op reduction dimension d{dim} must index both lhs "
                    "and rhs and not the accumulator"
                )
            if iterator == "parallel" and not in_acc:
                raise VerifyException(
                    f"'vector.contract' op parallel dimension d{dim} must index the accumulator"
                )
        _verify_contract_extents(operands, placed, len(iterators))


def _iterator_name(attr: Attribute) -> str:
    """MLIR prints iterator types as strings and reads them as strings or enum attributes."""
    if isinstance(attr, StringAttr):
        return attr.data
    if isinstance(attr, IteratorTypeAttr):
        return attr.data.value
    return str(attr)


def _verify_contract_map(number: int, map_: AffineMap, dims: int, rank: int) -> None:
    """MLIR's rules for one indexing map: no symbols, one input per iteration
    dimension, one result per operand dimension, each a distinct dimension."""
    where = f"'vector.contract' op indexing map {number}"
    if map_.num_symbols:
        raise VerifyException(f"{where} must have no symbols")
    if map_.num_dims != dims:
        raise VerifyException(f"{where} must have {dims} inputs, one per iterator type")
    if len(map_.results) != rank:
        raise VerifyException(f"{where} must have {rank} results, the operand's rank")
    positions = [r.position for r in map_.results if isinstance(r, AffineDimExpr)]
    if len(positions) != rank or len(set(positions)) != rank:
        raise VerifyException(f"{where} must be a projected permutation of its inputs")


def _verify_contract_extents(
    operands: Sequence[tuple[str, SSAValue]], placed: Sequence[Sequence[int]], dims: int
) -> None:
    """Every iteration dimension has one extent wherever it appears."""
    seen: dict[int, tuple[int, str]] = {}
    for (name, value), positions in zip(operands, placed, strict=True):
        for extent, dim in zip(_shape_of(value.type), positions, strict=True):
            first = seen.setdefault(dim, (extent, name))
            if first[0] != extent:
                raise VerifyException(
                    f"'vector.contract' op dimension d{dim} has extent {first[0]} in "
                    f"{first[1]} but {extent} in {name}"
                )


MOSAIC_VECTOR_OPS: tuple[type[IRDLOperation], ...] = (MultiReductionOp, ShapeCastOp, ContractOp)
MOSAIC_VECTOR_ATTRIBUTES = (IteratorTypeAttr,)
