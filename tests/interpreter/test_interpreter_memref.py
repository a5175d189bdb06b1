"""memref: private allocations, loads/stores through arguments, strided views, copies."""

from __future__ import annotations

import numpy as np

from xla_emit.interpreter import Executor
from xla_emit.ir import parse_mlir


def _run(text: str, inputs: list[np.ndarray]) -> Executor:
    module, source_map = parse_mlir(text, "test.mlir")
    executor = Executor(module, locator=source_map)
    executor.run(inputs)
    return executor


def test_store_through_a_memref_argument_per_lane() -> None:
    text = """
func.func @main(%m: memref<16xi32>) {
  %t = gpu.thread_id  x {xla.range = [0 : index, 15 : index]}
  %v = arith.index_cast %t : index to i32
  %s = arith.muli %v, %v : i32
  memref.store %s, %m[%t] : memref<16xi32>
  return
}
"""
    executor = _run(text, [np.zeros(16, np.int32)])
    np.testing.assert_array_equal(executor.final_arguments[0], np.arange(16) ** 2)


def test_subview_and_copy() -> None:
    # Copy rows 1..2, every other column starting at 1, of a 4x6 matrix into a 2x3 memref.
    text = """
func.func @main(%a: memref<4x6xf32>, %out: memref<2x3xf32>) {
  %v = memref.subview %a[1, 1] [2, 3] [1, 2] : memref<4x6xf32> to memref<2x3xf32, strided<[6, 2], offset: 7>>
  "memref.copy"(%v, %out) : (memref<2x3xf32, strided<[6, 2], offset: 7>>, memref<2x3xf32>) -> ()
  return
}
"""  # noqa: E501 - IR listing, one op per line
    a = np.arange(24, dtype=np.float32).reshape(4, 6)
    executor = _run(text, [a, np.zeros((2, 3), np.float32)])
    np.testing.assert_array_equal(executor.final_arguments[1], a[1:3, 1:6:2])


def test_alloc_is_private_to_each_lane() -> None:
    text = """
func.func @main(%out: memref<8xindex>) {
  %t = gpu.thread_id  x {xla.range = [0 : index, 7 : index]}
  %c0 = arith.constant 0 : index
  %local = memref.alloca() : memref<1xindex>
  memref.store %t, %local[%c0] : memref<1xindex>
  %x = memref.load %local[%c0] : memref<1xindex>
  %y = arith.addi %x, %x : index
  memref.store %y, %out[%t] : memref<8xindex>
  return
}
"""
    executor = _run(text, [np.zeros(8, np.int64)])
    np.testing.assert_array_equal(executor.final_arguments[0], np.arange(8) * 2)
