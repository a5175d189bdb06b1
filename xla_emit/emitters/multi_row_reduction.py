"""The multi-row reduction emitter: rows no longer than a warp's vectors, several a warp.

A row of `R` elements (a power of two) gets `R / V` threads, each reading one
vector of `V` consecutive elements (and every major reduced component, `s0`);
a block holds as many rows as fit 256 threads, and a shuffle over the row's
threads (`xla_gpu.shuffle_reduce ... to R / V / 2`) finishes it, written by
the row's first thread. No loop strides along the row and no shared memory is
needed. As XLA's MultiRowReductionFusion, which XLA prefers for every row
reduction it can tile so (`multi_row_vector_size`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import SSAValue

from xla_emit.dialects.xla_gpu import WARP_SIZE
from xla_emit.emitters.addition_order import AdditionTree
from xla_emit.emitters.hero import ReductionGroups
from xla_emit.emitters.launch import DEFAULT_DEVICE, DeviceInfo
from xla_emit.emitters.reduction_parts import GridValues, PartialResults, ReductionTiling
from xla_emit.emitters.row_reduction import RowReductionTiling, rows_per_block
from xla_emit.indexing.affine import AffineExpr, SymbolExpr
from xla_emit.indexing.indexing_map import Variable
from xla_emit.indexing.interval import Interval, ceil_div

# A thread reads at most 64 bits of the narrowest type a step, and at most 16 bytes when
# some input or output is 32 bits wide or more.
MAX_VECTOR_BITS = 64
MAX_WIDE_VECTOR_BITS = 128


def multi_row_vector_size(
    groups: ReductionGroups,
    smallest_input_bits: int | None,
    smallest_output_bits: int,
    device: DeviceInfo = DEFAULT_DEVICE,
) -> int | None:
    """The vector size of XLA's multi-row tiling of a row reduction, or None where it does
    not apply (XLA's `MultiRowReductionFusion::TryCreate`): rows of a power-of-two length
    that fit one warp's vectors. The vector counts both inputs and outputs, halved while
    the grid would leave cores idle."""
    if not groups.is_row:
        return None
    reduced = groups.components[2]
    if reduced & (reduced - 1):
        return None
    # No inputs: the outputs alone decide.
    inputs = smallest_output_bits if smallest_input_bits is None else smallest_input_bits
    narrowest = min(inputs, smallest_output_bits)
    widest = max(inputs, smallest_output_bits)
    size = min(reduced, MAX_VECTOR_BITS // narrowest)
    if widest >= 32:
        size = min(MAX_WIDE_VECTOR_BITS // widest, size)
    if reduced > WARP_SIZE * size:
        return None
    while size > 1 and _blocks(groups, size) < device.core_count:
        size //= 2
    if reduced > WARP_SIZE * size:
        return None
    return size


def _threads_per_row(groups: ReductionGroups, vector_size: int) -> int:
    return groups.components[2] // vector_size


def _blocks(groups: ReductionGroups, vector_size: int) -> int:
    kept = groups.components[1]
    return ceil_div(kept, rows_per_block(kept, _threads_per_row(groups, vector_size)))


@dataclass(frozen=True)
class MultiRowReductionTiling(RowReductionTiling):
    """`[major, kept, reduced]` components: `reduced / vector_size` threads per kept element,
    each reading one vector of it (the row tiling's kept side, its own reduced side)."""

    @property
    def threads_per_row(self) -> int:
        return _threads_per_row(self.groups, self.vector_size)

    @property
    def loop_stride(self) -> int:
        # A thread's reads are the consecutive elements of its vector.
        return 1

    @property
    def lane_in_reduced(self) -> AffineExpr:
        return self.lane_in_row * self.vector_size

    @property
    def reduced_positions(self) -> int:
        return self.reduced

    @property
    def shuffle_rounds(self) -> int:
        return 1

    @property
    def shuffle_distance(self) -> int:
        # Half the row's threads (0, no shuffle: a thread per row).
        return self.threads_per_row // 2

    @property
    def addition_tree(self) -> AdditionTree:
        return AdditionTree(self.threads_per_row, self.shuffle_rounds)

    @property
    def components_shape(self) -> tuple[int, ...]:
        # XLA's input_shape_: the vector is no component of its own.
        return (self.major, self.kept, self.reduced)

    def component_index(self) -> tuple[AffineExpr, ...]:
        return (SymbolExpr(0), self.kept_index(), self.lane_in_reduced + SymbolExpr(1))

    @property
    def iteration_symbol(self) -> int:
        return 1

    @property
    def loop_symbols(self) -> tuple[Variable, ...]:
        """s0 over the major reduced component, s1 along the vector."""
        return (Variable(Interval(0, self.major - 1), "s0"), self.vector_symbol(1))


def combine_multi_row(
    grid: GridValues, tiling: ReductionTiling, partials: PartialResults
) -> list[SSAValue]:
    """One shuffle over each row's threads; the row's first thread writes."""
    assert isinstance(tiling, MultiRowReductionTiling)
    results = partials.shuffle(grid.builder, partials.values, tiling.shuffle_distance)
    return partials.write(grid.emitter, (), results, partials.outputs)
