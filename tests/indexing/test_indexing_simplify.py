"""Simplification of indexing maps: XLA's worked examples, each checked by brute force."""

import itertools

import numpy as np
import pytest

from xla_emit.indexing import IndexingMap, parse_indexing_map


def _domain_points(m: IndexingMap) -> list[tuple[list[int], list[int]]]:
    """Every point of the variable box that satisfies the constraints."""
    boxes = [range(v.bounds.lower, v.bounds.upper + 1) for v in m.dim_vars + m.symbol_vars]
    points = []
    for values in itertools.product(*boxes):
        dims, symbols = list(values[: m.num_dims]), list(values[m.num_dims :])
        if m.is_in_domain(dims, symbols):
            points.append((dims, symbols))
    return points


def _check_equivalent(original: IndexingMap, simplified: IndexingMap) -> None:
    """Same domain over the original box, same values at every domain point."""
    boxes = [
        range(v.bounds.lower, v.bounds.upper + 1) for v in original.dim_vars + original.symbol_vars
    ]
    for values in itertools.product(*boxes):
        dims, symbols = list(values[: original.num_dims]), list(values[original.num_dims :])
        inside = original.is_in_domain(dims, symbols)
        assert simplified.is_in_domain(dims, symbols) == inside, values
        if inside:
            assert simplified.evaluate(dims, symbols) == original.evaluate(dims, symbols), values


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # The example from XLA's documentation of Simplify().
        (
            "(d0, d1) -> (d0 + d1 floordiv 16, d1 mod 16), domain: d0 in [0, 6], d1 in [0, 14]",
            "(d0, d1) -> (d0, d1), domain: d0 in [0, 6], d1 in [0, 14]",
        ),
        # Summands that cannot change the quotient are dropped.
        (
            "(d0)[s0] -> ((d0 * 4 + s0) floordiv 4), domain: d0 in [0, 9], s0 in [0, 3]",
            "(d0)[s0] -> (d0), domain: d0 in [0, 9], s0 in [0, 3]",
        ),
        (
            "(d0)[s0] -> ((d0 * 4 + s0) mod 4), domain: d0 in [0, 9], s0 in [0, 3]",
            "(d0)[s0] -> (s0), domain: d0 in [0, 9], s0 in [0, 3]",
        ),
        # Split at a factor of the modulus: (4*a + r) mod 8 == (a mod 2) * 4 + r.
        (
            (
                "(d0)[s0] -> ((d0 * 4 + s0) mod 8, (d0 * 4 + s0) floordiv 8), "
                "domain: d0 in [0, 9], s0 in [0, 3]"
            ),
            "(d0)[s0] -> ((d0 mod 2) * 4 + s0, d0 floordiv 2), domain: d0 in [0, 9], s0 in [0, 3]",
        ),
        # (c*a) mod (a*b) -> (c mod b)*a
        (
            "(d0) -> ((d0 * 6) mod 8), domain: d0 in [0, 20]",
            "(d0) -> (((d0 * 3) mod 4) * 2), domain: d0 in [0, 20]",
        ),
        # Multiples of the modulus are dropped; multiples of the divisor are pulled out.
        (
            (
                "(d0, d1) -> ((d0 * 16 + d1) mod 8, (d0 * 16 + d1 + 3) floordiv 8), "
                "domain: d0 in [0, 9], d1 in [0, 99]"
            ),
            "(d0, d1) -> (d1 mod 8, d0 * 2 + (d1 + 3) floordiv 8), domain: d0 in [0, 9], d1 in "
            "[0, 99]",
        ),
        # Nested divisions merge; mod under a division becomes a division under mod.
        (
            "(d0) -> ((d0 floordiv 4) floordiv 8, (d0 mod 32) floordiv 4), domain: d0 in [0, 999]",
            "(d0) -> (d0 floordiv 32, (d0 floordiv 4) mod 8), domain: d0 in [0, 999]",
        ),
        # Nothing wraps: mod of an offset range becomes a subtraction.
        (
            "(d0) -> ((d0 + 8) mod 8, (d0 + 10) floordiv 8), domain: d0 in [0, 5]",
            "(d0) -> (d0, 1), domain: d0 in [0, 5]",
        ),
        (
            "(d0) -> ((d0 + 8) mod 16), domain: d0 in [0, 5]",
            "(d0) -> (d0 + 8), domain: d0 in [0, 5]",
        ),
        # Point ranges become constants; min/max with ordered ranges pick a side.
        (
            "(d0, d1) -> (d1 * 7, min(d0, 20), max(d0, d1 - 5)), domain: d0 in [0, 9], d1 in [3, "
            "3]",
            "(d0, d1) -> (21, d0, d0), domain: d0 in [0, 9], d1 in [3, 3]",
        ),
        # Constants distribute over sums; like terms combine; summands are sorted.
        (
            (
                "(d0, d1)[s0] -> ((s0 + d1 + d0) * 2 + d0 - 3 * (d1 + 1)), "
                "domain: d0 in [0, 9], d1 in [0, 9], s0 in [0, 3]"
            ),
            "(d0, d1)[s0] -> (d0 * 3 - d1 + s0 * 2 - 3), domain: d0 in [0, 9], d1 in [0, 9], s0 "
            "in [0, 3]",
        ),
        # (x mod c) * k + (x floordiv c) * (c * k) -> x * k
        (
            "(d0, d1) -> ((d0 mod 8) * 3 + (d0 floordiv 8) * 24 + d1), domain: d0 in [0, 99], d1 "
            "in [0, 9]",
            "(d0, d1) -> (d0 * 3 + d1), domain: d0 in [0, 99], d1 in [0, 9]",
        ),
        # XLA's pad example is already simplified; the constant inside `mod` keeps its sign.
        (
            (
                "(d0, d1) -> ((d0 - 1) floordiv 2, d1 - 4), domain: d0 in [1, 7], d1 in [4, 7], "
                "(d0 - 1) mod 2 in [0, 0]"
            ),
            (
                "(d0, d1) -> ((d0 - 1) floordiv 2, d1 - 4), domain: d0 in [1, 7], d1 in [4, 7], "
                "(d0 - 1) mod 2 in [0, 0]"
            ),
        ),
        # Whole multiples of the modulus leave the constant.
        (
            "(d0) -> ((d0 + 9) mod 8, (d0 - 9) mod 8), domain: d0 in [0, 99]",
            "(d0) -> ((d0 + 1) mod 8, (d0 - 1) mod 8), domain: d0 in [0, 99]",
        ),
        # x * k - (x floordiv c) * (c * k) -> (x mod c) * k, also when x is a sum.
        (
            (
                "(d0, d1) -> (d0 - (d0 floordiv 4) * 4, "
                "(d0 + d1 * 2 + 3) * 3 - ((d0 + d1 * 2) floordiv 8) * 24), "
                "domain: d0 in [0, 99], d1 in [0, 99]"
            ),
            (
                "(d0, d1) -> (d0 mod 4, ((d1 * 2 + d0) mod 8) * 3 + 9), "
                "domain: d0 in [0, 99], d1 in [0, 99]"
            ),
        ),
        # Mod of mod with a multiple modulus.
        (
            "(d0) -> ((d0 mod 12) mod 4), domain: d0 in [0, 99]",
            "(d0) -> (d0 mod 4), domain: d0 in [0, 99]",
        ),
    ],
)
def test_simplify_examples(before: str, after: str) -> None:
    original = parse_indexing_map(before)
    simplified = original.simplify()
    assert str(simplified) == after
    _check_equivalent(original, simplified)
    # A simplified map is a fixed point and prints text that parses back to itself.
    assert simplified.simplify() == simplified
    assert parse_indexing_map(after) == simplified


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # Always-true constraints disappear.
        (
            "(d0, d1) -> (d0), domain: d0 in [0, 9], d1 in [0, 9], d0 + d1 in [0, 18], d0 mod 4 "
            "in [0, 3]",
            "(d0, d1) -> (d0), domain: d0 in [0, 9], d1 in [0, 9]",
        ),
        # e + c, e * c and e floordiv c move into the interval; bare variables become bounds.
        (
            (
                "(d0, d1) -> (d0), domain: d0 in [0, 99], d1 in [0, 99], d0 + 5 in [10, 20], "
                "d1 * 3 in [4, 20], d0 + d1 floordiv 1 in [0, 150]"
            ),
            "(d0, d1) -> (d0), domain: d0 in [5, 15], d1 in [2, 6]",
        ),
        (
            "(d0, d1) -> (d0 + d1), domain: d0 in [0, 99], d1 in [0, 99], (d0 + d1) floordiv 8 "
            "in [1, 2]",
            "(d0, d1) -> (d0 + d1), domain: d0 in [0, 23], d1 in [0, 23], d0 + d1 in [8, 23]",
        ),
        (
            "(d0, d1) -> (d0), domain: d0 in [0, 99], d1 in [0, 99], -d0 - d1 in [-10, -5]",
            "(d0, d1) -> (d0), domain: d0 in [0, 10], d1 in [0, 10], d0 + d1 in [5, 10]",
        ),
        (
            "(d0, d1) -> (d0), domain: d0 in [0, 99], d1 in [0, 99], d0 * 2 + d1 * 4 in [3, 9]",
            "(d0, d1) -> (d0), domain: d0 in [0, 4], d1 in [0, 2], d1 * 2 + d0 in [2, 4]",
        ),
        # Two mod constraints on one variable merge; the bounds move to satisfying values.
        (
            "(d0) -> (d0), domain: d0 in [1, 40], d0 mod 2 in [0, 0], d0 mod 3 in [1, 1]",
            "(d0) -> (d0), domain: d0 in [4, 40], d0 mod 6 in [4, 4]",
        ),
        # The result simplifies using the tightened bounds.
        (
            "(d0) -> (d0 floordiv 16), domain: d0 in [0, 99], d0 in [0, 15]",
            "(d0) -> (0), domain: d0 in [0, 15]",
        ),
    ],
)
def test_simplify_constraints(before: str, after: str) -> None:
    original = parse_indexing_map(before)
    simplified = original.simplify()
    assert str(simplified) == after
    _check_equivalent(original, simplified)


