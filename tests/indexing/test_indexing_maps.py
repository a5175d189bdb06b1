"""Evaluation, domains, ranges, composition and the shape helpers of indexing maps."""

import itertools

import numpy as np
import pytest

from xla_emit.indexing import (
    DimExpr,
    IndexingMap,
    Interval,
    SymbolExpr,
    Variable,
    compose_indexing_maps,
    delinearize_map,
    identity_map,
    linearize_map,
    parse_indexing_map,
)

GELU_MAP = (
    "(th_x, bl_x)[vector_index] -> (bl_x floordiv 4096, (bl_x floordiv 8) mod 512, "
    "(bl_x mod 8) * 512 + th_x * 4 + vector_index), domain: th_x in [0, 127], "
    "bl_x in [0, 24575], vector_index in [0, 3]"
)


def test_evaluate_at_a_point_by_hand() -> None:
    m = parse_indexing_map(GELU_MAP)
    # th_x = 5, bl_x = 9000, vector_index = 3:
    # 9000 // 4096 = 2; (9000 // 8) % 512 = 1125 % 512 = 101; (9000 % 8) * 512 + 20 + 3 = 23
    assert m.evaluate([5, 9000], [3]) == (2, 101, 23)


def test_evaluate_uses_floor_semantics() -> None:
    m = parse_indexing_map(
        "(d0) -> (d0 floordiv 4, d0 mod 4, d0 ceildiv 4, -d0), domain: d0 in [-9, 9]"
    )
    assert m.evaluate([-7]) == (-2, 1, -1, 7)
    assert m.evaluate([7]) == (1, 3, 2, -7)


