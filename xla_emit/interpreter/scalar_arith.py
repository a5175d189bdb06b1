"""`arith` for the executors whose values are whole: the TPU and PTO executors.

They run scalar code on Python numbers (i1 as bool) and keep vectors and
tiles as whole numpy arrays, unlike the lane-vectorized SIMT executor. Both
register `WholeValueArithImpls` in their `OpTable`, so scalar `arith` means the
same thing in both; integer semantics come from `scalars`, as in the SIMT
executor's `arith`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeAlias

import numpy as np
import numpy.typing as npt
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    VectorType,
)
from xdsl.ir import Attribute, Operation

from xla_emit.diagnostics import UserError
from xla_emit.interpreter import scalars
from xla_emit.interpreter.element_types import element_type, integer_width, numpy_dtype
from xla_emit.interpreter.registry import OpImpls, impl

# A scalar (Python number) or a whole vector or tile (numpy array).
WholeValue: TypeAlias = int | float | bool | npt.NDArray[Any]


class Faults(Protocol):
    """What a handler needs of its executor: errors that name the op."""

    def error(self, op: Operation, message: str) -> UserError: ...


def _is_integer_type(type_: Attribute) -> bool:
    return isinstance(element_type(type_), IntegerType | IndexType)


def wrapped(value: Any, type_: Attribute) -> Any:
    """A Python integer result wrapped to its type's width (i1: a bool); arrays as they are.

    numpy arrays wrap in their own dtype; Python ints would grow without bound.
    """
    if isinstance(value, np.ndarray | bool) or not _is_integer_type(type_):
        return value
    width = integer_width(type_)
    if width == 1:
        return bool(value & 1)
    return scalars.wrap_signed(int(value), width)


def _plain(value: Any) -> Any:
    """0-d numpy results as Python numbers: scalar code keeps Python scalars."""
    return (
        value.item()
        if isinstance(value, np.ndarray | np.generic) and np.ndim(value) == 0
        else value
    )


def _minimum(a: Any, b: Any) -> Any:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.minimum(np.asarray(a), np.asarray(b))
    return min(a, b)


def _maximum(a: Any, b: Any) -> Any:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.maximum(np.asarray(a), np.asarray(b))
    return max(a, b)


_INTEGER_BINARY: dict[type[Operation], Callable[[Any, Any], Any]] = {
    arith.AddiOp: lambda a, b: a + b,
    arith.SubiOp: lambda a, b: a - b,
    arith.MuliOp: lambda a, b: a * b,
    arith.ShLIOp: lambda a, b: a << b,
    arith.AndIOp: lambda a, b: a & b,
    arith.OrIOp: lambda a, b: a | b,
    arith.XOrIOp: lambda a, b: a ^ b,
    arith.MinSIOp: _minimum,
    arith.MaxSIOp: _maximum,
}

_SIGNED_DIVISION: dict[type[Operation], Callable[[Any, Any], Any]] = {
    arith.DivSIOp: scalars.truncating_divide,
    arith.RemSIOp: scalars.truncating_remainder,
}

_UNSIGNED_DIVISION: dict[type[Operation], Callable[[Any, Any, int], Any]] = {
    arith.DivUIOp: scalars.unsigned_divide,
    arith.RemUIOp: scalars.unsigned_remainder,
}

_FLOAT_BINARY: dict[type[Operation], Callable[[Any, Any], Any]] = {
    arith.AddfOp: np.add,
    arith.SubfOp: np.subtract,
    arith.MulfOp: np.multiply,
    arith.DivfOp: np.divide,
    arith.MaximumfOp: np.maximum,
    arith.MinimumfOp: np.minimum,
}


def _from_unsigned(value: Any, like: Any, type_: Attribute) -> Any:
    """An unsigned quotient or remainder back in the signed storage of `like`."""
    if isinstance(value, np.ndarray | np.generic):
        return np.asarray(value).astype(np.asarray(like).dtype)
    return wrapped(value, type_)


def _check_defined(ex: Faults, op: Operation, lhs: Any, rhs: Any) -> None:
    """An integer division or shift whose result is undefined is an error (see `scalars`)."""
    width = integer_width(op.results[0].type)
    for case in scalars.undefined_cases(op, lhs, rhs, width):
        shape = np.broadcast(lhs, rhs).shape
        first = tuple(int(i) for i in np.argwhere(np.broadcast_to(case.where, shape))[0])
        values = {
            name: int(np.broadcast_to(np.asarray(v), shape)[first])
            for name, v in (("lhs", lhs), ("rhs", rhs))
        }
        raise ex.error(op, case.message.format(**values))


class WholeValueArithImpls(OpImpls):
    """arith on Python scalars and whole numpy vectors."""

    @impl(arith.ConstantOp)
    def run_constant(self, ex: Faults, op: arith.ConstantOp, _args: Sequence[Any]) -> list[Any]:
        value = op.value
        if isinstance(value, IntegerAttr | FloatAttr):
            return [value.value.data]
        if isinstance(value, DenseIntOrFPElementsAttr) and isinstance(value.type, VectorType):
            values = np.array(value.get_values(), dtype=numpy_dtype(value.type))
            shape = value.type.get_shape()
            return [
                np.broadcast_to(values, shape).copy() if values.size == 1 else values.reshape(shape)
            ]
        raise ex.error(op, f"with value {value} is not supported by this interpreter")

    @impl(*_INTEGER_BINARY)
    def run_integer_binary(self, ex: Faults, op: Operation, args: Sequence[Any]) -> list[Any]:
        _check_defined(ex, op, args[0], args[1])
        result = _INTEGER_BINARY[type(op)](args[0], args[1])
        return [wrapped(result, op.results[0].type)]

    @impl(*_SIGNED_DIVISION, *_UNSIGNED_DIVISION)
    def run_integer_division(self, ex: Faults, op: Operation, args: Sequence[Any]) -> list[Any]:
        lhs, rhs = args[0], args[1]
        _check_defined(ex, op, lhs, rhs)
        type_ = op.results[0].type
        signed = _SIGNED_DIVISION.get(type(op))
        if signed is not None:
            return [wrapped(_plain(signed(lhs, rhs)), type_)]
        quotient = _UNSIGNED_DIVISION[type(op)](lhs, rhs, integer_width(type_))
        return [_from_unsigned(quotient, lhs, type_)]

    @impl(arith.CmpiOp)
    def run_cmpi(self, _ex: Faults, op: arith.CmpiOp, args: Sequence[Any]) -> list[Any]:
        width = integer_width(op.lhs.type)
        result = scalars.compare_integers(op.predicate.value.data, args[0], args[1], width)
        return [result if isinstance(result, np.ndarray) and result.ndim else bool(result)]

    @impl(arith.IndexCastOp, arith.ExtSIOp)
    def run_index_cast(self, _ex: Faults, _op: Operation, args: Sequence[Any]) -> list[Any]:
        value = args[0]
        if isinstance(value, bool | np.bool_):
            return [-int(value)]  # i1 sign-extends: true is -1
        return [int(value) if isinstance(value, int | np.integer) else value]

    @impl(arith.SelectOp)
    def run_select(self, _ex: Faults, _op: arith.SelectOp, args: Sequence[Any]) -> list[Any]:
        condition, if_true, if_false = args
        if isinstance(condition, np.ndarray):
            return [np.where(condition, if_true, if_false)]
        return [if_true if condition else if_false]

    @impl(*_FLOAT_BINARY)
    def run_float_binary(self, _ex: Faults, op: Operation, args: Sequence[Any]) -> list[Any]:
        result = _FLOAT_BINARY[type(op)](np.asarray(args[0]), np.asarray(args[1]))
        # Round (bf16 included) after every op, as the hardware does.
        rounded = np.asarray(result).astype(numpy_dtype(op.results[0].type))
        return [rounded if rounded.ndim else rounded.item()]
