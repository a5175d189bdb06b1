"""xla / xla_gpu ops: indexing, loops over map domains, calls, predicated and atomic accesses."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from interpreter_harness import RunKernel

from xla_emit.indexing import parse_indexing_map
from xla_emit.interpreter import CheckOptions


@pytest.mark.parametrize("spelling", ["xla", "xla_gpu"])
def test_apply_indexing_matches_the_map(run_kernel: RunKernel, spelling: str) -> None:
    map_text = (
        "(d0, d1)[s0] -> (d0 floordiv 3 + s0 * 7, (d1 mod 5) * 2 - d0), "
        "domain: d0 in [0, 31], d1 in [0, 3], s0 in [0, 10]"
    )
    text = f"""
func.func @main(%out: tensor<4x32x2xindex>) -> tensor<4x32x2xindex> {{
  %t = gpu.thread_id  x {{xla.range = [0 : index, 31 : index]}}
  %b = gpu.block_id  x {{xla.range = [0 : index, 3 : index]}}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %r:2 = {spelling}.apply_indexing #{spelling}.indexing_map<"{map_text}">(%t, %b)[%c9]
  %o1 = tensor.insert %r#0 into %out[%b, %t, %c0] : tensor<4x32x2xindex>
  %o2 = tensor.insert %r#1 into %o1[%b, %t, %c1] : tensor<4x32x2xindex>
  return %o2 : tensor<4x32x2xindex>
}}
"""
    (result,) = run_kernel(text, [])
    # Brute force: Python floor division and modulo at every point.
    expected = [[[t // 3 + 9 * 7, (b % 5) * 2 - t] for t in range(32)] for b in range(4)]
    np.testing.assert_array_equal(result, expected)


def test_loop_skips_points_outside_the_domain(run_kernel: RunKernel) -> None:
    # Thread t visits s0 in [0, 7] with the constraint t + s0 in [0, 9]: it
    # accumulates t * 10 + s0 over the points inside, into its own output slot.
    map_text = "(th)[s0] -> (th * 8 + s0), domain: th in [0, 5], s0 in [0, 7], th + s0 in [0, 9]"
    text = f"""
func.func @main(%out: tensor<6xindex>) -> tensor<6xindex> {{
  %t = gpu.thread_id  x {{xla.range = [0 : index, 5 : index]}}
  %c0 = arith.constant 0 : index
  %c10 = arith.constant 10 : index
  %r = xla_gpu.loop (%t)[%s] -> (%flat) in #xla_gpu.indexing_map<"{map_text}"> iter_args(%acc = %c0) -> (index) {{
    %v = arith.muli %t, %c10 : index
    %w = arith.addi %v, %s : index
    %n = arith.addi %acc, %w : index
    xla_gpu.yield %n : index
  }}
  %o = tensor.insert %r into %out[%t] : tensor<6xindex>
  return %o : tensor<6xindex>
}}
"""  # noqa: E501 - IR listing, one op per line
    (result,) = run_kernel(text, [])
    expected = [sum(t * 10 + s for s in range(8) if t + s <= 9) for t in range(6)]
    np.testing.assert_array_equal(result, expected)


def test_loop_writes_every_element_once(run_kernel: RunKernel) -> None:
    # The seed's loop-emitter map at a small size: each element is written by exactly one lane.
    map_text = (
        "(th_x, bl_x)[vector_index] -> (bl_x floordiv 4, (bl_x floordiv 2) mod 2, "
        "(bl_x mod 2) * 8 + th_x * 4 + vector_index), "
        "domain: th_x in [0, 1], bl_x in [0, 11], vector_index in [0, 3]"
    )
    text = f"""
func.func @main(%in: tensor<3x2x16xf32>, %out: tensor<3x2x16xf32>) -> tensor<3x2x16xf32> {{
  %t = gpu.thread_id  x {{xla.range = [0 : index, 1 : index]}}
  %b = gpu.block_id  x {{xla.range = [0 : index, 11 : index]}}
  %r = xla.loop (%t, %b)[%v] -> (%i, %j, %k) in #xla.indexing_map<"{map_text}"> iter_args(%iter = %out) -> (tensor<3x2x16xf32>) {{
    %x = tensor.extract %in[%i, %j, %k] : tensor<3x2x16xf32>
    %y = xla.pure_call @twice(%x) : (f32) -> f32
    %w = tensor.insert %y into %iter[%i, %j, %k] : tensor<3x2x16xf32>
    xla.yield %w : tensor<3x2x16xf32>
  }}
  return %r : tensor<3x2x16xf32>
}}
func.func private @twice(%x: f32) -> f32 {{
  %y = arith.addf %x, %x : f32
  return %y : f32
}}
"""  # noqa: E501 - IR listing, one op per line
    a = np.random.default_rng(4).standard_normal((3, 2, 16)).astype(np.float32)
    (result,) = run_kernel(text, [a], checks=CheckOptions())
    np.testing.assert_array_equal(result, a + a)
    indexing_map = parse_indexing_map(map_text)
    points = [
        indexing_map.evaluate([t, b], [v])
        for t, b, v in itertools.product(range(2), range(12), range(4))
    ]
    assert len(set(points)) == a.size


def test_predicated_insert_and_extract(run_kernel: RunKernel) -> None:
    text = """