@pytest.mark.parametrize(
    "text",
    [
        "(d0) -> (d0), domain: d0 in [0, 9], d0 mod 4 in [5, 7]",
        "(d0) -> (d0), domain: d0 in [0, 9], d0 * 2 in [3, 3]",
        "(d0, d1) -> (d0), domain: d0 in [0, 9], d1 in [0, 9], d0 + d1 in [19, 30]",
        "(d0) -> (d0), domain: d0 in [0, 40], d0 mod 2 in [0, 0], d0 mod 4 in [1, 1]",
        "(d0) -> (d0), domain: d0 in [1, 3], d0 mod 8 in [4, 7]",
    ],
)
def test_simplify_detects_empty_domain(text: str) -> None:
    original = parse_indexing_map(text)
    assert _domain_points(original) == []  # the oracle: no point satisfies it
    simplified = original.simplify()
    assert simplified.is_known_empty
    assert str(simplified) == "KNOWN EMPTY"


def test_gelu_map_is_already_simplified() -> None:
    text = (
        "(th_x, bl_x)[vector_index] -> (bl_x floordiv 4096, (bl_x floordiv 8) mod 512, "
        "(bl_x mod 8) * 512 + th_x * 4 + vector_index), domain: th_x in [0, 127], "
        "bl_x in [0, 24575], vector_index in [0, 3]"
    )
    assert str(parse_indexing_map(text).simplify()) == text


