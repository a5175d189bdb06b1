"""VPTO register ops run in the PTO executor on our own kernels, against goldens
written lane by lane here from PTOAS's micro-ISA pages (zeroing predication: an
inactive lane is 0; `vcadd`'s sum in lane 0; `plt` counts lanes down)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from tests.pto.kernel_checks import OFFSETS, UNARY_GOLDENS, run_kernel
from xla_emit.diagnostics import UserError

V = "!pto.vreg<64xf32>"
VI = "!pto.vreg<64xi32>"
M = "!pto.mask<b32>"
P = "!pto.ptr<f32, ub>"
PI = "!pto.ptr<i32, ub>"
rng = np.random.default_rng(11)


def run(body: str, buffers: list[np.ndarray], params: str, scalars: tuple = ()) -> None:
    """Run `body` in a vector scope with `params` (buffers first, then scalars)."""
    scope = f"  pto.vecscope {{\n{body}\n  }}"
    run_kernel(f"func.func @k({params}) {{\n{OFFSETS}{scope}\n  return\n}}", [*buffers, *scalars])


def lanes(values: list[float], active: list[bool]) -> np.ndarray:
    return np.array([v if a else 0.0 for v, a in zip(values, active, strict=True)], np.float32)


BINARY = {
    "vadd": lambda a, b: a + b,
    "vsub": lambda a, b: a - b,
    "vmul": lambda a, b: a * b,
    "vdiv": lambda a, b: a / b,
    "vmax": lambda a, b: a if a > b else b,
    "vmin": lambda a, b: a if a < b else b,
}


@pytest.mark.parametrize("op", sorted(BINARY))
def test_binary_ops_under_a_tail_mask(op: str) -> None:
    """`plt_b32 %n` makes the first n lanes active; the others are 0."""
    x = rng.uniform(1, 4, 192).astype(np.float32)
    n = 40
    body = f"""    %m, %rest = pto.plt_b32 %n : i32 -> {M}, i32
    %a = pto.vlds %x[%c0] : {P} -> {V}
    %b = pto.vlds %x[%c64] : {P} -> {V}
    %y = pto.{op} %a, %b, %m : {V}, {V}, {M} -> {V}
    %all = pto.pset_b32 "PAT_ALL" : {M}
    pto.vsts %y, %x[%c128], %all : {V}, {P}, {M}"""
    before = x.copy()
    run(body, [x], f"%x: {P}, %n: i32", (n,))
    f = BINARY[op]
    want = lanes(
        [
            float(np.float32(f(np.float32(before[i]), np.float32(before[64 + i]))))
            for i in range(64)
        ],
        [i < n for i in range(64)],
    )
    np.testing.assert_array_equal(x[128:], want)
    np.testing.assert_array_equal(x[:128], before[:128])


UNARY = {f"v{stem}": f for stem, f in UNARY_GOLDENS.items()}


@pytest.mark.parametrize("op", sorted(UNARY))
def test_unary_ops_under_a_pattern_mask(op: str) -> None:
    x = rng.uniform(0.5, 3, 128).astype(np.float32)
    if op in ("vabs", "vneg", "vrelu"):
        x[:64] -= 2
    body = f"""    %m = pto.pset_b32 "PAT_VL16" : {M}
    %a = pto.vlds %x[%c0] : {P} -> {V}
    %y = pto.{op} %a, %m : {V}, {M} -> {V}
    %all = pto.pge_b32 "PAT_ALL" : {M}
    pto.vsts %y, %x[%c64], %all : {V}, {P}, {M}"""
    before = x.copy()
    run(body, [x], f"%x: {P}")
    want = lanes([UNARY[op](float(v)) for v in before[:64]], [i < 16 for i in range(64)])
    np.testing.assert_allclose(x[64:], want, rtol=2e-7)


@pytest.mark.parametrize(
    ("op", "f"),
    [
        ("vand", lambda a, b: a & b),
        ("vor", lambda a, b: a | b),
        ("vxor", lambda a, b: a ^ b),
    ],
)
def test_integer_bit_ops_are_exact(op: str, f: Callable[[int, int], int]) -> None:
    x = rng.integers(-(2**31), 2**31 - 1, 192, dtype=np.int64).astype(np.int32)
    body = f"""    %m = pto.pset_b32 "PAT_ALL" : {M}
    %a = pto.vlds %x[%c0] : {PI} -> {VI}
    %b = pto.vlds %x[%c64] : {PI} -> {VI}
    %y = pto.{op} %a, %b, %m : {VI}, {VI}, {M} -> {VI}
    pto.vsts %y, %x[%c128], %m : {VI}, {PI}, {M}"""
    before = x.copy()
    run(body, [x], f"%x: {PI}")
    want = [f(int(before[i]), int(before[64 + i])) for i in range(64)]
    assert [int(v) for v in x[128:]] == want


def test_scalar_forms_broadcast_select_and_compare() -> None:
    """y = (a > 1.5) ? max(a * 2, 3) : vbr(7), stored only on the lanes where a < 2.5."""
    x = rng.uniform(0, 4, 128).astype(np.float32)
    body = f"""    %m = pto.pset_b32 "PAT_ALL" : {M}
    %a = pto.vlds %x[%c0] : {P} -> {V}
    %d = pto.vmuls %a, %two, %m : {V}, f32, {M} -> {V}
    %e = pto.vmaxs %d, %three, %m : {V}, f32, {M} -> {V}
    %s = pto.vbr %seven : f32 -> {V}
    %gt = pto.vcmps %a, %limit, %m, "gt" : {V}, f32, {M} -> {M}
    %y = pto.vsel %e, %s, %gt : {V}, {V}, {M} -> {V}
    %lt = pto.vcmps %a, %upper, %m, "lt" : {V}, f32, {M} -> {M}
    pto.vsts %y, %x[%c64], %lt : {V}, {P}, {M}"""
    before = x.copy()
    params = f"%x: {P}, %two: f32, %three: f32, %seven: f32, %limit: f32, %upper: f32"
    run(body, [x], params, (2.0, 3.0, 7.0, 1.5, 2.5))
    for i in range(64):
        a = float(before[i])
        y = max(a * 2, 3.0) if a > 1.5 else 7.0
        assert x[64 + i] == (np.float32(y) if a < 2.5 else before[64 + i]), i


def test_vcadd_sums_active_lanes_into_lane_zero_and_plt_counts_down() -> None:
    x = np.arange(1, 129, dtype=np.float32)  # small integers: every sum is exact
    body = f"""    %m0, %rest = pto.plt_b32 %n : i32 -> {M}, i32
    %m1, %rest2 = pto.plt_b32 %rest : i32 -> {M}, i32
    %a = pto.vlds %x[%c0] : {P} -> {V}
    %s = pto.vcadd %a, %m1 : {V}, {M} -> {V}
    %all = pto.pset_b32 "PAT_ALL" : {M}
    pto.vsts %s, %x[%c64], %all : {V}, {P}, {M}"""
    run(body, [x], f"%x: {P}, %n: i32", (64 + 10,))
    # The second plt sees 74 - 64 = 10 lanes: 1 + 2 + ... + 10 = 55.
    assert x[64] == 55 and not x[65:].any()


def test_unmodelled_forms_are_located_errors() -> None:
    x = np.zeros(64, np.float32)
    for body, message in (
        (f'    %a = pto.vlds %x[%c0] {{dist = "BRC_B32"}} : {P} -> {V}', "distribution 'BRC_B32'"),
        (f'    %m = pto.pset_b32 "PAT_M3" : {M}', "mask pattern 'PAT_M3'"),
        (f"    %a = pto.vlds %x[%c64] : {P} -> {V}", "lanes [64, 128) fall outside 64"),
    ):
        with pytest.raises(UserError) as caught:
            run(body, [x], f"%x: {P}")
        assert message in caught.value.message


@pytest.mark.parametrize(
    ("mode", "want"),
    [
        ("R", [2.0, -2.0, 4.0, -4.0, 0.0, 2.0]),
        ("A", [3.0, -3.0, 4.0, -4.0, 0.0, 3.0]),
        ("F", [2.0, -3.0, 3.0, -4.0, 0.0, 2.0]),
        ("C", [3.0, -2.0, 4.0, -3.0, 1.0, 3.0]),
        ("Z", [2.0, -2.0, 3.0, -3.0, 0.0, 2.0]),
    ],
)
def test_vtrc_rounds_each_lane_to_an_integer_value(mode: str, want: list[float]) -> None:
    x = np.zeros(128, np.float32)
    x[:6] = [2.5, -2.5, 3.7, -3.7, 0.25, 2.5]
    body = f"""    %m = pto.pset_b32 "PAT_VL5" : {M}
    %a = pto.vlds %x[%c0] : {P} -> {V}
    %y = pto.vtrc %a, %m, "{mode}" : {V}, {M} -> {V}
    %all = pto.pset_b32 "PAT_ALL" : {M}
    pto.vsts %y, %x[%c64], %all : {V}, {P}, {M}"""
    run(body, [x], f"%x: {P}")
    assert x[64:69].tolist() == want[:5] and x[69] == 0  # lane 5 is inactive: 0
