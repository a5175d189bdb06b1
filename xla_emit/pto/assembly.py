"""PTO-AS, the assembly spelling of PTO, turned into MLIR text.

    .arg %src : !pto.tile<16x16xf32>
    .const %c0 = 0 : index
    %dst = ttrans %src : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>;

Instructions are level-1 or level-2 pto ops without the `pto.` prefix (it
may also be written), one per line, with an optional trailing `;`; `.arg`
declares a parameter of the program, `.const` a scalar constant; `#` and `//`
start comments. The program becomes `func.func @main(<args>)` holding the
instructions. Line numbers are kept (each statement stays on its line), so
errors point at the PTO-AS source. Text that already is MLIR (`module`,
`func.func`) is returned unchanged, as PTOAS's `.pto` files are MLIR.
"""

from __future__ import annotations

import re

from xla_emit.diagnostics import SourceLocation, UserError

_MLIR_START = re.compile(r"^\s*(module\b|builtin\.module\b|func\.func\b)", re.MULTILINE)
_ARG = re.compile(r"^\.arg\s+(%[\w.$-]+)\s*:\s*(.+)$")
_CONST = re.compile(r"^\.const\s+(%[\w.$-]+)\s*=\s*(.+?)\s*:\s*(.+)$")
_INSTRUCTION = re.compile(
    r"^((?:%[\w.$-]+(?:\s*,\s*%[\w.$-]+)*)\s*=\s*)?(?:pto\.)?([a-z_][\w.]*)\b(.*)$"
)
ENTRY = "main"


def is_mlir(text: str) -> bool:
    return _MLIR_START.search(text) is not None


def _strip_comment(line: str) -> str:
    cut = len(line)
    for marker in ("//", "#"):
        index = line.find(marker)
        # `#pto.pipe<...>` is an attribute, not a comment.
        while index >= 0 and marker == "#" and line[index + 1 : index + 5] == "pto.":
            index = line.find(marker, index + 1)
        if index >= 0:
            cut = min(cut, index)
    return line[:cut].rstrip()


def pto_as_to_mlir(text: str, file: str = "<stdin>") -> str:
    """The MLIR text of a PTO-AS program (MLIR input is returned as is)."""
    if is_mlir(text):
        return text
    lines = text.split("\n")
    args: list[str] = []
    body: list[str] = []
    header_line: int | None = None
    seen_instruction = False
    for number, raw in enumerate(lines):
        statement = _strip_comment(raw).strip().removesuffix(";").rstrip()
        indent = raw[: len(raw) - len(raw.lstrip())]
        if not statement:
            body.append("")
            continue
        if match := _ARG.match(statement):
            if seen_instruction:
                raise _error(
                    file, text, lines, number, raw, ".arg must come before the instructions"
                )
            args.append(f"{match.group(1)}: {match.group(2)}")
            header_line = number
            body.append("")
        elif match := _CONST.match(statement):
            seen_instruction = True
            body.append(
                f"{indent}{match.group(1)} = arith.constant {match.group(2)} : {match.group(3)}"
            )
        elif match := _INSTRUCTION.match(statement):
            seen_instruction = True
            results, name, rest = match.group(1) or "", match.group(2), match.group(3)
            body.append(f"{indent}{results}pto.{name}{rest}")
        else:
            raise _error(
                file,
                text,
                lines,
                number,
                raw,
                f"expected an instruction, .arg or .const, but got '{statement}'",
            )
    header = f"func.func @{ENTRY}({', '.join(args)}) {{"
    if header_line is None:
        body[0] = f"{header} {body[0]}"
    else:
        body[header_line] = header
    body.append("return }")
    return "\n".join(body)


def _error(
    file: str, text: str, lines: list[str], number: int, raw: str, message: str
) -> UserError:
    offset = sum(len(line) + 1 for line in lines[:number]) + (len(raw) - len(raw.lstrip()))
    return UserError(message, SourceLocation.from_offset(file, text, offset))
