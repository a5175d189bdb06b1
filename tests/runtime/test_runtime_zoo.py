"""Every zoo model through the module runtime (default pipeline) against XLA:CPU's outputs.

A model whose fusions need an emitter that does not exist yet must stop at a
located "Unsupported: ..." error naming the op (and is marked xfail with it);
anything else, including a traceback, fails.
"""

from __future__ import annotations

import subprocess
import sys
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


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "xla_emit.tools.run", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)


@pytest.mark.parametrize(
    ("name", "flag"), [("fori_loop", "--check"), ("argsort_topk", "--check"),
                       ("transformer_block", "--reference")]
)  # fmt: skip
def test_xla_emit_run_on_the_zoo(tmp_path: Path, name: str, flag: str) -> None:
    out = tmp_path / "out.npz"
    inputs = ZOO_DIR / f"{name}.inputs.npz"
    result = run_cli(str(ZOO_DIR / f"{name}.hlo"), flag, "--inputs", str(inputs), "-o", str(out))
    assert result.returncode == 0, result.stderr
    if flag == "--check":
        assert "bit-identical" in result.stdout + result.stderr
    with np.load(out) as ours, np.load(ZOO_DIR / f"{name}.outputs.npz") as xla:
        for key in xla.files:
            bound = F32_RELATIVE * max(float(np.abs(xla[key]).max()), 1.0)
            np.testing.assert_allclose(ours[key], xla[key], rtol=0, atol=bound, err_msg=key)


POOL_GRADIENT = """\
HloModule g

ge {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=GE
}

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY e {
  x = f32[4] parameter(0)
  s = f32[2] parameter(1)
  z = f32[] constant(0)
  ROOT r = f32[4] select-and-scatter(x, s, z), window={size=2 stride=2}, select=ge, scatter=add
}
"""


def test_an_op_without_an_emitter_is_named_with_its_location(tmp_path: Path) -> None:
    path = tmp_path / "pool_gradient.hlo"
    path.write_text(POOL_GRADIENT)
    result = run_cli(str(path), "--random-inputs", "1")
    assert result.returncode == 1
    first = result.stderr.splitlines()[0]
    assert first == (
        f"{path}:19:8: error: Unsupported: select-and-scatter 'r' (no emitter computes its "
        "indexing)"
    )
    assert "Traceback" not in result.stderr
