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
    "xla": "dialects.xla:XLA",
    "xla_gpu": "dialects.xla_gpu:XLA_GPU",
    "gpu": "dialects.gpu:GPU",
    "arith": "dialects.arith_ext:ARITH",
    "vector": "dialects.vector_ext:VECTOR",
    "scf": "dialects.scf_ext:SCF",
    "tensor": "dialects.tensor_ext:TENSOR",
    "memref": "dialects.memref_ext:MEMREF",
    "llvm": "dialects.llvm_ext:LLVM",
    "tpu": "dialects.tpu:TPU",
    "pto": "dialects.pto:PTO",
    "xtile": "dialects.xtile:XTILE",
    "stablehlo": "dialects.stablehlo:STABLEHLO",
    "tt": "dialects.triton:TRITON",
    "triton_xla": "dialects.triton_xla:TRITON_XLA",
    "nvvm": "dialects.nvvm:NVVM",
}


def _loader(target: str) -> Callable[[], Dialect]:
    """Loads `module:NAME` on first call."""
    module, _, name = target.partition(":")
    return lambda: getattr(importlib.import_module(module), name)


def built_in_dialects() -> dict[str, Callable[[], Dialect]]:
    """Our dialects by name, as lazy loaders (as `xla_emit.ir.published_dialects` gives them)."""
    return {name: _loader(target) for name, target in BUILT_IN_DIALECTS.items()}
