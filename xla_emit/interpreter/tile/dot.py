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

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from xdsl.dialects.builtin import ArrayAttr, Float32Type, TensorType
from xdsl.ir import Operation

from dialects import stablehlo, triton
from xla_emit.interpreter.element_types import numpy_dtype

if TYPE_CHECKING:
    from xla_emit.interpreter.tile.executor import Handler, TileExecutor


def to_tf32(values: np.ndarray) -> np.ndarray:
    """f32 values rounded to TF32's 10 mantissa bits, to nearest, ties away from zero."""
    bits = values.astype(np.float32).view(np.uint32)
    finite = (bits & 0x7F800000) != 0x7F800000
    rounded = ((bits + np.uint32(0x1000)) & np.uint32(0xFFFFE000)).astype(np.uint32)
    return np.where(finite, rounded, bits).view(np.float32)


def _operand(values: np.ndarray, tf32: bool) -> np.ndarray:
    if values.dtype == np.float32 and tf32:
        return to_tf32(values)
    return values.astype(np.float32)


def contract(
    lhs: np.ndarray,
    rhs: np.ndarray,
    batch: tuple[Sequence[int], Sequence[int]],
    contracting: tuple[Sequence[int], Sequence[int]],
    tf32: bool,
) -> np.ndarray:
    """Per pid (axis 0 of both), the dot of tiles `lhs` and `rhs` (dims counted without the
    pid axis), result dims batch, lhs free, rhs free; one contracting dim, summed in order."""
    (lhs_batch, rhs_batch), (lhs_k, rhs_k) = batch, contracting
    if len(lhs_k) != 1 or len(rhs_k) != 1:
        raise ValueError("dots with other than one contracting dimension are not supported")
    lhs_free = [d for d in range(lhs.ndim - 1) if d not in lhs_batch and d not in lhs_k]
    rhs_free = [d for d in range(rhs.ndim - 1) if d not in rhs_batch and d not in rhs_k]
    # [pids, batch..., lhs free..., K] and [pids, batch..., rhs free..., K]
    a = _operand(lhs, tf32).transpose(0, *(d + 1 for d in (*lhs_batch, *lhs_free, lhs_k[0])))
    b = _operand(rhs, tf32).transpose(0, *(d + 1 for d in (*rhs_batch, *rhs_free, rhs_k[0])))
    batch_rank = len(lhs_batch)
    a = a.reshape(
        *a.shape[: 1 + batch_rank], *a.shape[1 + batch_rank : -1], *[1] * len(rhs_free), a.shape[-1]
    )
    b = b.reshape(*b.shape[: 1 + batch_rank], *[1] * len(lhs_free), *b.shape[1 + batch_rank :])
    total = np.zeros(np.broadcast_shapes(a.shape[:-1], b.shape[:-1]), dtype=np.float32)
    for k in range(a.shape[-1]):
        total = total + a[..., k] * b[..., k]
    return total


def dot_general(ex: TileExecutor, op: Operation, args: list[Any]) -> list[Any]:
    assert isinstance(op, stablehlo.DotGeneralOp)
    lhs = ex.per_pid(args[0], op.lhs.type)
    rhs = ex.per_pid(args[1], op.rhs.type)
    lhs_batch, rhs_batch, lhs_k, rhs_k = op.dot_dimension_numbers.lists()
    precision = op.precision_config
    names = [str(p) for p in precision.data] if isinstance(precision, ArrayAttr) else []
    tf32 = all("DEFAULT" in name for name in names)
    try:
        total = contract(lhs, rhs, (lhs_batch, rhs_batch), (lhs_k, rhs_k), tf32)
    except ValueError as error:
        raise ex.error(op, str(error)) from None
    return [total.astype(numpy_dtype(op.result.type))]


def tt_dot(ex: TileExecutor, op: Operation, args: list[Any]) -> list[Any]:
    assert isinstance(op, triton.DotOp)
    lhs = ex.per_pid(args[0], op.a.type)
    rhs = ex.per_pid(args[1], op.b.type)
    accumulator = ex.per_pid(args[2], op.c.type)
    rank = lhs.ndim - 1
    batch = list(range(rank - 2))
    tf32 = op.input_precision == "tf32"
    total = contract(lhs, rhs, (batch, batch), ([rank - 1], [rank - 2]), tf32)
    result_type = op.d.type
    assert isinstance(result_type, TensorType)
    if not isinstance(result_type.get_element_type(), Float32Type):
        raise ex.error(op, "accumulating in other than f32 is not supported by the tile executor")
    return [(accumulator + total).astype(np.float32)]


DOT_HANDLERS: tuple[tuple[type[Operation], Handler], ...] = (
    (stablehlo.DotGeneralOp, dot_general),
    (triton.DotOp, tt_dot),
)
