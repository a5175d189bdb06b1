"""HLO element types and shapes as MLIR types, and the builder helper the emitters share.

Integers are signless, as in MLIR's arith dialect; the emitters pick signed or
unsigned ops from the HLO type.
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    ComplexType,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute, Block
from xdsl.rewriter import InsertPoint

from xla_emit.hlo.shape import ArrayShape, PrimitiveType

_FLOAT_TYPES: dict[PrimitiveType, AnyFloat] = {
    PrimitiveType.BF16: BFloat16Type(),
    PrimitiveType.F16: Float16Type(),
    PrimitiveType.F32: Float32Type(),
    PrimitiveType.F64: Float64Type(),
}


def element_type(ptype: PrimitiveType) -> AnyFloat | IntegerType | ComplexType:
    """The MLIR scalar type of an HLO element type (`pred` is `i1`, c64 `complex<f32>`)."""
    if ptype in _FLOAT_TYPES:
        return _FLOAT_TYPES[ptype]
    if ptype.is_complex:
        return complex_type(ptype)
    return IntegerType(ptype.bit_width)


def complex_type(ptype: PrimitiveType) -> ComplexType:
    """`complex<f32>` for c64, `complex<f64>` for c128."""
    return ComplexType(_FLOAT_TYPES[ptype.component_type])


def float_type(ptype: PrimitiveType) -> AnyFloat:
    """The MLIR type of an HLO float type."""
    return _FLOAT_TYPES[ptype]


def integer_type(ptype: PrimitiveType) -> IntegerType:
    """The signless MLIR type of an HLO integer (or `pred`) type."""
    assert not (ptype.is_float or ptype.is_complex), f"{ptype.value} is not an integer type"
    return IntegerType(ptype.bit_width)


def tensor_type(shape: ArrayShape) -> TensorType[Attribute]:
    """`tensor<AxBxT>` for an array shape (`tensor<T>` for a scalar)."""
    return TensorType(element_type(shape.element_type), shape.dimensions)


def builder_at_end(block: Block) -> Builder:
    """A builder that appends to `block`."""
    return Builder(InsertPoint.at_end(block))