def test_xla_reshape_example_keeps_its_value() -> None:
    # [4,8] -> [2,4,4] reshape indexing from XLA's documentation.
    m = parse_indexing_map(
        "(d0, d1, d2) -> (d0 * 2 + d1 floordiv 2, d2 + (d1 mod 2) * 4), "
        "domain: d0 in [0, 1], d1 in [0, 3], d2 in [0, 3]"
    )
    simplified = m.simplify()
    assert str(simplified) == (
        "(d0, d1, d2) -> (d0 * 2 + d1 floordiv 2, (d1 mod 2) * 4 + d2), "
        "domain: d0 in [0, 1], d1 in [0, 3], d2 in [0, 3]"
    )
    _check_equivalent(m, simplified)


# The loop map for concatenate's second operand (f32[512,128] at column 256 of a
# 1024-block launch over the largest operand) as our emitter builds it, and as XLA prints
# it simplified (#indexing_map3 in the corpus snapshot
# tests/corpus/gpu/concatenate/gpu/input_concatenate_fusion.mlir-passes.log.xz, with `/`
# for floordiv).
_CONCAT_BEFORE = (
    "(th_x, th_y, th_z, bl_x, bl_y, bl_z) -> (bl_x floordiv 2, (bl_x mod 2) * 128 + th_x + 256), "
    "domain: th_x in [0, 127], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 1023], bl_y in [0, 0], "
    "bl_z in [0, 0], (bl_x mod 2) * 128 + th_x in [0, 127]"
)
_CONCAT_XLA = (
    "(th_x, th_y, th_z, bl_x, bl_y, bl_z) -> (bl_x floordiv 2, th_x + 256), domain: th_x in "
    "[0, 127], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 1022], bl_y in [0, 0], bl_z in [0, 0], "
    "bl_x mod 2 in [0, 0]"
)


