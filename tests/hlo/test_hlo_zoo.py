"""The reference evaluator on the model zoo: XLA:GPU's HLO for an H100 against XLA:CPU's outputs.

bf16 and integer outputs must match bit for bit; f32 outputs within
`F32_RELATIVE` of the largest output (XLA adds in another order than the
evaluator's exact sums). Where XLA:CPU compiled the same program into a
different graph than XLA:GPU did, the tolerance for that output says so.
"""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from xla_emit.hlo import evaluate_module, parse_hlo_module, print_module
from xla_emit.hlo.npz import read_inputs

ZOO_DIR = Path(__file__).resolve().parents[1] / "corpus" / "zoo"
# jax 0.10.2's modules at the top, jax 0.12's in `jax-0.12/` (with the same inputs).
ZOO = sorted(p.relative_to(ZOO_DIR).with_suffix("").as_posix() for p in ZOO_DIR.glob("**/*.hlo"))
F32_RELATIVE = 2e-6
# (program, output) -> relative tolerance, with the reason.
LOOSER: dict[tuple[str, int], float] = {
    # The f32 loss of bf16 arithmetic: XLA:CPU keeps some bf16 products in f32
    # (excess precision) where the GPU module rounds them.
    ("mlp_step_bf16", 0): 1e-3,
}


def inputs_of(name: str) -> Path:
    own = ZOO_DIR / f"{name}.inputs.npz"
    return own if own.exists() else ZOO_DIR / f"{Path(name).name}.inputs.npz"


def test_zoo_is_present() -> None:
    assert len(ZOO) >= 10


def assert_close_to_xla(name: str, number: int, ours: np.ndarray, xla: np.ndarray) -> None:
    if ours.dtype == ml_dtypes.bfloat16 or ours.dtype.kind != "f":
        exact = ours.view(np.uint16) if ours.dtype == ml_dtypes.bfloat16 else ours
        np.testing.assert_array_equal(exact, xla, err_msg=f"{name} out{number}")
        return
    relative = LOOSER.get((name, number), F32_RELATIVE)
    bound = relative * max(float(np.abs(xla).max(initial=0.0)), 1.0)
    np.testing.assert_allclose(ours, xla, rtol=0, atol=bound, err_msg=f"{name} out{number}")


@pytest.mark.parametrize("name", ZOO)
def test_evaluator_matches_xla_on_the_zoo(name: str) -> None:
    path = ZOO_DIR / f"{name}.hlo"
    module = parse_hlo_module(path.read_text(), str(path))
    arguments = read_inputs(str(inputs_of(name)), module.entry)
    outputs = evaluate_module(module, arguments)
    with np.load(ZOO_DIR / f"{name}.outputs.npz") as expected:
        assert len(outputs) == len(expected.files)
        for number, output in enumerate(outputs):
            assert_close_to_xla(name, number, output, expected[f"out{number}"])


@pytest.mark.parametrize("name", ZOO)
def test_zoo_modules_print_and_parse_back_unchanged(name: str) -> None:
    path = ZOO_DIR / f"{name}.hlo"
    printed = print_module(parse_hlo_module(path.read_text(), str(path)))
    assert print_module(parse_hlo_module(printed, "printed")) == printed
