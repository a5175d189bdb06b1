"""The base of ops that read one index of the launch grid: `gpu.thread_id`, `xla.workgroup_id`.

They share MLIR's syntax, `%r = gpu.thread_id  x {xla.range = [0 : index, 127 : index]}`,
and differ only in their name and in the enum attribute that holds the dimension.
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

from xdsl.dialects.builtin import IndexType
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation, result_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.str_enum import StrEnum


class GridIndexOpBase(IRDLOperation):
    """An index of the launch grid along `x`, `y` or `z`.

    Subclasses declare `dimension = prop_def(DIMENSION_ATTR)` and set the two class vars.
    """

    DIMENSION: ClassVar[type[StrEnum]]
    DIMENSION_ATTR: ClassVar[type[EnumAttribute[Any]]]

    result = result_def(IndexType)

    traits = traits_def(Pure())

    def __init__(self, dimension: StrEnum | str, attributes: dict[str, Attribute] | None = None):
        super().__init__(
            result_types=[IndexType()],
            properties={"dimension": self.DIMENSION_ATTR(self.DIMENSION(dimension))},
            attributes=attributes,
        )

    @property
    def dimension_name(self) -> str:
        """ "x", "y" or "z"."""
        attr = self.properties["dimension"]
        assert isinstance(attr, EnumAttribute), "the property constraint says so"
        return str(attr.data.value)  # pyright: ignore[reportUnknownMemberType, reportUnknownArgumentType]

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        dimension = parser.parse_str_enum(cls.DIMENSION)
        return cls(dimension, parser.parse_optional_attr_dict())

    def print(self, printer: Printer) -> None:
        # MLIR prints a space before the dimension on top of the one after the
        # op name; we print the same bytes.
        printer.print_string(f"  {self.dimension_name}")
        printer.print_op_attributes(self.attributes)
