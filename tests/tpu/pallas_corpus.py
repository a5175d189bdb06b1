"""The Pallas corpus (tests/corpus/pallas): kernel names, modules, inputs and reference outputs.

The kernels as jax 0.10.2 lowers them are named `matmul`, ...; as jax 0.12 lowers
them, `jax-0.12/matmul`, ... (the same kernels, generated side by side).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from xla_emit.ir.context import make_context
from xla_emit.ir.parse import parse_mlir
from xla_emit.ir.verify import verify_module

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "pallas"
JAX_0_12 = "jax-0.12"
KERNELS = sorted(path.stem for path in CORPUS.glob("*.mlir")) + sorted(
    f"{JAX_0_12}/{path.stem}" for path in (CORPUS / JAX_0_12).glob("*.mlir")
)


def base_name(name: str) -> str:
    """The kernel's name in tools/make_pallas_corpus.py, whichever jax lowered it."""
    return name.rsplit("/", 1)[-1]


def kernel_text(name: str) -> str:
    return (CORPUS / f"{name}.mlir").read_text()


def parse_kernel(name: str) -> ModuleOp:
    """The kernel's module, parsed and verified."""
    module, source_map = parse_mlir(kernel_text(name), f"{base_name(name)}.mlir", make_context())
    verify_module(module, source_map)
    return module


def arrays(name: str, kind: str) -> list[np.ndarray]:
    """`inputs` or `outputs` of a kernel, in order (bf16 kept as uint16 bit patterns)."""
    with np.load(CORPUS / f"{name}.{kind}.npz") as archive:
        return [archive[key] for key in sorted(archive.files, key=lambda k: int(k[3:]))]
