"""Element types of the IR as numpy dtypes, with MLIR's exact semantics.

Floats keep their own precision: bf16 values live in `ml_dtypes.bfloat16`
arrays and f16 in `float16` arrays, whose arithmetic computes in f32 and rounds
after every op, as XLA does. Integers are signless in MLIR; they are stored in
the signed numpy type of their width (`i1` as `bool`) and the unsigned ops
reinterpret them. Widths that numpy lacks (i3, i17, ...) live in the next wider
container and are wrapped after every op by `wrap_integer`.
"""

from __future__ import annotations

from functools import cache

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    ComplexType,
    Float8E3M4Type,
    Float8E4M3B11FNUZType,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E4M3Type,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    MemRefType,
    Signedness,
    TensorType,
    VectorType,
)
from xdsl.ir import Attribute

from xla_emit.diagnostics import UserError

_FLOATS: dict[type[Attribute], np.dtype[np.generic]] = {
    BFloat16Type: np.dtype(ml_dtypes.bfloat16),
    Float16Type: np.dtype(np.float16),
    Float32Type: np.dtype(np.float32),
    Float64Type: np.dtype(np.float64),
    # Every float8 type jax has.
    Float8E3M4Type: np.dtype(ml_dtypes.float8_e3m4),
    Float8E4M3Type: np.dtype(ml_dtypes.float8_e4m3),
    Float8E4M3B11FNUZType: np.dtype(ml_dtypes.float8_e4m3b11fnuz),
    Float8E4M3FNType: np.dtype(ml_dtypes.float8_e4m3fn),
    Float8E4M3FNUZType: np.dtype(ml_dtypes.float8_e4m3fnuz),
    Float8E5M2Type: np.dtype(ml_dtypes.float8_e5m2),
    Float8E5M2FNUZType: np.dtype(ml_dtypes.float8_e5m2fnuz),
    Float8E8M0FNUType: np.dtype(ml_dtypes.float8_e8m0fnu),
}

INDEX_DTYPE = np.dtype(np.int64)


def integer_container(width: int) -> np.dtype[np.generic]:
    """The signed numpy type holding an MLIR integer of `width` bits."""
    if width == 1:
        return np.dtype(np.bool_)
    for bits, dtype in ((8, np.int8), (16, np.int16), (32, np.int32), (64, np.int64)):
        if width <= bits:
            return np.dtype(dtype)
    raise UserError(f"integers wider than 64 bits are not supported (i{width})")


def element_type(type_: Attribute) -> Attribute:
    """The element type of a shaped type, or the type itself for scalars."""
    if isinstance(type_, VectorType | TensorType | MemRefType):
        return type_.get_element_type()
    return type_


@cache
def numpy_dtype(type_: Attribute) -> np.dtype[np.generic]:
    """The numpy dtype of a scalar type or of the elements of a shaped type.

    Cached: types are immutable.
    """
    scalar = element_type(type_)
    if isinstance(scalar, IndexType):
        return INDEX_DTYPE
    if isinstance(scalar, IntegerType):
        return integer_container(scalar.width.data)
    if isinstance(scalar, ComplexType):
        part = _FLOATS.get(type(scalar.element_type))
        if part in (np.dtype(np.float32), np.dtype(np.float64)):
            return np.dtype(np.complex64 if part == np.float32 else np.complex128)
    dtype = _FLOATS.get(type(scalar))
    if dtype is None:
        raise UserError(f"the interpreter does not support element type {scalar}")
    return dtype


@cache
def explicit_signedness_dtype(type_: Attribute) -> np.dtype[np.generic]:
    """The numpy dtype of element data whose integer types carry their signedness.

    PTO tiles and global memory hold `ui8` as uint8 and `si8`/`i8` as int8,
    i1 in a byte (like the hardware), unlike the signless SIMT view.
    """
    scalar = element_type(type_)
    if not isinstance(scalar, IntegerType):
        return numpy_dtype(scalar)
    container = integer_container(max(scalar.width.data, 8))
    if scalar.signedness.data == Signedness.UNSIGNED:
        return np.dtype(f"u{container.name}")
    return container


@cache
def integer_width(type_: Attribute) -> int:
    """Bit width of an integer or index type (index is 64 bits)."""
    scalar = element_type(type_)
    if isinstance(scalar, IntegerType):
        return scalar.width.data
    return 64


@cache
def needs_wrap(type_: Attribute) -> bool:
    """Whether values of this integer type need explicit wrapping (no exact numpy type)."""
    width = integer_width(type_)
    return width not in (1, 8, 16, 32, 64)


def wrap_integer(values: np.ndarray, width: int) -> np.ndarray:
    """Two's complement wrap-around of `values` (in their container) to `width` bits."""
    shift = values.dtype.itemsize * 8 - width
    return (values << shift) >> shift


def unsigned_view(values: np.ndarray, width: int) -> np.ndarray:
    """The values of a signless integer read as unsigned `width`-bit numbers (as uint64)."""
    if values.dtype == np.bool_:
        return values.astype(np.uint64)
    as_unsigned = np.asarray(values).astype(np.int64).view(np.uint64)
    if width == 64:
        return as_unsigned
    return as_unsigned & np.uint64((1 << width) - 1)


def is_float(type_: Attribute) -> bool:
    """Whether the (element) type is a floating-point type."""
    return type(element_type(type_)) in _FLOATS


@cache
def shaped_rank(type_: Attribute) -> int:
    """Rank of the per-lane shape of a value: 0 for scalars, the vector rank for vectors."""
    if isinstance(type_, VectorType):
        return type_.get_num_dims()
    return 0
