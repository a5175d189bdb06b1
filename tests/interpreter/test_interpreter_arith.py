"""arith ops on lanes against numpy (bf16 and f16 rounded after every op)."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest
from interpreter_harness import RunKernel

BF16 = ml_dtypes.bfloat16
N = 64


def binary_kernel(op: str, type_: str, result_type: str | None = None, n: int = N) -> str:
    """A kernel with one thread per element: out[t] = op(a[t], b[t])."""
    result_type = result_type or type_
    return f"""
func.func @main(%a: tensor<{n}x{type_}>, %b: tensor<{n}x{type_}>, %out: tensor<{n}x{result_type}>) -> tensor<{n}x{result_type}> {{
  %t = gpu.thread_id  x {{xla.range = [0 : index, {n - 1} : index]}}
  %x = tensor.extract %a[%t] : tensor<{n}x{type_}>
  %y = tensor.extract %b[%t] : tensor<{n}x{type_}>
  %r = {op} %x, %y : {type_}
  %o = tensor.insert %r into %out[%t] : tensor<{n}x{result_type}>
  return %o : tensor<{n}x{result_type}>
}}
"""  # noqa: E501 - IR listing, one op per line


def unary_kernel(op: str, source: str, target: str, n: int = N) -> str:
    """out[t] = op(a[t]).

    `op` is written as `<name> %x : source to target` or `<name> %x : type`.
    """
    return f"""
func.func @main(%a: tensor<{n}x{source}>, %out: tensor<{n}x{target}>) -> tensor<{n}x{target}> {{
  %t = gpu.thread_id  x {{xla.range = [0 : index, {n - 1} : index]}}
  %x = tensor.extract %a[%t] : tensor<{n}x{source}>
  %r = {op}
  %o = tensor.insert %r into %out[%t] : tensor<{n}x{target}>
  return %o : tensor<{n}x{target}>
}}
"""


def _random(dtype: type, seed: int, n: int = N) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if np.issubdtype(np.dtype(dtype), np.integer):
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size=n, endpoint=True, dtype=dtype)
    return (rng.standard_normal(n) * 3).astype(dtype)


def _bits(array: np.ndarray) -> np.ndarray:
    return array.view(np.uint16) if array.dtype.itemsize == 2 else array


@pytest.mark.parametrize(
    ("op", "reference"),
    [
        ("arith.addf", lambda a, b: a + b),
        ("arith.subf", lambda a, b: a - b),
        ("arith.mulf", lambda a, b: a * b),
        ("arith.divf", lambda a, b: a / b),
        ("arith.maximumf", np.maximum),
        ("arith.minnumf", np.fmin),
        ("arith.remf", np.fmod),
    ],
)
@pytest.mark.parametrize("type_", ["bf16", "f16", "f32"])
def test_float_binary_ops_round_like_numpy(
    run_kernel: RunKernel, op: str, reference, type_: str
) -> None:
    dtype = {"bf16": BF16, "f16": np.float16, "f32": np.float32}[type_]
    a, b = _random(dtype, 1), _random(dtype, 2)
    # Independent oracle: compute in f64, then round once to the type.
    expected = reference(a.astype(np.float64), b.astype(np.float64)).astype(dtype)
    (result,) = run_kernel(binary_kernel(op, type_), [a, b])
    assert result.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(_bits(result), _bits(expected))


EVERY_BF16 = np.arange(1 << 16, dtype=np.uint16).view(BF16)


def _same_bf16(actual: np.ndarray, expected: np.ndarray) -> None:
    """Equal bits, except that any NaN matches any NaN (a NaN made from two NaNs of
    opposite signs takes either sign; hardware returns a canonical NaN there)."""
    nan = np.isnan(expected.astype(np.float32))
    np.testing.assert_array_equal(np.isnan(actual.astype(np.float32)), nan)
    np.testing.assert_array_equal(_bits(actual)[~nan], _bits(expected)[~nan])


@pytest.mark.parametrize(
    ("op", "reference"),
    [
        ("arith.addf", np.add),
        ("arith.subf", np.subtract),
        ("arith.mulf", np.multiply),
        ("arith.divf", np.divide),
    ],
)
def test_bf16_arithmetic_on_every_value_matches_ml_dtypes(
    run_kernel: RunKernel, op: str, reference
) -> None:
    # The oracle: ml_dtypes' bf16 loops, each element widened to f32 and the result rounded.
    a = EVERY_BF16
    b = np.random.default_rng(3).permutation(EVERY_BF16)
    with np.errstate(all="ignore"):
        expected = reference(a, b)
    (result,) = run_kernel(binary_kernel(op, "bf16", n=a.size), [a, b])
    assert result.dtype == np.dtype(BF16)
    _same_bf16(result, expected)


@pytest.mark.parametrize("constant", ["0.0", "-0.0", "1.0e-40", "3.0e+38", "0x7FC0", "0xFF80"])
@pytest.mark.parametrize("op", ["arith.addf", "arith.subf", "arith.mulf", "arith.divf"])
def test_bf16_arithmetic_with_a_uniform_operand(run_kernel: RunKernel, op: str, constant: str):
    """A constant operand is one value for every lane: both operand orders, every bf16."""
    text = f"""
