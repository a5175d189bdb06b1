"""SSA values named as the printer names them (`%5`, `%col`, `%arg0`), for messages.

A value parsed from `%5 = ...` keeps no name (numbers are not names in
xDSL, nor in MLIR): the printer numbers it again, in order, as JAX's MLIR
printer numbered it. A message that talks about a value names it the way the
printed kernel does, so the user can find it.
"""

from __future__ import annotations

from contextlib import suppress
from io import StringIO

from xdsl.ir import Operation, SSAValue
from xdsl.printer import Printer


class _NameRecorder(Printer):
    """A printer that remembers the name it gave each value."""

    def __init__(self) -> None:
        super().__init__(stream=StringIO())
        self.names: dict[SSAValue, str] = {}

    def print_ssa_value(self, value: SSAValue) -> str:
        name = super().print_ssa_value(value)
        self.names.setdefault(value, f"%{name}")
        return name


def _root(op: Operation) -> Operation:
    while (parent := op.parent_op()) is not None:
        op = parent
    return op


def _owner_op(value: SSAValue) -> Operation | None:
    owner = value.owner
    if isinstance(owner, Operation):
        return owner
    return owner.parent_op()


class ValueNames:
    """The printed name of each value, computed once per module when first asked.

    Keep one for as long as the IR does not change (one analysis, one message).
    """

    def __init__(self) -> None:
        self._names: dict[SSAValue, str] = {}
        self._printed: set[int] = set()

    def of(self, value: SSAValue) -> str:
        name = self._names.get(value)
        if name is not None:
            return name
        owner = _owner_op(value)
        if owner is not None and id(root := _root(owner)) not in self._printed:
            self._printed.add(id(root))
            recorder = _NameRecorder()
            # IR a custom printer rejects keeps the names its values were given.
            with suppress(Exception):
                recorder.print_op(root)
            self._names.update(recorder.names)
        return self._names.get(value) or (f"%{value.name_hint}" if value.name_hint else "a value")
