"""scf.forall, tensor.parallel_insert_slice and today's XLA attributes: syntax and errors."""

from __future__ import annotations

import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.interpreter import Executor
from xla_emit.ir.parse import parse_mlir
from xla_emit.ir.verify import verify_module

KERNEL = """\
builtin.module attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i32>} {
  func.func @k(%arg0: tensor<2x4xf32> {xla.invariant, xla.slice_index = 0 : index}, \
%arg1: tensor<2x4xf32> {llvm.align = 16 : index, xla.slice_index = 1 : index}) -> tensor<2x4xf32> \
attributes {xla.backend_kind = #xla.backend_kind<gpu>, xla.entry} {
    %0 = xla.workgroup_id x {xla.range = [0 : index, 1 : index]}
    %1 = scf.forall (%arg2, %arg3) in (4, 1) shared_outs(%arg4 = %arg1) -> (tensor<2x4xf32>) {
      %2 = tensor.extract %arg0[%0, %arg2] : tensor<2x4xf32>
      %3 = arith.addf %2, %2 : f32
      %4 = tensor.insert %3 into %arg4[%0, %arg2] : tensor<2x4xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %4 into %arg4[0, 0] [2, 4] [1, 1] : tensor<2x4xf32> into \
tensor<2x4xf32>
      }
    }
    func.return %1 : tensor<2x4xf32>
  }
  func.func private @unused() -> f32 attributes {llvm.linkage = #llvm.linkage<internal>}
}
"""


def test_a_forall_kernel_prints_back_unchanged() -> None:
    module, source_map = parse_mlir(KERNEL, "k.mlir")
    verify_module(module, source_map)
    # The grid-id ops print two spaces before the dimension, as the seed's listings do.
    expected = KERNEL.replace("\\\n", "").rstrip("\n").replace("_id x", "_id  x")
    assert str(module) == expected


def test_a_forall_with_lower_bounds_and_steps_prints_back() -> None:
    text = (
        "func.func @f(%a: tensor<8xf32>, %lb: index) -> tensor<8xf32> {\n"
        "  %0 = scf.forall (%i, %j) = (%lb, 1) to (8, 7) step (2, 3) shared_outs(%o = %a) "
        "-> (tensor<8xf32>) {\n"
        "    scf.forall.in_parallel {\n"
        "      tensor.parallel_insert_slice %o into %o[0] [8] [1] : tensor<8xf32> into "
        "tensor<8xf32>\n"
        "    }\n"
        "  }\n"
        "  scf.forall (%k) = (0) to (4) step (1) {\n"
        "  }\n"
        "  func.return %0 : tensor<8xf32>\n"
        "}"
    )
    module, source_map = parse_mlir(text, "f.mlir")
    verify_module(module, source_map)
    printed = str(module)
    # Lower bounds 0 and steps 1 print in the normalized form, as MLIR prints them.
    assert "scf.forall (%i, %j) = (%lb, 1) to (8, 7) step (2, 3) shared_outs(%o = %a)" in printed
    assert "scf.forall (%k) in (4) {" in printed
    reparsed, _ = parse_mlir(printed, "f.mlir")
    assert str(reparsed) == printed


def test_forall_iterations_are_threads_and_workgroups_are_blocks() -> None:
    module, _ = parse_mlir(KERNEL, "k.mlir")
    executor = Executor(module)
    x = np.arange(8, dtype=np.float32).reshape(2, 4)
    (result,) = executor.run([x])
    assert executor.grid.threads == (4, 1, 1) and executor.grid.blocks == (2, 1, 1)
    np.testing.assert_array_equal(result, x + x)


def test_a_dense_hex_literal_is_a_bit_pattern() -> None:
    text = "%c = arith.constant dense<0xFF800000> : vector<2xf32>\n"
    module, _ = parse_mlir(text, "c.mlir")
    assert "dense<0xff800000> : vector<2xf32>" in str(module)
    bf16 = parse_mlir("%c = arith.constant dense<0xFF80> : vector<2xbf16>\n", "c.mlir")[0]
    assert "dense<0xff80> : vector<2xbf16>" in str(bf16)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "scf.forall (%i, %j) = (0, 0) to (4, 4) step (1) {\n}\n",
            "c.mlir:1:49: error: expected 2 steps, one per induction variable, but got 1",
        ),
        (
            "scf.forall (%i) = (0) to (4) {\n}\n",
            "c.mlir:1:30: error: Expected 'step'",
        ),
        (
            "scf.forall (%i, %j) in (4) {\n}\n",
            "c.mlir:1:28: error: expected 2 upper bounds, one per induction variable, but got 1",
        ),
        (
            "func.func @f() attributes {xla.backend_kind = #xla.backend_kind<npu>} {\n"
            "  func.return\n}\n",
            "c.mlir:1:65: error: Expected `cpu`, `gpu`, or `tpu`.",
        ),
        (
            "func.func private @f() attributes {llvm.linkage = #llvm.linkage<nowhere>}\n",
            "c.mlir:1:73: error: unknown linkage 'nowhere'",
        ),
        (
            "%c = arith.constant dense<0x1FF800000> : vector<2xf32>\n",
            "c.mlir:1:27: error: hex literal does not fit f32",
        ),
        ("%0 = scf.forall.in_parallel {\n}\n", None),
    ],
)
def test_bad_forall_syntax_is_a_located_error(text: str, message: str | None) -> None:
    with pytest.raises(UserError) as caught:
        module, source_map = parse_mlir(text, "c.mlir")
        verify_module(module, source_map)
    if message is not None:
        assert caught.value.format().splitlines()[0] == message


def test_parallel_insert_slice_outside_in_parallel_is_rejected() -> None:
    text = (
        "func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) {\n"
        "  tensor.parallel_insert_slice %a into %b[0] [4] [1] : tensor<4xf32> into tensor<4xf32>\n"
        "  func.return\n}\n"
    )
    module, source_map = parse_mlir(text, "p.mlir")
    with pytest.raises(UserError) as caught:
        verify_module(module, source_map)
    assert "expected to be inside scf.forall.in_parallel" in caught.value.format()


def test_a_forall_needs_one_result_type_per_shared_out() -> None:
    text = KERNEL.replace("-> (tensor<2x4xf32>) {", "-> (tensor<2x4xf32>, f32) {")
    with pytest.raises(UserError, match=r"k.mlir:4:.*expected 1 result types, but got 2"):
        parse_mlir(text, "k.mlir")
