"""A lane-vectorized (SIMT) executor for the IR of every pipeline stage.

    from xla_emit.interpreter import Executor, CheckOptions
    outputs = Executor(module, checks=CheckOptions.fast()).run([x])

See `executor` for the value model, chunks and threads, `memory` for buffers
and the aliasing rule, `access` for the safety checks and `registry` for how
a dialect plugs in its op implementations (one module per dialect here:
`arith`, `math`, `scf`, `tensor`, `vector`, `memref`, `gpu`, `xla`, `xla_gpu`).
The TPU (`tpu`) and PTO (`pto`) executors dispatch through the same `OpTable`;
all three share the integer semantics of `scalars`.
"""

from xla_emit.dialects.xla_gpu import WARP_SIZE
from xla_emit.interpreter.executor import DEFAULT_MAX_LANES, Executor, OpLocator, Value, Values
from xla_emit.interpreter.lanes import LaneSet, LaunchGrid
from xla_emit.interpreter.memory import Buffer, BufferKind, CheckOptions, Replication, TensorValue
from xla_emit.interpreter.registry import (
    DEFAULT_REGISTRY,
    ImplRegistry,
    OpImpls,
    OpTable,
    grid_axis,
    impl,
    load_dialect_impls,
    register_impls,
)

__all__ = [
    "DEFAULT_MAX_LANES",
    "DEFAULT_REGISTRY",
    "WARP_SIZE",
    "Buffer",
    "BufferKind",
    "CheckOptions",
    "Executor",
    "ImplRegistry",
    "LaneSet",
    "LaunchGrid",
    "OpImpls",
    "OpLocator",
    "OpTable",
    "Replication",
    "TensorValue",
    "Value",
    "Values",
    "grid_axis",
    "impl",
    "load_dialect_impls",
    "register_impls",
]
