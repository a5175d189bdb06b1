"""`pto.subview`: a window of a tile buffer, PTOAS main's tile view op.

    %s = pto.subview %t[%i, %j] sizes [16, 8] [valid [%vr, %vc]] {attrs}
           : !pto.tile_buf<...> [-> !pto.tile_buf<...>]

The result is a tile_buf of shape `sizes` in the source's memory and layout; its
valid shape is `sizes`, or the explicit valid operands clipped to `sizes` (dynamic
where they are not constants). Without `->` the result type is inferred so.
The verifier makes PTOAS's checks.
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import ArrayAttr, IndexType, IntAttr, IntegerAttr, i64
from xdsl.ir import SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.types import DYNAMIC, TileBufType

_INDEX = IndexType()


def constant_int(value: SSAValue) -> int | None:
    """The integer an `arith.constant` gives `value`, else None."""
    op = value.owner
    if isinstance(op, ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    return None


def _valid(sizes: list[int], operands: list[SSAValue | None]) -> list[int]:
    """The valid shape PTOAS infers: sizes, or the explicit operands clipped to them
    (dynamic where they are not constants)."""
    valid = []
    for size, operand in zip(sizes, operands, strict=True):
        value = None if operand is None else constant_int(operand)
        valid.append(size if operand is None else DYNAMIC if value is None else min(value, size))
    return valid


def _window_type(source: TileBufType, sizes: list[int], valid: list[int]) -> TileBufType:
    params = list(source.parameters)
    params[2], params[3] = IntAttr(sizes[0]), IntAttr(sizes[1])
    params[4], params[5] = IntAttr(valid[0]), IntAttr(valid[1])
    return TileBufType.new(params)


@irdl_op_definition
class SubViewOp(IRDLOperation):
    """A `sizes` window of `source` at `offsets` (two index values)."""

    name = "pto.subview"
    source = operand_def(TileBufType)
    offsets = var_operand_def(_INDEX)
    valid_row = opt_operand_def(_INDEX)
    valid_col = opt_operand_def(_INDEX)
    sizes = prop_def(ArrayAttr[IntegerAttr])
    result = result_def(TileBufType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def sizes_list(self) -> list[int]:
        return [attr.value.data for attr in self.sizes.data]

    def expected_valid(self) -> list[int]:
        return _valid(self.sizes_list(), [self.valid_row, self.valid_col])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        source = parser.parse_unresolved_operand()
        offsets = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        parser.parse_keyword("sizes")
        sizes_at = parser.pos
        sizes = parser.parse_attribute()
        if not isinstance(sizes, ArrayAttr) or not all(
            isinstance(size, IntegerAttr) for size in sizes.data
        ):
            parser.raise_error("expected the sizes as an integer array, as in [16, 8]", sizes_at)
        valid: list[UnresolvedOperand] = []
        if parser.parse_optional_keyword("valid") is not None:
            valid = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, parser.parse_unresolved_operand
            )
            if len(valid) != 2:
                parser.raise_error("valid takes two values, [valid_row, valid_col]")
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        result_type = parser.parse_type() if parser.parse_optional_punctuation("->") else None
        operands = [
            [parser.resolve_operand(source, source_type)],
            [parser.resolve_operand(offset, _INDEX) for offset in offsets],
            [parser.resolve_operand(valid[0], _INDEX)] if valid else [],
            [parser.resolve_operand(valid[1], _INDEX)] if valid else [],
        ]
        sizes_attr = ArrayAttr(
            IntegerAttr(size.value.data, i64)  # type: ignore[attr-defined]
            for size in sizes.data  # type: ignore[union-attr]
        )
        if result_type is None:
            sizes_list = [size.value.data for size in sizes_attr.data]
            if not isinstance(source_type, TileBufType) or len(sizes_list) != 2:
                parser.raise_error("failed to infer pto.subview result type")
            valid_values = [v[0] if v else None for v in operands[2:]]
            result_type = _window_type(source_type, sizes_list, _valid(sizes_list, valid_values))
        op = cls.build(
            operands=operands, properties={"sizes": sizes_attr}, result_types=[result_type]
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string("[")
        printer.print_list(self.offsets, printer.print_operand)
        printer.print_string("] sizes [")
        printer.print_string(", ".join(str(size) for size in self.sizes_list()))
        printer.print_string("]")
        if self.valid_row is not None and self.valid_col is not None:
            printer.print_string(" valid [")
            printer.print_operand(self.valid_row)
            printer.print_string(", ")
            printer.print_operand(self.valid_col)
            printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        src, dst = self.source.type, self.result.type
        assert isinstance(src, TileBufType) and isinstance(dst, TileBufType)
        sizes = self.sizes_list()
        if len(sizes) != 2:
            raise VerifyException("subview expects 2D sizes")
        if min(sizes) <= 0:
            raise VerifyException("subview sizes must be positive")
        if len(self.offsets) != 2:
            raise VerifyException("subview expects 2D offsets")
        if any((constant_int(offset) or 0) < 0 for offset in self.offsets):
            raise VerifyException("subview offsets must be non-negative")
        self._verify_valid_operands(sizes)
        if dst.shape != tuple(sizes):
            raise VerifyException("expects result shape to match subview sizes")
        if dst.element_type != src.element_type:
            raise VerifyException("expects result element type to match source")
        if dst.loc != src.loc:
            raise VerifyException("expects result address space to match source")
        layout = ("blayout", "slayout", "fractal", "pad", "compact")
        if any(getattr(dst, key) != getattr(src, key) for key in layout):
            raise VerifyException("expects result tile config to match source")
        self._verify_result_valid(sizes, dst)

    def _verify_valid_operands(self, sizes: list[int]) -> None:
        if (self.valid_row is None) != (self.valid_col is None):
            raise VerifyException(
                "subview expects valid_row and valid_col to be both present or both absent"
            )
        for name, operand, size in (
            ("valid_row", self.valid_row, sizes[0]),
            ("valid_col", self.valid_col, sizes[1]),
        ):
            value = None if operand is None else constant_int(operand)
            if value is not None and value < 0:
                raise VerifyException(f"{name} must be non-negative when constant")
            if value is not None and value > size:
                axis = "row" if name == "valid_row" else "col"
                raise VerifyException(f"{name} must be <= subview {axis} size")

    def _verify_result_valid(self, sizes: list[int], dst: TileBufType) -> None:
        # Without a valid operand the result type says the valid extent: any static
        # value in [0, size] (PTOAS's no-op replay marks an empty window with 0).
        expected = self.expected_valid()
        operands = (self.valid_row, self.valid_col)
        for axis, name in enumerate(("valid_row", "valid_col")):
            declared = dst.valid_shape[axis]
            inferred = operands[axis] is None and declared != DYNAMIC and declared >= 0
            if declared != expected[axis] and not (inferred and declared <= sizes[axis]):
                raise VerifyException(
                    f"expects result valid_shape[{axis}] to match inferred/explicit {name}"
                )
