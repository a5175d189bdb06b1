"""Reference semantics of `gather` and `scatter`, vectorized with numpy index arrays.

Written from XLA's operation semantics: gather clamps each start index so the
whole slice lies inside the operand; scatter skips an update window whose
start would put any part of it outside the operand, and applies the
combiner to the updates in row-major order of the update array.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from xla_emit.hlo.ir import HloComputation, HloInstruction

RunComputation = Callable[[HloComputation, Sequence[np.ndarray]], object]


def _index_vectors(indices: np.ndarray, index_vector_dim: int) -> np.ndarray:
    """The indices with the index vector as the last dimension, widened to int64."""
    wide = indices.astype(np.int64)
    if index_vector_dim == wide.ndim:
        return wide[..., None]
    return np.moveaxis(wide, index_vector_dim, -1)


def _vectors_at(
    vectors: np.ndarray, coords: list[np.ndarray], shape: tuple[int, ...]
) -> np.ndarray:
    """The index vector for every position of `shape`, given its batch coordinates."""
    picked = vectors[tuple(coords)] if coords else vectors
    return np.broadcast_to(picked, (*shape, vectors.shape[-1]))


def gather(instruction: HloInstruction, operand: np.ndarray, indices: np.ndarray) -> np.ndarray:
    dims = instruction.gather_dimensions
    assert dims is not None
    out_shape = instruction.array_shape.dimensions
    grid = np.indices(out_shape, dtype=np.int64)
    batch_out = [d for d in range(len(out_shape)) if d not in dims.offset_dims]
    vectors = _vectors_at(
        _index_vectors(indices, dims.index_vector_dim), [grid[d] for d in batch_out], out_shape
    )
    index_batch = [d for d in range(indices.ndim) if d != dims.index_vector_dim]
    removed = set(dims.collapsed_slice_dims) | set(dims.operand_batching_dims)
    window_dims = [d for d in range(operand.ndim) if d not in removed]
    full_index: list[np.ndarray] = []
    for d in range(operand.ndim):
        start = np.zeros(out_shape, np.int64)
        if d in dims.start_index_map:
            start = vectors[..., dims.start_index_map.index(d)]
        if d in dims.operand_batching_dims:
            index_dim = dims.start_indices_batching_dims[dims.operand_batching_dims.index(d)]
            start = grid[batch_out[index_batch.index(index_dim)]]
        start = np.clip(start, 0, operand.shape[d] - dims.slice_sizes[d])
        if d in window_dims:
            start = start + grid[sorted(dims.offset_dims)[window_dims.index(d)]]
        full_index.append(start)
    return operand[tuple(full_index)]


def scatter(
    instruction: HloInstruction, values: Sequence[np.ndarray], run: RunComputation
) -> np.ndarray | tuple[np.ndarray, ...]:
    half = len(values) // 2
    operands, indices, updates = values[:half], values[half], values[half + 1 :]
    targets, valid = _scatter_targets(instruction, operands[0].shape, indices, updates[0].shape)
    flat_targets = targets[valid]
    flat_updates = [u.reshape(-1)[valid] for u in updates]
    results = [o.copy().reshape(-1) for o in operands]
    combiner = instruction.called_computations[0]
    for round_members in update_rounds(flat_targets):
        where = flat_targets[round_members]
        current = [r[where] for r in results]
        incoming = [u[round_members] for u in flat_updates]
        combined = run(combiner, [*current, *incoming])
        leaves = combined if isinstance(combined, tuple) else (combined,)
        for result, leaf in zip(results, leaves, strict=True):
            assert isinstance(leaf, np.ndarray)
            result[where] = np.broadcast_to(leaf, where.shape)
    shaped = [r.reshape(o.shape) for r, o in zip(results, operands, strict=True)]
    return shaped[0] if half == 1 else tuple(shaped)


def _scatter_targets(
    instruction: HloInstruction,
    operand_shape: tuple[int, ...],
    indices: np.ndarray,
    update_shape: tuple[int, ...],
) -> tuple[np.ndarray, np.ndarray]:
    """Each update element's flat operand position (row-major) and whether its window fits."""
    dims = instruction.scatter_dimensions
    assert dims is not None
    grid = np.indices(update_shape, dtype=np.int64)
    scatter_dims = [d for d in range(len(update_shape)) if d not in dims.update_window_dims]
    vectors = _vectors_at(
        _index_vectors(indices, dims.index_vector_dim),
        [grid[d] for d in scatter_dims],
        update_shape,
    )
    index_batch = [d for d in range(indices.ndim) if d != dims.index_vector_dim]
    removed = set(dims.inserted_window_dims) | set(dims.input_batching_dims)
    window_dims = [d for d in range(len(operand_shape)) if d not in removed]
    valid = np.ones(update_shape, bool)
    full_index: list[np.ndarray] = []
    for d, bound in enumerate(operand_shape):
        start = np.zeros(update_shape, np.int64)
        if d in dims.scatter_dims_to_operand_dims:
            start = vectors[..., dims.scatter_dims_to_operand_dims.index(d)]
        if d in dims.input_batching_dims:
            index_dim = dims.scatter_indices_batching_dims[dims.input_batching_dims.index(d)]
            start = grid[scatter_dims[index_batch.index(index_dim)]]
        window = 1
        if d in window_dims:
            update_dim = dims.update_window_dims[window_dims.index(d)]
            window = update_shape[update_dim]
            full_index.append(start + grid[update_dim])
        else:
            full_index.append(start)
        valid &= (start >= 0) & (start <= bound - window)
    clipped = [np.where(valid, i, 0) for i in full_index]
    targets = (
        np.ravel_multi_index(tuple(clipped), operand_shape)
        if operand_shape
        else np.zeros(update_shape, np.int64)
    )
    return np.asarray(targets).reshape(-1), valid.reshape(-1)


def update_rounds(targets: np.ndarray) -> list[np.ndarray]:
    """Positions grouped so that round k holds each target's k-th update, in order.

    Within a round every target is distinct, so a round is one vectorized
    combiner application, and each target still sees its updates in order.
    """
    if targets.size == 0:
        return []
    order = np.argsort(targets, kind="stable")
    sorted_targets = targets[order]
    group_start = np.r_[0, np.flatnonzero(np.diff(sorted_targets)) + 1]
    starts = np.repeat(group_start, np.diff(np.r_[group_start, targets.size]))
    rank = np.empty(targets.size, np.int64)
    rank[order] = np.arange(targets.size) - starts
    return [np.flatnonzero(rank == k) for k in range(int(rank.max()) + 1)]
