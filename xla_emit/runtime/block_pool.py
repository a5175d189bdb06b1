"""Host threads that run one native kernel launch's blocks at once.

A GPU kernel's blocks are independent (CUDA's model: no block waits for another),
so CPU runtimes for GPU kernels spread them over threads. `BlockPool.run` hands
the launch to persistent workers and takes part itself: each thread calls the
kernel's compiled driver (`runtime.native.grid_driver`), which claims chunks of
consecutive blocks from a counter the launch's threads share (an atomic add) until
none is left; the calling thread then waits until every claimed chunk is finished.
ctypes releases the GIL during the foreign call, so the chunks run in parallel, and
a worker that starts late (a loaded machine) finds no work left instead of holding
up the launch. Each block's arithmetic is unchanged and no two blocks write the same
element (kernels where they may run in order: see `NativeKernel.parallel`), so the
results are the same bits with any number of workers and any order of claims.

Between launches an idle worker polls a mailbox in native code, without the GIL,
for a millisecond or two (yielding the CPU at each poll), then sleeps: launches in
a row find it awake (Eigen's non-blocking thread pool, which XLA:CPU runs on, spins
before it sleeps too). Woken from a sleep by the OS, a worker came 0.1 ms late at
the median on a loaded machine, a third of the row sum's time, and seldom helped.

The number of workers is `$XLA_EMIT_NATIVE_THREADS` where set (1: everything on
the calling thread), else the CPUs this process may run on, at most `MAX_WORKERS`.
"""

from __future__ import annotations

import ctypes
import os
import threading
from collections.abc import Callable, Sequence
from functools import cache
from queue import SimpleQueue
from typing import Any

from xla_emit.diagnostics import UserError

THREADS_VARIABLE = "XLA_EMIT_NATIVE_THREADS"
MAX_WORKERS = 8

# `entry(buffers, scratch, work, chunk, join)`: the kernel's driver, given the addresses of
# its buffers' and one worker's scratch's pointer arrays and of the launch's counters.
BlockRange = Callable[[int, int, int, int, int], None]
# Chunks per worker a launch is cut into: small enough that a late or slowed thread
# leaves work to the others, large enough that claiming one costs nothing in comparison.
CHUNKS_PER_WORKER = 8
# A launch whose buffers (inputs and outputs) hold fewer bytes runs on the calling thread.
PARALLEL_MIN_BYTES = 1 << 20
# A worker's part of a launch: the driver, the buffers' and its scratch's pointer arrays,
# the launch's counters (an array of two int64s), the blocks claimed at a time.
_Job = tuple[BlockRange, int, int, Any, int]


def default_workers() -> int:
    """Workers from `$XLA_EMIT_NATIVE_THREADS`, else the CPUs this process may use
    (`taskset` respected), capped."""
    text = os.environ.get(THREADS_VARIABLE, "").strip()
    if text:
        if not text.isdigit() or int(text) < 1:
            raise UserError(f"${THREADS_VARIABLE} must be a positive integer, not '{text}'")
        return int(text)
    usable = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    cpus = len(usable) if usable is not None else (os.cpu_count() or 1)
    return max(1, min(cpus, MAX_WORKERS))


