"""MLIR's `--verify-diagnostics`: check produced errors against annotations in the source.

An annotation is a comment naming the kind, the line it refers to and a
substring of the message:

    // expected-error@+1 {{operand count 2 does not match}}
    // expected-note@-2 {{tiling (8, 128) forces}}
    %r = xla.apply_indexing ...   // expected-error {{on this very line}}

`@+N`/`@-N` are relative lines, `@above`/`@below` the neighbouring lines, no
`@` the annotation's own line. Every produced error and note must be
expected, and every annotation must be produced.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xla_emit.diagnostics import UserError

_ANNOTATION = re.compile(
    r"//\s*expected-(?P<kind>error|note|warning|remark)"
    r"\s*(?:@(?P<where>above|below|[+-]\d+))?\s*\{\{(?P<message>.*?)\}\}"
)


@dataclass(frozen=True)
class Expected:
    """One annotation: a diagnostic of `kind` on `line` whose message contains `message`."""

    kind: str
    line: int
    message: str
    annotation_line: int


@dataclass(frozen=True)
class Produced:
    kind: str
    line: int | None
    message: str


def parse_annotations(text: str) -> list[Expected]:
    expected: list[Expected] = []
    for index, line_text in enumerate(text.splitlines()):
        line = index + 1
        for match in _ANNOTATION.finditer(line_text):
            expected.append(
                Expected(match["kind"], _target_line(line, match["where"]), match["message"], line)
            )
    return expected


def _target_line(line: int, where: str | None) -> int:
    if where is None:
        return line
    if where == "above":
        return line - 1
    if where == "below":
        return line + 1
    return line + int(where)


def produced_diagnostics(errors: list[UserError]) -> list[Produced]:
    produced: list[Produced] = []
    for error in errors:
        error_line = error.location.line if error.location else None
        produced.append(Produced("error", error_line, error.message))
        for note in error.notes:
            note_line = note.location.line if note.location else error_line
            produced.append(Produced("note", note_line, note.message))
    return produced


def check_expected_diagnostics(text: str, file: str, errors: list[UserError]) -> list[str]:
    """Problems found, as printable lines; empty when produced and expected agree."""
    unmatched = parse_annotations(text)
    problems: list[str] = []
    for diagnostic in produced_diagnostics(errors):
        match = next(
            (
                e
                for e in unmatched
                if e.kind == diagnostic.kind
                and e.line == diagnostic.line
                and e.message in diagnostic.message
            ),
            None,
        )
        if match is None:
            where = f"{file}:{diagnostic.line}" if diagnostic.line is not None else file
            problems.append(f"{where}: error: unexpected {diagnostic.kind}: {diagnostic.message}")
        else:
            unmatched.remove(match)
    for expected in unmatched:
        problems.append(
            f"{file}:{expected.annotation_line}: error: expected {expected.kind} "
            f'"{expected.message}" was not produced'
        )
    return problems
