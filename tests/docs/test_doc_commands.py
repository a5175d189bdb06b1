"""The README and docs/*.md cannot go stale: every command they show runs, as pasted.

A command is a `$ ...` line of a fenced block (the lines after it, up to the
next `$` line or the fence, are its output, compared whole with what it
prints on stdout and stderr), a line of an indented block that starts with
one of the tools (no output shown: it must exit 0), or a whole ```python block,
run by a Python of its own (it must exit 0; a block with an elided `...` line is
an excerpt, whose imports `test_pass_authoring_snippets.py` checks). In shown output, `...`
within a line stands for any text, and a line that is only `...` for any
number of lines: that is how a block says it is abbreviated.

The commands of one document run in order in one scratch folder that sees the
repository's folders, so a file one command writes (`-o out.npz`) is there
for the next; every other file a command names must exist in the repository.
Commands that need a checkout beside this one (`../PTOAS`) or that regenerate data the
repository ships (`tools/make_*.py`, with optional extras) are listed, not run.
"""

from __future__ import annotations

import difflib
import importlib.util
import itertools
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TOOLS = ("xla-emit-opt", "xla-emit-run", "xla-emit-layout", "xla-emit-dump", "python ", "cat ")
ELISION = "..."
_HAS_LLVMLITE = importlib.util.find_spec("llvmlite") is not None
# Whole-line elision: any number of lines.
ELIDED_LINES = re.compile(r"^\s*\.\.\.\s*$")
# `cat > FILE <<'EOF'`: the command goes on to the line `EOF`.
HEREDOC = re.compile(r"<<\s*'?(\w+)'?\s*$")
# Ends the here-document a ```python block runs from.
PYTHON_END = "PYTHON_BLOCK"
# Arguments that name files: these extensions, or a path with a folder.
FILE_ARGUMENT = re.compile(r"^[\w./-]+\.(mlir|hlo|npz|txt|py|xz|pto|toml|md)$")


@dataclass
class DocCommand:
    """A command as a document shows it, where, and the output it shows (None: none shown)."""

    document: str
    line: int
    command: str
    output: list[str] | None = None
    reason_not_run: str | None = None


@dataclass
class _Fence:
    start: int
    language: str = ""
    lines: list[str] = field(default_factory=list[str])


def doc_commands(markdown: str, document: str = "doc.md") -> list[DocCommand]:
    """Every command of `markdown`, in order."""
    commands: list[DocCommand] = []
    lines = markdown.splitlines()
    fence: _Fence | None = None
    for number, line in enumerate(lines, start=1):
        if line.startswith("```"):
            if fence is None:
                fence = _Fence(number, line[3:].strip())
            elif fence.language == "python":
                commands.extend(_python_block(fence, document))
                fence = None
            else:
                commands.extend(_fenced_commands(fence, document))
                fence = None
            continue
        if fence is not None:
            fence.lines.append(line)
    commands.extend(_indented_commands(lines, document))
    commands.sort(key=lambda c: c.line)
    for command in commands:
        if "../" in command.command:
            command.reason_not_run = "needs a checkout beside this repository"
        elif "tools/make_" in command.command:
            command.reason_not_run = "rewrites data the repository ships (needs the jax extra)"
        elif re.search(r"--emit=(llvm|ptx)|--engine native", command.command) and not _HAS_LLVMLITE:
            command.reason_not_run = "needs llvmlite (the llvm extra)"
    return commands


def _fenced_commands(fence: _Fence, document: str) -> list[DocCommand]:
    commands: list[DocCommand] = []
    heredoc: str | None = None
    for offset, line in enumerate(fence.lines, start=1):
        if heredoc is not None:
            commands[-1].command += "\n" + line
            heredoc = None if line == heredoc else heredoc
        elif line.startswith("$ "):
            commands.append(DocCommand(document, fence.start + offset, line[2:], []))
            marker = HEREDOC.search(line)
            heredoc = marker.group(1) if marker else None
        elif commands:
            output = commands[-1].output
            assert output is not None
            output.append(line)
    return commands


