"""The vector forms of arith, and vector.multi_reduction / shape_cast, as Pallas writes them."""

from __future__ import annotations

import pytest

from xla_emit.diagnostics import UserError
from xla_emit.ir.parse import parse_mlir
from xla_emit.ir.verify import verify_module

LINES = [
    "%0 = arith.cmpf ogt, %x, %x : vector<8x128xf32>",
    "%1 = arith.cmpi slt, %i, %i : vector<8x128xi32>",
    "%2 = arith.andi %0, %1 : vector<8x128xi1>",
    "%3 = arith.select %2, %x, %x : vector<8x128xi1>, vector<8x128xf32>",
    "%4 = arith.select %p, %x, %x : vector<8x128xf32>",
    "%5 = arith.extui %2 : vector<8x128xi1> to vector<8x128xi32>",
    "%6 = arith.sitofp %i : vector<8x128xi32> to vector<8x128xf32>",
    "%7 = arith.fptosi %x : vector<8x128xf32> to vector<8x128xi32>",
    "%8 = arith.trunci %i : vector<8x128xi32> to vector<8x128xi8>",
    "%9 = arith.extsi %8 : vector<8x128xi8> to vector<8x128xi32>",
    "%10 = vector.multi_reduction <maximumf>, %x, %acc [1] : vector<8x128xf32> to vector<8xf32>",
    "%11 = vector.shape_cast %10 : vector<8xf32> to vector<8x1xf32>",
    "%12 = vector.multi_reduction <add>, %i, %all [0, 1] : vector<8x128xi32> to i32",
]


def kernel(lines: list[str]) -> str:
    body = "\n".join(f"    {line}" for line in lines)
    return (
        "func.func @k(%x: vector<8x128xf32>, %i: vector<8x128xi32>, %p: i1, "
        "%acc: vector<8xf32>, %all: i32) {\n" + body + "\n    func.return\n  }"
    )


def parsed(text: str):
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)
    return module


def test_vector_forms_print_back_unchanged() -> None:
    printed = str(parsed(kernel(LINES)))
    for line in LINES:
        assert f"\n    {line}\n" in printed, line
    assert str(parsed(printed)) == printed


def test_compares_give_bool_vectors() -> None:
    module = parsed(kernel(LINES[:2]))
    types = [str(op.results[0].type) for op in module.walk() if op.name.startswith("arith.cmp")]
    assert types == ["vector<8x128xi1>", "vector<8x128xi1>"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "%0 = arith.extui %i : vector<8x128xi32> to vector<8x128xi8>",
            "'arith.extui' op result type vector<8x128xi8> must be wider than operand type "
            "vector<8x128xi32>",
        ),
        (
            "%0 = arith.sitofp %i : vector<8x128xi32> to vector<8xf32>",
            "'arith.sitofp' op requires the same shape for all operands and results",
        ),
        (
            "%0 = vector.multi_reduction <add>, %x, %acc [0] : vector<8x128xf32> to vector<8xf32>",
            "'vector.multi_reduction' op destination shape [8] is incompatible with the source "
            "shape [8, 128] reduced over [0]",
        ),
        (
            "%0 = vector.multi_reduction <maxsi>, %x, %acc [1] : vector<8x128xf32> "
            "to vector<8xf32>",
            "'vector.multi_reduction' op unsupported reduction kind 'maxsi' for element type f32",
        ),
        (
            "%0 = vector.multi_reduction <add>, %x, %acc [2] : vector<8x128xf32> to vector<8xf32>",
            "'vector.multi_reduction' op reduction dims [2] out of range or repeated for rank 2",
        ),
        (
            "%0 = vector.shape_cast %x : vector<8x128xf32> to vector<8x8xf32>",
            "'vector.shape_cast' op source vector<8x128xf32> and result vector<8x8xf32> have "
            "different element counts",
        ),
    ],
)
def test_verifiers(line: str, message: str) -> None:
    with pytest.raises(UserError) as caught:
        parsed(kernel([line]))
    assert message in str(caught.value)
