"""`vector.contract` in the TPU interpreter against numpy written out loop by loop."""

from __future__ import annotations

import re

import ml_dtypes
import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.interpreter.tpu import run_tpu_kernel
from xla_emit.ir import parse_mlir

VMEM = "#tpu.memory_space<vmem>"


def _memref(vector: str) -> str:
    """The VMEM memref holding a whole `vector<...>`."""
    return f"memref<{vector.removeprefix('vector<').removesuffix('>')}, {VMEM}>"


def _zeros(vector: str) -> str:
    return ", ".join(["%c0"] * vector.count("x"))


def _load(name: str, value: str, vector: str) -> str:
    return f"%{name} = vector.load %{value}[{_zeros(vector)}] : {_memref(vector)}, {vector}"


def contract_kernel(
    lhs: str, rhs: str, acc: str, maps: str, iterators: str, kind: str = "add"
) -> str:
    """A kernel that loads lhs, rhs and acc, contracts them and stores the result over acc."""
    return f"""
func.func @k(%l: {_memref(lhs)}, %r: {_memref(rhs)}, %o: {_memref(acc)}) {{
  %c0 = arith.constant 0 : index
  {_load("a", "l", lhs)}
  {_load("b", "r", rhs)}
  {_load("c", "o", acc)}
  %d = vector.contract {{indexing_maps = [{maps}], iterator_types = [{iterators}], kind = #vector.kind<{kind}>}} %a, %b, %c : {lhs}, {rhs} into {acc}
  vector.store %d, %o[{_zeros(acc)}] : {_memref(acc)}, {acc}
  return
}}
"""  # noqa: E501 - IR listing, one op per line


MATMUL_MAPS = (
    "affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, "
    "affine_map<(d0, d1, d2) -> (d0, d1)>"
)
MATMUL_ITERATORS = '"parallel", "parallel", "reduction"'


def run(text: str, arrays: list[np.ndarray]) -> np.ndarray:
    module, _ = parse_mlir(text, "k.mlir")
    return run_tpu_kernel(module, arrays)[-1]


def test_bf16_matmul_accumulates_into_f32() -> None:
    rng = np.random.default_rng(5)
    # Small integers: every product and partial sum is exact, so any order gives one answer.
    a = rng.integers(-8, 8, (8, 16)).astype(ml_dtypes.bfloat16)
    b = rng.integers(-8, 8, (16, 128)).astype(ml_dtypes.bfloat16)
    c = rng.integers(-100, 100, (8, 128)).astype(np.float32)
    text = contract_kernel(
        "vector<8x16xbf16>",
        "vector<16x128xbf16>",
        "vector<8x128xf32>",
        MATMUL_MAPS,
        MATMUL_ITERATORS,
    )
    expected = c.copy()
    for i in range(8):
        for j in range(128):
            expected[i, j] += sum(float(a[i, k]) * float(b[k, j]) for k in range(16))
    np.testing.assert_array_equal(run(text, [a, b, c]), expected)


def test_batched_contraction_with_a_transposed_rhs() -> None:
    rng = np.random.default_rng(6)
    q = rng.integers(-4, 4, (2, 8, 32)).astype(np.float32)
    k = rng.integers(-4, 4, (2, 16, 32)).astype(np.float32)
    s = np.zeros((2, 8, 16), np.float32)
    maps = (
        "affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, "
        "affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>"
    )
    text = contract_kernel(
        "vector<2x8x32xf32>",
        "vector<2x16x32xf32>",
        "vector<2x8x16xf32>",
        maps,
        '"parallel", "parallel", "parallel", "reduction"',
    )
    expected = np.zeros_like(s)
    for batch in range(2):
        for i in range(8):
            for j in range(16):
                expected[batch, i, j] = sum(q[batch, i, d] * k[batch, j, d] for d in range(32))
    np.testing.assert_array_equal(run(text, [q, k, s]), expected)


def test_i8_operands_are_sign_extended_and_i32_sums_wrap() -> None:
    a = np.full((8, 128), -128, np.int8)
    b = np.full((128, 128), -128, np.int8)
    c = np.full((8, 128), 2**31 - 1, np.int32)
    text = contract_kernel(
        "vector<8x128xi8>",
        "vector<128x128xi8>",
        "vector<8x128xi32>",
        MATMUL_MAPS,
        MATMUL_ITERATORS,
    )
    # 128 * (-128 * -128) = 2**21, added to INT32_MAX, wraps modulo 2**32.
    wrapped = (2**31 - 1 + 2**21) - 2**32
    np.testing.assert_array_equal(run(text, [a, b, c]), np.full((8, 128), wrapped, np.int32))


def test_other_combining_kinds_are_a_clear_error() -> None:
    text = contract_kernel(
        "vector<8x16xf32>",
        "vector<16x128xf32>",
        "vector<8x128xf32>",
        MATMUL_MAPS,
        MATMUL_ITERATORS,
        kind="maximumf",
    )
    arrays = [np.zeros((8, 16), np.float32), np.zeros((16, 128), np.float32)]
    with pytest.raises(UserError, match=re.escape("with kind 'maximumf' is not supported")):
        run(text, [*arrays, np.zeros((8, 128), np.float32)])
