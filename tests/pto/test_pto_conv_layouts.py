"""ConvTile reorderings against element-by-element definitions."""

import itertools

import numpy as np

from xla_emit.pto.conv_layouts import (
    c0_for_bits,
    gnc1hwc0_to_fractal_z,
    gnc1hwc0_to_gnchw,
    gnchw_to_gnc1hwc0,
    nc1hwc0_to_fractal_z,
    nc1hwc0_to_nchw,
    ncdhw_to_fractal_z_3d,
    nchw_to_nc1hwc0,
)

RNG = np.random.default_rng(7)


def _ints(*shape: int) -> np.ndarray:
    return RNG.integers(1, 100, size=shape).astype(np.float32)


def test_nchw_to_nc1hwc0_pads_channels_with_zeros() -> None:
    n, c, h, w, c0 = 2, 11, 3, 2, 4
    x = _ints(n, c, h, w)
    y = nchw_to_nc1hwc0(x, c0)
    assert y.shape == (n, 3, h, w, c0)
    for ni, c1, hi, wi, k in itertools.product(range(n), range(3), range(h), range(w), range(c0)):
        channel = c1 * c0 + k
        expected = x[ni, channel, hi, wi] if channel < c else 0
        assert y[ni, c1, hi, wi, k] == expected


def test_nc1hwc0_to_nchw_inverts_the_blocking() -> None:
    x = _ints(2, 8, 3, 5)
    assert np.array_equal(nc1hwc0_to_nchw(nchw_to_nc1hwc0(x, 4)), x)
    y = _ints(1, 2, 2, 2, 4)
    z = nc1hwc0_to_nchw(y)
    for c, hi, wi in itertools.product(range(8), range(2), range(2)):
        assert z[0, c, hi, wi] == y[0, c // 4, hi, wi, c % 4]


def test_grouped_conversions_work_group_by_group() -> None:
    x = _ints(3, 2, 5, 2, 2)
    y = gnchw_to_gnc1hwc0(x, 4)
    for g in range(3):
        assert np.array_equal(y[g], nchw_to_nc1hwc0(x[g], 4))
    z = gnc1hwc0_to_gnchw(y)
    assert np.array_equal(z[:, :, :5], x)
    assert not z[:, :, 5:].any()


def test_nc1hwc0_to_fractal_z_blocks_the_batch_by_16() -> None:
    n, c1, h, w, c0 = 20, 2, 2, 1, 4
    y = _ints(n, c1, h, w, c0)
    f = nc1hwc0_to_fractal_z(y)
    assert f.shape == (c1, h, w, 2, 16, c0)
    for a, hi, wi, n1, n0, k in itertools.product(
        range(c1), range(h), range(w), range(2), range(16), range(c0)
    ):
        batch = n1 * 16 + n0
        expected = y[batch, a, hi, wi, k] if batch < n else 0
        assert f[a, hi, wi, n1, n0, k] == expected


def test_gnc1hwc0_to_fractal_z_keeps_groups_outermost() -> None:
    y = _ints(2, 3, 1, 2, 2, 4)
    f = gnc1hwc0_to_fractal_z(y)
    assert f.shape == (2, 1, 2, 2, 1, 16, 4)
    assert np.array_equal(f[1], nc1hwc0_to_fractal_z(y[1]))


def test_ncdhw_to_fractal_z_3d() -> None:
    n, c, d, h, w, c0 = 3, 5, 2, 2, 1, 4
    x = _ints(n, c, d, h, w)
    f = ncdhw_to_fractal_z_3d(x, c0)
    assert f.shape == (d, 2, h, w, 1, 16, c0)
    for di, c1, hi, wi, n0, k in itertools.product(
        range(d), range(2), range(h), range(w), range(16), range(c0)
    ):
        channel = c1 * c0 + k
        expected = x[n0, channel, di, hi, wi] if n0 < n and channel < c else 0
        assert f[di, c1, hi, wi, 0, n0, k] == expected


def test_c0_is_one_32_byte_block() -> None:
    assert [c0_for_bits(b) for b in (4, 8, 16, 32)] == [64, 32, 16, 8]
