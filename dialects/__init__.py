"""xDSL dialects of xla-emit.

Each dialect lives in its own module (attributes, then ops, then the
`Dialect` object). `all_dialects()` maps dialect names to lazy loaders so that
tools import only what a program uses.
"""

from collections.abc import Callable

from xdsl.ir import Dialect


def _xla() -> Dialect:
    from dialects.xla import XLA

    return XLA


def _xla_gpu() -> Dialect:
    from dialects.xla_gpu import XLA_GPU

    return XLA_GPU


def _gpu() -> Dialect:
    from dialects.gpu import GPU

    return GPU


def _arith() -> Dialect:
    from dialects.arith_ext import ARITH

    return ARITH


def _vector() -> Dialect:
    from dialects.vector_ext import VECTOR

    return VECTOR


def _tpu() -> Dialect:
    from dialects.tpu import TPU

    return TPU


def _pto() -> Dialect:
    from dialects.pto import PTO

    return PTO


def all_dialects() -> dict[str, Callable[[], Dialect]]:
    """Our dialects by name.

    `gpu`, `arith` and `vector` replace xDSL's own: they add MLIR's custom
    syntax for `gpu.thread_id x` and ops xDSL 0.74 lacks (`arith.remf`,
    `vector.splat`, ...).
    """
    return {
        "xla": _xla,
        "xla_gpu": _xla_gpu,
        "gpu": _gpu,
        "arith": _arith,
        "vector": _vector,
        "tpu": _tpu,
        "pto": _pto,
    }
