"""Verifiers of the `tpu` ops defined in `catalog`: Mosaic's checks (`tpu_ops.cc`) by op.

Each function takes the op and raises `VerifyException` with the message
Mosaic gives, where it gives one; factories return a check over named fields.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, MemRefType, VectorType, i32
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.tpu.attributes import DMASemaphoreType, SemaphoreType
from xla_emit.dialects.tpu.helpers import element_bitwidth

Check = Callable[[IRDLOperation], None]


def _type(op: IRDLOperation, field: str) -> Attribute:
    value = getattr(op, field)
    assert isinstance(value, SSAValue)
    return value.type


def _shape(type_: Attribute) -> tuple[int, ...]:
    return type_.get_shape() if isinstance(type_, VectorType | MemRefType) else ()


def _int(op: IRDLOperation, field: str) -> int:
    attr = getattr(op, field)
    assert isinstance(attr, IntegerAttr)
    return attr.value.data


def _ints(op: IRDLOperation, field: str) -> list[int]:
    attr = getattr(op, field)
    assert isinstance(attr, DenseArrayBase)
    return [int(v) for v in attr.get_values()]


def check_same_shape(source: str, target: str) -> Check:
    def check(op: IRDLOperation) -> None:
        if _shape(_type(op, source)) != _shape(_type(op, target)):
            raise VerifyException(
                f"'{op.name}' op requires the same shape for all operands and results"
            )

    return check


def check_same_type(source: str, target: str) -> Check:
    def check(op: IRDLOperation) -> None:
        if _type(op, source) != _type(op, target):
            raise VerifyException(
                f"'{op.name}' op requires the same type for all operands and results"
            )

    return check


def check_same_element_count(source: str, target: str) -> Check:
    def check(op: IRDLOperation) -> None:
        before, after = _shape(_type(op, source)), _shape(_type(op, target))
        if math.prod(before) != math.prod(after):
            raise VerifyException(
                f"Number of elements must be the same: {math.prod(before)} vs {math.prod(after)}"
            )

    return check


def check_reduction_dim(field: str) -> Check:
    def check(op: IRDLOperation) -> None:
        rank = len(_shape(op.operands[0].type))
        dim = _int(op, field)
        if not 0 <= dim < rank:
            raise VerifyException(f"Invalid {field}: {dim}, expected it in [0, {rank})")

    return check


def check_bitcast(op: IRDLOperation) -> None:
    """The second-minor dim scales inversely with the element width; the rest is unchanged."""
    source, target = _type(op, "input"), _type(op, "output")
    assert isinstance(source, VectorType) and isinstance(target, VectorType)
    in_bits = element_bitwidth(source.get_element_type()) or 0
    out_bits = element_bitwidth(target.get_element_type()) or 0
    in_shape, out_shape = list(source.get_shape()), list(target.get_shape())
    if len(in_shape) < 2 or len(in_shape) != len(out_shape):
        raise VerifyException("Expected input and output of the same rank, at least 2")
    if in_shape[-2] * in_bits != out_shape[-2] * out_bits or (
        in_shape[:-2] + in_shape[-1:] != out_shape[:-2] + out_shape[-1:]
    ):
        raise VerifyException(
            f"Expected input and output shapes to match up to the second-minor dim scaled by "
            f"the bitwidth ratio, got {source} and {target}"
        )


def check_transpose(op: IRDLOperation) -> None:
    source, result = _shape(_type(op, "vector")), _shape(_type(op, "result"))
    permutation = _ints(op, "permutation")
    if sorted(permutation) != list(range(len(source))):
        raise VerifyException(
            f"Expected a permutation of [0, {len(source)}), but got {permutation}"
        )
    expected = tuple(source[p] for p in permutation)
    if result != expected:
        raise VerifyException(f"Expected the result shape {list(expected)}, but got {list(result)}")


def check_concatenate(op: IRDLOperation) -> None:
    shapes = [_shape(value.type) for value in op.operands]
    dim = _int(op, "dimension")
    if not shapes:
        raise VerifyException("Expected at least 1 operand")
    rank = len(shapes[0])
    if not 0 <= dim < rank:
        raise VerifyException(f"Invalid dimension: {dim}, expected it in [0, {rank})")
    elements = {value.type.get_element_type() for value in op.operands}  # type: ignore[union-attr]
    if len(elements) != 1:
        raise VerifyException("Not all operands have the same element type")
    expected = list(shapes[0])
    expected[dim] = sum(shape[dim] for shape in shapes)
    for shape in shapes:
        if len(shape) != rank or any(shape[d] != shapes[0][d] for d in range(rank) if d != dim):
            raise VerifyException("Not all operands have the same shape outside the dimension")
    if list(_shape(op.results[0].type)) != expected:
        raise VerifyException(f"Expected the result shape {expected}")


def check_sort(op: IRDLOperation) -> None:
    keys = _shape(_type(op, "keys"))
    for value in (*op.operands, *op.results):
        if _shape(value.type) != keys:
            raise VerifyException("Expected keys, values, mask and results of one shape")


def check_erase_layout(op: IRDLOperation) -> None:
    source, result = _type(op, "operand"), _type(op, "result")
    assert isinstance(source, MemRefType) and isinstance(result, MemRefType)
    if source.get_shape() != result.get_shape() or source.element_type != result.element_type:
        raise VerifyException("Expected the same shape and element type without the layout")


def check_i32_result(op: IRDLOperation) -> None:
    if op.results[0].type != i32:
        raise VerifyException(f"'{op.name}' op result must be i32, got {op.results[0].type}")


def check_rank0_semaphore(op: IRDLOperation) -> None:
    semaphore = op.operands[0].type
    if not isinstance(semaphore, MemRefType) or not isinstance(
        semaphore.element_type, SemaphoreType | DMASemaphoreType
    ):
        raise VerifyException(f"Expected a semaphore memref, but got {semaphore}")
    if semaphore.get_shape():
        raise VerifyException("Semaphore reference must be rank 0")
