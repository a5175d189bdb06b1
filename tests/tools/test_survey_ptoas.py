"""`tools/survey_ptoas.py` on a small checkout of our own: each RUN line is verified
with its options, and a file matches PTOAS when it fails exactly where PTOAS's
RUN lines say it does."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _survey() -> ModuleType:
    """The script, loaded as a module (it is not part of a package)."""
    spec = importlib.util.spec_from_file_location("survey_ptoas", ROOT / "tools/survey_ptoas.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


TILE = "!pto.tile_buf<vec, 16x16xf16>"

BOUND_BY_HAND = f"""
func.func @k() {{
  %a = arith.constant 0 : i64
  %t = pto.alloc_tile addr = %a : {TILE}
  %u = pto.tassign %t, %a : {TILE} -> {TILE}
  return
}}
"""
PLANNED = f"""
func.func @k() {{
  %t = pto.alloc_tile : {TILE}
  return
}}
"""

FILES = {
    # Valid at the RUN line's options.
    "test/basic/planned.pto": "// RUN: ptoas --pto-arch=a5 %s | FileCheck %s\n" + PLANNED,
    # Valid at level 3 only, and not with automatic synchronization: three lines.
    "test/basic/bound.pto": (
        "// RUN: ptoas --pto-level=level3 --pto-arch=a5 %s\n"
        "// RUN: not ptoas --pto-level=level3 --enable-insert-sync %s\n"
        "// RUN: not ptoas --pto-level=level2 %s\n" + BOUND_BY_HAND
    ),
    # A negative test ours accepts: listed.
    "test/basic/accepted.pto": "// RUN: not ptoas %s 2>&1 | FileCheck %s\n" + PLANNED,
    # A sample without RUN lines: runop.sh picks its level, so no level check.
    "test/samples/Bound/bound.pto": BOUND_BY_HAND,
}


def test_the_survey_verifies_each_run_line_with_its_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, text in FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert _survey().main([str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "files:      4 (4 cases: 2 valid, 2 PTOAS negative tests, 0 unmarked files PTOAS rejects)",
        "parse:      4/4 (the 0 that do not are unmarked files PTOAS rejects)",
        "round-trip: 4/4 cases that parse",
        "verify:     2/2 valid cases verify",
        "reject:     1/2 negative tests fail as PTOAS's RUN lines expect",
        "unmarked:   0/0 unmarked files PTOAS rejects fail where and why PTOAS's do",
        "verdict:    3/4 cases as under PTOAS",
        "mismatches by cause:",
        "      1  accepted, but PTOAS rejects it",
        "test/basic/accepted.pto: verify: accepted with default options, but PTOAS rejects it",
    ]


def test_a_checkout_without_pto_files_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _survey().main([str(tmp_path)]) == 1
    assert capsys.readouterr().err == f"error: no test/**/*.pto under {tmp_path}\n"


# PTOAS main's layout: a `split-file` test whose parts its RUN lines name, a RUN
# line continued over two lines, and a `pto-test-opt -split-input-file` test whose
# chunks each say whether they fail.
SPLIT_FILE = f"""// RUN: split-file %s %t
// RUN: ptoas --pto-arch=a5 \\
// RUN:   %t/good.pto | FileCheck %s
// RUN: not ptoas --pto-level=level2 %t/bound.pto 2>&1 | FileCheck %s
//--- good.pto
{PLANNED}
//--- bound.pto
{BOUND_BY_HAND}
"""
BAD_TYPE = """
func.func @k() {
  // expected-error @+1 {{unknown}}
  %t = pto.alloc_tile : !pto.tile_buf<vec, 16x16xnope>
  return
}
"""
SPLIT_INPUT = f"""// RUN: pto-test-opt %s -verify-diagnostics -split-input-file
{PLANNED}
// -----
{BAD_TYPE}
// -----
{PLANNED}
"""
NEW_LAYOUT = {
    "test/lit/pto/split.pto": SPLIT_FILE,
    "test/lit/vpto/chunks.pto": SPLIT_INPUT,
    "test/lit/pto/help.pto": "// RUN: ptoas --help > /dev/null\n" + PLANNED,
}


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def test_split_files_chunks_and_continued_run_lines_are_cases_of_their_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(tmp_path, NEW_LAYOUT)
    assert _survey().main([str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        "files:      3 (5 cases: 3 valid, 2 PTOAS negative tests, 0 unmarked files PTOAS rejects)"
    )
    assert out[6] == "verdict:    5/5 cases as under PTOAS"


def test_the_cases_of_a_split_file_take_the_run_lines_naming_them() -> None:
    survey = _survey()
    cases = survey.cases_of("t.pto", SPLIT_FILE)
    assert [(c.name, c.expects_error) for c in cases] == [
        ("t.pto:good.pto", False),
        ("t.pto:bound.pto", True),
    ]
    good, bound = cases
    assert [(r.arch, r.fails) for r in good.runs] == [("a5", False)]
    assert [(r.level, r.fails) for r in bound.runs] == [("level2", True)]
    # A part keeps the file's line numbers: its errors point into the file.
    assert bound.text.splitlines()[SPLIT_FILE.splitlines().index("//--- bound.pto") + 2] == (
        "func.func @k() {"
    )


def test_input_chunks_fail_where_they_expect_an_error() -> None:
    cases = _survey().cases_of("c.pto", SPLIT_INPUT)
    assert [(c.name, c.expects_error) for c in cases] == [
        ("c.pto#1", False),
        ("c.pto#2", True),
        ("c.pto#3", False),
    ]
    # `// -----------` is a comment, not a split.
    assert len(_survey().split_chunks("a\n// ----------\nb\n")) == 1


def test_under_a_not_line_each_chunk_with_a_check_line_fails() -> None:
    """`not pto-test-opt -split-input-file | FileCheck`: each chunk's CHECK line is the
    error that chunk gives, whether or not it says `error:`; the RUN line's `not` in
    the first chunk speaks for every chunk, and a chunk without a CHECK line may pass."""
    text = (
        "// RUN: not pto-test-opt %s -split-input-file 2>&1 | FileCheck %s\n"
        f"{PLANNED}\n// -----\n"
        f"{PLANNED}\n// CHECK: 'pto.x' op requires one thing\n// -----\n"
        f"{PLANNED}\n// CHECK: error: another\n"
    )
    cases = _survey().cases_of("n.pto", text)
    assert [(c.name, c.expects_error) for c in cases] == [
        ("n.pto#1", False),
        ("n.pto#2", True),
        ("n.pto#3", True),
    ]


def test_a_case_our_code_raises_on_is_a_crash_and_the_survey_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    survey = _survey()
    _write(tmp_path, {"test/a.pto": PLANNED, "test/b.pto": PLANNED})
    real = survey.verify_module

    def verify_raising(module: object, source_map: object) -> None:
        if "b.pto" in str(source_map.file):  # type: ignore[attr-defined]
            raise KeyError("operandSegmentSizes")
        real(module, source_map)

    monkeypatch.setattr(survey, "verify_module", verify_raising)
    assert survey.main([str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "verdict:    1/2 cases as under PTOAS" in out
    assert "      1  crash: KeyError: 'operandSegmentSizes'" in out
    assert out[-1] == "test/b.pto: crash: KeyError: 'operandSegmentSizes'"


def test_mismatches_are_grouped_by_cause_biggest_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    unknown = "func.func @k() {\n  pto.nothing_here\n  return\n}\n"
    _write(
        tmp_path,
        {
            "test/a.pto": unknown,
            "test/b.pto": unknown.replace("nothing_here", "nothing_either"),
            "test/c.pto": "// RUN: not ptoas %s\n" + PLANNED,
        },
    )
    assert _survey().main([str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    at = out.index("mismatches by cause:")
    assert out[at + 1 : at + 4] == [
        "      2  parse: op not registered",
        "      1  accepted, but PTOAS rejects it",
        "ops not registered (2): pto.nothing_either 1, pto.nothing_here 1",
    ]


def test_a_parse_error_matches_a_negative_test_only_with_the_error_it_expects(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad_type = "func.func @k(%a: !pto.tile_buf<vec, 16x16xnope>) {\n  return\n}\n"
    run = "// RUN: not ptoas %s 2>&1 | FileCheck %s\n"
    _write(
        tmp_path,
        {
            "test/same.pto": run + "// CHECK: error: Expected shape type.\n" + bad_type,
            "test/other.pto": run + "// CHECK: error: unknown element nope\n" + bad_type,
            "test/unsaid.pto": run + bad_type,
        },
    )
    assert _survey().main([str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "verdict:    2/3 cases as under PTOAS" in out
    assert out[-1].startswith("test/other.pto: parse: ")


def test_a_file_whose_run_lines_name_a_file_beside_it_runs_that_file(tmp_path: Path) -> None:
    """`ptoas --pto-arch a3 %S/other.pto`: the case is the other file under these options."""
    (tmp_path / "other.pto").write_text(PLANNED)
    text = "// RUN: not ptoas --pto-arch a3 %S/other.pto | FileCheck %s\n// CHECK: error\n"
    [case] = _survey().cases_of("runner.pto", text, tmp_path)
    assert case.name == "runner.pto:other.pto"
    assert case.text == PLANNED
    assert [(r.arch, r.fails) for r in case.runs] == [("a3", True)]


def test_a_file_whose_run_lines_read_no_input_is_no_case() -> None:
    """`ptoas --help`: PTOAS parses nothing, and neither does the survey."""
    text = "// RUN: ptoas --help | FileCheck %s\n// CHECK: --pto-arch\nnot mlir\n"
    assert _survey().cases_of("help.pto", text) == []


def test_samples_without_run_lines_take_the_target_runop_sh_gives_them(tmp_path: Path) -> None:
    survey = _survey()
    assert survey.sample_arch("test/samples/TquantMx/tquant_mx.pto") == "a5"
    assert survey.sample_arch("test/samples/Qwen3DecodeA5/kernels/x.pto") == "a5"
    assert survey.sample_arch("test/samples/Qwen3DecodeA3/kernels/x.pto") is None
    assert survey.sample_arch("test/samples/Movfp/movfp_fixpipe_reuse-pto.pto") == "a5"
    assert survey.sample_arch("test/lit/pto/x.pto") is None
    # thistogram exists on A5 only: the A5 sample verifies, the same file elsewhere does not.
    kernel = (
        "func.func @k(%s: !pto.tile_buf<vec, 8x32xui16>, %i: !pto.tile_buf<vec, 8x32xui8>, "
        "%d: !pto.tile_buf<vec, 8x256xui32>) {\n  pto.thistogram ins(%s, %i : "
        "!pto.tile_buf<vec, 8x32xui16>, !pto.tile_buf<vec, 8x32xui8>) outs(%d : "
        "!pto.tile_buf<vec, 8x256xui32>)\n  return\n}\n"
    )
    for folder in ("TquantMx", "Other"):
        path = tmp_path / "test" / "samples" / folder / "h.pto"
        path.parent.mkdir(parents=True)
        path.write_text(kernel)
    outcomes = {
        o.name: o
        for path in sorted((tmp_path / "test").rglob("*.pto"))
        for o in survey.survey_file(path, path.relative_to(tmp_path).as_posix())
    }
    assert outcomes["test/samples/TquantMx/h.pto"].agrees
    assert not outcomes["test/samples/Other/h.pto"].agrees


def test_an_invalid_op_whose_print_does_not_read_back_is_no_print_bug(tmp_path: Path) -> None:
    survey = _survey()
    # A hard all-core barrier takes no workspace; its custom form cannot even say one.
    text = (
        "// RUN: not ptoas %s 2>&1 | FileCheck %s\n"
        "func.func @k(%w: !pto.ptr<i32, gm>) {\n"
        '  "pto.syncall"(%w) <{core_type = #pto.sync_core_type<aiv_only>, '
        "mode = #pto.sync_all_mode<hard>, operandSegmentSizes = array<i32: 1, 0>}> : "
        "(!pto.ptr<i32, gm>) -> ()\n  return\n}\n"
        "// CHECK: error: 'pto.syncall' op expects hard syncall to have no operands\n"
    )
    path = tmp_path / "test" / "lit" / "hard.pto"
    path.parent.mkdir(parents=True)
    path.write_text(text)
    (outcome,) = survey.survey_file(path, "test/lit/hard.pto")
    assert outcome.parsed and outcome.agrees, outcome.error


def test_an_op_neither_registers_matches_a_test_expecting_it_unregistered(
    tmp_path: Path,
) -> None:
    survey = _survey()
    body = 'func.func @k() {\n  %0 = "pto.retired_marker"() : () -> i32\n  return\n}\n'
    cases = {
        "unregistered.pto": "// CHECK: error: unregistered operation 'pto.retired_marker'\n",
        "verifier.pto": "// CHECK: error: 'pto.retired_marker' op expects something\n",
    }
    for name, check in cases.items():
        path = tmp_path / name
        path.write_text("// RUN: not ptoas %s 2>&1 | FileCheck %s\n" + body + check)
        (outcome,) = survey.survey_file(path, name)
        assert outcome.agrees == (name == "unregistered.pto")
