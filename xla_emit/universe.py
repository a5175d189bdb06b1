"""The xDSL plugin entry point: makes our dialects, passes and pipelines visible to `xdsl-opt`.

`XLA_EMIT_UNIVERSE` publishes every dialect of the `xla_emit.dialects` group
that xDSL lacks, every pass of the `xla_emit.passes` group and one pass per
named pipeline (`xdsl-opt -p xla-gpu-pipeline`). Three of our dialects extend
xDSL's own under the same name (`gpu` with MLIR's custom syntax for
`gpu.thread_id x`, `arith` and `vector` with ops xDSL 0.74 lacks), and xDSL's
multiverse refuses a name published twice; so, as `xla-emit-opt` does in its
own context, loading this plugin puts ours in the place of xDSL's in xDSL's
universe, before `xdsl-opt` merges the universes. Our dialects are supersets
of xDSL's, so every program xDSL parses still parses.
"""

from collections.abc import Callable

from xdsl.dialects import get_all_dialects
from xdsl.passes import ModulePass
from xdsl.universe import XDSL_UNIVERSE, Universe

from xla_emit.ir.context import published_dialects
from xla_emit.passes import all_passes
from xla_emit.passes.pipelines import PIPELINES, pipeline_pass


def _pipeline_loader(name: str) -> Callable[[], type[ModulePass]]:
    return lambda: pipeline_pass(name)


_XDSL_NAMES = set(get_all_dialects())
XDSL_UNIVERSE.all_dialects.update(
    {name: load for name, load in published_dialects().items() if name in _XDSL_NAMES}
)

XLA_EMIT_UNIVERSE = Universe(
    all_dialects={
        name: load for name, load in published_dialects().items() if name not in _XDSL_NAMES
    },
    all_passes={**all_passes(), **{name: _pipeline_loader(name) for name in PIPELINES}},
)
