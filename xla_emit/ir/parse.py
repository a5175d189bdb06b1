"""MLIR parsing that remembers where ops came from, and `--split-input-file` chunks.

`parse_mlir()` turns syntax errors into `UserError`s and keeps a table from
each parsed op to its position, so that a verifier or a pass can later report
`FILE:LINE:COL` for the op it rejects.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Iterable
from dataclasses import dataclass, field

import ml_dtypes
import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    CallSiteLoc,
    DenseIntOrFPElementsAttr,
    Float64Type,
    FloatAttr,
    FusedLoc,
    IndexType,
    IntegerAttr,
    IntegerType,
    LocationAttr,
    ModuleOp,
    NameLoc,
    NoneAttr,
    StringAttr,
    UnknownLoc,
)
from xdsl.ir import Attribute, Operation, Region
from xdsl.irdl import AttrSizedOperandSegments, IRDLOperation
from xdsl.parser import AttrParser, Parser
from xdsl.utils.exceptions import DiagnosticException, ParseError
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from xla_emit.diagnostics import SourceLocation, UserError
from xla_emit.ir.context import make_context
from xla_emit.ir.locations import file_location, is_location, source_position

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
            position = source_position(op.location)
            if position is not None and position.filename.data == self.file:
                return self._at_line_column(position.line.data, position.column.data)
            op = op.parent_op()
        return None

    def own_location(self, op: Operation) -> SourceLocation | None:
        """Where the op's own `loc(...)` points when that is not this text (a Pallas
        kernel's Python line), with the line itself when the file can be read."""
        position = source_position(op.location)
        if position is None or position.filename.data == self.file:
            return None
        file, line = position.filename.data, position.line.data
        return SourceLocation(file, line, position.column.data, _line_of_file(file, line))

    def _at_line_column(self, line: int, column: int) -> SourceLocation:
        lines = self.text.split("\n")
        source_line = lines[line - 1] if 0 < line <= len(lines) else None
        return SourceLocation(self.file, line, column, source_line)


def _line_of_file(file: str, line: int) -> str | None:
    """Line `line` of `file`, if it can be read (as MLIR shows the line a location names)."""
    try:
        with open(file, encoding="utf-8", errors="replace") as source:
            for number, text in enumerate(source, 1):
                if number == line:
                    return text.rstrip("\n")
    except OSError:
        return None
    return None


_FLOAT_BITS = {16: "<e", 32: "<f", 64: "<d"}


def round_to_float_type(value: float, type: AnyFloat) -> float:
    """`value` rounded to nearest-even in `type`, beyond its range to +-inf, as MLIR's
    parser converts a decimal literal (`65536.0 : f16` is inf); xDSL would fail to pack."""
    dtype = _NUMPY_FLOATS.get(type.bitwidth) if type != BFloat16Type() else ml_dtypes.bfloat16
    if dtype is None:
        return value
    with np.errstate(over="ignore"):
        return float(np.asarray(value, np.float64).astype(dtype))


_NUMPY_FLOATS: dict[int, type[np.floating]] = {16: np.float16, 32: np.float32, 64: np.float64}


class _DecimalElement(Parser._TensorLiteralElement):  # pyright: ignore[reportPrivateUsage]
    """A decimal literal in a dense attribute, rounded to a float type as MLIR does."""

    def to_type(self, parser: AttrParser, type: Attribute) -> object:
        if isinstance(type, AnyFloat) and isinstance(self.value, int | float):
            return round_to_float_type(float(self.value), type)
        return super().to_type(parser, type)  # pyright: ignore[reportArgumentType]


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


