"""Running a mixed kernel's cores together: the cube function and the vector
function (once per vector sub-block) that an entry calls one after the other.

Each core runs in a thread of its own, but only one runs at a time: a core
runs until it finishes or pops from a pipe that holds nothing for it yet; then
the next core in program order runs. A core waiting on a pipe resumes once
another core has pushed. When every unfinished core waits and no push happened
in a whole round, the pipes deadlock and each waiting pop reports its empty
pipe. The order of the cores' steps is fixed by the program, so runs are
deterministic (`tprint` lines included).
"""

from __future__ import annotations

import copy
import threading
from typing import Any

from xdsl.dialects import func
from xdsl.ir import Operation

from xla_emit.interpreter.pto_tile import Value

# Vector cores per cube core (A2A3 and A5): a vector kernel runs once on each.
VECTOR_SUBBLOCKS = 2


def kernel_kind(function: Operation) -> str | None:
    """'cube' or 'vector' for a function marked `pto.kernel_kind`, else None."""
    kind = function.attributes.get("pto.kernel_kind")
    if kind is None:
        return None
    return "vector" if "vector" in str(kind) else "cube" if "cube" in str(kind) else None


class _Core:
    """One core's run of one function, in a thread that waits for its turn."""

    def __init__(self, scheduler: Scheduler, executor: Any, function: func.FuncOp, args: list):
        self.scheduler, self.function, self.args = scheduler, function, args
        self.executor = executor
        self.turn = threading.Event()
        self.done = self.waiting = False
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._main, daemon=True)

    def _main(self) -> None:
        self.turn.wait()
        self.turn.clear()
        try:
            self.executor._call(self.function, self.args)
        except BaseException as error:  # noqa: BLE001 - handed to the caller's thread
            self.error = error
        finally:
            self.done = True
            self.scheduler.yielded.set()


class Scheduler:
    """Gives the cores their turns; counts pushes to see when waiting cores can go on."""

    def __init__(self) -> None:
        self.yielded = threading.Event()
        self.deadlock = False
        self.pushes = 0

    def wait_for_push(self, core: _Core) -> bool:
        """Called by a core whose pop found nothing: give up the turn until resumed.
        False when the pipes deadlocked (the pop then reports its empty pipe)."""
        core.waiting = True
        self.yielded.set()
        core.turn.wait()
        core.turn.clear()
        core.waiting = False
        return not self.deadlock

    def _resume(self, core: _Core) -> None:
        self.yielded.clear()
        core.turn.set()
        self.yielded.wait()

    def run(self, cores: list[_Core]) -> None:
        for core in cores:
            core.thread.start()
        while not all(core.done for core in cores):
            pushes = self.pushes
            for core in cores:
                if not core.done:
                    self._resume(core)
            stuck = all(core.done or core.waiting for core in cores)
            if stuck and self.pushes == pushes and not all(core.done for core in cores):
                self.deadlock = True
        for core in cores:
            core.thread.join()
        errors = [core.error for core in cores if core.error is not None]
        if errors:
            raise errors[0]


def run_cores(executor: Any, op: func.CallOp, args: list[Value]) -> list[Value] | None:
    """Run `op` and the kernel-function calls right after it in its block as cores of one
    mixed kernel; None when `op` does not call a kernel function (or returns values)."""
    group = _kernel_calls(executor, op)
    if not group:
        return None
    scheduler = Scheduler()
    cores: list[_Core] = []
    for position, (call, function) in enumerate(group):
        call_args = args if position == 0 else [executor.env[v] for v in call.operands]
        subblocks = VECTOR_SUBBLOCKS if kernel_kind(function) == "vector" else 1
        for subblock in range(subblocks):
            child = copy.copy(executor)
            # Each core has local memories of its own (a vector sub-block its own UB).
            child.env, child.memories, child.scheduler = {}, {}, scheduler
            child.subblock, child.subblocks = subblock, subblocks
            core = _Core(scheduler, child, function, call_args)
            child.core = core
            cores.append(core)
    executor.calls_run_ahead.update(call for call, _ in group[1:])
    scheduler.run(cores)
    return []


def _kernel_calls(executor: Any, op: func.CallOp) -> list[tuple[func.CallOp, func.FuncOp]]:
    block = op.parent_block()
    if block is None or executor.scheduler is not None:
        return []
    ops = list(block.ops)
    group: list[tuple[func.CallOp, func.FuncOp]] = []
    for later in ops[ops.index(op) :]:
        if not isinstance(later, func.CallOp) or later.results:
            break
        function = executor.functions.get(later.callee.root_reference.data)
        if function is None or kernel_kind(function) is None:
            break
        group.append((later, function))
    return group
