"""The `xla` ops in their internal (today's) spelling, and the ops that have only that spelling."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Self

from xdsl.dialects.builtin import IndexType, TensorType, i1
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum
from xla_emit.dialects.grid_index import GridIndexOpBase
from xla_emit.dialects.xla.attributes import (
    IndexingMapAttr,
    IndexingMapAttrBase,
    WorkGroupDimension,
    WorkGroupDimensionAttr,
)
from xla_emit.dialects.xla.bases import ApplyIndexingOpBase, LoopOpBase, PureCallOpBase, YieldOpBase
from xla_emit.dialects.xla.syntax import (
    parse_operand_list,
    parse_tensor_type,
    print_values,
    shaped_element_type,
    verify_index_count,
)


@irdl_op_definition
class YieldOp(YieldOpBase):
    """`xla.yield`."""

    name = "xla.yield"


@irdl_op_definition
class ApplyIndexingOp(ApplyIndexingOpBase):
    """`xla.apply_indexing`."""

    name = "xla.apply_indexing"

    MAP_ATTR: ClassVar[type[IndexingMapAttrBase]] = IndexingMapAttr


@irdl_op_definition
class LoopOp(LoopOpBase):
    """`xla.loop`."""

    name = "xla.loop"

    MAP_ATTR: ClassVar[type[IndexingMapAttrBase]] = IndexingMapAttr
    YIELD: ClassVar[type[YieldOpBase]] = YieldOp


@irdl_op_definition
class PureCallOp(PureCallOpBase):
    """`xla.pure_call`."""

    name = "xla.pure_call"


@irdl_op_definition
class PredicatedInsertOp(IRDLOperation):
    """`%r = xla.predicated_insert %v into %t[%i] if %c : tensor<2xi32>`.

    `tensor.insert` when `%c` holds, else `%t` unchanged.
    """

    name = "xla.predicated_insert"

    T: ClassVar = VarConstraint("T", base(TensorType))

    value = operand_def()
    dest = operand_def(T)
    indices = var_operand_def(IndexType)
    condition = operand_def(i1)
    result = result_def(T)

    traits = traits_def(Pure())

    def __init__(
        self,
        value: SSAValue | Operation,
        dest: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation],
        condition: SSAValue | Operation,
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[value, dest, indices, condition],
            result_types=[SSAValue.get(dest).type],
            attributes=attributes,
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        value = parser.parse_unresolved_operand()
        parser.parse_keyword("into")
        dest = parser.parse_unresolved_operand()
        indices = parse_operand_list(parser, Parser.Delimiter.SQUARE)
        parser.parse_keyword("if")
        condition = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        tensor_type, element_type, type_start = parse_tensor_type(parser)
        return cls(
            parser.resolve_operand(value, element_type),
            parser.resolve_operand(dest, tensor_type),
            parser.resolve_operands(indices, [IndexType()] * len(indices), type_start),
            parser.resolve_operand(condition, i1),
            attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(" into ")
        printer.print_operand(self.dest)
        with printer.in_square_brackets():
            print_values(printer, self.indices)
        printer.print_string(" if ")
        printer.print_operand(self.condition)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.dest.type)

    def verify_(self) -> None:
        verify_index_count(self.dest.type, self.indices)
        element_type = shaped_element_type(self.dest.type)
        if self.value.type != element_type:
            raise VerifyException(
                f"expected the inserted value to be {element_type}, but got {self.value.type}. "
                "It must have the element type of the destination"
            )


@irdl_op_definition
class PredicatedExtractOp(IRDLOperation):
    """`%r = xla.predicated_extract %t[%i] if %c else %fallback : tensor<2xi32>`.

    `tensor.extract` when `%c` holds, else `%fallback`.
    """

    name = "xla.predicated_extract"

    src = operand_def(TensorType)
    indices = var_operand_def(IndexType)
    condition = operand_def(i1)
    fallback = operand_def()
    result = result_def()

    traits = traits_def(Pure())

    def __init__(
        self,
        src: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation],
        condition: SSAValue | Operation,
        fallback: SSAValue | Operation,
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[src, indices, condition, fallback],
            result_types=[SSAValue.get(fallback).type],
            attributes=attributes,
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        src = parser.parse_unresolved_operand()
        indices = parse_operand_list(parser, Parser.Delimiter.SQUARE)
        parser.parse_keyword("if")
        condition = parser.parse_unresolved_operand()
        parser.parse_keyword("else")
        fallback = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        tensor_type, element_type, type_start = parse_tensor_type(parser)
        return cls(
            parser.resolve_operand(src, tensor_type),
            parser.resolve_operands(indices, [IndexType()] * len(indices), type_start),
            parser.resolve_operand(condition, i1),
            parser.resolve_operand(fallback, element_type),
            attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        with printer.in_square_brackets():
            print_values(printer, self.indices)
        printer.print_string(" if ")
        printer.print_operand(self.condition)
        printer.print_string(" else ")
        printer.print_operand(self.fallback)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)

    def verify_(self) -> None:
        verify_index_count(self.src.type, self.indices)
        element_type = shaped_element_type(self.src.type)
        for role, value in (("fallback", self.fallback), ("result", self.result)):
            if value.type != element_type:
                raise VerifyException(
                    f"expected the {role} to be {element_type}, but got {value.type}. "
                    "It must have the element type of the source"
                )


@irdl_op_definition
class WorkgroupIdOp(GridIndexOpBase):
    """`%r = xla.workgroup_id x {xla.range = [0 : index, 1023 : index]}`: the block id."""

    name = "xla.workgroup_id"

    DIMENSION: ClassVar[type[StrEnum]] = WorkGroupDimension
    DIMENSION_ATTR: ClassVar[type[EnumAttribute[Any]]] = WorkGroupDimensionAttr

    dimension = prop_def(WorkGroupDimensionAttr)
