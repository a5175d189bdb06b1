"""`tpu` memref views: alignment hints, slices, squeezes, reshapes and bitcasts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import I32, IndexType, IntegerAttr, IntegerType, MemRefType, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.syntax import type_of_unresolved
from xla_emit.dialects.tpu.helpers import Syntax, element_bitwidth, memref_of


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
        mem_ref, base_idx = Syntax.base_and_indices(parser)
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
        offsets = [parser.resolve_operand(o, type_of_unresolved(parser, o, i32)) for o in base_idx]
        dynamic = [parser.resolve_operand(o, type_of_unresolved(parser, o, i32)) for o in sizes]
        return cls.build(
            operands=[parser.resolve_operand(mem_ref, source_type), offsets, dynamic],
            result_types=[result_type],
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        Syntax.print_base_and_indices(printer, self.mem_ref, self.base_idx)
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
        source, result = memref_of(self.mem_ref), memref_of(self.result)
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
        return memref_of(self.input), memref_of(self.result)

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
