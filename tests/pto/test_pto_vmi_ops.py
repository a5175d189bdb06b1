"""`pto.vmi.*` ops run in the PTO executor on our own kernels, against goldens written
lane by lane here (two's-complement integers, PTOAS's zeroing `pmode`, ordered and
unordered float predicates)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from tests.pto.kernel_checks import OFFSETS, UNARY_GOLDENS, run_kernel
from xla_emit.diagnostics import UserError

VF = "!pto.vmi.vreg<64xf32>"
VI = "!pto.vmi.vreg<64xi32>"
MASK = "!pto.vmi.mask<64xpred>"
PF = "!pto.ptr<f32, ub>"
PI = "!pto.ptr<i32, ub>"
rng = np.random.default_rng(5)


def run(
    body: str, buffer: np.ndarray, scalars: str = "", values: tuple = (), pointer: str = ""
) -> None:
    """Run `body` over `%x` (a UB buffer of 192 elements) and `scalars`."""
    pointer = pointer or (PF if buffer.dtype == np.float32 else PI)
    params = f"%x: {pointer}" + (f", {scalars}" if scalars else "")
    run_kernel(f"func.func @k({params}) {{\n{OFFSETS}{body}\n  return\n}}", [buffer, *values])


def binary_kernel(op: str, vreg: str, pointer: str) -> str:
    return f"""  %a = pto.vmi.load %x[%c0] : {pointer} -> {vreg}
  %b = pto.vmi.load %x[%c64] : {pointer} -> {vreg}
  %y = pto.vmi.{op} %a, %b : {vreg}, {vreg} -> {vreg}
  pto.vmi.store %y, %x[%c128] : {vreg}, {pointer}"""


def wrap32(v: int) -> int:
    return (v + 2**31) % 2**32 - 2**31


FLOAT = {
    "addf": lambda a, b: a + b,
    "subf": lambda a, b: a - b,
    "mulf": lambda a, b: a * b,
    "divf": lambda a, b: a / b,
    "maxf": max,
    "minf": min,
}


@pytest.mark.parametrize("op", sorted(FLOAT))
def test_float_binary_ops(op: str) -> None:
    x = rng.uniform(0.5, 4, 192).astype(np.float32)
    before = x.copy()
    run(binary_kernel(op, VF, PF), x)
    for i in range(64):
        want = np.float32(FLOAT[op](float(before[i]), float(before[64 + i])))
        assert x[128 + i] == want, (i, x[128 + i], want)


INTEGER: dict[str, Callable[[int, int], int]] = {
    "addi": lambda a, b: wrap32(a + b),
    "subi": lambda a, b: wrap32(a - b),
    "muli": lambda a, b: wrap32(a * b),
    "maxi": max,
    "mini": min,
    "andi": lambda a, b: a & b,
    "ori": lambda a, b: a | b,
    "xori": lambda a, b: a ^ b,
    "shli": lambda a, b: wrap32(a << b),
    "shrui": lambda a, b: wrap32((a % 2**32) >> b),
}


@pytest.mark.parametrize("op", sorted(INTEGER))
def test_integer_binary_ops_wrap(op: str) -> None:
    x = rng.integers(-(2**31), 2**31 - 1, 192, dtype=np.int64).astype(np.int32)
    if op.startswith("sh"):
        x[64:128] = rng.integers(0, 32, 64)
    before = x.copy()
    run(binary_kernel(op, VI, PI), x)
    want = [INTEGER[op](int(before[i]), int(before[64 + i])) for i in range(64)]
    assert [int(v) for v in x[128:]] == want


def test_shrsi_copies_the_sign() -> None:
    vs = "!pto.vmi.vreg<64xsi32>"
    x = rng.integers(-(2**31), 2**31 - 1, 192, dtype=np.int64).astype(np.int32)
    x[64:128] = rng.integers(0, 32, 64)
    before = x.copy()
    signed = "!pto.ptr<si32, ub>"
    run(binary_kernel("shrsi", vs, signed), x, pointer=signed)
    assert [int(v) for v in x[128:]] == [int(before[i]) >> int(before[64 + i]) for i in range(64)]


def test_a_shift_by_the_width_is_a_located_error() -> None:
    x = np.zeros(192, np.int32)
    x[64] = 32
    with pytest.raises(UserError) as caught:
        run(binary_kernel("shli", VI, PI), x)
    assert "'pto.vmi.shli' op shifts by amounts outside [0, 32)" in caught.value.message


# negf and absf carry the float suffix the integer forms would not.
UNARY = {{"neg": "negf", "abs": "absf"}.get(stem, stem): f for stem, f in UNARY_GOLDENS.items()}


@pytest.mark.parametrize("op", sorted(UNARY))
def test_float_unary_ops(op: str) -> None:
    x = rng.uniform(0.25, 3, 192).astype(np.float32)
    if op in ("negf", "absf", "relu"):
        x[:32] -= 3
    before = x.copy()
    body = f"""  %a = pto.vmi.load %x[%c0] : {PF} -> {VF}
  %y = pto.vmi.{op} %a : {VF} -> {VF}
  pto.vmi.store %y, %x[%c64] : {VF}, {PF}"""
    run(body, x)
    want = [np.float32(UNARY[op](float(v))) for v in before[:64]]
    np.testing.assert_allclose(x[64:128], want, rtol=2e-7)


@pytest.mark.parametrize(("op", "f"), [("vadd", lambda a, b: a + b), ("vmax", max)])
def test_masked_forms_zero_the_inactive_lanes(op: str, f: Callable) -> None:
    x = rng.uniform(-2, 2, 192).astype(np.float32)
    before = x.copy()
    body = f"""  %m = pto.vmi.create_mask %n : index -> {MASK}
  %a = pto.vmi.load %x[%c0] : {PF} -> {VF}
  %b = pto.vmi.load %x[%c64] : {PF} -> {VF}
  %y = pto.vmi.{op} %a, %b, %m : {VF}, {VF}, {MASK} -> {VF}
  pto.vmi.store %y, %x[%c128] : {VF}, {PF}"""
    run(body, x, "%n: index", (23,))
    for i in range(64):
        want = np.float32(f(float(before[i]), float(before[64 + i]))) if i < 23 else 0
        assert x[128 + i] == want, i


def test_merge_mode_is_a_located_error() -> None:
    body = f"""  %m = pto.vmi.pset "PAT_ALL" : {MASK}
  %a = pto.vmi.load %x[%c0] : {PF} -> {VF}
  %y = pto.vmi.vadd %a, %a, %m {{pmode = "merge"}} : {VF}, {VF}, {MASK} -> {VF}"""
    with pytest.raises(UserError) as caught:
        run(body, np.zeros(192, np.float32))
    assert "pmode 'zero', not 'merge'" in caught.value.message


def test_compare_select_and_reductions() -> None:
    """y = (a < b) ? a : broadcast(9); then sum, max and min of y over the first 50 lanes."""
    x = np.arange(192, dtype=np.float32) % 17 - 8  # small integers: every sum is exact
    x[64:128] = rng.integers(-8, 9, 64)
    x[3] = np.nan  # ordered `olt` is false there, unordered `ult` true
    before = x.copy()
    one = "!pto.vmi.vreg<1xf32>"
    body = f"""  %a = pto.vmi.load %x[%c0] : {PF} -> {VF}
  %b = pto.vmi.load %x[%c64] : {PF} -> {VF}
  %nine = pto.vmi.broadcast %c9 : f32 -> {VF}
  %lt = pto.vmi.cmpf "olt", %a, %b : {VF}, {VF} -> {MASK}
  %y = pto.vmi.select %lt, %a, %nine : {MASK}, {VF}, {VF} -> {VF}
  %ult = pto.vmi.cmpf "ult", %a, %b : {VF}, {VF} -> {MASK}
  %z = pto.vmi.select %ult, %nine, %a : {MASK}, {VF}, {VF} -> {VF}
  pto.vmi.store %y, %x[%c128] : {VF}, {PF}
  %m = pto.vmi.create_mask %c50 : index -> {MASK}
  %s = pto.vmi.reduce_addf %y, %m {{reassoc}} : {VF}, {MASK} -> {one}
  %hi = pto.vmi.reduce_maxf %y, %m : {VF}, {MASK} -> {one}
  %lo = pto.vmi.reduce_minf %y, %m : {VF}, {MASK} -> {one}
  pto.vmi.store %s, %x[%c0] : {one}, {PF}
  pto.vmi.store %hi, %x[%c1] : {one}, {PF}
  pto.vmi.store %lo, %x[%c2] : {one}, {PF}
  pto.vmi.store %z, %x[%c64] : {VF}, {PF}"""
    body = "  %c1 = arith.constant 1 : index\n  %c2 = arith.constant 2 : index\n" + body
    run(body, x, "%c9: f32, %c50: index", (9.0, 50))
    y = [float(before[i]) if before[i] < before[64 + i] else 9.0 for i in range(64)]
    z = [9.0 if not before[i] >= before[64 + i] else float(before[i]) for i in range(64)]
    assert [float(v) for v in x[128:]] == y
    assert (x[0], x[1], x[2]) == (sum(y[:50]), max(y[:50]), min(y[:50]))
    np.testing.assert_array_equal(x[64:128], np.array(z, np.float32))


def test_iota_and_integer_reduction() -> None:
    x = np.zeros(192, np.int32)
    one = "!pto.vmi.vreg<1xi32>"
    body = f"""  %v = pto.vmi.iota %base : i32 -> {VI}
  %m = pto.vmi.create_mask %c8 : index -> {MASK}
  %s = pto.vmi.reduce_addi %v, %m : {VI}, {MASK} -> {one}
  pto.vmi.store %v, %x[%c64] : {VI}, {PI}
  pto.vmi.store %s, %x[%c0] : {one}, {PI}"""
    run(body, x, "%base: i32, %c8: index", (100, 8))
    assert list(x[64:128]) == [100 + i for i in range(64)]
    assert x[0] == sum(100 + i for i in range(8))
