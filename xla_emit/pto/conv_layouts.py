"""ConvTile format conversions as numpy reorderings.

Channel (and, for FRACTAL_Z, batch) dimensions are padded with zeros up to a
multiple of their block (C0, N0) before being split, as the hardware does.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from xla_emit.pto.ttrans_tmp import Conversion

FRACTAL_N0 = 16


def c0_for_bits(bits: int) -> int:
    """FRACTAL_Z_3D's channel block: one 32-byte block of elements (64 for 4-bit)."""
    return 256 // bits


def _pad_axis(x: NDArray[np.generic], axis: int, block: int) -> NDArray[np.generic]:
    padding = -x.shape[axis] % block
    if padding == 0:
        return x
    widths = [(0, 0)] * x.ndim
    widths[axis] = (0, padding)
    return np.pad(x, widths)


def nchw_to_nc1hwc0(x: NDArray[np.generic], c0: int) -> NDArray[np.generic]:
    """[N, C, H, W] -> [N, C1, H, W, C0]."""
    n, _, h, w = x.shape
    padded = _pad_axis(x, 1, c0)
    return padded.reshape(n, -1, c0, h, w).transpose(0, 1, 3, 4, 2).copy()


def nc1hwc0_to_nchw(y: NDArray[np.generic]) -> NDArray[np.generic]:
    """[N, C1, H, W, C0] -> [N, C1*C0, H, W]."""
    n, c1, h, w, c0 = y.shape
    return y.transpose(0, 1, 4, 2, 3).reshape(n, c1 * c0, h, w).copy()


def gnchw_to_gnc1hwc0(x: NDArray[np.generic], c0: int) -> NDArray[np.generic]:
    """[G, N, C, H, W] -> [G, N, C1, H, W, C0]: NCHW -> NC1HWC0 per group."""
    return np.stack([nchw_to_nc1hwc0(group, c0) for group in x])


def gnc1hwc0_to_gnchw(y: NDArray[np.generic]) -> NDArray[np.generic]:
    """[G, N, C1, H, W, C0] -> [G, N, C1*C0, H, W]."""
    return np.stack([nc1hwc0_to_nchw(group) for group in y])


def nc1hwc0_to_fractal_z(y: NDArray[np.generic]) -> NDArray[np.generic]:
    """[N, C1, H, W, C0] -> [C1, H, W, N1, N0, C0] with N0 = 16."""
    padded = _pad_axis(y, 0, FRACTAL_N0)
    _, c1, h, w, c0 = padded.shape
    return padded.reshape(-1, FRACTAL_N0, c1, h, w, c0).transpose(2, 3, 4, 0, 1, 5).copy()


def gnc1hwc0_to_fractal_z(y: NDArray[np.generic]) -> NDArray[np.generic]:
    """[G, N, C1, H, W, C0] -> [G, C1, H, W, N1, N0, C0]."""
    return np.stack([nc1hwc0_to_fractal_z(group) for group in y])


def ncdhw_to_fractal_z_3d(x: NDArray[np.generic], c0: int) -> NDArray[np.generic]:
    """[N, C, D, H, W] -> [D, C1, H, W, N1, N0, C0]."""
    padded = _pad_axis(_pad_axis(x, 0, FRACTAL_N0), 1, c0)
    _, _, d, h, w = padded.shape
    blocked = padded.reshape(-1, FRACTAL_N0, padded.shape[1] // c0, c0, d, h, w)
    return blocked.transpose(4, 2, 5, 6, 0, 1, 3).copy()


def convert(conversion: Conversion, source: NDArray[np.generic], c0: int) -> NDArray[np.generic]:
    """Apply a ConvTile conversion to a source already shaped as its format."""
    match conversion:
        case Conversion.TRANSPOSE_2D:
            return source.T.copy()
        case Conversion.NCHW_TO_NC1HWC0:
            return nchw_to_nc1hwc0(source, c0)
        case Conversion.NC1HWC0_TO_NCHW:
            return nc1hwc0_to_nchw(source)
        case Conversion.GNCHW_TO_GNC1HWC0:
            return gnchw_to_gnc1hwc0(source, c0)
        case Conversion.GNC1HWC0_TO_GNCHW:
            return gnc1hwc0_to_gnchw(source)
        case Conversion.NC1HWC0_TO_FRACTAL_Z:
            return nc1hwc0_to_fractal_z(source)
        case Conversion.GNC1HWC0_TO_FRACTAL_Z:
            return gnc1hwc0_to_fractal_z(source)
        case Conversion.NCDHW_TO_FRACTAL_Z_3D:
            return ncdhw_to_fractal_z_3d(source, c0)
