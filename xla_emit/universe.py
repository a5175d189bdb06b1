"""The xDSL plugin entry point: makes our dialects and passes visible to plain `xdsl-opt`.

`gpu` is left out: xDSL already registers a `gpu` dialect and a name may come
from one universe only. `xla-emit-opt` swaps in our `gpu` (MLIR's custom
syntax for `gpu.thread_id x`) itself.
"""

from xdsl.universe import Universe

from dialects import all_dialects
from passes import all_passes

XLA_EMIT_UNIVERSE = Universe(
    all_dialects={name: load for name, load in all_dialects().items() if name != "gpu"},
    all_passes=all_passes(),
)
