"""Property tests: simplification and range analysis checked by brute force.

Random expressions over two dims and one symbol with small boxes are
evaluated at every point of the box at once (numpy lanes); the oracle is the
original expression's value, computed by the same floor-semantics numpy
operations that the numbers in the box give directly.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from xla_emit.indexing import (
    AffineExpr,
    AffineKind,
    BinaryExpr,
    ConstantExpr,
    DimExpr,
    IndexingMap,
    Interval,
    SymbolExpr,
    Variable,
    compose_indexing_maps,
    parse_indexing_map,
)

SETTINGS = settings(max_examples=300, deadline=None)

_LEAVES = st.one_of(
    st.integers(-6, 9).map(ConstantExpr),
    st.sampled_from([DimExpr(0), DimExpr(1), SymbolExpr(0)]),
)
# Divisors are non-zero constants: positive ones exercise the rewrites, negative ones
# check that the rewrites stay away from them.
_DIVISORS = st.sampled_from([1, 2, 3, 4, 6, 8, 16, -3]).map(ConstantExpr)
_FACTORS = st.sampled_from([-4, -1, 2, 3, 4, 8, 12]).map(ConstantExpr)


def _extend(children: st.SearchStrategy[AffineExpr]) -> st.SearchStrategy[AffineExpr]:
    def binary(
        kind: AffineKind, rhs: st.SearchStrategy[AffineExpr]
    ) -> st.SearchStrategy[AffineExpr]:
        return st.builds(BinaryExpr, st.just(kind), children, rhs)

    return st.one_of(
        binary(AffineKind.ADD, children),
        binary(AffineKind.MUL, _FACTORS),
        binary(AffineKind.MUL, children),
        binary(AffineKind.FLOORDIV, _DIVISORS),
        binary(AffineKind.CEILDIV, _DIVISORS),
        binary(AffineKind.MOD, _DIVISORS),
        binary(AffineKind.MIN, children),
        binary(AffineKind.MAX, children),
    )


EXPRESSIONS = st.recursive(_LEAVES, _extend, max_leaves=10)


@st.composite
def _intervals(draw: st.DrawFn, low: int = -4, high: int = 12, max_size: int = 8) -> Interval:
    lower = draw(st.integers(low, high))
    return Interval(lower, lower + draw(st.integers(0, max_size - 1)))


@st.composite
def MAPS(draw: st.DrawFn) -> IndexingMap:
    results = tuple(draw(st.lists(EXPRESSIONS, min_size=1, max_size=3)))
    constraints = tuple(
        (expr, draw(_intervals(-10, 30, 25))) for expr in draw(st.lists(EXPRESSIONS, max_size=2))
    )
    return IndexingMap(
        dim_vars=(Variable(draw(_intervals())), Variable(draw(_intervals()))),
        range_vars=(Variable(draw(_intervals(0, 3, 4))),),
        rt_vars=(),
        results=results,
        constraints=constraints,
    )


def _box(m: IndexingMap) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """All points of the variable box, one numpy lane per point."""
    axes = [
        np.arange(v.bounds.lower, v.bounds.upper + 1, dtype=np.int64)
        for v in m.dim_vars + m.symbol_vars
    ]
    grids = [g.ravel() for g in np.meshgrid(*axes, indexing="ij")]
    return grids[: m.num_dims], grids[m.num_dims :]


def _lanes(value: object, shape: tuple[int, ...]) -> np.ndarray:
    return np.broadcast_to(np.asarray(value, dtype=np.int64), shape)


def _mask(value: object, shape: tuple[int, ...]) -> np.ndarray:
    return np.broadcast_to(np.asarray(value, dtype=np.bool_), shape)


def _reference(expr: AffineExpr, dims: list[np.ndarray], symbols: list[np.ndarray]) -> np.ndarray:
    """The oracle: a direct structural interpretation with numpy, independent of `evaluate`."""
    if isinstance(expr, ConstantExpr):
        return np.full(dims[0].shape, expr.value, dtype=np.int64)
    if isinstance(expr, DimExpr):
        return dims[expr.position]
    if isinstance(expr, SymbolExpr):
        return symbols[expr.position]
    assert isinstance(expr, BinaryExpr)
    a, b = _reference(expr.lhs, dims, symbols), _reference(expr.rhs, dims, symbols)
    value: np.ndarray
    match expr.kind:
        case AffineKind.ADD:
            value = a + b
        case AffineKind.MUL:
            value = a * b
        case AffineKind.FLOORDIV:
            value = np.floor_divide(a, b)
        case AffineKind.CEILDIV:
            value = -np.floor_divide(-a, b)
        case AffineKind.MOD:
            value = np.mod(a, b)
        case AffineKind.MIN:
            value = np.minimum(a, b)
        case AffineKind.MAX:
            value = np.maximum(a, b)
    return value


@SETTINGS
@given(MAPS())
def test_evaluate_matches_reference_vectorized_and_scalar(m: IndexingMap) -> None:
    dims, symbols = _box(m)
    shape = dims[0].shape
    for result, value in zip(m.results, m.evaluate(dims, symbols)):
        expected = _reference(result, dims, symbols)
        np.testing.assert_array_equal(_lanes(value, shape), expected)
        # Python ints take the same path as lanes.
        for lane in (0, shape[0] // 2, shape[0] - 1):
            scalar = result.evaluate([int(d[lane]) for d in dims], [int(s[lane]) for s in symbols])
            assert scalar == expected[lane]


@SETTINGS
@given(MAPS())
def test_range_encloses_every_value_on_the_domain(m: IndexingMap) -> None:
    dims, symbols = _box(m)
    shape = dims[0].shape
    inside = _mask(m.is_in_domain(dims, symbols), shape)
    for expr in list(m.results) + [e for e, _ in m.constraints]:
        for sub in expr.walk():
            values = _reference(sub, dims, symbols)[inside]
            if values.size:
                bounds = m.expression_range(sub)
                assert bounds.lower <= values.min() and values.max() <= bounds.upper, (
                    sub.to_str(),
                    bounds,
                    values.min(),
                    values.max(),
                )


@SETTINGS
@given(MAPS())
def test_simplify_preserves_domain_and_values(m: IndexingMap) -> None:
    simplified = m.simplify()
    dims, symbols = _box(m)
    shape = dims[0].shape
    inside = _mask(m.is_in_domain(dims, symbols), shape)
    assert np.array_equal(_mask(simplified.is_in_domain(dims, symbols), shape), inside), str(
        simplified
    )
    if simplified.is_known_empty:
        return
    for before, after in zip(m.results, simplified.results):
        expected = _reference(before, dims, symbols)[inside]
        got = _reference(after, dims, symbols)[inside]
        assert np.array_equal(got, expected), (before.to_str(), after.to_str())


@SETTINGS
@given(MAPS())
def test_simplify_is_idempotent_and_its_text_round_trips(m: IndexingMap) -> None:
    simplified = m.simplify()
    assert simplified.simplify() == simplified
    text = str(simplified)
    assert str(parse_indexing_map(text)) == text


@SETTINGS
@given(MAPS())
def test_printed_text_parses_to_an_equal_valued_map(m: IndexingMap) -> None:
    reparsed = parse_indexing_map(str(m))
    assert str(parse_indexing_map(str(reparsed))) == str(reparsed)
    dims, symbols = _box(m)
    shape = dims[0].shape
    inside = _mask(m.is_in_domain(dims, symbols), shape)
    assert np.array_equal(_mask(reparsed.is_in_domain(dims, symbols), shape), inside)
    for before, after in zip(m.results, reparsed.results):
        assert np.array_equal(
            _reference(after, dims, symbols)[inside], _reference(before, dims, symbols)[inside]
        )


@SETTINGS
@given(MAPS(), MAPS())
def test_composition_applies_second_after_first(
    first: IndexingMap, second_full: IndexingMap
) -> None:
    # Shape `second` to take as many dims as `first` has results.
    n = len(first.results)
    second = IndexingMap(
        dim_vars=(second_full.dim_vars * 2)[:n],
        range_vars=second_full.range_vars,
        rt_vars=(),
        results=tuple(
            r
            for r in second_full.results
            if all(not isinstance(e, DimExpr) or e.position < n for e in r.walk())
        )
        or (ConstantExpr(0),),
        constraints=tuple(
            (e, b)
            for e, b in second_full.constraints
            if all(not isinstance(x, DimExpr) or x.position < n for x in e.walk())
        ),
    )
    composed = compose_indexing_maps(first, second)
    # Composed symbols: second's range var, then first's.
    axes = [
        np.arange(v.bounds.lower, v.bounds.upper + 1, dtype=np.int64)
        for v in first.dim_vars + second.range_vars + first.range_vars
    ]
    d0, d1, s_second, s_first = (g.ravel() for g in np.meshgrid(*axes, indexing="ij"))
    shape = d0.shape
    inner = [_lanes(v, shape) for v in first.evaluate([d0, d1], [s_first])]
    expected_inside = _mask(first.is_in_domain([d0, d1], [s_first]), shape) & _mask(
        second.is_in_domain(inner, [s_second]), shape
    )
    for candidate in (composed, composed.simplify()):
        inside = _mask(candidate.is_in_domain([d0, d1], [s_second, s_first]), shape)
        assert np.array_equal(inside, expected_inside), str(candidate)
        if candidate.is_known_empty:
            continue
        got = candidate.evaluate([d0, d1], [s_second, s_first])
        for value, want in zip(got, second.evaluate(inner, [s_second])):
            assert np.array_equal(_lanes(value, shape)[inside], _lanes(want, shape)[inside])
