"""Delta debugging of a disagreement: the smallest program that still shows it.

Three reductions, each kept only when XLA and ours still disagree the same way
(`Verdict.signature`): keep one output instead of all; make an operand of the output
the output; cut an instruction, which becomes a parameter fed with the value XLA
computes for it (so what follows sees the same values), then drop whatever no output
needs. Repeated until nothing more goes.
"""

from __future__ import annotations

import copy

import numpy as np
from arrays import decode, encode
from check import Verdict, XlaWorker, check_program
from generate import Param, Program

Inputs = dict[str, np.ndarray]


def _ordered(program: Program, inputs: Inputs) -> list[np.ndarray]:
    return [inputs[p.name] for p in program.params]


def _prune(program: Program, inputs: Inputs) -> tuple[Program, Inputs]:
    """Without the instructions and parameters no output needs."""
    live = set(program.roots)
    for instr in reversed(program.instrs):
        if instr.name in live:
            live.update(instr.operands)
    pruned = copy.deepcopy(program)
    pruned.instrs = [i for i in program.instrs if i.name in live]
    pruned.params = [p for p in program.params if p.name in live]
    return pruned, {p.name: inputs[p.name] for p in pruned.params}


def _value_of(worker: XlaWorker, program: Program, inputs: Inputs, name: str) -> np.ndarray | None:
    """XLA:CPU's value of instruction `name` in `program`."""
    probe = copy.deepcopy(program)
    probe.roots = [name]
    probe, probe_inputs = _prune(probe, inputs)
    reply = worker.ask(probe.text(), _ordered(probe, probe_inputs), probe.shapes(), gpu=False)
    if "error" in reply:
        return None
    return decode(reply["outputs"][0])  # type: ignore[index]


def _cut(program: Program, name: str, value: np.ndarray, inputs: Inputs) -> tuple[Program, Inputs]:
    cut = copy.deepcopy(program)
    index = next(i for i, instr in enumerate(cut.instrs) if instr.name == name)
    instr = cut.instrs.pop(index)
    cut.params.append(Param(instr.name, instr.ptype, instr.dims))
    return _prune(cut, {**inputs, name: value})


def _with_operand_roots(program: Program, inputs: Inputs) -> list[tuple[Program, Inputs]]:
    """The program with its (one) output replaced by an operand of it, for each operand
    that an instruction computes (the instructions after it dropped)."""
    if len(program.roots) != 1:
        return []
    root = program.value(program.roots[0])
    candidates = []
    for operand in getattr(root, "operands", []):
        value = program.value(operand)
        if isinstance(value, Param) or value.shape is not None or value.opcode == "constant":
            continue
        shorter = copy.deepcopy(program)
        shorter.roots = [operand]
        candidates.append(_prune(shorter, inputs))
    return candidates


def minimize(
    worker: XlaWorker, program: Program, inputs: list[np.ndarray], verdict: Verdict
) -> dict[str, object]:
    """The smallest failing program found, as a record for the log (program, inputs,
    XLA's optimized module and outputs, and how ours differs)."""
    target = verdict.signature()
    named = {p.name: x for p, x in zip(program.params, inputs, strict=True)}
    best, best_inputs, best_verdict = program, named, verdict

    def fails(candidate: Program, candidate_inputs: Inputs) -> Verdict | None:
        result = check_program(
            worker, candidate.text(), _ordered(candidate, candidate_inputs), candidate.shapes()
        )
        return result if result.signature() == target else None

    for root in program.roots if len(program.roots) > 1 else []:
        single = copy.deepcopy(program)
        single.roots = [root]
        single, single_inputs = _prune(single, named)
        found = fails(single, single_inputs)
        if found is not None:
            best, best_inputs, best_verdict = single, single_inputs, found
            break
    progress = True
    while progress:
        progress = False
        for candidate, candidate_inputs in _with_operand_roots(best, best_inputs):
            found = fails(candidate, candidate_inputs)
            if found is not None:
                best, best_inputs, best_verdict = candidate, candidate_inputs, found
                progress = True
                break
        if progress:
            continue
        for instr in reversed(best.instrs):
            if instr.shape is not None or instr.name in best.roots:
                continue
            value = _value_of(worker, best, best_inputs, instr.name)
            if value is None:
                continue
            candidate, candidate_inputs = _cut(best, instr.name, value, best_inputs)
            found = fails(candidate, candidate_inputs)
            if found is not None:
                best, best_inputs, best_verdict = candidate, candidate_inputs, found
                progress = True
                break
    return {
        "hlo": best.text(),
        "inputs": [encode(x) for x in _ordered(best, best_inputs)],
        "xla_outputs": [encode(x) for x in best_verdict.xla_outputs],
        "gpu_hlo": best_verdict.gpu_hlo,
        "message": best_verdict.message,
    }
