"""HLO element types, array and tuple shapes, and layouts as parsed data.

The layout is kept as XLA prints it: `minor_to_major` plus the raw text after
the colon (tiles such as `T(8,128)(2,1)`, memory space `S(1)`, ...). The tiled
layout arithmetic lives elsewhere; this module only needs to round-trip it and
to know the dimension order for `bitcast`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Any, cast

import ml_dtypes
import numpy as np


class PrimitiveType(Enum):
    """The element types the front end supports, by their HLO spelling."""

    PRED = "pred"
    S8 = "s8"
    S16 = "s16"
    S32 = "s32"
    S64 = "s64"
    U8 = "u8"
    U16 = "u16"
    U32 = "u32"
    U64 = "u64"
    F16 = "f16"
    BF16 = "bf16"
    F32 = "f32"
    F64 = "f64"
    C64 = "c64"
    C128 = "c128"
    # Orders side effects (`after-all`, send/recv); carries no data. Held as a 0-d pred.
    TOKEN = "token"

    @property
    def dtype(self) -> np.dtype[np.generic]:
        return np.dtype(_NUMPY_TYPES[self])

    @property
    def is_float(self) -> bool:
        return self in (PrimitiveType.F16, PrimitiveType.BF16, PrimitiveType.F32, PrimitiveType.F64)

    @property
    def is_complex(self) -> bool:
        return self in (PrimitiveType.C64, PrimitiveType.C128)

    @property
    def component_type(self) -> PrimitiveType:
        """The type of a complex type's real and imaginary parts (the type itself otherwise)."""
        if self is PrimitiveType.C64:
            return PrimitiveType.F32
        return PrimitiveType.F64 if self is PrimitiveType.C128 else self

    @property
    def is_signed_int(self) -> bool:
        return self in (PrimitiveType.S8, PrimitiveType.S16, PrimitiveType.S32, PrimitiveType.S64)

    @property
    def is_unsigned_int(self) -> bool:
        return self in (PrimitiveType.U8, PrimitiveType.U16, PrimitiveType.U32, PrimitiveType.U64)

    @property
    def is_integral(self) -> bool:
        return self.is_signed_int or self.is_unsigned_int

    @property
    def int_limits(self) -> tuple[int, int]:
        """The smallest and largest value of an integer type."""
        info = np.iinfo(cast(type[np.integer[Any]], _NUMPY_TYPES[self]))
        return int(info.min), int(info.max)

    @property
    def bit_width(self) -> int:
        return 1 if self is PrimitiveType.PRED else self.dtype.itemsize * 8

    @staticmethod
    def from_dtype(dtype: np.dtype[np.generic]) -> PrimitiveType:
        for ptype, numpy_type in _NUMPY_TYPES.items():
            if np.dtype(numpy_type) == dtype:
                return ptype
        raise ValueError(f"no HLO element type for numpy dtype {dtype}")


_NUMPY_TYPES: dict[PrimitiveType, type[np.generic]] = {
    PrimitiveType.PRED: np.bool_,
    PrimitiveType.S8: np.int8,
    PrimitiveType.S16: np.int16,
    PrimitiveType.S32: np.int32,
    PrimitiveType.S64: np.int64,
    PrimitiveType.U8: np.uint8,
    PrimitiveType.U16: np.uint16,
    PrimitiveType.U32: np.uint32,
    PrimitiveType.U64: np.uint64,
    PrimitiveType.F16: np.float16,
    PrimitiveType.BF16: ml_dtypes.bfloat16,
    PrimitiveType.F32: np.float32,
    PrimitiveType.F64: np.float64,
    PrimitiveType.C64: np.complex64,
    PrimitiveType.C128: np.complex128,
    PrimitiveType.TOKEN: np.bool_,
}

PRIMITIVE_TYPE_NAMES: frozenset[str] = frozenset(t.value for t in PrimitiveType)

_MEMORY_SPACE = re.compile(r"S\((\d+)\)")


@dataclass(frozen=True)
class Layout:
    """`{minor_to_major[:tail]}`; `tail` is the raw text after the colon."""

    minor_to_major: tuple[int, ...]
    tail: str = ""

    @property
    def memory_space(self) -> int:
        match = _MEMORY_SPACE.search(self.tail)
        return int(match.group(1)) if match else 0

    @property
    def tiles(self) -> str:
        """The tile part of the tail, e.g. `T(8,128)(2,1)`, or ``."""
        match = re.search(r"T(\(\d+(,\d+)*\))+", self.tail)
        return match.group(0) if match else ""

    def __str__(self) -> str:
        text = ",".join(str(d) for d in self.minor_to_major)
        return "{" + text + (":" + self.tail if self.tail else "") + "}"


@dataclass(frozen=True)
class ArrayShape:
    """An array (or scalar, when `dimensions` is empty) of one element type."""

    element_type: PrimitiveType
    dimensions: tuple[int, ...]
    layout: Layout | None = None

    @property
    def rank(self) -> int:
        return len(self.dimensions)

    @property
    def num_elements(self) -> int:
        return int(np.prod(self.dimensions, dtype=np.int64))

    @property
    def minor_to_major(self) -> tuple[int, ...]:
        """The layout's dimension order, XLA's default (row-major) when absent."""
        if self.layout is not None:
            return self.layout.minor_to_major
        return tuple(range(self.rank - 1, -1, -1))

    @property
    def has_default_layout(self) -> bool:
        """Row-major: the last dimension minor-most, as XLA lays out shapes by default."""
        return self.minor_to_major == tuple(range(self.rank - 1, -1, -1))

    def same_dims_and_type(self, other: Shape) -> bool:
        return (
            isinstance(other, ArrayShape)
            and self.element_type == other.element_type
            and self.dimensions == other.dimensions
        )

    def with_type(self, element_type: PrimitiveType) -> ArrayShape:
        return ArrayShape(element_type, self.dimensions)

    def __str__(self) -> str:
        dims = ",".join(str(d) for d in self.dimensions)
        layout = str(self.layout) if self.layout is not None else ""
        return f"{self.element_type.value}[{dims}]{layout}"


@dataclass(frozen=True)
class TupleShape:
    """A tuple of shapes, as produced by `tuple` and variadic `reduce`."""

    elements: tuple[Shape, ...]

    def same_dims_and_type(self, other: Shape) -> bool:
        return (
            isinstance(other, TupleShape)
            and len(self.elements) == len(other.elements)
            and all(
                a.same_dims_and_type(b) for a, b in zip(self.elements, other.elements, strict=True)
            )
        )

    def __str__(self) -> str:
        return "(" + ", ".join(str(e) for e in self.elements) + ")"


Shape = ArrayShape | TupleShape


def shape_without_layout(shape: Shape) -> Shape:
    """The shape with every layout dropped (for printing shapes in messages)."""
    if isinstance(shape, ArrayShape):
        return ArrayShape(shape.element_type, shape.dimensions)
    return TupleShape(tuple(shape_without_layout(e) for e in shape.elements))


def flatten_shape(shape: Shape) -> list[ArrayShape]:
    """The array leaves of `shape` in order."""
    if isinstance(shape, ArrayShape):
        return [shape]
    return [leaf for element in shape.elements for leaf in flatten_shape(element)]
