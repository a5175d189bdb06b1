"""The xDSL plugin entry point: makes our dialects and passes visible to plain `xdsl-opt`.

Dialects that extend one of xDSL's (`gpu` with MLIR's custom syntax for
`gpu.thread_id x`, `arith` and `vector` with ops xDSL 0.74 lacks) are left
out: a name may come from one universe only. `xla-emit-opt` swaps them in
itself.
"""

from xdsl.dialects import get_all_dialects
from xdsl.universe import Universe

from passes import all_passes
from xla_emit.ir.context import published_dialects

XLA_EMIT_UNIVERSE = Universe(
    all_dialects={
        name: load for name, load in published_dialects().items() if name not in get_all_dialects()
    },
    all_passes=all_passes(),
)
