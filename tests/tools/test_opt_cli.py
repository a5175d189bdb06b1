"""`xla-emit-opt` as a user meets it: exit codes, located errors, no tracebacks."""

import subprocess
import sys
from pathlib import Path

import pytest
from xla_emit.passes.pipelines import expand_pipelines

from xla_emit.ir import split_chunks
from xla_emit.tools.expected_diagnostics import parse_annotations


def run_opt(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "xla_emit.tools.opt", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


GOOD = "func.func @f(%a: i32) -> i32 {\n  %b = arith.addi %a, %a : i32\n  func.return %b : i32\n}\n"


def test_prints_and_applies_passes() -> None:
    result = run_opt("-", "-p", "cse", stdin=GOOD)
    assert result.returncode == 0, result.stderr
    assert "%b = arith.addi %a, %a : i32" in result.stdout


@pytest.mark.parametrize(
    ("source", "line", "column", "message"),
    [
        ("func.func @f(\n", 2, 1, "Expected argument or type"),
        (GOOD.replace(": i32\n  func", ": i64\n  func"), 2, 19, "previously used or defined"),
        (GOOD.replace("arith.addi", "arith.nosuchop"), 2, 8, "arith.nosuchop is not registered"),
        (
            GOOD.replace("func.return %b : i32", "func.return %b, %b : i32, i32"),
            3,
            3,
            "'func.return' op",
        ),
    ],
)
def test_bad_input_is_located_and_exits_1(
    tmp_path: Path, source: str, line: int, column: int, message: str
) -> None:
    path = tmp_path / "bad.mlir"
    path.write_text(source)
    result = run_opt(str(path))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"{path}:{line}:{column}: error: "), first
    assert message in first
    caret_line = result.stderr.splitlines()[2]
    assert caret_line == " " * (column - 1) + "^"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("no-such-pass", "Unrecognized passes: ['no-such-pass']"),
        ("cse{", "Expected argument name here"),
        ("canonicalize{bogus=1}", 'Provided arguments ["bogus"] not found'),
        ("xla-gpu-optimize-loops{max-unroll-factor=x}", "Incompatible types"),
    ],
)
def test_bad_pipeline_is_a_user_error(spec: str, message: str) -> None:
    result = run_opt("-", "-p", spec, stdin=GOOD)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith(f"error: invalid pass pipeline '{spec}'")
    assert message in result.stderr


def test_missing_file_is_a_user_error() -> None:
    result = run_opt("/nonexistent/file.mlir")
    assert result.returncode == 1
    assert "cannot read '/nonexistent/file.mlir'" in result.stderr


def test_binary_input_is_a_user_error(tmp_path: Path) -> None:
    binary = tmp_path / "binary.hlo"
    binary.write_bytes(b"\x00\xff\xfebinary")
    result = run_opt(str(binary))
    assert result.returncode == 1
    assert (
        result.stderr == f"error: cannot read '{binary}': not UTF-8 text (byte 0xff at offset 1)\n"
    )


def test_reads_xz_compressed_input(tmp_path: Path) -> None:
    import lzma

    packed = tmp_path / "k.mlir.xz"
    packed.write_bytes(lzma.compress(GOOD.encode()))
    result = run_opt(str(packed))
    assert result.returncode == 0 and "arith.addi %a, %a : i32" in result.stdout
    (tmp_path / "bad.mlir.xz").write_bytes(lzma.compress(GOOD.encode())[:20])
    result = run_opt(str(tmp_path / "bad.mlir.xz"))
    assert result.returncode == 1
    assert result.stderr.startswith(f"error: cannot read '{tmp_path / 'bad.mlir.xz'}': not xz data")


@pytest.mark.parametrize(
    ("output", "reason"),
    [("missing/out.mlir", "No such file or directory"), (".", "Is a directory")],
)
def test_unwritable_output_is_a_user_error(tmp_path: Path, output: str, reason: str) -> None:
    source = tmp_path / "good.mlir"
    source.write_text(GOOD)
    target = tmp_path / output
    result = run_opt(str(source), "-o", str(target))
    assert result.returncode == 1
    assert result.stderr == f"error: cannot write '{target}': {reason}\n"


def test_split_chunks_keep_file_line_numbers() -> None:
    text = "a\nb\n// -----\nc\n// -----\nd\n"
    chunks = split_chunks(text)
    assert [
        chunk.splitlines().index(last) + 1 for chunk, last in zip(chunks, "acd", strict=True)
    ] == [
        1,
        4,
        6,
    ]


def test_annotations_resolve_relative_lines() -> None:
    text = (
        "x\n// expected-error@+2 {{two down}}\n\n"
        "y // expected-note {{same}}\n// expected-error@above {{up}}\n"
    )
    found = [(e.kind, e.line, e.message) for e in parse_annotations(text)]
    assert found == [("error", 4, "two down"), ("note", 4, "same"), ("error", 4, "up")]


def test_pipeline_names_expand_but_options_stay_intact(monkeypatch: pytest.MonkeyPatch) -> None:
    import xla_emit.passes.pipelines

    monkeypatch.setitem(xla_emit.passes.pipelines.PIPELINES, "both", "cse,dce")
    assert expand_pipelines("both,canonicalize{max-iterations=2},both") == (
        "cse,dce,canonicalize{max-iterations=2},cse,dce"
    )


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("xla-gpu-optimize-loops{max-unroll-factor=-1}", "max-unroll-factor must be >= 0"),
        ("inline{max-caller-ops=-5}", "max-caller-ops must be >= 0"),
        ('pto-plan-memory{capacity="vec"}', 'capacity entries look like "vec=196608"'),
    ],
)
def test_bad_pass_option_value_is_a_user_error(spec: str, message: str) -> None:
    result = run_opt("-", "-p", spec, stdin=GOOD)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("error: ") and message in result.stderr


def test_unterminated_string_is_reported_not_backtracked_forever(tmp_path: Path) -> None:
    # 60 characters before the missing quote: xDSL's own string regex needs
    # about 2^60 steps here; ours answers at once.
    path = tmp_path / "open_string.mlir"
    path.write_text('#map = #xla_gpu.indexing_map<"(d0) -> (' + "d0 + " * 12 + "d0)>\n")
    result = subprocess.run(
        [sys.executable, "-m", "xla_emit.tools.opt", str(path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 1
    assert result.stderr.startswith(f"{path}:1:30: error: End of file reached before closing")
