"""From a JAX function to a bundle of what XLA:GPU does with it.

    from xla_emit import jax as xj
    bundle = xj.compile_function(mlp, ["f32[8,128]", "f32[128,64]"], "mlp.bundle")
    bundle = xj.compile_function(mlp, [x, w], "mlp.bundle", target="a100")   # arrays give specs

Compiles for a GPU without one (H100 by default; `targets`), with XLA's default
options unless `options` says otherwise, and writes one bundle folder (layout in
`bundle`) that `xla-emit-run`, `xla-emit-opt` and `xla-emit-dump` read. Compiling
needs the `jax` extra; reading a bundle does not, and importing this package
imports no jax.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from xla_emit.jax.bundle import Bundle, is_bundle, open_bundle
from xla_emit.jax.specs import ArgSpec, parse_spec
from xla_emit.jax.targets import DEFAULT_TARGET, load_target, shipped_targets

if TYPE_CHECKING:
    from xla_emit.jax.capture import compile_function, load_function

__all__ = [
    "DEFAULT_TARGET",
    "ArgSpec",
    "Bundle",
    "compile_function",
    "is_bundle",
    "load_function",
    "load_target",
    "open_bundle",
    "parse_spec",
    "shipped_targets",
]


def __getattr__(name: str) -> Any:
    # The compiling half imports jax: only when it is asked for.
    if name in ("compile_function", "load_function"):
        from xla_emit.jax import capture

        return getattr(capture, name)
    raise AttributeError(name)