func.func @main(%a: tensor<65536xbf16>, %out: tensor<65536xbf16>) -> tensor<65536xbf16> {{
  %t = gpu.thread_id  x {{xla.range = [0 : index, 65535 : index]}}
  %x = tensor.extract %a[%t] : tensor<65536xbf16>
  %c = arith.constant {constant} : bf16
  %l = {op} %x, %c : bf16
  %r = {op} %c, %l : bf16
  %o = tensor.insert %r into %out[%t] : tensor<65536xbf16>
  return %o : tensor<65536xbf16>
}}
"""
    value = (
        np.array([int(constant, 16)], np.uint16).view(BF16)[0]
        if constant.startswith("0x")
        else BF16(float(constant))
    )
    ufunc = {"arith.addf": np.add, "arith.subf": np.subtract}.get(op)
    ufunc = ufunc or {"arith.mulf": np.multiply, "arith.divf": np.divide}[op]
    with np.errstate(all="ignore"):
        expected = ufunc(value, ufunc(EVERY_BF16, value))
    (result,) = run_kernel(text, [EVERY_BF16])
    _same_bf16(result, expected)


def test_bf16_rounds_after_every_op(run_kernel: RunKernel) -> None:
    # 1 + 2^-9 is not a bf16; the sum of two bf16 halves of it rounds to even.
    text = """
