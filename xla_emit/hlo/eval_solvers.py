"""Reference semantics of the dense solvers XLA:GPU calls: cuBLAS trsm and jax's cuSOLVER calls.

Each works on the last two dimensions (the leading ones are a batch), in
float64, textbook algorithms written out row by row, and rounds once to the
result type. The runtime's kernel library computes the same calls another
way (blocked, vectorized over the batch, in the element type), so `--check`
compares two implementations.

- triangular solve: XLA's TriangularSolveOptions (left_side, lower,
  unit_diagonal, transpose_a); only the named triangle of `a` is read.
- potrf: A = L L^T (lower) or U^T U; the other triangle keeps the input;
  info = 0, or the order of the first leading minor that is not positive.
- getrf: partial pivoting as LAPACK (the first largest |value|), 1-based
  pivot rows, info = 0 or the 1-based column of the first zero pivot.
- geqrf: Householder reflectors as LAPACK's dlarfg stores them: R on and
  above the diagonal, each v below it (v's leading 1 implied), and tau.
- orgqr: the first n columns of Q = H1 H2 ... Hk from geqrf's result.
- syevd: eigenvalues ascending and eigenvectors by the cyclic Jacobi method;
  a vector's sign is fixed by making its largest-magnitude entry positive
  (any sign is a valid answer, cuSOLVER's included).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from xla_emit.hlo.eval_linalg import round_to
from xla_emit.hlo.ir import HloInstruction
from xla_emit.hlo.library_calls import check_pivots, lower_triangle, triangular_solve_config
from xla_emit.hlo.shape import ArrayShape


def _matrices(x: np.ndarray) -> np.ndarray:
    return x.astype(np.float64).reshape(-1, *x.shape[-2:])


def _vectors(x: np.ndarray) -> np.ndarray:
    return x.astype(np.float64).reshape(-1, x.shape[-1])


def triangular_solve(
    instruction: HloInstruction, operands: Sequence[np.ndarray], leaves: Sequence[ArrayShape]
) -> list[np.ndarray]:
    config = triangular_solve_config(instruction)
    a_all, b_all = _matrices(operands[0]), _matrices(operands[1])
    out = np.empty_like(b_all)
    for i, (a, b) in enumerate(zip(a_all, b_all, strict=True)):
        t = np.tril(a) if config.lower else np.triu(a)
        if config.unit_diagonal:
            np.fill_diagonal(t, 1.0)
        lower = config.lower
        if config.transpose_a != "NO_TRANSPOSE":
            t, lower = t.T, not lower
        if config.left_side:  # t x = b
            out[i] = _substitute(t, b, lower)
        else:  # x t = b  <=>  t^T x^T = b^T
            out[i] = _substitute(t.T, b.T, not lower).T
    return [round_to(out.reshape(leaves[0].dimensions), leaves[0].element_type)]


def _substitute(t: np.ndarray, b: np.ndarray, lower: bool) -> np.ndarray:
    """x with t x = b, t triangular: forward (lower) or backward substitution, row by row."""
    n = t.shape[0]
    x = np.zeros_like(b)
    rows = range(n) if lower else range(n - 1, -1, -1)
    for r in rows:
        done = slice(0, r) if lower else slice(r + 1, n)
        x[r] = (b[r] - t[r, done] @ x[done]) / t[r, r]
    return x


def potrf(
    instruction: HloInstruction, operands: Sequence[np.ndarray], leaves: Sequence[ArrayShape]
) -> list[np.ndarray]:
    lower = lower_triangle(instruction)
    a_all = _matrices(operands[0])
    out, info = a_all.copy(), np.zeros(len(a_all), np.int64)
    for i, a in enumerate(a_all):
        factor, info[i] = _cholesky_rows(a if lower else a.T)
        part = np.tril(np.ones_like(a, dtype=bool))
        if lower:
            out[i][part] = factor[part]
        else:
            out[i][part.T] = factor.T[part.T]
    matrix, status = leaves
    return [round_to(out.reshape(matrix.dimensions), matrix.element_type),
            info.reshape(status.dimensions).astype(np.int32)]  # fmt: skip


def _cholesky_rows(a: np.ndarray) -> tuple[np.ndarray, int]:
    """Cholesky-Banachiewicz (row by row) from the lower triangle; stops at a bad pivot."""
    n = a.shape[0]
    factor = np.zeros_like(a)
    for r in range(n):
        for c in range(r + 1):
            s = a[r, c] - factor[r, :c] @ factor[c, :c]
            if r == c:
                if not s > 0:  # also NaN
                    return factor, r + 1
                factor[r, r] = np.sqrt(s)
            else:
                factor[r, c] = s / factor[c, c]
    return factor, 0


def getrf(
    _instruction: HloInstruction, operands: Sequence[np.ndarray], leaves: Sequence[ArrayShape]
) -> list[np.ndarray]:
    a_all = _matrices(operands[0])
    m, n = a_all.shape[1:]
    k = min(m, n)
    pivots = np.zeros((len(a_all), k), np.int64)
    info = np.zeros(len(a_all), np.int64)
    for b, a in enumerate(a_all):
        for j in range(k):
            p = j + int(np.argmax(np.abs(a[j:, j])))
            pivots[b, j] = p + 1
            a[[j, p]] = a[[p, j]]
            if a[j, j] == 0:
                info[b] = info[b] or j + 1
                continue
            for r in range(j + 1, m):
                a[r, j] /= a[j, j]
                a[r, j + 1 :] -= a[r, j] * a[j, j + 1 :]
    lu, piv, status = leaves
    return [round_to(a_all.reshape(lu.dimensions), lu.element_type),
            pivots.reshape(piv.dimensions).astype(np.int32),
            info.reshape(status.dimensions).astype(np.int32)]  # fmt: skip


def geqrf(
    _instruction: HloInstruction, operands: Sequence[np.ndarray], leaves: Sequence[ArrayShape]
) -> list[np.ndarray]:
    a_all = _matrices(operands[0])
    m, n = a_all.shape[1:]
    taus = np.zeros((len(a_all), min(m, n)))
    for b, a in enumerate(a_all):
        for j in range(min(m, n)):
            alpha, below = a[j, j], a[j + 1 :, j]
            norm = float(np.sqrt(below @ below))
            if norm == 0:
                continue  # H = I, tau = 0
            beta = -np.copysign(np.hypot(alpha, norm), alpha)
            taus[b, j] = (beta - alpha) / beta
            v = np.concatenate([[1.0], below / (alpha - beta)])
            a[j + 1 :, j] = v[1:]
            a[j, j] = beta
            for c in range(j + 1, n):  # H a[:, c], H = I - tau v v^T
                a[j:, c] -= taus[b, j] * v * (v @ a[j:, c])
    r, tau = leaves
    return [round_to(a_all.reshape(r.dimensions), r.element_type),
            round_to(taus.reshape(tau.dimensions), tau.element_type)]  # fmt: skip


def orgqr(
    _instruction: HloInstruction, operands: Sequence[np.ndarray], leaves: Sequence[ArrayShape]
) -> list[np.ndarray]:
    a_all, tau_all = _matrices(operands[0]), _vectors(operands[1])
    m, n = a_all.shape[1:]
    q_all = np.zeros_like(a_all)
    for b, (a, taus) in enumerate(zip(a_all, tau_all, strict=True)):
        q = np.eye(m, n)
        for j in range(len(taus) - 1, -1, -1):  # Q e = H1 (H2 (... (Hk e)))
            v = np.concatenate([[1.0], a[j + 1 :, j]])
            for c in range(n):
                q[j:, c] -= taus[j] * v * (v @ q[j:, c])
        q_all[b] = q
    return [round_to(q_all.reshape(leaves[0].dimensions), leaves[0].element_type)]


def syevd(
    instruction: HloInstruction, operands: Sequence[np.ndarray], leaves: Sequence[ArrayShape]
) -> list[np.ndarray]:
    lower = lower_triangle(instruction)
    a_all = _matrices(operands[0])
    vectors, values = np.zeros_like(a_all), np.zeros(a_all.shape[:2])
    for b, a in enumerate(a_all):
        half = np.tril(a, -1) if lower else np.triu(a, 1)
        symmetric = half + half.T + np.diag(np.diag(a))
        w, v = _jacobi(symmetric)
        order = np.argsort(w, kind="stable")
        values[b], vectors[b] = w[order], _fix_signs(v[:, order])
    v_shape, w_shape, status = leaves
    return [round_to(vectors.reshape(v_shape.dimensions), v_shape.element_type),
            round_to(values.reshape(w_shape.dimensions), w_shape.element_type),
            np.zeros(status.dimensions, np.int32)]  # fmt: skip


def _jacobi(a: np.ndarray, sweeps: int = 60) -> tuple[np.ndarray, np.ndarray]:
    """Cyclic Jacobi rotations until the off-diagonal part vanishes: (eigenvalues, vectors)."""
    a = a.copy()
    n = a.shape[0]
    v = np.eye(n)  # the product of the rotations J so far
    for _ in range(sweeps):
        off = np.sqrt(np.sum(np.tril(a, -1) ** 2))
        if off <= 1e-300 or off <= 1e-17 * np.sqrt(np.sum(a * a)):
            break
        for p in range(n - 1):
            for q in range(p + 1, n):
                if a[p, q] == 0:
                    continue
                with np.errstate(over="ignore"):  # a huge theta is a rotation by ~0
                    theta = (a[q, q] - a[p, p]) / (2 * a[p, q])
                    t = np.copysign(1.0, theta) / (abs(theta) + np.hypot(theta, 1.0))
                c = 1 / np.hypot(t, 1.0)
                s = t * c
                # a = J^T a J and v = v J for the rotation J of the (p, q) plane.
                for m in (a, v):
                    column_p, column_q = m[:, p].copy(), m[:, q].copy()
                    m[:, p] = c * column_p - s * column_q
                    m[:, q] = s * column_p + c * column_q
                row_p, row_q = a[p].copy(), a[q].copy()
                a[p] = c * row_p - s * row_q
                a[q] = s * row_p + c * row_q
    return np.diag(a).copy(), v


def _fix_signs(v: np.ndarray) -> np.ndarray:
    """Each column times the sign of its largest-magnitude entry (the first such entry)."""
    lead = v[np.argmax(np.abs(v), axis=0), np.arange(v.shape[1])]
    return v * np.where(lead < 0, -1.0, 1.0)


def pivots_to_permutation(
    _instruction: HloInstruction, operands: Sequence[np.ndarray], leaves: Sequence[ArrayShape]
) -> list[np.ndarray]:
    """The row order LU's swaps make: swap i with pivots[i], for i = 0, 1, ..."""
    pivots = operands[0].reshape(-1, operands[0].shape[-1])
    size = leaves[0].dimensions[-1]
    check_pivots(_instruction, pivots, size)
    orders = []
    for row in pivots:
        order = list(range(size))
        for i, p in enumerate(row):
            order[i], order[p] = order[p], order[i]
        orders.append(order)
    return [np.array(orders, np.int32).reshape(leaves[0].dimensions)]
