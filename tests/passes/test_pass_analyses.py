"""The analyses behind the pipeline passes, checked against brute force.

(The affine stride and alignment math of vectorization and the range comparisons of
simplify-arith are tested in tests/indexing.)

- unrolling: `partial_unroll_factor` against the definition (largest divisor
  of the trip count within the budget and the `max_unroll_factor` cap);
- flattening: the composed linear-index map against numpy's row-major
  `ravel_multi_index`.
"""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block
from xla_emit.dialects.xla import make_apply_indexing
from xla_emit.passes.analysis.linear_index import linear_index
from xla_emit.passes.gpu.optimize_loops import partial_unroll_factor

from xla_emit.indexing import delinearize_map


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 512), st.integers(1, 500), st.integers(0, 40))
def test_partial_unroll_factor_is_the_largest_fitting_divisor(
    trip_count: int, size: int, max_factor: int
) -> None:
    factor = partial_unroll_factor(trip_count, size, max_factor)
    limit = min(trip_count, 400 // size, max_factor or trip_count)
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
