"""xDSL dialects of xla-emit.

Each dialect lives in its own module (attributes, then ops, then the
`Dialect` object). They are published to the front end under the entry-point
group `xla_emit.dialects` (see `pyproject.toml`), which loads each lazily, so
tools import only what a program uses. `BUILT_IN_DIALECTS` is the same table
(a test keeps the two equal), for runs that need no dialect but ours and
xDSL's: they skip the scan of the installed packages' entry points.
"""

import importlib
from collections.abc import Callable

from xdsl.ir import Dialect

BUILT_IN_DIALECTS: dict[str, str] = {
    "xla": "xla_emit.dialects.xla:XLA",
    "xla_gpu": "xla_emit.dialects.xla_gpu:XLA_GPU",
    "gpu": "xla_emit.dialects.gpu:GPU",
    "arith": "xla_emit.dialects.arith_ext:ARITH",
    "vector": "xla_emit.dialects.vector_ext:VECTOR",
    "scf": "xla_emit.dialects.scf_ext:SCF",
    "tensor": "xla_emit.dialects.tensor_ext:TENSOR",
    "memref": "xla_emit.dialects.memref_ext:MEMREF",
    "func": "xla_emit.dialects.func_ext:FUNC",
    "llvm": "xla_emit.dialects.llvm_ext:LLVM",
    "tpu": "xla_emit.dialects.tpu:TPU",
    "pto": "xla_emit.dialects.pto:PTO",
    "xtile": "xla_emit.dialects.xtile:XTILE",
    "stablehlo": "xla_emit.dialects.stablehlo:STABLEHLO",
    "tt": "xla_emit.dialects.triton:TRITON",
    "triton_xla": "xla_emit.dialects.triton_xla:TRITON_XLA",
    "nvvm": "xla_emit.dialects.nvvm:NVVM",
}


def _loader(target: str) -> Callable[[], Dialect]:
    """Loads `module:NAME` on first call."""
    module, _, name = target.partition(":")
    return lambda: getattr(importlib.import_module(module), name)


def built_in_dialects() -> dict[str, Callable[[], Dialect]]:
    """Our dialects by name, as lazy loaders (as `xla_emit.ir.published_dialects` gives them)."""
    return {name: _loader(target) for name, target in BUILT_IN_DIALECTS.items()}
