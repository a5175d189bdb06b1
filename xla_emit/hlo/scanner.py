"""The character-level reader under the HLO parser: whitespace, comments, tokens, errors."""

from __future__ import annotations

import re

from xla_emit.diagnostics import SourceLocation, UserError

_NAME = re.compile(r"[A-Za-z_$][\w.\-$]*")
_INT = re.compile(r"[-+]?\d+")


class Scanner:
    """A position in HLO text, with located errors."""

    def __init__(self, text: str, file: str) -> None:
        self.text: str = text
        self.file: str = file
        self.pos: int = 0

    def location(self, offset: int | None = None) -> SourceLocation:
        return SourceLocation.from_offset(
            self.file, self.text, self.pos if offset is None else offset
        )

    def error(self, message: str, offset: int | None = None) -> UserError:
        return UserError(message, self.location(offset))

    def skip_ws(self) -> None:
        text = self.text
        while self.pos < len(text):
            char = text[self.pos]
            if char.isspace():
                self.pos += 1
            elif text.startswith("/*", self.pos):
                end = text.find("*/", self.pos + 2)
                if end < 0:
                    raise self.error("unterminated comment")
                self.pos = end + 2
            elif text.startswith("//", self.pos):
                end = text.find("\n", self.pos)
                self.pos = len(text) if end < 0 else end
            else:
                return

    def at_end(self) -> bool:
        self.skip_ws()
        return self.pos >= len(self.text)

    def peek(self) -> str:
        self.skip_ws()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def try_consume(self, token: str) -> bool:
        self.skip_ws()
        if self.text.startswith(token, self.pos):
            self.pos += len(token)
            return True
        return False

    def expect(self, token: str, context: str) -> None:
        if not self.try_consume(token):
            found = self.describe_next()
            raise self.error(f"expected '{token}' {context}, found {found}")

    def describe_next(self) -> str:
        self.skip_ws()
        if self.pos >= len(self.text):
            return "end of input"
        match = re.compile(r"[\w.\-%$]+|.").match(self.text, self.pos)
        assert match is not None
        return f"'{match.group(0)}'"

    def try_keyword(self, word: str) -> bool:
        self.skip_ws()
        end = self.pos + len(word)
        if self.text.startswith(word, self.pos) and (
            end >= len(self.text) or not (self.text[end].isalnum() or self.text[end] in "_.-")
        ):
            self.pos = end
            return True
        return False

    def match(self, pattern: re.Pattern[str], what: str) -> str:
        self.skip_ws()
        found = pattern.match(self.text, self.pos)
        if found is None:
            raise self.error(f"expected {what}, found {self.describe_next()}")
        self.pos = found.end()
        return found.group(0)

    def parse_name(self, what: str) -> str:
        self.skip_ws()
        if self.text.startswith("%", self.pos):
            self.pos += 1
            if _NAME.match(self.text, self.pos) is None:
                raise self.error(f"expected {what} after '%'")
        return self.match(_NAME, what)

    def parse_int(self, what: str) -> int:
        return int(self.match(_INT, what))

    def parse_int_list(self, open_: str, close: str, what: str) -> tuple[int, ...]:
        self.expect(open_, f"to start {what}")
        values: list[int] = []
        if not self.try_consume(close):
            values.append(self.parse_int(what))
            while self.try_consume(","):
                values.append(self.parse_int(what))
            self.expect(close, f"to end {what}")
        return tuple(values)

    def scan_raw_value(self) -> str:
        """An attribute value as text: balanced brackets and strings, up to `,` or space."""
        self.skip_ws()
        start = self.pos
        text = self.text
        depth = 0
        while self.pos < len(text):
            char = text[self.pos]
            if char == '"':
                self.skip_string()
                continue
            if char in "{[(":
                depth += 1
            elif char in "}])":
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and (char == "," or char.isspace()):
                break
            self.pos += 1
        if depth > 0:
            raise self.error("unbalanced brackets in attribute value", start)
        if self.pos == start:
            raise self.error(f"expected an attribute value, found {self.describe_next()}")
        return text[start : self.pos]

    def skip_string(self) -> None:
        start = self.pos
        self.pos += 1
        while self.pos < len(self.text):
            char = self.text[self.pos]
            if char == "\\":
                self.pos += 2
                continue
            self.pos += 1
            if char == '"':
                return
        raise self.error("unterminated string", start)
