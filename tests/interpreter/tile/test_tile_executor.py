"""The tile executor on hand-written kernels: values per pid, and its safety checks."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.context import Context
from xla_emit.passes.gpu.safe_integer_arithmetic import SafeIntegerArithmeticPass

from xla_emit.diagnostics import UserError
from xla_emit.interpreter import CheckOptions
from xla_emit.interpreter.budget import run_limits
from xla_emit.interpreter.tile.executor import TileExecutor
from xla_emit.ir.parse import parse_mlir
from xla_emit.limits import RunLimits

# Each of 4 programs doubles a tile of 16; OFFSET is the tile's offset map.
_KERNEL = """
builtin.module {
  xtile.entry_func @double(%in: memref<64xf32>, %out: memref<64xf32>,
                           %pid: index {xla.range = [0 : index, PIDS : index]}) {
    %o = xla.apply_indexing #xla.indexing_map<"(pid) -> (OFFSET), domain: pid in [0, PIDS]">(%pid)
    %t = xtile.extract %in[%o] [16] [1] : memref<64xf32> -> tensor<16xf32>
    %c = arith.constant dense<2.000000e+00> : tensor<16xf32>
    %d = arith.mulf %t, %c : tensor<16xf32>
    xtile.insert %d into %out[%o] [16] [1] : tensor<16xf32> -> memref<64xf32>
    xtile.return
  }
}
"""


def _kernel(offset: str = "pid * 16", pids: int = 4):
    text = _KERNEL.replace("OFFSET", offset).replace("PIDS", str(pids - 1))
    module, source_map = parse_mlir(text, "k.mlir")
    return module, source_map


def test_every_program_doubles_its_tile() -> None:
    module, _ = _kernel()
    x = np.arange(64, dtype=np.float32)
    (out,) = TileExecutor(module).run([x])
    assert out.tolist() == (2 * x).tolist()


def test_a_tile_starting_outside_the_buffer_names_the_op_and_the_pid() -> None:
    module, source_map = _kernel(pids=5)  # pid 4 starts at 64
    executor = TileExecutor(module, locate=source_map.location_of)
    with pytest.raises(UserError, match=r"'xtile.extract' op pid 4: the tile at offsets \[64\]"):
        executor.run([np.zeros(64, np.float32)])


def test_two_programs_writing_one_element_is_a_race() -> None:
    module, _ = _kernel(offset="pid * 8")
    with pytest.raises(UserError, match=r"'xtile.insert' op race: pids 0 and 1 both write"):
        TileExecutor(module, CheckOptions()).run([np.zeros(64, np.float32)])


def test_the_step_budget_stops_the_run() -> None:
    module, _ = _kernel()
    with run_limits(RunLimits(max_steps=3)), pytest.raises(UserError, match="step budget of 3"):
        TileExecutor(module).run([np.zeros(64, np.float32)])


def test_the_memory_budget_names_what_would_not_fit() -> None:
    module, _ = _kernel()
    # The two buffers (512 bytes) and the constant fit, the extracted tiles of all 4 programs
    # (256) do not.
    with run_limits(RunLimits(max_memory=600)), pytest.raises(UserError, match=r"xtile\.extract"):
        TileExecutor(module).run([np.zeros(64, np.float32)])


def test_wrong_inputs_are_errors() -> None:
    module, _ = _kernel()
    with pytest.raises(UserError, match=r"expects shape \[64\], but got \[32\]"):
        TileExecutor(module).run([np.zeros(32, np.float32)])


# Each of 4 programs reads the first element of its row 4 times (a stride of 0 along the
# row, as XLA writes a broadcast's operand) and doubles it.
_ZERO_STRIDE = """
builtin.module {
  xtile.entry_func @spread(%in: memref<4x8xf32>, %out: memref<4x4xf32>,
                           %pid: index {xla.range = [0 : index, 3 : index]}) {
    %c0 = arith.constant 0 : index
    %t = xtile.extract %in[%pid, %c0] [1, 4] [1, 0] : memref<4x8xf32> -> tensor<1x4xf32>
    %c = arith.constant dense<2.000000e+00> : tensor<1x4xf32>
    %d = arith.mulf %t, %c : tensor<1x4xf32>
    xtile.insert %d into %out[%pid, %c0] [1, 4] [1, 1] : tensor<1x4xf32> -> memref<4x4xf32>
    xtile.return
  }
}
"""


def test_a_zero_stride_reads_one_element_for_the_whole_dimension() -> None:
    module, _ = parse_mlir(_ZERO_STRIDE, "k.mlir")
    x = np.arange(32, dtype=np.float32).reshape(4, 8)
    (out,) = TileExecutor(module).run([x])
    assert out.tolist() == [[2.0 * x[row, 0]] * 4 for row in range(4)]


def test_other_strides_are_located_errors() -> None:
    module, source_map = parse_mlir(_ZERO_STRIDE.replace("[1, 0]", "[1, 2]"), "k.mlir")
    executor = TileExecutor(module, locate=source_map.location_of)
    with pytest.raises(UserError, match=r"k\.mlir:6:.*strides \[1, 2\] is not supported"):
        executor.run([np.zeros((4, 8), np.float32)])


def _never(*_args: object) -> None:
    """Stands in for a fast path's recognizer: the region is always interpreted."""


