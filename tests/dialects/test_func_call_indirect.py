"""`func.call_indirect` (`dialects/func_ext.py`): MLIR's syntax and verifier."""

from __future__ import annotations

import io

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

from xla_emit.diagnostics import UserError
from xla_emit.ir import parse_mlir, verify_module


def print_module(module: ModuleOp) -> str:
    stream = io.StringIO()
    Printer(stream=stream).print_op(module)
    return stream.getvalue()


CALL = """module {
  func.func @k(%f: (f32, i32) -> f32, %x: f32, %n: i32) -> f32 {
    %r = func.call_indirect %f(%x, %n) : (f32, i32) -> f32
    func.return %r : f32
  }
}
"""


def test_an_indirect_call_reads_verifies_and_prints_back() -> None:
    module, source_map = parse_mlir(CALL, "call.mlir")
    verify_module(module, source_map)
    printed = print_module(module)
    assert "%r = func.call_indirect %f(%x, %n) : (f32, i32) -> f32" in printed
    again, _ = parse_mlir(printed, "again.mlir")
    assert print_module(again) == printed


def test_the_arguments_are_the_callees_inputs() -> None:
    text = CALL.replace("%f(%x, %n)", "%f(%x)")
    with pytest.raises(UserError) as caught:
        parse_mlir(text, "call.mlir")
    assert caught.value.format().startswith(
        "call.mlir:3:38: error: expected 2 arguments for (f32, i32) -> f32, got 1"
    )
