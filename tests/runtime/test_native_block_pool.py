"""A native kernel's blocks on several host threads (`runtime.block_pool`): the same bits
as on one thread and as the interpreter, on the corpus; the driver's claiming of blocks;
kernels whose blocks may write one element kept in order. Skipped where llvmlite is
missing."""

from __future__ import annotations

import ctypes
import json
import subprocess
import sys
import threading
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.hlo.npz import read_inputs
from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.runtime import KernelCache, ModuleRuntime
from xla_emit.runtime.block_pool import BlockPool, BlockRange, chunk_size, default_workers

pytest.importorskip("llvmlite.binding", reason="the native engine needs llvmlite ([llvm] extra)")

from xla_emit.runtime.kernels import compile_fusion
from xla_emit.runtime.native import NativeKernel, compile_llvm_ir, kernel_ir
from xla_emit.runtime.native_kernels import HOST_PIPELINE, NativeKernelCache
from xla_emit.runtime.pipeline import apply_pipeline

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "gpu"
ZOO = CORPUS.parent / "zoo"
# Reductions (shared memory, shuffles), a transpose, an in-place update, a scatter with
# colliding indices (atomics): each kind of kernel the pool must run right.
FAST = ["row_sum", "transpose_2d", "dynamic_update_slice", "scatter_add_duplicates"]
EXACT = {"row_sum", "transpose_2d", "dynamic_update_slice", "gelu_bf16", "argmax_rows"}
SLOW = sorted(p.name for p in CORPUS.iterdir() if (p / "gpu.hlo").exists() and p.name not in FAST)
ZOO_MODELS = ["transformer_block", "scan_rnn", "scatter_add", "max_pool_grad", "cumsum"]


class RecordingPool(BlockPool):
    """A pool that notes each launch's driver and scratch arrays, and whose calling thread
    waits until every worker has run before it claims what is left (nothing): the
    workers run every block (else the calling thread of a small launch would often
    finish them all before a worker wakes)."""

    def __init__(self, workers: int, min_bytes: int) -> None:
        super().__init__(workers, min_bytes)
        self.launches: list[tuple[object, int]] = []
        self.scratch: list[Sequence[int]] = []

    def run(self, entry: BlockRange, buffers: int, scratch: Sequence[int], blocks: int) -> None:
        self.launches.append((entry, len(scratch)))
        self.scratch.append(scratch)
        workers = threading.Semaphore(0)
        helpers = min(len(scratch), self.workers, blocks) - 1

        def workers_first(buffers: int, scratch: int, work: int, chunk: int, join: int) -> None:
            if join:  # the calling thread
                for _ in range(helpers):
                    assert workers.acquire(timeout=30), "a worker never ran its job"
            entry(buffers, scratch, work, chunk, join)
            if not join:
                workers.release()

        super().run(workers_first, buffers, scratch, blocks)


# Every launch offered to four threads, however small (the corpus's inputs are), in
# chunks as small as the pool cuts them.
MANY = RecordingPool(4, min_bytes=0)
ONE = BlockPool(1)


def assert_same_bits_on_one_and_many_threads(path: Path, inputs_path: Path) -> list[np.ndarray]:
    """The program's outputs on four threads (none if no launch was offered to them),
    after checking they are the bits of one thread's."""
    module = parse_hlo_module(path.read_text(), str(path))
    inputs = read_inputs(str(inputs_path), module.entry)
    kernels = NativeKernelCache(disk=False, block_pool=ONE)
    one = ModuleRuntime(module, native=kernels).run(inputs)
    launches = MANY.parallel_launches
    kernels.block_pool = MANY
    many = ModuleRuntime(module, native=kernels).run(inputs)
    for got, want in zip(many, one, strict=True):
        assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
    for scratch in MANY.scratch:  # each thread its own
        assert len(set(scratch)) == len(scratch)
    assert ONE.parallel_launches == 0
    return many if MANY.parallel_launches > launches else []


