"""Affine expressions over dimensions and symbols, as in XLA's indexing maps.

Expressions are immutable and hashable. The Python operators (`+ - *`, unary
`-`) and `floordiv`/`ceildiv`/`mod` fold constants the way MLIR's expression
builders do (constants to the right of `+` and `*`, `x + 0` and `x * 1`
dropped, constant chains merged); constructing `BinaryExpr` directly builds
the node exactly as given.

Division and modulo use floor semantics, which is what Python's and numpy's
integer `//` and `%` compute, so `evaluate` works on Python ints and on numpy
int64 arrays alike (one array entry per lane).
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

IndexValue = int | np.integer | NDArray[np.int64]
"""A value of an expression: a Python int, a numpy integer or an int64 array of lanes."""


class AffineKind(enum.Enum):
    """Binary operators. The declaration order is part of the canonical summand order."""

    ADD = 0
    MUL = 1
    MOD = 2
    FLOORDIV = 3
    CEILDIV = 4
    MIN = 5
    MAX = 6


# Ranks of the leaf kinds, after every binary kind (see `canonical_key`).
_DIM_RANK = 7
_SYMBOL_RANK = 8

_INFIX_SPELLING = {
    AffineKind.MUL: "*",
    AffineKind.MOD: "mod",
    AffineKind.FLOORDIV: "floordiv",
    AffineKind.CEILDIV: "ceildiv",
}


class AffineExpr(ABC):
    """Base class of affine expressions."""

    __slots__ = ()

    def __add__(self, other: AffineExpr | int) -> AffineExpr:
        return make_add(self, as_expr(other))

    def __radd__(self, other: int) -> AffineExpr:
        return make_add(as_expr(other), self)

    def __sub__(self, other: AffineExpr | int) -> AffineExpr:
        return make_add(self, make_mul(as_expr(other), ConstantExpr(-1)))

    def __rsub__(self, other: int) -> AffineExpr:
        return make_add(as_expr(other), make_mul(self, ConstantExpr(-1)))

    def __mul__(self, other: AffineExpr | int) -> AffineExpr:
        return make_mul(self, as_expr(other))

    def __rmul__(self, other: int) -> AffineExpr:
        return make_mul(as_expr(other), self)

    def __neg__(self) -> AffineExpr:
        return make_mul(self, ConstantExpr(-1))

    def floordiv(self, other: AffineExpr | int) -> AffineExpr:
        return make_binary(AffineKind.FLOORDIV, self, as_expr(other))

    def ceildiv(self, other: AffineExpr | int) -> AffineExpr:
        return make_binary(AffineKind.CEILDIV, self, as_expr(other))

    def mod(self, other: AffineExpr | int) -> AffineExpr:
        return make_binary(AffineKind.MOD, self, as_expr(other))

    @abstractmethod
    def evaluate(
        self, dims: Sequence[IndexValue], symbols: Sequence[IndexValue] = ()
    ) -> IndexValue:
        """The value at the given dims and symbols (ints, or int64 arrays of lanes)."""

    @abstractmethod
    def substitute(self, dims: Sequence[AffineExpr], symbols: Sequence[AffineExpr]) -> AffineExpr:
        """Replaces `d<i>` by `dims[i]` and `s<i>` by `symbols[i]`, folding constants."""

    def walk(self) -> Iterator[AffineExpr]:
        """This expression and all its subexpressions, parents before children."""
        yield self

    @property
    def depth(self) -> int:
        """Levels of operators from here to the deepest leaf, plus one (a leaf is 1)."""
        return 1

    def to_str(
        self, dim_names: Sequence[str] | None = None, symbol_names: Sequence[str] | None = None
    ) -> str:
        """XLA's syntax; names default to `d<i>` and `s<i>`."""
        return _format(self, _Names(dim_names or (), symbol_names or ()), strong=False)

    def __str__(self) -> str:
        return self.to_str()


