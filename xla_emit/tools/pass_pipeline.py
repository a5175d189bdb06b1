"""MLIR's textual pass pipeline, `builtin.module(cse,func.func(canonicalize{max-iterations=2}))`.

mlir-opt's `--pass-pipeline` anchors every list of passes on an op name
(`builtin.module`, `func.func`, `gpu.module`, or `any`). A list nested under
`func.func` runs on each function on its own, as MLIR's nested pass manager
runs it (`PipelineStep`); other nested lists (`any`, `gpu.module`) run over the
whole module in their place. Pass options stay as written.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from xla_emit.diagnostics import UserError

MODULE = "builtin.module"
FUNCTION = "func.func"


@dataclass(frozen=True)
class PipelineStep:
    """A `-p` list of passes that runs on each op named `anchor` (`builtin.module`: the module)."""

    anchor: str
    passes: str


def read_pass_pipeline(text: str) -> list[PipelineStep]:
    """`text`'s passes in order, consecutive passes of one anchor in one step."""
    anchored = _read(text)
    return [
        PipelineStep(anchor, ",".join(name for _, name in group))
        for anchor, group in itertools.groupby(anchored, key=lambda item: item[0])
    ]


def flatten_pass_pipeline(text: str) -> str:
    """The `-p` list of `text`'s passes in order, anchors dropped (`UserError` if malformed)."""
    return ",".join(name for _, name in _read(text))


def _read(text: str) -> list[tuple[str, str]]:
    """(anchor, pass) for each pass of `text`, in order."""
    reader = _PipelineReader(text)
    reader.skip_spaces()
    anchor = reader.read_name()
    if not reader.at("("):
        raise reader.error(
            f"the pipeline must be anchored on an operation, as in 'builtin.module({anchor})' "
            "(or give a plain list with -p)"
        )
    passes = reader.read_anchored(anchor, MODULE)
    reader.skip_spaces()
    if not reader.done():
        raise reader.error("unexpected text after the pipeline")
    return passes


class _PipelineReader:
    def __init__(self, text: str):
        self.text = text
        self.pos = 0

    def error(self, message: str) -> UserError:
        return UserError(
            f"invalid pass pipeline '{self.text}' at character {self.pos + 1}: {message}"
        )

    def done(self) -> bool:
        return self.pos >= len(self.text)

    def at(self, char: str) -> bool:
        self.skip_spaces()
        return self.text.startswith(char, self.pos)

    def skip_spaces(self) -> None:
        while not self.done() and self.text[self.pos].isspace():
            self.pos += 1

    def read_name(self) -> str:
        self.skip_spaces()
        start = self.pos
        while not self.done() and (self.text[self.pos].isalnum() or self.text[self.pos] in "-_."):
            self.pos += 1
        if start == self.pos:
            raise self.error("expected a pass or operation name")
        return self.text[start : self.pos]

    def read_options(self) -> str:
        """`{...}` as written, braces included (quoted and nested braces kept whole)."""
        start = self.pos
        depth = 0
        quote = None
        while not self.done():
            char = self.text[self.pos]
            self.pos += 1
            if quote is not None:
                quote = None if char == quote else quote
            elif char in "\"'":
                quote = char
            elif char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                if depth == 0:
                    return self.text[start : self.pos]
        raise self.error("unterminated '{' of pass options")

    def read_anchored(self, anchor: str, outer: str) -> list[tuple[str, str]]:
        """`anchor(` element, ... `)`: each pass with the anchor it runs on, in order.

        Only `func.func` narrows what a pass sees; any other anchor keeps `outer`'s.
        """
        if not _is_operation_name(anchor):
            raise self.error(f"'{anchor}' is not an operation name to anchor passes on")
        scope = FUNCTION if anchor == FUNCTION else outer
        self.pos += 1  # the '('
        passes: list[tuple[str, str]] = []
        if self.at(")"):
            self.pos += 1
            return passes
        while True:
            passes.extend(self.read_element(scope))
            if self.at(","):
                self.pos += 1
                continue
            if self.at(")"):
                self.pos += 1
                return passes
            raise self.error(f"expected ',' or ')' in the passes of '{anchor}'")

    def read_element(self, scope: str) -> list[tuple[str, str]]:
        name = self.read_name()
        if self.at("("):
            return self.read_anchored(name, scope)
        if self.at("{"):
            return [(scope, name + self.read_options())]
        return [(scope, name)]


def _is_operation_name(name: str) -> bool:
    """`dialect.op` or `any`, as MLIR's pipeline parser anchors passes."""
    return name == "any" or ("." in name and not name.startswith(".") and not name.endswith("."))
