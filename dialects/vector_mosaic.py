"""MLIR `vector` ops that Pallas TPU kernels use and xDSL 0.74 lacks.

    %5 = vector.multi_reduction <maximumf>, %4, %acc [1] : vector<8x128xf32> to vector<8xf32>
    %6 = vector.shape_cast %5 : vector<8xf32> to vector<8x1xf32>

`multi_reduction` combines the source over `reduction_dims` into the
accumulator; `shape_cast` reshapes keeping the row-major element order.
Both print in MLIR's custom form and parse from it or the generic form.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects.builtin import AnyFloat, DenseArrayBase, VectorType, i64
from xdsl.dialects.vector import CombiningKindAttr, CombiningKindFlag
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
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


MOSAIC_VECTOR_OPS: tuple[type[IRDLOperation], ...] = (MultiReductionOp, ShapeCastOp)
