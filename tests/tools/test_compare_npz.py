"""compare_npz: bit-identical outputs pass, one flipped bit or a missing output fails."""

from pathlib import Path

import numpy as np
import pytest

from xla_emit.tools.compare_npz import main


def _write(path: Path, **arrays: np.ndarray) -> str:
    np.savez(path, **arrays)
    return str(path)


def test_identical_outputs_pass(tmp_path: Path) -> None:
    data = np.arange(12, dtype=np.float32).reshape(3, 4)
    a = _write(tmp_path / "a.npz", out0=data)
    b = _write(tmp_path / "b.npz", out0=data.copy())
    assert main([a, b]) == 0


def test_one_flipped_bit_fails_unless_ulps_are_allowed(tmp_path: Path) -> None:
    data = np.linspace(1, 2, 8, dtype=np.float32)
    changed = data.copy()
    changed.view(np.uint32)[5] ^= 1
    a = _write(tmp_path / "a.npz", out0=changed)
    b = _write(tmp_path / "b.npz", out0=data)
    assert main([a, b]) == 1
    assert main([a, b, "--max-ulp", "1"]) == 0


def test_missing_output_fails(tmp_path: Path) -> None:
    a = _write(tmp_path / "a.npz", out0=np.zeros(2))
    b = _write(tmp_path / "b.npz", out0=np.zeros(2), out1=np.zeros(2))
    assert main([a, b]) == 1


def test_unreadable_files_are_errors_not_tracebacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = _write(tmp_path / "good.npz", out0=np.zeros(4, np.float32))
    garbage = tmp_path / "garbage.npz"
    garbage.write_bytes(b"not an archive")
    assert main([str(garbage), good]) == 1
    assert f"cannot read outputs from '{garbage}'" in capsys.readouterr().err
    assert main([str(tmp_path / "missing.npz"), good]) == 1
    assert "cannot read outputs from" in capsys.readouterr().err
