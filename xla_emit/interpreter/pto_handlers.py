"""What the PTO executor's op-family modules (`pto_vreg`, `pto_vmi`, `pto_simt`,
`pto_aggregates`, `pto_comm`, `pto_cores`) share: a handler's signature, the table from
op class to handler built from op names, and the window of lanes a UB load or store
touches."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from xdsl.ir import Operation

from xla_emit.dialects.pto import PTO
from xla_emit.interpreter.pto_tile import Value

Array = np.ndarray[Any, Any]
Handler = Callable[[Any, Operation, list[Value]], list[Value]]


def handlers_by_class(by_name: Mapping[str, Handler]) -> dict[type[Operation], Handler]:
    """The handlers keyed by the PTO op classes whose names `by_name` holds."""
    return {op: by_name[op.name] for op in PTO.operations if op.name in by_name}


def ub_window(ex: Any, op: Operation, base: Value, offset: Value, count: int) -> Array:
    """`count` elements of a UB buffer from `offset` (offsets count elements), as a view
    a store writes through; a window past the buffer's end is a located error."""
    if not isinstance(base, np.ndarray):
        raise ex.error(op, "expects a UB buffer")
    flat, start = base.reshape(-1), int(offset)  # type: ignore[arg-type]
    if not 0 <= start <= flat.size - count:
        raise ex.error(op, f"lanes [{start}, {start + count}) fall outside {flat.size} elements")
    return flat[start : start + count]
