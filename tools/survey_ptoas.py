"""Survey PTOAS's own `.pto` files: how many parse, verify and round-trip.

    PYTHONPATH=. .venv/bin/python tools/survey_ptoas.py PTOAS_CHECKOUT [--failures N]

Every `test/**/*.pto` of the checkout is parsed as MLIR, printed, parsed again
and printed again (the round trip holds when both prints agree: a print/parse
fixed point), and verified as PTOAS's driver would verify it for each of the
file's `ptoas` RUN lines: the op verifiers, then `pto-verify-driver` for the
line's `--pto-level` and `--enable-insert-sync`, `pto-verify-target` for its
`--pto-arch` (else the module's target), and `pto-verify-pipes`. A file without
RUN lines (a sample that PTOAS's runop.sh compiles with options of its own)
gets all but the driver's option checks.

A file matches PTOAS when each RUN line fails exactly where PTOAS's does
(`RUN: not ptoas`; a negative test whose CHECK lines name an error expects all
its lines to fail). Negative tests are counted apart from valid files, and so are
the files PTOAS rejects that no RUN line marks (`PTOAS_REJECTS`: stale
samples, a file needing a target other than PTOAS's default): those match when
ours fails at the same stage for the same reason. Prints the counts and, per file
that does not match, the stage and its first error. Not part of `make test`: it
needs a PTOAS checkout (github.com/hw-native-sys/PTOAS).
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

from passes.diagnostics import OpError
from passes.pto.pto_verify_driver import verify_driver_options
from passes.pto.pto_verify_pipes import verify_pipes
from passes.pto.pto_verify_target import verify_target
from xla_emit.diagnostics import UserError
from xla_emit.ir import SourceMap, make_context, op_error, parse_mlir, verify_module

# Files that no RUN line marks as negative but that PTOAS rejects: three stale
# samples in a syntax it no longer has (test/samples/runop.sh compiles the .pto
# files of Sync and Qwen3Decode* only, not these), and one file without a RUN line
# whose front-end pipes need A5 while PTOAS's default target is A3. Path -> (the
# stage ours fails at, our message, why PTOAS rejects it).
PTOAS_REJECTS = {
    "test/basic/tpush_tpop_dir_both.pto": (
        "verify",
        "requires 'gm_slot_buffer' when lowering to a2/a3",
        "PTOAS's front-end pipe lowering for its default target A3 needs a gm_slot_buffer",
    ),
    "test/samples/MatMul/0.pto": (
        "parse",
        "Operation pto.subview is not registered",
        "PTOAS has no pto.subview (its view op is pto.partition_view)",
    ),
    "test/samples/MatMul/tmatmulk.pto": (
        "verify",
        "expected 1 sizes and strides for !pto.tensor_view<2xf32>, but got 2 and 2",
        "!pto.tensor_view<2xf32> is a rank-1 view, and PTOAS's make_tensor_view "
        "verifier wants as many sizes and strides as the rank",
    ),
    "test/samples/Subset/Subset.pto": (
        "parse",
        "pto.tile_buf needs a location before its shape",
        "PTOAS's tile_buf parser reads a location first, not a shape",
    ),
}


@dataclass(frozen=True)
class RunLine:
    """One `ptoas` invocation of a RUN line: its options and whether it must fail."""

    arch: str | None = None
    level: str | None = None
    insert_sync: bool = False
    fails: bool = False

    def options(self) -> str:
        words = [f"--pto-arch={self.arch}" if self.arch else ""]
        words.append(f"--pto-level={self.level}" if self.level else "")
        words.append("--enable-insert-sync" if self.insert_sync else "")
        return " ".join(word for word in words if word) or "default options"


@dataclass
class Outcome:
    path: Path
    name: str
    parsed: bool = False
    round_trip: bool = False
    # Every RUN line passes or fails as PTOAS's does.
    matches: bool = False
    expects_error: bool = False
    expected_error: str = ""
    stage: str = ""
    error: str = ""
    round_trip_error: str = ""

    @property
    def unmarked_reject(self) -> bool:
        return self.name in PTOAS_REJECTS

    def fails_as_ptoas(self) -> bool:
        """An unmarked reject fails at the stage and for the reason PTOAS's does."""
        stage, message, _ = PTOAS_REJECTS[self.name]
        return not self.matches and self.stage == stage and message in self.error


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


