"""How far a kernel's float sum may be from the exact sum, given the order it adds in.

A sum computed by a tree of additions, each rounded (fl(a + b) = (a + b)(1 + d),
|d| <= u, the accumulator's unit roundoff; a sum that lands in the subnormals
is exact), has at each node v the error e_v = e_a + e_b + d (s_v + e_a + e_b),
where s_v is the exact sum of the elements below v and e_a, e_b the errors of
its two operands. So |e_v| <= (1 + u)(|e_a| + |e_b|) + u |s_v|, and unrolled
from the leaves (e = 0) to the root:

    |computed - exact| <= u * (1 + u)^(depth - 1) * sum over nodes v of |s_v|

with `depth` the most additions any element goes through. The bound is
rigorous for every depth (no "n u < 1" condition) and follows the data: for
elements of one sign sum_v |s_v| = sum_i depth_i |x_i|, the classic
depth * u * sum |x_i|; where signs mix, partial sums cancel and so does the
bound. The nodes are those of the kernel's own tree (`AdditionTree`, from the
emitter's tiling), their exact sums computed here in float64.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from xla_emit.emitters.addition_order import SHUFFLE_LEVELS, AdditionTree
from xla_emit.hlo.shape import PrimitiveType

# float64's unit roundoff: the exact sums and node sums are float64 sums of n terms.
F64_UNIT_ROUNDOFF = 2.0**-53


def node_magnitudes(values: np.ndarray, init: float, tree: AdditionTree) -> np.ndarray:
    """Per row of `values` ([kept, n], float64, reduced positions in row-major order): the sum
    over the nodes of `tree` of |exact value of the node|."""
    kept, n = values.shape
    if n == 0:
        return np.zeros(kept)
    run = tree.run_length(n)
    # Positions past the end add nothing; as zeros they only repeat a node (a looser bound).
    padded = np.zeros((kept, run * tree.threads))
    padded[:, :n] = values
    # [kept, run, threads]: each thread's accumulator after each of its additions.
    accumulators = init + np.cumsum(padded.reshape(kept, run, tree.threads), axis=1)
    total = np.abs(accumulators).sum(axis=(1, 2))
    partials = accumulators[:, -1, :]
    for _ in range(tree.shuffle_rounds):
        partials, magnitude = _shuffle(partials, init)
        total += magnitude
    return total


def _shuffle(partials: np.ndarray, init: float) -> tuple[np.ndarray, np.ndarray]:
    """Each warp's partials ([kept, lanes], lanes padded with `init` to whole warps) added in a
    butterfly: ([kept, warps] results, the sum of |node| over the levels)."""
    kept, lanes = partials.shape
    warp = 1 << SHUFFLE_LEVELS
    warps = -(-lanes // warp)
    level = np.full((kept, warps * warp), init, dtype=np.float64)
    level[:, :lanes] = partials
    level = level.reshape(kept, warps, warp)
    magnitude = np.zeros(kept)
    for _ in range(SHUFFLE_LEVELS):
        # Lane l meets lane l + half: the nodes on the way to lane 0's result.
        half = level.shape[-1] // 2
        level = level[..., :half] + level[..., half:]
        magnitude += np.abs(level).sum(axis=(1, 2))
    return level[..., 0], magnitude


def tree_error_bound(
    values: np.ndarray, init: float, tree: AdditionTree, unit_roundoff: float
) -> np.ndarray:
    """Per row of `values`, how far the kernel's sum (accumulator roundoff `unit_roundoff`)
    may be from the exact one (see the module docstring)."""
    depth = tree.depth(values.shape[1])
    growth = float(np.exp((depth - 1) * np.log1p(unit_roundoff)))
    return unit_roundoff * growth * node_magnitudes(values, init, tree)


def unit_roundoff(ptype: PrimitiveType) -> float:
    return float(ml_dtypes.finfo(ptype.dtype).eps) / 2


def bound_on_the_output(
    kernel_bound: np.ndarray,
    exact: np.ndarray,
    magnitudes: np.ndarray,
    length: int,
    accumulator_u: float,
    output: PrimitiveType,
) -> np.ndarray:
    """How far a stored output may be from `exact` (a float64 sum of `length` terms whose
    magnitudes add up to `magnitudes`), given `kernel_bound`, the bound on the kernel's
    distance to the exact value before the output's rounding: the float64 sum's own error,
    and one more rounding where the output is narrower than the accumulator (relative to a
    value within the bound of the exact one, plus half the smallest subnormal, where
    rounding is absolute)."""
    bound = kernel_bound + 2 * length * F64_UNIT_ROUNDOFF * magnitudes
    output_u = unit_roundoff(output)
    if output_u > accumulator_u:
        subnormal = float(ml_dtypes.finfo(output.dtype).smallest_subnormal)
        bound = bound + output_u * (np.abs(exact) + bound) + subnormal / 2
    return bound
