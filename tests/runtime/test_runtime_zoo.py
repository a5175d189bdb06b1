"""Every zoo model through the module runtime (default pipeline) against XLA:CPU's outputs.

A model whose fusions need an emitter that does not exist yet must stop at a
located "Unsupported: ..." error naming the op (and is marked xfail with it);
anything else, including a traceback, fails.
"""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.hlo import parse_hlo_module
from xla_emit.hlo.npz import read_inputs
from xla_emit.runtime import ModuleRuntime

ZOO_DIR = Path(__file__).resolve().parents[1] / "corpus" / "zoo"
ZOO = sorted(p.stem for p in ZOO_DIR.glob("*.hlo"))
# Relative to the largest output: f32 sums in another order than XLA's; the bf16 MLP's
# f32 loss also sees XLA:CPU keep some bf16 products unrounded.
TOLERANCE = {"mlp_step_bf16": 1e-3}
F32_RELATIVE = 2e-6


@pytest.mark.parametrize("name", ZOO)
def test_module_runtime_matches_xla_on_the_zoo(name: str) -> None:
    path = ZOO_DIR / f"{name}.hlo"
    module = parse_hlo_module(path.read_text(), str(path))
    arguments = read_inputs(str(ZOO_DIR / f"{name}.inputs.npz"), module.entry)
    try:
        outputs = ModuleRuntime(module).run(arguments)
    except UserError as error:
        first = str(error).splitlines()[0]
        assert first.startswith(f"{path}:") and "error: Unsupported: " in first, first
        pytest.xfail(first)
    with np.load(ZOO_DIR / f"{name}.outputs.npz") as expected:
        for number, ours in enumerate(outputs):
            xla = expected[f"out{number}"]
            if ours.dtype == ml_dtypes.bfloat16 or ours.dtype.kind != "f":
                stored = ours.view(np.uint16) if ours.dtype == ml_dtypes.bfloat16 else ours
                np.testing.assert_array_equal(stored, xla, err_msg=f"{name} out{number}")
                continue
            scale = TOLERANCE.get(name, F32_RELATIVE) * max(float(np.abs(xla).max()), 1.0)
            assert float(np.abs(ours.astype(np.float64) - xla).max()) <= scale, number
