"""XLA's integer semantics at the edges, built from `arith` ops that are never undefined.

`arith.divsi` by zero or of INT_MIN by -1, and shifts by the bit width or
more, are undefined in MLIR (and in LLVM); float to integer conversion out
of range is poison. XLA defines every one of them (xla/service/
elemental_ir_emitter.cc and the MLIR emitters' lowering of mhlo ops):

- integer division: x / 0 is -1 and INT_MIN / -1 is INT_MIN (the guard and
  its values are `xla-safe-integer-arithmetic`'s `guarded_division`, which
  XLA's Triton route runs as a pass);
- a shift by an amount that is negative or >= the bit width (compared
  unsigned) gives 0, or the sign fill for `shift-right-arithmetic`;
- float to integer truncates toward zero and saturates; NaN gives 0
  (`passes/float_to_integer.py`, which XLA's Triton route writes too).

The undefined cases get a safe operand (divisor 1, shift amount 0) and
`arith.select` puts XLA's value in their place, so the emitted IR computes
nothing undefined on any input.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation, SSAValue

from xla_emit.emitters.types import integer_type
from xla_emit.hlo.shape import PrimitiveType
from xla_emit.passes.float_to_integer import saturating_float_to_integer
from xla_emit.passes.gpu.safe_integer_arithmetic import guarded_division

if TYPE_CHECKING:
    from xla_emit.emitters.elemental_ops import ScalarOps

_DIVISIONS: dict[tuple[str, bool], type[Operation]] = {
    ("divide", True): arith.DivSIOp,
    ("divide", False): arith.DivUIOp,
    ("remainder", True): arith.RemSIOp,
    ("remainder", False): arith.RemUIOp,
}

_SHIFTS: dict[str, type[Operation]] = {
    "shift-left": arith.ShLIOp,
    "shift-right-logical": arith.ShRUIOp,
    "shift-right-arithmetic": arith.ShRSIOp,
}


def _result(emitter: ScalarOps, op: Operation) -> SSAValue:
    return emitter.insert(op).results[0]


def _cmpi(emitter: ScalarOps, a: SSAValue, b: SSAValue, predicate: str) -> SSAValue:
    return _result(emitter, arith.CmpiOp(a, b, predicate))


def _select(emitter: ScalarOps, condition: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
    return _result(emitter, arith.SelectOp(condition, a, b))


def _all_ones(emitter: ScalarOps, ptype: PrimitiveType) -> SSAValue:
    return emitter.constant(IntegerAttr(-1, integer_type(ptype)), "cst")


def emit_integer_division(
    emitter: ScalarOps, opcode: str, ptype: PrimitiveType, a: SSAValue, b: SSAValue
) -> SSAValue:
    """`divide` or `remainder` of integers with XLA's results for x / 0 and INT_MIN / -1,
    the ops XLA's emitters write (`xla-safe-integer-arithmetic`'s guard, one fact)."""

    def constant(value: int) -> SSAValue:
        return _all_ones(emitter, ptype) if value == -1 else emitter.scalar_constant(value, ptype)

    def emit(op: Operation) -> SSAValue:
        return _result(emitter, op)

    division = _DIVISIONS[(opcode, ptype.is_signed_int)]
    return guarded_division(division, a, b, constant, emit)


def emit_shift(
    emitter: ScalarOps, opcode: str, ptype: PrimitiveType, a: SSAValue, b: SSAValue
) -> SSAValue:
    """A shift with XLA's result for amounts outside [0, bit width): 0, or the sign fill."""
    width = emitter.scalar_constant(ptype.bit_width, ptype)
    zero = emitter.scalar_constant(0, ptype)
    # Unsigned compare: a negative amount is a huge one.
    in_range = _cmpi(emitter, b, width, "ult")
    safe_amount = _select(emitter, in_range, b, zero)
    shifted = _result(emitter, _SHIFTS[opcode](a, safe_amount))  # pyright: ignore[reportCallIssue]
    if opcode == "shift-right-arithmetic":
        last_bit = emitter.scalar_constant(ptype.bit_width - 1, ptype)
        shifted_out = _result(emitter, arith.ShRSIOp(a, last_bit))
    else:
        shifted_out = zero
    return _select(emitter, in_range, shifted, shifted_out)


def emit_float_to_integer(
    emitter: ScalarOps, x: SSAValue, source: PrimitiveType, target: PrimitiveType
) -> SSAValue:
    """`convert` float -> integer: truncates toward zero, saturates, NaN gives 0 (the ops
    XLA's emitters write, `saturating_float_to_integer`'s, one fact)."""

    def float_limit(limit: int) -> SSAValue:
        # As in XLA, the limits are compared in the source type (INT_MAX may round up).
        return emitter.scalar_constant(float(limit), source)

    def integer(value: int) -> SSAValue:
        return emitter.scalar_constant(value, target)

    def emit(op: Operation) -> SSAValue:
        return _result(emitter, op)

    return saturating_float_to_integer(
        x,
        integer_type(target),
        signed=target.is_signed_int,
        limits=target.int_limits,
        float_limit=float_limit,
        integer=integer,
        emit=emit,
    )
