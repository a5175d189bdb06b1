"""`vector.contract` in MLIR's printed form: round trips and the verifier's rules."""

from __future__ import annotations

import pytest

from xla_emit.diagnostics import UserError
from xla_emit.ir.parse import parse_mlir
from xla_emit.ir.verify import verify_module

MATMUL = (
    "%0 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, "
    "affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], "
    'iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} '
    "%a, %b, %c : vector<8x16xbf16>, vector<16x128xbf16> into vector<8x128xf32>"
)
# A transposed rhs and a batch dimension, as an attention kernel's q @ k^T writes it.
BATCHED = (
    "%1 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, "
    "affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, "
    "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], "
    'iterator_types = ["parallel", "parallel", "parallel", "reduction"], '
    "kind = #vector.kind<add>} "
    "%q, %k, %s : vector<2x8x64xf32>, vector<2x16x64xf32> into vector<2x8x16xf32>"
)
DOT = (
    "%2 = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, "
    'affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], '
    "kind = #vector.kind<add>} %v, %v, %f : vector<128xf32>, vector<128xf32> into f32"
)


def kernel(lines: list[str]) -> str:
    body = "\n".join(f"    {line}" for line in lines)
    return (
        "func.func @k(%a: vector<8x16xbf16>, %b: vector<16x128xbf16>, %c: vector<8x128xf32>, "
        "%q: vector<2x8x64xf32>, %k: vector<2x16x64xf32>, %s: vector<2x8x16xf32>, "
        "%v: vector<128xf32>, %f: f32) {\n" + body + "\n    func.return\n  }"
    )


def parsed(text: str):  # type: ignore[no-untyped-def]
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)
    return module


def test_contract_prints_as_mlir_does() -> None:
    printed = str(parsed(kernel([MATMUL, BATCHED, DOT])))
    for line in (MATMUL, BATCHED, DOT):
        assert f"\n    {line}\n" in printed, line
    assert str(parsed(printed)) == printed


def test_generic_form_parses_to_the_same_op() -> None:
    generic = (
        '%0 = "vector.contract"(%a, %b, %c) <{indexing_maps = ['
        "affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, "
        "affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = [#vector.iterator_type<parallel>, "
        "#vector.iterator_type<parallel>, #vector.iterator_type<reduction>], "
        "kind = #vector.kind<add>}> : (vector<8x16xbf16>, vector<16x128xbf16>, "
        "vector<8x128xf32>) -> vector<8x128xf32>"
    )
    assert f"\n    {MATMUL}\n" in str(parsed(kernel([generic])))


def _matmul_with(maps: str, iterators: str = '"parallel", "parallel", "reduction"') -> str:
    return (
        f"%0 = vector.contract {{indexing_maps = [{maps}], iterator_types = [{iterators}], "
        "kind = #vector.kind<add>} %a, %b, %c : vector<8x16xbf16>, vector<16x128xbf16> "
        "into vector<8x128xf32>"
    )


LHS, RHS, ACC = (
    "affine_map<(d0, d1, d2) -> (d0, d2)>",
    "affine_map<(d0, d1, d2) -> (d2, d1)>",
    "affine_map<(d0, d1, d2) -> (d0, d1)>",
)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            _matmul_with(f"{LHS}, {RHS}"),
            "'vector.contract' op expected an indexing map for each operand",
        ),
        (
            _matmul_with(f"affine_map<(d0, d1) -> (d0, d1)>, {RHS}, {ACC}"),
            "'vector.contract' op indexing map 0 must have 3 inputs, one per iterator type",
        ),
        (
            _matmul_with(f"{LHS}, affine_map<(d0, d1, d2) -> (d2)>, {ACC}"),
            "'vector.contract' op indexing map 1 must have 2 results, the operand's rank",
        ),
        (
            _matmul_with(f"{LHS}, {RHS}, affine_map<(d0, d1, d2) -> (d0, d0)>"),
            "'vector.contract' op indexing map 2 must be a projected permutation of its inputs",
        ),
        (
            _matmul_with(f"{LHS}, {RHS}, affine_map<(d0, d1, d2)[s0] -> (d0, d1)>"),
            "'vector.contract' op indexing map 2 must have no symbols",
        ),
        (
            _matmul_with(f"{LHS}, {RHS}, {ACC}", '"parallel", "parallel", "parallel"'),
            "'vector.contract' op parallel dimension d2 must index the accumulator",
        ),
        (
            _matmul_with(
                f"{LHS}, affine_map<(d0, d1, d2) -> (d0, d1)>, {ACC}",
            ),
            "'vector.contract' op reduction dimension d2 must index both lhs and rhs and not "
            "the accumulator",
        ),
        (
            _matmul_with(
                f"affine_map<(d0, d1, d2) -> (d2, d0)>, {RHS}, {ACC}",
            ),
            "'vector.contract' op dimension d2 has extent 8 in lhs but 16 in rhs",
        ),
        (
            # Only the generic form can give the result a type of its own.
            f'%0 = "vector.contract"(%a, %b, %c) <{{indexing_maps = [{LHS}, {RHS}, {ACC}], '
            "iterator_types = [#vector.iterator_type<parallel>, #vector.iterator_type<parallel>, "
            "#vector.iterator_type<reduction>], kind = #vector.kind<add>}> : (vector<8x16xbf16>, "
            "vector<16x128xbf16>, vector<8x128xf32>) -> vector<8x128xbf16>",
            "'vector.contract' op result type vector<8x128xbf16> differs from the accumulator "
            "type vector<8x128xf32>",
        ),
    ],
)
def test_verifier(line: str, message: str) -> None:
    with pytest.raises(UserError) as caught:
        parsed(kernel([line]))
    assert message in str(caught.value)


def test_unknown_iterator_type_is_a_located_error() -> None:
    with pytest.raises(UserError) as caught:
        parsed(kernel([_matmul_with(f"{LHS}, {RHS}, {ACC}", '"parallel", "parallel", "window"')]))
    assert "k.mlir:" in str(caught.value)
    assert "iterator types must be parallel or reduction" in str(caught.value)


def test_iterator_types_read_as_strings_or_enum_attributes() -> None:
    enums = _matmul_with(
        f"{LHS}, {RHS}, {ACC}",
        "#vector.iterator_type<parallel>, #vector.iterator_type<parallel>, "
        "#vector.iterator_type<reduction>",
    )
    strings = _matmul_with(f"{LHS}, {RHS}, {ACC}")
    assert str(parsed(kernel([enums]))) == str(parsed(kernel([strings])))


def test_a_stray_attribute_in_the_leading_dictionary_is_a_located_error() -> None:
    line = _matmul_with(f"{LHS}, {RHS}, {ACC}").replace("kind =", "masked = true, kind =")
    with pytest.raises(UserError) as caught:
        parsed(kernel([line]))
    assert "k.mlir:" in str(caught.value)
    assert "'vector.contract' has unexpected attributes masked" in str(caught.value)
