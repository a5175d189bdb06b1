"""Mosaic's explicit MXU ops in the TPU interpreter, against numpy matrix products.

The expected values follow `pltpu.matmul_push_rhs`, `matmul_acc_lhs`, `matmul_pop`,
`matmul_lhs_fifo` and `matmul_pop_fifo` as jax documents them; small integer
operands make every product exact, so numpy's float64 `@` is the oracle.
"""

from __future__ import annotations

import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.interpreter.tpu import run_tpu_kernel
from xla_emit.ir import parse_mlir

RNG = np.random.default_rng(17)
RHS = RNG.integers(-3, 4, size=(256, 256)).astype(np.float32)
LHS = RNG.integers(-3, 4, size=(2, 8, 256)).astype(np.float32)
V256 = "vector<256x256xf32>"
V8 = "vector<8x256xf32>"


def run(signature: str, body: str, *args: object) -> list[np.ndarray]:
    module, source_map = parse_mlir(f"func.func @f{signature} {{\n{body}\n}}\n", "k.mlir")
    return run_tpu_kernel(module, list(args), locate=source_map.location_of)


def push(register: int, mxu: int = 0, transpose: bool = False) -> str:
    flip = ", transpose = true" if transpose else ""
    return (
        f"tpu.matmul_push_rhs %rhs {{mxu_index = {mxu} : i32, staging_register = {register} : "
        f"i32{flip}}} : {V256}"
    )


def acc(lhs: str, address: int, load: int | None = None) -> str:
    staged = f", load_staged_rhs = {load} : i32" if load is not None else ""
    return (
        f'"tpu.matmul_acc_lhs"({lhs}) <{{acc = {address} : i32, mxu_index = 0 : i32{staged}}}> '
        f": ({V8}) -> ()"
    )


def test_accumulate_then_pop_and_zero() -> None:
    first, again = run(
        f"(%rhs: {V256}, %a: {V8}, %b: {V8}) -> ({V8}, {V8})",
        f"{push(1, transpose=True)}\n{acc('%a', 16, load=1)}\n{acc('%b', 16)}\n"
        f"%p = tpu.matmul_pop 16 {{mxu_index = 0 : i32}} : {V8}\n"
        f"%q = tpu.matmul_pop 16 {{mxu_index = 0 : i32}} : {V8}\n"
        f"return %p, %q : {V8}, {V8}",
        RHS,
        LHS[0],
        LHS[1],
    )
    expected = LHS[0].astype(np.float64) @ RHS.T + LHS[1].astype(np.float64) @ RHS.T
    np.testing.assert_array_equal(first, expected)
    assert not again.any()  # popping zeroed the accumulator


def test_result_fifo_pops_in_order() -> None:
    first, second = run(
        f"(%rhs: {V256}, %a: {V8}, %b: {V8}) -> ({V8}, {V8})",
        f"{push(0, mxu=1)}\n"
        f"tpu.matmul_lhs_fifo %a {{mxu_index = 1 : i32, load_staged_rhs = 0 : i32}} : {V8}\n"
        f"tpu.matmul_lhs_fifo %b {{mxu_index = 1 : i32}} : {V8}\n"
        f"%p = tpu.matmul_pop_fifo 1 : {V8}\n%q = tpu.matmul_pop_fifo 1 : {V8}\n"
        f"return %p, %q : {V8}, {V8}",
        RHS,
        LHS[0],
        LHS[1],
    )
    np.testing.assert_array_equal(first, LHS[0].astype(np.float64) @ RHS)
    np.testing.assert_array_equal(second, LHS[1].astype(np.float64) @ RHS)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            f"{push(2)}\n{push(2)}",
            "k.mlir:3:1: error: 'tpu.matmul_push_rhs' op pushes to staging register 2 of MXU 0, "
            "which is not loaded yet",
        ),
        (
            acc("%a", 0),
            "k.mlir:2:1: error: 'tpu.matmul_acc_lhs' op multiplies on MXU 0 before any RHS was "
            "loaded",
        ),
        (
            acc("%a", 0, load=3),
            "k.mlir:2:1: error: 'tpu.matmul_acc_lhs' op loads staging register 3 of MXU 0, which "
            "holds no RHS",
        ),
        (
            f"%p = tpu.matmul_pop_fifo 0 : {V8}",
            "k.mlir:2:1: error: 'tpu.matmul_pop_fifo' op pops the result FIFO of MXU 0, which is "
            "empty",
        ),
    ],
)
def test_misuse_of_the_matrix_unit_is_a_located_error(body: str, message: str) -> None:
    with pytest.raises(UserError) as caught:
        run(f"(%rhs: {V256}, %a: {V8})", f"{body}\nreturn", RHS, LHS[0])
    assert str(caught.value).splitlines()[0] == message
