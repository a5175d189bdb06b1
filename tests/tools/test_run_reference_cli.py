"""`xla-emit-run --reference` end to end, through a subprocess."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import ml_dtypes
import numpy as np

REPO = Path(__file__).resolve().parents[2]
BF16 = ml_dtypes.bfloat16


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "xla_emit.tools.run", *args]
    return subprocess.run(
        command, capture_output=True, text=True, timeout=120, cwd=REPO, check=False
    )


def gelu_by_hand(x: np.ndarray) -> np.ndarray:
    """The seed's tanh GELU in bf16, rounding after every op (computed in f32)."""

    def r(v: np.ndarray) -> np.ndarray:
        return v.astype(np.float32).astype(BF16).astype(np.float32)

    c_half, c_one, c_sqrt, c_cube = (np.float32(BF16(v)) for v in (0.5, 1.0, 0.79785, 0.044708))
    x = x.astype(np.float32)
    inner = r(r(x + r(r(r(x * x) * x) * c_cube)) * c_sqrt)
    tanh = r(np.tanh(inner.astype(np.float64)))
    return r(x * r(r(tanh + c_one) * c_half)).astype(BF16)


def test_gelu_with_random_inputs(tmp_path: Path) -> None:
    out = tmp_path / "out.npz"
    result = run_cli(
        "--reference", str(REPO / "examples" / "gelu.hlo"), "--random-inputs", "7", "-o", str(out)
    )
    assert result.returncode == 0, result.stderr
    with np.load(out) as archive:
        assert archive.files == ["out0"]
        got = archive["out0"]
    assert got.dtype == np.uint16 and got.shape == (6, 512, 4096)
    # The documented random inputs: N(0, 1) drawn as f32 from numpy's default_rng(seed), then bf16.
    x = np.random.default_rng(7).standard_normal((6, 512, 4096), dtype=np.float32).astype(BF16)
    np.testing.assert_array_equal(got, gelu_by_hand(x).view(np.uint16))


def test_inputs_and_multiple_outputs(tmp_path: Path) -> None:
    module = tmp_path / "m.hlo"
    module.write_text(
        "HloModule m\nENTRY e {\n  a = bf16[3] parameter(0)\n  b = s32[3] parameter(1)\n"
        "  n = bf16[3] negate(a)\n  c = s32[3] multiply(b, b)\n"
        "  ROOT t = (bf16[3], s32[3]) tuple(n, c)\n}\n"
    )
    inputs = tmp_path / "in.npz"
    a = np.array([1.5, -2.0, 0.25], BF16)
    np.savez(inputs, arg0=a.view(np.uint16), arg1=np.array([1, -2, 3], np.int32))
    out = tmp_path / "out.npz"
    result = run_cli(str(module), "--reference", "--inputs", str(inputs), "-o", str(out))
    assert result.returncode == 0, result.stderr
    with np.load(out) as archive:
        np.testing.assert_array_equal(
            archive["out0"], np.array([-1.5, 2.0, -0.25], BF16).view(np.uint16)
        )
        np.testing.assert_array_equal(archive["out1"], [1, 4, 9])


def test_bad_hlo_is_a_located_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.hlo"
    bad.write_text(
        "HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT r = f32[4] add(p, q)\n}\n"
    )
    result = run_cli("--reference", str(bad), "--random-inputs", "0")
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert lines[0] == f"{bad}:4:26: error: unknown operand name 'q'"
    assert lines[1] == "  ROOT r = f32[4] add(p, q)"
    assert lines[2] == " " * 25 + "^"
    assert "Traceback" not in result.stderr


def test_input_problems_are_errors(tmp_path: Path) -> None:
    missing = run_cli("--reference", str(tmp_path / "nope.hlo"))
    assert missing.returncode == 1 and "error: cannot read" in missing.stderr
    inputs = tmp_path / "in.npz"
    np.savez(inputs, arg1=np.zeros(3, np.float32))
    wrong = run_cli("--reference", str(REPO / "examples" / "gelu.hlo"), "--inputs", str(inputs))
    assert wrong.returncode == 1
    assert "has no array 'arg0'" in wrong.stderr and "Traceback" not in wrong.stderr
