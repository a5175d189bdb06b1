"""The dot's helpers against plain numpy and scalar oracles: lane layouts, TF32 rounding and
the in-order f32 sums of products."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from xla_emit.interpreter.tile.dot import (
    _einsum_sums_in_order,
    _sum_products_by_passes,
    contract,
    lanes_first,
    lanes_last,
    sum_products_in_order,
    to_tf32,
)


@pytest.mark.parametrize("lanes", [1, 64, 100, 128, 192, 2048])
@pytest.mark.parametrize("tile", [(16, 16), (1, 16, 8), (8,), ()])
def test_lanes_move_last_and_back_as_one_transpose_moves_them(
    lanes: int, tile: tuple[int, ...]
) -> None:
    values = np.random.default_rng(lanes).standard_normal((lanes, *tile)).astype(np.float32)
    for order in itertools.permutations(range(len(tile))):
        expected = np.ascontiguousarray(values.transpose(*(d + 1 for d in order), 0))
        moved = lanes_last(values, order)
        assert moved.shape == expected.shape and moved.flags.c_contiguous
        assert moved.tobytes() == expected.tobytes()
    back = lanes_first(np.ascontiguousarray(np.moveaxis(values, 0, -1)))
    assert back.shape == values.shape and back.tobytes() == values.tobytes()


def _tf32_oracle(bits: int) -> int:
    """One f32 (as its bits) rounded to a multiple of its TF32 quantum (2^-10 of its binade,
    the subnormals' that of the least normal binade), ties away from zero, in exact
    double arithmetic; infinities and NaNs as they are."""
    value = float(np.array(bits, dtype=np.uint32).view(np.float32))
    if not math.isfinite(value):
        return bits
    binade = math.frexp(abs(value))[1] - 1 if value else -126
    quantum = 2.0 ** (max(binade, -126) - 10)
    rounded = math.copysign(math.floor(abs(value) / quantum + 0.5) * quantum, value)
    with np.errstate(over="ignore"):
        return int(np.array(rounded, dtype=np.float32).view(np.uint32))


def test_tf32_rounding_matches_the_scalar_oracle_on_every_kind_of_value() -> None:
    special = [
        0x00000000,
        0x80000000,
        0x00000FFF,
        0x00001000,
        0x00001FFF,  # zeros, subnormals
        0x3F800FFF,
        0x3F801000,
        0x3F803000,  # below, at and past a tie
        0x7F7FEFFF,
        0x7F7FF000,
        0x7F7FFFFF,  # the largest finite values: the last to inf
        0x7F800000,
        0xFF800000,  # infinities
        0x7FC00000,
        0x7FFFF000,
        0x7FFFFFFF,
        0xFFFFF000,
        0x7F801000,  # NaNs near a carry
    ]
    rng = np.random.default_rng(0)
    bits = np.concatenate(
        [np.array(special, dtype=np.uint32), rng.integers(0, 1 << 32, 4096, dtype=np.uint32)]
    )
    rounded = to_tf32(bits.view(np.float32)).view(np.uint32)
    assert [int(b) for b in rounded] == [_tf32_oracle(int(b)) for b in bits]


def _sequential_oracle(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`total[g, m, n, l]` one f32 scalar at a time: zero, then each rounded product of
    `a[k, g, m, l]` and `b[k, g, n, l]` added in order of k."""
    k, groups, rows, lanes = a.shape
    columns = b.shape[2]
    total = np.zeros((groups, rows, columns, lanes), dtype=np.float32)
    with np.errstate(all="ignore"):
        for g, m, n, lane in itertools.product(
            range(groups), range(rows), range(columns), range(lanes)
        ):
            value = np.float32(0.0)
            for position in range(k):
                value = np.float32(
                    value + np.float32(a[position, g, m, lane] * b[position, g, n, lane])
                )
            total[g, m, n, lane] = value
    return total


@pytest.mark.parametrize(
    "shape", [(16, 1, 4, 3, 1), (9, 2, 3, 2, 67), (1, 1, 1, 1, 5), (64, 1, 1, 1, 1)]
)
def test_products_are_summed_in_order_as_f32_scalars_sum_them(
    shape: tuple[int, int, int, int, int],
) -> None:
    k, groups, rows, columns, lanes = shape
    rng = np.random.default_rng(lanes)
    # Full-precision values: their products round and their sums depend on the order.
    a = rng.standard_normal((k, groups, rows, lanes)).astype(np.float32)
    b = rng.standard_normal((k, groups, columns, lanes)).astype(np.float32)
    expected = _sequential_oracle(a, b)
    assert sum_products_in_order(a, b).tobytes() == expected.tobytes()
    assert _sum_products_by_passes(a, b).tobytes() == expected.tobytes()


def test_infinities_overflows_zeros_and_subnormals_sum_as_f32_scalars_do() -> None:
    a = np.array([3e38, -0.0, 1e-30, 2.0, -np.inf, 1e20], dtype=np.float32)
    b = np.array([10.0, 5.0, 1e-15, 0.0, 1.0, 1e20], dtype=np.float32)
    # Each lane a different order of them: overflow then infinity, zeros of both signs,
    # products that underflow.
    rng = np.random.default_rng(3)
    orders = np.stack([rng.permutation(len(a)) for _ in range(40)], axis=1)
    lhs, rhs = a[orders][:, None, None, :], b[orders][:, None, None, :]
    expected = _sequential_oracle(lhs, rhs)
    with np.errstate(all="ignore"):
        assert sum_products_in_order(lhs, rhs).tobytes() == expected.tobytes()


def test_totals_holding_a_nan_are_the_passes_bits(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(4)
    a = rng.standard_normal((8, 1, 3, 64)).astype(np.float32)
    b = rng.standard_normal((8, 1, 2, 64)).astype(np.float32)
    bits_a, bits_b = a.view(np.uint32), b.view(np.uint32)
    bits_a[2, 0, 1, ::3] = 0x7FC00001  # NaNs of two payloads meeting in one total
    bits_b[5, 0, 0, ::2] = 0xFFC00002
    calls: list[str] = []
    real_einsum = np.einsum
    monkeypatch.setattr(np, "einsum", lambda *args: calls.append("einsum") or real_einsum(*args))
    total = sum_products_in_order(a, b)
    assert calls == (["einsum"] if _einsum_sums_in_order() else []) and np.isnan(total).any()
    assert total.tobytes() == _sum_products_by_passes(a, b).tobytes()


def _fused_einsum(subscripts: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """An einsum that rounds once per multiply-add (in f64), as a fused loop would."""
    total = np.zeros((a.shape[1], a.shape[2], b.shape[2], a.shape[3]), dtype=np.float32)
    for k in range(a.shape[0]):
        product = a[k, :, :, None, :].astype(np.float64) * b[k, :, None, :, :]
        total = (total + product).astype(np.float32)
    return total


def _reversed_einsum(subscripts: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return _sum_products_by_passes(a[::-1], b[::-1])


@pytest.mark.parametrize("einsum", [_fused_einsum, _reversed_einsum])
def test_an_einsum_that_fuses_or_reorders_is_refused_for_the_passes(
    monkeypatch: pytest.MonkeyPatch, einsum: object
) -> None:
    _einsum_sums_in_order.cache_clear()
    monkeypatch.setattr(np, "einsum", einsum)
    try:
        assert not _einsum_sums_in_order()
        rng = np.random.default_rng(5)
        a = rng.standard_normal((9, 2, 3, 33)).astype(np.float32)
        b = rng.standard_normal((9, 2, 4, 33)).astype(np.float32)
        assert sum_products_in_order(a, b).tobytes() == _sequential_oracle(a, b).tobytes()
    finally:
        _einsum_sums_in_order.cache_clear()


def test_where_einsum_sums_in_order_the_sums_are_one_einsum_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if not _einsum_sums_in_order():
        pytest.skip("this numpy's einsum fuses or reorders its sums: every dot takes the passes")
    calls: list[str] = []
    real_einsum = np.einsum
    monkeypatch.setattr(np, "einsum", lambda *args: calls.append("einsum") or real_einsum(*args))
    rng = np.random.default_rng(6)
    a = rng.standard_normal((9, 2, 3, 33)).astype(np.float32)
    b = rng.standard_normal((9, 2, 4, 33)).astype(np.float32)
    assert sum_products_in_order(a, b).tobytes() == _sequential_oracle(a, b).tobytes()
    assert calls == ["einsum"]


@pytest.mark.parametrize(
    ("lhs_shape", "rhs_shape", "batch", "contracting"),
    [
        ((2, 3, 5), (5, 4), ((), ()), ((2,), (0,))),  # [M, M2, K] x [K, N]
        ((3, 5), (4, 3), ((), ()), ((0,), (1,))),  # [K, M] x [N, K]: both transposed
        ((2, 6, 3), (2, 3, 4), ((0,), (0,)), ((2,), (1,))),  # a batch dimension
        ((7,), (7, 2), ((), ()), ((0,), (0,))),  # no lhs free dimension
    ],
)
def test_contract_gives_each_pid_the_scalar_sums_of_its_tiles(
    lhs_shape: tuple[int, ...],
    rhs_shape: tuple[int, ...],
    batch: tuple[tuple[int, ...], tuple[int, ...]],
    contracting: tuple[tuple[int, ...], tuple[int, ...]],
) -> None:
    pids = 70
    rng = np.random.default_rng(len(lhs_shape))
    lhs = rng.standard_normal((pids, *lhs_shape)).astype(np.float32)
    rhs = rng.standard_normal((pids, *rhs_shape)).astype(np.float32)
    total = contract(lhs, rhs, batch, contracting, tf32=False)
    # The oracle: per pid, the tiles as [batch, M, K] and [batch, K, N], summed by scalars.
    (lhs_batch, rhs_batch), (lhs_k, rhs_k) = batch, contracting
    lhs_free = [d for d in range(len(lhs_shape)) if d not in (*lhs_batch, *lhs_k)]
    rhs_free = [d for d in range(len(rhs_shape)) if d not in (*rhs_batch, *rhs_k)]
    for pid in range(pids):
        left = lhs[pid].transpose(*lhs_k, *lhs_batch, *lhs_free)
        right = rhs[pid].transpose(*rhs_k, *rhs_batch, *rhs_free)
        k = left.shape[0]
        groups = math.prod(left.shape[1 : 1 + len(lhs_batch)])
        expected = _sequential_oracle(
            left.reshape(k, groups, -1, 1), right.reshape(k, groups, -1, 1)
        )
        assert total[pid].tobytes() == expected.tobytes()
