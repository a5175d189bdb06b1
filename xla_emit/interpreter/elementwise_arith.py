"""The elementwise `arith` casts and compares the whole-value executors borrow.

`scalar_arith.WholeValueArithImpls` covers arithmetic on scalars and whole
arrays; the casts and float compares come from the SIMT executor's handlers,
which are elementwise over any array shape. The TPU and tile executors add
these pairs to their tables, so each op means the same thing in all of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.dialects import arith
from xdsl.ir import Operation

from xla_emit.interpreter.arith import ArithImpls
from xla_emit.interpreter.registry import OpTable

_SIMT_ARITH: OpTable[Callable[..., Any]] = OpTable()
_SIMT_ARITH.register(ArithImpls())
_BORROWED = [arith.CmpfOp, arith.ExtUIOp, arith.TruncIOp, arith.SIToFPOp, arith.UIToFPOp]
_BORROWED += [arith.FPToSIOp, arith.FPToUIOp, arith.ExtFOp, arith.TruncFOp, arith.NegfOp]
_BORROWED += [arith.BitcastOp]


def _borrowed(op_type: type[Operation]) -> Callable[..., Any]:
    handler = _SIMT_ARITH.lookup(op_type)
    assert handler is not None, f"the SIMT executor has no handler for {op_type.name}"
    return handler


ELEMENTWISE_ARITH = tuple((op_type, _borrowed(op_type)) for op_type in _BORROWED)