# Each of 2 programs adds up a row of 256 with the integer combine COMBINE (a count, as the
# top-p step's `input_reduce_fusion`), over the warps the executor is given.
_INTEGER_REDUCE = """
builtin.module {
  xtile.entry_func @count(%in: memref<2x256xi32>, %out: memref<2xi32>,
                          %pid: index {xla.range = [0 : index, 1 : index]}) {
    %c0 = arith.constant 0 : index
    %t = xtile.extract %in[%pid, %c0] [1, 256] [1, 1] : memref<2x256xi32> -> tensor<1x256xi32>
    %r = "tt.reduce"(%t) <{axis = 1 : i32}> ({
    ^bb0(%a: i32, %b: i32):
      %s = arith.COMBINE %a, %b : i32
      tt.reduce.return %s : i32
    }) : (tensor<1x256xi32>) -> tensor<1xi32>
    xtile.insert %r into %out[%pid] [1] [1] : tensor<1xi32> -> memref<2xi32>
    xtile.return
  }
}
"""


@pytest.mark.parametrize("combine", ["addi", "muli", "maxsi", "minsi", "xori"])
def test_an_order_free_integer_reduce_is_one_numpy_reduction_with_the_same_result_and_steps(
    combine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from xla_emit.interpreter.tile import triton_ops

    module, _ = parse_mlir(_INTEGER_REDUCE.replace("COMBINE", combine), "k.mlir")
    # Large values, so sums and products wrap around.
    x = np.random.default_rng(7).integers(-(2**31), 2**31, (2, 256), dtype=np.int64)
    x = x.astype(np.int32)
    fast = TileExecutor(module, num_warps=2)
    (fast_out,) = fast.run([x])
    monkeypatch.setattr(triton_ops, "order_free_combine", _never)
    slow = TileExecutor(module, num_warps=2)
    (slow_out,) = slow.run([x])
    assert fast_out.dtype == slow_out.dtype == np.int32
    assert fast_out.tolist() == slow_out.tolist()
    assert fast.step_counter.spent == slow.step_counter.spent
    ufunc = {"addi": np.add, "muli": np.multiply, "maxsi": np.maximum, "minsi": np.minimum}
    if combine in ufunc:  # an oracle outside the executor: numpy in Python integers, wrapped
        wide = ufunc[combine].reduce(x.astype(object), axis=1)
        expected = [((int(v) + 2**31) % 2**32) - 2**31 for v in wide]
        assert fast_out.tolist() == expected


def test_an_order_free_integer_reduce_keeps_the_step_budget() -> None:
    module, _ = parse_mlir(_INTEGER_REDUCE.replace("COMBINE", "addi"), "k.mlir")
    with run_limits(RunLimits(max_steps=20)), pytest.raises(UserError, match="step budget of 20"):
        TileExecutor(module, num_warps=2).run([np.zeros((2, 256), np.int32)])


# A row sum of f32 in Triton's order, its region's operands in the order ORDER.
_FLOAT_REDUCE = """
builtin.module {
  xtile.entry_func @sum(%in: memref<2x256xf32>, %out: memref<2xf32>,
                        %pid: index {xla.range = [0 : index, 1 : index]}) {
    %c0 = arith.constant 0 : index
    %t = xtile.extract %in[%pid, %c0] [1, 256] [1, 1] : memref<2x256xf32> -> tensor<1x256xf32>
    %r = "tt.reduce"(%t) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.COMBINE ORDER : f32
      tt.reduce.return %s : f32
    }) : (tensor<1x256xf32>) -> tensor<1xf32>
    xtile.insert %r into %out[%pid] [1] [1] : tensor<1xf32> -> memref<2xf32>
    xtile.return
  }
}
"""


@pytest.mark.parametrize("combine", ["addf", "mulf", "maximumf", "minnumf"])
@pytest.mark.parametrize("order", ["%a, %b", "%b, %a"])
def test_a_one_op_float_reduce_runs_its_ufunc_with_the_bits_and_steps_of_the_region(
    combine: str, order: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from xla_emit.interpreter.tile import triton_ops

    text = _FLOAT_REDUCE.replace("COMBINE", combine).replace("ORDER", order)
    module, _ = parse_mlir(text, "k.mlir")
    # Mixed magnitudes (sums round differently in other orders) and NaNs of two payloads
    # (which operand's payload survives depends on the operand order).
    rng = np.random.default_rng(11)
    x = (rng.standard_normal((2, 256)) * 10.0 ** rng.integers(-3, 4, (2, 256))).astype(np.float32)
    bits = x.view(np.uint32)
    bits[1, 5], bits[1, 77] = 0x7FC00001, 0x7FC00002
    fast = TileExecutor(module, num_warps=2)
    (fast_out,) = fast.run([x])
    monkeypatch.setattr(triton_ops, "direct_combine", _never)
    slow = TileExecutor(module, num_warps=2)
    (slow_out,) = slow.run([x])
    assert fast_out.view(np.uint32).tolist() == slow_out.view(np.uint32).tolist()
    assert fast.step_counter.spent == slow.step_counter.spent


# XLA's TTIR keeps an integer division marked `xla.guard_ub`; `xla-safe-integer-arithmetic`
# guards it later. The executor runs a marked one as guarded, an unmarked one by zero is an
# error, and the guarded IR the pass writes computes the same.
_DIVIDE = """
builtin.module {
  xtile.entry_func @divide(%a: memref<8xi32>, %b: memref<8xi32>, %q: memref<8xi32>,
                           %r: memref<8xi32>, %pid: index {xla.range = [0 : index, 0 : index]}) {
    %x = xtile.extract %a[%pid] [8] [1] : memref<8xi32> -> tensor<8xi32>
    %y = xtile.extract %b[%pid] [8] [1] : memref<8xi32> -> tensor<8xi32>
    %d = arith.divsi %x, %y MARK : tensor<8xi32>
    %m = arith.remsi %x, %y MARK : tensor<8xi32>
    xtile.insert %d into %q[%pid] [8] [1] : tensor<8xi32> -> memref<8xi32>
    xtile.insert %m into %r[%pid] [8] [1] : tensor<8xi32> -> memref<8xi32>
    xtile.return
  }
}
"""
_MIN = -(2**31)


def test_a_marked_division_gets_xla_values_for_x_by_zero_and_int_min_by_minus_one() -> None:
    a = np.array([7, -7, 0, _MIN, _MIN, 9, -9, 5], np.int32)
    b = np.array([0, 0, 0, -1, 1, 4, 4, -1], np.int32)
    # By hand: x / 0 = -1 and x % 0 = x; INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0; C's
    # truncation elsewhere (-9 / 4 = -2, -9 % 4 = -1).
    quotients = [-1, -1, -1, _MIN, _MIN, 2, -2, -5]
    remainders = [7, -7, 0, 0, 0, 1, -1, 0]
    marked, _ = parse_mlir(_DIVIDE.replace("MARK", "{xla.guard_ub}"), "k.mlir")
    q, r = TileExecutor(marked).run([a, b])
    assert (q.tolist(), r.tolist()) == (quotients, remainders)
    guarded, _ = parse_mlir(_DIVIDE.replace("MARK", "{xla.guard_ub}"), "k.mlir")
    SafeIntegerArithmeticPass().apply(Context(), guarded)
    assert "guard_ub" not in str(guarded)
    q, r = TileExecutor(guarded).run([a, b])
    assert (q.tolist(), r.tolist()) == (quotients, remainders)
    unmarked, _ = parse_mlir(_DIVIDE.replace("MARK", ""), "k.mlir")
    with pytest.raises(UserError, match="divides 7 by zero"):
        TileExecutor(unmarked).run([a, b])
