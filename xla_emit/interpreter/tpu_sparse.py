"""The TPU executor's handlers for Mosaic's scans, sorts and vreg shuffles (catalog rows).

Semantics are Mosaic's (`tpu_ops.td`) and SparseCore Pallas's
(`jax/_src/pallas/mosaic/sc_primitives.py`), along the minor dimension:

- `tpu.scan`: the running sum, max or min in lane order (rounding after each
  step), along jaxlib 0.12's `dimension` or else the minor one; on an i1
  vector, the running count of set lanes (i32). Integers compare unsigned, as
  the chip does (Pallas flips the sign bit around a signed max or min), except
  for 0.12's `maxsi`/`minsi`; `maxf`/`minf`/`maxui`/`minui` are max and min.
  With a mask, masked lanes hold the value of the last unmasked one and lanes
  before the first unmasked one are unspecified (NaN, or the most negative
  integer);
- `tpu.scan_count`: lane j counts the unmasked lanes up to and including j
  whose value has the same bits; a masked lane counts 1; the output mask marks
  the last unmasked occurrence of each value;
- `tpu.sort`: a stable sort of the unmasked keys (with their values), ascending
  or `descending`, integers compared unsigned; masked pairs follow in their
  order and the output mask marks the sorted, unmasked ones;
- `tpu.reshape`: row-major; `tpu.relayout`: the same value (only its layout in
  vregs changes);
- `tpu.sublane_shuffle`: sublane i of the result is sublane `pattern[i]` of
  lhs and rhs one after another (a sublane of a packed vreg holds `packing` rows).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
from xdsl.dialects.builtin import DenseArrayBase
from xdsl.ir import Operation, SSAValue

from xla_emit.diagnostics import UserError
from xla_emit.dialects import tpu
from xla_emit.interpreter.element_types import numpy_dtype
from xla_emit.interpreter.tpu_compute import unspecified


class WholeValues(Protocol):
    """What these handlers need of the TPU executor."""

    def array(self, value: SSAValue) -> npt.NDArray[np.generic]: ...
    def error(self, op: Operation, message: str) -> UserError: ...


def _field(op: Operation, name: str) -> Any:
    """An operand, result or property of a catalog op, by its `tpu_ops.td` name."""
    return getattr(op, name)


def _kind(op: Operation) -> str:
    attr = _field(op, "kind")
    assert isinstance(attr, tpu.ReductionKindAttr)
    return attr.value.data


def _ordered(values: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """Values in the order the chip compares them: integers as unsigned."""
    if values.dtype.kind == "i":
        return values.view(f"u{values.dtype.itemsize}")
    return values


_ACCUMULATE: dict[str, np.ufunc] = {"sum": np.add, "max": np.maximum, "min": np.minimum}
# jaxlib 0.12's typed kinds, as the kind the scan computes (integers compare unsigned
# here, as `max` and `min` do; `maxsi`/`minsi` compare signed).
_TYPED_KINDS = {"maxf": "max", "minf": "min", "maxui": "max", "minui": "min"}
_SIGNED_KINDS = {"maxsi": "max", "minsi": "min"}


def _identity(kind: str, dtype: np.dtype[Any]) -> object:
    """The value a masked lane contributes to a scan of `kind`."""
    if kind == "sum":
        return 0
    if dtype.kind in "iu":
        return np.iinfo(dtype).min if kind == "max" else np.iinfo(dtype).max
    return -np.inf if kind == "max" else np.inf


def scan(ex: WholeValues, op: Operation) -> list[Any]:
    """Along `dimension` (jaxlib 0.12), else the last dimension (0.10.2)."""
    source, kind = ex.array(op.operands[0]), _kind(op)
    dimension = _field(op, "dimension")
    axis = source.ndim - 1 if dimension is None else dimension.value.data
    mask_value = _field(op, "mask")
    mask = None if mask_value is None else ex.array(mask_value)
    moved = np.moveaxis(source, axis, -1)
    moved_mask = None if mask is None else np.moveaxis(mask, axis, -1)
    result = _scan_last(ex, op, kind, moved, moved_mask)
    return [np.moveaxis(result, -1, axis)]


def _scan_last(
    ex: WholeValues,
    op: Operation,
    kind: str,
    source: npt.NDArray[Any],
    mask_array: npt.NDArray[Any] | None,
) -> npt.NDArray[Any]:
    signed = kind in _SIGNED_KINDS
    kind = _SIGNED_KINDS.get(kind, _TYPED_KINDS.get(kind, kind))
    if kind not in _ACCUMULATE:
        raise ex.error(op, f"with kind '{kind}' is not supported (sum, max or min)")
    result_dtype = np.dtype(numpy_dtype(op.results[0].type))
    if source.dtype == np.bool_:
        return np.cumsum(source, axis=-1, dtype=result_dtype)
    ordered = source if signed else _ordered(source)
    mask = None if mask_array is None else mask_array.astype(bool)
    if mask is not None:
        ordered = np.where(mask, ordered, np.asarray(_identity(kind, ordered.dtype)))
        ordered = ordered.astype(source.dtype if signed else _ordered(source).dtype)
    running = _ACCUMULATE[kind].accumulate(ordered, axis=-1, dtype=ordered.dtype)
    result = running.view(source.dtype) if running.dtype != source.dtype else running
    if mask is not None:
        before_first = np.cumsum(mask, axis=-1) == 0
        result = np.where(before_first, np.asarray(unspecified(source.dtype)), result)
    return result.astype(result_dtype)


def _same_bits(values: npt.NDArray[Any]) -> npt.NDArray[np.bool_]:
    """[..., i, j]: lanes i and j of a row hold the same bits."""
    bits = np.ascontiguousarray(values).view(f"u{values.dtype.itemsize}")
    return bits[..., :, None] == bits[..., None, :]


def scan_count(ex: WholeValues, op: Operation) -> list[Any]:
    mask = ex.array(op.operands[0]).astype(bool)
    values = ex.array(op.operands[1])
    lanes = values.shape[-1]
    both = _same_bits(values) & mask[..., :, None] & mask[..., None, :]
    lane = np.arange(lanes)
    earlier_or_same = lane[:, None] <= lane[None, :]  # [i, j]: i <= j
    counts = np.where(mask, (both & earlier_or_same).sum(axis=-2), 1)
    later = lane[:, None] > lane[None, :]  # [i, j]: i > j
    last = mask & ~(both & later).any(axis=-2)
    return [last, counts.astype(np.int32)]


def sort(ex: WholeValues, op: Operation) -> list[Any]:
    keys, values = ex.array(op.operands[0]), ex.array(op.operands[1])
    mask_value = _field(op, "mask")
    mask = (
        np.ones(keys.shape, dtype=bool) if mask_value is None else ex.array(mask_value).astype(bool)
    )
    flag = _field(op, "descending")
    descending = flag is not None and bool(flag.value.data)
    ordered = _ordered(keys)
    lane = np.broadcast_to(np.arange(keys.shape[-1]), keys.shape)
    # Rank the keys densely so that a descending sort is an ascending sort of -rank.
    _, rank = np.unique(ordered, return_inverse=True)
    rank = rank.reshape(keys.shape).astype(np.int64)
    primary = np.where(mask, -rank if descending else rank, 0)
    # Keys first (unmasked before masked), then the original lane: a stable sort.
    order = np.lexsort((lane, primary, ~mask), axis=-1)
    pick = np.take_along_axis
    sorted_mask = pick(mask, order, axis=-1)
    return [sorted_mask, pick(keys, order, axis=-1), pick(values, order, axis=-1)]


def reshape(ex: WholeValues, op: Operation) -> list[Any]:
    shape = op.results[0].type.get_shape()  # type: ignore[attr-defined]
    return [ex.array(op.operands[0]).reshape(shape)]


def relayout(ex: WholeValues, op: Operation) -> list[Any]:
    return [ex.array(op.operands[0])]


def sublane_shuffle(ex: WholeValues, op: Operation) -> list[Any]:
    lhs, rhs = ex.array(op.operands[0]), ex.array(op.operands[1])
    pattern_attr = _field(op, "pattern")
    assert isinstance(pattern_attr, DenseArrayBase)
    pattern = [int(p) for p in pattern_attr.get_values()]
    *leading, rows, lanes = lhs.shape
    if rows % len(pattern):
        raise ex.error(op, f"has {len(pattern)} pattern entries for {rows} rows")
    per_sublane = rows // len(pattern)
    both = np.concatenate([lhs, rhs], axis=-2)
    sublanes = both.reshape(*leading, 2 * len(pattern), per_sublane, lanes)
    if any(not 0 <= p < 2 * len(pattern) for p in pattern):
        raise ex.error(op, f"pattern {pattern} names a sublane outside 0..{2 * len(pattern) - 1}")
    return [sublanes[..., pattern, :, :].reshape(lhs.shape)]


# Each handler is named after its op.
SPARSE_HANDLERS: tuple[tuple[type[Operation], Callable[[Any, Operation], list[Any]]], ...] = tuple(
    (tpu.CATALOG_BY_NAME[f"tpu.{run.__name__}"], run)
    for run in (
        scan,
        scan_count,
        sort,
        reshape,
        relayout,
        sublane_shuffle,
    )
)