func.func @main(%a: bf16, %b: bf16, %c: bf16) -> bf16 {
  %s = arith.addf %a, %b : bf16
  %r = arith.subf %s, %c : bf16
  return %r : bf16
}
"""
    a, b, c = BF16(1.0), BF16(2.0**-9), BF16(1.0)
    (result,) = run_kernel(text, [a, b, c])
    # Exact arithmetic gives 2^-9; bf16 rounds 1 + 2^-9 to 1 first, so 0.
    assert float(result) == 0.0


@pytest.mark.parametrize(
    ("op", "reference"),
    [
        ("arith.addi", lambda a, b: a + b),
        ("arith.subi", lambda a, b: a - b),
        ("arith.muli", lambda a, b: a * b),
        ("arith.andi", lambda a, b: a & b),
        ("arith.ori", lambda a, b: a | b),
        ("arith.xori", lambda a, b: a ^ b),
        ("arith.maxsi", max),
        ("arith.minsi", min),
    ],
)
@pytest.mark.parametrize(("type_", "bits"), [("i8", 8), ("i32", 32), ("i64", 64)])
def test_integer_ops_wrap_around(
    run_kernel: RunKernel, op: str, reference, type_: str, bits: int
) -> None:
    dtype = {8: np.int8, 32: np.int32, 64: np.int64}[bits]
    a, b = _random(dtype, 3), _random(dtype, 4)
    expected = np.array(
        [_wrap(reference(int(x), int(y)), bits) for x, y in zip(a, b, strict=True)], dtype=dtype
    )
    (result,) = run_kernel(binary_kernel(op, type_), [a, b])
    np.testing.assert_array_equal(result, expected)


def _wrap(value: int, bits: int) -> int:
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >= 1 << (bits - 1) else value


def _c_div(a: int, b: int) -> int:
    quotient = abs(a) // abs(b)
    return quotient if (a < 0) == (b < 0) else -quotient


@pytest.mark.parametrize(
    ("op", "reference"),
    [
        ("arith.divsi", _c_div),
        ("arith.remsi", lambda a, b: a - b * _c_div(a, b)),
        ("arith.floordivsi", lambda a, b: a // b),
        ("arith.ceildivsi", lambda a, b: -((-a) // b)),
        ("arith.divui", lambda a, b: (a % 2**32) // (b % 2**32)),
        ("arith.remui", lambda a, b: (a % 2**32) % (b % 2**32)),
        ("arith.maxui", lambda a, b: max(a % 2**32, b % 2**32)),
        ("arith.shrsi", lambda a, b: a >> (b % 32)),
        ("arith.shrui", lambda a, b: (a % 2**32) >> (b % 32)),
        ("arith.shli", lambda a, b: a << (b % 32)),
    ],
)
def test_signed_and_unsigned_i32_ops(run_kernel: RunKernel, op: str, reference) -> None:
    rng = np.random.default_rng(5)
    a = rng.integers(-(2**31), 2**31, N, dtype=np.int64).astype(np.int32)
    b = rng.integers(-(2**31), 2**31, N, dtype=np.int64).astype(np.int32)
    b[b == 0] = 7
    a[:4] = [-7, 7, -7, 7]
    b[:4] = [2, -2, -2, 2]
    if "sh" in op:
        b = np.abs(b % 32).astype(np.int32)
    expected = np.array(
        [_wrap(reference(int(x), int(y)), 32) for x, y in zip(a, b, strict=True)], dtype=np.int32
    )
    (result,) = run_kernel(binary_kernel(op, "i32"), [a, b])
    np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize(
    ("predicate", "reference"),
    [
        ("slt", lambda a, b: a < b),
        ("sge", lambda a, b: a >= b),
        ("ult", lambda a, b: (a % 2**16) < (b % 2**16)),
        ("uge", lambda a, b: (a % 2**16) >= (b % 2**16)),
        ("eq", lambda a, b: a == b),
        ("ne", lambda a, b: a != b),
    ],
)
def test_cmpi_signed_and_unsigned(run_kernel: RunKernel, predicate: str, reference) -> None:
    a, b = _random(np.int16, 6), _random(np.int16, 7)
    b[:8] = a[:8]
    expected = np.array([reference(int(x), int(y)) for x, y in zip(a, b, strict=True)])
    (result,) = run_kernel(binary_kernel(f"arith.cmpi {predicate},", "i16", "i1"), [a, b])
    np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize(
    ("predicate", "reference"),
    [
        ("olt", lambda a, b: a < b),
        ("ult", lambda a, b: not (a >= b)),
        ("one", lambda a, b: a < b or a > b),
        ("une", lambda a, b: a != b),
        ("ord", lambda a, b: not (math.isnan(a) or math.isnan(b))),
        ("uno", lambda a, b: math.isnan(a) or math.isnan(b)),
    ],
)
def test_cmpf_ordered_and_unordered_with_nan(
    run_kernel: RunKernel, predicate: str, reference
) -> None:
    a = np.array([1.0, np.nan, 2.0, np.nan, -1.0, 3.0, 0.0, -0.0], np.float32)
    b = np.array([2.0, 1.0, np.nan, np.nan, -1.0, 1.0, -0.0, 0.0], np.float32)
    expected = np.array([reference(float(x), float(y)) for x, y in zip(a, b, strict=True)])
    (result,) = run_kernel(binary_kernel(f"arith.cmpf {predicate},", "f32", "i1", n=8), [a, b])
    np.testing.assert_array_equal(result, expected)


def test_select_per_lane(run_kernel: RunKernel) -> None:
    text = """
