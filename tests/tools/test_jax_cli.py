"""`xla-emit-jax`'s errors that need no jax: each is one line and exit status 1.

The compile itself is `tests/jax/test_live.py` (slow, and only where jax is installed).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from xla_emit.tools.jax_cli import main

REPO = Path(__file__).resolve().parents[2]
MLP = "examples/jax/mlp.py:mlp"


def one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1, captured.err
    return captured.err


def test_an_unknown_dtype_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    assert main([MLP, "f32[8,64]", "f31[64,128]", "-o", str(tmp_path / "b")]) == 1
    assert "error: argument spec 'f31[64,128]': unknown element type 'f31'" in one_line_error(
        capsys
    )
    assert not (tmp_path / "b").exists()


def test_a_target_that_is_no_config_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    bad = tmp_path / "t.txtpb"
    bad.write_text("core_count: 132\n")
    assert main([MLP, "f32[8,64]", "-o", str(tmp_path / "b"), "--target", str(bad)]) == 1
    assert "does not parse as a GpuTargetConfigProto" in one_line_error(capsys)
    assert main([MLP, "f32[8,64]", "-o", str(tmp_path / "b"), "--target", "v100"]) == 1
    assert "neither a shipped target (a100, b200, h100, h200)" in one_line_error(capsys)


def test_a_bad_compiler_option_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    assert main([MLP, "f32[8,64]", "-o", str(tmp_path / "b"), "--xla-option", "novalue"]) == 1
    assert "compiler option 'novalue' is not KEY=VALUE" in one_line_error(capsys)


def test_without_jax_the_error_says_how_to_install_it(tmp_path: Path):
    script = (
        "import sys; sys.modules['jax'] = None\n"
        "from xla_emit.tools.jax_cli import main\n"
        f"sys.exit(main([{MLP!r}, 'f32[8,64]', '-o', {str(tmp_path / 'b')!r}]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO, check=False
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("error: xla-emit-jax needs jax (")
    assert "pip install -e '.[jax]'" in done.stderr
