"""XLA's integer and conversion semantics at the edges, compiled and in the evaluator.

Hand-worked values (from XLA's elemental emitter: x / 0 = -1, x % 0 = x,
INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0, shifts by amounts outside
[0, bits) give 0 or the sign fill, float -> int truncates and saturates with
NaN -> 0) check both the numpy evaluator and the compiled kernels; property
tests over edge-biased inputs then compare the compiled path with the
evaluator. The interpreter runs with its undefined-arith check on, so a
kernel that divided by zero or shifted too far would fail, not pass.
"""

from __future__ import annotations

import math
from functools import cache

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xla_emit.api import parse_hlo, run_reference
from xla_emit.hlo.evaluator import evaluate_module
from xla_emit.hlo.shape import PrimitiveType
from xla_emit.runtime.kernels import KernelCache
from xla_emit.runtime.module_runtime import ModuleRuntime

N = 16
INTEGERS = ("s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64")
FLOATS = ("f16", "bf16", "f32", "f64")
BINARY = ("divide", "remainder", "shift-left", "shift-right-logical", "shift-right-arithmetic")


def binary_module(type_: str) -> str:
    ops = "\n".join(f"  %r{i} = {type_}[{N}] {op}(%a, %b)" for i, op in enumerate(BINARY))
    results = ", ".join(f"%r{i}" for i in range(len(BINARY)))
    shapes = ", ".join([f"{type_}[{N}]"] * len(BINARY))
    return f"""HloModule integer_{type_}

ENTRY %main (a: {type_}[{N}], b: {type_}[{N}]) -> ({shapes}) {{
  %a = {type_}[{N}] parameter(0)
  %b = {type_}[{N}] parameter(1)
{ops}
  ROOT %t = ({shapes}) tuple({results})
}}
"""


def convert_module(source: str, targets: tuple[str, ...]) -> str:
    ops = "\n".join(f"  %c{i} = {t}[{N}] convert(%x)" for i, t in enumerate(targets))
    results = ", ".join(f"%c{i}" for i in range(len(targets)))
    shapes = ", ".join(f"{t}[{N}]" for t in targets)
    return f"""HloModule convert_{source}

ENTRY %main (x: {source}[{N}]) -> ({shapes}) {{
  %x = {source}[{N}] parameter(0)
{ops}
  ROOT %t = ({shapes}) tuple({results})
}}
"""


@cache
def _runtime(text: str) -> ModuleRuntime:
    """One runtime per module, so kernels compile once for every example."""
    return ModuleRuntime(parse_hlo(text), KernelCache())


def compiled(text: str, inputs: list[np.ndarray]) -> list[np.ndarray]:
    return _runtime(text).run(inputs)


def _dtype(name: str) -> np.dtype[np.generic]:
    return PrimitiveType(name).dtype


def _padded(values: list[float], name: str) -> np.ndarray:
    """`values` then ones up to N elements."""
    return np.array(values + [1] * (N - len(values))).astype(_dtype(name))


# ----------------------------------------------------------------------------- hand-worked values

S32_MIN = -(2**31)
# (a, b) pairs and XLA's results for divide, remainder, shl, shr logical, shr arithmetic.
S32_CASES = [
    ((7, 0), (-1, 7, 7, 7, 7)),
    ((-7, 0), (-1, -7, -7, -7, -7)),
    ((S32_MIN, -1), (S32_MIN, 0, 0, 0, -1)),
    ((-7, 2), (-3, -1, -28, 2**30 - 2, -2)),
    ((1, 32), (0, 1, 0, 0, 0)),
    ((-8, 33), (0, -8, 0, 0, -1)),
    ((5, -1), (-5, 0, 0, 0, 0)),
    ((-5, -3), (1, -2, 0, 0, -1)),
    ((1, 31), (0, 1, S32_MIN, 0, 0)),
]


@pytest.mark.parametrize("run", ["compiled", "reference"])
def test_s32_edges_match_hand_worked_values(run: str) -> None:
    text = binary_module("s32")
    a = _padded([case[0][0] for case in S32_CASES], "s32")
    b = _padded([case[0][1] for case in S32_CASES], "s32")
    outputs = compiled(text, [a, b]) if run == "compiled" else run_reference(text, [a, b])
    for position, (_, expected) in enumerate(S32_CASES):
        got = tuple(int(output[position]) for output in outputs)
        assert got == expected, f"{run}: a={a[position]}, b={b[position]}"


# shift-right-arithmetic reads u8 bits as signed: 200 is -56, 129 is -127.
U8_CASES = [
    ((200, 0), (255, 200, 200, 200, 200)),
    ((200, 3), (66, 2, 64, 25, 249)),
    ((129, 8), (16, 1, 0, 0, 255)),
    ((129, 255), (0, 129, 0, 0, 255)),
    ((129, 7), (18, 3, 128, 1, 255)),
]


