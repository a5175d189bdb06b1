"""The lane-vectorized (SIMT) executor.

Every SSA value is a numpy array with one entry per lane of the current chunk
(shape `(lanes, *vector_shape)`) or, when it is the same for every lane, a
uniform value of shape `vector_shape` (a numpy scalar for scalars). Tensors
and memrefs are `TensorValue`s (see `memory`). An op is one numpy call over a
whole chunk, so Python's cost per op is paid once per chunk, not per thread.

Control flow: loops with uniform bounds run in Python; a lane-varying `scf.if`
runs the branches that have active lanes under `Executor.mask` and merges the
results per lane; lane-varying loops iterate until no lane is active. A loop
whose iterations are independent runs them side by side as extra lanes
(`iteration_lanes`), which is how XLA:CPU's one-thread loops run fast.

The grid is split into chunks of whole blocks (`max_lanes` lanes at most), so
shared memory and barriers never straddle a chunk. Chunks are independent and
run on `workers` threads, each with its own lane state (`lanes`, `mask`,
`env`, tensor `versions`); runs with write-tracking checks use one thread,
since those checks compare writes across chunks.

    executor = Executor(module, checks=CheckOptions.fast(), locator=source_map)
    outputs = executor.run([x])            # output arguments are allocated
    executor.grid                          # LaunchGrid read off the xla.range attributes
"""

from __future__ import annotations

import copy
import os
import threading
import weakref
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from functools import partial
from typing import Any, Protocol, TypeAlias, cast

import numpy as np
from numpy.typing import NDArray
from xdsl.dialects.builtin import MemRefType, ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from xla_emit.diagnostics import SourceLocation, UserError
from xla_emit.dialects.xla import XLA_SLICE_INDEX
from xla_emit.interpreter.budget import MemoryMeter, Reservation, StepCounter
from xla_emit.interpreter.element_types import numpy_dtype, shaped_rank
from xla_emit.interpreter.lanes import LaneSet, LaunchGrid
from xla_emit.interpreter.memory import Buffer, BufferKind, CheckOptions, TensorValue
from xla_emit.interpreter.poison import PoisonTracker
from xla_emit.interpreter.registry import GridAxis, ImplRegistry, load_dialect_impls

Value: TypeAlias = np.ndarray | np.generic | TensorValue
Values: TypeAlias = tuple[Value, ...]

# Lane values as numpy computes with them. A uniform value is often a numpy
# scalar rather than a 0-d array; both take the same operators, ufuncs and
# `[()]`, but numpy's stubs declare those on ndarray only, so code computing
# on lanes views values through this type (see `lanes`).
Array: TypeAlias = NDArray[Any]


def lanes(value: Value) -> Array:
    """The lanes of a scalar or vector value, for ops that never take tensors."""
    assert not isinstance(value, TensorValue), "a tensor where lanes were expected"
    # A numpy scalar is used as a 0-d array (see `Array`).
    return cast(Array, value)


# (implementation, op, operands, results, values of the block that die after the op)
_Step: TypeAlias = tuple[
    Callable[[Operation, Values], Values],
    Operation,
    tuple[SSAValue, ...],
    tuple[SSAValue, ...],
    tuple[SSAValue, ...],
]

# Lanes per chunk: big enough that Python's cost per op and chunk (about a
# millisecond a chunk for GELU's 60 ops) vanishes next to numpy's loops, small
# enough that memory stays bounded (each value of a chunk is an array of this
# many lanes). For bf16[6,512,4096] GELU, 1 << 18 lanes took 0.6x the CPU time
# of 1 << 15.
DEFAULT_MAX_LANES = 1 << 18


class OpLocator(Protocol):
    """Where an op came from (`xla_emit.ir.SourceMap` is one)."""

    def location_of(self, op: Operation | None) -> SourceLocation | None: ...


ProgressCallback: TypeAlias = Callable[[int, int], None]


