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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from check import XlaWorker, check_program, stderr  # noqa: E402
from generate import CLASS_NAMES, generate  # noqa: E402

# Kinds that are ours to fix; the others are XLA refusing a program, or a located error.
FAILURES = frozenset(
    {"crash", "timeout", "differs", "evaluator-differs", "evaluator-crash", "evaluator-timeout"}
)


def main() -> None:
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
    for seed in range(args.start, args.start + args.count):
        program = generate(seed, only=args.only)
        inputs = program.inputs(seed)
        verdict = check_program(worker, program.text(), inputs, program.shapes())
        kinds[verdict.kind] += 1
        streak = 0 if verdict.kind in FAILURES else streak + 1
        if verdict.kind != "agree":
            record = {"seed": seed, "only": args.only, "kind": verdict.kind,
                      "message": verdict.message}  # fmt: skip
            if args.minimize and verdict.kind in FAILURES:
                from minimize import minimize

                small = minimize(worker, program, inputs, verdict)
                record["minimized"] = small
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
