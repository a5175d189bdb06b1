"""`xla-gpu-peel-loops`: the peeled loops cover exactly the original loop's iterations.

Brute force over every point of small maps: the parts' domains are disjoint,
their union is the original domain, and every part computes the original
results at each of its points. The rule's own conditions (main part free of
the peeled constraint, the 64-iteration walk) are checked on hand-worked maps.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from xla_emit.passes.gpu.peel_loops import peeled_maps

from xla_emit.indexing import (
    ConstantExpr,
    DimExpr,
    IndexingMap,
    Interval,
    SymbolExpr,
    Variable,
    parse_indexing_map,
)

Point = tuple[tuple[int, ...], tuple[int, ...]]


def _points(indexing_map: IndexingMap) -> dict[Point, tuple[int, ...]]:
    """Every point of the domain (by enumeration of the variables' bounds) and its results."""
    variables = indexing_map.dim_vars + indexing_map.range_vars
    ranges = [range(v.bounds.lower, v.bounds.upper + 1) for v in variables]
    points: dict[Point, tuple[int, ...]] = {}
    for values in itertools.product(*ranges):
        dims, symbols = values[: indexing_map.num_dims], values[indexing_map.num_dims :]
        if indexing_map.is_in_domain(dims, symbols):
            results = indexing_map.evaluate(dims, symbols)
            points[(dims, symbols)] = tuple(int(r) for r in results)
    return points


def _assert_partition(original: IndexingMap, parts: list[IndexingMap]) -> None:
    expected = _points(original)
    covered: dict[Point, tuple[int, ...]] = {}
    for part in parts:
        for point, results in _points(part).items():
            assert point not in covered, f"{point} runs twice"
            covered[point] = results
    assert covered == expected


HAND_WORKED = [
    # (map, number of loops after peeling)
    (
        "(th_x)[s0] -> (s0 * 8 + th_x), domain: th_x in [0, 7], s0 in [0, 4], "
        "s0 * 8 + th_x in [0, 36]",
        2,
    ),
    (
        "(d0)[s0, s1] -> (s0 * 16 + s1 * 2 + d0), domain: d0 in [0, 1], s0 in [0, 3], "
        "s1 in [0, 6], s1 * 2 + d0 in [0, 12], s0 * 16 + d0 in [0, 48]",
        3,
    ),
    # The tail at s0 = 7 is empty: 28 + th_x mod 4 > 27. (The lower end -4 keeps the
    # simplifier from turning the constraint into s0 in [0, 6] by itself, see below.)
    (
        "(th_x)[s0] -> (s0 * 4 + th_x), domain: th_x in [0, 7], s0 in [0, 7], "
        "s0 * 4 + th_x mod 4 in [-4, 27]",
        1,
    ),
]


@pytest.mark.parametrize(("text", "num_loops"), HAND_WORKED)
def test_hand_worked_maps_are_partitioned(text: str, num_loops: int) -> None:
    original = parse_indexing_map(text)
    parts = peeled_maps(original)
    assert parts is not None and len(parts) == num_loops
    _assert_partition(original, parts)
    # The main loop (run first) checks no constraint any more.
    assert parts[0].constraints == ()


@pytest.mark.parametrize(
    "text",
    [
        # The lower end of the constraint cuts the first values too.
        "(th_x)[s0] -> (s0 * 8 + th_x), domain: th_x in [0, 7], s0 in [0, 4], "
        "s0 * 8 + th_x in [3, 36]",
        # s1 alone spans 64 iterations: the walk stops before s0.
        "(th_x)[s0, s1] -> (s0 + s1), domain: th_x in [0, 7], s0 in [0, 4], s1 in [0, 63], "
        "s0 * 8 + th_x in [0, 36]",
        # No constraint.
        "(th_x)[s0] -> (s0 * 8 + th_x), domain: th_x in [0, 7], s0 in [0, 4]",
        # Simplification alone makes the constraint s0 in [0, 6] (th_x mod 4 never moves
        # s0 * 4 + th_x mod 4 past a multiple of 4), as XLA's does: nothing is left to peel.
        "(th_x)[s0] -> (s0 * 4 + th_x), domain: th_x in [0, 7], s0 in [0, 7], "
        "s0 * 4 + th_x mod 4 in [0, 27]",
    ],
)
def test_maps_that_are_not_peeled(text: str) -> None:
    assert peeled_maps(parse_indexing_map(text)) is None


def _random_map(rng: np.random.Generator) -> IndexingMap:
    """One dim, two range variables; results and a constraint mixing them linearly or by mod."""
    d0, s0, s1 = DimExpr(0), SymbolExpr(0), SymbolExpr(1)
    dims = (Variable(Interval(0, int(rng.integers(0, 4)))),)
    symbols = tuple(Variable(Interval(0, int(rng.integers(0, 5)))) for _ in range(2))
    a, b, c = (int(x) for x in rng.integers(0, 5, size=3))
    combined = s0 * a + s1 * b + d0 * c
    constrained = combined.mod(int(rng.integers(2, 7))) + s1 if rng.random() < 0.3 else combined
    upper = int(rng.integers(0, 4 * a + 4 * b + 3 * c + 2))
    results = (s0 * 5 + s1, d0 + ConstantExpr(int(rng.integers(0, 3))))
    return IndexingMap(dims, symbols, (), results, ((constrained, Interval(0, upper)),))


def test_random_maps_are_partitioned() -> None:
    rng = np.random.default_rng(5)
    peeled = 0
    for _ in range(300):
        original = _random_map(rng)
        parts = peeled_maps(original)
        if parts is None:
            continue
        peeled += 1
        _assert_partition(original, parts)
    # The generator must exercise the rule, not only its refusals.
    assert peeled >= 30
