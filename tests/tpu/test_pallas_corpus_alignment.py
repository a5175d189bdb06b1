"""`tpu-verify-alignment` over the Pallas corpus: Mosaic's verdict, kernel by kernel.

The expected verdicts are worked by hand from each kernel's source in
tools/make_pallas_corpus.py and Mosaic's rules: the good kernels index with
constants, `pl.multiple_of`, loop counters times a tile multiple, or
BlockSpec windows; the `bad_*` kernels hold the classic mistakes.
"""

from __future__ import annotations

import io
from contextlib import redirect_stderr

import pytest
from pallas_corpus import KERNELS, base_name, parse_kernel
from xdsl.context import Context
from xla_emit.passes.diagnostics import OpError
from xla_emit.passes.tpu.tpu_verify_alignment import TpuVerifyAlignmentPass

from xla_emit.ir.parse import parse_mlir

PROVEN = [name for name in KERNELS if not base_name(name).startswith("bad_")]

# kernel -> (op, message, notes that must be among the verdict's notes)
REJECTED = {
    "bad_lane_offset": (
        "vector.load",
        "cannot statically prove that index in dimension 1 is a multiple of 128",
        [
            "the index is provably misaligned: it is always 1 past a multiple of 128 "
            "(index ≡ 1 mod 128)",
            "fix: tpu.assume_multiple would be a false promise here; load the enclosing aligned "
            "tiles and move the data into place with tpu.dynamic_rotate (pass "
            "tpu-realign-accesses does this), or pad/repack the data so accesses start at "
            "multiples of 128",
        ],
    ),
    "bad_f32_rows": (
        "vector.load",
        "cannot statically prove that index in dimension 0 is a multiple of 8",
        [
            "the alignment of the index is unknown, not disproven: %arg0 (an argument of "
            "'func.func') is not known at compile time; it is only known to be ≡ 0 (mod 4)",
            "following the grid (iteration_bounds [3]): at program ids (1,) the index is 4, "
            "4 past a multiple of 8",
            "memref<16x256xf32, #tpu.memory_space<vmem>> gets Mosaic's default tiling (8,128), "
            "so a dynamic index into dimension 0 must be a multiple of 8",
        ],
    ),
    "bad_bf16_rows": (
        "vector.load",
        "cannot statically prove that index in dimension 0 is a multiple of 16",
        [
            "the alignment of the index is unknown, not disproven; it is only known to be "
            "≡ 0 (mod 8)",
            "memref<32x256xbf16, #tpu.memory_space<vmem>> gets Mosaic's default tiling "
            "(16,128)(2,1), so a dynamic index into dimension 0 must be a multiple of 16",
        ],
    ),
}


def verdict(name: str, generation: int = 6) -> OpError | None:
    module = parse_kernel(name)
    try:
        TpuVerifyAlignmentPass(hardware_generation=generation).apply(Context(), module)
    except OpError as error:
        return error
    return None


REJECTED_KERNELS = [name for name in KERNELS if base_name(name) in REJECTED]


def test_every_kernel_has_an_expected_verdict() -> None:
    assert set(KERNELS) == set(PROVEN) | set(REJECTED_KERNELS)


@pytest.mark.parametrize("name", PROVEN)
def test_good_kernels_prove(name: str) -> None:
    assert verdict(name) is None


@pytest.mark.parametrize("name", REJECTED_KERNELS)
def test_classic_mistakes_get_mosaics_message(name: str) -> None:
    op_name, message, notes = REJECTED[base_name(name)]
    error = verdict(name)
    assert error is not None
    assert error.op.name == op_name
    assert error.message == message
    for note in notes:
        assert note in error.notes


def test_bf16_scratch_rows_of_eight_are_fine_before_v6() -> None:
    """Before v6 a bf16 scratch buffer gets 8-row tiles: the same kernel proves."""
    assert verdict("bad_bf16_rows", generation=5) is None


def test_a_grid_that_never_misaligns_is_named_as_such() -> None:
    """With one grid step, program_id * 4 is always 0: Mosaic still cannot prove it, and the
    grid note says the hint would be a true promise."""
    text = str(parse_kernel("bad_f32_rows")).replace(
        "iteration_bounds = array<i64: 3>", "iteration_bounds = array<i64: 1>"
    )
    changed, _ = parse_mlir(text, "changed.mlir")
    with pytest.raises(OpError) as caught:
        TpuVerifyAlignmentPass().apply(Context(), changed)
    assert caught.value.message.endswith("is a multiple of 8")
    assert (
        "following the grid (iteration_bounds [1]): the index is a multiple of 8 at every "
        "grid point (0), so tpu.assume_multiple would be a true promise"
    ) in caught.value.notes


def test_mosaic_report_for_the_lane_mistake() -> None:
    stderr = io.StringIO()
    with redirect_stderr(stderr), pytest.raises(OpError):
        TpuVerifyAlignmentPass(mosaic_report=True).apply(Context(), parse_kernel("bad_lane_offset"))
    lines = stderr.getvalue().splitlines()
    assert lines[0] == (
        "INTERNAL: Mosaic failed to compile TPU kernel: cannot statically prove that index in "
        "dimension 1 is a multiple of 128"
    )
    assert lines[4] == "The MLIR operation involved:"
    assert lines[5].startswith("  %") and '"vector.load"(%arg1, ' in lines[5]
