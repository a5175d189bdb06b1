"""`MEMREF`: xDSL's `memref` dialect with `memref.reinterpret_cast` verified as MLIR does.

xDSL 0.74 requires a dynamic size operand to give a dynamic result dimension.
MLIR (and so PTOAS, which builds on it) allows a static result dimension there:
the size operand is only known at run time, and the result type states what the
program promises it is. PTOAS's own kernels rely on it:

    %v = memref.reinterpret_cast %m to offset: [%c0], sizes: [%c1, %c16],
        strides: [%c16, %c1] : memref<16xi16> to memref<1x16xi16, strided<[16, 1], offset: ?>>

Like MLIR, a size, stride or offset is checked against the result type only where
both are static; the memory space and the element type must be the source's.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import memref
from xdsl.dialects.builtin import DYNAMIC_INDEX, AffineMapAttr, MemRefType
from xdsl.dialects.utils import verify_dynamic_index_list
from xdsl.ir import Dialect
from xdsl.ir.affine import AffineDimExpr
from xdsl.irdl import (
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


class ReinterpretCastOp(memref.ReinterpretCastOp):
    """`memref.reinterpret_cast` with MLIR's verifier.

    A plain subclass: it keeps xDSL's definition (fields, syntax, properties) and
    only replaces the op-specific check, which the IRDL verifier calls last.
    """

    def verify_(self) -> None:
        offsets = self.static_offsets.get_values()
        sizes = self.static_sizes.get_values()
        strides = self.static_strides.get_values()
        for static, dynamic, what in (
            (sizes, self.sizes, "size"),
            (offsets, self.offsets, "offset"),
            (strides, self.strides, "stride"),
        ):
            verify_dynamic_index_list(static, dynamic, DYNAMIC_INDEX, f" in the {what} arguments")
        source, result = self.source.type, self.result.type
        assert isinstance(source, MemRefType) and isinstance(result, MemRefType)
        if source.memory_space != result.memory_space:
            raise VerifyException(
                f"different memory spaces specified for source type {source} "
                f"and result memref type {result}"
            )
        if source.element_type != result.element_type:
            raise VerifyException(
                f"different element types specified for source type {source} "
                f"and result memref type {result}"
            )
        rank = len(result.get_shape())
        if len(offsets) != 1 or len(sizes) != rank or len(strides) != rank:
            raise VerifyException(
                f"expected 1 offset and {rank} sizes and strides for the rank-{rank} result, "
                f"but got {len(offsets)}, {len(sizes)} and {len(strides)}"
            )
        _check_static("size", sizes, result.get_shape())
        result_strides = result.get_strides()
        if result_strides is None:
            raise VerifyException(f"expected result type to have strided layout but found {result}")
        _check_static("offset", offsets, [result.get_offset()])
        _check_static("stride", strides, result_strides)


def _check_static(what: str, given: Sequence[int], typed: Sequence[int | None]) -> None:
    """Raise where an operand and the result type are both static and disagree."""
    for dim, (operand, declared) in enumerate(zip(given, typed, strict=True)):
        if DYNAMIC_INDEX in (operand, declared) or declared is None:
            continue
        if operand != declared:
            where = "" if what == "offset" else f" in dim = {dim}"
            raise VerifyException(
                f"expected result type with {what} = {operand} instead of {declared}{where}"
            )


@irdl_op_definition
class TransposeOp(IRDLOperation):
    """`%t = memref.transpose %m (d0, d1) -> (d1, d0) : memref<4x8xf32> to memref<8x4xf32,
    strided<[1, 8]>>`: the same buffer viewed with its dimensions permuted.

    XLA's Triton pipeline makes these when it folds a transposed operand of a dot
    into the operand's strides."""

    name = "memref.transpose"

    input = operand_def(MemRefType)
    permutation = prop_def(AffineMapAttr)
    result = result_def(MemRefType)

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> TransposeOp:
        source = parser.parse_unresolved_operand()
        permutation = AffineMapAttr(parser.parse_affine_map())
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_keyword("to")
        result_type = parser.parse_type()
        (value,) = parser.resolve_operands([source], [source_type], parser.pos)
        return cls.create(
            operands=[value],
            result_types=[result_type],
            properties={"permutation": permutation},
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.input)
        printer.print_string(f" {self.permutation.data}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.input.type)
        printer.print_string(" to ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        source, result = self.input.type, self.result.type
        assert isinstance(source, MemRefType) and isinstance(result, MemRefType)
        permutation = self.permutation.data
        rank = source.get_num_dims()
        order = [
            expr.position if isinstance(expr, AffineDimExpr) else -1 for expr in permutation.results
        ]
        if permutation.num_dims != rank or sorted(order) != list(range(rank)):
            raise VerifyException(
                f"expected a permutation of the {rank} dimensions of {source}, "
                f"but got {permutation}"
            )
        shape = source.get_shape()
        expected = tuple(shape[i] for i in order)
        if tuple(result.get_shape()) != expected or (
            result.get_element_type() != source.get_element_type()
        ):
            raise VerifyException(
                f"expected a result of shape {list(expected)} and element type "
                f"{source.get_element_type()}, but got {result}"
            )


MEMREF = Dialect(
    "memref",
    [
        *(
            ReinterpretCastOp if op is memref.ReinterpretCastOp else op
            for op in memref.MemRef.operations
        ),
        TransposeOp,
    ],
    [*memref.MemRef.attributes],
)