def run_lines(text: str) -> list[RunLine]:
    """The `ptoas` RUN lines of a file. A negative test without `RUN: not` (its CHECK
    lines name the error) expects every line to fail."""
    lines = [line for line in re.findall(r"RUN:.*", text) if "ptoas" in line]
    negative = expects_error(text) and not any(line.startswith("RUN: not ") for line in lines)
    return [
        RunLine(
            _option(line, "pto-arch"),
            _option(line, "pto-level"),
            "--enable-insert-sync" in line,
            negative or line.startswith("RUN: not "),
        )
        for line in lines
    ]


def _option(line: str, name: str) -> str | None:
    match = re.search(rf"--{name}[= ](\w+)", line)
    return match.group(1) if match else None


def survey_file(path: Path, name: str) -> Outcome:
    text = path.read_text(encoding="utf-8", errors="replace")
    outcome = Outcome(path, name, expects_error=expects_error(text))
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
            outcome.round_trip_error = first_difference(first, second)
    except UserError as error:
        outcome.round_trip_error = error.format().splitlines()[0]
    runs = run_lines(text)
    try:
        verify_module(module, source_map)
    except UserError as error:
        outcome.matches = all(run.fails for run in runs) if runs else outcome.expects_error
        return _failed(outcome, "verify", error)
    for run in runs or [RunLine(fails=outcome.expects_error)]:
        error = first_ptoas_error(module, run, driver_options=bool(runs))
        if error is None and run.fails:
            outcome.stage = "verify"
            outcome.error = f"accepted with {run.options()}, but PTOAS rejects it"
            return outcome
        if error is not None:
            outcome.stage, outcome.error = "verify", _located(error, source_map)
            if not run.fails:
                return outcome
    outcome.matches = True
    return outcome


def first_ptoas_error(module: ModuleOp, run: RunLine, driver_options: bool) -> OpError | None:
    """The first error PTOAS's checks find for one invocation, after its op verifiers."""
    try:
        if driver_options:
            verify_driver_options(module, run.level or "level2", run.insert_sync)
        verify_target(module, run.arch)
        verify_pipes(module, run.arch)
    except OpError as error:
        return error
    return None


def _located(error: OpError, source_map: SourceMap) -> str:
    return op_error(error.op, error.message, source_map).format().splitlines()[0]


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
    outcomes = [survey_file(path, path.relative_to(root).as_posix()) for path in files]
    for line in report(outcomes, options.failures):
        print(line)
    return 0


def report(outcomes: list[Outcome], limit: int) -> list[str]:
    """The counts, then each file that does not behave as it does under PTOAS."""
    unmarked = [o for o in outcomes if o.unmarked_reject]
    negative = [o for o in outcomes if o.expects_error and not o.unmarked_reject]
    valid = [o for o in outcomes if not o.expects_error and not o.unmarked_reject]
    total, parsed = len(outcomes), [o for o in outcomes if o.parsed]
    lines = [
        f"files:      {total} ({len(valid)} valid, {len(negative)} PTOAS negative tests, "
        f"{len(unmarked)} unmarked files PTOAS rejects)",
        f"parse:      {len(parsed)}/{total} (the {sum(not o.parsed for o in unmarked)} that do "
        "not are unmarked files PTOAS rejects)",
        f"round-trip: {sum(o.round_trip for o in parsed)}/{len(parsed)} files that parse",
        f"verify:     {sum(o.matches for o in valid)}/{len(valid)} valid files verify",
        f"reject:     {sum(o.parsed and o.matches for o in negative)}/{len(negative)} "
        "negative tests fail verification as PTOAS's RUN lines expect",
        f"unmarked:   {sum(o.fails_as_ptoas() for o in unmarked)}/{len(unmarked)} unmarked "
        "files PTOAS rejects fail where and why PTOAS's do",
    ]
    problems = [o for o in outcomes if _unexpected(o)]
    for outcome in problems[:limit]:
        if outcome.round_trip_error:
            lines.append(f"{outcome.name}: round-trip: {outcome.round_trip_error}")
        else:
            lines.append(f"{outcome.name}: {outcome.stage}: {outcome.error}")
    return lines


def _unexpected(outcome: Outcome) -> bool:
    if outcome.unmarked_reject:
        return not outcome.fails_as_ptoas()
    if outcome.parsed and not outcome.round_trip:
        return True
    return not outcome.parsed or not outcome.matches


if __name__ == "__main__":
    sys.exit(main())
