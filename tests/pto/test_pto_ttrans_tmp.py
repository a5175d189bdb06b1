"""TTRANS scratch sizes: every formula of the spec pinned with hand-worked numbers."""

import pytest

from xla_emit.pto.ttrans_tmp import (
    Conversion,
    elements_per_block,
    row_stride,
    tmp_bytes,
    tmp_elements_fractal_z_3d,
    tmp_tile_shape,
    uses_fast_path,
)


def test_row_stride_is_32_for_8_bit_and_16_otherwise() -> None:
    assert [row_stride(b) for b in (1, 2, 4)] == [32, 16, 16]


def test_elements_per_32_byte_block() -> None:
    assert [elements_per_block(b) for b in (1, 2, 4)] == [32, 16, 8]


@pytest.mark.parametrize(
    ("src_stride", "dst_stride", "element_bytes", "fast"),
    [
        (16, 16, 4, True),  # 16 % 8 == 0, 16 % 16 == 0
        (12, 16, 4, False),  # 12 f32 are not whole 32-byte blocks
        (16, 8, 4, False),  # dst stride 8 is not a multiple of RowStride 16
        (32, 32, 1, True),
        (32, 16, 1, False),  # 8-bit RowStride is 32
        (8, 16, 2, False),  # 8 f16 = 16 bytes
        (255 * 8, 16, 4, True),  # 255 blocks: the largest stride the fast path takes
        (256 * 8, 16, 4, False),
    ],
)
def test_fast_path_conditions(
    src_stride: int, dst_stride: int, element_bytes: int, fast: bool
) -> None:
    assert uses_fast_path(src_stride, dst_stride, element_bytes) is fast


@pytest.mark.parametrize(
    ("h", "w", "element_bytes", "expected_bytes"),
    [
        (16, 16, 4, 16 * 16 * 4),  # the seed's 16x16 float: 1024 bytes
        (20, 16, 2, 16 * 32 * 2),  # ceil(20/16)*16 = 32 -> 1024 bytes
        (40, 32, 1, 32 * 64 * 1),  # ceil(40/32)*32 = 64 -> 2048 bytes
        (1, 8, 4, 8 * 16 * 4),  # one row still pads to 16: 512 bytes
        (17, 3, 4, 3 * 32 * 4),  # 384 bytes
    ],
)
def test_2d_transpose(h: int, w: int, element_bytes: int, expected_bytes: int) -> None:
    assert tmp_bytes(Conversion.TRANSPOSE_2D, (h, w), 0, element_bytes) == expected_bytes


def test_2d_tile_shape_is_w_rows_of_padded_h() -> None:
    assert tmp_tile_shape(Conversion.TRANSPOSE_2D, (20, 16), 0, 2) == (16, 32)


def test_nchw_to_nc1hwc0() -> None:
    # H*W = 2*4 = 8, C0 = 8 (f32): 8 * ceil(8/16)*16 * 4 = 512 bytes.
    assert tmp_bytes(Conversion.NCHW_TO_NC1HWC0, (1, 8, 2, 4), 8, 4) == 512
    # f16, C0 = 16: 3*5 * 16 * 2 = 480 bytes.
    assert tmp_bytes(Conversion.NCHW_TO_NC1HWC0, (2, 20, 3, 5), 16, 2) == 480
    # int8, C0 = 32: 4 * 32 * 1 = 128 bytes.
    assert tmp_bytes(Conversion.NCHW_TO_NC1HWC0, (1, 32, 2, 2), 32, 1) == 128


def test_nc1hwc0_to_nchw() -> None:
    # C0 = 8, H*W = 15 pads to 16: 8 * 16 * 4 = 512 bytes.
    assert tmp_bytes(Conversion.NC1HWC0_TO_NCHW, (1, 2, 3, 5, 8), 8, 4) == 512
    # C0 = 16, H*W = 40 pads to 48: 16 * 48 * 2 = 1536 bytes.
    assert tmp_bytes(Conversion.NC1HWC0_TO_NCHW, (1, 1, 5, 8, 16), 16, 2) == 1536


def test_grouped_formats_use_the_per_group_formulas() -> None:
    assert tmp_bytes(Conversion.GNCHW_TO_GNC1HWC0, (3, 2, 20, 3, 5), 16, 2) == 480
    assert tmp_bytes(Conversion.GNC1HWC0_TO_GNCHW, (3, 1, 1, 5, 8, 16), 16, 2) == 1536


def test_fractal_z_needs_no_scratch() -> None:
    assert tmp_tile_shape(Conversion.NC1HWC0_TO_FRACTAL_Z, (16, 1, 2, 2, 16), 16, 2) is None
    assert tmp_bytes(Conversion.GNC1HWC0_TO_FRACTAL_Z, (2, 16, 1, 2, 2, 16), 16, 2) == 0


def test_fractal_z_3d_takes_the_max_of_both_phases() -> None:
    # N=2, C=16 (C1=1), H=W=2, C0=16, f16: plane 2*1*16*4 = 128;
    # transpose scratch 4 * 16 = 64; 128 + max(128, 64) = 256 elements.
    assert tmp_elements_fractal_z_3d(2, 16, 2, 2, 16, 2) == 256
    # N=1, C=3 (C1=1), H=W=4, C0=8, f32: plane 1*1*8*16 = 128;
    # scratch 16 * ceil(8/16)*16 = 256 wins: 128 + 256 = 384 elements = 1536 bytes.
    assert tmp_bytes(Conversion.NCDHW_TO_FRACTAL_Z_3D, (1, 3, 5, 4, 4), 8, 4) == 1536


def test_rank_mismatch_is_reported() -> None:
    with pytest.raises(
        ValueError, match="nchw_to_nc1hwc0 expects a rank-4 source shape, but got \\[2, 3\\]"
    ):
        tmp_tile_shape(Conversion.NCHW_TO_NC1HWC0, (2, 3), 8, 4)
