"""`tpu` semaphores and DMA."""

from __future__ import annotations

from xdsl.dialects.builtin import I32, IntegerAttr, MemRefType, i32
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.tpu.attributes import DMASemaphoreType, SemaphoreType
from xla_emit.dialects.tpu.helpers import Syntax, check_semaphore_memref, memref_of


@irdl_op_definition
class SemaphoreAllocOp(IRDLOperation):
    """`%s = tpu.sem_alloc : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>`."""

    name = "tpu.sem_alloc"

    result = result_def(MemRefType)

    assembly_format = "attr-dict `:` type($result)"

    def verify_(self) -> None:
        check_semaphore_memref(self.result.type, (SemaphoreType, DMASemaphoreType), "semaphores")


@irdl_op_definition
class SemaphoreWaitOp(IRDLOperation):
    """`tpu.sem_wait %sem, %n : memref<!tpu.semaphore, ...>`: wait for a count of n, take it."""

    name = "tpu.sem_wait"

    semaphore = operand_def(MemRefType)
    amount = operand_def(i32)

    assembly_format = "$semaphore `,` $amount attr-dict `:` type($semaphore)"

    def verify_(self) -> None:
        check_semaphore_memref(self.semaphore.type, (SemaphoreType,), "!tpu.semaphore")
        _check_rank_zero(memref_of(self.semaphore))


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
        check_semaphore_memref(self.semaphore.type, (SemaphoreType,), "!tpu.semaphore")
        _check_rank_zero(memref_of(self.semaphore))


def _optional(value: SSAValue | None) -> list[SSAValue]:
    return [value] if value is not None else []


def _resolve_optional(
    parser: Parser, value: UnresolvedOperand | None, type_: Attribute
) -> list[SSAValue]:
    return [parser.resolve_operand(value, type_)] if value is not None else []


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
        properties, attributes = Syntax.attributes(parser, ("priority",))
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
        Syntax.print_attributes(printer, self, {"priority": IntegerAttr(0, 32)})

    def verify_(self) -> None:
        source, target = memref_of(self.source), memref_of(self.target)
        if source.get_shape() != target.get_shape():
            raise VerifyException(
                f"Expected the source and target shapes to match: {list(source.get_shape())} vs "
                f"{list(target.get_shape())}"
            )
        if source.element_type != target.element_type:
            raise VerifyException("Expected the source and target element types to match")
        for semaphore in (self.source_semaphore, self.target_semaphore):
            if semaphore is not None:
                check_semaphore_memref(
                    semaphore.type, (SemaphoreType, DMASemaphoreType), "semaphores"
                )
                _check_rank_zero(memref_of(semaphore))


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
        check_semaphore_memref(self.semaphore.type, (DMASemaphoreType,), "!tpu.dma_semaphore")
        _check_rank_zero(memref_of(self.semaphore))
        if memref_of(self.src).get_shape() != memref_of(self.dst).get_shape():
            raise VerifyException("Expected the src and dst shapes to match")
