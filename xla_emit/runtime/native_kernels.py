"""Fusions compiled for the native CPU engine, cached in the process and on disk.

A fusion is emitted as for the interpreter, lowered by `xla-host-to-llvm` (its
threads as loops split at barriers and shuffles, then tensors to pointers and
everything to the `llvm` dialect) and JIT-compiled by llvmlite
(`runtime.native`). The LLVM IR of each fusion is also kept on disk (under
`$XLA_EMIT_CACHE`, default `~/.cache/xla-emit/native`), keyed by the fusion's
text and a fingerprint of the compiler's sources: a later process skips the
Python passes, which cost far more than LLVM's compile.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

import numpy as np

from xla_emit.diagnostics import UserError
from xla_emit.hlo.ir import HloComputation, HloInstruction, HloModule
from xla_emit.hlo.shape import ArrayShape, flatten_shape
from xla_emit.runtime.block_pool import BlockPool, shared_pool
from xla_emit.runtime.kernels import compile_fusion, fusion_key
from xla_emit.runtime.native import NativeKernel, compile_llvm_ir, kernel_ir

HOST_PIPELINE = "xla-host-to-llvm"
_SOURCE_PACKAGES = ("passes", "dialects", "xla_emit")


@cache
def compiler_fingerprint() -> str:
    """Changes whenever a source file of the compiler does (its path, size and time)."""
    root = Path(__file__).resolve().parents[2]
    digest = hashlib.sha256()
    for package in _SOURCE_PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            stat = path.stat()
            digest.update(f"{path.relative_to(root)}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    return digest.hexdigest()[:16]


def cache_folder() -> Path:
    base = os.environ.get("XLA_EMIT_CACHE")
    return Path(base) if base else Path.home() / ".cache" / "xla-emit" / "native"


@dataclass
class NativeKernelCache:
    """Native kernels by fusion text; `disk=False` keeps them in this process only."""

    disk: bool = True
    # The host threads that run a kernel's blocks (None: the process's shared pool).
    block_pool: BlockPool | None = None
    _kernels: dict[str, NativeKernel] = field(default_factory=dict[str, NativeKernel])

    # A fusion launched again finds its kernel without printing its computation for the key.
    _by_fusion: WeakKeyDictionary[HloInstruction, NativeKernel] = field(
        default_factory=WeakKeyDictionary[HloInstruction, NativeKernel]
    )

    @property
    def pool(self) -> BlockPool:
        return shared_pool() if self.block_pool is None else self.block_pool

    def kernel(self, module: HloModule, fusion: HloInstruction) -> NativeKernel:
        known = self._by_fusion.get(fusion)
        if known is not None:
            return known
        key = fusion_key(fusion, HOST_PIPELINE)
        known = self._kernels.get(key)
        if known is None:
            known = compile_llvm_ir(self._llvm_ir(module, fusion, key))
            self._kernels[key] = known
        self._by_fusion[fusion] = known
        return known

    def _llvm_ir(self, module: HloModule, fusion: HloInstruction, key: str) -> str:
        path = None
        if self.disk:
            name = hashlib.sha256(f"{compiler_fingerprint()}\n{key}".encode()).hexdigest()
            path = cache_folder() / f"{name}.json"
            if path.exists():
                return json.loads(path.read_text())["llvm_ir"]
        text = kernel_ir(compile_fusion(module, fusion, HOST_PIPELINE))
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                temporary = path.with_suffix(f".{os.getpid()}.tmp")
                temporary.write_text(json.dumps({"fusion": fusion.name, "llvm_ir": text}))
                temporary.replace(path)
            except OSError:
                pass  # a cache that cannot be written only costs time
        return text


def launch_native(
    kernel: NativeKernel,
    fusion: HloInstruction,
    operands: list[np.ndarray],
    pool: BlockPool | None = None,
) -> list[np.ndarray]:
    """Runs the kernel on the operands' bytes (its blocks on `pool`); the fusion's
    outputs, flat."""
    inputs = [np.ascontiguousarray(operand) for operand in operands]
    outputs: list[np.ndarray] = []
    for number, leaf in enumerate(flatten_shape(fusion.shape)):
        updated = kernel.updated_input(number, len(inputs))
        if updated is None:
            outputs.append(np.empty(leaf.dimensions, leaf.element_type.dtype))
        else:  # written in place: the elements the kernel leaves are the input's
            outputs.append(inputs[updated].reshape(leaf.dimensions).copy())
    if kernel.buffers != len(inputs) + len(outputs):
        raise UserError(
            f"'{fusion.name}': its native kernel takes {kernel.buffers} buffers, "
            f"not {len(inputs)} operands and {len(outputs)} results"
        )
    kernel.run([*inputs, *outputs], pool)
    return outputs


@dataclass(frozen=True)
class _Launch:
    """One kernel launch of a `NativeSequence`, everything but the buffers decided."""

    fusion: HloInstruction
    kernel: NativeKernel
    # Slots of the sequence's values: its operands, in order; the slot it fills.
    operands: tuple[int, ...]
    result: int
    shape: tuple[int, ...]
    dtype: np.dtype[Any]
    # The operand (position) whose bytes the output starts as (updated in place), if any.
    starts_as: int | None
    pointers: Any
    address: int


@dataclass(frozen=True)
class NativeSequence:
    """A computation whose instructions are parameters and fusions of one array each, all
    run natively: its launches one after the other, the kernels, argument arrays and output
    shapes decided once. A launch then costs a few microseconds of Python (allocate its
    output, write the buffers' addresses, call), not the tens the general route takes."""

    parameters: int
    launches: tuple[_Launch, ...]
    root: int
    pool: BlockPool | None = None

    def run(self, arguments: Sequence[np.ndarray]) -> tuple[np.ndarray, list[float]]:
        """The root's value and the seconds each launch took."""
        values: list[np.ndarray] = [np.ascontiguousarray(a) for a in arguments]
        seconds: list[float] = []
        for launch in self.launches:
            started = time.perf_counter()
            operands = [values[slot] for slot in launch.operands]
            if launch.starts_as is None:
                output = np.empty(launch.shape, launch.dtype)
            else:
                output = operands[launch.starts_as].reshape(launch.shape).copy()
            pointers = launch.pointers
            for index, buffer in enumerate(operands):
                pointers[index] = buffer.__array_interface__["data"][0]
            pointers[len(operands)] = output.__array_interface__["data"][0]
            launch.kernel.launch(launch.address, self.pool)
            values.append(output)
            seconds.append(time.perf_counter() - started)
        return values[self.root], seconds


def native_sequence(
    computation: HloComputation,
    kernel_of: Callable[[HloInstruction], NativeKernel],
    launched_natively: Callable[[HloInstruction], bool],
    pool: BlockPool | None = None,
) -> NativeSequence | None:
    """The computation as a `NativeSequence`; None where an instruction is anything but a
    parameter or a natively launched fusion with one array output (those take the general
    route)."""
    slots: dict[HloInstruction, int] = {}
    launches: list[_Launch] = []
    fusions = [i for i in computation.instructions if i.opcode != "parameter"]
    parameters = len(computation.instructions) - len(fusions)
    for instruction in computation.instructions:
        if instruction.opcode == "parameter":
            if not isinstance(instruction.shape, ArrayShape):
                return None
            assert instruction.parameter_number is not None
            slots[instruction] = instruction.parameter_number
    for fusion in fusions:
        if not launched_natively(fusion) or not isinstance(fusion.shape, ArrayShape):
            return None
        kernel = kernel_of(fusion)
        operands = len(fusion.operands)
        if kernel.buffers != operands + 1:
            return None  # launch_native reports it
        pointers = kernel.argument_array()
        launches.append(
            _Launch(
                fusion,
                kernel,
                tuple(slots[operand] for operand in fusion.operands),
                parameters + len(launches),
                tuple(fusion.shape.dimensions),
                np.dtype(fusion.shape.element_type.dtype),
                kernel.updated_input(0, operands),
                pointers,
                ctypes.addressof(pointers),
            )
        )
        slots[fusion] = parameters + len(launches) - 1
    if not launches or computation.root not in slots:
        return None
    return NativeSequence(parameters, tuple(launches), slots[computation.root], pool)
