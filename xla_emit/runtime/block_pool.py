"""Host threads that run one native kernel launch's blocks at once.

A GPU kernel's blocks are independent (CUDA's model: no block waits for another),
so CPU runtimes for GPU kernels spread them over threads. `BlockPool.run` hands
the launch to persistent workers and takes part itself: each thread calls the
kernel's compiled driver (`runtime.native.grid_driver`), which claims chunks of
consecutive blocks from a counter the launch's threads share (an atomic add) until
none is left; the calling thread then waits until every claimed chunk is finished.
ctypes releases the GIL during the foreign call, so the chunks run in parallel, and
a worker that the scheduler wakes late (a loaded machine) finds no work left
instead of holding up the launch. Each block's arithmetic is unchanged and no two
blocks write the same element (kernels where they may run in order: see
`NativeKernel.parallel`), so the results are the same bits with any number of
workers and any order of claims.

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
        self._queues: list[SimpleQueue[_Job]] = []

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
                self._queues[w - 1].put((entry, buffers, scratch[w], work, chunk))
            entry(buffers, scratch[0], address, chunk, 1)
        finally:
            self._busy.release()

    def _start_threads(self) -> None:
        """The workers, started on the first parallel launch (a process that never
        launches a large kernel starts none)."""
        while len(self._queues) < self.workers - 1:
            queue: SimpleQueue[_Job] = SimpleQueue()
            thread = threading.Thread(
                target=_work, args=(queue,), name=f"xla-emit-blocks-{len(self._queues) + 1}"
            )
            thread.daemon = True
            thread.start()
            self._queues.append(queue)


def _work(queue: SimpleQueue[_Job]) -> None:
    """A worker: claims blocks of each launch handed to it until none is left."""
    while True:
        entry, buffers, scratch, work, chunk = queue.get()
        entry(buffers, scratch, ctypes.addressof(work), chunk, 0)


@cache
def shared_pool() -> BlockPool:
    """The process's pool, of `default_workers()` workers."""
    return BlockPool(default_workers())