def _python_block(fence: _Fence, document: str) -> list[DocCommand]:
    """A ```python block as one command that runs it, unless it is an excerpt."""
    if any(ELIDED_LINES.match(line) for line in fence.lines):
        return []
    script = "\n".join(fence.lines)
    return [DocCommand(document, fence.start, f"python - <<'{PYTHON_END}'\n{script}\n{PYTHON_END}")]


def _indented_commands(lines: list[str], document: str) -> list[DocCommand]:
    """Tool lines of indented blocks (`\\` continues a line); `# ...` comments dropped."""
    commands: list[DocCommand] = []
    in_fence = False
    pending: DocCommand | None = None
    for number, line in enumerate(lines, start=1):
        if line.startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence or not line.startswith("    "):
            pending = None
            continue
        text = line.strip()
        if pending is not None:
            pending.command += " " + text.removesuffix("\\").strip()
            pending = pending if text.endswith("\\") else None
            continue
        if not text.startswith(TOOLS) and not (text.startswith("cat ") and "| xla-emit" in text):
            continue
        command = DocCommand(document, number, _without_comment(text).removesuffix("\\").strip())
        commands.append(command)
        pending = command if text.endswith("\\") else None
    return commands


def _without_comment(text: str) -> str:
    """The command before a ` # ` comment (a `#` inside quotes is the command's)."""
    quote: str | None = None
    for position, char in enumerate(text):
        if quote is not None:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and position > 0 and text[position - 1].isspace():
            return text[:position].rstrip()
    return text


def output_matches(shown: list[str], printed: str) -> bool:
    """Whether `printed` is `shown`, line for line, with its `...` elisions."""
    pattern = "".join(
        "(?:.*\n)*?" if ELIDED_LINES.match(line) else _line_pattern(line) + "\n" for line in shown
    )
    actual = printed if printed.endswith("\n") or not printed else printed + "\n"
    return re.fullmatch(pattern, actual) is not None


def _line_pattern(line: str) -> str:
    return ".*?".join(re.escape(part) for part in line.rstrip().split(ELISION))


def named_files(command: str) -> list[str]:
    """The arguments of `command` that name files."""
    try:
        words = shlex.split(command.splitlines()[0], comments=True)
    except ValueError:
        return []
    return [w for w in words if FILE_ARGUMENT.match(w) and not w.startswith("-")]


def written_files(command: str) -> list[str]:
    """What `command` writes: `-o FILE`, `--extract ... -o FILE`, `> FILE`."""
    words = shlex.split(command.splitlines()[0].split("<<")[0], comments=True)
    return [
        after for before, after in itertools.pairwise(words) if before in ("-o", ">", "--output")
    ]


def missing_files(commands: list[DocCommand]) -> list[str]:
    """Files commands name that neither exist in the repository nor an earlier command makes."""
    made: set[str] = set()
    missing: list[str] = []
    for command in commands:
        outputs = written_files(command.command)
        for name in named_files(command.command):
            if name in outputs or name in made or name == "-":
                continue
            if not (ROOT / name).exists():
                missing.append(f"{command.document}:{command.line}: {name}")
        made.update(outputs)
    return missing


# ------------------------------------------------------------------------------ the tests

ALL = {doc.name: doc_commands(doc.read_text(), doc.name) for doc in DOCUMENTS}


