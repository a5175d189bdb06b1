"""SIMT ops run in the PTO executor on our own kernels: a section's threads, global
loads and stores, atomics and integer products, against goldens worked here."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.interpreter.pto import PTOExecutor
from xla_emit.ir import parse_mlir, verify_module

GF = "!pto.ptr<f32, gm>"
GI = "!pto.ptr<i32, gm>"
rng = np.random.default_rng(3)


def run(params: str, body: str, args: list[object], threads: str = "8 : i32, 2 : i32") -> None:
    text = f"""module attributes {{pto.target_arch = "a5"}} {{
  func.func @k({params}) {{
    pto.section.simt<<<{threads}, 1 : i32>>> {{
{body}
    }}
    return
  }}
}}"""
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)
    PTOExecutor(module).run("k", args)


def thread_index() -> str:
    """%t = tid.y * block_dim.x + tid.x, as an index."""
    return """      %tx = pto.get_tid_x : i32
      %ty = pto.get_tid_y : i32
      %nx = pto.get_block_dim_x : i32
      %row = arith.muli %ty, %nx : i32
      %t32 = arith.addi %row, %tx : i32
      %t = arith.index_cast %t32 : i32 to index"""


def test_each_thread_loads_scales_and_stores_its_element() -> None:
    x = rng.uniform(-4, 4, 16).astype(np.float32)
    y = np.zeros(16, np.float32)
    body = f"""{thread_index()}
      %v = pto.ldg %x[%t] : {GF} -> f32
      %w = arith.mulf %v, %v : f32
      pto.stg %w, %y[%t] : {GF}, f32"""
    run(f"%x: {GF}, %y: {GF}", body, [x, y])
    assert [float(v) for v in y] == [float(np.float32(v * v)) for v in x]


@pytest.mark.parametrize(
    ("op", "signedness", "fold"),
    [
        ("atomic_add", "signed", lambda acc, v: (acc + v + 2**31) % 2**32 - 2**31),
        ("atomic_sub", "signed", lambda acc, v: (acc - v + 2**31) % 2**32 - 2**31),
        ("atomic_and", "signed", lambda acc, v: acc & v),
        ("atomic_or", "signed", lambda acc, v: acc | v),
        ("atomic_xor", "signed", lambda acc, v: acc ^ v),
        ("atomic_max", "signed", max),
        ("atomic_min", "signed", min),
        ("atomic_max", "unsigned", lambda acc, v: acc if acc % 2**32 >= v % 2**32 else v),
    ],
)
def test_atomics_fold_every_threads_value(
    op: str, signedness: str, fold: Callable[[int, int], int]
) -> None:
    """Sixteen threads fold their element into one counter; each gets the old value."""
    values = rng.integers(-(2**31), 2**31 - 1, 16, dtype=np.int64).astype(np.int32)
    counter = np.array([12345], np.int32)
    olds = np.zeros(16, np.int32)
    body = f"""{thread_index()}
      %v = pto.ldg %vals[%t] : {GI} -> i32
      %old = pto.{op} %c, %v l2cache(nmfv) {signedness} : {GI}, i32 -> i32
      pto.stg %old, %olds[%t] : {GI}, i32"""
    run(f"%vals: {GI}, %c: {GI}, %olds: {GI}", body, [values, counter, olds])
    acc = 12345
    for t in range(16):  # threads run in order: x fastest, then y
        assert olds[t] == acc
        acc = fold(acc, int(values[t]))
    assert counter[0] == acc


def test_exchange_and_compare_and_swap() -> None:
    """Each thread swaps its id in; a CAS from 0 to 100 succeeds once."""
    slot = np.array([-1], np.int32)
    flag = np.array([0], np.int32)
    seen = np.zeros(16, np.int32)
    won = np.zeros(16, np.int32)
    body = f"""{thread_index()}
      %old = pto.atomic_exch %slot, %t32 l2cache(nmfv) signed : {GI}, i32 -> i32
      pto.stg %old, %seen[%t] : {GI}, i32
      %zero = arith.constant 0 : i32
      %hundred = arith.constant 100 : i32
      %was = pto.atomic_cas %flag, %zero, %hundred l2cache(nmfv) : {GI}, i32 -> i32
      pto.stg %was, %won[%t] : {GI}, i32"""
    params = f"%slot: {GI}, %flag: {GI}, %seen: {GI}, %won: {GI}"
    run(params, body, [slot, flag, seen, won])
    assert list(seen) == [-1, *range(15)] and slot[0] == 15
    assert list(won) == [0] + [100] * 15 and flag[0] == 100


def test_float_atomic_add_sums_in_thread_order() -> None:
    values = rng.uniform(-1, 1, 16).astype(np.float32)
    total = np.zeros(1, np.float32)
    body = f"""{thread_index()}
      %v = pto.ldg %vals[%t] : {GF} -> f32
      %old = pto.atomic_add %sum, %v l2cache(nmfv) : {GF}, f32 -> f32"""
    run(f"%vals: {GF}, %sum: {GF}", body, [values, total])
    want = np.float32(0)
    for v in values:
        want = np.float32(want + v)
    assert total[0] == want


@pytest.mark.parametrize(
    ("a", "b", "signedness", "high", "whole"),
    [
        (-3, 7, "signed", -1, -21),
        (2**31 - 1, 2**31 - 1, "signed", 2**30 - 1, (2**31 - 1) ** 2),
        (-1, -1, "unsigned", -2, (2**32 - 1) ** 2 - 2**64),  # 0xFFFFFFFE, then wrapped
        (-(2**31), 2, "signed", -1, -(2**32)),
    ],
)
def test_mulhi_and_mul_i32toi64(a: int, b: int, signedness: str, high: int, whole: int) -> None:
    out = np.zeros(1, np.int32)
    wide = np.zeros(1, np.int64)
    body = f"""      %c0 = arith.constant 0 : index
      %h = pto.mulhi %a, %b {signedness} : i32, i32 -> i32
      %w = pto.mul_i32toi64 %a, %b {signedness} : i32, i32 -> i64
      pto.stg %h, %out[%c0] : {GI}, i32
      pto.stg %w, %wide[%c0] : !pto.ptr<i64, gm>, i64"""
    params = f"%a: i32, %b: i32, %out: {GI}, %wide: !pto.ptr<i64, gm>"
    run(params, body, [a, b, out, wide], threads="1 : i32, 1 : i32")
    assert (int(out[0]), int(wide[0])) == (high, whole)


def test_warp_reductions_are_located_errors() -> None:
    body = """      %x = pto.get_tid_x : i32
      %r = pto.redux_add %x : i32 -> i32"""
    with pytest.raises(UserError) as caught:
        run("", body, [])
    assert caught.value.message.startswith("'pto.redux_add' op the PTO executor cannot run")


def test_a_load_outside_the_buffer_is_a_located_error() -> None:
    body = f"""{thread_index()}
      %v = pto.ldg %x[%t] : {GF} -> f32"""
    with pytest.raises(UserError) as caught:
        run(f"%x: {GF}", body, [np.zeros(4, np.float32)])
    assert "'pto.ldg' op element 4 is outside the 4-element buffer" in caught.value.message


@pytest.mark.parametrize(
    ("mode", "signedness", "values"),
    [
        # 2.5, -2.5, 3.7, -3.7, 1e10, -1e10 rounded each way, then saturated.
        ("r", "signed", [2, -2, 4, -4, 2**31 - 1, -(2**31)]),
        ("a", "signed", [3, -3, 4, -4, 2**31 - 1, -(2**31)]),
        ("f", "signed", [2, -3, 3, -4, 2**31 - 1, -(2**31)]),
        ("c", "signed", [3, -2, 4, -3, 2**31 - 1, -(2**31)]),
        ("z", "signed", [2, -2, 3, -3, 2**31 - 1, -(2**31)]),
        ("z", "unsigned", [2, 0, 3, 0, -1, 0]),  # 2^32 - 1 reads back as i32 -1
    ],
)
def test_convert_rounds_then_saturates(mode: str, signedness: str, values: list[int]) -> None:
    x = np.array([2.5, -2.5, 3.7, -3.7, 1e10, -1e10], np.float32)
    out = np.zeros(6, np.int32)
    body = f"""      %t = arith.index_cast %t32 : i32 to index
      %v = pto.ldg %x[%t] : {GF} -> f32
      %i = pto.convert %v round({mode}) sat {signedness} : f32 -> i32
      pto.stg %i, %out[%t] : {GI}, i32"""
    body = "      %t32 = pto.get_tid_x : i32\n" + body
    run(f"%x: {GF}, %out: {GI}", body, [x, out], threads="6 : i32, 1 : i32")
    assert list(out) == values
