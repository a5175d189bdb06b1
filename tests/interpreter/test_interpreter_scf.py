"""scf control flow: uniform loops, lane-varying (masked) if, for and while."""

from __future__ import annotations

import numpy as np
from interpreter_harness import RunKernel

from xla_emit.interpreter import CheckOptions


def test_uniform_for_with_iter_args(run_kernel: RunKernel) -> None:
    text = """
func.func @main(%n: index) -> (index, f32) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %r:2 = scf.for %i = %c0 to %n step %c3 iter_args(%s = %c0, %f = %one) -> (index, f32) {
    %s2 = arith.addi %s, %i : index
    %f2 = arith.addf %f, %f : f32
    scf.yield %s2, %f2 : index, f32
  }
  return %r#0, %r#1 : index, f32
}
"""
    total, doubled = run_kernel(text, [np.int64(10)])
    assert int(total) == sum(range(0, 10, 3))
    assert float(doubled) == 2.0 ** len(range(0, 10, 3))


def test_zero_trip_loop_returns_inits(run_kernel: RunKernel) -> None:
    text = """
func.func @main(%n: index) -> index {
  %c5 = arith.constant 5 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c5 to %n step %c1 iter_args(%s = %c5) -> (index) {
    %s2 = arith.addi %s, %i : index
    scf.yield %s2 : index
  }
  return %r : index
}
"""
    assert int(run_kernel(text, [np.int64(2)])[0]) == 5


MASKED_IF = """
func.func @main(%a: tensor<64xi32>, %out: tensor<64xi32>) -> tensor<64xi32> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 63 : index]}
  %c3 = arith.constant 3 : index
  %c0 = arith.constant 0 : index
  %x = tensor.extract %a[%t] : tensor<64xi32>
  %m = arith.remui %t, %c3 : index
  %is0 = arith.cmpi eq, %m, %c0 : index
  %r = scf.if %is0 -> (i32) {
    %d = arith.muli %x, %x : i32
    scf.yield %d : i32
  } else {
    %c1 = arith.constant 1 : index
    %is1 = arith.cmpi eq, %m, %c1 : index
    %inner = scf.if %is1 -> (i32) {
      %n = arith.subi %x, %x : i32
      scf.yield %n : i32
    } else {
      %k = arith.constant 7 : i32
      scf.yield %k : i32
    }
    scf.yield %inner : i32
  }
  %o = tensor.insert %r into %out[%t] : tensor<64xi32>
  return %o : tensor<64xi32>
}
"""


def test_lane_varying_if_runs_both_branches_masked(run_kernel: RunKernel) -> None:
    a = np.arange(64, dtype=np.int32) - 20
    (result,) = run_kernel(MASKED_IF, [a])
    expected = [x * x if t % 3 == 0 else (0 if t % 3 == 1 else 7) for t, x in enumerate(a.tolist())]
    np.testing.assert_array_equal(result, expected)


def test_masked_branch_writes_only_its_lanes(run_kernel: RunKernel) -> None:
    # Lanes outside the branch must neither write nor be bounds-checked: the
    # index t + 32 is out of bounds exactly for the lanes that skip the write.
    text = """
func.func @main(%out: tensor<64xf32>) -> tensor<64xf32> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 63 : index]}
  %c32 = arith.constant 32 : index
  %low = arith.cmpi ult, %t, %c32 : index
  %one = arith.constant 1.0 : f32
  %r = scf.if %low -> (tensor<64xf32>) {
    %i = arith.addi %t, %c32 : index
    %w = tensor.insert %one into %out[%i] : tensor<64xf32>
    scf.yield %w : tensor<64xf32>
  } else {
    scf.yield %out : tensor<64xf32>
  }
  return %r : tensor<64xf32>
}
"""
    initial = np.zeros(64, np.float32)
    (result,) = run_kernel(text, [initial], checks=CheckOptions())
    np.testing.assert_array_equal(result, np.r_[np.zeros(32), np.ones(32)])


