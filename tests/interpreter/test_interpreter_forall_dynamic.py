"""scf.forall with bounds and steps read at run time: the forall runs in each lane.

The oracles are Python's `range` (the iterations MLIR defines: lb, lb + step,
... below ub, none when ub <= lb) and numpy slicing, written here without the
interpreter.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.interpreter import CheckOptions, Executor
from xla_emit.ir import parse_mlir


def run(text: str, inputs: Sequence[np.ndarray | np.generic]) -> tuple[list[np.ndarray], Executor]:
    module, source_map = parse_mlir(text, "test.mlir")
    executor = Executor(module, checks=CheckOptions(), locator=source_map)
    return executor.run(inputs), executor


def error_of(text: str, inputs: Sequence[np.ndarray | np.generic]) -> str:
    with pytest.raises(UserError) as caught:
        run(text, inputs)
    return caught.value.format().splitlines()[0]


STEPPED = """\
func.func @main(%lb: index, %ub: index, %s: index, %out: tensor<16xi64>) -> tensor<16xi64> {
  %r = scf.forall (%i) = (%lb) to (%ub) step (%s) shared_outs(%o = %out) -> (tensor<16xi64>) {
    %c10 = arith.constant 10 : index
    %v = arith.muli %i, %c10 : index
    %x = arith.index_cast %v : index to i64
    %piece = tensor.from_elements %x : tensor<1xi64>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %piece into %o[%i] [1] [1] : tensor<1xi64> into tensor<16xi64>
    }
  }
  return %r : tensor<16xi64>
}
"""


@pytest.mark.parametrize(
    ("lower", "upper", "step"),
    [(0, 16, 1), (1, 16, 3), (2, 15, 4), (5, 6, 7), (7, 7, 1), (9, 3, 2), (0, 16, 16)],
)
def test_run_time_bounds_give_the_iterations_of_range(lower: int, upper: int, step: int) -> None:
    (result,), executor = run(STEPPED, [np.int64(lower), np.int64(upper), np.int64(step)])
    expected = np.zeros(16, np.int64)
    for i in range(lower, upper, step):
        expected[i] = 10 * i
    np.testing.assert_array_equal(result, expected)
    # The forall does not size the grid: one thread runs every iteration.
    assert executor.grid.threads == (1, 1, 1)


def test_the_same_forall_with_constant_bounds_maps_threads_and_agrees() -> None:
    text = STEPPED.replace("(%lb) to (%ub) step (%s)", "(1) to (16) step (3)")
    (result,), executor = run(text, [np.int64(0), np.int64(0), np.int64(0)])
    assert executor.grid.threads == (5, 1, 1)
    (dynamic,), _ = run(STEPPED, [np.int64(1), np.int64(16), np.int64(3)])
    np.testing.assert_array_equal(result, dynamic)


def test_bounds_from_arith_constants_are_constant_bounds() -> None:
    # MLIR folds constant bound operands into the static lists: the forall maps threads.
    text = STEPPED.replace(
        "  %r = scf.forall (%i) = (%lb) to (%ub) step (%s)",
        "  %c2 = arith.constant 2 : index\n  %c9 = arith.constant 9 : index\n"
        "  %r = scf.forall (%i) = (%c2) to (%c9) step (%c2)",
    )
    (result,), executor = run(text, [np.int64(0), np.int64(0), np.int64(0)])
    assert executor.grid.threads == (4, 1, 1)  # i = 2, 4, 6, 8
    expected = np.zeros(16, np.int64)
    expected[2:9:2] = [20, 40, 60, 80]
    np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize("step", [0, -2])
def test_a_non_positive_step_names_the_op_and_lane(step: int) -> None:
    message = error_of(STEPPED, [np.int64(0), np.int64(16), np.int64(step)])
    assert message == (
        f"test.mlir:2:3: error: 'scf.forall' op has a non-positive step {step} (thread 0, block 0)"
    )


MIXED = """\
func.func @main(%a: tensor<5x7xi32>, %out: tensor<5x7xi32>) -> tensor<5x7xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = tensor.dim %a, %c0 : tensor<5x7xi32>
  %cols = tensor.dim %a, %c1 : tensor<5x7xi32>
  %r = scf.forall (%i, %j) = (1, 0) to (%rows, %cols) step (2, %c1) shared_outs(%o = %out) -> (tensor<5x7xi32>) {
    %x = tensor.extract %a[%i, %j] : tensor<5x7xi32>
    %c3 = arith.constant 3 : i32
    %y = arith.muli %x, %c3 : i32
    %piece = tensor.from_elements %y : tensor<1x1xi32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %piece into %o[%i, %j] [1, 1] [1, 1] : tensor<1x1xi32> into tensor<5x7xi32>
    }
  }
  return %r : tensor<5x7xi32>
}
"""  # noqa: E501 - IR listing, one op per line


def test_mixed_static_and_dynamic_bounds_in_two_dimensions() -> None:
    a = np.arange(35, dtype=np.int32).reshape(5, 7) - 17
    (result,), _ = run(MIXED, [a])
    expected = np.zeros((5, 7), np.int32)
    expected[1:5:2, :] = a[1:5:2, :] * 3
    np.testing.assert_array_equal(result, expected)


PER_THREAD = """\
func.func @main(%out: tensor<4x6xi32>) -> tensor<4x6xi32> {
  %t = gpu.thread_id x {xla.range = [0 : index, 3 : index]}
  %c2 = arith.constant 2 : index
  %n = arith.addi %t, %c2 : index
  %r = scf.forall (%i) in (%n) shared_outs(%o = %out) -> (tensor<4x6xi32>) {
    %ti = arith.index_cast %t : index to i32
    %ii = arith.index_cast %i : index to i32
    %c100 = arith.constant 100 : i32
    %hi = arith.muli %ti, %c100 : i32
    %v = arith.addi %hi, %ii : i32
    %piece = tensor.from_elements %v : tensor<1xi32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %piece into %o[%t, %i] [1, 1] [1, 1] : tensor<1xi32> into tensor<4x6xi32>
    }
  }
  return %r : tensor<4x6xi32>
}
"""  # noqa: E501 - IR listing, one op per line


def test_each_lane_runs_its_own_trip_count() -> None:
    (result,), executor = run(PER_THREAD, [])
    assert executor.grid.threads == (4, 1, 1)
    # Thread t runs t + 2 iterations: row t holds 100 t + i for i < t + 2 (a rank-reducing
    # insert of one element).
    expected = np.zeros((4, 6), np.int32)
    for t in range(4):
        for i in range(t + 2):
            expected[t, i] = 100 * t + i
    np.testing.assert_array_equal(result, expected)


def test_a_step_that_is_not_positive_on_one_lane_names_that_lane() -> None:
    text = PER_THREAD.replace(
        "%n = arith.addi %t, %c2 : index",
        "%n = arith.addi %t, %c2 : index\n  %s = arith.subi %c2, %t : index",
    ).replace("scf.forall (%i) in (%n)", "scf.forall (%i) = (0) to (%n) step (%s)")
    message = error_of(text, [])
    # Thread t steps by 2 - t: thread 2 by 0, thread 3 by -1.
    assert message == (
        "test.mlir:6:3: error: 'scf.forall' op has a non-positive step 0 (thread 2, block 0)"
    )


ROWS = """\
func.func @main(%a: tensor<6x8xf32>, %n: index, %out: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %r = scf.forall (%row) in (%n) shared_outs(%o = %out) -> (tensor<6x8xf32>) {
    %c5 = arith.constant 5 : index
    %from = arith.subi %c5, %row : index
    %line = tensor.extract_slice %a[%from, 0] [1, 8] [1, 1] : tensor<6x8xf32> to tensor<8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %line into %o[%row, 0] [1, 8] [1, 1] : tensor<8xf32> into tensor<6x8xf32>
    }
  }
  return %r : tensor<6x8xf32>
}
"""  # noqa: E501 - IR listing, one op per line


@pytest.mark.parametrize("rows", [0, 1, 4, 6])
def test_iterations_copy_slices_of_an_input(rows: int) -> None:
    a = np.linspace(-3, 3, 48, dtype=np.float32).reshape(6, 8)
    (result,), _ = run(ROWS, [a, np.int64(rows)])
    # Row r of the output is row 5 - r of the input, for the first `rows` rows.
    expected = np.zeros((6, 8), np.float32)
    expected[:rows] = a[::-1][:rows]
    np.testing.assert_array_equal(result, expected)


def test_an_iteration_slicing_outside_its_input_names_the_op_and_lane() -> None:
    message = error_of(ROWS, [np.zeros((6, 8), np.float32), np.int64(7)])
    # Iteration 6 reads row 5 - 6 = -1.
    assert message == (
        "test.mlir:5:5: error: 'tensor.extract_slice' op extracts a slice at offsets [-1, 0] "
        "with sizes [1, 8] and strides [1, 1] outside argument 0 of shape [6, 8] (dimension 0) "
        "(thread 0, block 0)"
    )


def test_independent_iterations_run_side_by_side() -> None:
    text = STEPPED.replace("16xi64", "5000xi64")
    (result,), executor = run(text, [np.int64(3), np.int64(4999), np.int64(2)])
    expected = np.zeros(5000, np.int64)
    expected[3:4999:2] = np.arange(3, 4999, 2) * 10
    np.testing.assert_array_equal(result, expected)
    # 2498 iterations of 6 ops ran as one batch of lanes, not one Python step each.
    assert executor.step_counter.spent < 20


def test_lanes_with_different_trip_counts_run_side_by_side() -> None:
    (_,), executor = run(PER_THREAD, [])
    assert executor.step_counter.spent < 30


READ_BACK = """\
func.func @main(%n: index, %out: tensor<8xi64>) -> tensor<8xi64> {
  %r = scf.forall (%i) in (%n) shared_outs(%o = %out) -> (tensor<8xi64>) {
    %old = tensor.extract %o[%i] : tensor<8xi64>
    %c5 = arith.constant 5 : i64
    %new = arith.addi %old, %c5 : i64
    %w = tensor.insert %new into %o[%i] : tensor<8xi64>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %w into %o[0] [8] [1] : tensor<8xi64> into tensor<8xi64>
    }
  }
  return %r : tensor<8xi64>
}
"""


def test_iterations_that_read_the_shared_output_run_one_at_a_time() -> None:
    start = np.arange(8, dtype=np.int64) * 7
    module, source_map = parse_mlir(READ_BACK, "test.mlir")
    executor = Executor(module, checks=CheckOptions(), locator=source_map)
    (result,) = executor.run([np.int64(6), start])
    expected = start.copy()
    expected[:6] += 5
    np.testing.assert_array_equal(result, expected)
    # Reading a shared output is not independent: six trips of the body's five ops.
    assert executor.step_counter.spent >= 6 * 5


PRIVATE = """\
func.func @main(%n: index, %out: tensor<3x8xi64>) -> tensor<3x8xi64> {
  %e = tensor.empty() : tensor<8xi64>
  %r = scf.forall (%i) in (%n) shared_outs(%o = %e) -> (tensor<8xi64>) {
    %x = arith.index_cast %i : index to i64
    %sq = arith.muli %x, %x : i64
    %piece = tensor.from_elements %sq : tensor<1xi64>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %piece into %o[%i] [1] [1] : tensor<1xi64> into tensor<8xi64>
    }
  }
  %w = tensor.insert_slice %r into %out[1, 0] [1, 8] [1, 1] : tensor<8xi64> into tensor<3x8xi64>
  return %w : tensor<3x8xi64>
}
"""


def test_a_kernel_made_tensor_as_shared_output() -> None:
    (result,), _ = run(PRIVATE, [np.int64(5)])
    expected = np.zeros((3, 8), np.int64)
    expected[1, :5] = np.arange(5) ** 2
    np.testing.assert_array_equal(result, expected)


NESTED = """\
func.func @main(%out: tensor<4x6xi32>) -> tensor<4x6xi32> {
  %r = scf.forall (%t) in (4) shared_outs(%o = %out) -> (tensor<4x6xi32>) {
    %c1 = arith.constant 1 : index
    %n = arith.addi %t, %c1 : index
    %inner = scf.forall (%i) = (%t) to (6) step (%n) shared_outs(%p = %o) -> (tensor<4x6xi32>) {
      %ii = arith.index_cast %i : index to i32
      %piece = tensor.from_elements %ii : tensor<1x1xi32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %piece into %p[%t, %i] [1, 1] [1, 1] : tensor<1x1xi32> into tensor<4x6xi32>
      }
    }
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %inner into %o[0, 0] [4, 6] [1, 1] : tensor<4x6xi32> into tensor<4x6xi32>
    }
  }
  return %r : tensor<4x6xi32>
}
"""  # noqa: E501 - IR listing, one op per line


def test_a_forall_with_run_time_bounds_inside_one_that_maps_threads() -> None:
    (result,), executor = run(NESTED, [])
    assert executor.grid.threads == (4, 1, 1)
    # Thread t runs i = t, 2 t + 1, ... below 6 (step t + 1) and writes i at [t, i].
    expected = np.full((4, 6), 0, np.int32)
    for t in range(4):
        for i in range(t, 6, t + 1):
            expected[t, i] = i
    np.testing.assert_array_equal(result, expected)


FOUR_DIMENSIONS = """\
func.func @main(%out: tensor<2x3x2x2xi32>) -> tensor<2x3x2x2xi32> {
  %r = scf.forall (%a, %b, %c, %d) in (2, 3, 2, 2) shared_outs(%o = %out) -> (tensor<2x3x2x2xi32>) {
    %c1000 = arith.constant 1000 : index
    %c100 = arith.constant 100 : index
    %c10 = arith.constant 10 : index
    %x = arith.muli %a, %c1000 : index
    %y = arith.muli %b, %c100 : index
    %z = arith.muli %c, %c10 : index
    %s1 = arith.addi %x, %y : index
    %s2 = arith.addi %s1, %z : index
    %s3 = arith.addi %s2, %d : index
    %v = arith.index_cast %s3 : index to i32
    %piece = tensor.from_elements %v : tensor<1x1x1x1xi32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %piece into %o[%a, %b, %c, %d] [1, 1, 1, 1] [1, 1, 1, 1] : tensor<1x1x1x1xi32> into tensor<2x3x2x2xi32>
    }
  }
  return %r : tensor<2x3x2x2xi32>
}
"""  # noqa: E501 - IR listing, one op per line


def test_a_forall_of_more_dimensions_than_thread_axes_runs_in_each_lane() -> None:
    (result,), executor = run(FOUR_DIMENSIONS, [])
    assert executor.grid.threads == (1, 1, 1)
    a, b, c, d = np.indices((2, 3, 2, 2))
    np.testing.assert_array_equal(result, 1000 * a + 100 * b + 10 * c + d)


TRIANGLE = """\
func.func @main(%a: tensor<4x4xi32>, %rows: index, %out: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %r = scf.forall (%i) in (%rows) shared_outs(%o = %out) -> (tensor<4x4xi32>) {
    %c1 = arith.constant 1 : index
    %n = arith.addi %i, %c1 : index
    %row = tensor.extract_slice %a[%i, 0] [1, %n] [1, 1] : tensor<4x4xi32> to tensor<?xi32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %row into %o[%i, 0] [1, %n] [1, 1] : tensor<?xi32> into tensor<4x4xi32>
    }
  }
  return %r : tensor<4x4xi32>
}
"""  # noqa: E501 - IR listing, one op per line


def test_slice_sizes_that_differ_between_iterations() -> None:
    a = np.arange(16, dtype=np.int32).reshape(4, 4) - 5
    (result,), _ = run(TRIANGLE, [a, np.array(3, np.int64)])
    # Iteration i copies the first i + 1 elements of row i, for rows 0 to 2.
    expected = np.tril(a)
    expected[3] = 0
    np.testing.assert_array_equal(result, expected)
