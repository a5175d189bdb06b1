"""PTOAS main's verifiers of `pto.alloc_multi_tile` and `pto.multi_tile_get`
(`lib/PTO/IR/PTO.cpp`):

- a slot may not use `row_plus_one` compaction (compact=2: its padded rows outgrow
  product(shape), and slots sit product(shape) bytes apart, so they would overlap);
- a constant base address is aligned as a tile address of the slot's memory;
- valid_row / valid_col operands are given exactly for a slot's dynamic valid dims;
- a constant slot index of `multi_tile_get` is within the count.

The driver's own rules (the planner's reserved attribute, the base address only at
level 3) are `passes/analysis/ptoas_driver_checks.py`'s.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation, SSAValue
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.aggregate_types import MultiTileBufType

from xla_emit.pto.alloc_rules import address_error

ROW_PLUS_ONE = 2


def _constant(value: SSAValue | None) -> int | None:
    attr = getattr(value.owner, "value", None) if value is not None else None
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def verify_alloc_multi_tile(op: Operation) -> None:
    kind = op.results[0].type
    if not isinstance(kind, MultiTileBufType):
        raise VerifyException("result must be `!pto.multi_tile_buf`")
    slot = kind.slot_type
    if slot.compact.data == ROW_PLUS_ONE:
        raise VerifyException(
            "multi_tile_buf slot uses row_plus_one compaction, whose padded storage footprint "
            "exceeds product(shape) and would overlap adjacent multi-buffer slots; use a "
            "compact (non-row_plus_one) slot layout or a single pto.alloc_tile"
        )
    address = _constant(getattr(op, "addr", None))
    if address is not None:
        error = address_error(slot.loc.data, address)
        if error:
            raise VerifyException(error)
    for name, extent in zip(("valid_row", "valid_col"), slot.valid_shape, strict=True):
        given, needed = getattr(op, name, None) is not None, extent < 0
        if given != needed:
            presence = "is required" if needed else "must be absent"
            shown = "?" if needed else str(extent)
            axis = "v_row" if name == "valid_row" else "v_col"
            raise VerifyException(f"{name} operand {presence} because slot {axis} is {shown}")


def verify_multi_tile_get(op: Operation) -> None:
    source, result = op.operands[0].type, op.results[0].type
    if not isinstance(source, MultiTileBufType):
        return
    if source.slot_type != result:
        raise VerifyException(
            "result tile_buf must match the multi_tile_buf slot type: expected "
            f"{source.slot_type}, got {result}"
        )
    slot, count = _constant(op.operands[1]), source.count.data
    if slot is not None and not 0 <= slot < count:
        raise VerifyException(
            f"constant slot {slot} is out of range for multi_tile_buf count={count}"
        )


MULTI_TILE_RULES: dict[str, Callable[[Operation], None]] = {
    "alloc_multi_tile": verify_alloc_multi_tile,
    "multi_tile_get": verify_multi_tile_get,
}
