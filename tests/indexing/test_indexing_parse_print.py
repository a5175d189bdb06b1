"""Parsing and printing of XLA's indexing-map syntax."""

import pytest

from xla_emit.indexing import (
    ConstantExpr,
    DimExpr,
    IndexingMap,
    IndexingMapSyntaxError,
    Interval,
    SymbolExpr,
    Variable,
    parse_indexing_map,
)

GELU_MAP = (
    "(th_x, bl_x)[vector_index] -> (bl_x floordiv 4096, (bl_x floordiv 8) mod 512, "
    "(bl_x mod 8) * 512 + th_x * 4 + vector_index), domain: th_x in [0, 127], "
    "bl_x in [0, 24575], vector_index in [0, 3]"
)


@pytest.mark.parametrize(
    "text",
    [
        GELU_MAP,
        (
            "(d0, d1)[s0]{rt0} -> (d0 + s0, d1), domain: d0 in [0, 3], d1 in [0, 7], "
            "s0 in [0, 1], rt0 in [0, 9], d0 + s0 in [1, 10]"
        ),
        "() -> ()",
        "(d0) -> (), domain: d0 in [0, 42]",
        "(d0) -> ((d0 - 1) floordiv 2, -d0 + 7), domain: d0 in [1, 7], (d0 - 1) mod 2 in [0, 0]",
        (
            "(d0, d1) -> (d0 - d1 * 3, d0 - (d1 + 2), max(d0, d1), min(d0, 3)), "
            "domain: d0 in [0, 9], d1 in [-4, 4]"
        ),
        "(d0) -> (d0 ceildiv 4, (-d0) mod 3, (d0 * 4) floordiv 8), domain: d0 in [-8, 8]",
        "(d0)[s0, s1] -> (d0 * s0 + s1), domain: d0 in [0, 3], s0 in [0, 3], s1 in [0, 3]",
        "KNOWN EMPTY",
    ],
)
def test_round_trip_is_exact(text: str) -> None:
    assert str(parse_indexing_map(text)) == text


def test_gelu_map_structure() -> None:
    m = parse_indexing_map(GELU_MAP)
    th_x, bl_x, vector_index = DimExpr(0), DimExpr(1), SymbolExpr(0)
    assert m.dim_vars == (Variable(Interval(0, 127), "th_x"), Variable(Interval(0, 24575), "bl_x"))
    assert m.range_vars == (Variable(Interval(0, 3), "vector_index"),)
    assert m.rt_vars == ()
    assert m.results == (
        bl_x.floordiv(4096),
        bl_x.floordiv(8).mod(512),
        bl_x.mod(8) * 512 + th_x * 4 + vector_index,
    )


def test_default_names_are_normalized() -> None:
    m = parse_indexing_map(
        "(d0)[s0]{rt0} -> (d0 + s0 + rt0), domain: d0 in [0, 1], s0 in [0, 2], rt0 in [0, 3]"
    )
    assert m == IndexingMap(
        dim_vars=(Variable(Interval(0, 1)),),
        range_vars=(Variable(Interval(0, 2)),),
        rt_vars=(Variable(Interval(0, 3)),),
        results=(DimExpr(0) + SymbolExpr(0) + SymbolExpr(1),),
    )


@pytest.mark.parametrize("spelling", ["d0 floordiv 4", "d0 floorDiv 4", "d0 / 4"])
def test_floor_division_spellings(spelling: str) -> None:
    m = parse_indexing_map(f"(d0) -> ({spelling}), domain: d0 in [0, 15]")
    assert str(m) == "(d0) -> (d0 floordiv 4), domain: d0 in [0, 15]"


def test_is_simplified_flag_is_accepted_and_dropped() -> None:
    text = "(d0) -> (d0), domain: d0 in [0, 3], d0 mod 2 in [0, 0], is_simplified: true"
    assert str(parse_indexing_map(text)) == "(d0) -> (d0), domain: d0 in [0, 3], d0 mod 2 in [0, 0]"
    no_vars = "() -> (5), is_simplified: false"
    assert str(parse_indexing_map(no_vars)) == "() -> (5)"


def test_adjacent_literals_joined_with_newlines_parse() -> None:
    # The attribute layer concatenates "..." "..." pieces; line breaks may remain.
    text = (
        "(th_x, bl_x)[vector_index] -> (\n"
        " bl_x floordiv 4096, (bl_x floordiv 8) mod 512, (bl_x mod 8) * 512 + th_x * 4 + "
        "vector_index),\n domain: th_x in [0, 127], bl_x in [0, 24575], vector_index in [0, 3]"
    )
    assert str(parse_indexing_map(text)) == GELU_MAP


@pytest.mark.parametrize(
    ("source", "printed"),
    [
        ("-1 * d0", "-d0"),
        ("d0 + (-d1)", "d0 - d1"),
        ("d0 + d1 * -3", "d0 - d1 * 3"),
        ("d0 + -5", "d0 - 5"),
        ("3 + d0", "d0 + 3"),
        ("d0 * 1 + 0", "d0"),
        ("2 * 3 + 4 floordiv 3", "7"),
        ("(d0 * 2) * 3", "d0 * 6"),
        ("d0 + 1 + d1", "d0 + d1 + 1"),
        ("- -d0", "d0"),
        ("d0 - d1 floordiv 2", "d0 - d1 floordiv 2"),
        ("d0 - (d1 mod 4) * 2", "d0 - (d1 mod 4) * 2"),
    ],
)
def test_expression_printing_conventions(source: str, printed: str) -> None:
    m = parse_indexing_map(f"(d0, d1) -> ({source}), domain: d0 in [0, 9], d1 in [0, 9]")
    assert m.results[0].to_str(m.dim_names, m.symbol_names) == printed


