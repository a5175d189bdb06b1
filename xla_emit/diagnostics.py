"""User-facing errors with source locations.

Every error caused by user input (bad syntax, failed verification, a proof
that fails, an out-of-bounds access in a kernel) is raised as `UserError` and
printed by the tools as

    FILE:LINE:COL: error: MESSAGE
    <the source line>
        ^
    FILE:LINE:COL: note: ...

followed by exit status 1. A Python traceback is always a bug in the tool.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class SourceLocation:
    """A 1-based line and column in a named source text."""

    file: str
    line: int
    column: int
    source_line: str | None = None

    @staticmethod
    def from_offset(file: str, text: str, offset: int) -> SourceLocation:
        """The location of character `offset` of `text` (clamped to the text)."""
        offset = max(0, min(offset, len(text)))
        line = text.count("\n", 0, offset) + 1
        line_start = text.rfind("\n", 0, offset) + 1
        line_end = text.find("\n", offset)
        if line_end < 0:
            line_end = len(text)
        return SourceLocation(file, line, offset - line_start + 1, text[line_start:line_end])

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Note:
    """Extra explanation attached to an error, optionally at its own location."""

    message: str
    location: SourceLocation | None = None


@dataclass
class UserError(Exception):
    """An error in the user's input; `format()` gives the text the tools print."""

    message: str
    location: SourceLocation | None = None
    notes: list[Note] = field(default_factory=list[Note])

    def __post_init__(self) -> None:
        super().__init__(self.message)

    def __str__(self) -> str:
        return self.format()

    def format(self) -> str:
        lines = [_headline(self.location, "error", self.message)]
        lines.extend(_source_excerpt(self.location))
        for note in self.notes:
            lines.append(_headline(note.location, "note", note.message))
            # The error already showed this line; repeating it per note only adds noise.
            if note.location != self.location:
                lines.extend(_source_excerpt(note.location))
        return "\n".join(lines)


def _headline(location: SourceLocation | None, kind: str, message: str) -> str:
    if location is None:
        return f"{kind}: {message}"
    return f"{location}: {kind}: {message}"


def _source_excerpt(location: SourceLocation | None) -> list[str]:
    if location is None or location.source_line is None:
        return []
    return [location.source_line, " " * (location.column - 1) + "^"]
