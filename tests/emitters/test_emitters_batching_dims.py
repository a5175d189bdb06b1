"""Gather and scatter with batching dims through the compiled path: jax's `vmap` modules
against XLA:CPU's results (tests/corpus/batching, made by tools/make_batching_corpus.py),
and batching dims in non-leading, crossed positions against numpy brute force."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from xla_emit.api import run_hlo, run_reference

CORPUS = Path(__file__).parent.parent / "corpus" / "batching"
DATA = np.load(CORPUS / "vmap_gather_scatter.npz")


@pytest.mark.parametrize("run", [run_hlo, run_reference])
def test_vmap_gather_matches_xla(run: object) -> None:
    text = (CORPUS / "vmap_gather.hlo").read_text()
    (result,) = run(text, [DATA["x"], DATA["i"]])  # type: ignore[operator]
    np.testing.assert_array_equal(result, DATA["g"])


@pytest.mark.parametrize("run", [run_hlo, run_reference])
def test_vmap_scatter_add_matches_xla(run: object) -> None:
    text = (CORPUS / "vmap_scatter_add.hlo").read_text()
    (result,) = run(text, [DATA["x"], DATA["i"], DATA["u"]])  # type: ignore[operator]
    np.testing.assert_array_equal(result, DATA["s"])


# Operand [B0, N, B1, M]; indices [B1, K, B0, 2] (the vector last); the batching dims
# crossed: operand dim 0 pairs with index dim 2, operand dim 2 with index dim 0.
B0, N, B1, M, K, W = 2, 4, 3, 5, 3, 2
DIMS = "operand_batching_dims={0,2}, start_indices_batching_dims={2,0}"
SCATTER_DIMS = "input_batching_dims={0,2}, scatter_indices_batching_dims={2,0}"


def fused(params: list[str], root: str, result: str, computations: str = "") -> str:
    fused_params = "\n".join(f"  x{n} = {p} parameter({n})" for n, p in enumerate(params))
    entry_params = "\n".join(f"  p{n} = {p} parameter({n})" for n, p in enumerate(params))
    operands = ", ".join(f"p{n}" for n in range(len(params)))
    return (
        f"HloModule m\n{computations}\nfused {{\n{fused_params}\n  ROOT r = {result} {root}\n}}\n\n"
        f"ENTRY main {{\n{entry_params}\n"
        f"  ROOT f = {result} fusion({operands}), kind=kLoop, calls=fused\n}}\n"
    )


def inputs(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    operand = rng.integers(-50, 50, (B0, N, B1, M)).astype(np.int32)
    indices = np.stack(
        [rng.integers(-1, N + 1, (B1, K, B0)), rng.integers(-1, M, (B1, K, B0))], axis=-1
    ).astype(np.int32)
    updates = rng.integers(-50, 50, (B1, K, B0, W)).astype(np.int32)
    return operand, indices, updates


def gather_by_brute_force(operand: np.ndarray, indices: np.ndarray) -> np.ndarray:
    out = np.zeros((B1, K, B0, W), np.int32)
    for b1, k, b0, w in itertools.product(range(B1), range(K), range(B0), range(W)):
        row = min(max(int(indices[b1, k, b0, 0]), 0), N - 1)
        col = min(max(int(indices[b1, k, b0, 1]), 0), M - W)
        out[b1, k, b0, w] = operand[b0, row, b1, col + w]
    return out


def scatter_add_by_brute_force(
    operand: np.ndarray, indices: np.ndarray, updates: np.ndarray
) -> np.ndarray:
    out = operand.copy()
    for b1, k, b0 in itertools.product(range(B1), range(K), range(B0)):
        row, col = (int(v) for v in indices[b1, k, b0])
        if 0 <= row <= N - 1 and 0 <= col <= M - W:
            out[b0, row, b1, col : col + W] += updates[b1, k, b0]
    return out


@pytest.mark.parametrize("seed", [0, 1])
def test_gather_with_crossed_batching_dims(seed: int) -> None:
    operand, indices, _ = inputs(seed)
    root = (
        "gather(x0, x1), offset_dims={3}, collapsed_slice_dims={1}, start_index_map={1,3}, "
        f"{DIMS}, index_vector_dim=3, slice_sizes={{1,1,1,{W}}}"
    )
    text = fused(
        [f"s32[{B0},{N},{B1},{M}]", f"s32[{B1},{K},{B0},2]"], root, f"s32[{B1},{K},{B0},{W}]"
    )
    expected = gather_by_brute_force(operand, indices)
    for run in (run_hlo, run_reference):
        (result,) = run(text, [operand, indices])
        np.testing.assert_array_equal(result, expected)


ADD = "\nadd {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n  ROOT s = s32[] add(a, b)\n}\n"


@pytest.mark.parametrize("seed", [0, 1])
def test_scatter_add_with_crossed_batching_dims(seed: int) -> None:
    operand, indices, updates = inputs(seed)
    # Colliding updates: every (b1, b0) row scatters K windows, some to the same place.
    indices[:, 1] = indices[:, 0]
    root = (
        "scatter(x0, x1, x2), update_window_dims={3}, inserted_window_dims={1}, "
        f"scatter_dims_to_operand_dims={{1,3}}, {SCATTER_DIMS}, index_vector_dim=3, "
        "to_apply=add"
    )
    params = [f"s32[{B0},{N},{B1},{M}]", f"s32[{B1},{K},{B0},2]", f"s32[{B1},{K},{B0},{W}]"]
    text = fused(params, root, params[0], ADD)
    expected = scatter_add_by_brute_force(operand, indices, updates)
    for run in (run_hlo, run_reference):
        (result,) = run(text, [operand, indices, updates])
        np.testing.assert_array_equal(result, expected)


KEEP_LARGER = """
keep_larger {
  a = s32[] parameter(0)
  i = f32[] parameter(1)
  b = s32[] parameter(2)
  j = f32[] parameter(3)
  keep = pred[] compare(a, b), direction=GE
  v = s32[] select(keep, a, b)
  w = f32[] select(keep, i, j)
  ROOT t = (s32[], f32[]) tuple(v, w)
}
"""


def variadic_scatter_module(unique: bool) -> str:
    root = (
        "scatter(x0, x1, x2, x3, x4), update_window_dims={1}, inserted_window_dims={0}, "
        "scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
        f"unique_indices={'true' if unique else 'false'}, to_apply=keep_larger"
    )
    params = ["s32[6,3]", "f32[6,3]", "s32[4,1]", "s32[4,3]", "f32[4,3]"]
    return fused(params, root, "(s32[6,3], f32[6,3])", KEEP_LARGER)


def test_variadic_scatter_with_unique_indices_combines_every_operand() -> None:
    rng = np.random.default_rng(5)
    values = rng.integers(-9, 9, (6, 3)).astype(np.int32)
    labels = rng.standard_normal((6, 3)).astype(np.float32)
    indices = np.array([[4], [0], [7], [2]], np.int32)  # 7 is out of range: dropped
    new_values = rng.integers(-9, 9, (4, 3)).astype(np.int32)
    new_labels = rng.standard_normal((4, 3)).astype(np.float32)
    expected_values, expected_labels = values.copy(), labels.copy()
    for row, (start,) in enumerate(indices):
        if 0 <= start < 6:
            for col in range(3):
                if new_values[row, col] > values[start, col]:
                    expected_values[start, col] = new_values[row, col]
                    expected_labels[start, col] = new_labels[row, col]
    arguments = [values, labels, indices, new_values, new_labels]
    for run in (run_hlo, run_reference):
        got_values, got_labels = run(variadic_scatter_module(True), arguments)
        np.testing.assert_array_equal(got_values, expected_values)
        np.testing.assert_array_equal(got_labels, expected_labels)


def test_variadic_scatter_with_repeated_indices_applies_updates_in_order() -> None:
    """Without unique indices the updates of one row meet: each sees the ones before it."""
    rng = np.random.default_rng(6)
    values = rng.integers(-9, 9, (6, 3)).astype(np.int32)
    labels = rng.standard_normal((6, 3)).astype(np.float32)
    indices = np.array([[2], [0], [2], [2]], np.int32)
    new_values = rng.integers(-9, 9, (4, 3)).astype(np.int32)
    new_labels = rng.standard_normal((4, 3)).astype(np.float32)
    expected_values, expected_labels = values.copy(), labels.copy()
    for row, (start,) in enumerate(indices):
        for col in range(3):
            if new_values[row, col] > expected_values[start, col]:
                expected_values[start, col] = new_values[row, col]
                expected_labels[start, col] = new_labels[row, col]
    arguments = [values, labels, indices, new_values, new_labels]
    for run in (run_hlo, run_reference):
        got_values, got_labels = run(variadic_scatter_module(False), arguments)
        np.testing.assert_array_equal(got_values, expected_values)
        np.testing.assert_array_equal(got_labels, expected_labels)
