"""The dense solvers in the runtime's kernel library: cuBLAS trsm and jax's cuSOLVER calls.

Matrices are the last two dimensions, the leading ones a batch; the work is
in the element type (f32 or f64) as the libraries do it. Cholesky and LU are
right-looking and vectorized over the batch (one rank-1 update of every
matrix per column), QR and the symmetric eigensolver are LAPACK's (through
numpy), the triangular solve a general solve of the masked triangle. The
reference evaluator computes each with its own row-by-row float64 algorithm
(`hlo.eval_solvers`), so `--check` compares two implementations. What each
call returns (pivots 1-based, Householder vectors below R, eigenvector signs)
is described in `hlo.eval_solvers`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from xla_emit.hlo.ir import HloInstruction
from xla_emit.hlo.library_calls import check_pivots, lower_triangle, triangular_solve_config
from xla_emit.hlo.shape import ArrayShape


def _batched(x: np.ndarray) -> np.ndarray:
    return np.array(x).reshape(-1, *x.shape[-2:])


def triangular_solve(
    instruction: HloInstruction, operands: Sequence[np.ndarray], leaves: Sequence[ArrayShape]
) -> list[np.ndarray]:
    config = triangular_solve_config(instruction)
    a, b = _batched(operands[0]), _batched(operands[1])
    t = np.tril(a) if config.lower else np.triu(a)
    if config.unit_diagonal:
        n = t.shape[-1]
        t[:, np.arange(n), np.arange(n)] = 1
    if config.transpose_a != "NO_TRANSPOSE":
        t = np.swapaxes(t, -1, -2)
    if config.left_side:
        x = np.linalg.solve(t, b)
    else:  # x t = b: x = (t^T \\ b^T)^T
        x = np.swapaxes(np.linalg.solve(np.swapaxes(t, -1, -2), np.swapaxes(b, -1, -2)), -1, -2)
    return [x.reshape(leaves[0].dimensions).astype(leaves[0].element_type.dtype)]


def potrf(
    instruction: HloInstruction, operands: Sequence[np.ndarray], leaves: Sequence[ArrayShape]
) -> list[np.ndarray]:
    lower = lower_triangle(instruction)
    a = _batched(operands[0])
    work = a if lower else np.swapaxes(a, -1, -2)
    work = np.tril(work).copy()
    n = work.shape[-1]
    info = np.zeros(len(work), np.int32)
    for j in range(n):
        pivot = work[:, j, j]
        bad = ~(pivot > 0) & (info == 0)
        info[bad] = j + 1
        live = info == 0
        root = np.sqrt(np.where(live, pivot, 1))
        work[live, j:, j] /= root[live, None]
        column = work[live, j + 1 :, j]
        # Right-looking: the trailing lower triangle loses this column's outer product.
        work[live, j + 1 :, j + 1 :] -= np.tril(column[:, :, None] * column[:, None, :])
    factor = work if lower else np.swapaxes(work, -1, -2)
    mask = np.tril(np.ones((n, n), bool))
    if not lower:
        mask = mask.T
    out = np.where(mask, factor, a)
    matrix, status = leaves
    return [out.reshape(matrix.dimensions), info.reshape(status.dimensions)]


def getrf(
    _instruction: HloInstruction, operands: Sequence[np.ndarray], leaves: Sequence[ArrayShape]
) -> list[np.ndarray]:
    a = _batched(operands[0]).copy()
    batch, m, n = a.shape
    k = min(m, n)
    every = np.arange(batch)
    pivots = np.zeros((batch, k), np.int32)
    info = np.zeros(batch, np.int32)
    for j in range(k):
        p = j + np.argmax(np.abs(a[:, j:, j]), axis=1)
        pivots[:, j] = p + 1
        rows_j, rows_p = a[every, j].copy(), a[every, p].copy()
        a[every, j], a[every, p] = rows_p, rows_j
        pivot = a[:, j, j]
        singular = pivot == 0
        info[singular & (info == 0)] = j + 1
        scale = np.where(singular, 0, 1 / np.where(singular, 1, pivot))
        a[:, j + 1 :, j] *= scale[:, None]
        a[:, j + 1 :, j + 1 :] -= a[:, j + 1 :, j, None] * a[:, j, None, j + 1 :]
    lu, piv, status = leaves
    return [
        a.reshape(lu.dimensions),
        pivots.reshape(piv.dimensions),
        info.reshape(status.dimensions),
    ]


def geqrf(
    _instruction: HloInstruction, operands: Sequence[np.ndarray], leaves: Sequence[ArrayShape]
) -> list[np.ndarray]:
    a = _batched(operands[0])
    packed, taus = [], []
    for matrix in a:
        h, tau = np.linalg.qr(matrix, mode="raw")  # LAPACK's geqrf, h transposed
        packed.append(h.T)
        taus.append(tau)
    r, tau_shape = leaves
    dtype = r.element_type.dtype
    return [np.array(packed).reshape(r.dimensions).astype(dtype),
            np.array(taus).reshape(tau_shape.dimensions).astype(dtype)]  # fmt: skip


def orgqr(
    _instruction: HloInstruction, operands: Sequence[np.ndarray], leaves: Sequence[ArrayShape]
) -> list[np.ndarray]:
    a = _batched(operands[0])
    taus = np.array(operands[1]).reshape(len(a), -1)
    m, n = a.shape[1:]
    qs = []
    for matrix, tau in zip(a, taus, strict=True):
        q = np.eye(m, dtype=a.dtype)
        for j, t in enumerate(tau):  # Q = H1 H2 ... Hk, each H = I - tau v v^T as a matrix
            v = np.concatenate([np.zeros(j, a.dtype), [1], matrix[j + 1 :, j]]).astype(a.dtype)
            q = q @ (np.eye(m, dtype=a.dtype) - t * np.outer(v, v))
        qs.append(q[:, :n])
    return [np.array(qs).reshape(leaves[0].dimensions).astype(leaves[0].element_type.dtype)]


def syevd(
    instruction: HloInstruction, operands: Sequence[np.ndarray], leaves: Sequence[ArrayShape]
) -> list[np.ndarray]:
    a = _batched(operands[0])
    w, v = np.linalg.eigh(a, UPLO="L" if lower_triangle(instruction) else "U")
    lead = np.take_along_axis(v, np.argmax(np.abs(v), axis=1)[:, None, :], axis=1)
    v = v * np.where(lead < 0, -1, 1).astype(v.dtype)
    v_shape, w_shape, status = leaves
    return [v.reshape(v_shape.dimensions).astype(v_shape.element_type.dtype),
            w.reshape(w_shape.dimensions).astype(w_shape.element_type.dtype),
            np.zeros(status.dimensions, np.int32)]  # fmt: skip


def pivots_to_permutation(
    _instruction: HloInstruction, operands: Sequence[np.ndarray], leaves: Sequence[ArrayShape]
) -> list[np.ndarray]:
    pivots = np.asarray(operands[0]).reshape(-1, operands[0].shape[-1])
    batch = np.arange(len(pivots))
    check_pivots(_instruction, pivots, leaves[0].dimensions[-1])
    order = np.tile(np.arange(leaves[0].dimensions[-1], dtype=np.int32), (len(pivots), 1))
    for i in range(pivots.shape[1]):  # every batch's i-th swap at once
        here, there = order[:, i].copy(), order[batch, pivots[:, i]].copy()
        order[:, i], order[batch, pivots[:, i]] = there, here
    return [order.reshape(leaves[0].dimensions)]
