"""`xla-emit-run` on TPU and PTO kernels: each goes to its executor, checked against numpy."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "xla_emit.tools.run", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )


@pytest.mark.parametrize(
    "kernel", ["misaligned.mlir", "fixed_assume_multiple.mlir", "fixed_realigned.mlir"]
)
def test_tpu_window_kernels_copy_the_requested_columns(kernel: str, tmp_path: Path) -> None:
    x = np.random.default_rng(1).standard_normal((8, 1024)).astype(np.float32)
    col = 384 if kernel == "fixed_assume_multiple.mlir" else 200  # that one promises 128 | col
    inputs, outputs = tmp_path / "in.npz", tmp_path / "out.npz"
    np.savez(inputs, arg0=x, arg1=np.zeros((8, 32), np.float32), arg2=np.array(col))
    result = run_cli(f"examples/tpu/{kernel}", "--inputs", str(inputs), "-o", str(outputs))
    assert result.returncode == 0, result.stderr
    with np.load(outputs) as data:
        # Results first (none), then the memrefs as the kernel left them: x, then out.
        np.testing.assert_array_equal(data["out1"], x[:, col : col + 32])


def test_pto_column_softmax_matches_numpy(tmp_path: Path) -> None:
    x = np.random.default_rng(2).standard_normal((16, 16)).astype(np.float32)
    inputs, outputs = tmp_path / "in.npz", tmp_path / "out.npz"
    np.savez(inputs, arg0=x, arg1=np.zeros((16, 16), np.float32))
    result = run_cli(
        "examples/pto/softmax_columns.mlir", "--inputs", str(inputs), "-o", str(outputs)
    )
    assert result.returncode == 0, result.stderr
    e = np.exp(x - x.max(axis=0))
    with np.load(outputs) as data:
        np.testing.assert_allclose(data["out1"], e / e.sum(axis=0), rtol=1e-5)


def test_broken_assume_multiple_promise_is_a_located_error(tmp_path: Path) -> None:
    inputs = tmp_path / "in.npz"
    x = np.zeros((8, 1024), np.float32)
    np.savez(inputs, arg0=x, arg1=np.zeros((8, 32), np.float32), arg2=np.array(200))
    result = run_cli("examples/tpu/fixed_assume_multiple.mlir", "--inputs", str(inputs))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("examples/tpu/fixed_assume_multiple.mlir:")
    assert "tpu.assume_multiple" in result.stderr


@pytest.mark.parametrize(
    "program",
    ["examples/tpu/misaligned.mlir", "examples/pto/softmax_columns.mlir", "examples/gelu.hlo"],
)
def test_an_empty_inputs_file_is_a_user_error(program: str, tmp_path: Path) -> None:
    empty = tmp_path / "empty.npz"
    empty.write_bytes(b"")
    result = run_cli(program, "--inputs", str(empty))
    assert result.returncode == 1
    assert result.stderr.strip() == f"error: cannot read inputs from '{empty}': the file is empty"
