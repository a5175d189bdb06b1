"""Integer ops whose result MLIR leaves undefined are errors naming the op, its line and lane.

Division by zero, signed INT_MIN / -1 and shifts by the bit width or more
(negative amounts are huge unsigned ones) are undefined or poison; every
executor sharing `scalars` reports them instead of inventing a value.
"""

from __future__ import annotations

import numpy as np
import pytest
from interpreter_harness import run_mlir

from xla_emit.diagnostics import UserError
from xla_emit.interpreter import CheckOptions
from xla_emit.interpreter.pto import PTOExecutor
from xla_emit.interpreter.tpu import run_tpu_kernel
from xla_emit.ir import parse_mlir

N = 8


def lane_kernel(op: str, type_: str = "i32") -> str:
    """out[t] = op(a[t], b[t]) with one thread per element; the op is on line 5."""
    return f"""func.func @main(%a: tensor<{N}x{type_}>, %b: tensor<{N}x{type_}>, %out: tensor<{N}x{type_}>) -> tensor<{N}x{type_}> {{
  %t = gpu.thread_id  x {{xla.range = [0 : index, {N - 1} : index]}}
  %x = tensor.extract %a[%t] : tensor<{N}x{type_}>
  %y = tensor.extract %b[%t] : tensor<{N}x{type_}>
  %r = {op} %x, %y : {type_}
  %o = tensor.insert %r into %out[%t] : tensor<{N}x{type_}>
  return %o : tensor<{N}x{type_}>
}}
"""  # noqa: E501 - IR listing, one op per line


def _operands(lane: int, a: int, b: int, dtype: type = np.int32) -> list[np.ndarray]:
    """Harmless operands everywhere except `lane`, which gets `a` and `b`."""
    lhs = np.full(N, 12, dtype)
    rhs = np.full(N, 3, dtype)
    lhs[lane], rhs[lane] = a, b
    return [lhs, rhs]


@pytest.mark.parametrize(
    ("op", "a", "b", "message"),
    [
        ("arith.divsi", 7, 0, "'arith.divsi' op divides 7 by zero, which is undefined"),
        ("arith.remsi", -7, 0, "'arith.remsi' op divides -7 by zero, which is undefined"),
        ("arith.divui", 7, 0, "'arith.divui' op divides 7 by zero, which is undefined"),
        ("arith.remui", 7, 0, "'arith.remui' op divides 7 by zero, which is undefined"),
        ("arith.floordivsi", 1, 0, "'arith.floordivsi' op divides 1 by zero, which is undefined"),
        ("arith.ceildivsi", 1, 0, "'arith.ceildivsi' op divides 1 by zero, which is undefined"),
        (
            "arith.divsi",
            -(2**31),
            -1,
            "'arith.divsi' op divides -2147483648 by -1, which overflows i32",
        ),
        (
            "arith.remsi",
            -(2**31),
            -1,
            "'arith.remsi' op divides -2147483648 by -1, which overflows i32",
        ),
        (
            "arith.shli",
            1,
            32,
            "'arith.shli' op shifts 1 by 32, not in [0, 32): the result is poison",
        ),
        (
            "arith.shrui",
            5,
            -1,
            "'arith.shrui' op shifts 5 by -1, not in [0, 32): the result is poison",
        ),
        (
            "arith.shrsi",
            -5,
            40,
            "'arith.shrsi' op shifts -5 by 40, not in [0, 32): the result is poison",
        ),
    ],
)
def test_simt_reports_the_op_line_and_lane(op: str, a: int, b: int, message: str) -> None:
    with pytest.raises(UserError) as caught:
        run_mlir(lane_kernel(op), _operands(5, a, b))
    assert caught.value.format().splitlines()[0] == (
        f"test.mlir:5:3: error: {message} (thread 5, block 0)"
    )


def test_defined_edges_run() -> None:
    """INT_MIN / 1, unsigned division of INT_MIN's bits by -1, shifts by width - 1 are defined."""
    (quotient,) = run_mlir(lane_kernel("arith.divsi"), _operands(2, -(2**31), 1))
    assert quotient[2] == -(2**31)
    (unsigned,) = run_mlir(lane_kernel("arith.divui"), _operands(2, -(2**31), -1))
    assert unsigned[2] == 0
    (shifted,) = run_mlir(lane_kernel("arith.shli"), _operands(2, 1, 31))
    assert shifted[2] == -(2**31)


def test_the_check_can_be_turned_off() -> None:
    (result,) = run_mlir(lane_kernel("arith.divsi"), _operands(0, 1, 0), checks=CheckOptions.none())
    assert result[1:].tolist() == [4] * (N - 1)


GUARDED = """func.func @main(%a: tensor<8xi32>, %b: tensor<8xi32>, %out: tensor<8xi32>) -> tensor<8xi32> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 7 : index]}
  %x = tensor.extract %a[%t] : tensor<8xi32>
  %y = tensor.extract %b[%t] : tensor<8xi32>
  %zero = arith.constant 0 : i32
  %nonzero = arith.cmpi ne, %y, %zero : i32
  %r = scf.if %nonzero -> (i32) {
    %q = arith.divsi %x, %y : i32
    scf.yield %q : i32
  } else {
    scf.yield %zero : i32
  }
  %o = tensor.insert %r into %out[%t] : tensor<8xi32>
  return %o : tensor<8xi32>
}
"""  # noqa: E501 - IR listing, one op per line


def test_lanes_that_skip_the_division_are_not_reported() -> None:
    (result,) = run_mlir(GUARDED, _operands(3, 9, 0))
    assert result.tolist() == [4, 4, 4, 0, 4, 4, 4, 4]


def scalar_function(op: str) -> str:
    return f"""func.func @f(%a: i32, %b: i32) -> i32 {{
  %r = {op} %a, %b : i32
  return %r : i32
}}
"""


def _run_tpu(text: str, a: int, b: int) -> object:
    module, _ = parse_mlir(text, "test.mlir")
    return run_tpu_kernel(module, [a, b])


def _run_pto(text: str, a: int, b: int) -> object:
    module, _ = parse_mlir(text, "test.mlir")
    return PTOExecutor(module).run("f", [a, b])


@pytest.mark.parametrize("run", [_run_tpu, _run_pto], ids=["tpu", "pto"])
@pytest.mark.parametrize(
    ("op", "a", "b", "message"),
    [
        ("arith.divsi", 7, 0, "'arith.divsi' op divides 7 by zero, which is undefined"),
        ("arith.remui", 7, 0, "'arith.remui' op divides 7 by zero, which is undefined"),
        (
            "arith.divsi",
            -(2**31),
            -1,
            "'arith.divsi' op divides -2147483648 by -1, which overflows i32",
        ),
        (
            "arith.shli",
            1,
            -3,
            "'arith.shli' op shifts 1 by -3, not in [0, 32): the result is poison",
        ),
    ],
)
def test_whole_value_executors_report_the_op(run, op: str, a: int, b: int, message: str) -> None:
    with pytest.raises(UserError) as caught:
        run(scalar_function(op), a, b)
    assert message in caught.value.format()
