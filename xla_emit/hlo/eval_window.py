"""Reference semantics of `reduce-window` and `select-and-scatter`.

Both sweep a window over the padded (and, for reduce-window, base-dilated)
operand: one numpy step per window element, vectorized over all windows, in
row-major order of the window, as XLA's own evaluator visits them.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from xla_emit.hlo.eval_indexed import RunComputation, update_rounds
from xla_emit.hlo.eval_linalg import dilate_and_pad, window_slices
from xla_emit.hlo.ir import HloInstruction
from xla_emit.hlo.shape import flatten_shape


def _leaves(value: object) -> list[np.ndarray]:
    items = value if isinstance(value, tuple) else (value,)
    return [np.asarray(v) for v in items]


def reduce_window(
    instruction: HloInstruction, operands: Sequence[np.ndarray], run: RunComputation
) -> np.ndarray | tuple[np.ndarray, ...]:
    half = len(operands) // 2
    window = instruction.window
    assert window is not None
    axes = range(operands[0].ndim)
    padded = [
        dilate_and_pad(x, axes, window, init)
        for x, init in zip(operands[:half], operands[half:], strict=True)
    ]
    out_shape = _out_shape(instruction)
    accumulators = [np.broadcast_to(init, out_shape) for init in operands[half:]]
    reducer = instruction.called_computations[0]
    for position in itertools.product(*(range(w.size) for w in window)):
        slices = window_slices(position, window, out_shape)
        stepped = _leaves(run(reducer, [*accumulators, *(x[slices] for x in padded)]))
        accumulators = [np.broadcast_to(a, out_shape) for a in stepped]
    results = [a.astype(x.dtype) for a, x in zip(accumulators, operands[:half], strict=True)]
    return results[0] if half == 1 else tuple(results)


def _out_shape(instruction: HloInstruction) -> tuple[int, ...]:
    return flatten_shape(instruction.shape)[0].dimensions


def select_and_scatter(
    instruction: HloInstruction, operands: Sequence[np.ndarray], run: RunComputation
) -> np.ndarray:
    operand, source, init = operands
    window = instruction.window
    assert window is not None
    select, combine = instruction.called_computations
    axes = range(operand.ndim)
    padded = dilate_and_pad(operand, axes, window, 0)
    inside = dilate_and_pad(np.ones(operand.shape, bool), axes, window, False)
    # Each padded position's flat index in the operand (padding positions get -1).
    positions = dilate_and_pad(
        np.arange(operand.size, dtype=np.int64).reshape(operand.shape), axes, window, -1
    )
    out_shape = source.shape
    chosen_value = np.zeros(out_shape, operand.dtype)
    chosen_at = np.full(out_shape, -1, np.int64)
    for position in itertools.product(*(range(w.size) for w in window)):
        slices = window_slices(position, window, out_shape)
        value, valid, at = padded[slices], inside[slices], positions[slices]
        has_choice = chosen_at >= 0
        keep = np.asarray(run(select, [chosen_value, value])).astype(bool)
        take = valid & (~has_choice | ~np.broadcast_to(keep, out_shape))
        chosen_value = np.where(take, value, chosen_value)
        chosen_at = np.where(take, at, chosen_at)
    result = np.full(operand.size, init, operand.dtype)
    targets = chosen_at.reshape(-1)
    sources = source.reshape(-1)
    kept = targets >= 0
    targets, sources = targets[kept], sources[kept]
    for members in update_rounds(targets):
        where = targets[members]
        combined = _leaves(run(combine, [result[where], sources[members]]))[0]
        result[where] = np.broadcast_to(combined, where.shape)
    return result.reshape(operand.shape)
