"""The alignment verdict's notes name the kernel's values as it prints them, and judge an
index over constant-bound loops at every step instead of calling it unknown.

Expected values are worked by hand from each kernel.
"""

from __future__ import annotations

import re

import pytest
from xdsl.context import Context
from xla_emit.passes.diagnostics import OpError
from xla_emit.passes.tpu.tpu_verify_alignment import TpuVerifyAlignmentPass

from xla_emit.ir import parse_mlir

MEMREF = "memref<8x512xf32, #tpu.memory_space<vmem>>"


def verdict(text: str) -> OpError:
    module, _ = parse_mlir(text, "k.mlir")
    with pytest.raises(OpError) as caught:
        TpuVerifyAlignmentPass().apply(Context(), module)
    return caught.value


def test_a_numbered_value_is_named_as_printed() -> None:
    # As JAX prints a kernel: values numbered, never named.
    text = f"""\
func.func @kernel(%arg0: {MEMREF}, %arg1: index) {{
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %0 = arith.addi %arg1, %c8 : index
  %1 = vector.load %arg0[%c0, %0] : {MEMREF}, vector<8x128xf32>
  return
}}
"""
    module, _ = parse_mlir(text, "k.mlir")
    load_index = re.search(r"vector\.load %arg0\[%c0, (%\w+)\]", str(module))
    assert load_index is not None and load_index.group(1) == "%0"
    notes = verdict(text).notes
    assert notes[-1].startswith(
        "fix: if %0 is always a multiple of 128, say so with 'tpu.assume_multiple %0, 128'"
    )
    assert "%arg1 (an argument of 'func.func') is not known at compile time" in notes[0]


def loop_kernel(index: str) -> str:
    return f"""\
func.func @kernel(%x: {MEMREF}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  scf.for %j = %c0 to %c4 step %c1 {{
{index}
    %v = vector.load %x[%c0, %0] : {MEMREF}, vector<8x128xf32>
  }}
  return
}}
"""


def test_j_times_64_over_a_constant_loop_is_misaligned_at_j_1() -> None:
    error = verdict(loop_kernel("    %0 = arith.muli %j, %c64 : index"))
    assert error.notes[0] == (
        "the index is provably misaligned: with %j in [0, 4), at %j = 1 it is 64, "
        "64 past a multiple of 128"
    )
    assert not any("unknown" in note for note in error.notes)
    assert error.notes[-1].startswith("fix: tpu.assume_multiple would be a false promise here")


def test_an_index_aligned_at_every_step_is_not_called_unknown() -> None:
    # (3j - j) * 64 = 128 j: 0, 128, 256, 384; the congruences lose track at 3j - j.
    error = verdict(
        loop_kernel(
            "    %t = arith.muli %j, %c3 : index\n"
            "    %d = arith.subi %t, %j : index\n"
            "    %0 = arith.muli %d, %c64 : index"
        )
    )
    assert error.notes[0] == (
        "the index is a multiple of 128 at every point (%j in [0, 4): 0, 128, 256, 384), "
        "although the congruence analysis cannot prove it"
    )
    assert error.notes[-1] == (
        "fix: %0 is always a multiple of 128: say so with 'tpu.assume_multiple %0, 128'"
    )
