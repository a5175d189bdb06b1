"""Seeded inputs: one stream per argument, in the ranges the docstring promises."""

from __future__ import annotations

import numpy as np

from xla_emit.jax.inputs import seeded_inputs
from xla_emit.jax.specs import parse_spec


def test_an_argument_keeps_its_values_when_another_changes():
    first = seeded_inputs([parse_spec("f32[4,5]"), parse_spec("s32[6]")], seed=3)
    second = seeded_inputs([parse_spec("f32[9]"), parse_spec("s32[6]")], seed=3)
    assert np.array_equal(first[1], second[1])
    assert not np.array_equal(
        seeded_inputs([parse_spec("s32[6]")], seed=4)[0], first[1]
    )  # another seed, other values


def test_values_follow_numpy_generators_seeded_by_seed_and_position():
    bf16, u8, pred = seeded_inputs(
        [parse_spec("bf16[64]"), parse_spec("u8[100]"), parse_spec("pred[50]")], seed=0
    )
    expected = np.random.default_rng([0, 0]).standard_normal(64, dtype=np.float32)
    assert np.array_equal(bf16.astype(np.float32), expected.astype(bf16.dtype).astype(np.float32))
    assert u8.dtype == np.uint8 and u8.min() >= 0 and u8.max() <= 8
    assert pred.dtype == np.bool_ and 0 < pred.sum() < 50
