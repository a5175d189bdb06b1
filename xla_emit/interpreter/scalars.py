"""Scalar semantics shared by every executor: compares, C division, shifts, wrap-around, casts.

MLIR integers are signless: the op says whether bits are read signed or
unsigned. Values may be Python ints (the scalar code of the TPU and PTO
executors) or numpy arrays (lanes of the SIMT executor, TPU vectors, PTO
tiles); each function takes either and returns the same kind (the casts take
arrays). Signed values are stored signed; `unsigned` reads them as unsigned
`width`-bit numbers. The numpy dtypes of element types are in `element_types`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt
from xdsl.dialects import arith
from xdsl.ir import Attribute, Operation

from xla_emit.interpreter.element_types import (
    integer_width,
    needs_wrap,
    numpy_dtype,
    unsigned_view,
    wrap_integer,
)

# A Python int (i1: a bool) or a numpy array or scalar of integers. numpy's
# stubs have no overloads for arithmetic on `NDArray[np.generic]`, hence `Any`.
Integers: TypeAlias = int | npt.NDArray[Any] | np.generic

# `arith.cmpi` numbers its predicates eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge.
_FIRST_UNSIGNED_PREDICATE = 6

_COMPARES: tuple[Callable[[Any, Any], Any], ...] = (
    np.equal,
    np.not_equal,
    np.less,
    np.less_equal,
    np.greater,
    np.greater_equal,
)


def _is_python_int(value: object) -> bool:
    return isinstance(value, int | bool) and not isinstance(value, np.generic)


def wrap_signed(value: int, width: int) -> int:
    """A Python int wrapped to a signed two's complement `width`-bit value."""
    if width == 1:
        return value & 1
    half = 1 << (width - 1)
    return (value + half) % (1 << width) - half


def unsigned(value: Integers, width: int) -> Integers:
    """The bits of `value` read as an unsigned `width`-bit number (arrays: as uint64)."""
    if _is_python_int(value):
        return int(value) & ((1 << width) - 1)
    return unsigned_view(np.asarray(value), width)


def compare_integers(predicate: int, lhs: Integers, rhs: Integers, width: int) -> Any:
    """`arith.cmpi` with `predicate` (MLIR's number) on `width`-bit integers.

    Python ints give a bool, arrays a bool array.
    """
    if predicate >= _FIRST_UNSIGNED_PREDICATE:
        lhs, rhs = unsigned(lhs, width), unsigned(rhs, width)
        predicate -= _FIRST_UNSIGNED_PREDICATE - 2  # ult -> slt's comparison, on unsigned bits
    result = _COMPARES[predicate](lhs, rhs)
    if _is_python_int(lhs) and _is_python_int(rhs):
        return bool(result)
    return result


def _nonzero(divisor: Integers) -> Integers:
    """`divisor` with zeros replaced by one: division by zero is undefined, never a crash."""
    if _is_python_int(divisor):
        return int(divisor) or 1
    array = np.asarray(divisor)
    return np.where(array == 0, 1, array).astype(array.dtype)


def _in_dtype_of(result: npt.NDArray[Any], lhs: Integers) -> npt.NDArray[Any]:
    """`result` in the dtype of the dividend, so a vector divided by a scalar keeps its type."""
    return result if _is_python_int(lhs) else result.astype(np.asarray(lhs).dtype)


def truncating_divide(lhs: Integers, rhs: Integers) -> Any:
    """C division (`divsi`): the quotient rounds toward zero."""
    divisor = _nonzero(rhs)
    if _is_python_int(lhs) and _is_python_int(divisor):
        quotient = abs(int(lhs)) // abs(int(divisor))
        return quotient if (lhs < 0) == (divisor < 0) else -quotient
    dividend, divisor_array = np.asarray(lhs), np.asarray(divisor)
    quotient = dividend // divisor_array
    inexact = (dividend % divisor_array != 0) & ((dividend < 0) != (divisor_array < 0))
    return _in_dtype_of(quotient + inexact.astype(quotient.dtype), lhs)


