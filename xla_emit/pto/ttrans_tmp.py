"""The temporary tile TTRANS needs, by the sizing rules of the TTRANS spec.

The vector unit transposes 16 (32 for 8-bit types) rows at a time through a
scratch tile whose rows are padded to that `row_stride`. It does so only when
the source and destination strides line up with 32-byte blocks (the fast
path); otherwise TTRANS copies element by element and needs no scratch.

Sizes are in bytes; `tmp_tile_shape` gives the scratch as a rows x cols tile
of the transposed element type, so the size is rows * cols * element bytes.
"""

from __future__ import annotations

from enum import Enum

from xla_emit.pto.targets import BLOCK_BYTES, align_up

# Largest source stride, in 32-byte blocks, the fast path's repeat field holds.
_MAX_SRC_STRIDE_BLOCKS = 255


class Conversion(Enum):
    """What a TTRANS computes: a 2-D transpose or a ConvTile format change."""

    TRANSPOSE_2D = "2d"
    NCHW_TO_NC1HWC0 = "nchw_to_nc1hwc0"
    NC1HWC0_TO_NCHW = "nc1hwc0_to_nchw"
    GNCHW_TO_GNC1HWC0 = "gnchw_to_gnc1hwc0"
    GNC1HWC0_TO_GNCHW = "gnc1hwc0_to_gnchw"
    NC1HWC0_TO_FRACTAL_Z = "nc1hwc0_to_fractal_z"
    GNC1HWC0_TO_FRACTAL_Z = "gnc1hwc0_to_fractal_z"
    NCDHW_TO_FRACTAL_Z_3D = "ncdhw_to_fractal_z_3d"


# Rank of the logical source shape each conversion reads.
SOURCE_RANK: dict[Conversion, int] = {
    Conversion.TRANSPOSE_2D: 2,
    Conversion.NCHW_TO_NC1HWC0: 4,
    Conversion.NC1HWC0_TO_NCHW: 5,
    Conversion.GNCHW_TO_GNC1HWC0: 5,
    Conversion.GNC1HWC0_TO_GNCHW: 6,
    Conversion.NC1HWC0_TO_FRACTAL_Z: 5,
    Conversion.GNC1HWC0_TO_FRACTAL_Z: 6,
    Conversion.NCDHW_TO_FRACTAL_Z_3D: 5,
}


def row_stride(element_bytes: int) -> int:
    """Rows the transpose processes at once: 32 for 8-bit types, 16 otherwise."""
    return 32 if element_bytes == 1 else 16


def elements_per_block(element_bytes: int) -> int:
    return BLOCK_BYTES // element_bytes


def uses_fast_path(src_stride: int, dst_stride: int, element_bytes: int) -> bool:
    """Whether TTRANS goes through the scratch tile (strides in elements)."""
    per_block = elements_per_block(element_bytes)
    return (
        dst_stride % row_stride(element_bytes) == 0
        and src_stride % per_block == 0
        and src_stride // per_block <= _MAX_SRC_STRIDE_BLOCKS
    )


def _padded(count: int, element_bytes: int) -> int:
    return align_up(count, row_stride(element_bytes))


def tmp_shape_2d(valid_rows: int, valid_cols: int, element_bytes: int) -> tuple[int, int]:
    """[H, W] -> [W, H]: W rows of H elements padded to the row stride."""
    return valid_cols, _padded(valid_rows, element_bytes)


def tmp_shape_to_c0_blocked(h: int, w: int, c0: int, element_bytes: int) -> tuple[int, int]:
    """NCHW -> NC1HWC0 (per group for GNCHW): transposes C0 rows by H*W columns."""
    return h * w, _padded(c0, element_bytes)


def tmp_shape_from_c0_blocked(h: int, w: int, c0: int, element_bytes: int) -> tuple[int, int]:
    """NC1HWC0 -> NCHW (per group for GNC1HWC0): transposes H*W rows by C0 columns."""
    return c0, _padded(h * w, element_bytes)


def tmp_elements_fractal_z_3d(n: int, c: int, h: int, w: int, c0: int, element_bytes: int) -> int:
    """NCDHW -> FRACTAL_Z_3D: one NC1C0HW plane, plus a second buffer that is
    either another plane or the transpose scratch (chosen at run time)."""
    plane = n * (-(-c // c0)) * c0 * h * w
    transpose_scratch = h * w * _padded(c0, element_bytes)
    return plane + max(plane, transpose_scratch)


def tmp_tile_shape(
    conversion: Conversion, source_shape: tuple[int, ...], c0: int, element_bytes: int
) -> tuple[int, int] | None:
    """The scratch tile (rows, cols) in elements, or None when none is needed.

    `source_shape` is the logical source: (H, W) for a 2-D transpose (its
    valid rows and columns), (N, C, H, W) for NCHW, (N, C1, H, W, C0) for
    NC1HWC0, with a leading G for the grouped formats and (N, C, D, H, W) for
    NCDHW. `c0` is the channel block of the blocked side (ignored for 2-D).
    """
    if len(source_shape) != SOURCE_RANK[conversion]:
        raise ValueError(
            f"{conversion.value} expects a rank-{SOURCE_RANK[conversion]} source shape, "
            f"but got {list(source_shape)}"
        )
    match conversion:
        case Conversion.TRANSPOSE_2D:
            return tmp_shape_2d(source_shape[0], source_shape[1], element_bytes)
        case Conversion.NCHW_TO_NC1HWC0 | Conversion.GNCHW_TO_GNC1HWC0:
            h, w = source_shape[-2:]
            return tmp_shape_to_c0_blocked(h, w, c0, element_bytes)
        case Conversion.NC1HWC0_TO_NCHW | Conversion.GNC1HWC0_TO_GNCHW:
            h, w = source_shape[-3:-1]
            return tmp_shape_from_c0_blocked(h, w, c0, element_bytes)
        case Conversion.NC1HWC0_TO_FRACTAL_Z | Conversion.GNC1HWC0_TO_FRACTAL_Z:
            return None
        case Conversion.NCDHW_TO_FRACTAL_Z_3D:
            n, c, _, h, w = source_shape
            return 1, tmp_elements_fractal_z_3d(n, c, h, w, c0, element_bytes)


def tmp_bytes(
    conversion: Conversion, source_shape: tuple[int, ...], c0: int, element_bytes: int
) -> int:
    """The scratch size in bytes (0 when the conversion needs none)."""
    shape = tmp_tile_shape(conversion, source_shape, c0, element_bytes)
    return 0 if shape is None else shape[0] * shape[1] * element_bytes
