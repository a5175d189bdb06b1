"""The installed package is `xla_emit` alone: `dialects/` and `passes/` ship inside it.

Fast checks read setup.py's layout and import through both names in a process outside
the checkout; the slow one builds the wheel, installs it in a clean venv and runs a tool.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _setup_module():
    spec = importlib.util.spec_from_file_location("xla_emit_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _python(code: str, cwd: Path, python: str = sys.executable) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(
        [python, "-c", code], cwd=cwd, capture_output=True, text=True, env=env, check=False
    )


def test_every_package_is_under_xla_emit_and_every_folder_is_mapped() -> None:
    setup = _setup_module()
    packages: list[str] = setup.packages()
    assert all(name == "xla_emit" or name.startswith("xla_emit.") for name in packages)
    folders = [
        ".".join(path.parent.relative_to(ROOT).parts)
        for top in ("dialects", "passes")
        for path in (ROOT / top).rglob("__init__.py")
    ]
    assert sorted(f"xla_emit.{name}" for name in folders) == sorted(
        name for name in packages if name.split(".")[1:2] in (["dialects"], ["passes"])
    )
    assert setup.package_dir() == {"xla_emit.dialects": "dialects", "xla_emit.passes": "passes"}


def test_the_package_imports_outside_the_checkout_with_one_module_per_file(
    tmp_path: Path,
) -> None:
    # A former name (`dialects`), where it still imports, is the same module.
    result = _python(
        "import xla_emit.dialects.xla as new, xla_emit.passes.gpu.inline as new_pass\n"
        "try:\n"
        "    import dialects.xla as old, passes.gpu.inline as old_pass\n"
        "except ModuleNotFoundError:\n"
        "    old, old_pass = new, new_pass\n"
        "assert new is old and new_pass is old_pass, (new, old)\n"
        "assert new.__name__ == 'xla_emit.dialects.xla'\n",
        tmp_path,
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.slow
def test_the_wheel_installs_in_a_clean_venv_and_runs_a_tool(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(ROOT)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert build.returncode == 0, build.stderr
    (wheel,) = wheels.glob("xla_emit-*.whl")
    tops = {name.split("/")[0] for name in zipfile.ZipFile(wheel).namelist()}
    assert tops == {
        "xla_emit",
        wheel.name.split("-")[0] + "-" + wheel.name.split("-")[1] + ".dist-info",
    }
    venv.create(tmp_path / "venv", with_pip=True)
    python = str(tmp_path / "venv" / "bin" / "python")
    install = subprocess.run(
        [python, "-m", "pip", "install", "-q", str(wheel)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert install.returncode == 0, install.stderr
    tool = tmp_path / "venv" / "bin" / "xla-emit-opt"
    ran = subprocess.run(
        [str(tool), str(ROOT / "examples" / "gelu.hlo"), "-p", "xla-gpu-pipeline"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    assert "vector<4xbf16>" in ran.stdout
    # No top-level `dialects` or `passes`: a clean process finds neither.
    clean = _python(
        "import importlib.util as u; print(u.find_spec('dialects'), u.find_spec('passes'))",
        tmp_path,
        python,
    )
    assert clean.stdout.strip() == "None None", clean.stderr
