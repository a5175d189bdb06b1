"""Reference evaluator: each op against hand-computed values."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.hlo import evaluate_module, parse_hlo_module

BF16 = ml_dtypes.bfloat16


def run(body: str, *args: np.ndarray) -> list[np.ndarray]:
    """Evaluates `ENTRY e { body }` (plus a scalar `add` reducer) on the arguments."""
    text = (
        "HloModule t\n\nadd {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n"
        "  ROOT s = f32[] add(x, y)\n}\n\nENTRY e {\n" + body + "\n}\n"
    )
    return evaluate_module(parse_hlo_module(text), list(args))


def run1(body: str, *args: np.ndarray) -> np.ndarray:
    return run(body, *args)[0]


F4 = np.array([-1.5, -0.5, 0.5, 2.5], np.float32)


@pytest.mark.parametrize(
    ("opcode", "expected"),
    [
        ("abs", [1.5, 0.5, 0.5, 2.5]),
        ("negate", [1.5, 0.5, -0.5, -2.5]),
        ("sign", [-1, -1, 1, 1]),
        ("floor", [-2, -1, 0, 2]),
        ("ceil", [-1, -0.0, 1, 3]),
        ("round-nearest-even", [-2, -0.0, 0, 2]),
        ("round-nearest-afz", [-2, -1, 1, 3]),
    ],
)
def test_exact_unary_ops(opcode: str, expected: list[float]) -> None:
    out = run1(f"  p = f32[4] parameter(0)\n  ROOT r = f32[4] {opcode}(p)", F4)
    np.testing.assert_array_equal(out, np.array(expected, np.float32))


def test_round_nearest_afz_keeps_the_sign_of_zero() -> None:
    x = np.array([-0.4, -0.0, 0.4, -0.5], np.float32)
    out = run1("  p = f32[4] parameter(0)\n  ROOT r = f32[4] round-nearest-afz(p)", x)
    # C's roundf as the oracle: it rounds half away from zero and keeps the sign of zero.
    np.testing.assert_array_equal(np.signbit(out), [True, True, False, True])
    np.testing.assert_array_equal(out, [-0.0, -0.0, 0.0, -1.0])


def test_transcendental_unary_ops() -> None:
    x = [0.25, 1.0, 4.0]
    # Python's math module (the C library, in double) as the oracle.
    expected = {
        "exponential": [math.exp(v) for v in x],
        "exponential-minus-one": [math.expm1(v) for v in x],
        "log": [math.log(v) for v in x],
        "log-plus-one": [math.log1p(v) for v in x],
        "logistic": [1 / (1 + math.exp(-v)) for v in x],
        "sqrt": [0.5, 1.0, 2.0],
        "rsqrt": [2.0, 1.0, 0.5],
        "cbrt": [0.6299605249474366, 1.0, 1.5874010519681994],
        "tanh": [math.tanh(v) for v in x],
        "sine": [math.sin(v) for v in x],
        "cosine": [math.cos(v) for v in x],
        "tan": [math.tan(v) for v in x],
        # erf from tables: erf(0.25) = 0.2763263902, erf(1) = 0.8427007929, erf(4) = 0.9999999846
        "erf": [0.2763263902, 0.8427007929, 0.9999999846],
    }
    for opcode, values in expected.items():
        out = run1(
            f"  p = f32[3] parameter(0)\n  ROOT r = f32[3] {opcode}(p)", np.array(x, np.float32)
        )
        np.testing.assert_allclose(out, np.array(values, np.float64), rtol=3e-7, err_msg=opcode)


def test_is_finite_not_popcnt() -> None:
    x = np.array([1.0, np.inf, -np.inf, np.nan], np.float32)
    out = run1("  p = f32[4] parameter(0)\n  ROOT r = pred[4] is-finite(p)", x)
    np.testing.assert_array_equal(out, [True, False, False, False])
    ints = np.array([0, 7, -1, 255], np.int32)
    out = run1("  p = s32[4] parameter(0)\n  ROOT r = s32[4] not(p)", ints)
    np.testing.assert_array_equal(out, [-1, -8, 0, -256])
    out = run1("  p = s32[4] parameter(0)\n  ROOT r = s32[4] popcnt(p)", ints)
    np.testing.assert_array_equal(out, [0, 3, 32, 8])
    preds = np.array([True, False], bool)
    np.testing.assert_array_equal(
        run1("  p = pred[2] parameter(0)\n  ROOT r = pred[2] not(p)", preds), [False, True]
    )


def binary(opcode: str, type_: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    n = a.shape[0]
    body = (
        f"  a = {type_}[{n}] parameter(0)\n  b = {type_}[{n}] parameter(1)\n"
        f"  ROOT r = {type_}[{n}] {opcode}(a, b)"
    )
    return run1(body, a, b)


def test_float_binary_ops() -> None:
    a = np.array([7.0, -7.0, 2.0, 0.0], np.float32)
    b = np.array([2.0, 2.0, -3.0, 1.0], np.float32)
    cases = {
        "add": [9, -5, -1, 1],
        "subtract": [5, -9, 5, -1],
        "multiply": [14, -14, -6, 0],
        "divide": [3.5, -3.5, -2 / 3, 0],
        "remainder": [1, -1, 2, 0],
        "maximum": [7, 2, 2, 1],
        "minimum": [2, -7, -3, 0],
        "power": [49, 49, 0.125, 0],
        "atan2": [math.atan2(7, 2), math.atan2(-7, 2), math.atan2(2, -3), 0.0],
    }
    for opcode, expected in cases.items():
        np.testing.assert_allclose(
            binary(opcode, "f32", a, b), np.array(expected, np.float64), rtol=1e-7, err_msg=opcode
        )
    nan = np.array([np.nan], np.float32)
    one = np.array([1.0], np.float32)
    assert np.isnan(binary("maximum", "f32", nan, one)[0])
    assert np.isnan(binary("minimum", "f32", one, nan)[0])


def test_integer_binary_ops() -> None:
    a = np.array([7, -7, 7, -7, 5, -2147483648], np.int32)
    b = np.array([2, 2, -2, -2, 0, -1], np.int32)
    # C semantics: quotient towards zero; x/0 = -1; INT_MIN/-1 = INT_MIN; x%0 = x; INT_MIN%-1 = 0.
    np.testing.assert_array_equal(binary("divide", "s32", a, b), [3, -3, -3, 3, -1, -2147483648])
    np.testing.assert_array_equal(binary("remainder", "s32", a, b), [1, -1, 1, -1, 5, 0])
    u = np.array([7, 200], np.uint8)
    z = np.array([0, 7], np.uint8)
    np.testing.assert_array_equal(binary("divide", "u8", u, z), [255, 28])
    np.testing.assert_array_equal(binary("add", "u8", u, np.array([250, 100], np.uint8)), [1, 44])
    np.testing.assert_array_equal(
        binary(
            "power", "s32", np.array([3, 2, 1, 2], np.int32), np.array([4, 31, -3, -1], np.int32)
        ),
        [81, -2147483648, 1, 0],
    )
    x = np.array([0b1100, -16, 5], np.int32)
    y = np.array([0b1010, 3, 1], np.int32)
    np.testing.assert_array_equal(binary("and", "s32", x, y), [0b1000, 0, 1])
    np.testing.assert_array_equal(binary("or", "s32", x, y), [0b1110, -13, 5])
    np.testing.assert_array_equal(binary("xor", "s32", x, y), [0b0110, -13, 4])


def test_shifts() -> None:
    a = np.array([1, -16, -16, 3], np.int32)
    b = np.array([4, 2, 40, 31], np.int32)
    np.testing.assert_array_equal(binary("shift-left", "s32", a, b), [16, -64, 0, -2147483648])
    np.testing.assert_array_equal(binary("shift-right-arithmetic", "s32", a, b), [0, -4, -1, 0])
    # -16 is 0xFFFFFFF0; logically shifted by 2 it is 0x3FFFFFFC.
    np.testing.assert_array_equal(binary("shift-right-logical", "s32", a, b), [0, 0x3FFFFFFC, 0, 0])


@pytest.mark.parametrize("type_", ["f32", "s32", "u8"])
def test_compare_all_directions(type_: str) -> None:
    dtype = {"f32": np.float32, "s32": np.int32, "u8": np.uint8}[type_]
    a = np.array([1, 2, 3], dtype)
    b = np.array([2, 2, 2], dtype)
    expected = {
        "EQ": [False, True, False], "NE": [True, False, True], "LT": [True, False, False],
        "LE": [True, True, False], "GT": [False, False, True], "GE": [False, True, True],
    }  # fmt: skip
    for direction, values in expected.items():
        body = (
            f"  a = {type_}[3] parameter(0)\n  b = {type_}[3] parameter(1)\n"
            f"  ROOT r = pred[3] compare(a, b), direction={direction}"
        )
        np.testing.assert_array_equal(run1(body, a, b), values, err_msg=direction)


def test_compare_nan_and_total_order() -> None:
    a = np.array([np.nan, -0.0, np.nan], np.float32)
    b = np.array([np.nan, 0.0, 1.0], np.float32)
    body = (
        "  a = f32[3] parameter(0)\n  b = f32[3] parameter(1)\n"
        "  ROOT r = pred[3] compare(a, b), direction={d}"
    )
    np.testing.assert_array_equal(run1(body.format(d="EQ"), a, b), [False, True, False])
    np.testing.assert_array_equal(run1(body.format(d="NE"), a, b), [True, False, True])
    total = body.format(d="LT") + ", type=TOTALORDER"
    # Total order: -0 < +0 and NaN above everything.
    np.testing.assert_array_equal(run1(total, a, b), [False, True, False])
    np.testing.assert_array_equal(run1(total, b, a), [False, False, True])


def test_convert_saturates_and_rounds() -> None:
    x = np.array([1e10, -1e10, np.nan, -2.7, 2.7], np.float32)
    out = run1("  p = f32[5] parameter(0)\n  ROOT r = s32[5] convert(p)", x)
    np.testing.assert_array_equal(out, [2147483647, -2147483648, 0, -2, 2])
    out = run1("  p = f32[5] parameter(0)\n  ROOT r = u8[5] convert(p)", x)
    np.testing.assert_array_equal(out, [255, 0, 0, 0, 2])
    out = run1("  p = f32[5] parameter(0)\n  ROOT r = pred[5] convert(p)", x)
    np.testing.assert_array_equal(out, [True, True, True, True, True])
    # 1 + 2**-8 is halfway between bf16 1 and 1 + 2**-7: ties to even gives 1.
    y = np.array([1 + 2**-8, 1 + 3 * 2**-8], np.float32)
    out = run1("  p = f32[2] parameter(0)\n  ROOT r = bf16[2] convert(p)", y)
    np.testing.assert_array_equal(out.astype(np.float32), [1.0, 1 + 2**-6])
    out = run1(
        "  p = s32[2] parameter(0)\n  ROOT r = s8[2] convert(p)", np.array([300, -129], np.int32)
    )
    np.testing.assert_array_equal(out, [44, 127])


def test_bf16_rounds_after_every_op() -> None:
    # In bf16, 256 + 1 = 257 rounds to 256 each time; the f32 sum would be 258.
    body = (
        "  p = bf16[1] parameter(0)\n  q = bf16[1] parameter(1)\n"
        "  s = bf16[1] add(p, q)\n  ROOT t = bf16[1] add(s, q)"
    )
    out = run1(body, np.array([256], BF16), np.array([1], BF16))
    assert out.dtype == BF16 and float(out[0]) == 256.0


def test_bitcast_convert() -> None:
    out = run1(
        "  p = f32[2] parameter(0)\n  ROOT r = u32[2] bitcast-convert(p)",
        np.array([1.0, -2.0], np.float32),
    )
    np.testing.assert_array_equal(out, [0x3F800000, 0xC0000000])
    out = run1(
        "  p = f32[1] parameter(0)\n  ROOT r = u16[1,2] bitcast-convert(p)",
        np.array([1.0], np.float32),
    )
    np.testing.assert_array_equal(out, [[0x0000, 0x3F80]])


M23 = np.arange(6, dtype=np.float32).reshape(2, 3)  # [[0,1,2],[3,4,5]]


def test_shape_ops() -> None:
    p = "  p = f32[2,3] parameter(0)\n"
    np.testing.assert_array_equal(
        run1(p + "  ROOT r = f32[3,2] transpose(p), dimensions={1,0}", M23),
        [[0, 3], [1, 4], [2, 5]],
    )
    np.testing.assert_array_equal(
        run1(p + "  ROOT r = f32[3,2] reshape(p)", M23), [[0, 1], [2, 3], [4, 5]]
    )
    np.testing.assert_array_equal(
        run1(p + "  ROOT r = f32[2,2] slice(p), slice={[0:2], [0:3:2]}", M23), [[0, 2], [3, 5]]
    )
    np.testing.assert_array_equal(
        run1(p + "  ROOT r = f32[2,3] reverse(p), dimensions={1}", M23), [[2, 1, 0], [5, 4, 3]]
    )
    np.testing.assert_array_equal(
        run1(p + "  ROOT r = f32[2,3,2] broadcast(p), dimensions={0,1}", M23)[:, :, 1], M23
    )
    np.testing.assert_array_equal(
        run1(p + "  ROOT r = f32[3,4,2] broadcast(p), dimensions={2,0}", M23)[:, 1, :],
        [[0, 3], [1, 4], [2, 5]],
    )
    np.testing.assert_array_equal(
        run1(p + "  ROOT r = f32[4,3] concatenate(p, p), dimensions={0}", M23)[2:], M23
    )
    np.testing.assert_array_equal(run1(p + "  ROOT r = f32[2,3] copy(p)", M23), M23)


def test_bitcast_follows_layouts() -> None:
    # The operand is column-major ({0,1}): its bytes are 0,3,1,4,2,5; the result is row-major.
    body = "  p = f32[2,3]{0,1} parameter(0)\n  ROOT r = f32[3,2]{1,0} bitcast(p)"
    np.testing.assert_array_equal(run1(body, M23), [[0, 3], [1, 4], [2, 5]])


def test_pad() -> None:
    x = np.array([1, 2, 3], np.float32)
    zero = np.array(0, np.float32)
    body = (
        "  p = f32[3] parameter(0)\n  z = f32[] parameter(1)\n"
        "  ROOT r = f32[{n}] pad(p, z), padding={cfg}"
    )
    np.testing.assert_array_equal(
        run1(body.format(n=8, cfg="1_2_1"), x, zero), [0, 1, 0, 2, 0, 3, 0, 0]
    )
    np.testing.assert_array_equal(run1(body.format(n=2, cfg="-1_0"), x, zero), [2, 3])
    np.testing.assert_array_equal(run1(body.format(n=4, cfg="-1_0_1"), x, zero), [0, 2, 0, 3])


def test_dynamic_slices_clamp_their_starts() -> None:
    x = np.arange(5, dtype=np.int32)
    body = (
        "  p = s32[5] parameter(0)\n  i = s32[] parameter(1)\n"
        "  ROOT r = s32[2] dynamic-slice(p, i), dynamic_slice_sizes={2}"
    )
    np.testing.assert_array_equal(run1(body, x, np.array(1, np.int32)), [1, 2])
    np.testing.assert_array_equal(run1(body, x, np.array(9, np.int32)), [3, 4])
    np.testing.assert_array_equal(run1(body, x, np.array(-3, np.int32)), [0, 1])
    body = (
        "  p = s32[5] parameter(0)\n  u = s32[2] parameter(1)\n  i = s32[] parameter(2)\n"
        "  ROOT r = s32[5] dynamic-update-slice(p, u, i)"
    )
    update = np.array([-1, -2], np.int32)
    np.testing.assert_array_equal(run1(body, x, update, np.array(4, np.int32)), [0, 1, 2, -1, -2])
    np.testing.assert_array_equal(x, np.arange(5))  # the argument is not modified


def test_iota_select_clamp() -> None:
    np.testing.assert_array_equal(
        run1("  ROOT r = s32[2,3] iota(), iota_dimension=1"), [[0, 1, 2], [0, 1, 2]]
    )
    np.testing.assert_array_equal(
        run1("  ROOT r = bf16[2,2] iota(), iota_dimension=0").astype(np.float32), [[0, 0], [1, 1]]
    )
    body = (
        "  c = pred[3] parameter(0)\n  a = f32[3] parameter(1)\n  b = f32[3] parameter(2)\n"
        "  ROOT r = f32[3] select(c, a, b)"
    )
    out = run1(
        body,
        np.array([True, False, True]),
        np.array([1, 2, 3], np.float32),
        np.array([4, 5, 6], np.float32),
    )
    np.testing.assert_array_equal(out, [1, 5, 3])
    body = (
        "  lo = f32[] parameter(0)\n  x = f32[4] parameter(1)\n  hi = f32[] parameter(2)\n"
        "  ROOT r = f32[4] clamp(lo, x, hi)"
    )
    out = run1(
        body,
        np.array(-1, np.float32),
        np.array([-5, -0.5, 0.5, 5], np.float32),
        np.array(1, np.float32),
    )
    np.testing.assert_array_equal(out, [-1, -0.5, 0.5, 1])


def test_reduce_rows_and_columns() -> None:
    body = (
        "  p = f32[2,3] parameter(0)\n  z = f32[] constant(10)\n"
        "  ROOT r = f32[{n}] reduce(p, z), dimensions={{{d}}}, to_apply=add"
    )
    np.testing.assert_array_equal(run1(body.format(n=2, d=1), M23), [13, 22])
    np.testing.assert_array_equal(run1(body.format(n=3, d=0), M23), [13, 15, 17])
    scalar = (
        "  p = f32[2,3] parameter(0)\n  z = f32[] constant(0)\n"
        "  ROOT r = f32[] reduce(p, z), dimensions={0,1}, to_apply=add"
    )
    assert float(run1(scalar, M23)) == 15.0


def test_variadic_reduce_argmax() -> None:
    text = """HloModule t

