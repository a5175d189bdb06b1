"""mlir-opt's habits in both tools: --version, pass listings, `-` for stdin and stdout,
input kinds guessed from content, --split-input-file, --timing, errors naming the pass,
passes from a user's package, and a start-up that loads nothing it does not need."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import numpy as np
import pytest
from xla_emit.passes import all_passes

from xla_emit.hlo.npz import random_inputs
from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.runtime.sources import input_format
from xla_emit.tools import opt, run

ROOT = Path(__file__).resolve().parents[2]
GELU = ROOT / "examples" / "gelu.hlo"
TILE = "!pto.tile<16x16xf32>"
PTO_AS = f".arg %in : {TILE}\n%y = ttrans %in : {TILE} -> {TILE}\n"
GOOD = "func.func @f(%a: i32) -> i32 {\n  func.return %a : i32\n}\n"
BAD = "func.func @g( {\n"


def run_opt(
    argv: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    stdin: str = "",
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = opt.main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("tool", [opt, run])
def test_version_names_the_tool_and_both_packages(
    tool: object, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        tool.main(["--version"])  # type: ignore[attr-defined]
    assert exit_info.value.code == 0
    prog = "xla-emit-opt" if tool is opt else "xla-emit-run"
    expected = f"{prog} (xla-emit {version('xla-emit')}, xDSL {version('xdsl')})\n"
    assert capsys.readouterr().out == expected


def test_list_passes_shows_every_pass_its_options_and_the_pipelines(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run_opt(["--list-passes"], capsys, monkeypatch)
    assert status == 0
    for name in all_passes():
        assert f"\n  {name}  -  " in out, name
    assert "      --max-unroll-factor=<int> (default: 0)\n" in out
    assert "      --hardware-generation=<int> (default: 6)\n" in out
    assert "\n  xla-gpu-pipeline\n" in out
    assert "canonicalize" in out.split("xDSL's passes")[1]


def test_help_pass_describes_one_pass(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run_opt(["--help-pass", "xla-gpu-optimize-loops"], capsys, monkeypatch)
    assert status == 0
    assert out.startswith("xla-gpu-optimize-loops:\n  Unrolls `scf.for` loops")
    assert out.endswith(
        "Options:\n  --max-unroll-factor=<int> (default: 0)\n"
        "  --greedy-cleanup=<bool> (default: true)\n"
    )
    status, _, err = run_opt(["--help-pass", "no-such-pass"], capsys, monkeypatch)
    assert (status, err) == (
        1,
        "error: no pass or pipeline named 'no-such-pass' (see --list-passes)\n",
    )


def test_dash_output_is_stdout_and_dash_input_is_stdin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, _ = run_opt(["-", "-o", "-"], capsys, monkeypatch, stdin=GOOD)
    assert status == 0
    assert out.startswith("builtin.module {\n  func.func @f(%a: i32) -> i32 {")
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize(
    ("text", "path", "requested", "kind"),
    [
        ("HloModule m\n", "module.hlo.txt", None, "hlo"),
        (
            "// a dump\n\nHloModule m, entry_computation_layout={}\n",
            "x_after_optimizations.txt",
            None,
            "hlo",
        ),
        ("HloModule m\n", "<stdin>", None, "hlo"),
        (PTO_AS, "<stdin>", None, "pto"),
        ("# comment\n.const %c = 0 : index\n", "p.txt", None, "pto"),
        ("", "kernel.pto", None, "pto"),
        ("", "module.hlo", None, "hlo"),
        (GOOD, "kernel.txt", None, "mlir"),
        ("#map = affine_map<(d0) -> (d0)>\n", "k.pto", None, "pto"),
        ("HloModule m\n", "<stdin>", "mlir", "mlir"),
    ],
)
def test_input_kind_comes_from_the_flag_then_content_then_suffix(
    text: str, path: str, requested: str | None, kind: str
) -> None:
    assert input_format(text, path, requested) == kind


def test_xla_dumps_are_hlo_by_content(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    dump = tmp_path / "module_0001.gelu.sm_9.0_gpu_after_optimizations.txt"
    dump.write_text(GELU.read_text())
    status, out, _ = run_opt([str(dump)], capsys, monkeypatch)
    assert status == 0
    assert "func.func @fusion(" in out
    status, from_stdin, _ = run_opt(["--input-format=hlo"], capsys, monkeypatch, GELU.read_text())
    assert (status, from_stdin) == (0, out)


def test_split_input_file_runs_every_chunk_and_fails_if_one_did(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = f"{GOOD}// -----\n{BAD}// -----\n{GOOD.replace('@f', '@h')}// -----\n"
    status, out, err = run_opt(["--split-input-file"], capsys, monkeypatch, text)
    assert status == 1
    assert out.count("builtin.module") == 2
    assert "@f" in out.split("// -----")[0] and "@h" in out.split("// -----")[1]
    assert err.startswith("<stdin>:5:15: error: Expected argument or type\n")


def test_empty_input_is_an_empty_module(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run_opt([], capsys, monkeypatch, "") == (0, "builtin.module {\n}\n", "")
    assert run_opt([], capsys, monkeypatch, "// only a comment\n") == (
        0,
        "builtin.module {\n}\n",
        "",
    )


def test_timing_reports_parse_each_pass_verify_and_print(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, _, err = run_opt(["-p", "cse,canonicalize", "--timing"], capsys, monkeypatch, GOOD)
    assert status == 0
    names = [line.split(")  ", 1)[1] for line in err.splitlines() if "%)  " in line]
    assert names[:5] == ["parse", "verify", "cse", "canonicalize", "print"]
    assert names[-1] == "Total"


def test_a_failing_pass_is_named_in_its_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["-p", "xla-lower-xla-to-scf{warp-size=24}"]
    status, _, err = run_opt(argv, capsys, monkeypatch, GOOD)
    assert status == 1
    assert err == "error: [xla-lower-xla-to-scf] warp-size must be a power of 2, but got 24\n"


def test_run_reads_stdin_and_times_its_steps(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    hlo = "HloModule m\nENTRY e {\n  ROOT p = f32[4] parameter(0)\n}\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(hlo))
    assert run.main(["-", "--reference", "--timing"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "out0: float32[4]\n"
    assert "  parse\n" in captured.err and "  run (reference evaluator)\n" in captured.err


def test_run_names_every_backend() -> None:
    from xla_emit.runtime.backends import BACKENDS

    assert tuple(sorted(BACKENDS)) == run.BACKEND_NAMES


USER_PASS = '''
from dataclasses import dataclass

from xdsl.dialects.builtin import StringAttr
from xdsl.passes import ModulePass


@dataclass(frozen=True)
class TagModulePass(ModulePass):
    """Tags the module."""

    name = "user-tag-module"
    tag: str = "seen"

    def apply(self, ctx, op):
        op.attributes["user.tag"] = StringAttr(self.tag)
'''


def test_a_users_package_adds_a_pass(tmp_path: Path) -> None:
    (tmp_path / "user_passes.py").write_text(USER_PASS)
    dist = tmp_path / "user_passes-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: user-passes\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(
        "[xla_emit.passes]\nuser-tag-module = user_passes:TagModulePass\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    result = subprocess.run(
        [sys.executable, "-m", "xla_emit.tools.opt", "-", "-p", "user-tag-module{tag=hi}"],
        input=GOOD,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith('builtin.module attributes {user.tag = "hi"} {')


@pytest.mark.parametrize("tool", ["xla_emit.tools.opt", "xla_emit.tools.run"])
def test_the_command_line_loads_no_compiler(tool: str) -> None:
    """Start-up: `--help` must not wait for numpy, the dialects or the interpreter."""
    code = (
        f"import sys, {tool}; "
        "print(sorted(m for m in ('numpy', 'dialects', 'passes', 'xla_emit.interpreter', "
        "'xla_emit.emitters', 'xdsl.dialects.builtin') if m in sys.modules))"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert result.stdout == "[]\n"


def test_a_run_through_our_passes_reads_no_entry_points(tmp_path: Path) -> None:
    """Our passes and dialects are known without scanning the installed packages."""
    hlo = tmp_path / "double.hlo"
    hlo.write_text(
        "HloModule m\n\nf {\n  p = f32[64] parameter(0)\n  ROOT a = f32[64] add(p, p)\n}\n\n"
        "ENTRY e {\n  p = f32[64] parameter(0)\n"
        "  ROOT r = f32[64] fusion(p), kind=kLoop, calls=f\n}\n"
    )
    code = (
        "import sys; from xla_emit.tools import run; "
        f"status = run.main([{str(hlo)!r}, '-o', {str(tmp_path / 'out.npz')!r}]); "
        "print(status, 'importlib.metadata' in sys.modules, 'xdsl.universe' in sys.modules)"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert result.stdout == "0 False False\n", result.stderr
    expected = 2 * random_inputs(parse_hlo_module(hlo.read_text(), str(hlo)).entry, 0)[0]
    np.testing.assert_array_equal(np.load(tmp_path / "out.npz")["out0"], expected)


def test_run_writes_the_npz_to_stdout_for_dash(tmp_path: Path) -> None:
    hlo = "HloModule m\nENTRY e {\n  ROOT p = f32[3] parameter(0)\n}\n"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "xla_emit.tools.run", "-", "--reference", "-o", "-"]
    result = subprocess.run(
        command, input=hlo.encode(), capture_output=True, env=env, check=True, cwd=tmp_path
    )
    expected = random_inputs(parse_hlo_module(hlo, "m.hlo").entry, 0)[0]
    assert np.array_equal(np.load(io.BytesIO(result.stdout))["out0"], expected)
    assert not (tmp_path / "-").exists()