def test_concatenate_constraint_folds_as_in_xla() -> None:
    original = parse_indexing_map(_CONCAT_BEFORE)
    simplified = original.simplify()
    assert str(simplified) == _CONCAT_XLA
    # Hand-worked oracle: th_x < 128, so (bl_x mod 2) * 128 + th_x < 128 iff bl_x is even;
    # the column is then th_x + 256.
    th = np.arange(128).repeat(1024)
    bl = np.tile(np.arange(1024), 128)
    zero = np.zeros_like(th)
    inside = simplified.is_in_domain([th, zero, zero, bl, zero, zero])
    np.testing.assert_array_equal(inside, bl % 2 == 0)
    rows, columns = simplified.evaluate([th, zero, zero, bl, zero, zero])
    np.testing.assert_array_equal(np.asarray(rows)[inside], (bl // 2)[inside])
    np.testing.assert_array_equal(np.asarray(columns)[inside], (th + 256)[inside])


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # a * g + r in [0, b] with r in [0, b mod g]: only a's range matters.
        (
            "(d0, d1) -> (d0), domain: d0 in [0, 9], d1 in [0, 3], d0 * 4 + d1 in [0, 11]",
            "(d0, d1) -> (d0), domain: d0 in [0, 2], d1 in [0, 3]",
        ),
        # Constants move into the interval first, so it starts at 0.
        (
            "(d0, d1) -> (d0), domain: d0 in [0, 9], d1 in [0, 3], d0 * 4 + d1 + 8 in [8, 19]",
            "(d0, d1) -> (d0), domain: d0 in [0, 2], d1 in [0, 3]",
        ),
        # Folding repeats: d0 * 16 + d1 * 4 + d2 -> d0 * 4 + d1 -> d0.
        (
            "(d0, d1, d2) -> (d0), domain: d0 in [0, 9], d1 in [0, 3], d2 in [0, 3], "
            "d0 * 16 + d1 * 4 + d2 in [0, 47]",
            "(d0, d1, d2) -> (d0), domain: d0 in [0, 2], d1 in [0, 3], d2 in [0, 3]",
        ),
        # g is the gcd of the coefficients other than 1; a negative one works too.
        (
            "(d0, d1)[s0] -> (d0), domain: d0 in [0, 9], d1 in [0, 3], s0 in [0, 7], "
            "(d0 mod 3) * 8 + d1 * 2 + s0 floordiv 4 in [0, 9]",
            "(d0, d1)[s0] -> (d0), domain: d0 in [0, 9], d1 in [0, 3], s0 in [0, 7], "
            "(d0 mod 3) * 4 + d1 in [0, 4]",
        ),
        (
            "(d0, d1) -> (d0), domain: d0 in [-5, 5], d1 in [0, 3], d1 - d0 * 4 in [0, 3]",
            "(d0, d1) -> (0), domain: d0 in [0, 0], d1 in [0, 3]",
        ),
        # Concatenate's shape on a small grid.
        (
            "(d0, d1) -> (d0 floordiv 2, (d0 mod 2) * 4 + d1 + 8), domain: d0 in [0, 7], "
            "d1 in [0, 3], (d0 mod 2) * 4 + d1 in [0, 3]",
            "(d0, d1) -> (d0 floordiv 2, d1 + 8), domain: d0 in [0, 6], d1 in [0, 3], "
            "d0 mod 2 in [0, 0]",
        ),
        # Not folded: r reaches past b mod g (d0 mod 3 = 2 leaves d1 only [0, 1]).
        (
            "(d0, d1) -> (d0 mod 3), domain: d0 in [0, 9], d1 in [0, 3], "
            "(d0 mod 3) * 4 + d1 in [0, 9]",
            "(d0, d1) -> (d0 mod 3), domain: d0 in [0, 9], d1 in [0, 3], "
            "(d0 mod 3) * 4 + d1 in [0, 9]",
        ),
        # Not folded, as in XLA: the interval does not start at 0.
        (
            "(d0, d1) -> (d0 mod 3), domain: d0 in [0, 9], d1 in [0, 3], "
            "(d0 mod 3) * 4 + d1 in [2, 11]",
            "(d0, d1) -> (d0 mod 3), domain: d0 in [0, 9], d1 in [0, 3], "
            "(d0 mod 3) * 4 + d1 in [2, 11]",
        ),
        # Not folded, unlike XLA: r in [5, 6] does not start at 0. XLA's test ((130 - r)
        # floordiv 128 is 0 for every r) holds, but d0 mod 4 in [0, 1] would admit
        # d0 mod 4 = 1 with d1 = 5 (133 > 130).
        (
            "(d0, d1) -> (d0), domain: d0 in [0, 9], d1 in [5, 6], "
            "(d0 mod 4) * 128 + d1 in [0, 130]",
            "(d0, d1) -> (d0), domain: d0 in [0, 9], d1 in [5, 6], "
            "(d0 mod 4) * 128 + d1 in [0, 130]",
        ),
    ],
)
def test_simplify_folds_remainder_out_of_constraint(before: str, after: str) -> None:
    original = parse_indexing_map(before)
    simplified = original.simplify()
    assert str(simplified) == after
    _check_equivalent(original, simplified)
    assert simplified.simplify() == simplified


