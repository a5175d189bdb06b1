"""Adding up a tile along one axis in the order Triton's reduce lowering does.

Triton distributes a tensor over the threads of a program with a blocked
layout: along each dimension a thread holds `size_per_thread` consecutive
elements, `threads_per_warp` lanes and `warps` warps hold consecutive runs of
those, and the pattern repeats until the dimension is covered. Its reduce
(`ReduceOpToLLVM`) then combines, per kept position,
1. within a thread: the thread's elements in register order (run after run,
   element after element), the first one starting the accumulator;
2. across the lanes of a warp: a butterfly of shuffles, lane l meeting lane
   l xor N for N = lanes/2, ..., 1, each lane combining its own value with
   the shuffled one;
3. across warps: the warps' partials go through shared memory and meet in the
   same butterfly.
Lanes and warps that would hold repeated data do not take part, so the
layout here covers at most the tile. For float sums this order decides the
rounding; for min and max it does not matter.

`blocked_layout` models the layout Triton gives a reduce's operand in XLA's
kernels, read off the TTGIR of XLA's dumps (jax 0.12, H100): a tile without
unit dimensions keeps the coalesced layout of its loads (the contiguous, last
dimension first, up to 16 bytes per thread, then lanes and warps from the last
dimension outwards: f32[64,256] over 8 warps is sizePerThread [1, 4],
threadsPerWarp [1, 32], warpsPerCTA [4, 2]); a tile with unit dimensions is
loaded squeezed and reshaped, and its reduce gets the default layout of one
element per thread (f32[1,512] over 2 warps: [1, 1], [1, 32], [1, 2]).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import prod

import numpy as np
import numpy.typing as npt

from xla_emit.emitters.addition_order import AdditionTree
from xla_emit.emitters.triton.tiling import tile_computation
from xla_emit.hlo.fusion_configs import block_level_config
from xla_emit.hlo.ir import HloInstruction

Array = npt.NDArray[np.generic]
Combine = Callable[[Array, Array], Array]

WARP_SIZE = 32
_BYTES_PER_ACCESS = 16


@dataclass(frozen=True)
class BlockedLayout:
    """How a tile's elements are spread over a program's threads (per dimension)."""

    size_per_thread: tuple[int, ...]
    threads_per_warp: tuple[int, ...]
    warps: tuple[int, ...]


def blocked_layout(shape: Sequence[int], num_warps: int, element_bytes: int) -> BlockedLayout:
    """The coalesced layout of a tile of `shape` (powers of two) over `num_warps` warps."""
    rank = len(shape)
    threads = WARP_SIZE * num_warps
    per_thread = [1] * rank
    if rank and 1 not in shape:
        vector = max(1, _BYTES_PER_ACCESS // element_bytes)
        per_thread[-1] = min(vector, shape[-1], max(1, prod(shape) // threads))
    remaining = [extent // size for extent, size in zip(shape, per_thread, strict=True)]
    lanes = _spread(remaining, WARP_SIZE)
    remaining = [r // t for r, t in zip(remaining, lanes, strict=True)]
    warps = _spread(remaining, num_warps)
    return BlockedLayout(tuple(per_thread), tuple(lanes), tuple(warps))


def _spread(extents: Sequence[int], count: int) -> list[int]:
    """`count` workers over the dimensions, innermost first, none beyond the data."""
    spread = [1] * len(extents)
    left = count
    for dim in reversed(range(len(extents))):
        take = min(left, extents[dim])
        spread[dim] = take
        left //= take
    return spread


def reduce_in_triton_order(
    values: Array, axis: int, combine: Combine, layout: BlockedLayout
) -> Array:
    """Combine `values` ([pids, *tile]) along tile axis `axis` (0-based, the pid axis not
    counted) in Triton's order under `layout`; the result drops that axis."""
    moved = np.moveaxis(values, axis + 1, -1)
    extent = moved.shape[-1]
    per_thread = layout.size_per_thread[axis]
    lanes = layout.threads_per_warp[axis]
    warps = layout.warps[axis]
    covered = per_thread * lanes * warps
    if extent % covered != 0:
        raise ValueError(f"a layout covering {covered} elements cannot hold {extent}")
    runs = extent // covered
    # element index = ((run * warps + warp) * lanes + lane) * per_thread + position
    split = moved.reshape(*moved.shape[:-1], runs, warps, lanes, per_thread)
    # [..., warps, lanes, runs * per_thread]: each thread's elements in register order
    registers = np.moveaxis(split, -4, -2).reshape(*moved.shape[:-1], warps, lanes, -1)
    accumulator = _fold_registers(registers, combine)
    accumulator = _butterfly(accumulator, combine)  # across lanes: [..., warps, lanes]
    partials = accumulator[..., 0]
    return _butterfly(partials, combine)[..., 0]  # across warps


def _fold_registers(registers: Array, combine: Combine) -> Array:
    """Each thread's registers (the last axis) combined in sequence, the first one starting
    the accumulator; a ufunc accumulates in place (the same values, no array per step)."""
    accumulator = registers[..., 0]
    if isinstance(combine, np.ufunc) and registers.shape[-1] > 1:
        accumulator = combine(accumulator, registers[..., 1])
        for register in range(2, registers.shape[-1]):
            combine(accumulator, registers[..., register], out=accumulator)
        return accumulator
    for register in range(1, registers.shape[-1]):
        accumulator = combine(accumulator, registers[..., register])
    return accumulator


def combine_count(extent: int, axis: int, layout: BlockedLayout) -> int:
    """How many times `reduce_in_triton_order` combines along `axis` of `extent` elements:
    each thread's registers in sequence, then a butterfly round per halving of the lanes and
    of the warps."""
    threads = layout.threads_per_warp[axis] * layout.warps[axis]
    rounds = (layout.threads_per_warp[axis].bit_length() - 1) + (
        layout.warps[axis].bit_length() - 1
    )
    return extent // threads - 1 + rounds


def _butterfly(values: Array, combine: Combine) -> Array:
    """Lane l combines its value with lane l xor N's, N = half the last axis down to 1."""
    count = values.shape[-1]
    partner = np.arange(count)
    step = count // 2
    while step > 0:
        values = combine(values, values[..., partner ^ step])
        step //= 2
    return values


def addition_tree(layout: BlockedLayout, axis: int) -> AdditionTree:
    """The tree `--check` bounds a sum along `axis` under `layout` by: each of the lanes x
    warps threads folds its elements in sequence, then one butterfly of shuffles across the
    lanes and (with several warps) one across the warps."""
    threads = layout.threads_per_warp[axis] * layout.warps[axis]
    return AdditionTree(threads=threads, shuffle_rounds=1 if layout.warps[axis] == 1 else 2)


def triton_addition_tree(fusion: HloInstruction, reduce: HloInstruction) -> AdditionTree | None:
    """How the tile kernel of `__triton` fusion `fusion` adds up its `reduce` (one reduced
    dimension; None for others)."""
    dims = reduce.dimensions or ()
    if len(dims) != 1:
        return None
    config = block_level_config(fusion)
    tiled = tile_computation(fusion.called_computations[0], config.output_tiles)
    operand = next(t.operands[0] for t in tiled.instructions if t.instruction is reduce)
    itemsize = operand.shape.element_type.dtype.itemsize
    layout = blocked_layout(operand.padded_sizes, config.num_warps, itemsize)
    return addition_tree(layout, dims[0])
