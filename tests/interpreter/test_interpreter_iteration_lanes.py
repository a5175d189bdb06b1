"""Independent loop iterations run side by side as lanes, with the results and errors of
running them one at a time.

XLA:CPU's kernels run a fusion on a thread or two, each looping over every
element it owns. Every kernel here runs twice: with `max_lanes=1` (no room
for extra lanes: one iteration at a time) and with the default chunk (the
iterations become lanes). Expected values are worked out by hand.
"""

from __future__ import annotations

import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.interpreter import CheckOptions, Executor
from xla_emit.ir import parse_mlir

ONE_AT_A_TIME = 1
SIDE_BY_SIDE = 1 << 15
# Side by side, but few enough lanes that the iterations take several batches.
SMALL_BATCHES = 6


def run(text: str, inputs: list[np.ndarray], max_lanes: int) -> tuple[list[np.ndarray], int]:
    """The kernel's results and the ops the interpreter ran (iterations run as lanes save ops)."""
    module, source_map = parse_mlir(text, "test.mlir")
    executor = Executor(module, checks=CheckOptions(), max_lanes=max_lanes, locator=source_map)
    results = executor.run(inputs)
    return results, executor.step_counter.spent


def error_of(text: str, inputs: list[np.ndarray], max_lanes: int) -> str:
    with pytest.raises(UserError) as caught:
        run(text, inputs, max_lanes)
    return caught.value.format().splitlines()[0]


# XLA:CPU's shape: two workgroups (blocks), one thread each, each looping over 4 x 3 elements.
CPU_LOOP = """\
func.func @main(%in: tensor<8x3xi32>, %out: tensor<8x3xi32>) -> tensor<8x3xi32> attributes {xla.entry} {
  %b = xla.workgroup_id x {xla.range = [0 : index, 1 : index]}
  %r = scf.forall (%t) in (1) shared_outs(%o = %out) -> (tensor<8x3xi32>) {
    %l = xla.loop (%t, %b)[%i, %j] -> (%row, %col) in #xla.indexing_map<"(th, bl)[s0, s1] -> (bl * 4 + s0, s1), domain: th in [0, 0], bl in [0, 1], s0 in [0, 3], s1 in [0, 2]"> iter_args(%it = %o) -> (tensor<8x3xi32>) {
      %x = xla.pure_call @scale(%in, %row, %col) : (tensor<8x3xi32>, index, index) -> i32
      %w = tensor.insert %x into %it[%row, %col] : tensor<8x3xi32>
      xla.yield %w : tensor<8x3xi32>
    }
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %l into %o[0, 0] [8, 3] [1, 1] : tensor<8x3xi32> into tensor<8x3xi32>
    }
  }
  return %r : tensor<8x3xi32>
}
func.func private @scale(%in: tensor<8x3xi32>, %row: index, %col: index) -> i32 {
  %x = tensor.extract %in[%row, %col] : tensor<8x3xi32>
  %c3 = arith.constant 3 : i32
  %y = arith.muli %x, %c3 : i32
  %c = arith.index_cast %col : index to i32
  %z = arith.addi %y, %c : i32
  return %z : i32
}
"""  # noqa: E501 - IR listing, one op per line


@pytest.mark.parametrize("max_lanes", [ONE_AT_A_TIME, SMALL_BATCHES, SIDE_BY_SIDE])
def test_an_xla_loop_gives_the_same_elements_however_it_runs(max_lanes: int) -> None:
    x = np.arange(24, dtype=np.int32).reshape(8, 3)
    (result,), _ = run(CPU_LOOP, [x], max_lanes)
    # out[r, c] = 3 * in[r, c] + c: row 0 is 0, 4, 8; row 7 is 63, 67, 71.
    assert result[0].tolist() == [0, 4, 8]
    assert result[7].tolist() == [63, 67, 71]
    np.testing.assert_array_equal(result, 3 * x + np.arange(3, dtype=np.int32))


SCF_FOR = """\
func.func @main(%out: tensor<20xi64>) -> tensor<20xi64> {
  %lb = arith.constant 2 : index
  %ub = arith.constant 18 : index
  %step = arith.constant 3 : index
  %r = scf.for %i = %lb to %ub step %step iter_args(%it = %out) -> (tensor<20xi64>) {
    %p = arith.muli %i, %i : index
    %v = arith.index_cast %p : index to i64
    %inside = arith.cmpi slt, %i, %ub : index
    %n = scf.if %inside -> (tensor<20xi64>) {
      %w = tensor.insert %v into %it[%i] : tensor<20xi64>
      scf.yield %w : tensor<20xi64>
    } else {
      scf.yield %it : tensor<20xi64>
    }
    scf.yield %n : tensor<20xi64>
  }
  return %r : tensor<20xi64>
}
"""


@pytest.mark.parametrize("max_lanes", [ONE_AT_A_TIME, SMALL_BATCHES, SIDE_BY_SIDE])
def test_an_scf_for_writing_distinct_elements(max_lanes: int) -> None:
    (result,), _ = run(SCF_FOR, [], max_lanes)
    # i = 2, 5, 8, 11, 14, 17: out[i] = i * i, zeros elsewhere.
    expected = np.zeros(20, np.int64)
    expected[[2, 5, 8, 11, 14, 17]] = [4, 25, 64, 121, 196, 289]
    np.testing.assert_array_equal(result, expected)


LAST_WRITE = """\
func.func @main(%out: tensor<2xi64>) -> tensor<2xi64> {
  %r = xla.loop ()[%i] -> (%k) in #xla.indexing_map<"()[s0] -> (s0 mod 2), domain: s0 in [0, 6]"> iter_args(%it = %out) -> (tensor<2xi64>) {
    %v = arith.index_cast %i : index to i64
    %c0 = arith.constant 0 : index
    %w = tensor.insert %v into %it[%c0] : tensor<2xi64>
    %w2 = tensor.insert %v into %w[%k] : tensor<2xi64>
    xla.yield %w2 : tensor<2xi64>
  }
  return %r : tensor<2xi64>
}
"""  # noqa: E501 - IR listing, one op per line


