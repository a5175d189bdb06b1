"""The TPU interpreter runs every Pallas corpus kernel over its grid and matches Pallas.

The reference is Pallas's own `interpret=True` run on the same inputs
(tests/corpus/pallas/*.outputs.npz), computed by jax, which shares no code
with this project. Kernels on small-integer data must match bit for bit;
attention and layernorm use exp, rsqrt and float sums whose rounding jax's
CPU backend and numpy order differently, so they match to a few ulps.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from pallas_corpus import KERNELS, arrays, base_name, parse_kernel

from xla_emit.diagnostics import UserError
from xla_emit.interpreter.tpu_grid import pallas_kernel, run_pallas_kernel

TRANSCENDENTAL = {"attention", "layernorm"}


def run(name: str) -> tuple[list[np.ndarray], list[np.ndarray]]:
    inputs, expected = arrays(name, "inputs"), arrays(name, "outputs")
    got = run_pallas_kernel(parse_kernel(name), inputs, [e.shape for e in expected])
    return got, expected


@pytest.mark.parametrize("name", KERNELS)
def test_kernel_matches_pallas_interpret_mode(name: str) -> None:
    got, expected = run(name)
    assert len(got) == len(expected)
    for result, reference in zip(got, expected, strict=True):
        if result.dtype == ml_dtypes.bfloat16:
            result = result.view(np.uint16)  # the corpus keeps bf16 as bit patterns
        assert result.shape == reference.shape
        if base_name(name) in TRANSCENDENTAL:
            np.testing.assert_allclose(result, reference, rtol=2e-6, atol=2e-6)
        else:
            np.testing.assert_array_equal(result, reference)


def test_the_grid_is_read_from_the_kernel() -> None:
    kernel = pallas_kernel(parse_kernel("matmul"))
    assert kernel.grid == (2, 2, 2)
    assert (kernel.prefetch, kernel.scratch) == (0, 1)
    assert [w.transform for w in kernel.windows if w] == [
        "transform_0",
        "transform_1",
        "transform_2",
    ]
    assert [w.bounds for w in kernel.windows if w] == [(8, 128), (128, 128), (8, 128)]
    gather = pallas_kernel(parse_kernel("scalar_prefetch_gather"))
    assert (gather.grid, gather.prefetch) == ((4,), 1)
    dma = pallas_kernel(parse_kernel("dma_rows"))
    assert dma.windows[0] is None  # memory_space=pl.ANY: the kernel gets the whole array


def test_the_scratch_accumulator_lives_across_the_grid() -> None:
    """matmul accumulates over k in scratch: a fresh buffer per step would give x[:, k-block]
    @ y[k-block, :] for the last k only."""
    got, expected = run("matmul")
    x, y = arrays("matmul", "inputs")
    assert np.array_equal(got[0], x @ y)
    assert np.array_equal(expected[0], x @ y)


def test_prefetched_indices_pick_the_blocks() -> None:
    got, _ = run("scalar_prefetch_gather")
    order, x = arrays("scalar_prefetch_gather", "inputs")
    for step, block in enumerate(order):
        assert np.array_equal(got[0][8 * step : 8 * step + 8], x[8 * block : 8 * block + 8] + block)


def test_wrong_number_of_outputs_is_a_clear_error() -> None:
    inputs = arrays("matmul", "inputs")
    with pytest.raises(UserError) as caught:
        run_pallas_kernel(parse_kernel("matmul"), inputs, [(16, 256), (16, 256)])
    assert str(caught.value) == (
        "error: @matmul_kernel: takes 0 prefetch arrays, 3 inputs and outputs, but got 2 "
        "operands and 2 outputs"
    )


def test_a_block_outside_the_array_is_a_clear_error() -> None:
    x, y = arrays("matmul", "inputs")
    with pytest.raises(UserError) as caught:
        run_pallas_kernel(parse_kernel("matmul"), [x[:8], y], [(16, 256)])
    assert str(caught.value) == (
        "error: @transform_0 at program ids (1, 0, 0) selects block [1, 0]: indices 8..15 of "
        "dimension 0 are outside the array of shape [8, 256]"
    )


def test_partial_edge_blocks_read_padding_and_drop_writes() -> None:
    """edge_rows: (20, 256) in (8, 128) blocks on a (3, 2) grid. The last row of blocks
    covers rows 16..23: rows 20..23 are read as padding and never written back."""
    got, expected = run("edge_rows")
    (x,) = arrays("edge_rows", "inputs")
    assert got[0].shape == (20, 256)
    np.testing.assert_array_equal(got[0], x * 2 + 1)
    np.testing.assert_array_equal(expected[0], x * 2 + 1)


def test_partial_edge_blocks_on_lanes_with_a_squeezed_dim() -> None:
    """squeezed_lane_edge: (3, 16, 200) in (None, 8, 128) blocks; lanes 200..255 of the
    last column of blocks lie past the end."""
    got, _ = run("squeezed_lane_edge")
    (x,) = arrays("squeezed_lane_edge", "inputs")
    np.testing.assert_array_equal(got[0], x * 2 + np.arange(3, dtype=np.float32)[:, None, None])
