"""The tile executor's integer divisions marked `xla.guard_ub` (XLA's TTIR keeps the mark).

A marked division runs as the ops `xla-safe-integer-arithmetic` puts in its place (its
`expansion`), so x / 0 is -1 and INT_MIN / -1 is INT_MIN as on XLA:GPU, and the TTIR and
the guarded IR compute the same by construction. An unmarked division by zero stays an
error (`scalars.undefined_cases`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from xdsl.ir import Block, Operation, SSAValue

from xla_emit.passes.gpu.safe_integer_arithmetic import GUARD_UB, GUARDED_DIVISIONS, expansion

if TYPE_CHECKING:
    from xla_emit.interpreter.registry import OpTable
    from xla_emit.interpreter.tile.executor import Handler, TileExecutor

# Per marked division: the block whose arguments stand for its operands, and its guard.
_GUARDS: WeakKeyDictionary[Operation, tuple[Block, list[Operation]]] = WeakKeyDictionary()


def _guard(op: Operation) -> tuple[Block, list[Operation]]:
    known = _GUARDS.get(op)
    if known is None:
        stand_ins = Block(arg_types=[operand.type for operand in op.operands])
        known = (stand_ins, expansion(op, stand_ins.args[0], stand_ins.args[1]))
        _GUARDS[op] = known
    return known


def guarding(plain: Handler) -> Handler:
    """The handler of a division: `plain` unless the op is marked `xla.guard_ub`."""

    def run(ex: TileExecutor, op: Operation, args: list[Any]) -> list[Any]:
        if GUARD_UB not in op.attributes:
            return plain(ex, op, args)
        stand_ins, ops = _guard(op)
        values: dict[SSAValue, Any] = dict(zip(stand_ins.args, args, strict=True))
        for guarded in ops:
            handler = plain if type(guarded) is type(op) else ex.handlers.lookup(type(guarded))
            assert handler is not None, guarded.name
            results = handler(ex, guarded, [values[v] for v in guarded.operands])
            values.update(zip(guarded.results, results, strict=True))
        return [values[ops[-1].results[0]]]

    return run


def add_guards(table: OpTable[Handler]) -> None:
    """Make `table` (the tile executor's `OpTable`) run marked divisions guarded."""
    for division in GUARDED_DIVISIONS:
        plain = table.lookup(division)
        assert plain is not None
        table.add(division, guarding(plain))
