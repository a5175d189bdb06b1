"""`scf.for` and `scf.if` result types written without parentheses, as MLIR allows."""

from __future__ import annotations

import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.interpreter import Executor
from xla_emit.ir.parse import parse_mlir
from xla_emit.ir.verify import verify_module

# Doubles %x n times, then picks it or %x by %c; the bare `-> i32` forms are MLIR's.
KERNEL = """\
func.func @f(%n: index, %c: i1, %x: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> i32 {
    %b = arith.addi %a, %a : i32
    scf.yield %b : i32
  }
  %s = scf.if %c -> i32 {
    scf.yield %r : i32
  } else {
    scf.yield %x : i32
  }
  scf.for %i = %c0 to %n step %c1 {
  }
  return %s : i32
}
"""


def test_bare_result_types_read_and_print_in_parentheses() -> None:
    module, source_map = parse_mlir(KERNEL, "k.mlir")
    verify_module(module, source_map)
    printed = str(module)
    assert "iter_args(%a = %x) -> (i32) {" in printed
    assert "scf.if %c -> (i32) {" in printed
    again, _ = parse_mlir(printed, "printed.mlir")
    assert str(again) == printed


@pytest.mark.parametrize(("n", "pick", "x", "want"), [(3, 1, 5, 40), (3, 0, 5, 5), (0, 1, 7, 7)])
def test_the_loop_and_branch_compute_what_they_say(n: int, pick: int, x: int, want: int) -> None:
    module, _ = parse_mlir(KERNEL, "k.mlir")
    (result,) = Executor(module).run([n, pick, x])
    assert int(np.asarray(result)) == want == (x * 2**n if pick else x)


def test_two_results_still_need_parentheses() -> None:
    text = KERNEL.replace("iter_args(%a = %x) -> i32", "iter_args(%a = %x, %b0 = %x) -> i32, i32")
    with pytest.raises(UserError, match=r"k.mlir:4:.*expected 2 iter_args types, but got 1"):
        parse_mlir(text, "k.mlir")


def test_an_empty_list_and_a_parenthesized_one_still_read() -> None:
    text = KERNEL.replace("scf.if %c -> i32", "scf.if %c -> (i32)")
    module, _ = parse_mlir(text, "k.mlir")
    assert "scf.if %c -> (i32)" in str(module)


@pytest.mark.parametrize("step", [0, -1])
def test_a_constant_step_must_be_positive(step: int) -> None:
    text = KERNEL.replace("%c1 = arith.constant 1 : index", f"%c1 = arith.constant {step} : index")
    module, source_map = parse_mlir(text, "k.mlir")
    with pytest.raises(UserError, match=r"k.mlir:4:3: error: 'scf.for' op constant step operand"):
        verify_module(module, source_map)
