"""`dialects.BUILT_IN_DIALECTS` and the entry-point group `xla_emit.dialects` in
`pyproject.toml` list the same dialects, and each entry loads the dialect of its name."""

from __future__ import annotations

import tomllib
from pathlib import Path

from xla_emit.dialects import BUILT_IN_DIALECTS, built_in_dialects

from xla_emit.ir.context import DIALECT_ENTRY_POINTS

ROOT = Path(__file__).resolve().parents[2]


def test_pyproject_publishes_exactly_the_built_in_dialects() -> None:
    table = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert table["project"]["entry-points"][DIALECT_ENTRY_POINTS] == BUILT_IN_DIALECTS


def test_each_built_in_dialect_loads_under_its_name() -> None:
    for name, load in built_in_dialects().items():
        assert load().name == name