def check_corpus_program(name: str) -> None:
    path = CORPUS / name / "gpu.hlo"
    many = assert_same_bits_on_one_and_many_threads(path, path.parent / "inputs.npz")
    if name in EXACT and many:
        module = parse_hlo_module(path.read_text(), str(path))
        inputs = read_inputs(str(path.parent / "inputs.npz"), module.entry)
        interpreted = ModuleRuntime(module, KernelCache()).run(inputs)
        for got, want in zip(many, interpreted, strict=True):
            assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("name", FAST)
def test_corpus_gives_the_same_bits_on_one_and_four_threads(name: str) -> None:
    check_corpus_program(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", SLOW)
def test_whole_corpus_gives_the_same_bits_on_one_and_four_threads(name: str) -> None:
    check_corpus_program(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", ZOO_MODELS)
def test_zoo_models_give_the_same_bits_on_one_and_four_threads(name: str) -> None:
    path = ZOO / f"{name}.hlo"
    assert_same_bits_on_one_and_many_threads(path, path.with_suffix(".inputs.npz"))


@cache
def root_ir(name: str) -> str:
    """The host IR of a corpus program's root fusion."""
    path = CORPUS / name / "gpu.hlo"
    module = parse_hlo_module(path.read_text(), str(path))
    return kernel_ir(compile_fusion(module, module.entry.root, HOST_PIPELINE))


def root_kernel(name: str) -> tuple[NativeKernel, list[np.ndarray]]:
    """The native kernel of a corpus program's root fusion, and the program's inputs."""
    path = CORPUS / name / "gpu.hlo"
    module = parse_hlo_module(path.read_text(), str(path))
    return compile_llvm_ir(root_ir(name)), read_inputs(
        str(path.parent / "inputs.npz"), module.entry
    )


def test_a_row_sum_runs_its_blocks_at_once_and_updates_in_place_in_order() -> None:
    row_sum, _ = root_kernel("row_sum")
    assert row_sum.parallel and row_sum.blocks == 32
    for name in ("dynamic_update_slice", "scatter_add_duplicates"):
        pool = RecordingPool(4, min_bytes=0)
        path = CORPUS / name / "gpu.hlo"
        module = parse_hlo_module(path.read_text(), str(path))
        inputs = read_inputs(str(path.parent / "inputs.npz"), module.entry)
        kernels = NativeKernelCache(disk=False, block_pool=pool)
        ModuleRuntime(module, native=kernels).run(inputs)
        kernel = kernels.kernel(module, module.entry.root)
        assert not kernel.parallel, name
        assert [threads for entry, threads in pool.launches if entry is kernel.entry] == [1]
        assert all(threads == 4 for entry, threads in pool.launches if entry is not kernel.entry)


def test_the_driver_runs_only_the_blocks_left_to_claim() -> None:
    """Blocks before the counter's value are another thread's: the driver leaves their
    rows alone (8 rows a block), sums the others as one thread running all blocks does,
    and counts them finished."""
    kernel, (x,) = root_kernel("row_sum")
    whole = np.empty(256, np.float32)
    kernel.run([x, whole], ONE)
    out = np.full(256, np.nan, np.float32)
    pointers = kernel.argument_array()
    pointers[0], pointers[1] = x.ctypes.data, out.ctypes.data
    work = (ctypes.c_int64 * 2)(20, 20)  # blocks 0 to 19 claimed and finished elsewhere
    scratch = kernel.scratch_addresses(1)[0]
    kernel.entry(ctypes.addressof(pointers), scratch, ctypes.addressof(work), 5, 1)
    assert np.isnan(out[: 20 * 8]).all()
    assert out[20 * 8 :].tobytes() == whole[20 * 8 :].tobytes()
    assert not np.isnan(whole).any()
    # 20 + 5 + 5 reach 32 in three claims of five; a fourth finds none left.
    assert list(work) == [40, 32]


def test_the_ids_live_on_the_drivers_stack() -> None:
    """No module-level variable a thread could write while another reads it: the ids are
    the driver's `alloca`, the kernel's last argument."""
    ir = root_ir("row_sum")
    assert not [line for line in ir.splitlines() if line.startswith("@")]
    assert "  %ids = alloca [6 x i32], align 4" in ir
    header = next(line for line in ir.splitlines() if line.startswith("define void @input_"))
    assert header.split("(", 1)[1].endswith("ptr noalias readonly %ids) {")


def test_chunks_leave_work_to_every_thread() -> None:
    assert chunk_size(1024, 2) == 64
    assert chunk_size(3, 4) == 1
    assert chunk_size(1, 1) == 1


def test_the_thread_count_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XLA_EMIT_NATIVE_THREADS", "3")
    assert default_workers() == 3
    monkeypatch.setenv("XLA_EMIT_NATIVE_THREADS", "zero")
    with pytest.raises(UserError, match=r"XLA_EMIT_NATIVE_THREADS must be a positive integer"):
        default_workers()
    monkeypatch.delenv("XLA_EMIT_NATIVE_THREADS")
    assert 1 <= default_workers() <= 8


def test_a_bad_thread_count_is_a_one_line_error(tmp_path: Path) -> None:
    path = CORPUS / "row_sum" / "gpu.hlo"
    result = subprocess.run(
        [sys.executable, "-m", "xla_emit.tools.run", str(path), "--engine", "native",
         "--inputs", str(path.parent / "inputs.npz"), "-o", str(tmp_path / "o.npz")],
        capture_output=True, text=True,
        env={"XLA_EMIT_CACHE": str(tmp_path), "PATH": "", "XLA_EMIT_NATIVE_THREADS": "0"},
    )  # fmt: skip
    assert result.returncode == 1
    assert result.stderr.strip() == (
        "error: $XLA_EMIT_NATIVE_THREADS must be a positive integer, not '0'"
    )


def test_the_header_says_whether_blocks_may_run_at_once() -> None:
    ir = root_ir("scatter_add_duplicates")
    header = json.loads(ir.split("\n", 1)[0].removeprefix("; xla.native "))
    assert header["parallel"] is False and header["buffer_bytes"] > 0


def test_a_launch_while_another_runs_takes_the_calling_thread_alone() -> None:
    """Two Python threads launching at once: the second does not wait for the pool, it
    runs all blocks itself in one claim (chunk = all blocks) and waits for them."""
    pool = BlockPool(4, min_bytes=0)
    calls: list[tuple[int, int, int]] = []

    def entry(buffers: int, scratch: int, work: int, chunk: int, join: int) -> None:
        calls.append((scratch, chunk, join))

    with pool._busy:  # pyright: ignore[reportPrivateUsage]
        pool.run(entry, 0, [11, 12, 13, 14], 100)
    assert calls == [(11, 100, 1)] and pool.parallel_launches == 0
    pool.run(entry, 0, [11], 100)  # one scratch set: one thread
    assert calls[-1] == (11, 100, 1) and pool.parallel_launches == 0


def test_a_kernel_with_atomics_runs_its_blocks_in_order() -> None:
    """Blocks adding into one element: no in-place output marks it, the atomic does
    (`xla-host-serialize-atomics`, carried by `xla-lower-to-llvm` to the header); the
    sum is the one of block order. The same kernel storing per block runs at once."""
    from xla_emit.ir import parse_mlir

    passes = "xla-host-serialize-atomics,xla-host-thread-loops,xla-lower-tensors,xla-lower-to-llvm"
    kernels = []
    for text in (ATOMIC_SUM, PER_BLOCK):
        module, _ = parse_mlir(text, "atomics.mlir")
        apply_pipeline(module, passes)
        kernels.append(compile_llvm_ir(kernel_ir(module)))
    atomic, per_block = kernels
    assert not atomic.parallel and atomic.blocks == 64
    assert per_block.parallel and per_block.blocks == 64
    values = np.arange(64, dtype=np.float32) * np.float32(0.1)
    out = np.zeros(1, np.float32)
    pool = RecordingPool(4, min_bytes=0)
    atomic.run([values, out], pool)
    assert pool.launches == [(atomic.entry, 1)]
    total = np.float32(0)
    for value in values:  # block order, one rounding each
        total = np.float32(total + value)
    assert out.tobytes() == total.tobytes()


ATOMIC_SUM = """
func.func @kernel(%in: tensor<64xf32>, %out: tensor<1xf32>) -> tensor<1xf32>
    attributes {xla.entry} {
  %c0 = arith.constant 0 : index
  %block = gpu.block_id x {xla.range = [0 : index, 63 : index]}
  %x = tensor.extract %in[%block] : tensor<64xf32>
  %r = xla.atomic_rmw %out[%c0] : tensor<1xf32> {
  ^bb0(%current : f32):
    %sum = arith.addf %current, %x : f32
    xla.yield %sum : f32
  }
  func.return %r : tensor<1xf32>
}
"""
PER_BLOCK = """
func.func @kernel(%in: tensor<64xf32>, %out: tensor<64xf32>) -> tensor<64xf32>
    attributes {xla.entry} {
  %block = gpu.block_id x {xla.range = [0 : index, 63 : index]}
  %x = tensor.extract %in[%block] : tensor<64xf32>
  %r = tensor.insert %x into %out[%block] : tensor<64xf32>
  func.return %r : tensor<64xf32>
}
"""


def test_mailbox_counts_posts_and_marks_a_sleeping_worker() -> None:
    from xla_emit.runtime.block_pool import _SLEEPING, _mailbox_functions

    wait, post, _ = _mailbox_functions()
    mailbox = ctypes.c_int64(0)
    address = ctypes.addressof(mailbox)
    assert post(address) == 0 and mailbox.value == 1
    assert wait(address, 0, 5) == 1  # changed since 0: returns at once
    assert wait(address, 1, 3) == 1 | _SLEEPING  # unchanged: asleep after 3 polls
    assert mailbox.value == 1 | _SLEEPING
    assert post(address) == 1 | _SLEEPING and mailbox.value == 2  # woken: bit cleared


@pytest.mark.parametrize("spins", [0, 2000], ids=["sleeping", "spinning"])
def test_workers_take_every_launch_asleep_or_spinning(
    spins: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Forty launches in a row, the calling thread waiting each time until the workers
    ran theirs: a worker that sleeps after every job (no polls) is woken by each post,
    one that polls sees each; none is lost (else the wait times out)."""
    import xla_emit.runtime.block_pool as block_pool

    monkeypatch.setattr(block_pool, "SPINS", spins)
    kernel, (x,) = root_kernel("row_sum")
    want = np.empty(256, np.float32)
    kernel.run([x, want], ONE)
    pool = RecordingPool(3, min_bytes=0)
    for _ in range(40):
        out = np.full(256, np.nan, np.float32)
        kernel.run([x, out], pool)
        assert out.tobytes() == want.tobytes()
    assert pool.parallel_launches == 40


def test_ids_read_outside_the_kernel_are_an_error_at_the_op() -> None:
    """Only the kernel has `%ids` (the host pipeline inlines every call first)."""
    from xla_emit.passes.diagnostics import OpError

    from xla_emit.ir import parse_mlir
    from xla_emit.runtime.llvm_ir import module_to_llvm_ir

    text = """
func.func private @helper() -> index {
  %b = gpu.block_id x {xla.range = [0 : index, 3 : index]}
  func.return %b : index
}
func.func @kernel(%out: tensor<4xindex>) -> tensor<4xindex> attributes {xla.entry} {
  %b = func.call @helper() : () -> index
  %r = tensor.insert %b into %out[%b] : tensor<4xindex>
  func.return %r : tensor<4xindex>
}
"""
    module, _ = parse_mlir(text, "helper.mlir")
    apply_pipeline(module, "xla-lower-tensors,xla-lower-to-llvm")
    with pytest.raises(OpError, match="on the host only the kernel reads thread and block ids"):
        module_to_llvm_ir(module, host=True)
