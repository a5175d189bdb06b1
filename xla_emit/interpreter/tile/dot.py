"""Dots on tiles, as the tile executor computes them: `stablehlo.dot_general` and `tt.dot`.

Triton's dot multiplies on the tensor cores and accumulates in f32. Here: f32 inputs
are first rounded to TF32 (10 mantissa bits, to nearest with ties away, as
`cvt.rna.tf32.f32`) when the dot's precision is TF32 (XLA's default for f32: `DEFAULT`
precision in `stablehlo`, `inputPrecision = tf32` in `tt`); bf16 and f16 inputs are
exact in f32. Products are exact in f32 then (11 x 11 or 8 x 8 significant bits), and
they are added in f32 along K in order. `tt.dot %a, %b, %c` is `%c` plus that sum, one
addition, which is what XLA's kernels compute before `stablehlo-lower-to-triton` folds
their `arith.addf %acc, %dot` into the dot's accumulator: every stage rounds alike.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

import numpy as np
from xdsl.dialects.builtin import ArrayAttr, Float32Type, TensorType
from xdsl.ir import Attribute, Operation

from xla_emit.dialects import stablehlo, triton
from xla_emit.interpreter.element_types import numpy_dtype

if TYPE_CHECKING:
    from xla_emit.interpreter.tile.executor import Handler, TileExecutor


def to_tf32(values: np.ndarray) -> np.ndarray:
    """f32 values rounded to TF32's 10 mantissa bits, to nearest, ties away from zero.

    Adding half of the dropped bits and clearing them rounds every finite value and keeps
    infinities (their dropped bits are zero); only a NaN's payload can carry into its sign,
    so NaNs keep their bits (checked once per array: most have none)."""
    values = np.ascontiguousarray(values, dtype=np.float32)
    bits = values.view(np.uint32)
    rounded = np.add(bits, np.uint32(0x1000))
    np.bitwise_and(rounded, np.uint32(0xFFFFE000), out=rounded)
    nans = np.isnan(values)
    if nans.any():
        np.copyto(rounded, bits, where=nans)
    return rounded.view(np.float32)


def _operand(values: np.ndarray, tf32: bool) -> np.ndarray:
    if values.dtype == np.float32 and tf32:
        return to_tf32(values)
    return values.astype(np.float32, copy=False)


def contract(
    lhs: np.ndarray,
    rhs: np.ndarray,
    batch: tuple[Sequence[int], Sequence[int]],
    contracting: tuple[Sequence[int], Sequence[int]],
    tf32: bool,
) -> np.ndarray:
    """Per pid (axis 0 of both), the dot of tiles `lhs` and `rhs` (dims counted without the
    pid axis), result dims batch, lhs free, rhs free; one contracting dim, summed in order.

    Each K position's products (exact in f32, see the module docstring) are added in order
    into an f32 total that starts at zero: K sequential f32 additions per element. The pid
    axis goes last while summing, so each numpy call runs along all programs at once
    (tiles are small, programs many: a contiguous inner loop of hundreds of elements)."""
    (lhs_batch, rhs_batch), (lhs_k, rhs_k) = batch, contracting
    if len(lhs_k) != 1 or len(rhs_k) != 1:
        raise ValueError("dots with other than one contracting dimension are not supported")
    lhs_free = [d for d in range(lhs.ndim - 1) if d not in lhs_batch and d not in lhs_k]
    rhs_free = [d for d in range(rhs.ndim - 1) if d not in rhs_batch and d not in rhs_k]
    # [K, batch..., lhs free..., pids] and [K, batch..., rhs free..., pids]
    a = _pid_last(lhs, [lhs_k[0], *lhs_batch, *lhs_free], tf32)
    b = _pid_last(rhs, [rhs_k[0], *rhs_batch, *rhs_free], tf32)
    batch_shape = a.shape[1 : 1 + len(lhs_batch)]
    lhs_shape, rhs_shape = a.shape[1 + len(lhs_batch) : -1], b.shape[1 + len(rhs_batch) : -1]
    k, lanes = a.shape[0], a.shape[-1]
    size = math.prod
    # [K, batch, M, pids] and [K, batch, N, pids]: contiguous, so reshaping moves nothing.
    a = a.reshape(k, size(batch_shape), size(lhs_shape), lanes)
    b = b.reshape(k, size(batch_shape), size(rhs_shape), lanes)
    total = sum_products_in_order(a, b)
    return np.moveaxis(total.reshape(*batch_shape, *lhs_shape, *rhs_shape, lanes), -1, 0)


def sum_products_in_order(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`total[g, m, n, l]`: the f32 sum over `k` of `a[k, g, m, l] * b[k, g, n, l]`, each
    product rounded to f32, then added to a total that starts at zero, `k` in order.

    numpy's `einsum` computes that in one call: its loop runs the summed axis outermost here
    (the largest strides of both inputs) and the lanes innermost, and adds each rounded
    product into the output. That is checked once per process on values whose products are
    not exact and whose sums depend on their order (`_einsum_sums_in_order`): a numpy
    whose einsum fuses the multiply-add or reorders the sum falls back to two passes per
    K position. Where the total holds a NaN, the passes decide it too: which of two NaNs an
    addition keeps depends on the order of its operands, which einsum does not promise. So
    they do for a total of one element: the summed axis is then einsum's inner loop, which
    it sums in several vector lanes at once."""
    elements = a.shape[1] * a.shape[2] * b.shape[2] * a.shape[3]
    if elements > 1 and _einsum_sums_in_order():
        total = np.einsum("kgml,kgnl->gmnl", a, b)
        if not np.isnan(total.max()):
            return total
    return _sum_products_by_passes(a, b)


