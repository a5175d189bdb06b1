"""Launch grids and unroll factors, computed the way XLA:GPU computes them.

A fusion's kernel runs on a grid of `blocks x threads_per_block` threads
(x dimension only: XLA splits into y only past 2^31 - 1 blocks). The loop
emitter lets every thread handle `unroll_factor` consecutive elements of the
linearized output, so the grid covers `ceil(elements / unroll)` work items.
"""

from __future__ import annotations

from dataclasses import dataclass

from xla_emit.indexing.interval import ceil_div


@dataclass(frozen=True)
class DeviceInfo:
    """The device facts launch dimensions depend on (defaults: the H100 SXM that XLA's
    deviceless compiles and the corpus target, 132 cores)."""

    threads_per_warp: int = 32
    threads_per_core_limit: int = 2048
    core_count: int = 132
    block_dim_limit_x: int = 2**31 - 1

    @property
    def max_resident_threads(self) -> int:
        return self.threads_per_core_limit * self.core_count


DEFAULT_DEVICE = DeviceInfo()

# XLA schedules warps in groups of four, so a block holds 4 warps (128 threads).
WARP_SCHEDULING_GRANULARITY = 4
MAX_UNROLL_FACTOR = 4


@dataclass(frozen=True)
class LaunchDimensions:
    """A kernel's grid along x: threads per block and blocks."""

    threads_x: int = 1
    blocks_x: int = 1

    @property
    def num_threads_per_block(self) -> int:
        return self.threads_x

    @property
    def num_blocks(self) -> int:
        return self.blocks_x


def max_unroll_factor_dividing(num_elements: int) -> int:
    """The largest power of two up to 4 that divides the element count."""
    factor = MAX_UNROLL_FACTOR
    while factor > 1:
        if num_elements % factor == 0:
            return factor
        factor //= 2
    return 1


def loop_unroll_factor(
    num_elements: int,
    smallest_output_bits: int,
    may_prevent_vectorization: bool = False,
    device: DeviceInfo = DEFAULT_DEVICE,
) -> int:
    """XLA's `ComputeLoopFusionConfig` unroll factor.

    Unrolling only pays when there are more elements than the device can keep
    resident threads; sub-byte outputs force enough elements per thread that no
    two threads write the same byte.
    """
    unroll = 1
    if num_elements >= device.max_resident_threads and not may_prevent_vectorization:
        unroll = max_unroll_factor_dividing(num_elements)
    if smallest_output_bits < 8:
        unroll = max(unroll, ceil_div(8, smallest_output_bits))
    return unroll


def launch_dimensions(
    num_elements: int, unroll_factor: int, device: DeviceInfo = DEFAULT_DEVICE
) -> LaunchDimensions:
    """XLA's `CalculateLaunchDimensions` for a loop over `num_elements` elements."""
    if num_elements <= 1:
        return LaunchDimensions()
    work_items = ceil_div(num_elements, unroll_factor)
    max_threads_per_block = WARP_SCHEDULING_GRANULARITY * device.threads_per_warp
    threads = min(work_items, max_threads_per_block)
    # Past the x limit XLA adds y blocks; a capped grid whose threads loop over
    # chunks of the output (see `default_work_item_map`) covers the same elements.
    blocks = min(ceil_div(work_items, threads), device.block_dim_limit_x)
    return LaunchDimensions(threads_x=threads, blocks_x=blocks)


def storage_bits(bit_width: int) -> int:
    """The bits XLA counts for an element type: `pred` is stored as a byte."""
    return 8 if bit_width == 1 else bit_width
