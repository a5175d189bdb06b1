"""tensor and vector ops: gathers, scatters, transfers with padding, per-lane vectors."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from interpreter_harness import RunKernel

from xla_emit.diagnostics import UserError
from xla_emit.interpreter import CheckOptions

BF16 = ml_dtypes.bfloat16


def test_2d_extract_insert_transposes(run_kernel: RunKernel) -> None:
    text = """
func.func @main(%a: tensor<8x16xf32>, %out: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 15 : index]}
  %b = gpu.block_id  x {xla.range = [0 : index, 7 : index]}
  %x = tensor.extract %a[%b, %t] : tensor<8x16xf32>
  %o = tensor.insert %x into %out[%t, %b] : tensor<16x8xf32>
  return %o : tensor<16x8xf32>
}
"""
    a = np.random.default_rng(0).standard_normal((8, 16)).astype(np.float32)
    (result,) = run_kernel(text, [a])
    np.testing.assert_array_equal(result, a.T)


def test_kernel_local_tensor_is_private_per_lane(run_kernel: RunKernel) -> None:
    # Every lane writes its own id into slot 1 of its own tensor and reads it back.
    text = """
func.func @main(%out: tensor<32xindex>) -> tensor<32xindex> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 31 : index]}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %local = tensor.from_elements %c5, %c5 : tensor<2xindex>
  %w = tensor.insert %t into %local[%c1] : tensor<2xindex>
  %x = tensor.extract %w[%c1] : tensor<2xindex>
  %y = tensor.extract %w[%c0] : tensor<2xindex>
  %s = arith.addi %x, %y : index
  %o = tensor.insert %s into %out[%t] : tensor<32xindex>
  return %o : tensor<32xindex>
}
"""
    (result,) = run_kernel(text, [])
    np.testing.assert_array_equal(result, np.arange(32) + 5)


def test_transfer_read_pads_past_the_end(run_kernel: RunKernel) -> None:
    # Thread t reads a[4t : 4t + 4] from a 10-element tensor; elements past the end read -1.
    text = """
func.func @main(%a: tensor<10xi32>, %out: tensor<3x4xi32>) -> tensor<3x4xi32> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 2 : index]}
  %c4 = arith.constant 4 : index
  %c0 = arith.constant 0 : index
  %pad = arith.constant -1 : i32
  %base = arith.muli %t, %c4 : index
  %v = vector.transfer_read %a[%base], %pad : tensor<10xi32>, vector<4xi32>
  %o = vector.transfer_write %v, %out[%t, %c0] {in_bounds = [true]} : vector<4xi32>, tensor<3x4xi32>
  return %o : tensor<3x4xi32>
}
"""
    a = np.arange(10, dtype=np.int32) + 100
    (result,) = run_kernel(text, [a])
    padded = np.r_[a, [-1, -1]].reshape(3, 4)
    np.testing.assert_array_equal(result, padded)


def test_transfer_write_skips_elements_past_the_end(run_kernel: RunKernel) -> None:
    text = """
func.func @main(%out: tensor<6xf32>) -> tensor<6xf32> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 1 : index]}
  %c4 = arith.constant 4 : index
  %base = arith.muli %t, %c4 : index
  %v = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>
  %o = vector.transfer_write %v, %out[%base] : vector<4xf32>, tensor<6xf32>
  return %o : tensor<6xf32>
}
"""
    (result,) = run_kernel(text, [np.zeros(6, np.float32)])
    np.testing.assert_array_equal(result, [1, 2, 3, 4, 1, 2])


def test_vector_extract_insert_with_lane_varying_positions(run_kernel: RunKernel) -> None:
    # Lane t rotates [10, 11, 12, 13] by writing element (t + k) % 4 to slot k.
    text = """
func.func @main(%out: tensor<8x4xi32>) -> tensor<8x4xi32> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 7 : index]}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %src = arith.constant dense<[10, 11, 12, 13]> : vector<4xi32>
  %zero = arith.constant dense<0> : vector<4xi32>
  %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (vector<4xi32>) {
    %s = arith.addi %t, %k : index
    %p = arith.remui %s, %c4 : index
    %e = vector.extract %src[%p] : i32 from vector<4xi32>
    %n = vector.insert %e, %acc [%k] : i32 into vector<4xi32>
    scf.yield %n : vector<4xi32>
  }
  %o = vector.transfer_write %r, %out[%t, %c0] {in_bounds = [true]} : vector<4xi32>, tensor<8x4xi32>
  return %o : tensor<8x4xi32>
}
"""
    (result,) = run_kernel(text, [])
    expected = [[10 + (t + k) % 4 for k in range(4)] for t in range(8)]
    np.testing.assert_array_equal(result, expected)


def test_broadcast_splat_and_reduction(run_kernel: RunKernel) -> None:
    text = """
func.func @main(%a: tensor<16xbf16>, %out: tensor<16xbf16>) -> tensor<16xbf16> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 15 : index]}
  %x = tensor.extract %a[%t] : tensor<16xbf16>
  %b = vector.broadcast %x : bf16 to vector<3xbf16>
  %s = vector.splat %x : vector<3xbf16>
  %sum = arith.addf %b, %s : vector<3xbf16>
  %r = vector.reduction <add>, %sum : vector<3xbf16> into bf16
  %o = tensor.insert %r into %out[%t] : tensor<16xbf16>
  return %o : tensor<16xbf16>
}
"""
    a = (np.random.default_rng(3).standard_normal(16) * 10).astype(BF16)
    doubled = (a + a).astype(BF16)
    # In order, rounding to bf16 after each addition.
    expected = ((doubled + doubled).astype(BF16) + doubled).astype(BF16)
    (result,) = run_kernel(text, [a])
    np.testing.assert_array_equal(result.view(np.uint16), expected.view(np.uint16))


def test_vector_from_elements_and_fma(run_kernel: RunKernel) -> None:
    text = """
