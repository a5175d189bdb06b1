"""Parsing, printing and verification helpers shared by the `xla` and `xla_gpu` ops."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import SymbolRefAttr, TensorType, VectorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.xla.attributes import IndexingMapAttrBase


def parse_operand_list(parser: Parser, delimiter: Parser.Delimiter) -> list[UnresolvedOperand]:
    return parser.parse_comma_separated_list(delimiter, parser.parse_unresolved_operand)


def parse_map_attr(parser: Parser) -> IndexingMapAttrBase:
    start = parser.pos
    attr = parser.parse_attribute()
    if not isinstance(attr, IndexingMapAttrBase):
        parser.raise_error(f"expected an indexing map attribute, but got {attr}", start, parser.pos)
    return attr


def print_values(printer: Printer, values: Sequence[SSAValue]) -> None:
    printer.print_list(values, printer.print_operand)


def print_types(printer: Printer, types: Sequence[Attribute]) -> None:
    printer.print_list(types, printer.print_attribute)


def shaped_element_type(type_: Attribute) -> Attribute | None:
    if isinstance(type_, TensorType | VectorType):
        return type_.get_element_type()
    return None


def parse_tensor_type(parser: Parser) -> tuple[Attribute, Attribute, int]:
    """`: tensor<...>`: the type, its element type and the position it starts at."""
    parser.parse_punctuation(":")
    type_start = parser.pos
    tensor_type = parser.parse_type()
    element_type = shaped_element_type(tensor_type)
    if element_type is None:
        parser.raise_error(f"expected a tensor type, but got {tensor_type}", type_start)
    return tensor_type, element_type, type_start


def verify_index_count(tensor_type: Attribute, indices: Sequence[SSAValue]) -> None:
    if isinstance(tensor_type, TensorType) and len(indices) != tensor_type.get_num_dims():
        raise VerifyException(
            f"expected {tensor_type.get_num_dims()} indices, but got {len(indices)}. "
            f"There is one index per dimension of {tensor_type}"
        )


def nearest_symbol_table(op: Operation) -> Operation | None:
    """The closest ancestor of `op` that holds symbols; None for an op not in a module yet."""
    anchor = op.parent_op()
    while anchor is not None and not anchor.has_trait(SymbolTable):
        anchor = anchor.parent_op()
    return anchor


def lookup_function(symbol_table: Operation, callee: SymbolRefAttr) -> FuncOp | None:
    """The `func.func` that `callee` names in `symbol_table`, or None."""
    found = SymbolTable.lookup_symbol(symbol_table, callee)
    return found if isinstance(found, FuncOp) else None


# ----------------------------------------------------------------------------