@dataclass(frozen=True, slots=True)
class ConstantExpr(AffineExpr):
    value: int

    def evaluate(
        self, dims: Sequence[IndexValue], symbols: Sequence[IndexValue] = ()
    ) -> IndexValue:
        return self.value

    def substitute(self, dims: Sequence[AffineExpr], symbols: Sequence[AffineExpr]) -> AffineExpr:
        return self


@dataclass(frozen=True, slots=True)
class DimExpr(AffineExpr):
    position: int

    def evaluate(
        self, dims: Sequence[IndexValue], symbols: Sequence[IndexValue] = ()
    ) -> IndexValue:
        return dims[self.position]

    def substitute(self, dims: Sequence[AffineExpr], symbols: Sequence[AffineExpr]) -> AffineExpr:
        return dims[self.position]


@dataclass(frozen=True, slots=True)
class SymbolExpr(AffineExpr):
    position: int

    def evaluate(
        self, dims: Sequence[IndexValue], symbols: Sequence[IndexValue] = ()
    ) -> IndexValue:
        return symbols[self.position]

    def substitute(self, dims: Sequence[AffineExpr], symbols: Sequence[AffineExpr]) -> AffineExpr:
        return symbols[self.position]


@dataclass(frozen=True, slots=True, eq=False)
class BinaryExpr(AffineExpr):
    kind: AffineKind
    lhs: AffineExpr
    rhs: AffineExpr
    # Simplification hashes the same subtrees many times; computing it once keeps that linear.
    _hash: int = field(init=False, repr=False, compare=False)
    # Every walk over an expression recurses once per level: parsers bound this.
    _depth: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.kind, self.lhs, self.rhs)))
        object.__setattr__(self, "_depth", 1 + max(self.lhs.depth, self.rhs.depth))

    @property
    def depth(self) -> int:
        return self._depth

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return (
            isinstance(other, BinaryExpr)
            and self._hash == other._hash
            and self.kind == other.kind
            and self.lhs == other.lhs
            and self.rhs == other.rhs
        )

    def evaluate(
        self, dims: Sequence[IndexValue], symbols: Sequence[IndexValue] = ()
    ) -> IndexValue:
        return apply_kind(
            self.kind, self.lhs.evaluate(dims, symbols), self.rhs.evaluate(dims, symbols)
        )

    def substitute(self, dims: Sequence[AffineExpr], symbols: Sequence[AffineExpr]) -> AffineExpr:
        return make_binary(
            self.kind, self.lhs.substitute(dims, symbols), self.rhs.substitute(dims, symbols)
        )

    def walk(self) -> Iterator[AffineExpr]:
        yield self
        yield from self.lhs.walk()
        yield from self.rhs.walk()


def as_expr(value: AffineExpr | int) -> AffineExpr:
    if isinstance(value, AffineExpr):
        return value
    return ConstantExpr(int(value))


