"""`xla-emit-run --fusion NAME`: one fusion of an HLO module, run on its own operands.

The oracle is numpy on the fused computation's formula: the `e` fusion below
is `exp(x - broadcast(row_max))`.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

MODULE = """\
HloModule two

fused_exp {
  x = f32[4,8] parameter(0)
  m = f32[4] parameter(1)
  b = f32[4,8] broadcast(m), dimensions={0}
  s = f32[4,8] subtract(x, b)
  ROOT e = f32[4,8] exponential(s)
}

fused_neg {
  a = f32[4,8] parameter(0)
  ROOT n = f32[4,8] negate(a)
}

ENTRY main {
  p0 = f32[4,8] parameter(0)
  p1 = f32[4] parameter(1)
  e = f32[4,8] fusion(p0, p1), kind=kLoop, calls=fused_exp
  ROOT n = f32[4,8] fusion(e), kind=kLoop, calls=fused_neg
}
"""


@pytest.fixture
def module(tmp_path: Path) -> Path:
    path = tmp_path / "two.hlo"
    path.write_text(MODULE)
    return path


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "xla_emit.tools.run", *args],
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize("mode", [(), ("--reference",)])
def test_one_fusion_runs_on_its_operands(
    tmp_path: Path, module: Path, mode: tuple[str, ...]
) -> None:
    rng = np.random.default_rng(7)
    x = rng.standard_normal((4, 8)).astype(np.float32)
    row_max = rng.standard_normal(4).astype(np.float32)
    inputs = tmp_path / "in.npz"
    np.savez(inputs, arg0=x, arg1=row_max)
    out = tmp_path / "out.npz"
    result = run(str(module), "--fusion", "e", "--inputs", str(inputs), "-o", str(out), *mode)
    assert result.returncode == 0, result.stderr
    with np.load(out) as outputs:
        assert sorted(outputs.files) == ["out0"]
        np.testing.assert_allclose(outputs["out0"], np.exp(x - row_max[:, None]), rtol=1e-6)


def test_fusion_errors_are_one_line(tmp_path: Path, module: Path) -> None:
    result = run(str(module), "--fusion", "nope")
    assert result.returncode == 1
    assert result.stderr == "error: module 'two' has no fusion named 'nope' (its fusions: e, n)\n"
    kernel = tmp_path / "k.mlir"
    kernel.write_text("func.func @f() {\n  func.return\n}\n")
    result = run(str(kernel), "--fusion", "e")
    assert result.returncode == 1
    assert (
        result.stderr == "error: --fusion picks a fusion of an HLO module; for MLIR, --entry NAME\n"
    )
