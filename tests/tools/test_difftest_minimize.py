"""The differential tester's minimizer (tools/difftest/minimize.py) against a fake XLA.

The fake answers with our reference evaluator, except that it is wrong (adds 1) for any
program holding a `negate`: the minimizer must shrink a program to the `negate` alone.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parents[2] / "tools" / "difftest"))

from arrays import encode
from check import check_program
from generate import Instr, Param, Program
from minimize import minimize

from xla_emit.hlo.evaluator import evaluate_module
from xla_emit.hlo.parser import parse_hlo_module


class _WrongAboutNegate:
    """Stands in for `XlaWorker`: the program itself as the optimized module."""

    def ask(
        self,
        hlo: str,
        inputs: list[np.ndarray],
        shapes: list[tuple[int, ...]] | None = None,
        gpu: bool = True,
    ) -> dict[str, object]:
        del shapes, gpu
        outputs = evaluate_module(parse_hlo_module(hlo), inputs)
        if " negate(" in hlo:
            outputs = [x + np.ones((), x.dtype) for x in outputs]
        return {"outputs": [encode(x) for x in outputs], "gpu_hlo": hlo}


def _program() -> Program:
    program = Program()
    program.params = [Param("x", "s32", (4,)), Param("y", "s32", (4,))]
    program.instrs = [
        Instr("sum", "s32", (4,), "add", ["x", "y"]),
        Instr("product", "s32", (4,), "multiply", ["sum", "x"]),
        Instr("negated", "s32", (4,), "negate", ["product"]),
        Instr("difference", "s32", (4,), "subtract", ["negated", "y"]),
        Instr("other", "s32", (4,), "maximum", ["x", "y"]),
    ]
    program.roots = ["difference", "other"]
    return program


def test_a_disagreement_shrinks_to_the_op_that_causes_it() -> None:
    worker = _WrongAboutNegate()
    program = _program()
    inputs = [np.arange(4, dtype=np.int32), np.full(4, 3, np.int32)]
    verdict = check_program(worker, program.text(), inputs, program.shapes())  # type: ignore[arg-type]
    assert verdict.kind == "differs"
    small = minimize(worker, program, inputs, verdict)  # type: ignore[arg-type]
    hlo = str(small["hlo"])
    opcodes = re.findall(r"\] ([a-z-]+)\(", hlo)
    # One output, computed by the negate of a parameter (holding XLA's value of `product`).
    assert opcodes == ["parameter", "negate"], hlo
    assert len(small["inputs"]) == 1  # type: ignore[arg-type]
