"""The example modules: every fusion emitted, round-tripped, run and checked.

The oracle is the HLO evaluator.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from emitter_kernel_checks import check_module_fusions

from xla_emit.emitters import emit_hlo_module
from xla_emit.hlo.npz import random_inputs
from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.ir import parse_mlir

EXAMPLES = Path(__file__).parent.parent.parent / "examples"

# Expected emitter kind of each fusion, worked out from the hero rules.
KINDS = {
    "transpose": ["transpose:transpose"],
    "reduction_row": ["row_sum:reduction"],
    "reduction_column": ["column_max:reduction"],
    "reduction_argmax": ["argmax:reduction"],
    "softmax": ["row_max:reduction", "e:loop", "inverse:reduction", "softmax:loop"],
}


@pytest.mark.parametrize("name", sorted(KINDS))
def test_example_kernels_match_the_evaluator(name: str) -> None:
    path = EXAMPLES / f"{name}.hlo"
    module = parse_hlo_module(path.read_text(), str(path))
    assert check_module_fusions(module, random_inputs(module.entry, 0)) == KINDS[name]


@pytest.mark.parametrize("name", sorted(KINDS))
def test_example_round_trips(name: str) -> None:
    path = EXAMPLES / f"{name}.hlo"
    printed = str(emit_hlo_module(path.read_text(), str(path)))
    reparsed, _ = parse_mlir(printed, f"{name}.mlir")
    assert str(reparsed) == printed