def truncating_remainder(lhs: Integers, rhs: Integers) -> Any:
    """C remainder (`remsi`): takes the sign of `lhs`, so `lhs == q * rhs + r`."""
    divisor = _nonzero(rhs)
    remainder = lhs - truncating_divide(lhs, divisor) * divisor
    if _is_python_int(remainder):
        return remainder
    return _in_dtype_of(np.asarray(remainder), lhs)


def floor_divide(lhs: Integers, rhs: Integers) -> Any:
    """`floordivsi`: the quotient rounds toward minus infinity."""
    return lhs // _nonzero(rhs)


def ceil_divide(lhs: Integers, rhs: Integers) -> Any:
    """`ceildivsi` and `ceildivui`: the quotient rounds toward plus infinity."""
    divisor = _nonzero(rhs)
    if _is_python_int(lhs) and _is_python_int(divisor):
        return -(-int(lhs) // int(divisor))
    quotient = np.asarray(lhs // divisor)
    return quotient + (np.asarray(lhs % divisor) != 0).astype(quotient.dtype)


def unsigned_divide(lhs: Integers, rhs: Integers, width: int) -> Any:
    """`divui` on `width`-bit values, as unsigned (arrays: uint64)."""
    return unsigned(lhs, width) // _nonzero(unsigned(rhs, width))


def unsigned_remainder(lhs: Integers, rhs: Integers, width: int) -> Any:
    """`remui` on `width`-bit values, as unsigned (arrays: uint64)."""
    return unsigned(lhs, width) % _nonzero(unsigned(rhs, width))


def shift_amount(amount: Integers, width: int) -> Integers:
    """An unsigned shift amount, capped below 64 bits.

    Shifting by the width or more is poison in MLIR; numpy is undefined there,
    so the amount is capped to keep the result deterministic.
    """
    bits = unsigned(amount, width)
    if _is_python_int(bits):
        return min(int(bits), 63)
    return np.minimum(bits, np.uint64(63))


# ----------------------------------------------------------------------------- undefined results
# MLIR leaves these undefined (LLVM: immediate UB or poison); XLA's emitters
# never produce them, so the interpreter reports them instead of inventing a value.

DIVISIONS = (
    arith.DivSIOp,
    arith.DivUIOp,
    arith.RemSIOp,
    arith.RemUIOp,
    arith.FloorDivSIOp,
    arith.CeilDivSIOp,
    arith.CeilDivUIOp,
)
# Signed division of INT_MIN by -1 overflows (LLVM's srem is undefined there too).
_SIGNED_DIVISIONS = (arith.DivSIOp, arith.RemSIOp, arith.FloorDivSIOp, arith.CeilDivSIOp)
SHIFTS = (arith.ShLIOp, arith.ShRUIOp, arith.ShRSIOp)


@dataclass(frozen=True)
class UndefinedCase:
    """Where an integer op's result is undefined (a bool, or a bool array over the
    operands' broadcast shape) and what to say, formatted with `lhs` and `rhs`."""

    where: Any
    message: str


def undefined_cases(op: Operation, lhs: Integers, rhs: Integers, width: int) -> list[UndefinedCase]:
    """The ways `op` (an integer division or shift) is undefined on these operands."""
    cases: list[UndefinedCase] = []
    if isinstance(op, DIVISIONS):
        cases.append(UndefinedCase(np.equal(rhs, 0), "divides {lhs} by zero, which is undefined"))
    if isinstance(op, _SIGNED_DIVISIONS) and width > 1:
        int_min = -(1 << (width - 1))
        overflow = np.equal(lhs, int_min) & np.equal(rhs, -1)
        cases.append(UndefinedCase(overflow, f"divides {{lhs}} by -1, which overflows i{width}"))
    if isinstance(op, SHIFTS):
        too_far = np.asarray(unsigned(rhs, width)) >= width
        cases.append(
            UndefinedCase(
                too_far, f"shifts {{lhs}} by {{rhs}}, not in [0, {width}): the result is poison"
            )
        )
    return [case for case in cases if np.any(case.where)]


# ----------------------------------------------------------------------------- casts
# On numpy arrays (or 0-d arrays) in the signless storage of their source type.


def typed(values: npt.NDArray[Any], type_: Attribute) -> npt.NDArray[Any]:
    """`values` in the numpy dtype of `type_`, wrapped to its integer width."""
    dtype = numpy_dtype(type_)
    result = values if values.dtype == dtype else values.astype(dtype)
    if needs_wrap(type_):
        return wrap_integer(np.asarray(result), integer_width(type_))
    return result


def from_unsigned(values: npt.NDArray[Any], type_: Attribute) -> npt.NDArray[Any]:
    """Unsigned (uint64) values back to the signless storage of `type_`."""
    width = integer_width(type_)
    if width == 1:
        return (values & np.uint64(1)).astype(np.bool_)
    signed = np.asarray(values).astype(np.uint64).view(np.int64)
    return typed(wrap_integer(signed, width) if width < 64 else signed, type_)


def sign_cast(values: npt.NDArray[Any], target: Attribute) -> npt.NDArray[Any]:
    """`extsi`, `trunci` and `index_cast`: sign-extend or truncate to `target`."""
    if values.dtype == np.bool_:
        values = -values.astype(np.int64)  # sign extension of i1 gives -1 for true
    if integer_width(target) == 1:
        return (values & 1).astype(np.bool_)
    return typed(values, target)


def zero_cast(values: npt.NDArray[Any], source: Attribute, target: Attribute) -> npt.NDArray[Any]:
    """`extui` and `index_castui`: zero-extend (or truncate) from `source` to `target`."""
    return from_unsigned(unsigned_view(values, integer_width(source)), target)


def signed_to_float(values: npt.NDArray[Any], target: Attribute) -> npt.NDArray[Any]:
    """`sitofp`, through f64: one rounding for every integer up to 2**53."""
    return values.astype(np.float64).astype(numpy_dtype(target))


def unsigned_to_float(
    values: npt.NDArray[Any], source: Attribute, target: Attribute
) -> npt.NDArray[Any]:
    """`uitofp`: the source's bits read unsigned, then rounded once."""
    as_unsigned = unsigned_view(values, integer_width(source))
    return as_unsigned.astype(np.float64).astype(numpy_dtype(target))


# The largest doubles below 2**63 and 2**64: limits numpy can cast to 64-bit integers.
_BELOW_2_63 = float(np.nextafter(2.0**63, 0))
_BELOW_2_64 = float(np.nextafter(2.0**64, 0))


def _truncated(values: npt.NDArray[Any], low: float, high: float) -> npt.NDArray[Any]:
    """Rounded toward zero; NaN and values outside [low, high] (poison in MLIR, and
    selected away by XLA's converts) become 0 or the nearest limit, deterministically."""
    with np.errstate(invalid="ignore"):
        truncated = np.trunc(values.astype(np.float64))
    return np.clip(np.nan_to_num(truncated, nan=0.0), low, high)


def float_to_signed(values: npt.NDArray[Any], target: Attribute) -> npt.NDArray[Any]:
    """`fptosi`: rounds toward zero."""
    return typed(_truncated(values, -(2.0**63), _BELOW_2_63).astype(np.int64), target)


def float_to_unsigned(values: npt.NDArray[Any], target: Attribute) -> npt.NDArray[Any]:
    """`fptoui`: rounds toward zero, stored in the target's signless storage."""
    return from_unsigned(_truncated(values, 0.0, _BELOW_2_64).astype(np.uint64), target)


def bitcast(values: npt.NDArray[Any], target: Attribute) -> npt.NDArray[Any]:
    """`bitcast`: the same bits read as `target`."""
    # `ascontiguousarray` makes a 0-d array 1-d: a scalar keeps its shape.
    return np.ascontiguousarray(values).view(numpy_dtype(target)).reshape(np.shape(values))
