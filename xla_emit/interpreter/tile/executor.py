"""The tile executor: runs an `xtile.entry_func` for all its program ids at once.

Values (see the package docstring): every tensor and every scalar computed
from the program id is a numpy array with a leading axis of one entry per pid
of the current chunk; constants stay scalars or tile-shaped arrays and
broadcast against them (a constant tile is put behind the pid axis when an op
needs it there). The entry function's buffers are the kernel's operands, then
its results; the pid argument's `xla.range` gives the number of programs.

Safety, as in the other executors: each op counts one step per chunk against
the step budget; every value the run makes is reserved in the memory meter
before numpy allocates it; an extract or insert outside the buffer names the
op and the pid; two programs writing one element is a race (`checks.races`).

Blocks run from plans (`plan.block_plan`); the values that do not depend on the buffers are
kept between launches, per group of lanes (`lanes`), with their steps still charged.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any
from weakref import WeakValueDictionary

import numpy as np
import numpy.typing as npt
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    ShapedType,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from xla_emit.diagnostics import SourceLocation, UserError
from xla_emit.dialects.xtile import EntryFuncOp
from xla_emit.interpreter.budget import MemoryMeter, MemoryOverBudget, Reservation, StepCounter
from xla_emit.interpreter.element_types import numpy_dtype
from xla_emit.interpreter.memory import CheckOptions
from xla_emit.interpreter.registry import OpTable
from xla_emit.interpreter.scalar_arith import WholeValueArithImpls
from xla_emit.interpreter.tile.plan import HeldLaunchValues, LaunchValues, Step, block_plan
from xla_emit.interpreter.tile.tiles import TileFault

Array = npt.NDArray[Any]
Locator = Callable[[Operation], SourceLocation | None]
Handler = Callable[["TileExecutor", Operation, list[Any]], list[Any]]

# The most elements one value of a chunk may hold: pids are run in chunks this bounds.
_CHUNK_ELEMENTS = 1 << 22
DEFAULT_NUM_WARPS = 4
# The most bytes of values and tile accesses an executor keeps between launches (a big
# launch's are made again each time instead).
_KEEP_BYTES = 64 << 20


class TileExecutionError(UserError):
    """A tile program did something the hardware would not, or that we cannot run."""


class TileExecutor:
    """Runs the `xtile.entry_func`s of `module`, all program ids of a launch at once."""

    def __init__(
        self,
        module: ModuleOp,
        checks: CheckOptions | None = None,
        num_warps: int = DEFAULT_NUM_WARPS,
        locate: Locator | None = None,
        programs: int | None = None,
    ) -> None:
        self.module = module
        # Kernels XLA printed before its pid argument had an `xla.range` take the launch size
        # from the caller.
        self.programs = programs
        self.checks = checks if checks is not None else CheckOptions.fast()
        self.num_warps = num_warps
        self.locate = locate
        self.functions = {f.sym_name.data: f for f in module.walk() if isinstance(f, EntryFuncOp)}
        self.pids: Array = np.zeros(0, dtype=np.int64)
        self.env: dict[SSAValue, Any] = {}
        self.step_counter = StepCounter()
        self.memory = MemoryMeter()
        self.handlers = handler_table()
        self._held: WeakValueDictionary[int, np.ndarray] = WeakValueDictionary()
        # Printing a type costs more than most ops on small tiles: each label once.
        self._labels: dict[object, str] = {}
        self._largest_tiles: dict[EntryFuncOp, int] = {}
        # Reading the pid's `xla.range` walks attributes: once per function.
        self._launch_sizes: dict[EntryFuncOp, int] = {}
        self._buffer_specs: dict[EntryFuncOp, list[_BufferSpec]] = {}
        self._ranks: dict[int, tuple[Attribute, int]] = {}
        # Per group of lanes: the values the same at every launch (see `plan`).
        self._launch_values: dict[Hashable, LaunchValues] = {}
        self._lanes: LaunchValues | None = None
        self._lanes_held: HeldLaunchValues | None = None
        self.lanes_key: Hashable | None = None
        self._pid_arrays: dict[tuple[int, int], Array] = {}
        self._kept_bytes = 0

    # -- entry points ------------------------------------------------------------------

    def entry_function(self, name: str | None = None) -> EntryFuncOp:
        if name is None:
            if len(self.functions) != 1:
                names = ", ".join(sorted(self.functions)) or "none"
                raise UserError(f"expected one xtile.entry_func, but got {names}")
            return next(iter(self.functions.values()))
        function = self.functions.get(name)
        if function is None:
            names = ", ".join(sorted(self.functions))
            raise UserError(f"no xtile.entry_func named '{name}' (have: {names})")
        return function

    def num_programs(self, function: EntryFuncOp) -> int:
        """One program per value of the pid argument's `xla.range` (unless given)."""
        if self.programs is not None:
            return self.programs
        known = self._launch_sizes.get(function)
        if known is not None:
            return known
        bounds = _arg_range(function, len(function.entry_block.args) - 1)
        if bounds is None:
            raise self.error(
                function, "needs an `xla.range` on its program id argument (or a launch size)"
            )
        self._launch_sizes[function] = bounds[1] + 1
        return bounds[1] + 1

    def run(
        self, inputs: Sequence[np.ndarray], entry: str | None = None, progress: object = None
    ) -> list[np.ndarray]:
        """The kernel's results (its buffers after the inputs) for `inputs`."""
        function = self.entry_function(entry)
        self.step_counter = StepCounter()
        self.memory = MemoryMeter()
        self._held.clear()
        self._lanes, self._lanes_held, self.lanes_key = None, None, None
        buffers = self._buffers(function, inputs)
        programs = self.num_programs(function)
        largest = self._largest_tiles.get(function)
        if largest is None:
            largest = self._largest_tiles[function] = _largest_tile(function)
        chunk = max(1, _CHUNK_ELEMENTS // largest)
        try:
            for start in range(0, programs, chunk):
                stop = min(start + chunk, programs)
                self.pids = self._pid_range(start, stop)
                self.env = dict(zip(function.buffer_args, buffers, strict=True))
                self.env[function.tile_id] = self.pids
                with self.lanes((function, start, stop), function):
                    self.run_block(function.entry_block, None)
        finally:
            self.env = {}
        return buffers[len(inputs) :]

    def _pid_range(self, start: int, stop: int) -> Array:
        """The pids start..stop-1 (the same array at every launch: values cached by lanes
        stay valid for it)."""
        key = (start, stop)
        pids = self._pid_arrays.get(key)
        if pids is None:
            pids = self._pid_arrays[key] = np.arange(start, stop, dtype=np.int64)
            pids.flags.writeable = False
        return pids

    @contextmanager
    def lanes(self, key: Hashable | None, where: Operation) -> Iterator[None]:
        """Run the body over the lanes `key` names (None: lanes whose values are not kept
        between launches); the values the same at every launch are kept per key."""
        outer, outer_held, outer_key = self._lanes, self._lanes_held, self.lanes_key
        values: LaunchValues | None = None
        held: HeldLaunchValues | None = None
        if key is not None:
            values = self._launch_values.get(key)
            if values is None:
                values = self._launch_values[key] = LaunchValues()
            try:
                held = HeldLaunchValues(values, self.memory, self._held)
            except MemoryOverBudget as over:
                raise self.error(where, str(over)) from None
        self._lanes, self._lanes_held, self.lanes_key = values, held, key
        try:
            yield
        finally:
            if held is not None:
                held.release()
            self._lanes, self._lanes_held, self.lanes_key = outer, outer_held, outer_key

    def _buffers(self, function: EntryFuncOp, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        specs = self._buffer_specs.get(function)
        if specs is None:
            specs = self._buffer_specs[function] = _buffer_specs(function)
        if len(inputs) > len(specs):
            raise UserError(
                f"'{function.sym_name.data}' takes {len(specs)} buffers, but got "
                f"{len(inputs)} inputs"
            )
        buffers: list[np.ndarray] = []
        for position, spec in enumerate(specs):
            if position < len(inputs):
                array = np.asarray(inputs[position])
                self._held[id(array)] = array
                if array.shape != spec.shape:
                    raise UserError(
                        f"buffer {position} ({spec.type}) expects shape {list(spec.shape)}, "
                        f"but got {list(array.shape)}"
                    )
                self._reserve(function, spec.label, array.nbytes)
                buffers.append(array if array.dtype == spec.dtype else array.view(spec.dtype))
            else:
                reservation = self._reserve(function, spec.label, spec.nbytes)
                buffers.append(reservation.keep(np.zeros(spec.shape, spec.dtype)))
        return buffers

    def _reserve(self, op: Operation, label: str, size: int) -> Reservation:
        try:
            return self.memory.reserve(label, size)
        except MemoryOverBudget as over:
            raise self.error(op, str(over)) from None

    # -- running ops -------------------------------------------------------------------

    def run_block(self, block: Block, args: Sequence[Any] | None) -> list[Any]:
        """Run `block` with `args` (None: its arguments are bound already); returns the
        operands of its terminator."""
        env = self.env
        for arg, value in zip(block.args, args or (), strict=args is not None):
            env[arg] = value
        plan = block_plan(block, self.handlers, self.unsupported)
        counter = self.step_counter
        kept = self._lanes
        for step in plan.steps:
            counter.spent += 1
            if counter.spent > counter.limit:
                raise self.error(step.op, counter.exceeded())
            if step.invariant and kept is not None:
                known = kept.results.get(step.op)
                if known is None:
                    known = self.keep(
                        step, step.handler(self, step.op, [env[v] for v in step.operands])
                    )
                for result, value in zip(step.results, known, strict=True):
                    env[result] = value
                continue
            results = step.handler(self, step.op, [env[v] for v in step.operands])
            for result, value in zip(step.results, results, strict=True):
                self.hold(step.op, result, value)
                env[result] = value
        if plan.terminator is None:
            return []
        if counter.charge(1):
            raise self.error(plan.terminator, counter.exceeded())
        return [env[v] for v in plan.terminator.operands]

    def keep(self, step: Step, results: list[Any]) -> tuple[Any, ...]:
        """Keep an invariant step's results for the next launches over the current lanes
        (counted in the memory meter while they run); past `_KEEP_BYTES` kept in all, they
        are held as any value is and made again at the next launch."""
        assert self._lanes is not None and self._lanes_held is not None
        known = tuple(results)
        if not self.may_keep(self._lanes.new_bytes(known)):
            for result, value in zip(step.results, known, strict=True):
                self.hold(step.op, result, value)
            return known
        try:
            self._lanes_held.count(self._lanes.add(step.op, known))
        except MemoryOverBudget as over:
            raise self.error(step.op, str(over)) from None
        return known

    @property
    def kept_bytes(self) -> int:
        """The bytes of values and tile accesses kept between launches."""
        return self._kept_bytes

    def may_keep(self, size: int) -> bool:
        """Whether `size` bytes more may be kept between launches (and count them if so)."""
        if self._kept_bytes + size > _KEEP_BYTES:
            return False
        self._kept_bytes += size
        return True

    def kept_values(self) -> int:
        """How many ops' results are kept between launches."""
        return sum(len(values.results) for values in self._launch_values.values())

    def kept_lanes(self) -> LaunchValues | None:
        """The values kept between launches for the current lanes (None: none are)."""
        return self._lanes

    def unsupported(self, op: Operation) -> Handler:
        def refuse(ex: TileExecutor, op: Operation, _args: list[Any]) -> list[Any]:
            raise ex.error(op, "is not supported by the tile executor")

        return refuse

    def hold(self, op: Operation, result: SSAValue, value: Any) -> None:
        """Count the array behind a new value against the memory budget while it lives (a
        view is counted by the array it views, once)."""
        if not isinstance(value, np.ndarray):
            return
        owner = value
        while isinstance(owner.base, np.ndarray):
            owner = owner.base
        if not owner.nbytes or self._held.get(id(owner)) is owner:
            return
        label = self._labels.get(result)
        if label is None:
            label = self._labels[result] = f"'{op.name}' ({result.type})"
        try:
            reservation = self.memory.reserve(label, owner.nbytes)
        except MemoryOverBudget as over:
            raise self.error(op, str(over)) from None
        reservation.keep(owner)
        self._held[id(owner)] = owner

    def error(self, op: Operation, message: str) -> TileExecutionError:
        location = self.locate(op) if self.locate is not None else None
        return TileExecutionError(f"'{op.name}' op {message}", location)

    # -- values ------------------------------------------------------------------------

    def per_pid(self, value: Any, type_: Attribute) -> Array:
        """`value` (a constant, or already per pid) with the pid axis in front."""
        array = np.asarray(value)
        # By identity: hashing a type attribute costs more than the rest of this.
        known = self._ranks.get(id(type_))
        if known is None or known[0] is not type_:
            shaped = isinstance(type_, ShapedType)
            known = self._ranks[id(type_)] = (type_, len(type_.get_shape()) if shaped else 0)
        rank = known[1]
        if array.ndim > rank:
            return array
        return np.broadcast_to(array, (len(self.pids), *array.shape))

    def offsets(self, values: Sequence[Any]) -> npt.NDArray[np.int64]:
        """Offsets ([pids, rank]) from index values, each uniform or per pid."""
        columns = [np.broadcast_to(np.asarray(v, dtype=np.int64), self.pids.shape) for v in values]
        if not columns:
            return np.zeros((len(self.pids), 0), dtype=np.int64)
        return np.stack(columns, axis=1)

    def fault(self, op: Operation, fault: TileFault) -> TileExecutionError:
        return self.error(op, str(fault))


@dataclass(frozen=True)
class _BufferSpec:
    """A kernel buffer's shape, element type and memory label, read from its type once."""

    type: Attribute
    shape: tuple[int, ...]
    dtype: np.dtype[Any]
    nbytes: int
    label: str


def _buffer_specs(function: EntryFuncOp) -> list[_BufferSpec]:
    specs = []
    for position, arg in enumerate(function.buffer_args):
        type_ = arg.type
        assert isinstance(type_, ShapedType)
        shape, dtype = tuple(type_.get_shape()), numpy_dtype(type_)
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        specs.append(_BufferSpec(type_, shape, dtype, nbytes, f"buffer {position} ({type_})"))
    return specs


def _arg_range(function: EntryFuncOp, position: int) -> tuple[int, int] | None:
    attrs = function.arg_attrs
    if not isinstance(attrs, ArrayAttr) or position >= len(attrs.data):
        return None
    entry = attrs.data[position]
    if not isinstance(entry, DictionaryAttr):
        return None
    bounds = entry.data.get("xla.range")
    if not isinstance(bounds, ArrayAttr) or len(bounds.data) != 2:
        return None
    low, high = bounds.data
    if not isinstance(low, IntegerAttr) or not isinstance(high, IntegerAttr):
        return None
    return low.value.data, high.value.data


def _largest_tile(function: EntryFuncOp) -> int:
    largest = 1
    for op in function.walk():
        for result in op.results:
            if isinstance(result.type, TensorType):
                largest = max(largest, int(np.prod(result.type.get_shape(), dtype=np.int64)))
    return largest


@cache
def handler_table() -> OpTable[Handler]:
    """Every op the tile executor runs: the shared `arith` and `math` semantics, then the
    tile ops of each dialect."""
    from xla_emit.interpreter.tile.dot import DOT_HANDLERS
    from xla_emit.interpreter.tile.guarded_arith import add_guards
    from xla_emit.interpreter.tile.stablehlo_ops import STABLEHLO_HANDLERS
    from xla_emit.interpreter.tile.triton_ops import TRITON_HANDLERS
    from xla_emit.interpreter.tile.xtile_ops import XTILE_HANDLERS

    table: OpTable[Handler] = OpTable()
    table.register(WholeValueArithImpls())
    for op_type, handler in (
        *XTILE_HANDLERS,
        *STABLEHLO_HANDLERS,
        *TRITON_HANDLERS,
        *DOT_HANDLERS,
    ):
        table.add(op_type, handler)
    add_guards(table)
    return table
