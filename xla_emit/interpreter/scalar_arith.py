"""`arith` and `math` for the executors whose values are whole: the TPU and PTO executors.

They run scalar code on Python numbers (i1 as bool) and keep vectors and
tiles as whole numpy arrays, unlike the lane-vectorized SIMT executor. The
SIMT executor's `arith` and `math` handlers are elementwise over any array
shape and take one uniform value as a numpy scalar, so the whole-value
executors run every op those handlers cover through them: one semantics for
every executor (C division, wrap-around, poison shifts, casts, bf16 rounded
after every op, math in f64 rounded once). This module only converts: a
Python scalar operand becomes a numpy scalar of its operand's type, a 0-d
result becomes a Python scalar again, and an undefined integer division or
shift is an error naming the op (the SIMT handlers would name a lane).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeAlias

import numpy as np
import numpy.typing as npt
from xdsl.ir import Operation

from xla_emit.diagnostics import UserError
from xla_emit.interpreter import scalars
from xla_emit.interpreter.arith import ArithExtendedImpls, ArithExtImpls, ArithImpls
from xla_emit.interpreter.element_types import integer_width, numpy_dtype
from xla_emit.interpreter.math import MathImpls
from xla_emit.interpreter.memory import CheckOptions
from xla_emit.interpreter.registry import OpImpls, OpTable, impl, implemented_ops

# A scalar (Python number) or a whole vector or tile (numpy array).
WholeValue: TypeAlias = int | float | bool | npt.NDArray[Any]


class Faults(Protocol):
    """What a handler needs of its executor: errors that name the op."""

    def error(self, op: Operation, message: str) -> UserError: ...


class _OneValue:
    """What the SIMT handlers ask of their executor, for one whole value.

    Their undefined-result checks name a lane; the whole-value handler checks
    before calling them (`_check_defined`), so theirs are off.
    """

    checks = CheckOptions.fast()

    def __init__(self, faults: Faults) -> None:
        self.faults = faults

    def error(self, op: Operation | None, message: str, _lane: int | None = None) -> UserError:
        assert op is not None
        return self.faults.error(op, message)


_SHARED_IMPLS = (ArithImpls, ArithExtendedImpls, ArithExtImpls, MathImpls)
_SIMT: OpTable[Callable[..., Any]] = OpTable()
for _impls in _SHARED_IMPLS:
    _SIMT.register(_impls())
# Every op the SIMT executor's arith and math handlers run.
SHARED_OPS: tuple[type[Operation], ...] = tuple(
    op_type for impls in _SHARED_IMPLS for op_type in implemented_ops(impls)
)


def _as_numpy(value: Any, operand_type: Any) -> Any:
    """A Python scalar as a numpy scalar of its operand's type; arrays as they are."""
    if isinstance(value, np.ndarray | np.generic):
        return value
    return np.asarray(value, dtype=numpy_dtype(operand_type))[()]


def _as_whole(value: Any) -> Any:
    """A 0-d result as a Python number (i1: a bool): scalar code keeps Python scalars."""
    if isinstance(value, np.ndarray | np.generic) and np.ndim(value) == 0:
        return value.item()
    return value


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


_CHECKED = scalars.DIVISIONS + scalars.SHIFTS


class WholeValueArithImpls(OpImpls):
    """Every `arith` and `math` op on Python scalars and whole numpy arrays."""

    @impl(*SHARED_OPS)
    def run_shared(self, ex: Faults, op: Operation, args: Sequence[Any]) -> list[Any]:
        operands = [_as_numpy(v, o.type) for v, o in zip(args, op.operands, strict=True)]
        if isinstance(op, _CHECKED):
            _check_defined(ex, op, operands[0], operands[1])
        handler = _SIMT.lookup(type(op))
        assert handler is not None
        return [_as_whole(v) for v in handler(_OneValue(ex), op, tuple(operands))]
