"""SIMT ops run in the PTO executor on our own kernels: a section's threads, global
loads and stores, atomics and integer products, against goldens worked here."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from tests.pto.kernel_checks import a5_kernel, run_kernel
from xla_emit.diagnostics import UserError

GF = "!pto.ptr<f32, gm>"
GI = "!pto.ptr<i32, gm>"
rng = np.random.default_rng(3)


def run(params: str, body: str, args: list[object], threads: str = "8 : i32, 2 : i32") -> None:
    section = f"    pto.section.simt<<<{threads}, 1 : i32>>> {{\n{body}\n    }}"
    run_kernel(a5_kernel(params, section), args)


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


def test_lane_collectives_under_control_flow_are_located_errors() -> None:
    body = """      %x = pto.get_tid_x : i32
      %c = arith.constant true
      scf.if %c {
        %r = pto.redux_add %x : i32 -> i32
      }"""
    with pytest.raises(UserError) as caught:
        run("", body, [])
    assert (
        caught.value.message == "'scf.if' op lane collectives run in straight-line SIMT code only"
    )


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


def lane_kernel(op_line: str, out_type: str = "i32") -> str:
    """Thread t loads vals[t], runs `op_line` (defining %r from %v), stores %r to out[t]."""
    pointer = GI if out_type == "i32" else GF
    return f"""      %t32 = pto.get_tid_x : i32
      %t = arith.index_cast %t32 : i32 to index
      %v = pto.ldg %vals[%t] : {pointer} -> {out_type}
      {op_line}
      pto.stg %r, %out[%t] : {pointer}, {out_type}"""


def run_lanes(op_line: str, values: np.ndarray) -> np.ndarray:
    pointer = GI if values.dtype == np.int32 else GF
    out = np.zeros_like(values)
    body = lane_kernel(op_line, "i32" if values.dtype == np.int32 else "f32")
    run(f"%vals: {pointer}, %out: {pointer}", body, [values, out], threads="64 : i32, 1 : i32")
    return out


def test_redux_returns_each_warps_reduction_to_every_lane() -> None:
    values = rng.integers(-1000, 1000, 64).astype(np.int32)
    values[40] = -5  # the unsigned maximum of the second warp: 2^32 - 5
    got = run_lanes("%r = pto.redux_add %v signed : i32 -> i32", values)
    assert list(got) == [sum(values[:32].tolist())] * 32 + [sum(values[32:].tolist())] * 32
    got = run_lanes("%r = pto.redux_max %v unsigned : i32 -> i32", values)
    unsigned = [v % 2**32 for v in values.tolist()]
    wrap = [m - 2**32 if m >= 2**31 else m for m in (max(unsigned[:32]), max(unsigned[32:]))]
    assert list(got) == [wrap[0]] * 32 + [wrap[1]] * 32
    got = run_lanes("%r = pto.redux_min %v signed : i32 -> i32", values)
    assert list(got) == [min(values[:32].tolist())] * 32 + [min(values[32:].tolist())] * 32


@pytest.mark.parametrize(
    ("kind", "control", "source"),
    [
        ("idx", 5, lambda t: 32 * (t // 32) + 5),
        ("bfly", 3, lambda t: 32 * (t // 32) + (t % 32 ^ 3)),
    ],
)
def test_shuffles_read_another_lane_of_the_subgroup(
    kind: str, control: int, source: Callable[[int], int]
) -> None:
    values = rng.uniform(-1, 1, 64).astype(np.float32)
    line = (
        f"%c = arith.constant {control} : i32\n"
        f"      %r = pto.shuffle_{kind} %v, %c : f32, i32 -> f32"
    )
    got = run_lanes(line, values)
    assert got.tolist() == [values[source(t)] for t in range(64)]


def test_shuffle_down_in_a_16_lane_subgroup_and_its_edge() -> None:
    values = np.arange(64, dtype=np.int32) * 10
    line = (
        "%c = arith.constant 1 : i32\n"
        "      %r = pto.shuffle_down %v, %c {width = 16 : i32} : i32, i32 -> i32"
    )
    with pytest.raises(UserError) as caught:
        run_lanes(line, values)  # lane 15 would read lane 16, outside its subgroup
    assert (
        "'pto.shuffle_down' op lane 15 reads lane 16, outside its subgroup" in caught.value.message
    )


def test_votes_over_each_warp() -> None:
    """Lane t votes t % 3 == 0 (warp 0) or true (warp 1)."""
    values = np.array([int(t % 3 == 0 or t >= 32) for t in range(64)], np.int32)
    for kind, want in (
        ("any", [1] * 64),
        ("all", [0] * 32 + [1] * 32),
        ("uni", [0] * 32 + [1] * 32),
        ("ballot", [sum(1 << t for t in range(0, 32, 3))] * 32 + [-1] * 32),
    ):
        result = "i32" if kind == "ballot" else "i1"
        line = (
            "%zero = arith.constant 0 : i32\n"
            "      %p = arith.cmpi ne, %v, %zero : i32\n"
            f"      %b = pto.vote_{kind} %p : i1 -> {result}\n"
            + (
                "      %r = arith.addi %b, %zero : i32"
                if kind == "ballot"
                else "      %r = arith.extui %b : i1 to i32"
            )
        )
        assert list(run_lanes(line, values)) == want, kind


def test_lane_ids_count_within_each_warp() -> None:
    got = run_lanes("%r = pto.get_laneid : i32", np.zeros(64, np.int32))
    assert list(got) == [t % 32 for t in range(64)]


def test_block_flags_order_nothing_in_a_sequential_run() -> None:
    """Flags and cache maintenance around a store leave its value as it is."""
    x = np.zeros(4, np.float32)
    text = f"""module attributes {{pto.target_arch = "a5"}} {{
  func.func @k(%x: {GF}, %u: !pto.ptr<i32, ub>, %v: f32) {{
    %c1 = arith.constant 1 : index
    pto.set_intra_block <PIPE_FIX>, 3
    pto.wait_intra_block <PIPE_FIX>, 3
    pto.set_cross_block <PIPE_MTE3>, 0
    pto.wait_cross_block <PIPE_MTE3>, 0
    pto.dsb "UB"
    pto.dcci %u "SINGLE_CACHE_LINE", "CACHELINE_UB" : !pto.ptr<i32, ub>
    pto.section.simt<<<1 : i32, 1 : i32, 1 : i32>>> {{
      pto.stg %v, %x[%c1] : {GF}, f32
    }}
    return
  }}
}}"""
    run_kernel(text, [x, np.zeros(8, np.int32), 2.5])
    assert x.tolist() == [0.0, 2.5, 0.0, 0.0]
