"""`pto.cmo.cacheinvalid`: invalidate global memory's cache, all of it or the line
holding one address, in PTOAS's syntax:

    pto.cmo.cacheinvalid all #pto.address_space<gm>
    pto.cmo.cacheinvalid %view single_cache_line : !pto.partition_tensor_view<16x16xf32>
"""

from __future__ import annotations

from typing import Self

from xdsl.irdl import IRDLOperation, irdl_op_definition, opt_operand_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.attrs import AddressSpaceAttr
from xla_emit.dialects.pto.types import PartitionTensorViewType, PtrType, TensorViewType


@irdl_op_definition
class CmoCacheInvalidOp(IRDLOperation):
    """Invalidate the cache of a memory (PTOAS allows global memory only)."""

    name = "pto.cmo.cacheinvalid"
    addr = opt_operand_def()
    space = prop_def(AddressSpaceAttr)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        if parser.parse_optional_keyword("all") is not None:
            space = parser.parse_attribute()
            attributes = parser.parse_optional_attr_dict()
            op = cls.build(operands=[[]], properties={"space": space})
        else:
            addr = parser.parse_unresolved_operand()
            parser.parse_keyword("single_cache_line")
            parser.parse_punctuation(":")
            operand = parser.resolve_operand(addr, parser.parse_type())
            attributes = parser.parse_optional_attr_dict()
            space = attributes.pop("space", AddressSpaceAttr("gm"))
            op = cls.build(operands=[[operand]], properties={"space": space})
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        if self.addr is not None:
            printer.print_string(" ")
            printer.print_operand(self.addr)
            printer.print_string(" single_cache_line : ")
            printer.print_attribute(self.addr.type)
        else:
            printer.print_string(" all ")
            printer.print_attribute(self.space)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if self.space.data not in ("gm", "zero"):
            raise VerifyException("only supports GM cache maintenance")
        if self.addr is None:
            return
        kind = self.addr.type
        in_gm = isinstance(kind, TensorViewType | PartitionTensorViewType) or (
            isinstance(kind, PtrType) and kind.is_global
        )
        if not in_gm:
            raise VerifyException(
                "single_cache_line address expects a GM pointer or GM tensor view"
            )
