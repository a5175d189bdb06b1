"""The analyses behind the pipeline passes, checked against brute force.

(The affine stride and alignment math of vectorization is tested in tests/indexing.)

- simplify-arith: `decide_comparison` against comparing every pair of values;
- unrolling: `partial_unroll_factor` against the definition (largest divisor
  of the trip count within the budget);
- flattening: the composed linear-index map against numpy's row-major
  `ravel_multi_index`.
"""

from __future__ import annotations

import itertools
import operator

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block

from dialects.xla import make_apply_indexing
from passes.analysis.linear_index import linear_index
from passes.gpu.optimize_loops import partial_unroll_factor
from passes.gpu.simplify_arith import decide_comparison
from xla_emit.indexing import Interval, delinearize_map

_PREDICATES = {
    0: operator.eq,
    1: operator.ne,
    2: operator.lt,
    3: operator.le,
    4: operator.gt,
    5: operator.ge,
}


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 9),
    st.integers(-5, 5),
    st.integers(0, 5),
    st.integers(-5, 5),
    st.integers(0, 5),
)
def test_decided_comparisons_hold_for_every_pair(
    predicate: int, a_lo: int, a_len: int, b_lo: int, b_len: int
) -> None:
    a, b = Interval(a_lo, a_lo + a_len), Interval(b_lo, b_lo + b_len)
    outcome = decide_comparison(predicate, a, b)
    compare = _PREDICATES[predicate % 6]
    pairs = [(x, y) for x in range(a.lower, a.upper + 1) for y in range(b.lower, b.upper + 1)]
    if predicate >= 6:
        # Unsigned predicates compare two's-complement bit patterns.
        pairs = [(x % 2**64, y % 2**64) for x, y in pairs]
        compare = _PREDICATES[predicate - 4]
    answers = {compare(x, y) for x, y in pairs}
    if outcome is None:
        return
    assert answers == {outcome}


def test_comparison_decisions_are_found_when_ranges_separate() -> None:
    assert decide_comparison(5, Interval(0, 127), Interval(0, 0)) is True  # sge
    assert decide_comparison(3, Interval(0, 127), Interval(127, 127)) is True  # sle
    assert decide_comparison(2, Interval(0, 127), Interval(64, 64)) is None  # slt straddles


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 512), st.integers(1, 500))
def test_partial_unroll_factor_is_the_largest_fitting_divisor(trip_count: int, size: int) -> None:
    factor = partial_unroll_factor(trip_count, size)
    limit = min(trip_count, 400 // size)
    expected = max([f for f in range(1, max(limit, 1) + 1) if trip_count % f == 0], default=1)
    assert factor == expected or (factor <= 1 and expected == 1)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 5), min_size=2, max_size=4))
def test_linear_index_of_plain_indices_is_row_major(shape: list[int]) -> None:
    block = Block(arg_types=[IndexType()] * len(shape))
    indexing_map, operands = linear_index(shape, block.args)
    assert operands == list(block.args)
    for index in itertools.product(*(range(size) for size in shape)):
        (value,) = indexing_map.evaluate(list(index), [])
        assert int(value) == int(np.ravel_multi_index(index, shape))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=2, max_size=3))
def test_linear_index_composes_with_producers(shape: list[int]) -> None:
    # Indices that delinearize one value linearize back to that value: the
    # composed map reads the producer's operand directly and simplifies to it.
    block = Block(arg_types=[IndexType()])
    producer = make_apply_indexing(delinearize_map(tuple(shape)), [block.args[0]])
    indexing_map, operands = linear_index(shape, producer.res)
    assert operands == [block.args[0]]
    for linear in range(int(np.prod(shape))):
        (value,) = indexing_map.evaluate([linear], [])
        assert int(value) == linear
