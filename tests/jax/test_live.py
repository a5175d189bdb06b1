"""The live path: the README's quick start, pasted, compiles with the installed jax.

Slow (XLA compiles for an H100 and for the CPU), and skipped where jax is not
importable: `make jax` installs the extra.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def jax_installed() -> bool:
    # Not `tests/jax` itself, which pytest's path makes a namespace package named `jax`.
    spec = importlib.util.find_spec("jax")
    return spec is not None and spec.origin is not None


pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not jax_installed(), reason="jax is not installed (make jax)"),
]


def quick_start_commands() -> list[list[str]]:
    """The README's `xla-emit-*` commands of the JAX quick start, as argument lists."""
    readme = (REPO / "README.md").read_text()
    block = readme[readme.index("**Your JAX function, as XLA:GPU compiles it**") :]
    block = block[: block.index("`make demo`")]
    lines = re.findall(r"^    \.venv-3\.12/bin/(xla-emit-\S+ .*?)(?:\s+#.*)?$", block, re.M)
    return [shlex.split(line) for line in lines]


def test_the_quick_start_writes_a_bundle_every_tool_reads(tmp_path: Path):
    commands = quick_start_commands()
    assert [c[0] for c in commands] == [
        "xla-emit-jax",
        "xla-emit-dump",
        "xla-emit-run",
        "xla-emit-opt",
    ]
    for command in commands:
        arguments = [str(tmp_path / a) if a == "mlp.bundle" else a for a in command[1:]]
        done = subprocess.run(
            [str(BIN / command[0]), *arguments],
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=600,
            check=False,
        )
        assert done.returncode == 0, f"{command}: {done.stderr[-2000:]}"
    manifest = json.loads((tmp_path / "mlp.bundle" / "bundle.json").read_text())
    assert manifest["arguments"] == ["f32[8,128]", "f32[128,256]", "f32[256,64]"]
    report = (tmp_path / "mlp.bundle" / "report.md").read_text()
    assert re.search(r"\| 3 \| `triton_softmax\.2` \| Triton \| Triton tile program \|", report)
    assert re.search(r"`triton_softmax\.2` \|.* \| equal \|$", report, re.M)
    assert "1 of 1 outputs within tolerance" in report
    page = (tmp_path / "mlp.bundle" / "report.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and page.count('<g class="node kernel">') == 3
    dumped = {p.name.removesuffix(".xz") for p in (tmp_path / "mlp.bundle" / "xla").iterdir()}
    for suffix in (
        ".ptx",
        ".ir-no-opt.ll",
        ".thunk_sequence.txt",
        "-buffer-assignment.txt",
        ".ttir.txt",
    ):
        assert any(name.endswith(suffix) for name in dumped), suffix


def test_the_compile_shows_its_stages_when_asked(tmp_path: Path):
    from xla_emit.jax.capture import STAGES

    done = subprocess.run(
        [
            str(BIN / "xla-emit-jax"),
            "examples/jax/mlp.py:mlp",
            "f32[8,128]",
            "f32[128,256]",
            "f32[256,64]",
            "-o",
            str(tmp_path / "b"),
            "--progress",
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    for stage in STAGES:
        assert stage in done.stderr, stage


def test_a_function_that_does_not_trace_is_located(tmp_path: Path):
    model = tmp_path / "model.py"
    model.write_text("import jax.numpy as jnp\n\ndef f(x, y):\n    return jnp.dot(x, y)\n")
    done = subprocess.run(
        [
            str(BIN / "xla-emit-jax"),
            f"{model}:f",
            "f32[8,4]",
            "f32[5,3]",
            "-o",
            str(tmp_path / "b"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert re.match(
        r"^\S*model\.py:4:\d+: error: cannot trace '.*model\.py:f' with "
        r"f32\[8,4\] f32\[5,3\]: TypeError: ",
        done.stderr,
    )


def test_a_config_jaxlib_cannot_read_is_one_line(tmp_path: Path):
    bad = tmp_path / "t.txtpb"
    bad.write_text("gpu_device_info { core_count: lots }\n")
    done = subprocess.run(
        [
            str(BIN / "xla-emit-jax"),
            "examples/jax/mlp.py:mlp",
            "f32[8,128]",
            "f32[128,256]",
            "f32[256,64]",
            "-o",
            str(tmp_path / "b"),
            "--target",
            str(bad),
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=600,
        check=False,
    )
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    # jaxlib's own words and place in the file (it logs them from C++, past Python).
    assert (
        done.stderr
        == f"{bad}:1:31: error: not a GpuTargetConfigProto: Expected integer, got: lots\n"
    )