def _sum_products_by_passes(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`sum_products_in_order` as a multiply and an add per K position."""
    a, b = a[:, :, :, None, :], b[:, :, None, :, :]
    total = np.zeros(np.broadcast_shapes(a.shape[1:], b.shape[1:]), dtype=np.float32)
    product = np.empty_like(total)
    for k in range(a.shape[0]):
        np.multiply(a[k], b[k], out=product)
        np.add(total, product, out=total)
    return total


@cache
def _einsum_sums_in_order() -> bool:
    """Whether `np.einsum` sums as `_sum_products_by_passes` does, bit for bit, on f32
    values of full precision (their products round; a fused multiply-add would not) over
    a long K (each order of the additions gives other bits), with lane counts that take
    its vector loop and its remainder, and with one inner dimension only."""
    rng = np.random.default_rng(0)
    shapes = [(2, 3, 5, lanes) for lanes in (1, 7, 67, 256)]
    shapes += [(1, 1, 1, 2), (1, 2, 1, 1), (1, 1, 3, 1)]
    for groups, rows, columns, lanes in shapes:
        a = rng.standard_normal((33, groups, rows, lanes)).astype(np.float32)
        b = rng.standard_normal((33, groups, columns, lanes)).astype(np.float32)
        ours = np.einsum("kgml,kgnl->gmnl", a, b)
        if ours.tobytes() != _sum_products_by_passes(a, b).tobytes():
            return False
    return True


def _pid_last(tiles: np.ndarray, order: Sequence[int], tf32: bool) -> np.ndarray:
    """`tiles` ([pids, *tile]) as f32 dot inputs, the tile dims in `order`, then the pids,
    contiguous (moved before widening: half the bytes to move for 16-bit inputs)."""
    return _operand(lanes_last(tiles, order), tf32)


# Lanes moved at once between lanes-first and lanes-last layouts (see `lanes_last`).
_LANE_BLOCK = 64


def lanes_last(values: np.ndarray, order: Sequence[int]) -> np.ndarray:
    """`values` ([lanes, *tile]) as a contiguous [*tile dims in `order`, lanes].

    Moving the lanes axis last in one copy reads, for every element written, one far from
    the last; in two copies the reads stay close: each block of 64 lanes is transposed on
    its own (its tiles fit the caches), then the blocks are laid side by side (runs of 64
    contiguous lanes). The same elements either way."""
    lanes, rank = values.shape[0], values.ndim - 1
    if lanes % _LANE_BLOCK or lanes < 2 * _LANE_BLOCK:
        return np.ascontiguousarray(values.transpose(*(d + 1 for d in order), 0))
    blocks = values.reshape(lanes // _LANE_BLOCK, _LANE_BLOCK, *values.shape[1:])
    inner = np.ascontiguousarray(blocks.transpose(0, *(d + 2 for d in order), 1))
    outer = np.ascontiguousarray(inner.transpose(*range(1, rank + 1), 0, rank + 1))
    return outer.reshape(*outer.shape[:rank], lanes)


def lanes_first(values: np.ndarray) -> np.ndarray:
    """`values` ([*tile, lanes]) as a contiguous [lanes, *tile], in blocks of lanes as
    `lanes_last` moves them."""
    lanes, rank = values.shape[-1], values.ndim - 1
    if lanes % _LANE_BLOCK or lanes < 2 * _LANE_BLOCK:
        return np.ascontiguousarray(np.moveaxis(values, -1, 0))
    blocks = values.reshape(*values.shape[:rank], lanes // _LANE_BLOCK, _LANE_BLOCK)
    outer = np.ascontiguousarray(blocks.transpose(rank, *range(rank), rank + 1))
    inner = np.ascontiguousarray(outer.transpose(0, rank + 1, *range(1, rank + 1)))
    return inner.reshape(lanes, *values.shape[:rank])


@dataclass(frozen=True)
class _DotPlan:
    """What a dot op asks of `contract`, read from its attributes once."""

    batch: tuple[Sequence[int], Sequence[int]]
    contracting: tuple[Sequence[int], Sequence[int]]
    tf32: bool


# Each dot op's plan (printing or unpacking its attributes costs more than a small dot).
_PLANS: WeakKeyDictionary[Operation, _DotPlan] = WeakKeyDictionary()


def _dot_general_plan(op: stablehlo.DotGeneralOp) -> _DotPlan:
    plan = _PLANS.get(op)
    if plan is None:
        lhs_batch, rhs_batch, lhs_k, rhs_k = op.dot_dimension_numbers.lists()
        precision = op.precision_config
        names = [p.data for p in precision.data] if isinstance(precision, ArrayAttr) else []
        tf32 = all(name == "DEFAULT" for name in names)
        plan = _PLANS[op] = _DotPlan((lhs_batch, rhs_batch), (lhs_k, rhs_k), tf32)
    return plan


def _tt_dot_plan(op: triton.DotOp) -> _DotPlan:
    plan = _PLANS.get(op)
    if plan is None:
        rank = len(_shape(op.a.type))
        batch = tuple(range(rank - 2))
        tf32 = op.input_precision == "tf32"
        plan = _PLANS[op] = _DotPlan((batch, batch), ((rank - 1,), (rank - 2,)), tf32)
    return plan


def _shape(type_: Attribute) -> tuple[int, ...]:
    return tuple(type_.get_shape()) if isinstance(type_, TensorType) else ()


def dot_general(ex: TileExecutor, op: Operation, args: list[Any]) -> list[Any]:
    assert isinstance(op, stablehlo.DotGeneralOp)
    plan = _dot_general_plan(op)
    lhs = ex.per_pid(args[0], op.lhs.type)
    rhs = ex.per_pid(args[1], op.rhs.type)
    try:
        total = contract(lhs, rhs, plan.batch, plan.contracting, plan.tf32)
    except ValueError as error:
        raise ex.error(op, str(error)) from None
    return [total.astype(numpy_dtype(op.result.type), copy=False)]


def tt_dot(ex: TileExecutor, op: Operation, args: list[Any]) -> list[Any]:
    assert isinstance(op, triton.DotOp)
    total = tt_dot_sum(ex, op, args[0], args[1])
    return [accumulate(ex, op, args[2], total)]


def tt_dot_sum(ex: TileExecutor, op: triton.DotOp, a: Any, b: Any) -> np.ndarray:
    """The in-tile sum of `tt.dot`'s products (per pid), before the accumulator joins."""
    result_type = op.d.type
    assert isinstance(result_type, TensorType)
    if not isinstance(result_type.get_element_type(), Float32Type):
        raise ex.error(op, "accumulating in other than f32 is not supported by the tile executor")
    plan = _tt_dot_plan(op)
    lhs, rhs = ex.per_pid(a, op.a.type), ex.per_pid(b, op.b.type)
    return contract(lhs, rhs, plan.batch, plan.contracting, plan.tf32)


def accumulate(ex: TileExecutor, op: triton.DotOp, accumulator: Any, total: np.ndarray) -> Any:
    """`tt.dot`'s result: its accumulator plus the in-tile sum, one f32 addition."""
    return np.add(ex.per_pid(accumulator, op.c.type), total, dtype=np.float32)


DOT_HANDLERS: tuple[tuple[type[Operation], Handler], ...] = (
    (stablehlo.DotGeneralOp, dot_general),
    (triton.DotOp, tt_dot),
)
