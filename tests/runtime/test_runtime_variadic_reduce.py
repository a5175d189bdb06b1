"""Variadic reductions (a sum and an argmin together) in the evaluator and compiled.

Oracle: numpy's `sum`, `min` and `argmin` (first index of the minimum, as the
reducers' tie-break on the lower index computes) on the same rows.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from xla_emit import api

HLO = Path(__file__).parent / "hlo"


def _rows(shape: tuple[int, ...]) -> np.ndarray:
    x = np.random.default_rng(3).standard_normal(shape).astype(np.float32)
    x.reshape(-1)[5] = x.min()  # a tie: the first index wins
    return x


def _leaves(value: object) -> list[np.ndarray]:
    if isinstance(value, tuple | list):
        return [leaf for element in value for leaf in _leaves(element)]
    return [np.asarray(value)]


@pytest.mark.parametrize(
    ("name", "shape"), [("sum_and_argmin_1d.hlo", (8,)), ("sum_and_argmin_rows.hlo", (3, 16))]
)
def test_sum_and_argmin_in_one_reduce(name: str, shape: tuple[int, ...]) -> None:
    text = (HLO / name).read_text()
    x = _rows(shape)
    for outputs in (api.run_reference(text, [x]), api.run_hlo(text, [x])):
        total, minimum, position = _leaves(outputs)
        np.testing.assert_allclose(total, x.sum(axis=-1), rtol=1e-5)
        np.testing.assert_array_equal(minimum, x.min(axis=-1))
        np.testing.assert_array_equal(position, x.argmin(axis=-1))


def test_fusion_with_a_row_sum_and_a_tuple_valued_argmin() -> None:
    text = (HLO / "fusion_sum_and_argmin_tuple.hlo").read_text()
    x = _rows((4, 64))
    for outputs in (api.run_reference(text, [x]), api.run_hlo(text, [x])):
        total, minimum, position = _leaves(outputs)
        np.testing.assert_allclose(total, x.sum(axis=1), rtol=1e-5)
        np.testing.assert_array_equal(minimum, x.min(axis=1))
        np.testing.assert_array_equal(position, x.argmin(axis=1))