def apply_kind(kind: AffineKind, a: IndexValue, b: IndexValue) -> IndexValue:
    """One operator on values; `//` and `%` on ints and int64 arrays are floor operations."""
    match kind:
        case AffineKind.ADD:
            return a + b
        case AffineKind.MUL:
            return a * b
        case AffineKind.FLOORDIV:
            return a // b
        case AffineKind.CEILDIV:
            return -((-a) // b)
        case AffineKind.MOD:
            return a % b
        case AffineKind.MIN:
            if isinstance(a, int) and isinstance(b, int):
                return min(a, b)
            return np.minimum(a, b)
        case AffineKind.MAX:
            if isinstance(a, int) and isinstance(b, int):
                return max(a, b)
            return np.maximum(a, b)


# ----------------------------------------------------------------------------
# Folding builders


def make_binary(kind: AffineKind, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """`lhs kind rhs` with MLIR-style local folding."""
    match kind:
        case AffineKind.ADD:
            return make_add(lhs, rhs)
        case AffineKind.MUL:
            return make_mul(lhs, rhs)
        case _:
            return _make_other(kind, lhs, rhs)


def make_add(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    if isinstance(lhs, ConstantExpr) and isinstance(rhs, ConstantExpr):
        return ConstantExpr(lhs.value + rhs.value)
    if isinstance(lhs, ConstantExpr):
        lhs, rhs = rhs, lhs
    if isinstance(rhs, ConstantExpr) and rhs.value == 0:
        return lhs
    lhs_offset = _constant_offset(lhs)
    if lhs_offset is not None:
        assert isinstance(lhs, BinaryExpr)
        if isinstance(rhs, ConstantExpr):
            return make_add(lhs.lhs, ConstantExpr(lhs_offset + rhs.value))
        # (x + c) + y -> (x + y) + c: constants gather at the end of a sum.
        return make_add(make_add(lhs.lhs, rhs), ConstantExpr(lhs_offset))
    rhs_offset = _constant_offset(rhs)
    if rhs_offset is not None:
        assert isinstance(rhs, BinaryExpr)
        return make_add(make_add(lhs, rhs.lhs), ConstantExpr(rhs_offset))
    return BinaryExpr(AffineKind.ADD, lhs, rhs)


def make_mul(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    if isinstance(lhs, ConstantExpr) and isinstance(rhs, ConstantExpr):
        return ConstantExpr(lhs.value * rhs.value)
    if isinstance(lhs, ConstantExpr):
        lhs, rhs = rhs, lhs
    if isinstance(rhs, ConstantExpr):
        if rhs.value == 1:
            return lhs
        if rhs.value == 0:
            return rhs
        if (
            isinstance(lhs, BinaryExpr)
            and lhs.kind == AffineKind.MUL
            and isinstance(lhs.rhs, ConstantExpr)
        ):
            return make_mul(lhs.lhs, ConstantExpr(lhs.rhs.value * rhs.value))
    return BinaryExpr(AffineKind.MUL, lhs, rhs)


def _make_other(kind: AffineKind, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    # Division by a constant zero stays symbolic: it has no value to fold to.
    divides_by_zero = rhs == ConstantExpr(0) and kind not in (AffineKind.MIN, AffineKind.MAX)
    if isinstance(lhs, ConstantExpr) and isinstance(rhs, ConstantExpr) and not divides_by_zero:
        value = apply_kind(kind, lhs.value, rhs.value)
        assert isinstance(value, int)
        return ConstantExpr(value)
    if isinstance(rhs, ConstantExpr) and rhs.value == 1:
        if kind in (AffineKind.FLOORDIV, AffineKind.CEILDIV):
            return lhs
        if kind == AffineKind.MOD:
            return ConstantExpr(0)
    return BinaryExpr(kind, lhs, rhs)


def _constant_offset(expr: AffineExpr) -> int | None:
    """`c` if `expr` is `x + c` with a constant `c`."""
    if (
        isinstance(expr, BinaryExpr)
        and expr.kind == AffineKind.ADD
        and isinstance(expr.rhs, ConstantExpr)
    ):
        return expr.rhs.value
    return None


# ----------------------------------------------------------------------------
# Canonical order

CanonicalKey = tuple[object, ...]


def canonical_key(expr: AffineExpr) -> CanonicalKey:
    """Sort key of the canonical summand order.

    Non-constants come before constants; among non-constants the kind decides
    (sums, products, mod, floordiv, ceildiv, min, max, then dims, then
    symbols), then the operands from left to right, dims and symbols by
    position, constants by value. So `(d1 mod 8) * 512 + d0 * 4 + s0`: the
    product whose left side is a `mod` precedes the product of a dim, and the
    bare symbol comes last. This is the order XLA's simplifier prints.
    """
    if isinstance(expr, ConstantExpr):
        return (1, expr.value)
    if isinstance(expr, DimExpr):
        return (0, _DIM_RANK, expr.position)
    if isinstance(expr, SymbolExpr):
        return (0, _SYMBOL_RANK, expr.position)
    assert isinstance(expr, BinaryExpr)
    return (0, expr.kind.value, canonical_key(expr.lhs), canonical_key(expr.rhs))


# ----------------------------------------------------------------------------
# Printing


@dataclass(frozen=True)
class _Names:
    dims: Sequence[str]
    symbols: Sequence[str]

    def dim(self, position: int) -> str:
        if position < len(self.dims) and self.dims[position]:
            return self.dims[position]
        return f"d{position}"

    def symbol(self, position: int) -> str:
        if position < len(self.symbols) and self.symbols[position]:
            return self.symbols[position]
        return f"s{position}"


def _format(expr: AffineExpr, names: _Names, strong: bool) -> str:
    """Prints `expr`; `strong` means the context binds tighter than `+` (wrap sums).

    Like MLIR, operands of `*`, `mod` and the divisions are wrapped whenever
    they are themselves binary expressions: `(d0 floordiv 8) mod 512`.
    """
    if isinstance(expr, ConstantExpr):
        return str(expr.value)
    if isinstance(expr, DimExpr):
        return names.dim(expr.position)
    if isinstance(expr, SymbolExpr):
        return names.symbol(expr.position)
    assert isinstance(expr, BinaryExpr)
    if expr.kind in (AffineKind.MIN, AffineKind.MAX):
        name = "min" if expr.kind == AffineKind.MIN else "max"
        return f"{name}({_format(expr.lhs, names, False)}, {_format(expr.rhs, names, False)})"
    if expr.kind == AffineKind.ADD:
        text = _format_sum(expr, names)
        return f"({text})" if strong else text
    if expr.kind == AffineKind.MUL and _is_constant(expr.rhs, -1):
        # Unary minus binds tighter than every binary operator, so it needs no parentheses.
        return "-" + _format_operand(expr.lhs, names)
    text = (
        f"{_format_operand(expr.lhs, names)} {_INFIX_SPELLING[expr.kind]} "
        f"{_format_operand(expr.rhs, names)}"
    )
    return f"({text})" if strong else text


def _format_operand(expr: AffineExpr, names: _Names) -> str:
    """An operand of `*`, `mod`, `floordiv`, `ceildiv` or unary minus.

    Binary operands are always wrapped, negations included: `(-d0) mod 4`.
    """
    if isinstance(expr, BinaryExpr) and expr.kind not in (AffineKind.MIN, AffineKind.MAX):
        return "(" + _format(expr, names, strong=False) + ")"
    return _format(expr, names, strong=False)


def _format_sum(expr: BinaryExpr, names: _Names) -> str:
    """`a + b`, printing `a + x * -c` as `a - x * c` and `a + -c` as `a - c`."""
    lhs = _format(expr.lhs, names, strong=False)
    rhs = expr.rhs
    if isinstance(rhs, ConstantExpr) and rhs.value < 0:
        return f"{lhs} - {-rhs.value}"
    if (
        isinstance(rhs, BinaryExpr)
        and rhs.kind == AffineKind.MUL
        and isinstance(rhs.rhs, ConstantExpr)
        and rhs.rhs.value < 0
    ):
        if rhs.rhs.value == -1:
            return f"{lhs} - {_format(rhs.lhs, names, strong=_is_sum(rhs.lhs))}"
        return f"{lhs} - {_format_operand(rhs.lhs, names)} * {-rhs.rhs.value}"
    # A sum on the right keeps its parentheses so that the printed text parses back
    # (left-associatively) to the same tree.
    return f"{lhs} + {_format(rhs, names, strong=_is_sum(rhs))}"


def _is_sum(expr: AffineExpr) -> bool:
    return isinstance(expr, BinaryExpr) and expr.kind == AffineKind.ADD


def _is_constant(expr: AffineExpr, value: int) -> bool:
    return isinstance(expr, ConstantExpr) and expr.value == value
