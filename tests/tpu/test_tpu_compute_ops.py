"""Mosaic's vector shape and reduction ops in the TPU interpreter, against numpy.

Each expectation is written here in numpy from the op's documented meaning
(Mosaic's `tpu_ops.td`, Pallas's `pltpu` primitives), not with the interpreter's
code; the corpus kernel `vector_ops` checks iota, dynamic_rotate, transpose,
concatenate and reduce_index against Pallas's interpret mode as well.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.interpreter.tpu import run_tpu_kernel
from xla_emit.ir import parse_mlir

RNG = np.random.default_rng(11)
X = RNG.integers(-50, 50, size=(8, 128)).astype(np.float32)
INTS = RNG.integers(-1000, 1000, size=(8, 128)).astype(np.int32)


def run_op(signature: str, body: str, *args: object) -> list[np.ndarray]:
    """`body` (ending in `return`) in a function of `signature`, run on `args`."""
    module, _ = parse_mlir(f"func.func @f{signature} {{\n{body}\n}}\n", "<test>")
    return run_tpu_kernel(module, list(args))


def one(signature: str, body: str, *args: object) -> np.ndarray:
    (result,) = run_op(signature, body, *args)
    return result


def test_transpose() -> None:
    got = one(
        "(%x: vector<8x128xf32>) -> vector<128x8xf32>",
        "%r = tpu.transpose %x, [1, 0] : vector<8x128xf32> -> vector<128x8xf32>\nreturn %r : "
        "vector<128x8xf32>",
        X,
    )
    np.testing.assert_array_equal(got, X.T)


def test_transpose_3d() -> None:
    x = np.arange(2 * 8 * 128, dtype=np.int32).reshape(2, 8, 128)
    got = one(
        "(%x: vector<2x8x128xi32>) -> vector<8x2x128xi32>",
        "%r = tpu.transpose %x, [1, 0, 2] : vector<2x8x128xi32> -> vector<8x2x128xi32>\n"
        "return %r : vector<8x2x128xi32>",
        x,
    )
    assert got[3, 1, 5] == x[1, 3, 5]
    np.testing.assert_array_equal(got, x.transpose(1, 0, 2))


@pytest.mark.parametrize("dim", [0, 1])
def test_concatenate(dim: int) -> None:
    a, b = X[:4, :64], X[4:, 64:]
    out = "vector<8x64xf32>" if dim == 0 else "vector<4x128xf32>"
    got = one(
        f"(%a: vector<4x64xf32>, %b: vector<4x64xf32>) -> {out}",
        f"%r = tpu.concatenate %a, %b in {dim} : vector<4x64xf32>, vector<4x64xf32> -> {out}\n"
        f"return %r : {out}",
        a,
        b,
    )
    expected = np.vstack([a, b]) if dim == 0 else np.hstack([a, b])
    np.testing.assert_array_equal(got, expected)


def test_repeat_puts_copies_one_after_another() -> None:
    x = X[:, :4]
    got = one(
        "(%x: vector<8x4xf32>) -> vector<8x12xf32>",
        '%r = "tpu.repeat"(%x) <{dimension = 1 : i32, times = 3 : i32}> : (vector<8x4xf32>) -> '
        "vector<8x12xf32>\nreturn %r : vector<8x12xf32>",
        x,
    )
    np.testing.assert_array_equal(got[:, 4:8], x)
    np.testing.assert_array_equal(got, np.hstack([x, x, x]))


def test_bitcast_same_width_keeps_bits() -> None:
    got = one(
        "(%x: vector<8x128xf32>) -> vector<8x128xi32>",
        "%r = tpu.bitcast %x : vector<8x128xf32> -> vector<8x128xi32>\nreturn %r : "
        "vector<8x128xi32>",
        np.float32([[1.0] * 128] * 8),
    )
    assert got.dtype == np.int32 and (got == 0x3F800000).all()


def test_bitcast_packs_halves_into_row_pairs() -> None:
    """pltpu.bitcast i32 -> bf16: row 2r holds the low 16 bits of row r, row 2r+1 the high."""
    words = (np.uint32(0x3F80) << 16 | np.arange(8 * 128, dtype=np.uint32).reshape(8, 128)).view(
        np.int32
    )
    got = one(
        "(%x: vector<8x128xi32>) -> vector<16x128xbf16>",
        "%r = tpu.bitcast %x : vector<8x128xi32> -> vector<16x128xbf16>\nreturn %r : "
        "vector<16x128xbf16>",
        words,
    )
    bits = got.view(np.uint16)
    assert got.shape == (16, 128)
    np.testing.assert_array_equal(bits[0::2], (words.view(np.uint32) & 0xFFFF).astype(np.uint16))
    np.testing.assert_array_equal(bits[1::2], np.full((8, 128), 0x3F80, np.uint16))
    assert got[1, 0] == ml_dtypes.bfloat16(1.0)


def test_bitcast_unpacks_row_pairs() -> None:
    halves = RNG.integers(0, 1 << 16, size=(16, 128)).astype(np.uint16)
    got = one(
        "(%x: vector<16x128xi16>) -> vector<8x128xi32>",
        "%r = tpu.bitcast %x : vector<16x128xi16> -> vector<8x128xi32>\nreturn %r : "
        "vector<8x128xi32>",
        halves.view(np.int16),
    )
    expected = halves[0::2].astype(np.uint32) | halves[1::2].astype(np.uint32) << 16
    np.testing.assert_array_equal(got.view(np.uint32), expected)


@pytest.mark.parametrize(
    ("kind", "dim", "reference"),
    [
        ("sum", 0, lambda x: x.sum(axis=0, keepdims=True)),
        ("max", 1, lambda x: x.max(axis=1, keepdims=True)),
        ("min", 1, lambda x: x.min(axis=1, keepdims=True)),
    ],
)
def test_all_reduce_gives_every_position_the_result(kind: str, dim: int, reference) -> None:  # type: ignore[no-untyped-def]
    got = one(
        "(%x: vector<8x128xf32>) -> vector<8x128xf32>",
        f"%r = tpu.all_reduce %x {{dim = {dim} : i64, kind = #tpu.reduction_kind<{kind}>}} : "
        "vector<8x128xf32> -> vector<8x128xf32>\nreturn %r : vector<8x128xf32>",
        X,
    )
    np.testing.assert_array_equal(got, np.broadcast_to(reference(X), X.shape))


def test_all_reduce_arg_max() -> None:
    got = one(
        "(%x: vector<8x128xf32>) -> vector<8x128xi32>",
        "%r = tpu.all_reduce %x {dim = 1 : i64, kind = #tpu.reduction_kind<arg_max>} : "
        "vector<8x128xf32> -> vector<8x128xi32>\nreturn %r : vector<8x128xi32>",
        X,
    )
    first_max = [[next(j for j in range(128) if row[j] == row.max())] for row in X]
    np.testing.assert_array_equal(got, np.broadcast_to(first_max, (8, 128)))


def test_all_reduce_counts_a_mask() -> None:
    got = one(
        "(%x: vector<8x128xf32>) -> vector<8x128xi32>",
        "%zero = arith.constant dense<0.0> : vector<8x128xf32>\n"
        "%m = arith.cmpf ogt, %x, %zero : vector<8x128xf32>\n"
        "%r = tpu.all_reduce %m {dim = 1 : i64, kind = #tpu.reduction_kind<sum>} : "
        "vector<8x128xi1> -> vector<8x128xi32>\nreturn %r : vector<8x128xi32>",
        X,
    )
    assert (got == int((X > 0).sum())).all()


@pytest.mark.parametrize(("kind", "axis"), [("arg_max", 1), ("arg_min", 0)])
def test_reduce_index_is_the_first_extreme(kind: str, axis: int) -> None:
    x = np.round(X / 20)  # few distinct values: ties everywhere
    out = "vector<8xi32>" if axis == 1 else "vector<128xi32>"
    got = one(
        f"(%x: vector<8x128xf32>) -> {out}",
        f"%r = tpu.reduce_index %x {{axis = {axis} : i32, kind = #tpu.reduction_kind<{kind}>}} : "
        f"vector<8x128xf32> -> {out}\nreturn %r : {out}",
        x,
    )
    lines = x if axis == 1 else x.T
    pick = max if kind == "arg_max" else min
    expected = [list(line).index(pick(line)) for line in lines]
    np.testing.assert_array_equal(got, expected)


def test_reduce_index_with_a_sum_kind_is_an_error() -> None:
    with pytest.raises(UserError) as caught:
        one(
            "(%x: vector<8x128xf32>) -> vector<8xi32>",
            "%r = tpu.reduce_index %x {axis = 1 : i32, kind = #tpu.reduction_kind<sum>} : "
            "vector<8x128xf32> -> vector<8xi32>\nreturn %r : vector<8xi32>",
            X,
        )
    assert "with kind 'sum' is not supported (arg_max or arg_min)" in str(caught.value)


def test_broadcast_in_sublanes() -> None:
    row = np.arange(128, dtype=np.int32) * 3
    got = one(
        "(%x: vector<8x128xi32>) -> vector<8x128xi32>",
        "%r = tpu.broadcast_in_sublanes %x, 122 : vector<8x128xi32> -> vector<8x128xi32>\n"
        "return %r : vector<8x128xi32>",
        np.broadcast_to(row, (8, 128)).copy(),
    )
    for i in range(6):  # lanes 122..127
        assert (got[i] == 3 * (122 + i)).all()
    assert (got[6:] == np.iinfo(np.int32).min).all()  # lanes 128, 129: unspecified


def test_vector_broadcast_of_a_scalar() -> None:
    got = one(
        "() -> vector<8x128xf32>",
        "%x = arith.constant 2.5 : f32\n%r = vector.broadcast %x : f32 to vector<8x128xf32>\n"
        "return %r : vector<8x128xf32>",
    )
    np.testing.assert_array_equal(got, np.full((8, 128), 2.5, np.float32))


@pytest.mark.parametrize(
    ("source", "value"), [("vector<128xf32>", X[0]), ("vector<8x1xf32>", X[:, :1])]
)
def test_vector_broadcast_variants(source: str, value: object) -> None:
    got = one(
        f"(%x: {source}) -> vector<8x128xf32>",
        f"%r = vector.broadcast %x : {source} to vector<8x128xf32>\nreturn %r : vector<8x128xf32>",
        value,
    )
    np.testing.assert_array_equal(got, np.broadcast_to(value, (8, 128)))


def test_integer_arith_on_vectors() -> None:
    """divsi and remsi truncate toward zero (C, not numpy's floor division)."""
    d = np.where(INTS == 0, 7, INTS % 13 + 14).astype(np.int32)
    q, r, m = run_op(
        "(%a: vector<8x128xi32>, %b: vector<8x128xi32>) -> (vector<8x128xi32>, "
        "vector<8x128xi32>, vector<8x128xi32>)",
        "%q = arith.divsi %a, %b : vector<8x128xi32>\n%r = arith.remsi %a, %b : "
        "vector<8x128xi32>\n%m = arith.maxsi %a, %b : vector<8x128xi32>\n"
        "return %q, %r, %m : vector<8x128xi32>, vector<8x128xi32>, vector<8x128xi32>",
        INTS,
        d,
    )
    np.testing.assert_array_equal(q, np.trunc(INTS / d).astype(np.int32))
    np.testing.assert_array_equal(r, INTS - np.trunc(INTS / d).astype(np.int32) * d)
    np.testing.assert_array_equal(m, np.maximum(INTS, d))


def test_float_arith_and_select_on_vectors() -> None:
    y = X[::-1].copy()
    (got,) = run_op(
        "(%a: vector<8x128xf32>, %b: vector<8x128xf32>) -> vector<8x128xf32>",
        "%s = arith.mulf %a, %b : vector<8x128xf32>\n%c = arith.cmpf olt, %a, %b : "
        "vector<8x128xf32>\n%t = arith.subf %a, %b : vector<8x128xf32>\n"
        "%r = arith.select %c, %s, %t : vector<8x128xi1>, vector<8x128xf32>\n"
        "return %r : vector<8x128xf32>",
        X,
        y,
    )
    np.testing.assert_array_equal(got, np.where(y > X, X * y, X - y))


def test_gather_with_static_indices() -> None:
    got = one(
        "(%x: vector<8x128xf32>) -> vector<8x128xf32>",
        '%r = "tpu.gather"(%x) <{indices = array<i32: 7, 6, 5, 4, 3, 2, 1, 0>, dimension = 0 : '
        "i32}> : (vector<8x128xf32>) -> vector<8x128xf32>\nreturn %r : vector<8x128xf32>",
        X,
    )
    np.testing.assert_array_equal(got, X[::-1])


def test_dynamic_gather_along_lanes_wraps_indices() -> None:
    index = RNG.integers(-200, 200, size=(8, 128)).astype(np.int32)
    got = one(
        "(%x: vector<8x128xf32>, %i: vector<8x128xi32>) -> vector<8x128xf32>",
        "%r = tpu.dynamic_gather %x[%i] in [1] : vector<8x128xf32>, vector<8x128xi32> -> "
        "vector<8x128xf32>\nreturn %r : vector<8x128xf32>",
        X,
        index,
    )
    expected = [[X[r, index[r, c] % 128] for c in range(128)] for r in range(8)]
    np.testing.assert_array_equal(got, expected)


def test_dynamic_gather_over_two_collapsed_dims() -> None:
    """Both dims of an 8x128 vector collapse into one of 1024 elements, row-major."""
    index = RNG.integers(0, 1024, size=(8, 128)).astype(np.int32)
    got = one(
        "(%x: vector<8x128xf32>, %i: vector<8x128xi32>) -> vector<8x128xf32>",
        "%r = tpu.dynamic_gather %x[%i] in [0, 1] : vector<8x128xf32>, vector<8x128xi32> -> "
        "vector<8x128xf32>\nreturn %r : vector<8x128xf32>",
        X,
        index,
    )
    np.testing.assert_array_equal(got, X.reshape(-1)[index])


def test_reciprocal_and_logistic() -> None:
    x = (X + 0.5) / 8  # no zeros
    recip, logistic = run_op(
        "(%x: vector<8x128xf32>) -> (vector<8x128xf32>, vector<8x128xf32>)",
        "%r = tpu.reciprocal %x {approx = true} : vector<8x128xf32> -> vector<8x128xf32>\n"
        "%l = tpu.logistic %x : vector<8x128xf32> -> vector<8x128xf32>\n"
        "return %r, %l : vector<8x128xf32>, vector<8x128xf32>",
        x,
    )
    np.testing.assert_array_equal(recip, np.float32(1) / x)
    np.testing.assert_allclose(logistic, 1 / (1 + np.exp(-x.astype(np.float64))), rtol=1e-6)