def test_precedence_mul_binds_tighter_than_add() -> None:
    m = parse_indexing_map("(d0, d1) -> (d0 + d1 * 2 mod 3), domain: d0 in [0, 9], d1 in [0, 9]")
    d0, d1 = DimExpr(0), DimExpr(1)
    assert m.results == (d0 + (d1 * 2).mod(3),)
    # Left associativity within one precedence level.
    m2 = parse_indexing_map("(d0) -> (d0 floordiv 2 * 3 mod 5), domain: d0 in [0, 9]")
    assert m2.results == ((d0.floordiv(2) * 3).mod(5),)


def test_negative_bounds_and_constraint_sorting() -> None:
    m = parse_indexing_map(
        "(d0, d1) -> (d0), domain: d0 in [-5, 5], d1 in [0, 9], d1 mod 3 in [1, 1], "
        "d0 + d1 in [-2, 3]"
    )
    # Constraints print sorted as strings, whatever the input order.
    assert str(m).endswith("d0 + d1 in [-2, 3], d1 mod 3 in [1, 1]")
    assert m.dim_vars[0].bounds == Interval(-5, 5)


def test_constraint_on_variable_tightens_bounds() -> None:
    m = parse_indexing_map("(d0) -> (d0), domain: d0 in [0, 49], d0 in [10, 99]")
    assert str(m) == "(d0) -> (d0), domain: d0 in [10, 49]"


@pytest.mark.parametrize(
    "text",
    [
        "(d0) -> (d0), domain: d0 in [0, -2]",
        "(d0) -> (d0), domain: d0 in [0, 49], 0 in [10, 15]",
        "(d0) -> (d0), domain: d0 in [0, 49], d0 in [50, 60]",
    ],
)
def test_infeasible_domain_is_known_empty(text: str) -> None:
    m = parse_indexing_map(text)
    assert m.is_known_empty
    assert str(m) == "KNOWN EMPTY"


def _error(text: str) -> IndexingMapSyntaxError:
    with pytest.raises(IndexingMapSyntaxError) as info:
        parse_indexing_map(text)
    return info.value


@pytest.mark.parametrize(
    ("text", "offset", "message"),
    [
        ("(d0) -> (d0 + d7), domain: d0 in [0, 3]", 14, "unknown variable 'd7'"),
        ("(d0) -> ((d0 + 1), domain: d0 in [0, 3]", 19, "expected ')' to close '(' at offset 8"),
        (
            "(d0) -> ((d0 + 1 floordiv 2, d0), domain: d0 in [0, 3]",
            27,
            "expected ')' to close '(' at offset 9",
        ),
        ("(d0) -> (d0)), domain: d0 in [0, 3]", 12, "unexpected ')' after the indexing map"),
        (
            "(d0, d1 -> (d0), domain: d0 in [0, 3]",
            8,
            "expected ',' or ')' to close '(' at offset 0",
        ),
        ("(d0) -> (d0), domain: d0 in [0 3]", 31, "expected ',' between the interval bounds"),
        ("(d0) -> (d0), domain: d0 in [a, 3]", 29, "expected an integer lower bound, but got 'a'"),
        ("(d0) -> (d0), domain: d0 in [0, 3", 33, "expected ']' to close the interval"),
        ("(d0) -> (d0), domain: d0 in 0, 3]", 28, "expected '[' to start an interval"),
        ("(d0, d1) -> (d0), domain: d1 in [0, 3], d0 in [0, 3]", 26, "expected the range of 'd0'"),
        ("(d0, d1) -> (d0), domain: d0 in [0, 3]", 38, "expected ',' before the range of 'd1'"),
        ("(d0) -> (d0)", 12, "expected ', domain:' giving the range of 'd0'"),
        ("(d0, d0) -> (d0), domain: d0 in [0, 3]", 5, "variable 'd0' is declared twice"),
        ("(d0) -> (d0 mod 0), domain: d0 in [0, 3]", 12, "'mod' by zero"),
        ("(d0) -> (d0 $ 1), domain: d0 in [0, 3]", 12, "unexpected character '$'"),
        ("(d0) -> (d0), domain: d0 in [0, 3], d0 + 1", 42, "expected 'in' after a constraint"),
        (
            "(d0) -> (max(d0 1)), domain: d0 in [0, 3]",
            16,
            "expected ',' between the arguments of 'max'",
        ),
        ("(mod) -> (0), domain: mod in [0, 3]", 1, "'mod' is a keyword"),
        ("(d0) (d0), domain: d0 in [0, 3]", 5, "expected '->' after the variable lists"),
    ],
)
def test_syntax_errors_carry_offsets(text: str, offset: int, message: str) -> None:
    error = _error(text)
    assert error.offset == offset, (error.offset, error.message)
    assert error.message.startswith(message), error.message


def test_constant_expressions_are_folded_when_parsed() -> None:
    m = parse_indexing_map("() -> (7 floordiv 2, -7 floordiv 2, -7 mod 3, 7 ceildiv 2)")
    assert m.results == tuple(ConstantExpr(v) for v in (3, -4, 2, 4))
