"""A tile program's blocks compiled once into steps, and the values each launch repeats.

Interpreting an op costs Python work besides its numpy work: finding its handler, whether
it ends the block, its operands. A `BlockPlan` does that once per block: each `Step` holds
the op, its handler and its operand and result values, and the block's terminator is kept
apart. The executor runs the steps in order, charging one step each as before.

Most of a gemm kernel's index arithmetic does not depend on the buffers: the pid's tile
offsets (`xla.apply_indexing` on the pid), constants, ranges and the splats and broadcasts
of them. Such values are the same at every launch of the kernel over the same programs,
so `launch_invariant` marks them (ops without regions, reading no buffer, whose operands
are all marked; the pid, and the iteration of a loop run side by side, are marked too) and
the executor keeps them between launches (`LaunchValues`, one per group of lanes: a chunk
of pids, or a chunk's group of loop iterations). Their steps are still charged; the values
are reserved in the memory meter while their lanes run, as the plain run holds them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

import numpy as np
from xdsl.dialects import scf
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.traits import IsTerminator

from xla_emit.dialects.xtile import EntryFuncOp, InsertTileOp

if TYPE_CHECKING:
    from xla_emit.interpreter.budget import MemoryMeter, Reservation
    from xla_emit.interpreter.registry import OpTable
    from xla_emit.interpreter.tile.executor import Handler


@dataclass(frozen=True)
class Step:
    """One op of a block, ready to run."""

    op: Operation
    handler: Handler
    operands: tuple[SSAValue, ...]
    results: tuple[SSAValue, ...]
    # The same values at every launch over the same lanes (see the module docstring).
    invariant: bool


@dataclass(frozen=True)
class BlockPlan:
    """A block's steps and its terminator (None: the block has none)."""

    steps: tuple[Step, ...]
    terminator: Operation | None


_BLOCK_PLANS: WeakKeyDictionary[Block, BlockPlan] = WeakKeyDictionary()
_INVARIANTS: WeakKeyDictionary[EntryFuncOp, frozenset[SSAValue]] = WeakKeyDictionary()


def block_plan(
    block: Block, handlers: OpTable[Handler], unsupported: Callable[[Operation], Handler]
) -> BlockPlan:
    """`block`'s plan (made once); an op without a handler runs `unsupported(op)`, which
    raises where the op would have run."""
    plan = _BLOCK_PLANS.get(block)
    if plan is not None:
        return plan
    invariant = _invariants_around(block)
    steps: list[Step] = []
    terminator = None
    for op in block.ops:
        if op.has_trait(IsTerminator):
            terminator = op
            break
        handler = handlers.lookup(type(op))
        steps.append(
            Step(
                op,
                handler if handler is not None else unsupported(op),
                tuple(op.operands),
                tuple(op.results),
                handler is not None
                and bool(op.results)
                and all(r in invariant for r in op.results),
            )
        )
    plan = _BLOCK_PLANS[block] = BlockPlan(tuple(steps), terminator)
    return plan


def _invariants_around(block: Block) -> frozenset[SSAValue]:
    """The launch-invariant values of the entry function `block` is in (none outside one)."""
    op = block.parent_op()
    while op is not None and not isinstance(op, EntryFuncOp):
        op = op.parent_op()
    return launch_invariant(op) if op is not None else frozenset()


def launch_invariant(function: EntryFuncOp) -> frozenset[SSAValue]:
    """The values of `function` that do not depend on its buffers (see the module
    docstring)."""
    known = _INVARIANTS.get(function)
    if known is not None:
        return known
    invariant: set[SSAValue] = {function.tile_id}
    for op in function.walk():
        if isinstance(op, scf.ForOp):
            invariant.add(op.body.block.args[0])
        if _computes_from_operands_only(op) and all(v in invariant for v in op.operands):
            invariant.update(op.results)
    known = _INVARIANTS[function] = frozenset(invariant)
    return known


_ALL_INVARIANT: WeakKeyDictionary[Operation, bool] = WeakKeyDictionary()


def operands_invariant(op: Operation, first: int) -> bool:
    """Whether `op`'s operands from `first` on (an extract's or insert's offsets) are all
    launch-invariant."""
    known = _ALL_INVARIANT.get(op)
    if known is None:
        function = op.parent_op()
        while function is not None and not isinstance(function, EntryFuncOp):
            function = function.parent_op()
        invariant = launch_invariant(function) if function is not None else frozenset()
        known = _ALL_INVARIANT[op] = all(v in invariant for v in op.operands[first:])
    return known


def _computes_from_operands_only(op: Operation) -> bool:
    """Ops whose results are a function of their operands' values alone: no regions (they
    charge their own steps), no buffers read or written."""
    if op.regions or isinstance(op, InsertTileOp) or op.has_trait(IsTerminator):
        return False
    return not any(isinstance(v.type, MemRefType) for v in (*op.operands, *op.results))


@dataclass
class LaunchValues:
    """The invariant values of one group of lanes, kept between launches: each op's
    results, and the arrays behind them (counted once each in the memory meter)."""

    results: dict[Operation, tuple[Any, ...]] = field(default_factory=dict)
    # A loop run side by side: values from outside it (and its iteration) on its lanes.
    widened: dict[SSAValue, Any] = field(default_factory=dict)
    # Where each extract's or insert's tiles lie, for ops whose offsets are invariant (the
    # index arrays of a gather are made and checked once).
    accesses: dict[Operation, Any] = field(default_factory=dict)
    owners: dict[int, np.ndarray] = field(default_factory=dict)
    label: str = "values the same at every launch"

    def new_bytes(self, results: tuple[Any, ...]) -> int:
        """The bytes of the arrays behind `results` not kept yet."""
        owners = {
            id(owner): owner.nbytes
            for value in results
            if isinstance(value, np.ndarray)
            for owner in (_owner(value),)
            if id(owner) not in self.owners
        }
        return sum(owners.values())

    def add(self, op: Operation, results: tuple[Any, ...]) -> list[np.ndarray]:
        """Keep `op`'s results; the arrays behind them not kept before."""
        self.results[op] = results
        new: list[np.ndarray] = []
        for value in results:
            if isinstance(value, np.ndarray):
                owner = _owner(value)
                if owner.nbytes and id(owner) not in self.owners:
                    self.owners[id(owner)] = owner
                    new.append(owner)
        return new


def _owner(value: np.ndarray) -> np.ndarray:
    """The array whose storage `value` views (itself if it owns its storage)."""
    owner = value
    while isinstance(owner.base, np.ndarray):
        owner = owner.base
    return owner


class HeldLaunchValues:
    """The memory meter's count of one group's kept values while its lanes run: the arrays
    not already counted in this run, reserved on entry and as new ones are kept, released
    on exit (the plain run frees them when the group's values die)."""

    def __init__(self, values: LaunchValues, meter: MemoryMeter, held: Any) -> None:
        self.values = values
        self.meter = meter
        # The run's arrays counted so far, by id (the executor's `_held`).
        self.held = held
        self.reservations: list[Reservation] = []
        self.mine: list[int] = []
        self.count(list(values.owners.values()))

    def count(self, owners: list[np.ndarray]) -> None:
        size = 0
        for owner in owners:
            if self.held.get(id(owner)) is not owner:
                self.held[id(owner)] = owner
                self.mine.append(id(owner))
                size += owner.nbytes
        if size:
            self.reservations.append(self.meter.reserve(self.values.label, size))

    def release(self) -> None:
        for reservation in self.reservations:
            self.meter.release(reservation.key)
        for key in self.mine:
            self.held.pop(key, None)
        self.reservations, self.mine = [], []
