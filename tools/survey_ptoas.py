"""Survey PTOAS's own `.pto` files: does our verdict on each equal PTOAS's?

    PYTHONPATH=. .venv/bin/python tools/survey_ptoas.py PTOAS_CHECKOUT [--failures N]

Every `test/**/*.pto` of the checkout becomes one or more cases: the file itself,
or, where a RUN line splits it, each `split-file` part (`//--- name`, run through
the RUN lines naming `%t/name`) and each `--split-input-file` chunk (`// -----`).
A case is parsed as MLIR, printed, parsed again and printed again (the round trip
holds when both prints agree: a print/parse fixed point), and verified as PTOAS's
driver would verify it for each of its `ptoas` and `pto-test-opt` RUN lines (a
line may continue over several `RUN:` lines ending in `\\`): the op verifiers,
then `pto-verify-driver` for a `ptoas` line's `--pto-level` and
`--enable-insert-sync`, `pto-verify-target` for its `--pto-arch` (else the
module's target), `pto-verify-pipes`, the checks of the VMI passes a `pto-test-opt`
line names (`passes/analysis/vmi_pass_checks.py`) or of its
`--pto-normalize-uncovered-tile-sections` and, for a `ptoas` line, the rules of
its backend options (`passes/analysis/ptoas_backend_checks.py`). A file without RUN
lines (a sample that PTOAS's runop.sh compiles with options of its own) gets all but
the driver's option checks.

A case matches PTOAS when each RUN line fails exactly where PTOAS's does
(`RUN: not ptoas`; a negative test whose CHECK lines name an error, or whose
`expected-error` a `-verify-diagnostics` line checks, expects its lines to fail).
Negative tests are counted apart from valid cases, and so are the files PTOAS
rejects that no RUN line marks (`PTOAS_REJECTS`: stale samples, a file needing a
target other than PTOAS's default): those match when ours fails at the same stage
for the same reason. No case stops the survey: one that makes our code raise is a
`crash` mismatch. Prints the counts, the mismatches grouped by cause (biggest
first) and, per case that does not match, the stage and its first error. Not part
of `make test`: it needs a PTOAS checkout (github.com/hw-native-sys/PTOAS).
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from collections import Counter
from dataclasses import dataclass, replace
from itertools import pairwise
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Attribute
from xdsl.printer import Printer
from xla_emit.dialects.pto import TARGET_ATTR
from xla_emit.passes.analysis.plan_memory_capacity_checks import check_planner_capacity
from xla_emit.passes.analysis.ptoas_backend_checks import DriverOptions, check_backend
from xla_emit.passes.analysis.ptoas_driver_checks import check_driver_flags, option_values
from xla_emit.passes.analysis.ptoas_pipeline_checks import check_pipeline
from xla_emit.passes.analysis.semantic_alias_checks import (
    PLAN_MEMORY_FLAGS,
    check_semantic_no_alias,
)
from xla_emit.passes.analysis.tool_option_checks import option_error
from xla_emit.passes.analysis.uncovered_tile_sections import check_uncovered_tile_sections
from xla_emit.passes.analysis.vmi_pass_checks import VMI_PASS_FLAGS, check_vmi_passes
from xla_emit.passes.diagnostics import OpError
from xla_emit.passes.pto.pto_verify_driver import verify_driver_options
from xla_emit.passes.pto.pto_verify_pipes import verify_pipes
from xla_emit.passes.pto.pto_verify_target import verify_target

from xla_emit.diagnostics import UserError
from xla_emit.ir import SourceMap, make_context, op_error, parse_mlir, verify_module

# Files that no RUN line marks as negative but that PTOAS rejects: three stale
# samples in a syntax it no longer has (test/samples/runop.sh compiles the .pto
# files of Sync and Qwen3Decode* only, not these), one file without a RUN line
# whose front-end pipes need A5 while PTOAS's default target is A3, two VMI kernels
# without RUN lines that leave out a `saturate` PTOAS main's verifiers want, and two
# tilelang_st kernels whose matmul reads mat tiles. Path -> (the stage ours fails at,
# our message, why PTOAS rejects it).
PTOAS_REJECTS = {
    "test/basic/tpush_tpop_dir_both.pto": (
        "verify",
        "requires 'gm_slot_buffer' when lowering to a2/a3",
        "PTOAS's front-end pipe lowering for its default target A3 needs a gm_slot_buffer",
    ),
    "test/samples/MatMul/0.pto": (
        "parse",
        "'[' expected",
        "PTOAS a56b18c has no pto.subview, and PTOAS main's reads `%t[%i, %j] sizes [..]`, "
        "not this sample's older form",
    ),
    "test/samples/MatMul/tmatmulk.pto": (
        "verify",
        "expected 1 sizes and strides for !pto.tensor_view<2xf32>, but got 2 and 2",
        "!pto.tensor_view<2xf32> is a rank-1 view, and PTOAS's make_tensor_view "
        "verifier wants as many sizes and strides as the rank",
    ),
    "test/dsl/issue_518_repro.pto": (
        "verify",
        "'saturate' attribute is required for fp-narrow / int-narrow conversions",
        "PTOAS main's pto.vmi.vcvt verifier wants `saturate` on an integer narrowing "
        "(ui32 -> ui8), which this older repro leaves out",
    ),
    "test/kernel-test/kernels/rope/vmi/rope_bf16.vmi.pto": (
        "verify",
        "'saturate' attribute is required (SAT or NOSAT)",
        "PTOAS main's pto.vmi.truncf verifier wants `saturate` on f32 -> bf16; the kernel "
        "leaves it to the compiler to fill in, which PTOAS's verifier does not",
    ),
    "test/tilelang_st/npu/a5/src/st/testcase/tload_mat/tload_mat.pto": (
        "verify",
        "expects the left operand in 'left', but got 'mat'",
        "its tmatmul multiplies mat tiles, and PTOAS's TMatmulOp verifier wants its operands "
        "in left, right and acc",
    ),
    "test/tilelang_st/npu/a5/src/st/testcase/tstore_acc2gm/tstore_acc2gm.pto": (
        "verify",
        "expects the left operand in 'left', but got 'mat'",
        "its tmatmul multiplies mat tiles, and PTOAS's TMatmulOp verifier wants its operands "
        "in left, right and acc",
    ),
    "test/samples/Subset/Subset.pto": (
        "parse",
        "pto.tile_buf needs a location before its shape",
        "PTOAS's tile_buf parser reads a location first, not a shape",
    ),
}

# The target test/samples/runop.sh compiles a sample for when the file's module does not
# say: A5 for these sample folders and files (PTOAS's `sample_dir_arch` and its
# per-case A5 requirements), A3 (PTOAS's default) for the rest.
A5_SAMPLE_DIRS = ("TquantMx", "TquantMxDn")
A5_SAMPLE_DIR_PREFIXES = ("Qwen", "Deepseek")
A5_SAMPLE_FILES = (
    "movfp_fixpipe_reuse-pto.pto",
    "test_tmov_col_major_16x1_align_a5.pto",
    "test_tmov_row_major_1x16_control_a5.pto",
    "decode_projection_incore_0.pto",
    "rmsnorm_incore_0.pto",
)


def sample_arch(name: str) -> str | None:
    """`--pto-arch` of runop.sh for a sample without RUN lines (None: PTOAS's default)."""
    parts = name.split("/")
    if parts[:2] != ["test", "samples"] or len(parts) < 4:
        return None
    folder = parts[2]
    a5_model = folder.startswith(A5_SAMPLE_DIR_PREFIXES) and folder.endswith("A5")
    if folder in A5_SAMPLE_DIRS or a5_model or parts[-1] in A5_SAMPLE_FILES:
        return "a5"
    return None


# The `pto-test-opt` flag of the pass that infers each kernel function's core.
NORMALIZE_SECTIONS = "--pto-normalize-uncovered-tile-sections"

# The tools of PTOAS whose RUN lines the survey follows.
TOOLS = ("ptoas", "pto-test-opt")


@dataclass(frozen=True)
class RunLine:
    """One `ptoas` or `pto-test-opt` invocation: its input, options and whether it
    must fail."""

    arch: str | None = None
    level: str | None = None
    insert_sync: bool = False
    fails: bool = False
    tool: str = "ptoas"
    # `%s`, or the `split-file` part it names (`%t/part.pto` -> `part.pto`).
    input: str = "%s"
    split_input: bool = False
    verify_diagnostics: bool = False
    # The VMI passes a `pto-test-opt` line runs, in order, whose checks we model.
    passes: tuple[str, ...] = ()
    # The words after the tool's name, for the driver's backend options.
    words: tuple[str, ...] = ()
    # Environment variables the command unsets (`env -u NAME ptoas ...`).
    unset_env: frozenset[str] = frozenset()

    def options(self) -> str:
        words = [f"--pto-arch={self.arch}" if self.arch else ""]
        words.append(f"--pto-level={self.level}" if self.level else "")
        words.append("--enable-insert-sync" if self.insert_sync else "")
        return " ".join(word for word in words if word) or "default options"


@dataclass(frozen=True)
class Case:
    """What PTOAS runs as one input: a file, a split-file part or an input chunk."""

    name: str
    text: str
    runs: tuple[RunLine, ...]
    expects_error: bool
    expected_error: str = ""
    # The file's own name, for PTOAS_REJECTS.
    file: str = ""


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
    file: str = ""
    # The options of the RUN line PTOAS fails on while ours passes.
    accepted_with: str = ""

    @property
    def unmarked_reject(self) -> bool:
        return (self.file or self.name) in PTOAS_REJECTS

    def fails_as_ptoas(self) -> bool:
        """An unmarked reject fails at the stage and for the reason PTOAS's does."""
        stage, message, _ = PTOAS_REJECTS[self.file or self.name]
        return not self.matches and self.stage == stage and message in self.error

    @property
    def agrees(self) -> bool:
        """Our verdict equals PTOAS's, and a file that parses prints back."""
        if self.unmarked_reject:
            return self.fails_as_ptoas()
        if self.parsed and not self.round_trip:
            return False
        return self.matches


def printed(module: object) -> str:
    stream = io.StringIO()
    Printer(stream=stream).print_op(module)  # type: ignore[arg-type]
    return stream.getvalue()


_CHECKS_ERROR = re.compile(r"CHECK(?!-NOT)[\w-]*:.*error:")
_CHECK_LINE = re.compile(r"//\s*CHECK(?!-NOT)[\w-]*:\s*\S")


def expects_error(text: str) -> bool:
    """PTOAS's negative tests: the file is meant to be rejected."""
    return "RUN: not " in text or "expected-error" in text or bool(_CHECKS_ERROR.search(text))


def expected_error(text: str) -> str:
    """The first error a negative test expects, as its CHECK line gives it."""
    match = re.search(
        r"(?:CHECK(?!-NOT)[\w-]*:|expected-error[^{]*\{\{)\s*(.*error.*?)(?:\}\}|$)", text, re.M
    )
    return match.group(1).strip() if match else ""


def run_commands(text: str) -> list[str]:
    """The RUN lines' commands, a command continued with `\\` joined into one."""
    commands: list[str] = []
    pending = ""
    for line in re.findall(r"RUN:(.*)", text):
        line = line.strip()
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        commands.append((pending + line).strip())
        pending = ""
    if pending:
        commands.append(pending.strip())
    return commands


def run_lines(text: str) -> list[RunLine]:
    """The `ptoas`/`pto-test-opt` RUN lines of a file. A negative test without `not`
    (its CHECK lines name the error) expects every line to fail."""
    parsed = [line for line in map(_run_line, run_commands(text)) if line is not None]
    negative = expects_error(text) and not any(line.fails for line in parsed)
    if negative:
        parsed = [_with_fails(line, True) for line in parsed]
    return parsed


def _with_fails(line: RunLine, fails: bool) -> RunLine:
    return replace(line, fails=fails)


def _run_line(command: str) -> RunLine | None:
    """One command of a RUN line, if it runs a PTOAS tool on an input."""
    for segment in re.split(r"\||&&|;|\(|\)", command):
        words = segment.split()
        tools = [i for i, word in enumerate(words) if word in TOOLS]
        if not tools:
            continue
        at = tools[0]
        rest = " ".join(words[at + 1 :])
        source = re.search(r"(?<!\S)(%s|%t/(\S+)|%S/\S+)(?!\S)", rest)
        if source is None:
            return None  # `ptoas --help` and the like read no input
        before = words[:at]
        return RunLine(
            _option(rest, "pto-arch"),
            _option(rest, "pto-level"),
            "--enable-insert-sync" in rest,
            "not" in before or "!" in before,
            words[at],
            source.group(2) or source.group(1),
            "split-input-file" in rest,
            "verify-diagnostics" in rest,
            _pass_flags(rest),
            tuple(rest.split()),
            frozenset(b for a, b in pairwise(before) if a == "-u"),
        )
    return None


def _pass_flags(line: str) -> tuple[str, ...]:
    """A command's flags (`-vmi-to-vpto`), in its order, where it runs a VMI pass."""
    flags = tuple(word.lstrip("-") for word in line.split() if word.startswith("-"))
    return flags if any(flag in VMI_PASS_FLAGS for flag in flags) else ()


def _option(line: str, name: str) -> str | None:
    match = re.search(rf"--{name}[= ](\w+)", line)
    return match.group(1) if match else None


def _invokes_tool(command: str) -> bool:
    return any(word in TOOLS for word in re.split(r"[\s|&;()]+", command))


def split_parts(text: str) -> dict[str, str]:
    """`split-file`'s parts: the text after each `//--- name` line, up to the next.
    Blank lines keep each part's line numbers those of the file."""
    parts: dict[str, str] = {}
    name: str | None = None
    lines = text.splitlines(keepends=True)
    for number, line in enumerate(lines):
        match = re.match(r"//---\s+(\S+)\s*$", line)
        if match:
            name = match.group(1)
            parts[name] = "\n" * (number + 1)
        elif name is not None:
            parts[name] += line
    return parts


def split_chunks(text: str) -> list[str]:
    """`--split-input-file`'s chunks: split at lines that are `// -----`; blank lines
    keep each chunk's line numbers those of the file."""
    chunks = [""]
    for line in text.splitlines(keepends=True):
        if line.strip() == "// -----":
            chunks.append("\n" * (chunks[-1].count("\n") + 1))
        else:
            chunks[-1] += line
    return chunks


def cases_of(name: str, text: str, folder: Path | None = None) -> list[Case]:
    """The inputs PTOAS's RUN lines give its tools for one file: the file, its parts,
    or a file beside it that its RUN lines name (`%S/other.pto`, in `folder`)."""
    runs = run_lines(text)
    commands = run_commands(text)
    if not runs and any(_invokes_tool(command) for command in commands):
        return []  # its RUN lines read no input (`ptoas --help`): nothing is parsed
    if commands and not any(re.search(r"ptoas|pto-test-opt", c) for c in commands):
        return []  # its RUN lines run another program (a unit-test driver), not on it
    beside = [run for run in runs if run.input.startswith("%S/")]
    if beside and folder is not None and len(beside) == len(runs):
        other = beside[0].input.removeprefix("%S/")
        other_text = (folder / other).read_text(encoding="utf-8", errors="replace")
        return _chunked(f"{name}:{other}", other_text, beside, name)
    parted = [run for run in runs if run.input != "%s"]
    if not parted:
        return _chunked(name, text, runs, name)
    parts = split_parts(text)
    cases: list[Case] = []
    for part, part_text in parts.items():
        part_runs = [run for run in parted if run.input == part]
        if part_runs:
            cases += _chunked(f"{name}:{part}", part_text, part_runs, name)
    return cases


def _chunked(name: str, text: str, runs: list[RunLine], file: str) -> list[Case]:
    negative = any(run.fails for run in runs) or (not runs and expects_error(text))
    if not any(run.split_input for run in runs):
        return [Case(name, text, tuple(runs), negative, expected_error(text), file)]
    chunks = split_chunks(text)
    # A chunk says it fails by its own CHECK or expected-error lines; the first chunk
    # also holds the RUN lines, whose `not` speaks for every chunk, not for it alone.
    # Under a `not` line that FileChecks the diagnostics, a chunk's CHECK line is the
    # error that chunk gives.
    checks_errors = any(run.fails and not run.verify_diagnostics for run in runs)
    marked = [
        expects_error(chunk.replace("RUN: not ", "RUN: "))
        or (checks_errors and bool(_CHECK_LINE.search(chunk)))
        for chunk in chunks
    ]
    if checks_errors and len(_CHECKS_ERROR.findall(text)) >= len(chunks):
        # As many error CHECK lines as chunks, wherever they sit (some files gather
        # them at the end): FileCheck reads one error from each chunk, in order.
        marked = [True] * len(chunks)
    cases = []
    for number, chunk in enumerate(chunks, 1):
        # A chunk fails when it says so; a `not` line whose chunks say nothing fails on each.
        fails = marked[number - 1] or (not any(marked) and negative)
        chunk_runs = tuple(_with_fails(run, fails) for run in runs)
        cases.append(
            Case(f"{name}#{number}", chunk, chunk_runs, fails, expected_error(chunk), file)
        )
    return cases


def survey_file(path: Path, name: str) -> list[Outcome]:
    """Every case of one file; a file that cannot be read is one failed case."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
        cases = cases_of(name, text, path.parent)
    except Exception as error:  # noqa: BLE001 - one bad file never stops the survey
        return [Outcome(path, name, stage="crash", error=f"{type(error).__name__}: {error}")]
    return [survey_case_safely(path, case) for case in cases]


def survey_case_safely(path: Path, case: Case) -> Outcome:
    """`survey_case`, with anything our code raises recorded as a `crash`."""
    try:
        return survey_case(path, case)
    except Exception as error:  # noqa: BLE001 - one bad case never stops the survey
        outcome = Outcome(path, case.name, expects_error=case.expects_error, file=case.file)
        outcome.stage = "crash"
        outcome.error = f"{type(error).__name__}: {error}".splitlines()[0]
        return outcome


def survey_case(path: Path, case: Case) -> Outcome:
    outcome = Outcome(path, case.name, expects_error=case.expects_error, file=case.file)
    outcome.expected_error = case.expected_error
    ctx = make_context()
    try:
        module, source_map = parse_mlir(case.text, str(path), ctx)
    except UserError as error:
        outcome.matches = _fails_everywhere(case) and _parse_may_reject(case, error)
        return _failed(outcome, "parse", error)
    outcome.parsed = True
    # The round trip is checked on every case that parses, negative tests included.
    unprintable = False
    try:
        first = printed(module)
    except Exception:  # noqa: BLE001 - xDSL may not print an op its verifier rejects
        unprintable = True
    else:
        _check_round_trip(outcome, first, path, ctx)
    runs = list(case.runs) or [RunLine(arch=sample_arch(case.file), fails=case.expects_error)]
    own_target = module.attributes.get(TARGET_ATTR)
    verified_arch = runs[0].arch
    try:
        set_parser_target(module, own_target, verified_arch)
        verify_module(module, source_map)
    except UserError as error:
        # Ours rejects the case; an invalid op that cannot be printed, or whose print
        # does not read back (a custom form's parser checks what the verifier would),
        # is no print bug.
        unreadable = outcome.round_trip_error.startswith(f"{path} (printed)")
        outcome.round_trip = outcome.round_trip or unprintable or unreadable
        if unreadable:
            outcome.round_trip_error = ""
        outcome.matches = _fails_everywhere(case)
        return _failed(outcome, "verify", error)
    if unprintable:
        outcome.round_trip_error = "a valid module that xDSL cannot print"
    for run in runs:
        error_text = ""
        if run.arch != verified_arch:
            # PTOAS's op verifiers read the `--pto-arch` its parser was given.
            set_parser_target(module, own_target, run.arch)
            verified_arch = run.arch
            try:
                verify_module(module, source_map)
            except UserError as error:
                error_text = error.format().splitlines()[0]
        if not error_text:
            error = first_ptoas_error(module, run, driver_options=bool(case.runs))
            error_text = _located(error, source_map) if error is not None else ""
        if not error_text and run.fails:
            outcome.stage = "verify"
            outcome.error = f"accepted with {run.options()}, but PTOAS rejects it"
            outcome.accepted_with = run.options()
            return outcome
        if error_text:
            outcome.stage, outcome.error = "verify", error_text
            if not run.fails:
                return outcome
    outcome.matches = True
    return outcome


def set_parser_target(module: ModuleOp, own: Attribute | None, arch: str | None) -> None:
    """The target PTOAS's op verifiers see: A5 where the module says so, else the RUN
    line's `--pto-arch`, else the module's own attribute."""
    module_a5 = isinstance(own, StringAttr) and own.data.lower() == "a5"
    if arch and not module_a5:
        module.attributes[TARGET_ATTR] = StringAttr(arch)
    elif own is not None:
        module.attributes[TARGET_ATTR] = own
    else:
        module.attributes.pop(TARGET_ATTR, None)


def _check_round_trip(outcome: Outcome, first: str, path: Path, ctx: object) -> None:
    try:
        again, _ = parse_mlir(first, f"{path} (printed)", ctx)  # type: ignore[arg-type]
        second = printed(again)
        outcome.round_trip = first == second
        if not outcome.round_trip:
            outcome.round_trip_error = first_difference(first, second)
    except UserError as error:
        outcome.round_trip_error = error.format().splitlines()[0]


def _parse_may_reject(case: Case, error: UserError) -> bool:
    """A negative test rejected while it is parsed matches PTOAS unless ours lacks an op,
    or the error PTOAS expects is an op verifier's (PTOAS parsed the op, then) or
    another than ours: each literal part of PTOAS's expected message must be in ours."""
    # PTOAS's message for an op it retired (a CHECK line of any prefix).
    retired = re.search(r"error: unregistered operation '([\w.]+)'", case.text)
    if "is not registered" in error.message:
        # Only where PTOAS too finds no such op (ops it retired).
        return retired is not None
    if retired is not None:
        # An op PTOAS retired that ours still reads (for older files), rejected here on
        # the same op.
        return f"'{retired.group(1)}'" in error.message
    if re.search(r"'[\w.]+' op ", case.expected_error):
        return False
    expected = re.sub(r"^.*?error:\s*", "", case.expected_error)
    literals = [part.strip() for part in re.split(r"\{\{.*?\}\}", expected)]
    return all(part in error.message for part in literals if len(part) >= 4)


def _fails_everywhere(case: Case) -> bool:
    """Whether PTOAS fails on every RUN line of a case ours rejects outright."""
    return all(run.fails for run in case.runs) if case.runs else case.expects_error


def first_ptoas_error(module: ModuleOp, run: RunLine, driver_options: bool) -> OpError | None:
    """The first error PTOAS's checks find for one invocation, after its op verifiers."""
    try:
        bad_option = option_error(run.tool, run.words)
        if bad_option is not None:
            raise OpError(module, bad_option)
        if driver_options and run.tool == "ptoas":
            verify_driver_options(module, run.level or "level2", run.insert_sync)
            options = DriverOptions.from_words(run.words)
            check_backend(module, replace(options, unset_env=run.unset_env))
        verify_target(module, run.arch)
        verify_pipes(module, run.arch)
        if driver_options and run.tool == "ptoas":
            check_driver_flags(module, run.words)
            check_pipeline(module)
            if (run.level or "level2") != "level3":
                impl = option_values(run.words).get("plan-memory-impl", "legacy")
                check_planner_capacity(module, run.arch, impl)
        elif PLAN_MEMORY_FLAGS & set(run.words):
            check_semantic_no_alias(module)
        check_vmi_passes(module, run.passes)
        if run.tool == "pto-test-opt" and NORMALIZE_SECTIONS in run.words:
            check_uncovered_tile_sections(module)
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


def cause(outcome: Outcome) -> str:
    """Why a case does not match, worded so that cases of one cause share it."""
    if outcome.parsed and not outcome.round_trip and outcome.matches:
        return (
            "round-trip: prints differ"
            if "differs" in outcome.round_trip_error
            else ("round-trip: " + _general(outcome.round_trip_error))
        )
    if outcome.accepted_with:
        return "accepted, but PTOAS rejects it"
    if not outcome.error:
        return "rejected as PTOAS's RUN lines expect, but another RUN line disagrees"
    return f"{outcome.stage}: " + _general(outcome.error)


def _general(message: str) -> str:
    """A message without its location, names and numbers."""
    message = re.sub(r"^.*?:\d+:\d+: error: ", "", message)
    message = re.sub(r"^error: ", "", message)
    if " is not registered" in message:
        return "op not registered"
    message = re.sub(r"%[\w#]+", "%v", message)
    message = re.sub(r"\d+", "N", message)
    return message[:90]


def unregistered_ops(outcomes: list[Outcome]) -> Counter[str]:
    """How many mismatching cases stop at each op our dialects lack."""
    found = Counter[str]()
    for outcome in outcomes:
        match = re.search(
            r"Operation (\S+) is not registered|'(\S+)' is not registered", outcome.error
        )
        if match and not outcome.agrees:
            found[match.group(1) or "#" + match.group(2)] += 1
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", help="a PTOAS checkout (its test/ folder is surveyed)")
    parser.add_argument("--failures", type=int, default=1000, help="list at most N failures")
    parser.add_argument(
        "--only", metavar="LIST", help="survey only the files a LIST file names (one a line)"
    )
    options = parser.parse_args(argv)
    root = Path(options.checkout)
    files = sorted((root / "test").rglob("*.pto"))
    if options.only:
        chosen = set(Path(options.only).read_text(encoding="utf-8").split())
        files = [path for path in files if path.relative_to(root).as_posix() in chosen]
    if not files:
        print(f"error: no test/**/*.pto under {root}", file=sys.stderr)
        return 1
    outcomes = [
        outcome
        for path in files
        for outcome in survey_file(path, path.relative_to(root).as_posix())
    ]
    for line in report(outcomes, options.failures, len(files)):
        print(line)
    return 0


def report(outcomes: list[Outcome], limit: int, files: int | None = None) -> list[str]:
    """The counts, the mismatches by cause, then each case that does not behave as it
    does under PTOAS."""
    unmarked = [o for o in outcomes if o.unmarked_reject]
    negative = [o for o in outcomes if o.expects_error and not o.unmarked_reject]
    valid = [o for o in outcomes if not o.expects_error and not o.unmarked_reject]
    total, parsed = len(outcomes), [o for o in outcomes if o.parsed]
    problems = [o for o in outcomes if not o.agrees]
    lines = [
        f"files:      {files if files is not None else total} ({total} cases: "
        f"{len(valid)} valid, {len(negative)} PTOAS negative tests, "
        f"{len(unmarked)} unmarked files PTOAS rejects)",
        f"parse:      {len(parsed)}/{total} (the {sum(not o.parsed for o in unmarked)} that do "
        "not are unmarked files PTOAS rejects)",
        f"round-trip: {sum(o.round_trip for o in parsed)}/{len(parsed)} cases that parse",
        f"verify:     {sum(o.matches for o in valid)}/{len(valid)} valid cases verify",
        f"reject:     {sum(o.matches for o in negative)}/{len(negative)} "
        "negative tests fail as PTOAS's RUN lines expect",
        f"unmarked:   {sum(o.fails_as_ptoas() for o in unmarked)}/{len(unmarked)} unmarked "
        "files PTOAS rejects fail where and why PTOAS's do",
        f"verdict:    {total - len(problems)}/{total} cases as under PTOAS",
    ]
    if problems:
        lines.append("mismatches by cause:")
        for text, count in _biggest_first(Counter(cause(o) for o in problems)):
            lines.append(f"  {count:5}  {text}")
        ops = unregistered_ops(outcomes)
        if ops:
            shown = ", ".join(f"{op} {n}" for op, n in _biggest_first(ops)[:20])
            lines.append(f"ops not registered ({len(ops)}): {shown}")
    for outcome in problems[:limit]:
        if outcome.round_trip_error:
            lines.append(f"{outcome.name}: round-trip: {outcome.round_trip_error}")
        else:
            lines.append(f"{outcome.name}: {outcome.stage}: {outcome.error}")
    return lines


def _biggest_first(counts: Counter[str]) -> list[tuple[str, int]]:
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


if __name__ == "__main__":
    sys.exit(main())