@pytest.mark.parametrize("run", ["compiled", "reference"])
def test_u8_edges_match_hand_worked_values(run: str) -> None:
    """Unsigned: x / 0 is all ones; amounts are compared unsigned."""
    text = binary_module("u8")
    a = _padded([case[0][0] for case in U8_CASES], "u8")
    b = _padded([case[0][1] for case in U8_CASES], "u8")
    outputs = compiled(text, [a, b]) if run == "compiled" else run_reference(text, [a, b])
    for position, (_, expected) in enumerate(U8_CASES):
        got = tuple(int(output[position]) for output in outputs)
        assert got == expected, f"{run}: a={a[position]}, b={b[position]}"


CONVERT_TARGETS = ("s8", "u8", "s32", "u32", "s64", "u64", "pred")
F32_VALUES = [1e10, -1e10, math.nan, 200.7, -3.9, 2.0**31, -(2.0**31), 0.5, -0.5, math.inf]
F32_EXPECTED = {
    "s8": [127, -128, 0, 127, -3, 127, -128, 0, 0, 127],
    "u8": [255, 0, 0, 200, 0, 255, 0, 0, 0, 255],
    "s32": [2**31 - 1, S32_MIN, 0, 200, -3, 2**31 - 1, S32_MIN, 0, 0, 2**31 - 1],
    "u32": [2**32 - 1, 0, 0, 200, 0, 2**31, 0, 0, 0, 2**32 - 1],
    "s64": [10**10, -(10**10), 0, 200, -3, 2**31, -(2**31), 0, 0, 2**63 - 1],
    "u64": [10**10, 0, 0, 200, 0, 2**31, 0, 0, 0, 2**64 - 1],
    "pred": [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
}


@pytest.mark.parametrize("run", ["compiled", "reference"])
def test_float_to_int_saturates_and_nan_is_zero(run: str) -> None:
    text = convert_module("f32", CONVERT_TARGETS)
    x = np.zeros(N, np.float32)
    x[: len(F32_VALUES)] = F32_VALUES
    outputs = compiled(text, [x]) if run == "compiled" else run_reference(text, [x])
    for target, output in zip(CONVERT_TARGETS, outputs, strict=True):
        got = [int(v) for v in output[: len(F32_VALUES)]]
        assert got == F32_EXPECTED[target], f"{run}: f32 -> {target}"
    # 1e10 in f32 is 10000000000 exactly; 0.0 converts to false.
    assert not outputs[-1][len(F32_VALUES)]


def test_bf16_limits_round_before_comparing() -> None:
    """bf16(32767) is 32768: bf16 32768 saturates to 32767, bf16 32640 converts exactly."""
    text = convert_module("bf16", ("s16", "u16"))
    x = np.zeros(N, ml_dtypes.bfloat16)
    x[:4] = [32768, 32640, -32768, 65536]
    for outputs in (compiled(text, [x]), run_reference(text, [x])):
        assert [int(v) for v in outputs[0][:4]] == [32767, 32640, -32768, 32767]
        assert [int(v) for v in outputs[1][:4]] == [32768, 32640, 0, 65535]


def test_int_and_pred_to_float() -> None:
    """u32 reads its bits unsigned; pred true is 1.0, never -1.0."""
    text = """HloModule to_float

ENTRY %main (a: u32[4], p: pred[4], s: s64[4]) -> (f32[4], f32[4], bf16[4], s32[4]) {
  %a = u32[4] parameter(0)
  %p = pred[4] parameter(1)
  %s = s64[4] parameter(2)
  %fa = f32[4] convert(%a)
  %fp = f32[4] convert(%p)
  %bs = bf16[4] convert(%s)
  %ip = s32[4] convert(%p)
  ROOT %t = (f32[4], f32[4], bf16[4], s32[4]) tuple(%fa, %fp, %bs, %ip)
}
"""
    a = np.array([2**32 - 1, 2**31, 0, 16777217], np.uint32)
    p = np.array([True, False, True, False])
    s = np.array([-(2**63), 257, -1, 2**63 - 1], np.int64)
    for outputs in (compiled(text, [a, p, s]), run_reference(text, [a, p, s])):
        assert outputs[0].tolist() == [2.0**32, 2.0**31, 0.0, 16777216.0]
        assert outputs[1].tolist() == [1.0, 0.0, 1.0, 0.0]
        assert [float(v) for v in outputs[2]] == [-(2.0**63), 256.0, -1.0, 2.0**63]
        assert outputs[3].tolist() == [1, 0, 1, 0]


# ----------------------------------------------------------------------------- properties


def _edges(name: str) -> list[int]:
    dtype = _dtype(name)
    info = np.iinfo(dtype)  # type: ignore[type-var]
    low, high, bits = int(info.min), int(info.max), info.bits
    values = {0, 1, 2, 3, 7, bits - 1, bits, bits + 1, 2 * bits, low, low + 1, high, high - 1}
    if low < 0:
        values |= {-1, -2, -7, -bits}
    return sorted(v for v in values if low <= v <= high)


def _integer_arrays(name: str) -> st.SearchStrategy[np.ndarray]:
    info = np.iinfo(_dtype(name))  # type: ignore[type-var]
    element = st.one_of(st.sampled_from(_edges(name)), st.integers(int(info.min), int(info.max)))
    return st.lists(element, min_size=N, max_size=N).map(
        lambda values: np.array(values, dtype=_dtype(name))
    )


def _same(expected: list[np.ndarray], actual: list[np.ndarray], what: str) -> None:
    for number, (e, a) in enumerate(zip(expected, actual, strict=True)):
        assert e.dtype == a.dtype, what
        np.testing.assert_array_equal(a.view(np.uint8), e.view(np.uint8), f"{what} out{number}")


@pytest.mark.parametrize("type_", INTEGERS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_integer_ops_compiled_match_the_evaluator(type_: str, data: st.DataObject) -> None:
    a = data.draw(_integer_arrays(type_))
    b = data.draw(_integer_arrays(type_))
    text = binary_module(type_)
    _same(evaluate_module(parse_hlo(text), [a, b]), compiled(text, [a, b]), type_)


def _float_arrays(name: str) -> st.SearchStrategy[np.ndarray]:
    specials = [math.nan, math.inf, -math.inf, 0.0, -0.0, 0.5, -0.5, 127.5, -128.5, 255.5]
    specials += [2.0**k for k in (7, 8, 15, 16, 31, 32, 63, 64)]
    specials += [-(2.0**k) for k in (7, 15, 31, 63)]
    element = st.one_of(
        st.sampled_from(specials),
        st.floats(allow_nan=True, allow_infinity=True),
        st.floats(-(2.0**66), 2.0**66),
    )
    return st.lists(element, min_size=N, max_size=N).map(lambda values: _rounded(values, name))


def _rounded(values: list[float], name: str) -> np.ndarray:
    with np.errstate(over="ignore"):  # beyond f16's range is inf, as intended
        return np.array(values, np.float64).astype(_dtype(name))


@pytest.mark.parametrize("source", FLOATS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_float_to_int_compiled_match_the_evaluator(source: str, data: st.DataObject) -> None:
    x = data.draw(_float_arrays(source))
    text = convert_module(source, (*INTEGERS, "pred"))
    _same(evaluate_module(parse_hlo(text), [x]), compiled(text, [x]), source)


@pytest.mark.parametrize("source", INTEGERS)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_integer_converts_compiled_match_the_evaluator(source: str, data: st.DataObject) -> None:
    """To every integer type (sign- or zero-extended by the source's signedness, or
    truncated), every float type (rounded once) and pred (x != 0)."""
    x = data.draw(_integer_arrays(source))
    targets = tuple(t for t in (*INTEGERS, *FLOATS, "pred") if t != source)
    text = convert_module(source, targets)
    _same(evaluate_module(parse_hlo(text), [x]), compiled(text, [x]), source)


def power_module(type_: str) -> str:
    return f"""HloModule power_{type_}

ENTRY %main (a: {type_}[{N}], b: {type_}[{N}]) -> {type_}[{N}] {{
  %a = {type_}[{N}] parameter(0)
  %b = {type_}[{N}] parameter(1)
  ROOT %p = {type_}[{N}] power(%a, %b)
}}
"""


# XLA lowers integer power by squaring six times (exponent bits 0..5), so 2**64 is 2**0;
# a negative exponent gives 1 for base 1, +-1 by parity for base -1, else 0.
POWER_CASES = {
    "s32": [
        ((2, 64), 1),
        ((3, 65), 3),
        ((-1, -3), -1),
        ((-1, -2), 1),
        ((1, -5), 1),
        ((2, -1), 0),
        ((0, 0), 1),
        ((2, 10), 1024),
        ((2, 31), S32_MIN),
        ((3, 4), 81),
    ],
    # Unsigned exponents with the top bit set count as negative; 255 is base -1.
    "u8": [((3, 200), 0), ((255, 200), 1), ((255, 201), 255), ((1, 200), 1), ((2, 7), 128)],
}


@pytest.mark.parametrize("type_", sorted(POWER_CASES))
@pytest.mark.parametrize("run", ["compiled", "reference"])
def test_integer_power_matches_hand_worked_values(run: str, type_: str) -> None:
    cases = POWER_CASES[type_]
    a = _padded([case[0][0] for case in cases], type_)
    b = _padded([case[0][1] for case in cases], type_)
    text = power_module(type_)
    (output,) = compiled(text, [a, b]) if run == "compiled" else run_reference(text, [a, b])
    assert [int(v) for v in output[: len(cases)]] == [expected for _, expected in cases]
