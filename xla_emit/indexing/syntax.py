"""Parser for XLA's indexing-map text.

    (d0, d1)[s0]{rt0} -> (d0 + s0, d1 floordiv 4), domain: d0 in [0, 3], d1 in [0, 7],
        s0 in [0, 1], rt0 in [0, 9], d0 mod 2 in [0, 0]

`[range vars]` and `{runtime vars}` are optional; the domain lists every
variable in declaration order, then the constraints. Floor division is spelled
`floordiv`, `floorDiv` or `/`. The Aug-Sep 2024 form ends in
`, is_simplified: true|false`; the flag is accepted and ignored. `KNOWN EMPTY`
is the whole text of a map with an empty domain. Errors carry the character
offset into the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xla_emit.diagnostics import UserError
from xla_emit.indexing.affine import (
    AffineExpr,
    AffineKind,
    ConstantExpr,
    DimExpr,
    SymbolExpr,
    make_binary,
)
from xla_emit.indexing.interval import Interval

KNOWN_EMPTY_TEXT = "KNOWN EMPTY"
# Parsing, simplifying and printing recurse once (or a few times) per level of an
# expression; real maps are a dozen levels deep, and Python's stack holds ~1000 frames.
MAX_EXPRESSION_DEPTH = 100

_MULTIPLICATIVE = {
    "*": AffineKind.MUL,
    "floordiv": AffineKind.FLOORDIV,
    "floorDiv": AffineKind.FLOORDIV,
    "/": AffineKind.FLOORDIV,
    "ceildiv": AffineKind.CEILDIV,
    "mod": AffineKind.MOD,
}
_CALLS = {"min": AffineKind.MIN, "max": AffineKind.MAX}
_KEYWORDS = frozenset({"floordiv", "floorDiv", "ceildiv", "mod", "min", "max", "in"})

_TOKEN_RE = re.compile(
    r"(?P<space>\s+)|(?P<arrow>->)|(?P<int>\d+)|(?P<ident>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<punct>[()\[\]{},:+\-*/])"
)


class IndexingMapSyntaxError(UserError):
    """Malformed indexing-map text; `offset` is the character index of the problem."""

    offset: int

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


@dataclass(frozen=True)
class _Token:
    kind: str  # "int", "ident", "punct" (including "->"), or "eof"
    text: str
    offset: int


@dataclass(frozen=True)
class ParsedVariable:
    name: str
    bounds: Interval


@dataclass(frozen=True)
class ParsedMap:
    """The parts of an indexing map as written, before any normalization."""

    dims: tuple[ParsedVariable, ...]
    range_vars: tuple[ParsedVariable, ...]
    rt_vars: tuple[ParsedVariable, ...]
    results: tuple[AffineExpr, ...]
    constraints: tuple[tuple[AffineExpr, Interval], ...]
    known_empty: bool = False


def parse_map_text(text: str) -> ParsedMap:
    if text.strip() == KNOWN_EMPTY_TEXT:
        return ParsedMap((), (), (), (), (), known_empty=True)
    return _Parser(text).parse_map()


def _tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    position = 0
    while position < len(text):
        match = _TOKEN_RE.match(text, position)
        if match is None:
            raise IndexingMapSyntaxError(f"unexpected character '{text[position]}'", position)
        kind = match.lastgroup
        assert kind is not None
        if kind != "space":
            tokens.append(_Token("punct" if kind == "arrow" else kind, match.group(), position))
        position = match.end()
    tokens.append(_Token("eof", "", len(text)))
    return tokens


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = _tokenize(text)
        self.index = 0
        # Name -> expression for every declared variable (dims, then all symbols).
        self.variables: dict[str, AffineExpr] = {}
        # How many parenthesized or called subexpressions are open at the current token.
        self.open_groups = 0

    # -- token helpers -------------------------------------------------------

    @property
    def token(self) -> _Token:
        return self.tokens[self.index]

    def peek(self) -> _Token:
        """The token after the current one."""
        return self.tokens[min(self.index + 1, len(self.tokens) - 1)]

    def advance(self) -> _Token:
        token = self.token
        if token.kind != "eof":
            self.index += 1
        return token

    def at(self, text: str) -> bool:
        return self.token.kind in ("punct", "ident") and self.token.text == text

    def accept(self, text: str) -> bool:
        if self.at(text):
            self.advance()
            return True
        return False

    def expect(self, text: str, context: str = "") -> _Token:
        if not self.at(text):
            suffix = f" {context}" if context else ""
            raise self.error(f"expected '{text}'{suffix}, but got {self.describe()}")
        return self.advance()

    def describe(self) -> str:
        return "end of input" if self.token.kind == "eof" else f"'{self.token.text}'"

    def error(self, message: str, offset: int | None = None) -> IndexingMapSyntaxError:
        return IndexingMapSyntaxError(message, self.token.offset if offset is None else offset)

    # -- the map ---------------------------------------------------------------

    def parse_map(self) -> ParsedMap:
        dim_names = self.parse_variable_list("(", ")")
        range_names = self.parse_variable_list("[", "]") if self.at("[") else []
        rt_names = self.parse_variable_list("{", "}") if self.at("{") else []
        self.declare(dim_names, range_names + rt_names)
        self.expect("->", "after the variable lists")
        results = self.parse_results()
        names = [name for name, _ in dim_names + range_names + rt_names]
        bounds, constraints = self.parse_domain(names)
        if self.token.kind != "eof":
            raise self.error(f"unexpected {self.describe()} after the indexing map")
        variables = [ParsedVariable(name, bound) for name, bound in zip(names, bounds, strict=True)]
        n_dims, n_range = len(dim_names), len(range_names)
        return ParsedMap(
            dims=tuple(variables[:n_dims]),
            range_vars=tuple(variables[n_dims : n_dims + n_range]),
            rt_vars=tuple(variables[n_dims + n_range :]),
            results=tuple(results),
            constraints=tuple(constraints),
        )

    def parse_variable_list(self, open_: str, close: str) -> list[tuple[str, int]]:
        open_token = self.expect(open_, "to start a variable list")
        names: list[tuple[str, int]] = []
        if self.accept(close):
            return names
        while True:
            token = self.token
            if token.kind != "ident":
                raise self.error(f"expected a variable name, but got {self.describe()}")
            if token.text in _KEYWORDS:
                raise self.error(f"'{token.text}' is a keyword, not a variable name")
            names.append((token.text, token.offset))
            self.advance()
            if self.accept(close):
                return names
            if not self.at(","):
                raise self.error(
                    f"expected ',' or '{close}' to close '{open_}' at offset "
                    f"{open_token.offset}, but got {self.describe()}"
                )
            self.advance()

    def declare(self, dims: list[tuple[str, int]], symbols: list[tuple[str, int]]) -> None:
        for position, (name, offset) in enumerate(dims):
            self.declare_one(name, offset, DimExpr(position))
        for position, (name, offset) in enumerate(symbols):
            self.declare_one(name, offset, SymbolExpr(position))

    def declare_one(self, name: str, offset: int, expr: AffineExpr) -> None:
        if name in self.variables:
            raise self.error(f"variable '{name}' is declared twice", offset)
        self.variables[name] = expr

    def parse_results(self) -> list[AffineExpr]:
        open_token = self.expect("(", "to start the results")
        results: list[AffineExpr] = []
        if self.accept(")"):
            return results
        while True:
            if self.at("domain") and self.peek().text == ":":
                raise self.error(f"expected ')' to close '(' at offset {open_token.offset}")
            results.append(self.parse_expr())
            if self.accept(")"):
                return results
            if not self.at(","):
                raise self.error(
                    f"expected ',' or ')' to close '(' at offset {open_token.offset}, "
                    f"but got {self.describe()}"
                )
            self.advance()

    def parse_domain(
        self, names: list[str]
    ) -> tuple[list[Interval], list[tuple[AffineExpr, Interval]]]:
        bounds: list[Interval] = []
        constraints: list[tuple[AffineExpr, Interval]] = []
        if not self.accept(","):
            if self.token.kind != "eof":
                raise self.error(f"unexpected {self.describe()} after the indexing map")
            if names:
                raise self.error(f"expected ', domain:' giving the range of '{names[0]}'")
            return bounds, constraints
        if self.at_is_simplified():
            self.parse_is_simplified(names)
            return bounds, constraints
        self.expect("domain")
        self.expect(":", "after 'domain'")
        for name in names:
            if bounds:
                self.expect(",", f"before the range of '{name}'")
            if not self.at(name):
                raise self.error(f"expected the range of '{name}', but got {self.describe()}")
            self.advance()
            self.expect("in", f"after '{name}'")
            bounds.append(self.parse_interval())
        needs_comma = bool(names)
        while True:
            if needs_comma and not self.accept(","):
                break
            if not needs_comma and self.token.kind == "eof":
                break
            needs_comma = True
            if self.at_is_simplified():
                self.parse_is_simplified([])
                break
            expr = self.parse_expr()
            self.expect("in", "after a constraint expression")
            constraints.append((expr, self.parse_interval()))
        return bounds, constraints

    def at_is_simplified(self) -> bool:
        return self.at("is_simplified") and self.peek().text == ":"

    def parse_is_simplified(self, missing: list[str]) -> None:
        if missing:
            raise self.error(f"expected the range of '{missing[0]}' before 'is_simplified'")
        self.advance()
        self.advance()
        if not (self.at("true") or self.at("false")):
            raise self.error(f"expected 'true' or 'false', but got {self.describe()}")
        self.advance()

    def parse_interval(self) -> Interval:
        self.expect("[", "to start an interval")
        lower = self.parse_signed_int("lower bound")
        self.expect(",", "between the interval bounds")
        upper = self.parse_signed_int("upper bound")
        self.expect("]", "to close the interval")
        return Interval(lower, upper)

    def parse_signed_int(self, what: str) -> int:
        sign = -1 if self.accept("-") else 1
        if self.token.kind != "int":
            raise self.error(f"expected an integer {what}, but got {self.describe()}")
        return sign * int(self.advance().text)

    # -- expressions -------------------------------------------------------------

    def too_deep(self, offset: int) -> IndexingMapSyntaxError:
        return IndexingMapSyntaxError(
            f"expression nested too deeply (limit {MAX_EXPRESSION_DEPTH} levels)", offset
        )

    def bounded(self, expr: AffineExpr, offset: int) -> AffineExpr:
        """`expr`, unless it is deeper than the limit."""
        if expr.depth > MAX_EXPRESSION_DEPTH:
            raise self.too_deep(offset)
        return expr

    def parse_expr(self) -> AffineExpr:
        """sum := term (('+' | '-') term)*"""
        self.open_groups += 1
        if self.open_groups > MAX_EXPRESSION_DEPTH:
            raise self.too_deep(self.token.offset)
        expr = self.parse_term()
        while self.at("+") or self.at("-"):
            operator = self.advance()
            rhs = self.parse_term()
            expr = self.bounded(expr - rhs if operator.text == "-" else expr + rhs, operator.offset)
        self.open_groups -= 1
        return expr

    def parse_term(self) -> AffineExpr:
        """term := unary (('*' | 'floordiv' | '/' | 'ceildiv' | 'mod') unary)*"""
        expr = self.parse_unary()
        while self.token.kind in ("punct", "ident") and self.token.text in _MULTIPLICATIVE:
            operator = self.advance()
            rhs = self.parse_unary()
            kind = _MULTIPLICATIVE[operator.text]
            if kind != AffineKind.MUL and isinstance(rhs, ConstantExpr) and rhs.value == 0:
                raise self.error(f"'{operator.text}' by zero", operator.offset)
            expr = self.bounded(make_binary(kind, expr, rhs), operator.offset)
        return expr

    def parse_unary(self) -> AffineExpr:
        """Unary minus binds tighter than every binary operator."""
        minus = self.token
        if not self.accept("-"):
            return self.parse_primary()
        self.open_groups += 1
        if self.open_groups > MAX_EXPRESSION_DEPTH:
            raise self.too_deep(minus.offset)
        expr = self.bounded(-self.parse_unary(), minus.offset)
        self.open_groups -= 1
        return expr

    def parse_primary(self) -> AffineExpr:
        token = self.token
        if token.kind == "int":
            self.advance()
            return ConstantExpr(int(token.text))
        if self.at("("):
            self.advance()
            expr = self.parse_expr()
            if not self.at(")"):
                raise self.error(
                    f"expected ')' to close '(' at offset {token.offset}, but got {self.describe()}"
                )
            self.advance()
            return expr
        if token.kind == "ident" and token.text in _CALLS and self.peek().text == "(":
            return self.parse_call(_CALLS[token.text])
        if token.kind == "ident":
            if token.text not in self.variables:
                raise self.error(f"unknown variable '{token.text}'")
            self.advance()
            return self.variables[token.text]
        raise self.error(f"expected an expression, but got {self.describe()}")

    def parse_call(self, kind: AffineKind) -> AffineExpr:
        self.advance()
        open_token = self.advance()
        lhs = self.parse_expr()
        self.expect(",", f"between the arguments of '{kind.name.lower()}'")
        rhs = self.parse_expr()
        if not self.at(")"):
            raise self.error(
                f"expected ')' to close '(' at offset {open_token.offset}, but got "
                f"{self.describe()}"
            )
        self.advance()
        return self.bounded(make_binary(kind, lhs, rhs), open_token.offset)
