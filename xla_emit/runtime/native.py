"""A kernel run natively on the CPU: its grid as a loop, JIT-compiled by llvmlite.

The kernel's LLVM IR for the host (`module_to_llvm_ir(host=True)`) reads its
thread and block ids from `@xla.sreg.<reg>`; the driver defined here keeps the
six ids in globals and, for every block and every thread of it (threads
fastest), sets them and calls the kernel once. That is exact for kernels
without barriers or shuffles (each thread's work is independent), which is
what `xla-lower-to-llvm` lowers today.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from collections.abc import Sequence
from dataclasses import dataclass
from math import prod
from typing import Any

import numpy as np
from xdsl.dialects import llvm
from xdsl.dialects.builtin import DenseArrayBase, ModuleOp

from dialects.nvvm import BLOCK_ID_OPS, ReadSpecialRegisterOp
from xla_emit.diagnostics import UserError
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


def grid_driver(kernel_name: str, arity: int, grid: Grid) -> str:
    """`@xla.grid(ptr %buffers)`: the id globals, their readers and the loop over the grid."""
    lines = ["@xla.ids = internal global [6 x i32] zeroinitializer", _TRUNC_F32_TO_BF16]
    for slot, register in enumerate([f"tid.{d}" for d in _DIMS] + [f"ctaid.{d}" for d in _DIMS]):
        lines += [
            f"define internal i32 @xla.sreg.{register}() {{",
            f"  %p = getelementptr [6 x i32], ptr @xla.ids, i32 0, i32 {slot}",
            "  %v = load i32, ptr %p",
            "  ret i32 %v",
            "}",
        ]
    sizes = [*grid.threads, *grid.blocks]
    total = prod(sizes)
    lines += ["", "define void @xla.grid(ptr %buffers) {", "entry:"]
    for i in range(arity):
        lines += [
            f"  %a{i}.p = getelementptr ptr, ptr %buffers, i64 {i}",
            f"  %a{i} = load ptr, ptr %a{i}.p",
        ]
    lines += ["  br label %loop", "loop:", "  %i = phi i64 [0, %entry], [%next, %loop]"]
    rest = "%i"
    for slot, size in enumerate(sizes):
        lines += [
            f"  %id{slot}.64 = urem i64 {rest}, {size}",
            f"  %rest{slot} = udiv i64 {rest}, {size}",
            f"  %id{slot} = trunc i64 %id{slot}.64 to i32",
            f"  %id{slot}.p = getelementptr [6 x i32], ptr @xla.ids, i32 0, i32 {slot}",
            f"  store i32 %id{slot}, ptr %id{slot}.p",
        ]
        rest = f"%rest{slot}"
    args = ", ".join(f"ptr %a{i}" for i in range(arity))
    lines += [
        f"  call void @{kernel_name}({args})",
        "  %next = add i64 %i, 1",
        f"  %done = icmp eq i64 %next, {total}",
        "  br i1 %done, label %exit, label %loop",
        "exit:",
        "  ret void",
        "}",
    ]
    return "\n".join(lines) + "\n"


def _bind_c_library(binding: Any, text: str) -> None:
    """Give the JIT the addresses of the C library's math functions the module declares."""
    libm = ctypes.CDLL(ctypes.util.find_library("m"))
    for line in text.splitlines():
        if line.startswith("declare "):
            name = line.split("@", 1)[1].split("(", 1)[0]
            if name.startswith("llvm."):
                continue
            function = getattr(libm, name, None)
            if function is None:
                raise UserError(f"the native engine has no host function '{name}'")
            binding.add_symbol(name, ctypes.cast(function, ctypes.c_void_p).value)


def run_kernel(module: ModuleOp, buffers: Sequence[np.ndarray]) -> None:
    """Run the module's one kernel over its whole grid on `buffers` (in the kernel's
    argument order: its inputs, then its outputs, which it writes in place)."""
    binding = load_llvmlite()
    binding.initialize_native_target()
    binding.initialize_native_asmprinter()
    kernel = kernel_of(module)
    arity = len(kernel.function_type.inputs.data)
    if len(buffers) != arity:
        raise UserError(
            f"kernel '{kernel.sym_name.data}' takes {arity} buffers, got {len(buffers)}"
        )
    for buffer in buffers:
        if not buffer.flags.c_contiguous:
            raise UserError("the native engine needs C-contiguous buffers")
    text = module_to_llvm_ir(module, host=True)
    text += "\n" + grid_driver(kernel.sym_name.data, arity, grid_of(kernel))
    _bind_c_library(binding, text)
    compiled = binding.parse_assembly(text)
    compiled.triple = binding.get_process_triple()
    compiled.verify()
    machine = binding.Target.from_default_triple().create_target_machine(opt=2)
    engine = binding.create_mcjit_compiler(compiled, machine)
    engine.finalize_object()
    run = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(engine.get_function_address("xla.grid"))
    pointers = (ctypes.c_void_p * arity)(*(b.ctypes.data for b in buffers))
    run(ctypes.cast(pointers, ctypes.c_void_p))