def chunk_size(blocks: int, workers: int) -> int:
    """Blocks claimed at a time: about `CHUNKS_PER_WORKER` chunks for each worker."""
    return max(1, -(-blocks // (workers * CHUNKS_PER_WORKER)))


class BlockPool:
    """`workers - 1` persistent daemon threads and the calling thread. A launch whose
    buffers hold fewer than `min_bytes` runs on the calling thread alone (waking a worker
    costs microseconds, far more on a loaded machine), and so does a launch from another
    thread while one runs."""

    def __init__(self, workers: int, min_bytes: int = PARALLEL_MIN_BYTES) -> None:
        if workers < 1:
            raise UserError(f"a block pool needs at least one worker, not {workers}")
        self.workers = workers
        self.min_bytes = min_bytes
        # Launches whose blocks were offered to the workers (tests read it).
        self.parallel_launches = 0
        self._busy = threading.Lock()
        self._slots: list[_Slot] = []

    def workers_for(self, buffer_bytes: int) -> int:
        """Threads for a launch whose buffers hold `buffer_bytes`."""
        return self.workers if buffer_bytes >= self.min_bytes else 1

    def run(self, entry: BlockRange, buffers: int, scratch: Sequence[int], blocks: int) -> None:
        """All `blocks` blocks of the kernel, on up to `len(scratch)` threads (the calling
        thread uses scratch[0], worker w scratch[w])."""
        workers = min(len(scratch), self.workers, blocks)
        # The next block to claim, the blocks finished; kept alive by every job holding it.
        work = (ctypes.c_int64 * 2)()
        address = ctypes.addressof(work)
        if workers <= 1 or not self._busy.acquire(blocking=False):
            entry(buffers, scratch[0], address, blocks, 1)
            return
        try:
            self.parallel_launches += 1
            self._start_threads()
            chunk = chunk_size(blocks, workers)
            for w in range(1, workers):
                self._slots[w - 1].post((entry, buffers, scratch[w], work, chunk))
            entry(buffers, scratch[0], address, chunk, 1)
        finally:
            self._busy.release()

    def _start_threads(self) -> None:
        """The workers, started on the first parallel launch (a process that never
        launches a large kernel starts none)."""
        while len(self._slots) < self.workers - 1:
            slot = _Slot()
            thread = threading.Thread(
                target=slot.work, name=f"xla-emit-blocks-{len(self._slots) + 1}"
            )
            thread.daemon = True
            thread.start()
            self._slots.append(slot)


# A worker's mailbox counts the jobs posted to it; this bit is set while it sleeps.
_SLEEPING = 1 << 62
# How many times an idle worker polls its mailbox (each poll a `sched_yield`, which lets
# any other runnable thread have the CPU) before it sleeps: about 1 to 2 ms.
SPINS = 2000

# The mailbox functions (LLVM IR), JIT-compiled once per process:
# - `wait(mailbox, seen, spins)`: the mailbox's value once it differs from `seen`; after
#   `spins` polls it sets the sleeping bit instead (if still `seen`) and returns that;
# - `post(mailbox)`: counts one more job and clears the sleeping bit; the old value.
_MAILBOX_IR = f"""
declare i32 @sched_yield()

define i64 @xla.pool.wait(ptr %mailbox, i64 %seen, i64 %spins) {{
entry:
  br label %poll
poll:
  %i = phi i64 [0, %entry], [%next, %idle]
  %state = load atomic i64, ptr %mailbox acquire, align 8
  %changed = icmp ne i64 %state, %seen
  br i1 %changed, label %done, label %check
check:
  %more = icmp ult i64 %i, %spins
  br i1 %more, label %idle, label %sleep
idle:
  %yielded = call i32 @sched_yield()
  %next = add i64 %i, 1
  br label %poll
sleep:
  %asleep = or i64 %seen, {_SLEEPING}
  %pair = cmpxchg ptr %mailbox, i64 %seen, i64 %asleep acq_rel acquire
  %old = extractvalue {{ i64, i1 }} %pair, 0
  %slept = extractvalue {{ i64, i1 }} %pair, 1
  %result = select i1 %slept, i64 %asleep, i64 %old
  ret i64 %result
done:
  ret i64 %state
}}

define i64 @xla.pool.post(ptr %mailbox) {{
entry:
  %first = load atomic i64, ptr %mailbox monotonic, align 8
  br label %try
try:
  %old = phi i64 [%first, %entry], [%seen, %try]
  %count = and i64 %old, {_SLEEPING - 1}
  %new = add i64 %count, 1
  %pair = cmpxchg ptr %mailbox, i64 %old, i64 %new acq_rel monotonic
  %seen = extractvalue {{ i64, i1 }} %pair, 0
  %posted = extractvalue {{ i64, i1 }} %pair, 1
  br i1 %posted, label %done, label %try
done:
  ret i64 %old
}}
"""


@cache
def _mailbox_functions() -> tuple[Any, Any, Any]:
    """`wait` and `post` as ctypes functions (and the engine that holds their code)."""
    from xla_emit.runtime.ptx import load_llvmlite

    binding = load_llvmlite()
    binding.initialize_native_target()
    binding.initialize_native_asmprinter()
    libc = ctypes.CDLL(None)
    binding.add_symbol("sched_yield", ctypes.cast(libc.sched_yield, ctypes.c_void_p).value)
    module = binding.parse_assembly(_MAILBOX_IR)
    module.triple = binding.get_process_triple()
    machine = binding.Target.from_default_triple().create_target_machine(opt=2)
    module.data_layout = str(machine.target_data)
    engine = binding.create_mcjit_compiler(module, machine)
    engine.finalize_object()
    wait_type = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64)
    wait = wait_type(engine.get_function_address("xla.pool.wait"))
    post_type = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_void_p)
    post = post_type(engine.get_function_address("xla.pool.post"))
    return wait, post, engine


class _Slot:
    """One worker and its mailbox. The calling thread stores the job, then posts; the
    worker, polling its mailbox without the GIL, sees the count change and runs the
    latest job (a job that a later one replaced before the worker saw it belonged to a
    launch the other threads finished). An idle worker sleeps after `SPINS` polls; a
    post that finds it asleep wakes it through a queue."""

    def __init__(self) -> None:
        self.mailbox = ctypes.c_int64(0)
        self.address = ctypes.addressof(self.mailbox)
        self.job: _Job | None = None
        self.wake: SimpleQueue[None] = SimpleQueue()
        self.wait, self.post_job, _ = _mailbox_functions()

    def post(self, job: _Job) -> None:
        self.job = job
        if self.post_job(self.address) & _SLEEPING:
            self.wake.put(None)

    def work(self) -> None:
        seen, done = 0, None
        while True:
            state = self.wait(self.address, seen, SPINS)
            if state & _SLEEPING:
                self.wake.get()
                state = self.mailbox.value
            seen = state
            job = self.job
            if job is not None and job is not done:
                done = job
                entry, buffers, scratch, work, chunk = job
                entry(buffers, scratch, ctypes.addressof(work), chunk, 0)


@cache
def shared_pool() -> BlockPool:
    """The process's pool, of `default_workers()` workers."""
    return BlockPool(default_workers())
