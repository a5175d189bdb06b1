"""examples/pass-template is a package a user copies: installed into a fresh venv, its pass
is found by xla-emit-opt through the entry point, and its lit test and pytest pass.

The venv sees this checkout's environment through a .pth file (xla-emit, xdsl, lit,
filecheck) and gets only the template installed into it, so the pass can come from
nowhere but the template's own entry point.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "examples" / "pass-template"
TWICE = """\
func.func @f(%x: f32) -> f32 {
  %n = arith.negf %x : f32
  %m = arith.negf %n : f32
  return %m : f32
}
"""
TOOLS = (("xla-emit-opt", "xla_emit.tools.opt"), ("xla-emit-run", "xla_emit.tools.run"))


def run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=False)


def make_venv(folder: Path) -> Path:
    """A venv without pip that sees this environment's packages; its python."""
    venv.create(folder, with_pip=False)
    python = folder / "bin" / "python"
    purelib = run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        folder,
        dict(os.environ),
    ).stdout.strip()
    # An `import` line of a .pth runs: addsitedir also reads that folder's own .pth files
    # (the editable install of xla-emit is one).
    checkout = sysconfig.get_paths()["purelib"]
    Path(purelib, "checkout.pth").write_text(f"import site; site.addsitedir({checkout!r})\n")
    # The tools as console scripts of this venv (pip would write these for `xla-emit`).
    for name, module in (
        ("xla-emit-opt", "xla_emit.tools.opt"),
        ("xla-emit-run", "xla_emit.tools.run"),
    ):
        script = folder / "bin" / name
        script.write_text(f'#!/bin/sh\nexec "{python}" -m {module} "$@"\n')
        script.chmod(0o755)
    return python


@pytest.mark.slow
def test_template_installs_and_its_tests_pass(tmp_path: Path) -> None:
    package = tmp_path / "my-passes"
    shutil.copytree(TEMPLATE, package)
    env_folder = tmp_path / "venv"
    python = make_venv(env_folder)
    bin_dirs = [str(env_folder / "bin"), str(Path(sys.executable).parent)]
    env = {**os.environ, "PATH": os.pathsep.join([*bin_dirs, os.environ.get("PATH", "")])}
    env.pop("PYTHONPATH", None)
    kernel = tmp_path / "twice.mlir"
    kernel.write_text(TWICE)
    opt = [str(env_folder / "bin" / "xla-emit-opt"), str(kernel), "-p", "fold-double-negation"]
    # Before the install, no such pass.
    before = run(opt, tmp_path, env)
    assert before.returncode == 1 and "fold-double-negation" in before.stderr
    install = [str(python), "-m", "pip", "install", "--no-deps", "-q"]
    installed = run([*install, str(package)], tmp_path, env)
    assert installed.returncode == 0, installed.stderr
    after = run(opt, tmp_path, env)
    assert after.returncode == 0, after.stderr
    assert "arith.negf" not in after.stdout and "func.return %x : f32" in after.stdout
    lit_main = "import sys; from lit.main import main; sys.exit(main())"
    lit = run([str(python), "-c", lit_main, "-v", "tests/filecheck"], package, env)
    assert lit.returncode == 0 and "Passed: 1" in lit.stdout, lit.stdout + lit.stderr
    tests = run(
        [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], package, env
    )
    assert tests.returncode == 0 and "1 passed" in tests.stdout, tests.stdout + tests.stderr
