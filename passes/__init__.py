"""Passes of xla-emit, one module per pass.

The registry is the entry-point group `xla_emit.passes`: `pyproject.toml`
publishes each of our passes there as `name = "passes.<group>.<module>:<Class>"`,
and a user's package adds its own passes to `xla-emit-opt` and `xla-emit-run`
by publishing under the same group. `all_passes()` maps each name to a lazy
loader, as xDSL's `xdsl.transforms.get_all_passes()` does: tools start fast
and a pass module is imported only when a pipeline names it.
"""

from collections.abc import Callable
from functools import cache
from importlib.metadata import entry_points

from xdsl.passes import ModulePass

PASS_ENTRY_POINTS = "xla_emit.passes"


@cache
def _published() -> dict[str, Callable[[], type[ModulePass]]]:
    return {point.name: point.load for point in entry_points(group=PASS_ENTRY_POINTS)}


def all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Every pass published under `xla_emit.passes`, by its command-line name."""
    return dict(_published())
