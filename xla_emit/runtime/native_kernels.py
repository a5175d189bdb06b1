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

import hashlib
import json
import os
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from weakref import WeakKeyDictionary

import numpy as np

from xla_emit.diagnostics import UserError
from xla_emit.hlo.ir import HloInstruction, HloModule
from xla_emit.hlo.shape import flatten_shape
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
    _kernels: dict[str, NativeKernel] = field(default_factory=dict[str, NativeKernel])

    # A fusion launched again finds its kernel without printing its computation for the key.
    _by_fusion: WeakKeyDictionary[HloInstruction, NativeKernel] = field(
        default_factory=WeakKeyDictionary[HloInstruction, NativeKernel]
    )

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
    kernel: NativeKernel, fusion: HloInstruction, operands: list[np.ndarray]
) -> list[np.ndarray]:
    """Runs the kernel on the operands' bytes; the fusion's outputs, flat."""
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
    kernel.run([*inputs, *outputs])
    return outputs