class Executor:
    """Runs functions of one module over the lanes of a launch grid."""

    def __init__(
        self,
        module: ModuleOp,
        checks: CheckOptions | None = None,
        max_lanes: int = DEFAULT_MAX_LANES,
        locator: OpLocator | None = None,
        registry: ImplRegistry | None = None,
        workers: int | None = None,
    ):
        self.module = module
        self.checks = checks if checks is not None else CheckOptions()
        self.max_lanes = max_lanes
        # Chunks run on this many threads (numpy releases the GIL inside its loops).
        self.workers = workers if workers is not None else _available_cores()
        self.versions = _versions()
        self.locator = locator
        self.registry = registry if registry is not None else load_dialect_impls()
        self.functions: dict[str, FuncOp] = {
            op.sym_name.data: op for op in module.walk() if isinstance(op, FuncOp)
        }
        self.grid = LaunchGrid()
        self.lanes = LaneSet(self.grid, 0, 1)
        # Active lanes of the chunk (None: all of them).
        self.mask: np.ndarray | None = None
        self.env: dict[SSAValue, Value] = {}
        # After `run`: the contents of every tensor/memref argument (None for scalars).
        self.final_arguments: list[np.ndarray | None] = []
        self._steps: dict[Block, list[_Step]] = {}
        self.step_counter = StepCounter()
        self.memory = MemoryMeter()
        # The functions being run, outermost first: a call into one of them never ends.
        self.calling: tuple[FuncOp, ...] = ()
        # Results of pure calls in the current chunk (see `xla.run_pure_call`).
        self.pure_call_results: dict[object, Values] = {}
        # What the interpreter works out once about this module's ops (which loops
        # may run their iterations as lanes, see `iteration_lanes`); workers share it.
        self.op_facts: dict[Any, Any] = {}
        # Values read from unwritten shared memory (`poison`), followed under `--check`.
        self.poison = PoisonTracker()

    # ----------------------------------------------------------------- launch

    def entry_function(self, name: str | None = None) -> FuncOp:
        """The function called `name`, else the one marked `xla.entry`, else the only public one."""
        if name is not None:
            if name not in self.functions:
                raise UserError(f"no function named '{name}' in the module")
            return self.functions[name]
        marked = [f for f in self.functions.values() if "xla.entry" in f.attributes]
        if len(marked) == 1:
            return marked[0]
        public = [f for f in self.functions.values() if f.body.blocks and not _is_private(f)]
        if len(public) != 1:
            names = ", ".join(f.sym_name.data for f in public) or "none"
            raise UserError(
                f"cannot choose an entry function (public functions: {names}); name one"
            )
        return public[0]

    def launch_grid(self, function: FuncOp) -> LaunchGrid:
        """The grid, read off the `xla.range` of the thread/block id ops.

        Those are the ops reachable from `function`.
        """
        threads = [1, 1, 1]
        blocks = [1, 1, 1]
        for op in self._reachable_ops(function):
            for kind, dim, extent in self._grid_axes(op):
                extents = threads if kind == "thread" else blocks
                extents[dim] = max(extents[dim], extent)
        return LaunchGrid((threads[0], threads[1], threads[2]), (blocks[0], blocks[1], blocks[2]))

    def _grid_axes(self, op: Operation) -> tuple[GridAxis, ...]:
        """The grid axes `op` reads; an op that cannot size the grid is named with its line."""
        try:
            return self.registry.grid_axes(op)
        except UserError as error:
            if error.location is not None or self.locator is None:
                raise
            raise UserError(error.message, self.locator.location_of(op)) from None

    def _reachable_ops(self, function: FuncOp) -> Iterator[Operation]:
        seen = {function.sym_name.data}
        pending = [function]
        while pending:
            for op in pending.pop().walk():
                yield op
                callee = op.properties.get("callee") or op.attributes.get("callee")
                name = getattr(callee, "string_value", lambda: None)()
                if isinstance(name, str) and name in self.functions and name not in seen:
                    seen.add(name)
                    pending.append(self.functions[name])

    def run(
        self,
        inputs: Sequence[np.ndarray | np.generic | int | float],
        entry: str | None = None,
        grid: LaunchGrid | None = None,
        progress: ProgressCallback | None = None,
    ) -> list[np.ndarray]:
        """Launch `entry` on `inputs` and return its results as numpy arrays.

        Tensor arguments are numpy arrays of the argument's shape and dtype
        (bf16 as `ml_dtypes.bfloat16`). A kernel's output arguments (the last
        ones, one per result, XLA's convention) may be left out: they are then
        allocated. Scalar and vector results come back with a leading lane
        axis unless the grid has a single lane.
        """
        function = self.entry_function(entry)
        self.grid = grid if grid is not None else self.launch_grid(function)
        self.step_counter = StepCounter()
        self.memory = MemoryMeter()
        arguments = self._bind_arguments(function, inputs)
        chunks = self.grid.chunks(self.max_lanes)
        tracker = _Progress(progress, self.grid.num_lanes)
        # Tracked checks compare writes across chunks, so they run one chunk at a time.
        workers = 1 if self.checks.tracks_writes else min(self.workers, len(chunks))
        if workers <= 1:
            per_chunk = [self._run_chunk(function, arguments, chunk, tracker) for chunk in chunks]
        else:
            runners = [self._worker() for _ in range(workers)]
            with ThreadPoolExecutor(workers) as pool:
                futures = [
                    pool.submit(
                        runners[n % workers]._run_chunk_group,
                        function,
                        arguments,
                        chunks[n::workers],
                        tracker,
                    )
                    for n in range(workers)
                ]
                groups = [future.result() for future in futures]
            per_chunk = [groups[n % workers][n // workers] for n in range(len(chunks))]
        # Kernels that write through memref arguments return nothing: keep what they wrote.
        self.final_arguments = [
            a.buffer.as_array() if isinstance(a, TensorValue) else None for a in arguments
        ]
        # Buffers (and their check bookkeeping) must not outlive the launch.
        self.versions = _versions()
        return self._gather_results(function, per_chunk)

    def _run_chunk(
        self, function: FuncOp, arguments: list[Value], chunk: LaneSet, tracker: _Progress
    ) -> Values:
        """Run `function` on the lanes of `chunk`; results broadcast to the chunk's lanes."""
        self.lanes = chunk
        self.mask = None
        # Each chunk starts from the arguments as given: versions count updates within a chunk.
        self.versions = _versions()
        self.pure_call_results = {}
        self.poison.clear()
        with np.errstate(all="ignore"):
            results = self.call_function(function, arguments, None)
        detached = tuple(
            self._detach(value, type_)
            for value, type_ in zip(results, function.function_type.outputs.data, strict=True)
        )
        tracker.advance(chunk.count)
        return detached

    def _run_chunk_group(
        self, function: FuncOp, arguments: list[Value], chunks: list[LaneSet], tracker: _Progress
    ) -> list[Values]:
        return [self._run_chunk(function, arguments, chunk, tracker) for chunk in chunks]

    def _worker(self) -> Executor:
        """An executor sharing this one's module, grid and buffers, with its own lane state."""
        worker = copy.copy(self)
        worker.env = {}
        worker.versions = _versions()
        worker.mask = None
        worker._steps = {}
        worker.pure_call_results = {}
        worker.poison = PoisonTracker()
        return worker

    def version(self, buffer: Buffer) -> int:
        """How many in-place updates `buffer` has seen in the current chunk."""
        return self.versions.get(buffer, 0)

    def bump_version(self, buffer: Buffer) -> int:
        """Record one more in-place update of `buffer`; returns its new version."""
        version = self.versions.get(buffer, 0) + 1
        self.versions[buffer] = version
        return version

    def _bind_arguments(
        self, function: FuncOp, inputs: Sequence[np.ndarray | np.generic | int | float]
    ) -> list[Value]:
        arg_types = list(function.function_type.inputs.data)
        result_types = list(function.function_type.outputs.data)
        missing = len(arg_types) - len(inputs)
        if missing not in (0, len(result_types)) or (
            missing and arg_types[len(inputs) :] != result_types
        ):
            raise UserError(
                f"'{function.sym_name.data}' takes {len(arg_types)} arguments, "
                f"but {len(inputs)} were given"
            )
        values: list[Value] = []
        shared = _shared_slices(function)
        for position, type_ in enumerate(arg_types):
            # Writable arguments are copies, and with race checks they track their writers.
            writable = position >= len(inputs) or missing == 0
            self._hold_argument(function, position, type_, writable, position >= len(inputs))
            if position < len(inputs):
                values.append(self._input_value(position, type_, inputs[position], writable))
            else:
                initial = inputs[shared[position]] if position in shared else None
                values.append(self._output_value(position, type_, initial))
        return values

    def _hold_argument(
        self, function: FuncOp, position: int, type_: Attribute, writable: bool, output: bool
    ) -> None:
        """An argument's buffer (and its write tracking) is held for the whole run."""
        if not isinstance(type_, TensorType | MemRefType):
            return
        numel = int(np.prod(type_.get_shape(), dtype=np.int64))
        name = f"{'output ' if output else ''}argument {position}"
        self.hold(function, f"{name} ({type_})", numel * numpy_dtype(type_).itemsize)
        if writable and self.checks.races:
            # Two int32 per element: the writer and its barrier interval.
            self.hold(function, f"the write tracking of {name}", numel * 8)

    def _input_value(
        self,
        position: int,
        type_: Attribute,
        given: np.ndarray | np.generic | float,
        writable: bool,
    ) -> Value:
        dtype = numpy_dtype(type_)
        if not isinstance(type_, TensorType | MemRefType):
            return np.asarray(given, dtype=dtype)[()]
        array = np.asarray(given)
        shape = tuple(type_.get_shape())
        if array.dtype == dtype and array.size == int(np.prod(shape, dtype=np.int64)):
            # Flattening passes change a kernel's signature, not its data: row-major reshape.
            array = array.reshape(shape)
        if array.dtype != dtype or array.shape != shape:
            raise UserError(
                f"argument {position}: expected {type_}, but got an array of "
                f"{array.dtype}{list(array.shape)}"
            )
        kind = BufferKind.OUTPUT if writable else BufferKind.INPUT
        # Inputs are never written (writes into them are errors), so they need no copy.
        data = array.reshape(-1).copy() if writable else np.ascontiguousarray(array).reshape(-1)
        buffer = Buffer(data, shape, kind, f"argument {position}")
        buffer.readonly = not writable
        self._track_output(buffer)
        return TensorValue(buffer, 0)

    def _output_value(
        self,
        position: int,
        type_: Attribute,
        initial: np.ndarray | np.generic | float | None = None,
    ) -> Value:
        """An allocated output: zeros, or a copy of the input whose buffer slice it shares."""
        if not isinstance(type_, TensorType | MemRefType):
            raise UserError(f"output argument {position} must be a tensor, not {type_}")
        shape = tuple(type_.get_shape())
        size = int(np.prod(shape, dtype=np.int64))
        if initial is None:
            data = np.zeros(size, dtype=numpy_dtype(type_))
        else:
            data = np.array(initial, dtype=numpy_dtype(type_)).reshape(-1)
            if data.size != size:
                raise UserError(
                    f"output argument {position} shares a buffer slice with an input of "
                    f"{data.size} elements, but has {size}"
                )
        buffer = Buffer(data, shape, BufferKind.OUTPUT, f"output argument {position}")
        self._track_output(buffer)
        return TensorValue(buffer, 0)

    def _track_output(self, buffer: Buffer) -> None:
        if buffer.kind is BufferKind.OUTPUT and self.checks.races:
            buffer.start_tracking(initialized=True)

    def _detach(self, value: Value, type_: Attribute) -> Value:
        """A chunk's result, broadcast to all of its lanes unless it is a tensor."""
        if isinstance(value, TensorValue):
            return value
        return self.to_lanes(value, shaped_rank(type_))

    def _gather_results(self, function: FuncOp, per_chunk: list[Values]) -> list[np.ndarray]:
        results: list[np.ndarray] = []
        for position in range(len(function.function_type.outputs.data)):
            last = per_chunk[-1][position]
            if isinstance(last, TensorValue):
                # The buffers belong to this launch: hand them out without a copy.
                results.append(last.buffer.as_array())
                continue
            lanes = np.concatenate([np.asarray(chunk[position]) for chunk in per_chunk])
            results.append(lanes[0] if self.grid.num_lanes == 1 else lanes)
        return results

    # ------------------------------------------------------------- execution

    def call_function(
        self, function: FuncOp | str, args: Sequence[Value], caller: Operation | None
    ) -> Values:
        """Run a function body in a fresh frame and return what it returns."""
        if isinstance(function, str):
            if function not in self.functions:
                raise self.error(caller, f"calls unknown function '@{function}'")
            function = self.functions[function]
        name = function.sym_name.data
        if not function.body.blocks:
            raise self.error(caller, f"calls '@{name}', which has no body")
        if function in self.calling:
            chain = " -> ".join(f"@{f.sym_name.data}" for f in (*self.calling, function))
            raise self.error(
                caller, f"recursive call to '@{name}' ({chain}): a kernel has no stack"
            )
        outer, outer_calling = self.env, self.calling
        self.env = {}
        self.calling = (*outer_calling, function)
        try:
            return self.run_block(function.body.blocks[0], args)
        finally:
            self.env, self.calling = outer, outer_calling

    def run_region(self, region: Region, args: Sequence[Value]) -> Values:
        """Run the single block of `region`; returns its terminator's operands."""
        return self.run_block(region.blocks[0], args)

    def run_block(self, block: Block, args: Sequence[Value]) -> Values:
        """Run `block` with `args` bound to its arguments; returns its terminator's values."""
        env = self.env
        for argument, value in zip(block.args, args, strict=True):
            env[argument] = value
        steps = self._steps.get(block)
        if steps is None:
            steps = self._compile(block)
        if self.step_counter.charge(len(steps)):
            raise self.error(block.parent_op(), self.step_counter.exceeded())
        if self.checks.uninitialized:
            return self._run_steps_following_poison(steps)
        for function, op, operands, results, dead in steps[:-1]:
            values = function(op, tuple([env[operand] for operand in operands]))
            for result, value in zip(results, values, strict=True):
                env[result] = value
            # Dropped at once, so a chunk holds only its live arrays (less memory, warmer cache).
            for value in dead:
                del env[value]
        function, op, operands, _, _ = steps[-1]
        return function(op, tuple([env[operand] for operand in operands]))

    def _run_steps_following_poison(self, steps: list[_Step]) -> Values:
        """`run_block`'s loop, passing marks of unwritten shared memory on (see `poison`)."""
        env, poison = self.env, self.poison
        for function, op, operands, results, dead in steps[:-1]:
            args = tuple([env[operand] for operand in operands])
            if not poison.empty:
                poison.before(self, op, args)
            values = function(op, args)
            if not poison.empty:
                values = poison.after(self, op, args, values)
            for result, value in zip(results, values, strict=True):
                env[result] = value
            for value in dead:
                del env[value]
        function, op, operands, _, _ = steps[-1]
        args = tuple([env[operand] for operand in operands])
        if not poison.empty:
            poison.before(self, op, args)
        return function(op, args)

    def implementation(self, op: Operation) -> Callable[[Operation, Values], Values] | None:
        """What runs `op` in this executor (None: the interpreter has no implementation)."""
        implementation = self.registry.lookup(type(op))
        return None if implementation is None else partial(implementation, self)

    def _compile(self, block: Block) -> list[_Step]:
        steps: list[_Step] = []
        dies_after = _deaths(block)
        for index, op in enumerate(block.ops):
            implementation = self.registry.lookup(type(op))
            if implementation is None:
                raise self.error(op, "is not supported by the interpreter")
            bound = partial(implementation, self)
            dead = tuple(dies_after.get(index, ()))
            steps.append((bound, op, tuple(op.operands), tuple(op.results), dead))
        if not steps:
            raise UserError("the interpreter cannot run an empty block")
        self._steps[block] = steps
        return steps

    # --------------------------------------------------------------- helpers

    @contextmanager
    def masked(self, mask: np.ndarray | None) -> Generator[None]:
        """Run the body with `mask` as the active lanes (already combined with the outer mask)."""
        outer = self.mask
        self.mask = mask
        try:
            yield
        finally:
            self.mask = outer

    @contextmanager
    def branch_versions(self) -> Generator[Callable[[], AbstractContextManager[None]]]:
        """Tensor versions for branches that run one after another on disjoint lanes.

        Each branch starts from the versions before the first (its lanes never
        saw the other branches' updates); afterwards every buffer has the
        newest version any branch gave it. Use as
        `with ex.branch_versions() as join:` and `with join():` per branch.
        """
        before = dict(self.versions)
        newest = _versions(before)

        @contextmanager
        def branch() -> Generator[None]:
            self.versions = _versions(before)
            try:
                yield
            finally:
                for buffer, version in self.versions.items():
                    newest[buffer] = max(version, newest.get(buffer, 0))

        try:
            yield branch
        finally:
            self.versions = newest

    def combine_mask(self, condition: np.ndarray) -> np.ndarray:
        """`condition` restricted to the currently active lanes."""
        return condition if self.mask is None else condition & self.mask

    def to_lanes(self, value: np.ndarray | np.generic, rank: int) -> np.ndarray:
        """`value` with a lane axis (uniform values are broadcast; no copy)."""
        array = np.asarray(value)
        if array.ndim > rank:
            return array
        return np.broadcast_to(array, (self.lanes.count, *array.shape))

    def merge(
        self,
        condition: np.ndarray,
        if_true: Value,
        if_false: Value,
        type_: Attribute,
        op: Operation,
    ) -> Value:
        """Per lane, `if_true` where `condition` holds, else `if_false`."""
        if if_true is if_false:
            return if_true
        if isinstance(if_true, TensorValue) or isinstance(if_false, TensorValue):
            if (
                isinstance(if_true, TensorValue)
                and isinstance(if_false, TensorValue)
                and if_true.buffer is if_false.buffer
            ):
                return TensorValue(if_true.buffer, self.version(if_true.buffer))
            raise self.error(
                op,
                "yields different tensors on different lanes, which the interpreter does not "
                "support",
            )
        rank = shaped_rank(type_)
        shaped = condition.reshape(condition.shape + (1,) * rank)
        merged = np.where(shaped, if_true, if_false)
        return merged.astype(numpy_dtype(type_), copy=False)

    def first_lane(self, condition: np.ndarray) -> int | None:
        """The first active lane of the chunk where `condition` holds (None if none)."""
        hits = np.flatnonzero(
            self.combine_mask(condition)
            if condition.ndim
            else np.broadcast_to(condition, (self.lanes.count,))
        )
        return int(hits[0]) if hits.size else None

    def describe_lane(self, local_lane: int) -> str:
        """`thread T, block B` of a lane of the current chunk."""
        return self.grid.describe_lane(self.lanes.grid_lane(local_lane))

    def hold(self, op: Operation | None, what: str, size: int) -> Reservation:
        """Reserve `size` bytes for `what` before allocating them; an error at `op` when the
        run would then hold more than the memory budget."""
        return self.memory.holder(what, partial(self.error, op))(size)

    def error(self, op: Operation | None, message: str, local_lane: int | None = None) -> UserError:
        """A `UserError` naming the op, its source location (if known) and the lane."""
        text = message if op is None else f"'{op.name}' op {message}"
        if local_lane is not None:
            text += f" ({self.describe_lane(local_lane)})"
        location = (
            self.locator.location_of(op) if self.locator is not None and op is not None else None
        )
        return UserError(text, location)


class _Progress:
    """Lanes done so far, reported from any worker thread."""

    def __init__(self, callback: ProgressCallback | None, total: int):
        self.callback = callback
        self.total = total
        self.done = 0
        self.lock = threading.Lock()

    def advance(self, lanes: int) -> None:
        if self.callback is None:
            return
        with self.lock:
            self.done += lanes
            self.callback(self.done, self.total)


def _versions(initial: dict[Buffer, int] | None = None) -> weakref.WeakKeyDictionary[Buffer, int]:
    """Versions by buffer, holding no buffer alive: a buffer is freed (and leaves the memory
    budget) when the last value holding it dies."""
    return weakref.WeakKeyDictionary(initial or {})


def _deaths(block: Block) -> dict[int, list[SSAValue]]:
    """Values of `block` (its arguments and results) by the index of the last op of
    `block` that reads them, directly or inside its regions.

    A result nothing reads dies where it is made. Values from enclosing blocks
    are left alone: a loop body runs again and reads them again.
    """
    ops = list(block.ops)
    defined = set(block.args) | {result for op in ops for result in op.results}
    last_use: dict[SSAValue, int] = {}
    for index, op in enumerate(ops):
        for result in op.results:
            last_use[result] = index
        for inner in op.walk():
            for operand in inner.operands:
                if operand in defined:
                    last_use[operand] = index
    deaths: dict[int, list[SSAValue]] = {}
    for value, index in last_use.items():
        deaths.setdefault(index, []).append(value)
    return deaths


def _available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _is_private(function: FuncOp) -> bool:
    visibility = function.sym_visibility
    return visibility is not None and visibility.data == "private"


def _shared_slices(function: FuncOp) -> dict[int, int]:
    """Each output argument sharing an input argument's `xla.slice_index`: that input.

    In-place kernels (dynamic-update-slice, scatter) write only some elements
    of an output whose buffer is the input's, so the output starts as the input.
    """
    arg_attrs = function.arg_attrs.data if function.arg_attrs is not None else ()
    num_inputs = len(function.function_type.inputs.data) - len(function.function_type.outputs.data)
    slice_of: dict[int, Attribute] = {}
    for position, attrs in enumerate(arg_attrs):
        index = attrs.data.get(XLA_SLICE_INDEX)
        if index is not None:
            slice_of[position] = index
    inputs = {index: position for position, index in slice_of.items() if position < num_inputs}
    return {
        position: inputs[index]
        for position, index in slice_of.items()
        if position >= num_inputs and index in inputs
    }
