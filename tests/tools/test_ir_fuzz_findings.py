"""MLIR that fuzzing turned into tracebacks: each is now a located error or MLIR's value."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr

from xla_emit import api
from xla_emit.diagnostics import UserError
from xla_emit.ir import parse_mlir, verify_module

KERNEL = """func.func @main(%t: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {{
  %c0 = arith.constant 0 : index
{body}
  %w = tensor.insert %r into %o[%c0] : tensor<4xf32>
  return %w : tensor<4xf32>
}}
"""


def _verify(text: str) -> None:
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)


@pytest.mark.parametrize(
    ("body", "line", "operand"),
    [
        # An op using its own result.
        ("  %v = tensor.extract %t[%c0] : tensor<4xf32>\n  %r = arith.addf %r, %v : f32", 4, "%r"),
        # A use before the definition.
        ("  %r = arith.addf %v, %v : f32\n  %v = tensor.extract %t[%c0] : tensor<4xf32>", 3, "%v"),
    ],
)
def test_a_value_must_dominate_its_uses(body: str, line: int, operand: str) -> None:
    with pytest.raises(UserError) as raised:
        _verify(KERNEL.format(body=body))
    assert raised.value.location is not None and raised.value.location.line == line
    assert f"operand #0 ({operand}) does not dominate this use" in raised.value.message


def test_a_region_does_not_see_the_result_of_its_own_op() -> None:
    body = """  %c1 = arith.constant 1 : index
  %l = scf.for %i = %c0 to %c1 step %c1 iter_args(%a = %o) -> (tensor<4xf32>) {
    %x = tensor.extract %l[%i] : tensor<4xf32>
    %y = tensor.insert %x into %a[%i] : tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  }
  %r = tensor.extract %l[%c0] : tensor<4xf32>"""
    with pytest.raises(UserError, match="does not dominate") as raised:
        _verify(KERNEL.format(body=body))
    assert raised.value.location is not None and raised.value.location.line == 5


def test_values_of_enclosing_blocks_are_visible() -> None:
    body = """  %c1 = arith.constant 1 : index
  %v = tensor.extract %t[%c0] : tensor<4xf32>
  %l = scf.for %i = %c0 to %c1 step %c1 iter_args(%a = %v) -> (f32) {
    %s = arith.addf %a, %v : f32
    scf.yield %s : f32
  }
  %r = arith.addf %l, %v : f32"""
    text = KERNEL.format(body=body)
    _verify(text)
    x = np.array([1.5, 0, 0, 0], np.float32)
    (out,) = api.run_kernel(text, [x])
    assert out[0] == 4.5  # (1.5 + 1.5) + 1.5


def test_recursive_call_is_a_located_error() -> None:
    text = (
        "func.func @g(%a: f32) -> f32 {\n  %r = func.call @g(%a) : (f32) -> f32\n"
        "  return %r : f32\n}\n"
        + KERNEL.format(
            body="  %v = tensor.extract %t[%c0] : tensor<4xf32>\n"
            "  %r = func.call @g(%v) : (f32) -> f32"
        )
    )
    with pytest.raises(UserError, match=r"recursive call to '@g' \(@main -> @g -> @g\)") as raised:
        api.run_kernel(text, [np.zeros(4, np.float32)], entry="main")
    assert raised.value.location is not None and raised.value.location.line == 2


def test_a_non_recursive_call_chain_runs() -> None:
    text = (
        "func.func @h(%a: f32) -> f32 {\n  %r = arith.addf %a, %a : f32\n  return %r : f32\n}\n"
        "func.func @g(%a: f32) -> f32 {\n  %x = func.call @h(%a) : (f32) -> f32\n"
        "  %y = func.call @h(%x) : (f32) -> f32\n  return %y : f32\n}\n"
        + KERNEL.format(
            body="  %v = tensor.extract %t[%c0] : tensor<4xf32>\n"
            "  %r = func.call @g(%v) : (f32) -> f32"
        )
    )
    (out,) = api.run_kernel(text, [np.array([3, 0, 0, 0], np.float32)], entry="main")
    assert out[0] == 12


@pytest.mark.parametrize(
    ("literal", "type_", "expected"),
    [
        ("65536.0", "f16", np.inf),  # beyond f16's range: MLIR rounds to inf
        ("-65520.0", "f16", -np.inf),  # exactly half way past the largest f16: away to inf
        ("65504.0", "f16", 65504.0),
        ("1.0e39", "f32", np.inf),
        ("3.5e38", "bf16", np.inf),
        ("1.00390625", "bf16", 1.0),  # a tie: to even
    ],
)
def test_float_literals_round_to_their_type_as_mlir_does(
    literal: str, type_: str, expected: float
) -> None:
    for constant in (f"{literal} : {type_}", f"dense<[{literal}, 1.0]> : tensor<2x{type_}>"):
        result = "tensor<2x" + type_ + ">" if "dense" in constant else type_
        text = (
            f"func.func @f() -> {result} {{\n  %c = arith.constant {constant}\n"
            f"  return %c : {result}\n}}\n"
        )
        module, _ = parse_mlir(text)
        (constant_op,) = [op for op in module.walk() if isinstance(op, arith.ConstantOp)]
        attr = constant_op.value
        if isinstance(attr, DenseIntOrFPElementsAttr):
            assert attr.get_values()[0] == expected
        else:
            assert isinstance(attr, FloatAttr) and attr.value.data == expected


def test_dense_elements_wider_than_64_bits_are_a_located_error() -> None:
    text = (
        "func.func @f() -> tensor<2xi65> {\n  %c = arith.constant dense<[1, 2]> : tensor<2xi65>\n"
        "  return %c : tensor<2xi65>\n}\n"
    )
    with pytest.raises(UserError, match="wider than 64 bits") as raised:
        parse_mlir(text, "k.mlir")
    assert raised.value.location is not None and raised.value.location.line == 2
