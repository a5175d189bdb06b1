"""A kernel run natively on the CPU: its grid as a loop, JIT-compiled by llvmlite.

The kernel's LLVM IR for the host (`module_to_llvm_ir(host=True)`) takes its
thread and block ids through a last argument, a pointer to six int32s; the driver
defined here, `@xla.grid`, keeps them on its stack and calls the kernel for every
block it claims (and every thread of a block the kernel does not loop over itself,
threads fastest). Blocks are independent (CUDA's model), so several host threads
run one launch's blocks at once (`runtime.block_pool`), each with its own scratch,
claiming chunks of blocks from a shared counter.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from math import prod
from typing import Any

import numpy as np
from xdsl.dialects import llvm
from xdsl.dialects.builtin import DenseArrayBase, DictionaryAttr, IntegerAttr, ModuleOp

from xla_emit.diagnostics import UserError
from xla_emit.dialects.nvvm import BLOCK_ID_OPS, ReadSpecialRegisterOp
from xla_emit.dialects.xla import XLA_SLICE_INDEX
from xla_emit.passes.gpu.lower_tensors import BUFFER_ALIGNMENT
from xla_emit.passes.gpu.lower_to_llvm import BLOCKS_IN_ORDER
from xla_emit.passes.host.thread_loops import SCRATCH
from xla_emit.runtime.block_pool import BlockPool, shared_pool
from xla_emit.runtime.llvm_ir import module_to_llvm_ir
from xla_emit.runtime.ptx import load_llvmlite

_DIMS = "xyz"


@dataclass(frozen=True)
class Grid:
    """Blocks and threads per block, in x, y, z."""

    blocks: tuple[int, int, int]
    threads: tuple[int, int, int]


def kernel_of(module: ModuleOp) -> llvm.FuncOp:
    kernels = [
        f for f in module.ops if isinstance(f, llvm.FuncOp) and "nvvm.kernel" in f.attributes
    ]
    if len(kernels) != 1:
        raise UserError(f"the native engine runs one kernel at a time, not {len(kernels)}")
    return kernels[0]


def grid_of(kernel: llvm.FuncOp) -> Grid:
    """Threads from `nvvm.reqntid`; blocks from the ranges of the block-id reads."""
    reqntid = kernel.attributes.get("nvvm.reqntid")
    threads = (
        [int(v) for v in reqntid.get_values()] if isinstance(reqntid, DenseArrayBase) else [1] * 3
    )
    blocks = [1, 1, 1]
    block_ops = tuple(BLOCK_ID_OPS.values())
    for op in kernel.walk():
        if isinstance(op, ReadSpecialRegisterOp) and isinstance(op, block_ops):
            value_range = op.attributes.get("range")
            if not isinstance(value_range, DenseArrayBase):
                raise UserError(f"'{op.name}' has no range: the grid's size is unknown")
            dim = _DIMS.index(op.name[-1])
            blocks[dim] = max(blocks[dim], int(value_range.get_values()[1]))
    return Grid((blocks[0], blocks[1], blocks[2]), (threads[0], threads[1], threads[2]))


# f32 -> bf16, rounding to nearest even (NaN stays a quiet NaN): the library call LLVM
# makes for `fptrunc float to bfloat` on CPUs without bf16 instructions, which the
# JIT has no runtime library to find.
_TRUNC_F32_TO_BF16 = """
define bfloat @__truncsfbf2(float %x) {
  %bits = bitcast float %x to i32
  %magnitude = and i32 %bits, 2147483647
  %is_nan = icmp ugt i32 %magnitude, 2139095040
  %high = lshr i32 %bits, 16
  %odd = and i32 %high, 1
  %bias = add i32 %odd, 32767
  %rounded = add i32 %bits, %bias
  %rounded_high = lshr i32 %rounded, 16
  %quiet = or i32 %high, 64
  %chosen = select i1 %is_nan, i32 %quiet, i32 %rounded_high
  %half = trunc i32 %chosen to i16
  %result = bitcast i16 %half to bfloat
  ret bfloat %result
}
"""


def grid_driver(kernel_name: str, buffers: int, scratch: int, grid: Grid) -> str:
    """`@xla.grid(ptr %buffers, ptr %scratch, ptr %work, i64 %chunk, i64 %join)`.

    `work` is two int64s shared by the threads of one launch: the next unclaimed
    block, and the blocks finished. A thread claims `chunk` blocks at a time with an
    atomic add and runs them (each thread of a block in turn, the ids on its stack)
    until none is left; a thread that wakes late finds none and returns. With `join`
    set it then waits until every claimed block is finished (the calling thread)."""
    sizes = [*grid.threads, *grid.blocks]
    per_block = prod(grid.threads)
    total = prod(grid.blocks)
    lines = [
        _TRUNC_F32_TO_BF16,
        "declare i32 @sched_yield()",
        "",
        "define void @xla.grid(ptr %buffers, ptr %scratch, ptr %work, i64 %chunk, i64 %join) {",
        "entry:",
        "  %ids = alloca [6 x i32], align 4",
        "  %finished = getelementptr i64, ptr %work, i64 1",
    ]
    for i in range(buffers + scratch):
        array, slot = ("%buffers", i) if i < buffers else ("%scratch", i - buffers)
        lines += [
            f"  %a{i}.p = getelementptr ptr, ptr {array}, i64 {slot}",
            f"  %a{i} = load ptr, ptr %a{i}.p",
        ]
    lines += [
        "  br label %claim",
        "claim:",
        "  %first = atomicrmw add ptr %work, i64 %chunk monotonic",
        f"  %more = icmp ult i64 %first, {total}",
        "  br i1 %more, label %claimed, label %joining",
        "claimed:",
        "  %past = add i64 %first, %chunk",
        f"  %beyond = icmp ugt i64 %past, {total}",
        f"  %last = select i1 %beyond, i64 {total}, i64 %past",
        f"  %start = mul i64 %first, {per_block}",
        f"  %end = mul i64 %last, {per_block}",
        "  br label %loop",
        "loop:",
        "  %i = phi i64 [%start, %claimed], [%next, %loop]",
    ]
    rest = "%i"
    for slot, size in enumerate(sizes):
        lines += [
            f"  %id{slot}.64 = urem i64 {rest}, {size}",
            f"  %rest{slot} = udiv i64 {rest}, {size}",
            f"  %id{slot} = trunc i64 %id{slot}.64 to i32",
            f"  %id{slot}.p = getelementptr [6 x i32], ptr %ids, i32 0, i32 {slot}",
            f"  store i32 %id{slot}, ptr %id{slot}.p",
        ]
        rest = f"%rest{slot}"
    args = ", ".join([f"ptr %a{i}" for i in range(buffers + scratch)] + ["ptr %ids"])
    lines += [
        f"  call void @{kernel_name}({args})",
        "  %next = add i64 %i, 1",
        "  %done = icmp eq i64 %next, %end",
        "  br i1 %done, label %chunk.done, label %loop",
        "chunk.done:",
        "  %count = sub i64 %last, %first",
        "  %ignored = atomicrmw add ptr %finished, i64 %count release",
        "  br label %claim",
        "joining:",
        "  %waits = icmp ne i64 %join, 0",
        "  br i1 %waits, label %wait, label %exit",
        "wait:",
        "  %all = load atomic i64, ptr %finished acquire, align 8",
        f"  %complete = icmp uge i64 %all, {total}",
        "  br i1 %complete, label %exit, label %yield",
        "yield:",  # another thread runs its last chunk: give it the CPU if it needs one
        "  %yielded = call i32 @sched_yield()",
        "  br label %wait",
        "exit:",
        "  ret void",
        "}",
    ]
    return "\n".join(lines) + "\n"


def _bind_c_library(binding: Any, text: str) -> None:
    """Give the JIT the addresses of the C library's functions the module declares (math,
    and `sched_yield` for the driver)."""
    libm = ctypes.CDLL(ctypes.util.find_library("m"))
    libc = ctypes.CDLL(None)
    for line in text.splitlines():
        if line.startswith("declare "):
            name = line.split("@", 1)[1].split("(", 1)[0]
            if name.startswith("llvm."):
                continue
            function = getattr(libm, name, None) or getattr(libc, name, None)
            if function is None:
                raise UserError(f"the native engine has no host function '{name}'")
            binding.add_symbol(name, ctypes.cast(function, ctypes.c_void_p).value)


@dataclass(frozen=True)
class NativeKernel:
    """A kernel compiled for the host: `run` takes its buffers (inputs, then outputs);
    the per-block scratch it needs (`xla.host_scratch` arguments) it allocates itself,
    one set per worker of the block pool."""

    name: str
    buffers: int
    scratch_bytes: tuple[int, ...]
    # Per buffer, its `xla.slice_index` (None where it has none).
    slices: tuple[int | None, ...]
    grid: Grid
    engine: Any
    entry: Any
    # Whether its blocks may run on several threads at once: not where two blocks may
    # write one element (atomics, an output updated in place), whose order fixes the bits.
    parallel: bool = False
    # The bytes of its buffers: how much a launch reads and writes.
    buffer_bytes: int = 0
    # Per worker: its scratch memory and the array of its buffers' addresses; that array's
    # address.
    scratch: list[tuple[np.ndarray, Any]] = field(
        default_factory=list[tuple[np.ndarray, Any]], compare=False
    )
    scratch_arrays: list[int] = field(default_factory=list[int], compare=False)
    # The buffer array handed to the kernel by `run`: a launch only writes its buffers'
    # addresses (tens of microseconds of Python saved per launch).
    arguments: list[Any] = field(default_factory=list[Any], compare=False)

    @cached_property
    def lanes(self) -> int:
        return prod(self.grid.blocks) * prod(self.grid.threads)

    @cached_property
    def blocks(self) -> int:
        return prod(self.grid.blocks)

    def updated_input(self, output: int, inputs: int) -> int | None:
        """The input whose buffer output number `output` updates in place, if any."""
        index = self.slices[inputs + output] if inputs + output < len(self.slices) else None
        if index is None:
            return None
        return next((i for i in range(inputs) if self.slices[i] == index), None)

    def argument_array(self) -> Any:
        """A new buffer array for the kernel: the caller writes its buffers' addresses
        into it and launches with its address."""
        return (ctypes.c_void_p * max(self.buffers, 1))()

    def run(self, buffers: Sequence[np.ndarray], pool: BlockPool | None = None) -> None:
        if len(buffers) != self.buffers:
            raise UserError(
                f"kernel '{self.name}' takes {self.buffers} buffers, got {len(buffers)}"
            )
        if not self.arguments:
            pointers = self.argument_array()
            self.arguments[:] = [pointers, ctypes.addressof(pointers)]
        pointers, address = self.arguments
        for index, buffer in enumerate(buffers):
            interface = buffer.__array_interface__
            if interface["strides"] is not None:  # None: C-contiguous
                raise UserError("the native engine needs C-contiguous buffers")
            pointers[index] = interface["data"][0]
        self.launch(address, pool)

    def launch(self, buffers: int, pool: BlockPool | None = None) -> None:
        """The whole grid on the buffers whose addresses the array at `buffers` holds:
        on the pool's workers where the kernel allows it and the launch is large enough,
        else on the calling thread."""
        pool = shared_pool() if pool is None else pool
        workers = pool.workers_for(self.buffer_bytes) if self.parallel else 1
        pool.run(self.entry, buffers, self.scratch_addresses(workers), self.blocks)

    def scratch_addresses(self, workers: int) -> list[int]:
        """For each of `workers` workers, the address of its array of scratch pointers;
        the buffers allocated on first use and reused (a worker runs one block at a time),
        garbage at first, as shared memory is. A worker's buffers lie in one allocation,
        each starting a cache line (beyond XLA's alignment), a line of padding at either
        end: two workers never write one line."""
        while len(self.scratch) < workers:
            offsets: list[int] = []
            size = 0
            for n in self.scratch_bytes:
                offsets.append(size)
                size += -(-n // _SCRATCH_ALIGNMENT) * _SCRATCH_ALIGNMENT
            memory = np.empty(size + 3 * _SCRATCH_ALIGNMENT, np.uint8)
            base = memory.__array_interface__["data"][0]
            start = base + _SCRATCH_ALIGNMENT + (-base) % _SCRATCH_ALIGNMENT
            pointers = (ctypes.c_void_p * max(len(offsets), 1))()
            pointers[: len(offsets)] = [start + offset for offset in offsets]
            self.scratch.append((memory, pointers))
            self.scratch_arrays.append(ctypes.addressof(pointers))
        return self.scratch_arrays[:workers]


def scratch_bytes(kernel: llvm.FuncOp) -> list[int | None]:
    """Per argument: the bytes of a per-block scratch buffer, None for the caller's buffers."""
    attrs = kernel.arg_attrs.data if kernel.arg_attrs is not None else ()
    sizes: list[int | None] = []
    for arg_attrs in attrs:
        size = (
            arg_attrs.data.get("llvm.dereferenceable")
            if isinstance(arg_attrs, DictionaryAttr)
            else None
        )
        if isinstance(arg_attrs, DictionaryAttr) and SCRATCH in arg_attrs.data:
            if not isinstance(size, IntegerAttr):
                raise UserError("a scratch argument of the kernel has no size")
            sizes.append(size.value.data)
        else:
            sizes.append(None)
    return sizes


def dereferenceable_bytes(kernel: llvm.FuncOp) -> list[int]:
    """Per argument, its `llvm.dereferenceable` bytes (0 where it has none)."""
    attrs = kernel.arg_attrs.data if kernel.arg_attrs is not None else ()
    sizes: list[int] = []
    for arg_attrs in attrs:
        size = arg_attrs.data.get("llvm.dereferenceable")
        sizes.append(size.value.data if isinstance(size, IntegerAttr) else 0)
    return sizes


def blocks_may_run_at_once(module: ModuleOp, slices: Sequence[int | None]) -> bool:
    """Not where two blocks may write one element, as their order fixes the result: a
    kernel that had atomics (`xla-host-serialize-atomics` marks its function), or one that
    updates an output in place (it shares an input's `xla.slice_index`: scatter, whose
    indices may collide, and dynamic-update-slice)."""
    functions = [f for f in module.ops if isinstance(f, llvm.FuncOp)]
    known = [index for index in slices if index is not None]
    in_order = any(BLOCKS_IN_ORDER in f.attributes for f in functions)
    return not in_order and len(set(known)) == len(known)


def slice_indices(kernel: llvm.FuncOp) -> list[int | None]:
    """Per argument, its `xla.slice_index`: an output sharing an input's is updated in place
    (dynamic-update-slice, scatter), so it starts as that input."""
    attrs = kernel.arg_attrs.data if kernel.arg_attrs is not None else ()
    indices: list[int | None] = []
    for arg_attrs in attrs:
        index = (
            arg_attrs.data.get(XLA_SLICE_INDEX) if isinstance(arg_attrs, DictionaryAttr) else None
        )
        indices.append(index.value.data if isinstance(index, IntegerAttr) else None)
    return indices


# Scratch buffers start on a cache line (a multiple of XLA's `BUFFER_ALIGNMENT`).
_SCRATCH_ALIGNMENT = max(64, BUFFER_ALIGNMENT)

# `@xla.grid(buffers, scratch, work, chunk, join)`, called without the GIL.
_BLOCK_RANGE = ctypes.CFUNCTYPE(
    None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64
)

# The first line of a kernel's host IR: what the driver needs to know, as JSON.
_HEADER = "; xla.native "
# Compiled kernels of this process, by their LLVM IR: a module run twice compiles once.
_COMPILED: dict[str, NativeKernel] = {}


def kernel_ir(module: ModuleOp) -> str:
    """The module's one kernel as host LLVM IR with its grid driver, headed by a comment
    line that describes it (name, buffers, scratch bytes, grid): all `compile_llvm_ir` needs."""
    kernel = kernel_of(module)
    arity = len(kernel.function_type.inputs.data)
    sizes = scratch_bytes(kernel) + [None] * arity
    scratch = [n for n in sizes[:arity] if n is not None]
    if any(n is None for n in sizes[arity - len(scratch) : arity]):
        raise UserError("the kernel's scratch arguments must come last")
    grid = grid_of(kernel)
    buffers = arity - len(scratch)
    slices = slice_indices(kernel)
    header = {
        "name": kernel.sym_name.data,
        "buffers": buffers,
        "scratch": scratch,
        "slices": slices,
        "blocks": list(grid.blocks),
        "threads": list(grid.threads),
        "parallel": blocks_may_run_at_once(module, slices[:buffers]),
        "buffer_bytes": sum(n for n in dereferenceable_bytes(kernel)[:buffers]),
    }
    text = module_to_llvm_ir(module, host=True)
    driver = grid_driver(kernel.sym_name.data, buffers, len(scratch), grid)
    return f"{_HEADER}{json.dumps(header)}\n{text}\n{driver}"


def compile_kernel(module: ModuleOp) -> NativeKernel:
    """The module's one kernel, JIT-compiled for this CPU."""
    return compile_llvm_ir(kernel_ir(module))


def compile_llvm_ir(text: str) -> NativeKernel:
    """A kernel's host IR (`kernel_ir`) JIT-compiled for this CPU at O3 (LLVM's loop and
    SLP vectorizers on)."""
    cached = _COMPILED.get(text)
    if cached is not None:
        return cached
    first_line = text.split("\n", 1)[0]
    if not first_line.startswith(_HEADER):
        raise UserError("not the host IR of a native kernel (no header line)")
    header = json.loads(first_line.removeprefix(_HEADER))
    try:
        import llvmlite.binding  # noqa: F401  # pyright: ignore[reportUnusedImport]
    except ImportError:
        raise UserError("the native engine needs llvmlite: pip install 'xla-emit[llvm]'") from None
    binding = load_llvmlite()
    binding.initialize_native_target()
    binding.initialize_native_asmprinter()
    _bind_c_library(binding, text)
    compiled = binding.parse_assembly(text)
    compiled.triple = binding.get_process_triple()
    compiled.verify()
    machine = binding.Target.from_default_triple().create_target_machine(
        cpu=binding.get_host_cpu_name(),
        features=binding.get_host_cpu_features().flatten(),
        opt=3,
    )
    compiled.data_layout = str(machine.target_data)
    tuning = binding.create_pipeline_tuning_options(speed_level=3)
    tuning.loop_vectorization = True
    tuning.slp_vectorization = True
    builder = binding.create_pass_builder(machine, tuning)
    builder.getModulePassManager().run(compiled, builder)
    engine = binding.create_mcjit_compiler(compiled, machine)
    engine.finalize_object()
    entry = _BLOCK_RANGE(engine.get_function_address("xla.grid"))
    grid = Grid(tuple(header["blocks"]), tuple(header["threads"]))
    native = NativeKernel(
        header["name"],
        header["buffers"],
        tuple(header["scratch"]),
        tuple(header["slices"][: header["buffers"]]),
        grid,
        engine,
        entry,
        parallel=header["parallel"],
        buffer_bytes=header["buffer_bytes"],
    )
    _COMPILED[text] = native
    return native


def run_kernel(module: ModuleOp, buffers: Sequence[np.ndarray]) -> None:
    """Run the module's one kernel over its whole grid on `buffers` (in the kernel's
    argument order: its inputs, then its outputs, which it writes in place)."""
    compile_kernel(module).run(buffers)