def test_extraction_reads_fenced_and_indented_commands() -> None:
    markdown = (
        "text\n```\n$ xla-emit-opt a.hlo\nfirst\n...\n$ xla-emit-run b.mlir\n```\n\n"
        "    xla-emit-opt c.mlir -p cse   # note\n"
        "    xla-emit-dump d.xz \\\n        --extract x -o k.mlir\n"
        "    not a command\n"
        "```\n$ cat > k.mlir <<'EOF'\nfunc\nEOF\n$ xla-emit-opt k.mlir\nout\n```\n"
        "```python\nprint(1)\n```\n```python\nx = f(\n    ...\n)\n```\n"
    )
    commands = doc_commands(markdown)
    assert [(c.line, c.command, c.output) for c in commands] == [
        (3, "xla-emit-opt a.hlo", ["first", "..."]),
        (6, "xla-emit-run b.mlir", []),
        (9, "xla-emit-opt c.mlir -p cse", None),
        (10, "xla-emit-dump d.xz --extract x -o k.mlir", None),
        (14, "cat > k.mlir <<'EOF'\nfunc\nEOF", []),
        (17, "xla-emit-opt k.mlir", ["out"]),
        (20, "python - <<'PYTHON_BLOCK'\nprint(1)\nPYTHON_BLOCK", None),
    ]
    assert missing_files(commands[-3:-1]) == []


def test_a_python_block_runs_and_fails_as_a_command(tmp_path: Path) -> None:
    (passing,) = doc_commands("```python\nimport sys\nprint(sys.argv)\n```\n")
    (failing,) = doc_commands("```python\nraise SystemExit(3)\n```\n")
    assert run_command(passing.command, tmp_path).stdout == "['-']\n"
    assert run_command(failing.command, tmp_path).returncode == 3


@pytest.mark.parametrize(
    ("shown", "printed", "expected"),
    [
        (["a", "b"], "a\nb\n", True),
        (["a", "b"], "a\nb\nc\n", False),  # whole: an extra line is a difference
        (["a"], "a\nb\n", False),
        (["a", "...", "c"], "a\nb\nb2\nc\n", True),
        (["a", "...", "c"], "a\nc\n", True),
        (["t: ok [... s]"], "t: ok [0.13 s]\n", True),
        (["t: ok [... s]"], "t: DIFFERS [0.13 s]\n", False),
        ([], "", True),
        ([], "noise\n", False),
    ],
)
def test_output_is_compared_whole(shown: list[str], printed: str, expected: bool) -> None:
    assert output_matches(shown, printed) is expected


def test_every_document_shows_commands() -> None:
    assert len(ALL["README.md"]) >= 20
    assert len(ALL["walkthrough.md"]) >= 8


def test_every_file_a_command_names_exists() -> None:
    commands = [c for doc in ALL.values() for c in doc if c.reason_not_run is None]
    assert missing_files(commands) == []


def test_files_made_by_an_earlier_command_count() -> None:
    commands = doc_commands("    xla-emit-opt a.hlo -o made.mlir\n    xla-emit-run made.mlir\n")
    assert missing_files(commands) == ["doc.md:1: a.hlo"]


def _scratch(tmp_path: Path) -> Path:
    """A folder that sees the repository's folders and keeps what commands write."""
    for entry in ROOT.iterdir():
        if entry.name not in (".git",):
            (tmp_path / entry.name).symlink_to(entry)
    return tmp_path


def run_command(command: str, folder: Path) -> subprocess.CompletedProcess[str]:
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    env["COLUMNS"] = "100"
    return subprocess.run(
        ["bash", "-c", command],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
        env=env,
        timeout=300,
    )


@pytest.mark.slow
@pytest.mark.parametrize("document", sorted(ALL))
def test_document_commands_print_what_they_show(document: str, tmp_path: Path) -> None:
    folder = _scratch(tmp_path)
    failures: list[str] = []
    for command in ALL[document]:
        if command.reason_not_run is not None:
            continue
        result = run_command(command.command, folder)
        where = f"{document}:{command.line}: $ {command.command}"
        if command.output is None:
            if result.returncode != 0:
                failures.append(f"{where}\n  exit {result.returncode}: {result.stderr[-600:]}")
            continue
        # A terminal shows stderr's reports before the stdout a tool writes at its end.
        printed = [result.stderr + result.stdout, result.stdout + result.stderr]
        if not any(output_matches(command.output, text) for text in printed):
            diff = difflib.unified_diff(
                command.output, printed[0].splitlines(), "shown", "printed", lineterm=""
            )
            failures.append(where + "\n" + "\n".join(list(diff)[:60]))
    assert not failures, "\n\n".join(failures)
