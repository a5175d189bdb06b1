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

SETTINGS = settings(max_examples=200, deadline=None)

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


def _scaled_sum(parts: list[tuple[AffineExpr, int]], constant: int) -> AffineExpr:
    total: AffineExpr = ConstantExpr(constant)
    for part, coefficient in parts:
        total = BinaryExpr(
            AffineKind.ADD, total, BinaryExpr(AffineKind.MUL, part, ConstantExpr(coefficient))
        )
    return total


def _divided_sums(children: st.SearchStrategy[AffineExpr]) -> st.SearchStrategy[AffineExpr]:
    """`(k1*a + k2*b + c) mod/floordiv m` with factors shared by k and m: the shapes the
    split, factor and pairing rules look for, rarely produced by uniform random trees."""
    coefficients = st.sampled_from([1, 2, 4, 8, -4, 16, 3, 6])
    sums = st.builds(
        _scaled_sum,
        st.lists(st.tuples(children, coefficients), min_size=1, max_size=3),
        st.integers(-8, 8),
    )
    kinds = st.sampled_from([AffineKind.MOD, AffineKind.FLOORDIV])
    return st.builds(BinaryExpr, kinds, sums, st.sampled_from([2, 4, 8, 16, 6]).map(ConstantExpr))


def _binary(kind: AffineKind, lhs: AffineExpr, rhs: int) -> AffineExpr:
    return BinaryExpr(kind, lhs, ConstantExpr(rhs))


@st.composite
def _near_identities(draw: st.DrawFn, children: st.SearchStrategy[AffineExpr]) -> AffineExpr:
    """Shapes the pairing and nesting rules match, and near misses that must not match.

    `(x mod c)*k + (x floordiv c)*(c*k + e)`, `x*k + (x floordiv c)*(-c*k + e)`,
    `((x floordiv a) mod b)*k + (x floordiv ab)*(b*k + e)`, `(x mod m) floordiv c`,
    `(x floordiv a) floordiv b` and `(x mod a) mod b`; `e` is usually 0.
    """
    x = draw(children)
    a, b = draw(st.sampled_from([2, 3, 4, 8])), draw(st.sampled_from([2, 3, 4, 6, 8]))
    k = draw(st.sampled_from([1, 2, -1, 3]))
    e = draw(st.sampled_from([0, 0, 0, 1, -1, a, 2 * a * k]))
    mod_a, div_a = _binary(AffineKind.MOD, x, a), _binary(AffineKind.FLOORDIV, x, a)
    shapes = [
        _scaled_sum([(mod_a, k), (div_a, a * k + e)], 0),
        _scaled_sum([(x, k), (div_a, -a * k + e)], draw(st.integers(-3, 3))),
        _scaled_sum(
            [
                (_binary(AffineKind.MOD, div_a, b), k),
                (_binary(AffineKind.FLOORDIV, x, a * b), b * k + e),
            ],
            0,
        ),
        _binary(AffineKind.FLOORDIV, _binary(AffineKind.MOD, x, a * b if e == 0 else b), a),
        _binary(AffineKind.FLOORDIV, div_a, b),
        _binary(AffineKind.MOD, _binary(AffineKind.MOD, x, a * b if e == 0 else b), a),
    ]
    return draw(st.sampled_from(shapes))


EXPRESSIONS = st.recursive(
    _LEAVES,
    lambda children: st.one_of(
        _extend(children), _divided_sums(children), _near_identities(children)
    ),
    max_leaves=10,
)


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
    for result, value in zip(m.results, m.evaluate(dims, symbols), strict=True):
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


@st.composite
def _remainder_constraint_maps(draw: st.DrawFn) -> IndexingMap:
    """Maps constrained by `a * g + r + c in [c, c + b]`, the shape whose `r` XLA's
    constraint simplification drops: r's range sometimes in [0, b mod g], sometimes not."""
    d0, d1, s0 = DimExpr(0), DimExpr(1), SymbolExpr(0)
    multiplied = st.sampled_from(
        [d0, _binary(AffineKind.MOD, d0, 4), _binary(AffineKind.FLOORDIV, d0, 2), d0 * 2 - s0]
    )
    remainders = st.sampled_from([d1, _binary(AffineKind.MOD, d1, 3), d1 + s0, d1 * 3 + s0])
    factor = draw(st.sampled_from([3, 4, 8, 16, -8]))
    constant = draw(st.integers(-4, 4))
    constraint = _scaled_sum([(draw(multiplied), factor), (draw(remainders), 1)], constant)
    lower = constant + draw(st.sampled_from([0, 0, 0, 1]))
    return IndexingMap(
        dim_vars=(Variable(draw(_intervals(-1, 2, 12))), Variable(draw(_intervals(-1, 3, 6)))),
        range_vars=(Variable(draw(_intervals(0, 1, 3))),),
        rt_vars=(),
        results=(d0 + d1 * 16 + s0 * 256,),
        constraints=((constraint, Interval(lower, lower + draw(st.integers(0, 60)))),),
    )


@SETTINGS
@given(MAPS())
def test_simplify_preserves_domain_and_values(m: IndexingMap) -> None:
    _assert_simplify_keeps_domain_and_values(m)


@SETTINGS
@given(_remainder_constraint_maps())
def test_constraint_folding_preserves_domain_and_values(m: IndexingMap) -> None:
    _assert_simplify_keeps_domain_and_values(m)


def _assert_simplify_keeps_domain_and_values(m: IndexingMap) -> None:
    """The oracle: every point of the box, its membership and values by `_reference`."""
    simplified = m.simplify()
    dims, symbols = _box(m)
    shape = dims[0].shape
    inside = _mask(m.is_in_domain(dims, symbols), shape)
    assert np.array_equal(_mask(simplified.is_in_domain(dims, symbols), shape), inside), str(
        simplified
    )
    if simplified.is_known_empty:
        return
    for before, after in zip(m.results, simplified.results, strict=True):
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
    for before, after in zip(m.results, reparsed.results, strict=True):
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
        for value, want in zip(got, second.evaluate(inner, [s_second]), strict=True):
            assert np.array_equal(_lanes(value, shape)[inside], _lanes(want, shape)[inside])


@st.composite
def _near_identity_maps(draw: st.DrawFn) -> IndexingMap:
    small = st.recursive(_LEAVES, _extend, max_leaves=3)
    return IndexingMap(
        dim_vars=(Variable(draw(_intervals(-8, 8, 24))), Variable(draw(_intervals()))),
        range_vars=(Variable(draw(_intervals(0, 3, 4))),),
        rt_vars=(),
        results=tuple(draw(st.lists(_near_identities(small), min_size=1, max_size=4))),
    )


@SETTINGS
@given(_near_identity_maps())
def test_simplify_pairing_and_nesting_rules_keep_values(m: IndexingMap) -> None:
    simplified = m.simplify()
    dims, symbols = _box(m)
    for before, after in zip(m.results, simplified.results, strict=True):
        assert np.array_equal(
            _reference(after, dims, symbols), _reference(before, dims, symbols)
        ), (
            before.to_str(),
            after.to_str(),
        )
