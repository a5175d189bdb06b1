"""Mosaic's scans, sorts and vreg shuffles in the TPU interpreter, against hand-worked values.

Expectations are worked by hand from `tpu_ops.td` and SparseCore Pallas's
primitives (`plsc.cumsum`, `plsc.scan_count`, `plsc.sort_key_val`), or by brute
force in plain Python, never with the interpreter's code.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from test_tpu_compute_ops import one, run_op

I32_MIN = -(2**31)


def scan(kind: str, type_: str, x: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    result = type_.replace("xi1>", "xi32>")
    operands, types, args = "%x", type_, [x]
    if mask is not None:
        mask_type = f"vector<{mask.shape[0]}xi1>"
        operands, types, args = "%x, %m", f"{type_}, {mask_type}", [x, mask]
    signature = ", ".join(f"%{n}: {t}" for n, t in zip("xm", types.split(", "), strict=False))
    return one(
        f"({signature}) -> {result}",
        f'%r = "tpu.scan"({operands}) <{{kind = #tpu.reduction_kind<{kind}>}}> : ({types}) -> '
        f"{result}\nreturn %r : {result}",
        *args,
    )


def test_scan_sum_is_a_running_sum_along_lanes() -> None:
    x = np.arange(32, dtype=np.int32).reshape(2, 16) - 7
    got = scan("sum", "vector<2x16xi32>", x)
    expected = [[sum(row[: j + 1]) for j in range(16)] for row in x.tolist()]
    assert got.tolist() == expected


def test_scan_of_a_mask_counts_set_lanes() -> None:
    mask = np.array([1, 0, 1, 1, 0, 0, 1, 0] * 2, bool)
    got = scan("sum", "vector<16xi1>", mask)
    assert got.dtype == np.int32
    assert got.tolist() == [1, 1, 2, 3, 3, 3, 4, 4, 5, 5, 6, 7, 7, 7, 8, 8]


def test_scan_max_of_integers_compares_unsigned() -> None:
    """-1 is 0xFFFFFFFF to the chip: Pallas flips sign bits around a signed cummax."""
    x = np.array([3, -1, 5, 2], np.int32)
    assert scan("max", "vector<4xi32>", x).tolist() == [3, -1, -1, -1]
    assert scan("min", "vector<4xi32>", x).tolist() == [3, 3, 3, 2]


def test_masked_scan_follows_the_documented_example() -> None:
    """tpu_ops.td: a sum over [1, 2, 3, 4] with mask [0, 1, 0, 1] is [X, 2, 2, 6]."""
    got = scan(
        "sum", "vector<4xi32>", np.array([1, 2, 3, 4], np.int32), np.array([0, 1, 0, 1], bool)
    )
    assert got.tolist()[1:] == [2, 2, 6]
    assert got[0] == I32_MIN  # unspecified


def test_masked_float_max_scan() -> None:
    x = np.array([9.0, -4.0, 7.5, -1.0, 8.0], np.float32)
    got = scan("max", "vector<5xf32>", x, np.array([0, 1, 1, 0, 1], bool))
    assert np.isnan(got[0])
    assert got.tolist()[1:] == [-4.0, 7.5, 7.5, 8.0]


def scan_count(values: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    n = values.shape[-1]
    out_mask, counts = run_op(
        f"(%m: vector<{n}xi1>, %v: vector<{n}xi32>) -> (vector<{n}xi1>, vector<{n}xi32>)",
        f"%o, %c = tpu.scan_count mask(%m : vector<{n}xi1>) value(%v : vector<{n}xi32>) : "
        f"vector<{n}xi1>, vector<{n}xi32>\nreturn %o, %c : vector<{n}xi1>, vector<{n}xi32>",
        mask,
        values,
    )
    return out_mask, counts


def test_scan_count_counts_duplicates_and_marks_last_occurrences() -> None:
    values = np.array([5, 3, 5, 5, 3, 7], np.int32)
    out_mask, counts = scan_count(values, np.ones(6, bool))
    assert counts.tolist() == [1, 1, 2, 3, 2, 1]
    assert out_mask.tolist() == [False, False, False, True, True, True]


def test_scan_count_brute_force_with_a_mask() -> None:
    rng = np.random.default_rng(2)
    values = rng.integers(0, 4, size=16).astype(np.int32)
    mask = rng.random(16) < 0.7
    out_mask, counts = scan_count(values, mask)
    v, m = values.tolist(), mask.tolist()
    for j in range(16):
        same = [i for i in range(16) if m[i] and v[i] == v[j]]
        assert counts[j] == (sum(1 for i in same if i <= j) if m[j] else 1)
        assert out_mask[j] == (m[j] and max(same) == j)


def sort(keys: np.ndarray, values: np.ndarray, descending: bool, mask: np.ndarray | None = None):
    n, k = keys.shape[0], "i32" if keys.dtype == np.int32 else "f32"
    masked = " masked %m" if mask is not None else ""
    mask_type = f", vector<{n}xi1>" if mask is not None else ""
    mask_arg = f", %m: vector<{n}xi1>" if mask is not None else ""
    flag = " {descending = true}" if descending else ""
    return run_op(
        f"(%k: vector<{n}x{k}>, %v: vector<{n}xi32>{mask_arg}) -> "
        f"(vector<{n}xi1>, vector<{n}x{k}>, vector<{n}xi32>)",
        f"%o, %sk, %sv = tpu.sort %k, %v{masked}{flag} : (vector<{n}x{k}>, vector<{n}xi32>"
        f"{mask_type}) -> (vector<{n}xi1>, vector<{n}x{k}>, vector<{n}xi32>)\n"
        f"return %o, %sk, %sv : vector<{n}xi1>, vector<{n}x{k}>, vector<{n}xi32>",
        keys,
        values,
        *([] if mask is None else [mask]),
    )


KEYS = np.array([3.0, 1.0, 2.0, 1.0], np.float32)
LANES = np.arange(4, dtype=np.int32)


@pytest.mark.parametrize(
    ("descending", "keys", "values"),
    [(False, [1, 1, 2, 3], [1, 3, 2, 0]), (True, [3, 2, 1, 1], [0, 2, 1, 3])],
)
def test_sort_is_stable_both_ways(descending: bool, keys: list[int], values: list[int]) -> None:
    out_mask, got_keys, got_values = sort(KEYS, LANES, descending)
    assert got_keys.tolist() == keys
    assert got_values.tolist() == values
    assert out_mask.all()


def test_sort_puts_masked_pairs_last() -> None:
    out_mask, keys, values = sort(KEYS, LANES, False, np.array([1, 1, 0, 1], bool))
    assert keys.tolist() == [1, 1, 3, 2]
    assert values.tolist() == [1, 3, 0, 2]
    assert out_mask.tolist() == [True, True, True, False]


def test_sort_compares_integer_keys_unsigned() -> None:
    _, keys, values = sort(np.array([-1, 2, 0], np.int32), np.arange(3, dtype=np.int32), False)
    assert keys.tolist() == [0, 2, -1]
    assert values.tolist() == [2, 1, 0]


def test_reshape_is_row_major_and_relayout_keeps_the_value() -> None:
    x = np.arange(8 * 128, dtype=np.float32).reshape(8, 128)
    flat, same = run_op(
        "(%x: vector<8x128xf32>) -> (vector<2x4x128xf32>, vector<8x128xf32>)",
        "%r = tpu.reshape %x : vector<8x128xf32> -> vector<2x4x128xf32>\n"
        '%s = "tpu.relayout"(%x) : (vector<8x128xf32>) -> vector<8x128xf32>\n'
        "return %r, %s : vector<2x4x128xf32>, vector<8x128xf32>",
        x,
    )
    assert flat[1, 2, 5] == x[6, 5]
    np.testing.assert_array_equal(same, x)


def test_sublane_shuffle_follows_the_documented_pattern() -> None:
    """tpu_ops.td: [7, 6, 5, 4, 11, 10, 9, 8] is a's high half then b's low half, reversed."""
    a = np.arange(8 * 128, dtype=np.float32).reshape(8, 128)
    b = -a
    got = one(
        "(%a: vector<8x128xf32>, %b: vector<8x128xf32>) -> vector<8x128xf32>",
        "%r = tpu.sublane_shuffle %a, %b, [7, 6, 5, 4, 11, 10, 9, 8] : vector<8x128xf32>, "
        "vector<8x128xf32> -> vector<8x128xf32>\nreturn %r : vector<8x128xf32>",
        a,
        b,
    )
    np.testing.assert_array_equal(got, np.vstack([a[[7, 6, 5, 4]], b[[3, 2, 1, 0]]]))


def test_bf16_scan_rounds_after_every_step() -> None:
    """1 + 2**-8 rounds back to 1 in bf16 at each step (an f32 sum would reach 1 + 2**-7)."""
    x = np.array([1.0, 2**-8, 2**-8, 0.0], ml_dtypes.bfloat16)
    got = scan("sum", "vector<4xbf16>", x)
    assert got.astype(np.float32).tolist() == [1.0, 1.0, 1.0, 1.0]
