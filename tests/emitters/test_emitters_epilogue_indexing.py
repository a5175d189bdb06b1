"""Epilogues that reshape the hero's result (a reduce's keep-dims reshape, a transpose
followed by a reshape): the epilogue runs and writes at the root's index.

Oracle: numpy's `sum(keepdims=True)` and `transpose`; the emitter kind is checked
too, so the hero's emitter (not the loop emitter) is what runs.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from xla_emit import api
from xla_emit.emitters.hero import EmitterKind, analyze_fusion
from xla_emit.hlo import parse_hlo_module

HLO = Path(__file__).parent / "hlo"


def _kind(text: str) -> EmitterKind:
    module = parse_hlo_module(text)
    (fusion,) = [i for i in module.entry.instructions if i.opcode == "fusion"]
    return analyze_fusion(fusion.called_computations[0]).kind


@pytest.mark.parametrize(
    ("name", "scale"), [("row_sum_keep_dims.hlo", 1.0), ("row_sum_keep_dims_scaled.hlo", 0.5)]
)
def test_row_sum_with_keep_dims_epilogue(name: str, scale: float) -> None:
    text = (HLO / name).read_text()
    assert _kind(text) is EmitterKind.REDUCTION
    x = np.random.default_rng(4).standard_normal((4, 64)).astype(np.float32)
    (out,) = api.run_hlo(text, [x])
    assert out.shape == (4, 1)
    expected = x.astype(np.float64).sum(axis=1, keepdims=True) * scale
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)


def test_transpose_with_keep_dims_epilogue() -> None:
    text = (HLO / "transpose_keep_dims.hlo").read_text()
    assert _kind(text) is EmitterKind.TRANSPOSE
    x = np.random.default_rng(5).standard_normal((64, 128)).astype(np.float32)
    (out,) = api.run_hlo(text, [x])
    np.testing.assert_array_equal(out, -x.T[:, :, None])
