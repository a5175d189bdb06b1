"""Survey PTOAS's own `.pto` files: how many parse, verify and round-trip.

    PYTHONPATH=. .venv/bin/python tools/survey_ptoas.py PTOAS_CHECKOUT [--failures N] [--verbose]

Every `test/**/*.pto` of the checkout is parsed as MLIR, verified (the op
verifiers, then `pto-verify-target` for the target the file's RUN line or
module names), printed,
parsed again and printed again; the round trip holds when both prints agree
(a print/parse fixed point). Prints the three counts and, per failing file,
the stage and its first error. Files that PTOAS's own lit tests expect to fail
(`RUN: not ptoas`, `expected-error`) are counted apart: for them the
verifier rejecting the file is the right answer. Not part of `make test`: it
needs a PTOAS checkout (github.com/hw-native-sys/PTOAS).
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from xdsl.printer import Printer

from passes.diagnostics import OpError
from passes.pto.pto_verify_target import verify_target
from xla_emit.diagnostics import UserError
from xla_emit.ir import make_context, op_error, parse_mlir, verify_module


@dataclass
class Outcome:
    path: Path
    parsed: bool = False
    verified: bool = False
    round_trip: bool = False
    expects_error: bool = False
    expected_error: str = ""
    stage: str = ""
    error: str = ""


def printed(module: object) -> str:
    stream = io.StringIO()
    Printer(stream=stream).print_op(module)  # type: ignore[arg-type]
    return stream.getvalue()


_CHECKS_ERROR = re.compile(r"CHECK[\w-]*:.*error:")


def expects_error(text: str) -> bool:
    """PTOAS's negative tests: the file is meant to be rejected."""
    return "RUN: not " in text or "expected-error" in text or bool(_CHECKS_ERROR.search(text))


def expected_error(text: str) -> str:
    """The first error a negative test expects, as its CHECK line gives it."""
    match = re.search(
        r"(?:CHECK[\w-]*:|expected-error[^{]*\{\{)\s*(.*error.*?)(?:\}\}|$)", text, re.M
    )
    return match.group(1).strip() if match else ""


def target_option(text: str) -> str | None:
    """The target PTOAS's RUN line names (`--pto-arch=a5`); for a negative test, the
    line that expects the failure (`RUN: not ptoas --pto-arch=a3`); None: the module's own."""
    runs = re.findall(r"RUN:.*", text)
    failing = [line for line in runs if line.startswith("RUN: not ")]
    for line in [*failing, *runs]:
        match = re.search(r"--pto-arch[= ](\w+)", line)
        if match:
            return match.group(1)
    return None


def survey_file(path: Path) -> Outcome:
    outcome = Outcome(path)
    text = path.read_text(encoding="utf-8", errors="replace")
    outcome.expects_error = expects_error(text)
    outcome.expected_error = expected_error(text)
    ctx = make_context()
    try:
        module, source_map = parse_mlir(text, str(path), ctx)
    except UserError as error:
        return _failed(outcome, "parse", error)
    outcome.parsed = True
    # The round trip is checked on every file that parses, negative tests included.
    first = printed(module)
    try:
        again, _ = parse_mlir(first, f"{path} (printed)", ctx)
        second = printed(again)
        outcome.round_trip = first == second
        if not outcome.round_trip:
            outcome.stage, outcome.error = "round-trip", first_difference(first, second)
    except UserError as error:
        _failed(outcome, "round-trip parse", error)
    try:
        verify_module(module, source_map)
        verify_target(module, target_option(text))
    except UserError as error:
        return _failed(outcome, "verify", error)
    except OpError as error:
        return _failed(outcome, "verify", op_error(error.op, error.message, source_map))
    outcome.verified = True
    return outcome


def _failed(outcome: Outcome, stage: str, error: UserError) -> Outcome:
    outcome.stage = stage
    outcome.error = error.format().splitlines()[0]
    return outcome


def first_difference(first: str, second: str) -> str:
    for number, (a, b) in enumerate(zip(first.splitlines(), second.splitlines(), strict=False), 1):
        if a != b:
            return f"printed line {number} differs: {a.strip()!r} then {b.strip()!r}"
    return "printed texts differ in length"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", help="a PTOAS checkout (its test/ folder is surveyed)")
    parser.add_argument("--failures", type=int, default=1000, help="list at most N failures")
    options = parser.parse_args(argv)
    root = Path(options.checkout)
    files = sorted((root / "test").rglob("*.pto"))
    if not files:
        print(f"error: no test/**/*.pto under {root}", file=sys.stderr)
        return 1
    outcomes = [survey_file(path) for path in files]
    report(outcomes, root, options.failures)
    return 0


def report(outcomes: list[Outcome], root: Path, limit: int) -> None:
    total = len(outcomes)
    negative = [o for o in outcomes if o.expects_error]
    positive = [o for o in outcomes if not o.expects_error]
    print(f"files:      {total} ({len(positive)} valid, {len(negative)} PTOAS negative tests)")
    print(f"parse:      {sum(o.parsed for o in outcomes)}/{total}")
    print(f"round-trip: {sum(o.round_trip for o in outcomes)}/{total}")
    print(f"verify:     {sum(o.verified for o in positive)}/{len(positive)} valid files verify")
    rejected = sum(o.parsed and not o.verified for o in negative)
    print(f"reject:     {rejected}/{len(negative)} negative tests fail verification")
    shown = 0
    for outcome in outcomes:
        where = outcome.path.relative_to(root)
        if outcome.expects_error and outcome.verified and shown < limit:
            print(f"{where}: accepted, but PTOAS expects: {outcome.expected_error or 'an error'}")
            shown += 1
        elif not outcome.expects_error and (not outcome.verified or not outcome.round_trip):
            if shown < limit:
                print(f"{where}: {outcome.stage}: {outcome.error}")
                shown += 1
        elif outcome.expects_error and not outcome.parsed and shown < limit:
            print(f"{where}: {outcome.stage} (negative test): {outcome.error}")
            shown += 1


if __name__ == "__main__":
    sys.exit(main())