func.func @main(%a: f32, %b: f32) -> vector<2xf32> {
  %v = vector.from_elements %a, %b : vector<2xf32>
  %r = vector.fma %v, %v, %v : vector<2xf32>
  return %r : vector<2xf32>
}
"""
    (result,) = run_kernel(text, [np.float32(2.0), np.float32(-3.0)])
    np.testing.assert_array_equal(result, [2.0 * 2.0 + 2.0, -3.0 * -3.0 - 3.0])


def test_tensor_empty_and_dim(run_kernel: RunKernel) -> None:
    text = """
func.func @main(%n: index, %v: f32) -> (index, f32) {
  %c0 = arith.constant 0 : index
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %d = tensor.dim %e, %c0 : tensor<?x4xf32>
  %w = tensor.insert %v into %e[%c0, %c0] : tensor<?x4xf32>
  %x = tensor.extract %w[%c0, %c0] : tensor<?x4xf32>
  return %d, %x : index, f32
}
"""
    size, value = run_kernel(text, [np.int64(7), np.float32(2.5)])
    assert int(size) == 7 and float(value) == 2.5


# Thread t reads and writes the 4 elements of row t: a chunk's lanes cover one block of memory.
IN_PLACE_ROWS = """
func.func @main(%out: tensor<8x4xi32>) -> tensor<8x4xi32> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 7 : index]}
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0 : i32
  %v = vector.transfer_read %out[%t, %c0], %pad {in_bounds = [true]}
      : tensor<8x4xi32>, vector<4xi32>
  %twice = arith.addi %v, %v : vector<4xi32>
  %o1 = vector.transfer_write %twice, %out[%t, %c0] {in_bounds = [true]}
      : vector<4xi32>, tensor<8x4xi32>
  %u = vector.transfer_read %o1[%t, %c0], %pad {in_bounds = [true]}
      : tensor<8x4xi32>, vector<4xi32>
  %sum = arith.addi %v, %u : vector<4xi32>
  %o2 = vector.transfer_write %sum, %o1[%t, %c0] {in_bounds = [true]}
      : vector<4xi32>, tensor<8x4xi32>
  return %o2 : tensor<8x4xi32>
}
"""


@pytest.mark.parametrize("max_lanes", [8, 4, 1])
def test_a_value_read_keeps_its_elements_when_they_are_overwritten(
    run_kernel: RunKernel, max_lanes: int
) -> None:
    # %v was read before the first write: v + 2v, not 2v + 2v.
    start = np.arange(32, dtype=np.int32).reshape(8, 4)
    (result,) = run_kernel(IN_PLACE_ROWS, [start.copy()], max_lanes=max_lanes)
    np.testing.assert_array_equal(result, 3 * start)


@pytest.mark.parametrize(
    ("row", "expected_rows"),
    [
        ("%t", list(range(8))),
        ("%back", list(range(7, -1, -1))),
        ("%half", [t // 2 for t in range(8)]),
    ],
)
def test_transfer_read_of_rows_in_any_lane_order(
    run_kernel: RunKernel, row: str, expected_rows: list[int]
) -> None:
    text = f"""
func.func @main(%a: tensor<8x4xi32>, %out: tensor<8x4xi32>) -> tensor<8x4xi32> {{
  %t = gpu.thread_id  x {{xla.range = [0 : index, 7 : index]}}
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  %back = arith.subi %c7, %t : index
  %half = arith.divui %t, %c2 : index
  %pad = arith.constant 0 : i32
  %v = vector.transfer_read %a[{row}, %c0], %pad {{in_bounds = [true]}}
      : tensor<8x4xi32>, vector<4xi32>
  %o = vector.transfer_write %v, %out[%t, %c0] {{in_bounds = [true]}}
      : vector<4xi32>, tensor<8x4xi32>
  return %o : tensor<8x4xi32>
}}
"""
    a = np.arange(32, dtype=np.int32).reshape(8, 4) * 10
    (result,) = run_kernel(text, [a, np.zeros((8, 4), np.int32)])
    np.testing.assert_array_equal(result, a[expected_rows])


def test_an_unchecked_block_past_the_end_is_an_error(run_kernel: RunKernel) -> None:
    # Rows t + 1: the last lane's run lies past the end, so the chunk is no block of memory.
    text = """
func.func @main(%a: tensor<8x4xi32>, %out: tensor<8x4xi32>) -> tensor<8x4xi32> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 7 : index]}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %next = arith.addi %t, %c1 : index
  %pad = arith.constant 0 : i32
  %v = vector.transfer_read %a[%next, %c0], %pad {in_bounds = [true]}
      : tensor<8x4xi32>, vector<4xi32>
  %o = vector.transfer_write %v, %out[%t, %c0] {in_bounds = [true]}
      : vector<4xi32>, tensor<8x4xi32>
  return %o : tensor<8x4xi32>
}
"""
    a = np.zeros((8, 4), np.int32)
    message = (
        r"^test.mlir:8:3: error: 'vector.transfer_read' op accesses memory out of bounds "
        r"\(turn bounds checks on to find the lane\)"
    )
    with pytest.raises(UserError, match=message):
        run_kernel(text, [a, a.copy()], checks=CheckOptions(bounds=False))
