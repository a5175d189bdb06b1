"""Every program of the XLA corpus: each fusion is emitted, verified, round-tripped
through the printer and parser, run in the interpreter on the corpus inputs and
compared with the HLO evaluator."""

from __future__ import annotations

from pathlib import Path

import pytest
from emitter_kernel_checks import check_module_fusions

from xla_emit.emitters import emit_hlo_module
from xla_emit.hlo.npz import read_inputs
from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.ir import parse_mlir

CORPUS = Path(__file__).parent.parent / "corpus"
PROGRAMS = sorted(path.stem for path in CORPUS.glob("*.hlo"))


@pytest.mark.parametrize("name", PROGRAMS)
def test_corpus_program_emits_verified_ir_that_round_trips(name: str) -> None:
    path = CORPUS / f"{name}.hlo"
    module = emit_hlo_module(path.read_text(), str(path))
    module.verify()
    printed = str(module)
    reparsed, _ = parse_mlir(printed, f"{name}.mlir")
    assert str(reparsed) == printed


@pytest.mark.parametrize("name", PROGRAMS)
def test_corpus_program_kernels_match_the_evaluator(name: str) -> None:
    path = CORPUS / f"{name}.hlo"
    module = parse_hlo_module(path.read_text(), str(path))
    arguments = read_inputs(str(CORPUS / f"{name}.inputs.npz"), module.entry)
    checked = check_module_fusions(module, arguments)
    assert checked, "the program has fusions"
