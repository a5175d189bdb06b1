"""docs/custom-calls.md lists every custom-call target with what we do, as the code does it."""

from __future__ import annotations

import re
from pathlib import Path

from xla_emit.hlo.library_calls import LIBRARY_TARGETS, UNSUPPORTED_TARGETS

TABLE = Path(__file__).parents[2] / "docs" / "custom-calls.md"
ROW = re.compile(r"^\| `([^`]+)` \| ([^|]+) \| (runs|parses|unsupported) \| (.*) \|$")


def _rows() -> dict[str, tuple[str, str]]:
    rows: dict[str, tuple[str, str]] = {}
    for line in TABLE.read_text().splitlines():
        match = ROW.match(line)
        if match:
            target, _writer, status, note = match.groups()
            assert target not in rows, f"{target} is listed twice"
            rows[target] = (status, note.strip())
    return rows


def test_every_target_the_code_knows_is_in_the_table() -> None:
    rows = _rows()
    assert set(rows) == LIBRARY_TARGETS | set(UNSUPPORTED_TARGETS)


def test_each_row_says_what_the_code_does() -> None:
    for target, (status, note) in _rows().items():
        if target in LIBRARY_TARGETS:
            assert status == "runs", target
        else:
            assert (status, note) == ("unsupported", UNSUPPORTED_TARGETS[target]), target


def test_the_gradients_and_solvers_of_real_models_run() -> None:
    rows = _rows()
    for target in (
        "__cudnn$convBackwardFilter",
        "__cudnn$convBackwardInput",
        "cusolver_potrf_ffi",
        "__cublas$triangularSolve",
    ):
        assert rows[target][0] == "runs"