argmax {
  v0 = f32[] parameter(0)
  i0 = s32[] parameter(1)
  v1 = f32[] parameter(2)
  i1 = s32[] parameter(3)
  gt = pred[] compare(v1, v0), direction=GT
  v = f32[] select(gt, v1, v0)
  i = s32[] select(gt, i1, i0)
  ROOT t = (f32[], s32[]) tuple(v, i)
}

ENTRY e {
  p = f32[2,4] parameter(0)
  idx = s32[2,4] iota(), iota_dimension=1
  ninf = f32[] constant(-inf)
  zero = s32[] constant(0)
  r = (f32[2], s32[2]) reduce(p, idx, ninf, zero), dimensions={1}, to_apply=argmax
  v = f32[2] get-tuple-element(r), index=0
  i = s32[2] get-tuple-element(r), index=1
  ROOT t = (f32[2], s32[2]) tuple(v, i)
}
"""
    x = np.array([[1, 5, 2, 5], [-3, -1, -2, -9]], np.float32)
    values, indices = evaluate_module(parse_hlo_module(text), [x])
    np.testing.assert_array_equal(values, [5, -1])
    np.testing.assert_array_equal(indices, [1, 1])


def test_bf16_reduce_rounds_each_step() -> None:
    text = """HloModule t
add {
  x = bf16[] parameter(0)
  y = bf16[] parameter(1)
  ROOT s = bf16[] add(x, y)
}
ENTRY e {
  p = bf16[3] parameter(0)
  z = bf16[] constant(256)
  ROOT r = bf16[] reduce(p, z), dimensions={0}, to_apply=add
}
"""
    # 256+1 -> 256 three times in bf16 (the exact sum 259 would round to 260).
    out = evaluate_module(parse_hlo_module(text), [np.ones(3, BF16)])[0]
    assert float(out) == 256.0


def test_fusion_and_call() -> None:
    text = """HloModule t
inner {
  a = f32[2] parameter(0)
  b = f32[2] parameter(1)
  ROOT s = f32[2] subtract(a, b)
}
ENTRY e {
  x = f32[2] parameter(0)
  y = f32[2] parameter(1)
  f = f32[2] fusion(y, x), kind=kLoop, calls=inner
  ROOT c = f32[2] call(f, x), to_apply=inner
}
"""
    x = np.array([1, 2], np.float32)
    y = np.array([10, 20], np.float32)
    # f = y - x = [9, 18]; c = f - x = [8, 16]
    np.testing.assert_array_equal(evaluate_module(parse_hlo_module(text), [x, y])[0], [8, 16])


def test_wrong_arguments_are_user_errors() -> None:
    with pytest.raises(UserError, match="takes 1 arguments, 0 were given"):
        run("  ROOT p = f32[2] parameter(0)")
    with pytest.raises(UserError, match="argument 0 is float64"):
        run("  ROOT p = f32[2] parameter(0)", np.zeros(2))
