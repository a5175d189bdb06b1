"""scf.forall with lower bounds and steps, and tensor.parallel_insert_slice of part of a
shared output, as MLIR defines them. Expected values are worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.interpreter import CheckOptions, Executor
from xla_emit.ir import parse_mlir


def run(text: str, inputs: list[np.ndarray]) -> tuple[list[np.ndarray], Executor]:
    module, source_map = parse_mlir(text, "test.mlir")
    executor = Executor(module, checks=CheckOptions(), locator=source_map)
    return executor.run(inputs), executor


def error_of(text: str, inputs: list[np.ndarray]) -> str:
    with pytest.raises(UserError) as caught:
        run(text, inputs)
    return caught.value.format().splitlines()[0]


STEPPED = """\
func.func @main(%out: tensor<8xi64>) -> tensor<8xi64> {
  %r = scf.forall (%i) = (1) to (8) step (3) shared_outs(%o = %out) -> (tensor<8xi64>) {
    %c10 = arith.constant 10 : index
    %v = arith.muli %i, %c10 : index
    %x = arith.index_cast %v : index to i64
    %w = tensor.insert %x into %o[%i] : tensor<8xi64>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %w into %o[0] [8] [1] : tensor<8xi64> into tensor<8xi64>
    }
  }
  return %r : tensor<8xi64>
}
"""


def test_the_induction_variable_runs_from_the_lower_bound_by_the_step() -> None:
    (result,), executor = run(STEPPED, [])
    # i = 1, 4, 7 (10 is past the bound): three threads.
    assert executor.grid.threads == (3, 1, 1)
    assert result.tolist() == [0, 10, 0, 0, 40, 0, 0, 70]


TWO_FORALLS = """\
func.func @main(%a: tensor<6x5xi64>, %b: tensor<8xi64>) -> (tensor<6x5xi64>, tensor<8xi64>) {
  %r = scf.forall (%i, %j) = (2, 0) to (6, 5) step (2, 2) shared_outs(%o = %a) -> (tensor<6x5xi64>) {
    %c10 = arith.constant 10 : index
    %t = arith.muli %i, %c10 : index
    %v = arith.addi %t, %j : index
    %x = arith.index_cast %v : index to i64
    %w = tensor.insert %x into %o[%i, %j] : tensor<6x5xi64>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %w into %o[0, 0] [6, 5] [1, 1] : tensor<6x5xi64> into tensor<6x5xi64>
    }
  }
  %s = scf.forall (%k) in (8) shared_outs(%o = %b) -> (tensor<8xi64>) {
    %x = arith.index_cast %k : index to i64
    %w = tensor.insert %x into %o[%k] : tensor<8xi64>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %w into %o[0] [8] [1] : tensor<8xi64> into tensor<8xi64>
    }
  }
  return %r, %s : tensor<6x5xi64>, tensor<8xi64>
}
"""  # noqa: E501 - IR listing, one op per line


def test_threads_past_a_foralls_trips_idle() -> None:
    (first, second), executor = run(TWO_FORALLS, [])
    # The first forall makes 2 x 3 iterations, the second 8 x 1: the grid is 8 x 3 threads.
    assert executor.grid.threads == (8, 3, 1)
    expected = np.zeros((6, 5), np.int64)
    for i in (2, 4):
        for j in (0, 2, 4):
            expected[i, j] = 10 * i + j
    np.testing.assert_array_equal(first, expected)
    # Only the threads with y = 0 run the second forall: no element is written twice (race).
    assert second.tolist() == list(range(8))


def test_a_forall_with_a_dynamic_lower_bound_runs_in_each_lane() -> None:
    text = STEPPED.replace("(%out: tensor<8xi64>)", "(%lb: index, %out: tensor<8xi64>)")
    text = text.replace("(%i) = (1)", "(%i) = (%lb)")
    (result,), executor = run(text, [np.array(1, np.int64)])
    # No thread mapping: the one thread runs i = 1, 4, 7 itself.
    assert executor.grid.threads == (1, 1, 1)
    assert result.tolist() == [0, 10, 0, 0, 40, 0, 0, 70]


PIECES = """\
func.func @main(%out: tensor<8xi32>) -> tensor<8xi32> {
  %r = scf.forall (%t) in (4) shared_outs(%o = %out) -> (tensor<8xi32>) {
    %c2 = arith.constant 2 : index
    %c10 = arith.constant 10 : i32
    %c1 = arith.constant 1 : i32
    %ti = arith.index_cast %t : index to i32
    %lo = arith.muli %ti, %c10 : i32
    %hi = arith.addi %lo, %c1 : i32
    %piece = tensor.from_elements %lo, %hi : tensor<2xi32>
    %at = arith.muli %t, %c2 : index
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %piece into %o[%at] [2] [1] : tensor<2xi32> into tensor<8xi32>
    }
  }
  return %r : tensor<8xi32>
}
"""


def test_each_thread_inserts_its_piece_at_its_offset() -> None:
    (result,), _ = run(PIECES, [])
    # Thread t writes [10 t, 10 t + 1] at 2 t.
    assert result.tolist() == [0, 1, 10, 11, 20, 21, 30, 31]


COLUMNS = """\
func.func @main(%out: tensor<4x6xi32>) -> tensor<4x6xi32> {
  %r = scf.forall (%t) in (3) shared_outs(%o = %out) -> (tensor<4x6xi32>) {
    %c2 = arith.constant 2 : index
    %n = arith.constant 2 : index
    %c100 = arith.constant 100 : i32
    %ti = arith.index_cast %t : index to i32
    %hi = arith.addi %ti, %c100 : i32
    %piece = tensor.from_elements %ti, %hi : tensor<2xi32>
    %col = arith.muli %t, %c2 : index
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %piece into %o[1, %col] [%n, 1] [%c2, 1] : tensor<2xi32> into tensor<4x6xi32>
    }
  }
  return %r : tensor<4x6xi32>
}
"""  # noqa: E501 - IR listing, one op per line


def test_a_strided_rank_reducing_slice_with_dynamic_offsets_sizes_and_strides() -> None:
    (result,), _ = run(COLUMNS, [])
    # Thread t writes t at [1, 2 t] and 100 + t at [3, 2 t] (rows 1 and 3: stride 2).
    expected = np.zeros((4, 6), np.int32)
    expected[1, [0, 2, 4]] = [0, 1, 2]
    expected[3, [0, 2, 4]] = [100, 101, 102]
    np.testing.assert_array_equal(result, expected)


TWO_INSERTS = """\
func.func @main(%out: tensor<8xi32>) -> tensor<8xi32> {
  %r = scf.forall (%t) in (4) shared_outs(%o = %out) -> (tensor<8xi32>) {
    %c4 = arith.constant 4 : index
    %ti = arith.index_cast %t : index to i32
    %neg = arith.subi %ti, %ti : i32
    %low = tensor.from_elements %ti : tensor<1xi32>
    %minus = arith.subi %neg, %ti : i32
    %high = tensor.from_elements %minus : tensor<1xi32>
    %up = arith.addi %t, %c4 : index
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %low into %o[%t] [1] [1] : tensor<1xi32> into tensor<8xi32>
      tensor.parallel_insert_slice %high into %o[%up] [1] [1] : tensor<1xi32> into tensor<8xi32>
    }
  }
  return %r : tensor<8xi32>
}
"""


def test_two_inserts_into_one_shared_output() -> None:
    (result,), _ = run(TWO_INSERTS, [])
    # Thread t writes t at t and -t at t + 4.
    assert result.tolist() == [0, 1, 2, 3, 0, -1, -2, -3]


def test_a_slice_past_the_end_names_the_op_and_thread() -> None:
    text = PIECES.replace(
        "%at = arith.muli %t, %c2 : index",
        "%m = arith.muli %t, %c2 : index\n    %at = arith.addi %m, %c2 : index",
    )
    message = error_of(text, [])
    # Thread 3 starts at 2 * 3 + 2 = 8: elements 8 and 9 of 8.
    assert message == (
        "test.mlir:13:7: error: 'tensor.parallel_insert_slice' op inserts a slice at offsets [8] "
        "with sizes [2] and strides [1] outside output argument 0 of shape [8] (dimension 0) "
        "(thread 3, block 0)"
    )


def test_overlapping_slices_of_two_threads_race() -> None:
    text = PIECES.replace("%at = arith.muli %t, %c2 : index", "%at = arith.addi %t, %t : index")
    text = text.replace("%o[%at]", "%o[%t]")
    message = error_of(text, [])
    # Thread 0 writes elements 0 and 1, thread 1 elements 1 and 2.
    assert message == (
        "test.mlir:12:7: error: 'tensor.parallel_insert_slice' op writes element [1] of output "
        "argument 0 from two threads at once: thread 0, block 0 also writes it (race) "
        "(thread 1, block 0)"
    )


def test_a_slice_of_other_sizes_than_its_source_is_rejected() -> None:
    text = PIECES.replace("[%at] [2] [1]", "[%at] [3] [1]")
    message = error_of(text, [])
    assert message == (
        "test.mlir:12:7: error: 'tensor.parallel_insert_slice' op inserts a slice of sizes [3] "
        "from a source of 2 elements"
    )


def test_slice_sizes_that_differ_between_threads_are_rejected() -> None:
    text = PIECES.replace(
        "%at = arith.muli %t, %c2 : index",
        "%at = arith.muli %t, %c2 : index\n    %n = arith.maxui %t, %c2 : index",
    ).replace("[%at] [2] [1]", "[%at] [%n] [1]")
    message = error_of(text, [])
    # max(t, 2) is 2 for threads 0 to 2 and 3 for thread 3.
    assert message == (
        "test.mlir:13:7: error: 'tensor.parallel_insert_slice' op has slice sizes that differ "
        "between threads (thread 3, block 0)"
    )
