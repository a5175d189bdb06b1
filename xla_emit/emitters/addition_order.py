"""The order in which a kernel adds up the elements of a sum, as the emitters build it.

`--check` bounds how far a kernel's float sum may be from the exact one by
the additions each element goes through; the numbers come from here, and
here they come from the emitters' own tiling (`ReductionTiling.addition_tree`),
so the bound follows the kernel when the tiling changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from xla_emit.dialects.xla_gpu import WARP_SIZE
from xla_emit.indexing.interval import ceil_div

# A warp shuffle is a butterfly over the lanes: offsets 16, 8, 4, 2, 1.
SHUFFLE_LEVELS = WARP_SIZE.bit_length() - 1


@dataclass(frozen=True)
class AdditionTree:
    """How a kernel adds up the `n` elements of one output element.

    Thread `t` of `threads` folds reduced positions t, t + threads, t + 2 * threads, ...
    (row-major over the reduced dims) in sequence into an accumulator that starts at
    the init value. The partial results then meet in `shuffle_rounds` warp shuffles,
    each SHUFFLE_LEVELS additions deep: the first adds 32 consecutive threads' partials,
    the second the (at most 32) warp results, padded with the init value.
    """

    threads: int
    shuffle_rounds: int

    def run_length(self, n: int) -> int:
        """The most elements one thread folds."""
        return ceil_div(n, self.threads)

    def depth(self, n: int) -> int:
        """The most additions on the way from any one element to the result."""
        return self.run_length(n) + self.shuffle_rounds * SHUFFLE_LEVELS


# The elemental emitter's `scf.for` nest: the init value, then every element in
# row-major order over the reduced dims, one addition after another.
IN_ORDER = AdditionTree(threads=1, shuffle_rounds=0)