def test_loop_with_lane_varying_bound(run_kernel: RunKernel) -> None:
    # Thread t sums 0..t-1: every lane runs its own trip count.
    text = """
func.func @main(%out: tensor<40xindex>) -> tensor<40xindex> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 39 : index]}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = scf.for %i = %c0 to %t step %c1 iter_args(%acc = %c0) -> (index) {
    %n = arith.addi %acc, %i : index
    scf.yield %n : index
  }
  %o = tensor.insert %s into %out[%t] : tensor<40xindex>
  return %o : tensor<40xindex>
}
"""
    (result,) = run_kernel(text, [])
    np.testing.assert_array_equal(result, [t * (t - 1) // 2 for t in range(40)])


def _collatz_steps(n: int) -> int:
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def test_lane_varying_while(run_kernel: RunKernel) -> None:
    text = """
func.func @main(%out: tensor<50xindex>) -> tensor<50xindex> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 49 : index]}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %start = arith.addi %t, %c1 : index
  %r:2 = scf.while (%n = %start, %steps = %c0) : (index, index) -> (index, index) {
    %more = arith.cmpi ne, %n, %c1 : index
    scf.condition(%more) %n, %steps : index, index
  } do {
  ^bb0(%n: index, %steps: index):
    %rem = arith.remui %n, %c2 : index
    %even = arith.cmpi eq, %rem, %c0 : index
    %half = arith.divui %n, %c2 : index
    %triple = arith.muli %n, %c3 : index
    %odd = arith.addi %triple, %c1 : index
    %next = arith.select %even, %half, %odd : index
    %s = arith.addi %steps, %c1 : index
    scf.yield %next, %s : index, index
  }
  %o = tensor.insert %r#1 into %out[%t] : tensor<50xindex>
  return %o : tensor<50xindex>
}
"""
    (result,) = run_kernel(text, [])
    np.testing.assert_array_equal(result, [_collatz_steps(t + 1) for t in range(50)])


def test_index_switch_per_lane(run_kernel: RunKernel) -> None:
    text = """
func.func @main(%out: tensor<12xindex>) -> tensor<12xindex> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 11 : index]}
  %c4 = arith.constant 4 : index
  %k = arith.remui %t, %c4 : index
  %r = scf.index_switch %k -> index
  case 0 {
    %a = arith.constant 100 : index
    scf.yield %a : index
  }
  case 2 {
    %b = arith.addi %t, %t : index
    scf.yield %b : index
  }
  default {
    %c = arith.constant 7 : index
    scf.yield %c : index
  }
  %o = tensor.insert %r into %out[%t] : tensor<12xindex>
  return %o : tensor<12xindex>
}
"""
    (result,) = run_kernel(text, [])
    expected = [100 if t % 4 == 0 else 2 * t if t % 4 == 2 else 7 for t in range(12)]
    np.testing.assert_array_equal(result, expected)


def test_both_branches_update_one_tensor(run_kernel: RunKernel) -> None:
    # Each lane runs one branch; in SIMT both updates land in the same buffer.
    text = """
func.func @main(%out: tensor<16xi32>) -> tensor<16xi32> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 15 : index]}
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %m = arith.remui %t, %c2 : index
  %even = arith.cmpi eq, %m, %c0 : index
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %r = scf.if %even -> (tensor<16xi32>) {
    %a = tensor.insert %one into %out[%t] : tensor<16xi32>
    scf.yield %a : tensor<16xi32>
  } else {
    %b = tensor.insert %two into %out[%t] : tensor<16xi32>
    scf.yield %b : tensor<16xi32>
  }
  %x = tensor.extract %r[%t] : tensor<16xi32>
  %y = arith.addi %x, %x : i32
  %o = tensor.insert %y into %r[%t] : tensor<16xi32>
  return %o : tensor<16xi32>
}
"""
    (result,) = run_kernel(text, [])
    np.testing.assert_array_equal(result, [2 if t % 2 == 0 else 4 for t in range(16)])