@pytest.mark.parametrize("max_lanes", [ONE_AT_A_TIME, 3, SIDE_BY_SIDE])
def test_the_last_iteration_writing_an_element_wins(max_lanes: int) -> None:
    (result,), _ = run(LAST_WRITE, [], max_lanes)
    # Element 0: every iteration, last 6 (even); element 1: odd iterations, last 5.
    assert result.tolist() == [6, 5]


@pytest.mark.parametrize("name", ["CPU_LOOP", "SCF_FOR", "LAST_WRITE"])
def test_independent_iterations_run_as_lanes(name: str) -> None:
    text = globals()[name]
    inputs = [np.arange(24, dtype=np.int32).reshape(8, 3)] if name == "CPU_LOOP" else []
    _, one_at_a_time = run(text, inputs, ONE_AT_A_TIME)
    _, side_by_side = run(text, inputs, SIDE_BY_SIDE)
    # Each loop makes 6 or more iterations a thread; side by side, the body runs once.
    assert side_by_side * 3 < one_at_a_time


PREFIX_SUM = """\
func.func @main(%in: tensor<6xi32>, %out: tensor<6xi32>) -> tensor<6xi32> {
  %c0 = arith.constant 0 : index
  %first = tensor.extract %in[%c0] : tensor<6xi32>
  %start = tensor.insert %first into %out[%c0] : tensor<6xi32>
  %r = xla.loop ()[%i] -> (%k) in #xla.indexing_map<"()[s0] -> (s0 + 1), domain: s0 in [0, 4]"> iter_args(%it = %start) -> (tensor<6xi32>) {
    %before = tensor.extract %it[%i] : tensor<6xi32>
    %x = tensor.extract %in[%k] : tensor<6xi32>
    %s = arith.addi %before, %x : i32
    %w = tensor.insert %s into %it[%k] : tensor<6xi32>
    xla.yield %w : tensor<6xi32>
  }
  return %r : tensor<6xi32>
}
"""  # noqa: E501 - IR listing, one op per line

SUM = """\
func.func @main(%in: tensor<6xi32>) -> i32 {
  %c0 = arith.constant 0 : i32
  %r = xla.loop ()[%i] -> (%k) in #xla.indexing_map<"()[s0] -> (s0), domain: s0 in [0, 5]"> iter_args(%acc = %c0) -> (i32) {
    %x = tensor.extract %in[%k] : tensor<6xi32>
    %s = arith.addi %acc, %x : i32
    xla.yield %s : i32
  }
  return %r : i32
}
"""  # noqa: E501 - IR listing, one op per line


@pytest.mark.parametrize(("text", "expected"), [(PREFIX_SUM, [1, 3, 6, 10, 15, 21]), (SUM, 21)])
def test_iterations_that_carry_values_run_one_at_a_time(text: str, expected: object) -> None:
    x = np.arange(1, 7, dtype=np.int32)
    (result,), spent = run(text, [x], SIDE_BY_SIDE)
    assert result.tolist() == expected
    _, one_at_a_time = run(text, [x], ONE_AT_A_TIME)
    assert spent == one_at_a_time


OUT_OF_BOUNDS = """\
func.func @main(%in: tensor<10xi32>, %out: tensor<10xi32>) -> tensor<10xi32> attributes {xla.entry} {
  %b = xla.workgroup_id x {xla.range = [0 : index, 1 : index]}
  %r = xla.loop (%b)[%i] -> (%k) in #xla.indexing_map<"(bl)[s0] -> (bl * 6 + s0), domain: bl in [0, 1], s0 in [0, 4]"> iter_args(%it = %out) -> (tensor<10xi32>) {
    %m = arith.constant 10 : index
    %safe = arith.remui %k, %m : index
    %x = tensor.extract %in[%safe] : tensor<10xi32>
    %d = arith.subi %x, %x : i32
    %q = arith.divsi %x, %d : i32
    %w = tensor.insert %q into %it[%k] : tensor<10xi32>
    xla.yield %w : tensor<10xi32>
  }
  return %r : tensor<10xi32>
}
"""  # noqa: E501 - IR listing, one op per line


@pytest.mark.parametrize("max_lanes", [ONE_AT_A_TIME, SIDE_BY_SIDE])
def test_an_undefined_division_names_the_op_and_lane(max_lanes: int) -> None:
    x = np.arange(10, dtype=np.int32)
    message = error_of(OUT_OF_BOUNDS, [x], max_lanes)
    # Iteration 0 of block 0 divides 0 by 0 first.
    assert message == (
        "test.mlir:8:5: error: 'arith.divsi' op divides 0 by zero, which is undefined "
        "(thread 0, block 0)"
    )


@pytest.mark.parametrize("max_lanes", [ONE_AT_A_TIME, SIDE_BY_SIDE])
def test_an_out_of_bounds_write_names_the_op_and_lane(max_lanes: int) -> None:
    text = OUT_OF_BOUNDS.replace("%q = arith.divsi %x, %d", "%q = arith.addi %x, %d")
    message = error_of(text, [np.arange(10, dtype=np.int32)], max_lanes)
    # Block 1 reaches element 10 in its last iteration (s0 = 4); block 0 stops at 4.
    assert message == (
        "test.mlir:9:5: error: 'tensor.insert' op index [10] is out of bounds for output "
        "argument 1 of shape [10] (dimension 0) (thread 0, block 1)"
    )
