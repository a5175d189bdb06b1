"""Shared helpers of the interpreter tests: parse MLIR text and run it.

The `run_kernel` fixture does both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from xdsl.context import Context
from xla_emit.dialects.arith_ext import ARITH
from xla_emit.dialects.vector_ext import VECTOR

from xla_emit.interpreter import CheckOptions, Executor, LaunchGrid
from xla_emit.ir import make_context, parse_mlir

RunKernel = Callable[..., list[np.ndarray]]


def run_mlir(
    text: str,
    inputs: Sequence[np.ndarray | np.generic | int | float],
    checks: CheckOptions | None = None,
    grid: LaunchGrid | None = None,
    max_lanes: int = 1 << 15,
    entry: str | None = None,
) -> list[np.ndarray]:
    """Parse `text` (file name `test.mlir`) and run its entry function on `inputs`."""
    module, source_map = parse_mlir(text, "test.mlir", _context())
    executor = Executor(module, checks=checks, max_lanes=max_lanes, locator=source_map)
    return executor.run(inputs, entry=entry, grid=grid)


def _context() -> Context:
    """The tools' context, with the arith/vector ops xDSL lacks (`dialects.*_ext`) loaded."""
    ctx = make_context()
    for dialect in (ARITH, VECTOR):
        # Until the tools' context registers the extended dialects itself.
        ctx._registered_dialects[dialect.name] = lambda dialect=dialect: dialect  # pyright: ignore[reportPrivateUsage]
    return ctx