_LOCATION_ALIAS_DEFINITION = re.compile(r"^(#[A-Za-z_][\w$.-]*)[ \t]*=[ \t]*(loc[ \t]*\()", re.M)


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
        self._source_map = source_map
        # Where each location alias of the text is defined (`#loc3 = loc(...)` at
        # the start of a line), so a use before its definition can be read.
        self._later_aliases = {
            m.group(1): m.start(2) for m in _LOCATION_ALIAS_DEFINITION.finditer(text)
        }
        self._resolving: set[str] = set()
        self._location_ended_at = -1
        self._read_ahead: set[str] = set()
        super().__init__(ctx, text, name)

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        op = super().parse_operation()
        self._require_segment_sizes(op, start)
        self._source_map.offsets[op] = start
        if self._location_ended_at != self.pos:
            # An op written without a location is located where it is written, as
            # mlir-opt does. A real location travels with the op through clones (inlining,
            # unrolling) and into Mosaic-style reports.
            where = SourceLocation.from_offset(self._source_map.file, self._source_map.text, start)
            op.location = file_location(where.file, where.line, where.column)
        return op

    # Locations, as MLIR's LocationParser reads them. xDSL 0.74 lacks ranges,
    # fusion metadata and aliases defined after their use (JAX and
    # `--mlir-print-debuginfo` define most location aliases after the module).

    def parse_optional_region(
        self, arguments: Iterable[Parser.Argument] | None = None
    ) -> Region | None:
        # A function argument written without a location is located at its name.
        for argument in arguments or ():
            if argument.location is None:
                where = SourceLocation.from_offset(
                    self._source_map.file, self._source_map.text, argument.name.start
                )
                argument.location = file_location(where.file, where.line, where.column)
        return super().parse_optional_region(arguments)

    def parse_optional_location(self) -> LocationAttr | None:
        location = super().parse_optional_location()
        if location is not None:
            # An op's own `loc(...)` is the last thing written of it: an op that
            # ends here keeps what was written, `loc(unknown)` included.
            self._location_ended_at = self.pos
        return location

    def _parse_location(self) -> LocationAttr:
        if self._current_token.kind == MLIRTokenKind.HASH_IDENT:
            return self._parse_location_alias()
        if self._current_token.kind == MLIRTokenKind.STRING_LIT:
            return self._parse_name_or_file_location()
        if self.parse_optional_keyword("fused"):
            metadata: Attribute = NoneAttr()
            if self.parse_optional_punctuation("<"):
                metadata = self.parse_attribute()
                self.parse_punctuation(">", " after fused location metadata")
            locations = self.parse_comma_separated_list(self.Delimiter.SQUARE, self._parse_location)
            return FusedLoc(tuple(locations), metadata)
        if self.parse_optional_keyword("callsite"):
            with self.in_parens():
                callee = self._parse_location()
                self.parse_keyword("at", " in a callsite location")
                caller = self._parse_location()
            return CallSiteLoc(callee, caller)
        if self.parse_optional_keyword("unknown"):
            return UnknownLoc()
        self.raise_error("expected location: unknown, a file, a name, callsite, fused or #alias")

    def _parse_name_or_file_location(self) -> LocationAttr:
        name = self.parse_str_literal()
        if self.parse_optional_punctuation(":") is None:
            child: Attribute = NoneAttr()
            if self._current_token.kind == MLIRTokenKind.L_PAREN:
                with self.in_parens():
                    child = self._parse_location()
            return NameLoc(StringAttr(name), child)
        line = self.parse_integer(False, False, " for the line of a file location")
        if self.parse_optional_punctuation(":") is None:
            return file_location(name, line, 0)
        column = self.parse_integer(False, False, " for the column of a file location")
        if self.parse_optional_keyword("to") is None:
            return file_location(name, line, column)
        end_line = None
        if self._current_token.kind == MLIRTokenKind.INTEGER_LIT:
            end_line = self.parse_integer(False, False)
        self.parse_punctuation(":", " after 'to' in a file location range")
        end_column = self.parse_integer(False, False, " for the end column of a range")
        return file_location(name, line, column, end_line if end_line else line, end_column)

    def _parse_location_alias(self) -> LocationAttr:
        token = self._consume_token(MLIRTokenKind.HASH_IDENT)
        name = token.text
        value = self.attribute_aliases.get(name)
        if value is None and name in self._later_aliases:
            value = self._parse_later_alias(name, token.span.start)
        if value is None:
            self.raise_error(f"undefined symbol alias '{name}'", token.span.start, token.span.end)
        if not is_location(value):
            self.raise_error(f"'{name}' is not a location", token.span.start, token.span.end)
        return value  # pyright: ignore[reportReturnType]

    def _parse_later_alias(self, name: str, used_at: int) -> Attribute:
        """Read the definition of `name` further down, then come back."""
        if name in self._resolving:
            self.raise_error(f"location alias '{name}' refers to itself", used_at)
        self._resolving.add(name)
        resume_at = self.pos
        self._resume_from(self._later_aliases[name])
        value = self.parse_attribute()
        self._resume_from(resume_at)
        self._resolving.discard(name)
        self.attribute_aliases[name] = value
        self._read_ahead.add(name)
        return value

    def _parse_alias_def(self) -> None:
        name = self._current_token.text
        if name not in self._read_ahead:
            return super()._parse_alias_def()
        # Read when it was first used: step over the definition.
        self._consume_token()
        self.parse_punctuation("=", "after attribute alias name")
        self.parse_attribute()
        self._read_ahead.discard(name)

    def _parse_tensor_literal_element(self) -> Parser._TensorLiteralElement:  # pyright: ignore[reportPrivateUsage]
        is_hex = self._current_token.text[:2] in ("0x", "0X")
        element = super()._parse_tensor_literal_element()
        if is_hex:
            return _HexElement(element.is_negative, element.value, element.span)
        return _DecimalElement(element.is_negative, element.value, element.span)

    def parse_optional_builtin_int_or_float_attr(self) -> IntegerAttr | FloatAttr | None:
        # Decimal float literals are rounded to their type as MLIR does; the rest is xDSL's.
        start = self._current_token.span.start
        if self._current_token.text[:2] in ("0x", "0X"):
            return super().parse_optional_builtin_int_or_float_attr()
        boolean = self.try_parse_builtin_boolean_attr()
        if boolean is not None:
            return boolean
        value = self.parse_optional_number()
        if value is None:
            return None
        if self._current_token.kind != MLIRTokenKind.COLON:
            if isinstance(value, float):
                return FloatAttr(value, Float64Type())
            return IntegerAttr(value, IntegerType(64))
        type = self._parse_attribute_type()
        if isinstance(type, AnyFloat):
            return FloatAttr(round_to_float_type(float(value), type), type)
        if isinstance(type, IntegerType | IndexType):
            if isinstance(value, float):
                self.raise_error("Floating point value is not valid for integer type.", start)
            return IntegerAttr(value, type)
        self.raise_error("Invalid type given for integer or float attribute.", start)

    def parse_dense_int_or_fp_elements_attr(
        self, type: Attribute | None
    ) -> DenseIntOrFPElementsAttr:
        start = self._current_token.span.start
        try:
            return super().parse_dense_int_or_fp_elements_attr(type)  # pyright: ignore[reportArgumentType]
        except NotImplementedError as error:
            # xDSL packs elements with `struct`: integers wider than 64 bits have no format.
            self.raise_error(
                f"dense elements wider than 64 bits are not supported ({error})", start, self.pos
            )

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
    if module not in source_map.offsets:
        # The module the parser wrapped around top-level ops: mlir-opt locates it at
        # line 0 of the file.
        module.location = file_location(file, 0, 0)
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