func.func @main(%a: tensor<32xf32>, %out: tensor<32xf32>) -> tensor<32xf32> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 31 : index]}
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %m = arith.remui %t, %c2 : index
  %even = arith.cmpi eq, %m, %c0 : index
  %x = tensor.extract %a[%t] : tensor<32xf32>
  %n = arith.negf %x : f32
  %r = arith.select %even, %x, %n : f32
  %o = tensor.insert %r into %out[%t] : tensor<32xf32>
  return %o : tensor<32xf32>
}
"""
    a = np.arange(32, dtype=np.float32) + 1
    (result,) = run_kernel(text, [a])
    np.testing.assert_array_equal(result, np.where(np.arange(32) % 2 == 0, a, -a))


@pytest.mark.parametrize(
    ("op", "source", "target", "reference"),
    [
        ("arith.extsi %x : i8 to i32", np.int8, np.int32, lambda v: int(v)),
        ("arith.extui %x : i8 to i32", np.int8, np.int32, lambda v: int(v) % 256),
        ("arith.trunci %x : i32 to i8", np.int32, np.int8, lambda v: _wrap(int(v), 8)),
        ("arith.index_cast %x : i32 to index", np.int32, np.int64, lambda v: int(v)),
        ("arith.index_castui %x : i32 to index", np.int32, np.int64, lambda v: int(v) % 2**32),
        ("arith.sitofp %x : i32 to f32", np.int32, np.float32, lambda v: float(v)),
        ("arith.uitofp %x : i8 to f32", np.int8, np.float32, lambda v: float(int(v) % 256)),
        ("arith.fptosi %x : f32 to i32", np.float32, np.int32, lambda v: int(v)),
        ("arith.extf %x : bf16 to f32", BF16, np.float32, lambda v: float(v)),
        ("arith.truncf %x : f32 to bf16", np.float32, BF16, lambda v: float(v)),
        ("arith.truncf %x : f32 to f16", np.float32, np.float16, lambda v: float(v)),
        ("arith.bitcast %x : f32 to i32", np.float32, np.int32, None),
    ],
)
def test_casts(run_kernel: RunKernel, op: str, source: type, target: type, reference) -> None:
    a = _random(source, 8)
    if reference is None:
        expected = a.view(target)
    else:
        # Python floats hold every value exactly; numpy rounds each once to the target.
        expected = np.array(
            [reference(v) for v in a],
            dtype=np.float64
            if np.issubdtype(np.dtype(target), np.floating) or target is BF16
            else object,
        ).astype(target)
    names = {
        np.int8: "i8",
        np.int32: "i32",
        np.float32: "f32",
        BF16: "bf16",
        np.float16: "f16",
        np.int64: "index",
    }
    (result,) = run_kernel(unary_kernel(op.replace("%x", "%x"), names[source], names[target]), [a])
    np.testing.assert_array_equal(_bits(result), _bits(expected))


def test_extsi_of_i1_gives_minus_one(run_kernel: RunKernel) -> None:
    text = """
func.func @main(%a: i32, %b: i32) -> (i32, i32) {
  %lt = arith.cmpi slt, %a, %b : i32
  %s = arith.extsi %lt : i1 to i32
  %u = arith.extui %lt : i1 to i32
  return %s, %u : i32, i32
}
"""
    assert [int(v) for v in run_kernel(text, [np.int32(1), np.int32(2)])] == [-1, 1]


def test_i1_addition_is_modulo_two(run_kernel: RunKernel) -> None:
    text = """
func.func @main() -> i1 {
  %t = arith.constant true
  %r = arith.addi %t, %t : i1
  return %r : i1
}
"""
    assert not bool(run_kernel(text, [])[0])


def test_odd_width_integers_wrap(run_kernel: RunKernel) -> None:
    text = """
func.func @main() -> (i3, i3) {
  %a = arith.constant 3 : i3
  %b = arith.constant 1 : i3
  %s = arith.addi %a, %b : i3
  %m = arith.muli %a, %a : i3
  return %s, %m : i3, i3
}
"""
    # i3 holds -4..3: 3 + 1 wraps to -4 and 3 * 3 = 9 wraps to 1.
    assert [int(v) for v in run_kernel(text, [])] == [-4, 1]


def test_dense_vector_constant_and_splat(run_kernel: RunKernel) -> None:
    text = """
func.func @main() -> (vector<4xi32>, vector<3xf32>) {
  %v = arith.constant dense<[1, -2, 3, 2147483647]> : vector<4xi32>
  %s = arith.constant dense<1.5> : vector<3xf32>
  return %v, %s : vector<4xi32>, vector<3xf32>
}
"""
    v, s = run_kernel(text, [])
    np.testing.assert_array_equal(v, [1, -2, 3, 2**31 - 1])
    np.testing.assert_array_equal(s, [1.5, 1.5, 1.5])