func.func @main(%a: tensor<8xi32>, %out: tensor<8xi32>) -> tensor<8xi32> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 7 : index]}
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %fallback = arith.constant -1 : i32
  %low = arith.cmpi ult, %t, %c4 : index
  %shifted = arith.addi %t, %c4 : index
  %x = xla.predicated_extract %a[%shifted] if %low else %fallback : tensor<8xi32>
  %keep = arith.cmpi ne, %t, %c6 : index
  %o = xla.predicated_insert %x into %out[%t] if %keep : tensor<8xi32>
  return %o : tensor<8xi32>
}
"""
    a = np.arange(8, dtype=np.int32) * 10
    (result,) = run_kernel(text, [a])
    # Thread 6 does not store: its element keeps the output's initial 0.
    np.testing.assert_array_equal(result, [40, 50, 60, 70, -1, -1, 0, -1])


def test_atomic_rmw_serialises_conflicting_lanes(run_kernel: RunKernel) -> None:
    # 2 blocks x 32 threads add their thread id into bucket t % 4: racing plain
    # stores would lose updates; atomics must not, and are not races.
    text = """
func.func @main(%out: tensor<4xi32>) -> tensor<4xi32> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 31 : index]}
  %b = gpu.block_id  x {xla.range = [0 : index, 1 : index]}
  %c4 = arith.constant 4 : index
  %bucket = arith.remui %t, %c4 : index
  %v = arith.index_cast %t : index to i32
  %r = xla.atomic_rmw %out[%bucket] : tensor<4xi32> {
  ^bb0(%current: i32):
    %s = arith.addi %current, %v : i32
    xla.yield %s : i32
  }
  return %r : tensor<4xi32>
}
"""
    (result,) = run_kernel(text, [np.zeros(4, np.int32)], checks=CheckOptions())
    expected = [2 * sum(t for t in range(32) if t % 4 == bucket) for bucket in range(4)]
    np.testing.assert_array_equal(result, expected)


def test_workgroup_id_defines_the_grid(run_kernel: RunKernel) -> None:
    text = """
func.func @main(%out: tensor<5xindex>) -> tensor<5xindex> {
  %w = xla.workgroup_id x {xla.range = [0 : index, 4 : index]}
  %s = arith.muli %w, %w : index
  %o = tensor.insert %s into %out[%w] : tensor<5xindex>
  return %o : tensor<5xindex>
}
"""
    (result,) = run_kernel(text, [])
    np.testing.assert_array_equal(result, np.arange(5) ** 2)


SHARED_SLICE_KERNEL = """
func.func @main(%in: tensor<4xi32> {{xla.slice_index = 0 : i64}},
                %out: tensor<4xi32> {{xla.slice_index = {out_slice} : i64}}) -> tensor<4xi32> {{
  %t = gpu.thread_id  x {{xla.range = [0 : index, 1 : index]}}
  %c7 = arith.constant 7 : i32
  %o = tensor.insert %c7 into %out[%t] : tensor<4xi32>
  return %o : tensor<4xi32>
}}
"""


def test_an_output_sharing_an_inputs_slice_starts_as_that_input(run_kernel: RunKernel) -> None:
    # In-place kernels write only some elements; the rest are the input's (one buffer).
    text = SHARED_SLICE_KERNEL.format(out_slice=0)
    (result,) = run_kernel(text, [np.array([1, 2, 3, 4], np.int32)], checks=CheckOptions())
    np.testing.assert_array_equal(result, [7, 7, 3, 4])


def test_an_output_in_its_own_slice_starts_as_zeros(run_kernel: RunKernel) -> None:
    text = SHARED_SLICE_KERNEL.format(out_slice=1)
    (result,) = run_kernel(text, [np.array([1, 2, 3, 4], np.int32)])
    np.testing.assert_array_equal(result, [7, 7, 0, 0])
