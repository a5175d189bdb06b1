"""How the differential tester counts a run of agreement (tools/difftest/difftest.py)."""

from __future__ import annotations

import sys
from functools import reduce
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "tools" / "difftest"))

from difftest import next_streak


def test_an_unsupported_program_ends_the_run_of_agreement() -> None:
    # XLA ran it; our located refusal is no agreement (seed 1100388 was one).
    kinds = ["agree", "agree-flushed", "xla-rejects", "unsupported", "agree", "agree"]
    assert reduce(next_streak, kinds, 0) == 2


def test_every_kind_of_ours_ends_it_and_xla_s_refusal_does_not() -> None:
    for kind in ("crash", "timeout", "differs", "evaluator-differs", "evaluator-crash"):
        assert next_streak(41, kind) == 0
    for kind in ("agree", "agree-flushed", "xla-rejects"):
        assert next_streak(41, kind) == 42
