"""Every program of tests/corpus/ on the interpreter against XLA's own outputs.

bf16 and integer outputs must be bit-exact; f32 outputs within 4 ulp or a
small error relative to the largest output (XLA reassociates reductions and
uses its own exp/tanh approximations; see xla_emit.runtime.compare).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from xla_emit.hlo.evaluator import evaluate_module
from xla_emit.hlo.npz import from_storable, read_inputs
from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.hlo.shape import ArrayShape, TupleShape
from xla_emit.interpreter import CheckOptions
from xla_emit.runtime import KernelCache, ModuleRuntime, check_pipeline
from xla_emit.runtime.compare import compare

CORPUS = Path(__file__).parents[1] / "corpus"
PROGRAMS = sorted(CORPUS.glob("*.hlo"))


def _output_shapes(root_shape: ArrayShape | TupleShape) -> list[ArrayShape]:
    if isinstance(root_shape, TupleShape):
        return [s for element in root_shape.elements for s in _output_shapes(element)]  # pyright: ignore[reportArgumentType]
    return [root_shape]


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_corpus_program_matches_xla(program: Path) -> None:
    module = parse_hlo_module(program.read_text(), str(program))
    inputs = read_inputs(str(program.with_suffix(".inputs.npz")), module.entry)
    outputs = ModuleRuntime(module, KernelCache(checks=CheckOptions())).run(inputs)
    with np.load(program.with_suffix(".outputs.npz")) as archive:
        shapes = _output_shapes(module.entry.root.shape)  # pyright: ignore[reportArgumentType]
        expected = [
            from_storable(archive[f"out{i}"], shape, f"out{i}") for i, shape in enumerate(shapes)
        ]
    assert len(outputs) == len(expected)
    for number, (output, reference) in enumerate(zip(outputs, expected, strict=True)):
        comparison = compare(reference, output)
        exact = reference.dtype.kind in "biu" or reference.dtype.itemsize == 2
        assert comparison.identical if exact else comparison.matches, (
            f"out{number}: {comparison.describe()}"
        )


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_corpus_program_passes_check_at_every_stage(program: Path) -> None:
    """What `xla-emit-run --check` asserts: every stage agrees with the reference evaluator."""
    module = parse_hlo_module(program.read_text(), str(program))
    inputs = read_inputs(str(program.with_suffix(".inputs.npz")), module.entry)
    report = check_pipeline(module, inputs, evaluate_module(module, inputs), checks=CheckOptions())
    assert report.first_failure is None, report.report()
    assert report.stages[0].stage == "emitted" and len(report.stages) > 1
