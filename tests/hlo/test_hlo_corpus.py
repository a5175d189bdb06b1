"""The reference evaluator against XLA's own outputs on the JAX corpus."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from xla_emit.hlo import evaluate_module, parse_hlo_module
from xla_emit.hlo.npz import read_inputs

CORPUS_DIR = Path(__file__).resolve().parents[1] / "corpus"
PROGRAMS = sorted(p.stem for p in CORPUS_DIR.glob("*.hlo"))

# A few ulp for XLA's own exp/tanh/log, plus cancellation after an FMA: an
# error of a couple of ulp of the largest output.
F32_ULPS = 8
F32_SCALE_EPS = 4 * float(np.finfo(np.float32).eps)


def test_corpus_is_present() -> None:
    assert len(PROGRAMS) >= 12


def assert_matches_xla(ours: np.ndarray, xla: np.ndarray, what: str) -> None:
    if ours.dtype == ml_dtypes.bfloat16:
        np.testing.assert_array_equal(ours.view(np.uint16), xla, err_msg=f"{what}: bf16 bits")
    elif ours.dtype.kind == "f":
        assert ours.dtype == xla.dtype, what
        assert np.array_equal(np.isnan(ours), np.isnan(xla)), f"{what}: NaN positions"
        tolerance = F32_ULPS * np.spacing(np.abs(xla)) + F32_SCALE_EPS * np.abs(xla).max()
        bad = np.abs(ours.astype(np.float64) - xla) > tolerance
        assert not bad.any(), (
            f"{what}: {bad.sum()} elements differ, e.g. ours {ours[bad][:3]} xla {xla[bad][:3]}"
        )
    else:
        np.testing.assert_array_equal(ours, xla, err_msg=what)


@pytest.mark.parametrize("name", PROGRAMS)
def test_evaluator_matches_xla(name: str) -> None:
    path = CORPUS_DIR / f"{name}.hlo"
    module = parse_hlo_module(path.read_text(), str(path))
    arguments = read_inputs(str(CORPUS_DIR / f"{name}.inputs.npz"), module.entry)
    outputs = evaluate_module(module, arguments)
    with np.load(CORPUS_DIR / f"{name}.outputs.npz") as expected:
        assert len(outputs) == len(expected.files)
        for number, output in enumerate(outputs):
            assert_matches_xla(output, expected[f"out{number}"], f"{name} out{number}")
