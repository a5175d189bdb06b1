"""How far a Triton gemm's f32 dot may be from the exact dot: TF32 inputs, f32 sums in order.

At XLA:GPU's default precision an f32 `tt.dot` on an H100 rounds both inputs to TF32
(11 significant bits, to nearest: a relative change of at most u_t = 2^-11), multiplies
them exactly (11 x 11 bits fit in f32's 24) and adds the products in f32 (u = 2^-24): in
order within each K tile, starting from zero, then each tile's sum into the accumulator
(`interpreter.tile.dot`). With P = sum_k |a_k b_k| (exact, in float64):

- the inputs: |fl(a) fl(b) - a b| <= ((1 + u_t)^2 - 1) |a b|, so the rounded products'
  exact sum is within (2 u_t + u_t^2) P of the exact dot;
- the sums: every product goes through at most d = k_tile + tiles additions (the rest of
  its tile, then the accumulator's), and the nodes' partial sums are each at most the
  sum of the rounded products' magnitudes, at most (1 + u_t)^2 P: by the rounding bound
  of `sum_bounds` (u (1 + u)^(d - 1) times the sum over nodes of |partial sum|, a
  product counted in at most d nodes), within u (1 + u)^(d - 1) d (1 + u_t)^2 P.

The sum of the two is rigorous for every K; it is about 2^-10 P for short dots (the
inputs' share dominates: TF32 keeps 10 mantissa bits), independent of cancellation in
the dot only through P.
"""

from __future__ import annotations

import numpy as np

TF32_UNIT_ROUNDOFF = 2.0**-11
F32_UNIT_ROUNDOFF = 2.0**-24


def tf32_dot_depth(length: int, k_tile: int) -> int:
    """The most f32 additions a product goes through: within its K tile, then each tile's
    sum into the accumulator."""
    tiles = -(-length // k_tile) if length else 0
    return min(k_tile, length) + tiles


def tf32_dot_bound(magnitudes: np.ndarray, depth: int) -> np.ndarray:
    """Per output element, how far the kernel's f32 dot may be from the exact dot, given
    `magnitudes` (P = sum_k |a_k b_k|) and the addition `depth` (module docstring)."""
    inputs = (1 + TF32_UNIT_ROUNDOFF) ** 2 - 1
    growth = float(np.exp(max(depth - 1, 0) * np.log1p(F32_UNIT_ROUNDOFF)))
    sums = F32_UNIT_ROUNDOFF * growth * depth * (1 + TF32_UNIT_ROUNDOFF) ** 2
    return (inputs + sums) * magnitudes
