"""docs/walkthrough.md cannot go stale: every `$ xla-emit-...` command it shows is run
again, and the first output line it shows must still be printed.

Commands that need a file under /tmp (made by hand in the walkthrough) are skipped. In a
shown line, `...` stands for elided text; the rest must match one real output line.
"""

import re
import shlex
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WALKTHROUGH = ROOT / "docs" / "walkthrough.md"
FENCED_BLOCK = re.compile(r"^```[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
ELISION = "..."


@dataclass(frozen=True)
class ShownCommand:
    """A command line of the doc and the first output line the doc shows for it."""

    command: str
    first_line: str


def shown_commands(markdown: str) -> list[ShownCommand]:
    """Every `$ xla-emit-...` line in a fenced block that needs nothing under /tmp."""
    commands: list[ShownCommand] = []
    for block in FENCED_BLOCK.findall(markdown):
        lines = block.splitlines()
        for position, line in enumerate(lines):
            if not line.startswith("$ xla-emit-") or "/tmp" in line:
                continue
            following = lines[position + 1] if position + 1 < len(lines) else ""
            commands.append(ShownCommand(line.removeprefix("$ "), following))
    return commands


def shown_line_pattern(shown: str) -> re.Pattern[str]:
    """`shown` with each `...` matching any text, the rest literally."""
    return re.compile(".*".join(re.escape(part) for part in shown.split(ELISION)))


def appears_in(shown: str, output: str) -> bool:
    pattern = shown_line_pattern(shown)
    return any(pattern.fullmatch(line) for line in output.splitlines())


def console_scripts() -> dict[str, str]:
    """Script name -> module, from pyproject.toml, so the test runs what users install."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    scripts: dict[str, str] = project["project"]["scripts"]
    return {name: target.split(":")[0] for name, target in scripts.items()}


def run_shown(command: str) -> subprocess.CompletedProcess[str]:
    tool, *args = shlex.split(command)
    # `python -m` of the script's module: the same code without relying on PATH.
    return subprocess.run(
        [sys.executable, "-m", console_scripts()[tool], *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


WALKTHROUGH_COMMANDS = shown_commands(WALKTHROUGH.read_text())


def test_walkthrough_shows_the_tools_it_teaches() -> None:
    # Guards the extraction itself: a broken parser would otherwise check nothing.
    commands = [shown.command for shown in WALKTHROUGH_COMMANDS]
    assert "xla-emit-opt examples/gelu.hlo" in commands
    assert "xla-emit-opt --print-partitions examples/gelu.hlo" in commands
    assert any(c.startswith("xla-emit-run ") and "--check" in c for c in commands)
    assert len(commands) >= 8
    assert all(shown.first_line.strip() for shown in WALKTHROUGH_COMMANDS)


def test_extraction_skips_tmp_and_pairs_each_command_with_its_next_line() -> None:
    markdown = (
        "text\n```\n$ xla-emit-opt a.hlo\nfirst\nsecond\n$ xla-emit-run /tmp/x.mlir\n"
        "error\n```\n\n    $ xla-emit-opt indented.hlo\n```\n$ xla-emit-layout 'f32[2]'\n```\n"
    )
    assert shown_commands(markdown) == [
        ShownCommand("xla-emit-opt a.hlo", "first"),
        ShownCommand("xla-emit-layout 'f32[2]'", ""),
    ]


@pytest.mark.parametrize(
    ("shown", "output", "expected"),
    [
        ("emitted: ok [... s]", "emitted: ok [0.16 s]\n", True),
        ("emitted: ok [... s]", "emitted: FAILED [0.16 s]\n", False),
        ("  %x = op ...", "  %x = op %a, %b : f32", True),
        ("  %x = op ...", "%x = op %a", False),
        ("a(b)", "a(b)\n", True),
        ("a(b)", "ab\n", False),
    ],
)
def test_shown_line_matching(shown: str, output: str, expected: bool) -> None:
    assert appears_in(shown, output) is expected


@pytest.mark.parametrize(
    "shown", WALKTHROUGH_COMMANDS, ids=[shown.command for shown in WALKTHROUGH_COMMANDS]
)
def test_walkthrough_command_output_is_current(shown: ShownCommand) -> None:
    result = run_shown(shown.command)
    assert result.returncode == 0, result.stderr
    # Some tools print stage reports on stderr and results on stdout: search both.
    output = result.stdout + "\n" + result.stderr
    assert appears_in(shown.first_line, output), (
        f"{shown.command!r} no longer prints {shown.first_line!r}"
    )
