"""The xDSL context every tool, pass runner and interpreter parses into.

The front end sits below the dialects, so it names none of them: it takes
xDSL's own dialects and then every dialect published under the entry-point
group `xla_emit.dialects` (ours, from `pyproject.toml`, and any a user's
package adds). A dialect of that group replaces xDSL's dialect of the same
name: our `gpu` adds MLIR's custom syntax `gpu.thread_id x`, our `arith` and
`vector` add ops xDSL 0.74 lacks. Every dialect is loaded lazily, on first use.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from xdsl.context import Context
from xdsl.dialects import get_all_dialects
from xdsl.ir import Dialect

DIALECT_ENTRY_POINTS = "xla_emit.dialects"


@cache
def published_dialects() -> dict[str, Callable[[], Dialect]]:
    """Dialects published under `xla_emit.dialects`, by name, as lazy loaders."""
    from importlib.metadata import entry_points

    return {point.name: point.load for point in entry_points(group=DIALECT_ENTRY_POINTS)}


def make_context(
    allow_unregistered: bool = False, ours: dict[str, Callable[[], Dialect]] | None = None
) -> Context:
    """A context with xDSL's dialects and the published ones on top, all loaded lazily.

    `ours` replaces the published dialects (without reading the entry points).
    """
    ctx = Context(allow_unregistered=allow_unregistered)
    ours = ours if ours is not None else published_dialects()
    for name, load in get_all_dialects().items():
        if name not in ours:
            ctx.register_dialect(name, load)
    for name, load in ours.items():
        ctx.register_dialect(name, load)
    return ctx
