"""MLIR parsing that remembers where ops came from, and `--split-input-file` chunks.

`parse_mlir()` turns syntax errors into `UserError`s and keeps a table from
each parsed op to its position, so that a verifier or a pass can later report
`FILE:LINE:COL` for the op it rejects.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    FileLineColLoc,
    IntAttr,
    ModuleOp,
    StringAttr,
    UnknownLoc,
)
from xdsl.ir import Attribute, Operation
from xdsl.irdl import AttrSizedOperandSegments, IRDLOperation
from xdsl.parser import AttrParser, Parser
from xdsl.utils.exceptions import DiagnosticException, ParseError
from xdsl.utils.mlir_lexer import MLIRLexer

from xla_emit.diagnostics import SourceLocation, UserError
from xla_emit.ir.context import make_context

# xDSL 0.74 lexes string literals with `"(?:[^"...]+|\\...)*"`: a quantified group
# of a quantified class backtracks exponentially on an unterminated string (a
# long indexing map missing its closing quote hangs the parser). Matching one
# character per repetition accepts the same strings in linear time.
MLIRLexer._unescaped_characters_regex = re.compile(  # pyright: ignore[reportPrivateUsage]
    r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"'
)

# xDSL's parser, verifier and printer recurse several Python frames per level
# of brackets and regions; beyond about 140 levels Python's stack runs out.
# Real kernels nest a dozen levels, so deeper text is rejected before parsing.
MAX_NESTING = 64
# Strings, comments, `->`, `<=` and `>=` are matched whole so their brackets do not count.
_NESTING_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"?|//[^\n]*|->|<=|>=|[(\[{<]|[)\]}>]')
_OPENING = frozenset("([{<")
_CLOSING = frozenset(")]}>")


def check_nesting(text: str, file: str) -> None:
    """Brackets outside strings and comments nest at most `MAX_NESTING` levels."""
    depth = 0
    for token in _NESTING_TOKEN.finditer(text):
        bracket = token.group()
        if bracket in _OPENING:
            depth += 1
            if depth > MAX_NESTING:
                raise UserError(
                    f"nested too deeply (limit {MAX_NESTING} levels of brackets and regions)",
                    SourceLocation.from_offset(file, text, token.start()),
                )
        elif bracket in _CLOSING:
            depth = max(depth - 1, 0)


@dataclass
class SourceMap:
    """Where each parsed op starts in its source text."""

    file: str
    text: str
    offsets: dict[Operation, int] = field(default_factory=dict[Operation, int])

    def location_of(self, op: Operation | None) -> SourceLocation | None:
        """The op's location.

        Ops a pass cloned keep the `loc(...)` of their original; ops a pass
        created from nothing report their closest located ancestor.
        """
        while op is not None:
            offset = self.offsets.get(op)
            if offset is not None:
                return SourceLocation.from_offset(self.file, self.text, offset)
            location = op.location
            if isinstance(location, FileLineColLoc) and location.filename.data == self.file:
                return self._at_line_column(location.line.data, location.column.data)
            op = op.parent_op()
        return None

    def _at_line_column(self, line: int, column: int) -> SourceLocation:
        lines = self.text.split("\n")
        source_line = lines[line - 1] if 0 < line <= len(lines) else None
        return SourceLocation(self.file, line, column, source_line)


_FLOAT_BITS = {16: "<e", 32: "<f", 64: "<d"}


class _HexElement(Parser._TensorLiteralElement):  # pyright: ignore[reportPrivateUsage]
    """A hex literal in a dense attribute: for a float type it is the bit pattern.

    MLIR prints `dense<0xFF800000> : vector<2xf32>` for -inf; xDSL 0.74 reads
    the literal as the integer 4286578688 and converts it to a float.
    """

    def to_type(self, parser: AttrParser, type: Attribute) -> object:
        if not isinstance(type, AnyFloat) or not isinstance(self.value, int):
            return super().to_type(parser, type)  # pyright: ignore[reportArgumentType]
        width = type.bitwidth
        if type == BFloat16Type():
            return struct.unpack("<f", (self.value << 16).to_bytes(4, "little"))[0]
        if width not in _FLOAT_BITS or self.value >= 1 << width:
            parser.raise_error(f"hex literal does not fit {type}", at_position=self.span)
        return struct.unpack(_FLOAT_BITS[width], self.value.to_bytes(width // 8, "little"))[0]


class _LocatingParser(Parser):
    """A parser that records the start offset of every operation it builds."""

    def _require_segment_sizes(self, op: Operation, start: int) -> None:
        """A generic-form op whose operands come in sized segments names the sizes, as
        MLIR requires (without them xDSL could not tell its operands apart)."""
        if not isinstance(op, IRDLOperation):
            return
        options = type(op).get_irdl_definition().options
        if any(isinstance(o, AttrSizedOperandSegments) for o in options) and (
            "operandSegmentSizes" not in op.properties
            and "operandSegmentSizes" not in op.attributes
        ):
            self.raise_error(
                f"'{op.name}' op requires attribute 'operandSegmentSizes'", at_position=start
            )

    def __init__(self, ctx: Context, text: str, name: str, source_map: SourceMap):
        super().__init__(ctx, text, name)
        self._source_map = source_map

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        op = super().parse_operation()
        self._require_segment_sizes(op, start)
        self._source_map.offsets[op] = start
        if isinstance(op.location, UnknownLoc):
            # A real location travels with the op through clones (inlining,
            # unrolling) and into Mosaic-style reports.
            where = SourceLocation.from_offset(self._source_map.file, self._source_map.text, start)
            op.location = FileLineColLoc(
                StringAttr(where.file), IntAttr(where.line), IntAttr(where.column)
            )
        return op

    def _parse_tensor_literal_element(self) -> Parser._TensorLiteralElement:  # pyright: ignore[reportPrivateUsage]
        is_hex = self._current_token.text[:2] in ("0x", "0X")
        element = super()._parse_tensor_literal_element()
        if is_hex:
            return _HexElement(element.is_negative, element.value, element.span)
        return element

    def _get_op_by_name(self, name: str) -> type[Operation]:
        # Point an unknown op at its name, not at the token after it.
        if self.ctx.get_optional_op(name, dialect_stack=self._parser_state.dialect_stack):
            return super()._get_op_by_name(name)
        name_start = self._source_map.text.rfind(name, 0, self.pos)
        self.raise_error(
            f"Operation {name} is not registered",
            at_position=name_start if name_start >= 0 else self.pos,
            end_position=name_start + len(name) if name_start >= 0 else self.pos,
        )


def parse_mlir(
    text: str, file: str = "<stdin>", ctx: Context | None = None
) -> tuple[ModuleOp, SourceMap]:
    """Parse MLIR text; syntax errors become `UserError`s with a location."""
    check_nesting(text, file)
    source_map = SourceMap(file, text)
    try:
        # The parser reads its first token while it is built: that can fail too.
        parser = _LocatingParser(ctx or make_context(), text, file, source_map)
    except ParseError as error:
        raise UserError(
            error.msg, SourceLocation.from_offset(file, text, error.span.start)
        ) from None
    try:
        module = parser.parse_module()
    except ParseError as error:
        offset = error.span.start if error.span.input.content == text else parser.pos
        raise UserError(error.msg, SourceLocation.from_offset(file, text, offset)) from None
    except DiagnosticException as error:
        # Attributes and types verify themselves while they are built.
        raise UserError(str(error), SourceLocation.from_offset(file, text, parser.pos)) from None
    return module, source_map


SPLIT_MARKER = "// -----"


def split_chunks(text: str) -> list[str]:
    """Split at `// -----`; blank lines pad each chunk so line numbers stay file-relative."""
    chunks: list[str] = []
    lines_before = 0
    for chunk in text.split(SPLIT_MARKER):
        chunks.append("\n" * lines_before + chunk)
        lines_before += chunk.count("\n")
    return chunks
