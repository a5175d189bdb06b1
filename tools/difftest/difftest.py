"""The differential tester's command line: random HLO programs, XLA against ours.

    .venv/bin/python tools/difftest/difftest.py --start 0 --count 10000 [--log FILE]
        [--only CLASS] [--minimize] [--show SEED]

Program `seed` is `generate.generate(seed)` with inputs `Program.inputs(seed)`: a seed
reproduces a program and its inputs anywhere. Each verdict that is not `agree` is one
JSON line in the log; every 100 programs a summary line. `--minimize` shrinks each
disagreement (`minimize.py`) and logs the smallest program XLA and we still disagree on.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import time
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np
from check import XlaWorker, check_program, judge, stderr
from generate import CLASS_NAMES, Program, generate
from minimize import minimize

# Kinds that are ours to fix: they end a run of agreement. An `unsupported` is one of them:
# XLA ran the program, so a located refusal of ours is no agreement with it. The others are
# XLA refusing a program (`xla-rejects`) and agreement (`agree-flushed`: once subnormals are
# flushed as XLA:CPU flushes them).
FAILURES = frozenset(
    {
        "crash",
        "timeout",
        "unsupported",
        "differs",
        "evaluator-differs",
        "evaluator-crash",
        "evaluator-timeout",
    }
)


def next_streak(streak: int, kind: str) -> int:
    """The run of agreeing programs after one whose verdict is `kind`."""
    return 0 if kind in FAILURES else streak + 1


def _submit(worker: XlaWorker, seed: int, only: str | None) -> tuple[Program, list[np.ndarray]]:
    program = generate(seed, only=only)
    inputs = program.inputs(seed)
    worker.submit(program.text(), inputs, program.shapes())
    return program, inputs


def main() -> None:
    warnings.simplefilter("ignore")  # numpy's overflow/invalid warnings on edge values
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--log", default=None, help="JSON lines of every non-agreeing program")
    parser.add_argument("--only", choices=CLASS_NAMES, help="programs of one op class only")
    parser.add_argument("--minimize", action="store_true")
    parser.add_argument("--show", type=int, help="print program SEED and its verdict")
    args = parser.parse_args()
    worker = XlaWorker()
    if args.show is not None:
        program = generate(args.show, only=args.only)
        print(program.text())
        verdict = check_program(worker, program.text(), program.inputs(args.show), program.shapes())
        print(f"{verdict.kind}: {verdict.message}\n{verdict.gpu_hlo}")
        worker.close()
        return
    log = open(args.log, "a") if args.log else None  # noqa: SIM115
    kinds: collections.Counter[str] = collections.Counter()
    streak = 0
    started = time.time()
    seeds = range(args.start, args.start + args.count)
    upcoming = _submit(worker, seeds[0], args.only)
    for position, seed in enumerate(seeds):
        program, inputs = upcoming
        reply = worker.receive()
        more = position + 1 < len(seeds)
        if more:
            # XLA compiles the next program while ours runs this one.
            upcoming = _submit(worker, seeds[position + 1], args.only)
        verdict = judge(worker, program.text(), inputs, program.shapes(), reply)
        kinds[verdict.kind] += 1
        streak = next_streak(streak, verdict.kind)
        if verdict.kind != "agree":
            record: dict[str, object] = {"seed": seed, "only": args.only, "kind": verdict.kind,
                                         "message": verdict.message}  # fmt: skip
            if args.minimize and verdict.kind in FAILURES:
                record["minimized"] = minimize(worker, program, inputs, verdict)
            stderr(json.dumps(record))
            if log:
                log.write(json.dumps(record) + "\n")
                log.flush()
        done = seed - args.start + 1
        if done % 100 == 0 or done == args.count:
            summary = {"programs": done, "last_seed": seed, "streak": streak,
                       "seconds": round(time.time() - started), **kinds}  # fmt: skip
            stderr(json.dumps(summary))
            if log:
                log.write(json.dumps({"summary": summary}) + "\n")
                log.flush()
    worker.close()


if __name__ == "__main__":
    main()