def test_xla_fold_with_remainder_not_starting_at_zero_would_add_points() -> None:
    # Why the fold also asks r >= 0 and r <= b mod g: the map XLA's rule makes of the last
    # case above has points the original lacks.
    original = parse_indexing_map(
        "(d0, d1) -> (d0), domain: d0 in [0, 9], d1 in [5, 6], (d0 mod 4) * 128 + d1 in [0, 130]"
    )
    xla_folded = parse_indexing_map(
        "(d0, d1) -> (d0), domain: d0 in [0, 9], d1 in [5, 6], d0 mod 4 in [0, 1]"
    )
    assert not original.is_in_domain([1, 5]) and xla_folded.is_in_domain([1, 5])


def test_transpose_3d_constraint_folds_as_in_xla() -> None:
    # The tile-reading loop of tests/corpus/gpu/transpose_3d: XLA's snapshot
    # (#indexing_map in input_transpose_fusion.mlir-passes.log.xz) constrains it with
    # `(d3 / 72) * 8 + s0 in [0, 9]`, dropping th_x floordiv 32 (in [0, 3]) from the sum.
    ids = (
        "th_x in [0, 127], th_y in [0, 0], th_z in [0, 0], bl_x in [0, 143], bl_y in [0, 0], "
        "bl_z in [0, 0], i in [0, 7], j in [0, 0]"
    )
    head = "(th_x, th_y, th_z, bl_x, bl_y, bl_z)[i, j] -> ((bl_x floordiv 72) * 32 + i * 4)"
    original = parse_indexing_map(
        f"{head}, domain: {ids}, (bl_x floordiv 72) * 32 + i * 4 + th_x floordiv 32 in [0, 39]"
    )
    simplified = original.simplify()
    assert str(simplified) == f"{head}, domain: {ids}, (bl_x floordiv 72) * 8 + i in [0, 9]"
    th, bl, i = (g.ravel() for g in np.meshgrid(np.arange(128), np.arange(144), np.arange(8)))
    zero = np.zeros_like(th)
    inside = simplified.is_in_domain([th, zero, zero, bl, zero, zero], [i, zero])
    np.testing.assert_array_equal(inside, (bl // 72) * 32 + i * 4 + th // 32 <= 39)
