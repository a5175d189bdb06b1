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
        "files:      4 (2 valid, 2 PTOAS negative tests, 0 unmarked files PTOAS rejects)",
        "parse:      4/4 (the 0 that do not are unmarked files PTOAS rejects)",
        "round-trip: 4/4 files that parse",
        "verify:     2/2 valid files verify",
        "reject:     1/2 negative tests fail verification as PTOAS's RUN lines expect",
        "unmarked:   0/0 unmarked files PTOAS rejects fail where and why PTOAS's do",
        "test/basic/accepted.pto: verify: accepted with default options, but PTOAS rejects it",
    ]


def test_a_checkout_without_pto_files_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _survey().main([str(tmp_path)]) == 1
    assert capsys.readouterr().err == f"error: no test/**/*.pto under {tmp_path}\n"