def test_evaluate_vectorized_matches_numpy_formula() -> None:
    m = parse_indexing_map(GELU_MAP)
    th = np.arange(128, dtype=np.int64).repeat(4 * 300)
    bl = np.tile(np.arange(0, 24575, 82, dtype=np.int64).repeat(4), 128)
    vi = np.tile(np.arange(4, dtype=np.int64), 128 * 300)
    d0, d1, d2 = m.evaluate([th, bl], [vi])
    assert isinstance(d0, np.ndarray) and d0.shape == th.shape
    np.testing.assert_array_equal(d0, bl // 4096)
    np.testing.assert_array_equal(d1, (bl // 8) % 512)
    np.testing.assert_array_equal(d2, (bl % 8) * 512 + th * 4 + vi)


def test_evaluate_min_max_on_arrays_and_ints() -> None:
    m = parse_indexing_map(
        "(d0, d1) -> (min(d0, d1), max(d0, d1 - 3)), domain: d0 in [0, 9], d1 in [0, 9]"
    )
    assert m.evaluate([4, 6]) == (4, 4)
    lo, hi = m.evaluate([np.array([1, 8]), np.array([5, 2])])
    np.testing.assert_array_equal(lo, [1, 2])
    np.testing.assert_array_equal(hi, [2, 8])


def test_is_in_domain_checks_bounds_and_constraints() -> None:
    m = parse_indexing_map(
        "(d0)[s0] -> (d0), domain: d0 in [1, 7], s0 in [0, 2], (d0 - 1) mod 2 in [0, 0]"
    )
    expected = [
        (d0 in range(1, 8)) and (d0 - 1) % 2 == 0 and s0 in range(3)
        for d0 in range(-2, 10)
        for s0 in range(-1, 4)
    ]
    got = [m.is_in_domain([d0], [s0]) for d0 in range(-2, 10) for s0 in range(-1, 4)]
    assert got == expected
    d0s, s0s = np.meshgrid(np.arange(-2, 10), np.arange(-1, 4), indexing="ij")
    mask = m.is_in_domain([d0s.ravel()], [s0s.ravel()])
    assert list(np.asarray(mask)) == expected


def test_known_empty_map_has_no_domain_points() -> None:
    m = parse_indexing_map("(d0) -> (d0), domain: d0 in [0, 49], 0 in [10, 15]")
    assert m.is_in_domain([3]) is False
    assert not np.asarray(m.is_in_domain([np.arange(5)])).any()


def test_evaluate_checks_arity() -> None:
    with pytest.raises(ValueError, match="expected 2 dims and 1 symbols"):
        parse_indexing_map(GELU_MAP).evaluate([1], [0])


@pytest.mark.parametrize(
    ("expr_text", "expected"),
    [
        ("d0 * 4 + s0", Interval(0, 4 * 9 + 3)),
        ("d0 - s0 * 2", Interval(-6, 9)),
        ("d0 floordiv 4", Interval(0, 2)),
        ("d0 mod 4", Interval(0, 3)),
        ("(d0 + 4) mod 16", Interval(4, 13)),  # no wrap-around in [4, 13]
        ("s0 mod 8", Interval(0, 3)),
        ("d0 ceildiv 4", Interval(0, 3)),
        ("max(d0, s0 * 5)", Interval(0, 15)),
        ("min(d0, s0)", Interval(0, 3)),
        ("-d0 floordiv 3", Interval(-3, 0)),
    ],
)
def test_expression_range_encloses_values_tightly(expr_text: str, expected: Interval) -> None:
    m = parse_indexing_map(f"(d0)[s0] -> ({expr_text}), domain: d0 in [0, 9], s0 in [0, 3]")
    got = m.expression_range(m.results[0])
    values = [m.evaluate([d0], [s0])[0] for d0 in range(10) for s0 in range(4)]
    assert got == expected
    # These cases are all exact: the range is the hull of the values.
    assert (min(values), max(values)) == (got.lower, got.upper)


def test_expression_range_uses_a_matching_constraint() -> None:
    m = parse_indexing_map(
        "(d0, d1) -> (d0 + d1), domain: d0 in [0, 9], d1 in [0, 9], d0 + d1 in [3, 5]"
    )
    assert m.expression_range(DimExpr(0) + DimExpr(1)) == Interval(3, 5)


def test_transpose_composed_with_itself_is_identity() -> None:
    transpose_4x6 = parse_indexing_map("(d0, d1) -> (d1, d0), domain: d0 in [0, 3], d1 in [0, 5]")
    transpose_6x4 = parse_indexing_map("(d0, d1) -> (d1, d0), domain: d0 in [0, 5], d1 in [0, 3]")
    composed = compose_indexing_maps(transpose_4x6, transpose_6x4)
    assert composed == identity_map([4, 6])
    assert str(composed.simplify()) == "(d0, d1) -> (d0, d1), domain: d0 in [0, 3], d1 in [0, 5]"


def test_composition_orders_symbols_like_xla() -> None:
    first = parse_indexing_map(
        "(d0)[a]{ra} -> (d0 + a, ra), domain: d0 in [0, 3], a in [0, 1], ra in [0, 9]"
    )
    second = parse_indexing_map(
        "(x, y)[b]{rb} -> (x * b + y + rb), domain: x in [0, 4], y in [0, 9], b in [0, 2], rb in "
        "[0, 5]"
    )
    composed = compose_indexing_maps(first, second)
    assert [v.name for v in composed.range_vars] == ["b", "a"]
    assert [v.name for v in composed.rt_vars] == ["rb", "ra"]
    # Brute force: the composition equals applying first, then second, on the joint domain.
    for d0, a, ra, b, rb in itertools.product(range(4), range(2), range(10), range(3), range(6)):
        x, y = first.evaluate([d0], [a, ra])
        assert composed.evaluate([d0], [b, a, rb, ra]) == second.evaluate([x, y], [b, rb])
        inside = first.is_in_domain([d0], [a, ra]) and second.is_in_domain([x, y], [b, rb])
        assert composed.is_in_domain([d0], [b, a, rb, ra]) == inside


def test_composition_constrains_results_to_the_second_domain() -> None:
    first = parse_indexing_map("(d0) -> (d0 * 2), domain: d0 in [0, 9]")
    second = parse_indexing_map("(d0) -> (d0), domain: d0 in [0, 7]")
    composed = compose_indexing_maps(first, second).simplify()
    # d0 * 2 in [0, 7] normalizes to d0 in [0, 3].
    assert str(composed) == "(d0) -> (d0 * 2), domain: d0 in [0, 3]"


def test_gelu_map_flattened_by_linearization() -> None:
    gelu = parse_indexing_map(GELU_MAP)
    flat = compose_indexing_maps(gelu, linearize_map([6, 512, 4096])).simplify()
    assert str(flat) == (
        "(th_x, bl_x)[vector_index] -> (th_x * 4 + bl_x * 512 + vector_index), "
        "domain: th_x in [0, 127], bl_x in [0, 24575], vector_index in [0, 3]"
    )
    # Independent check of the claim: row-major offsets of the 3-d indices.
    th, bl, vi = np.meshgrid(np.arange(128), np.arange(0, 24576, 37), np.arange(4), indexing="ij")
    i, j, k = gelu.evaluate([th.ravel(), bl.ravel()], [vi.ravel()])
    (linear,) = flat.evaluate([th.ravel(), bl.ravel()], [vi.ravel()])
    np.testing.assert_array_equal(linear, (np.asarray(i) * 512 + j) * 4096 + k)


def test_identity_linearize_delinearize_texts() -> None:
    assert str(identity_map([2, 3])) == "(d0, d1) -> (d0, d1), domain: d0 in [0, 1], d1 in [0, 2]"
    assert str(linearize_map([6, 512, 4096])) == (
        "(d0, d1, d2) -> (d0 * 2097152 + d1 * 4096 + d2), "
        "domain: d0 in [0, 5], d1 in [0, 511], d2 in [0, 4095]"
    )
    assert str(delinearize_map([6, 512, 4096])) == (
        "(d0) -> (d0 floordiv 2097152, (d0 floordiv 4096) mod 512, d0 mod 4096), "
        "domain: d0 in [0, 12582911]"
    )


@pytest.mark.parametrize("shape", [[7], [3, 5], [2, 1, 4], [4, 3, 2, 5]])
def test_linearize_and_delinearize_match_numpy(shape: list[int]) -> None:
    indices = np.indices(shape).reshape(len(shape), -1)
    (linear,) = linearize_map(shape).evaluate(list(indices))
    np.testing.assert_array_equal(linear, np.ravel_multi_index(tuple(indices), shape))
    flat = np.arange(int(np.prod(shape)))
    unravelled = delinearize_map(shape).evaluate([flat])
    for got, want in zip(unravelled, np.unravel_index(flat, shape), strict=True):
        np.testing.assert_array_equal(np.broadcast_to(got, flat.shape), want)


@pytest.mark.parametrize("shape", [[7], [3, 5], [6, 512, 4096], [2, 1, 4]])
def test_delinearize_then_linearize_simplifies_to_identity(shape: list[int]) -> None:
    composed = compose_indexing_maps(delinearize_map(shape), linearize_map(shape)).simplify()
    size = int(np.prod(shape))
    assert str(composed) == f"(d0) -> (d0), domain: d0 in [0, {size - 1}]"


def test_with_constraint() -> None:
    m = identity_map([10])
    assert m.with_constraint(DimExpr(0), Interval(2, 20)).dim_vars == (Variable(Interval(2, 9)),)
    assert m.with_constraint(DimExpr(0), Interval(20, 30)).is_known_empty
    c = m.with_constraint(DimExpr(0).mod(3), Interval(0, 0)).with_constraint(
        DimExpr(0).mod(3), Interval(0, 1)
    )
    assert c.constraints == ((DimExpr(0).mod(3), Interval(0, 0)),)
    assert c.with_constraint(DimExpr(0).mod(3), Interval(1, 2)).is_known_empty


def test_symbols_count_range_then_runtime_vars() -> None:
    m = IndexingMap(
        dim_vars=(Variable(Interval(0, 1)),),
        range_vars=(Variable(Interval(0, 2)),),
        rt_vars=(Variable(Interval(0, 3)), Variable(Interval(0, 4))),
        results=(SymbolExpr(2),),
    )
    assert (m.num_dims, m.num_symbols) == (1, 3)
    assert str(m) == (
        "(d0)[s0]{rt0, rt1} -> (rt1), domain: d0 in [0, 1], s0 in [0, 2], rt0 in [0, 3], rt1 in "
        "[0, 4]"
    )
