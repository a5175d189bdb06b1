"""Range analysis and range-aware simplification of affine expressions.

`RangeEvaluator` computes an interval enclosing every value an expression
takes when each variable stays in its bounds. `ExprSimplifier` rewrites an
expression into a simpler one that has the same value at every point of the
domain; the rewrites are those of XLA's `IndexingMap::Simplify`:

- a subexpression whose range is a single value becomes that constant;
- `x mod c` is dropped when `x` does not wrap; summands that are multiples of
  `c` are dropped; a common factor is pulled out (`(4*a) mod 8 -> (a mod 2)*4`);
  a sum is split at a factor `g` of `c` when the rest stays in `[0, g-1]`;
- `x floordiv c`: `(x mod ab) floordiv a -> (x floordiv a) mod b`,
  `(x floordiv a) floordiv b -> x floordiv (ab)`, multiples of `c` are pulled
  out of the sum and summands that cannot change the quotient are dropped
  (`(d0 * 4 + s0) floordiv 4 -> d0` when `s0` is in `[0, 3]`);
- `min`/`max` of ordered ranges pick a side;
- sums are flattened, constants distributed, like terms combined,
  `(x mod c) * k + (x floordiv c) * (c * k) -> x * k` and (beyond XLA)
  `x * k - (x floordiv c) * (c * k) -> (x mod c) * k`, and summands are
  sorted in the canonical order of `affine.canonical_key`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from xla_emit.indexing.affine import (
    AffineExpr,
    AffineKind,
    BinaryExpr,
    ConstantExpr,
    DimExpr,
    SymbolExpr,
    canonical_key,
    make_add,
    make_binary,
    make_mul,
)
from xla_emit.indexing.interval import Interval, ceil_div

# Rounds of bottom-up rewriting before giving up on reaching a fixed point; each
# round only shrinks the expression, so real maps settle in two or three.
_MAX_ROUNDS = 16


class RangeEvaluator:
    """Interval bounds of expressions over boxed variables.

    `constraints` maps an expression to an interval it is known to lie in; a
    subexpression equal to a constrained one gets its range narrowed, which is
    sound on the domain of the map the constraints come from.
    """

    def __init__(
        self,
        dim_bounds: Sequence[Interval],
        symbol_bounds: Sequence[Interval],
        constraints: Mapping[AffineExpr, Interval] | None = None,
    ) -> None:
        self.dim_bounds = dim_bounds
        self.symbol_bounds = symbol_bounds
        self.constraints: Mapping[AffineExpr, Interval] = constraints or {}
        self._cache: dict[AffineExpr, Interval] = {}

    def range(self, expr: AffineExpr) -> Interval:
        cached = self._cache.get(expr)
        if cached is None:
            cached = self._compute(expr)
            known = self.constraints.get(expr)
            if known is not None:
                cached = cached.intersect(known)
            self._cache[expr] = cached
        return cached

    def _compute(self, expr: AffineExpr) -> Interval:
        if isinstance(expr, ConstantExpr):
            return Interval.point(expr.value)
        if isinstance(expr, DimExpr):
            return self.dim_bounds[expr.position]
        if isinstance(expr, SymbolExpr):
            return self.symbol_bounds[expr.position]
        assert isinstance(expr, BinaryExpr)
        lhs, rhs = self.range(expr.lhs), self.range(expr.rhs)
        match expr.kind:
            case AffineKind.ADD:
                return lhs + rhs
            case AffineKind.MUL:
                return lhs * rhs
            case AffineKind.FLOORDIV:
                return lhs.floordiv(rhs)
            case AffineKind.CEILDIV:
                return lhs.ceildiv(rhs)
            case AffineKind.MOD:
                return lhs.mod(rhs)
            case AffineKind.MIN:
                return lhs.min(rhs)
            case AffineKind.MAX:
                return lhs.max(rhs)


# ----------------------------------------------------------------------------
# Sums as linear combinations


@dataclass
class LinearSum:
    """`sum(coefficient * term) + constant`; terms are non-constant, non-sum expressions."""

    terms: dict[AffineExpr, int] = field(default_factory=dict[AffineExpr, int])
    constant: int = 0

    def add(self, other: LinearSum, scale: int = 1) -> None:
        for term, coefficient in other.terms.items():
            self.add_term(term, coefficient * scale)
        self.constant += other.constant * scale

    def add_term(self, term: AffineExpr, coefficient: int) -> None:
        total = self.terms.get(term, 0) + coefficient
        if total == 0:
            self.terms.pop(term, None)
        else:
            self.terms[term] = total

    def scaled_down(self, factor: int) -> LinearSum:
        """Every coefficient and the constant divided by `factor` (which divides them)."""
        return LinearSum(
            {term: c // factor for term, c in self.terms.items()}, self.constant // factor
        )

    def to_expr(self) -> AffineExpr:
        """The sum with summands in canonical order and the constant last."""
        summands = [make_mul(term, ConstantExpr(c)) for term, c in self.terms.items()]
        summands.sort(key=canonical_key)
        result: AffineExpr = ConstantExpr(self.constant)
        if summands:
            result = summands[0]
            for summand in summands[1:]:
                result = BinaryExpr(AffineKind.ADD, result, summand)
            result = make_add(result, ConstantExpr(self.constant))
        return result


def linear_form(expr: AffineExpr) -> LinearSum:
    """Flattens nested sums and products with constants into one linear combination."""
    result = LinearSum()
    if isinstance(expr, ConstantExpr):
        result.constant = expr.value
    elif isinstance(expr, BinaryExpr) and expr.kind == AffineKind.ADD:
        result.add(linear_form(expr.lhs))
        result.add(linear_form(expr.rhs))
    elif isinstance(expr, BinaryExpr) and expr.kind == AffineKind.MUL and _constant(expr.rhs):
        result.add(linear_form(expr.lhs), _value(expr.rhs))
    elif isinstance(expr, BinaryExpr) and expr.kind == AffineKind.MUL and _constant(expr.lhs):
        result.add(linear_form(expr.rhs), _value(expr.lhs))
    else:
        result.terms[expr] = 1
    return result


def _constant(expr: AffineExpr) -> bool:
    return isinstance(expr, ConstantExpr)


def _value(expr: AffineExpr) -> int:
    assert isinstance(expr, ConstantExpr)
    return expr.value


def _positive_constant(expr: AffineExpr) -> int | None:
    if isinstance(expr, ConstantExpr) and expr.value > 0:
        return expr.value
    return None


def _as_floordiv(expr: AffineExpr) -> tuple[AffineExpr, int]:
    """`(x, a*b)` for `(x floordiv a) floordiv b`; `(expr, 1)` if no positive-constant division."""
    if isinstance(expr, BinaryExpr) and expr.kind == AffineKind.FLOORDIV:
        divisor = _positive_constant(expr.rhs)
        if divisor is not None:
            base, inner = _as_floordiv(expr.lhs)
            return base, inner * divisor
    return expr, 1


# ----------------------------------------------------------------------------
# The simplifier


class ExprSimplifier:
    """Rewrites expressions bottom-up until nothing changes (see the module docstring)."""

    def __init__(self, ranges: RangeEvaluator) -> None:
        self.ranges = ranges
        self._memo: dict[AffineExpr, AffineExpr] = {}

    def simplify(self, expr: AffineExpr) -> AffineExpr:
        for _ in range(_MAX_ROUNDS):
            rewritten = self._rewrite(expr)
            if rewritten == expr:
                break
            expr = rewritten
        return expr

    def _rewrite(self, expr: AffineExpr) -> AffineExpr:
        done = self._memo.get(expr)
        if done is None:
            done = self._rewrite_uncached(expr)
            self._memo[expr] = done
        return done

    def _rewrite_uncached(self, expr: AffineExpr) -> AffineExpr:
        value_range = self.ranges.range(expr)
        if value_range.is_point:
            return ConstantExpr(value_range.lower)
        if not isinstance(expr, BinaryExpr):
            return expr
        lhs, rhs = self._rewrite(expr.lhs), self._rewrite(expr.rhs)
        match expr.kind:
            case AffineKind.ADD | AffineKind.MUL:
                return self._rewrite_sum(make_binary(expr.kind, lhs, rhs))
            case AffineKind.MOD:
                return self._rewrite_mod(lhs, rhs)
            case AffineKind.FLOORDIV:
                return self._rewrite_floordiv(lhs, rhs)
            case AffineKind.MIN | AffineKind.MAX:
                return self._rewrite_min_max(expr.kind, lhs, rhs)
            case AffineKind.CEILDIV:
                return make_binary(expr.kind, lhs, rhs)

    # -- sums --------------------------------------------------------------------

    def _rewrite_sum(self, expr: AffineExpr) -> AffineExpr:
        terms = linear_form(expr)
        _merge_mod_and_floordiv_pairs(terms)
        _merge_value_minus_quotient(terms)
        return terms.to_expr()

    # -- mod ---------------------------------------------------------------------

    def _rewrite_mod(self, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
        modulus = _positive_constant(rhs)
        if modulus is None:
            return make_binary(AffineKind.MOD, lhs, rhs)
        lhs_range = self.ranges.range(lhs)
        quotient = lhs_range.lower // modulus
        if lhs_range.upper // modulus == quotient:
            # Nothing wraps: x mod c == x - q*c for the one quotient q.
            return self._rewrite_sum(make_add(lhs, ConstantExpr(-quotient * modulus)))
        if isinstance(lhs, BinaryExpr) and lhs.kind == AffineKind.MOD:
            inner = _positive_constant(lhs.rhs)
            if inner is not None and inner % modulus == 0:
                return self._rewrite_mod(lhs.lhs, rhs)
        terms = linear_form(lhs)
        # Multiples of the modulus never change the result. The constant keeps its sign
        # (`(d0 - 1) mod 2` stays as written) and only loses whole multiples.
        terms = LinearSum(
            {t: c for t, c in terms.terms.items() if c % modulus != 0},
            _remainder_toward_zero(terms.constant, modulus),
        )
        factor = math.gcd(modulus, terms.constant, *terms.terms.values())
        if factor > 1:
            # (g*a) mod (g*b) == (a mod b) * g
            inner_mod = self._rewrite_mod(
                terms.scaled_down(factor).to_expr(), ConstantExpr(modulus // factor)
            )
            return self._rewrite_sum(make_mul(inner_mod, ConstantExpr(factor)))
        split = self._split_at_factor(terms, modulus)
        if split is not None:
            # (g*a + r) mod (g*b) == (a mod b) * g + r when r stays in [0, g-1].
            factor, multiples, rest = split
            inner_mod = self._rewrite_mod(multiples.to_expr(), ConstantExpr(modulus // factor))
            return self._rewrite_sum(make_add(make_mul(inner_mod, ConstantExpr(factor)), rest))
        return BinaryExpr(AffineKind.MOD, terms.to_expr(), rhs)

    def _split_at_factor(
        self, terms: LinearSum, divisor: int
    ) -> tuple[int, LinearSum, AffineExpr] | None:
        """The largest factor g of `divisor` with `terms == g*multiples + rest`, rest in [0, g-1].

        `multiples` is returned already divided by g. Only factors shared with
        some coefficient can leave a non-trivial rest, so only those are tried.
        """
        candidates = sorted(
            {math.gcd(c, divisor) for c in terms.terms.values()} | {divisor}, reverse=True
        )
        for factor in candidates:
            if factor == 1:
                continue
            multiples = LinearSum(
                {t: c // factor for t, c in terms.terms.items() if c % factor == 0},
                terms.constant // factor,
            )
            rest = LinearSum(
                {t: c for t, c in terms.terms.items() if c % factor != 0},
                terms.constant % factor,
            )
            rest_expr = rest.to_expr()
            rest_range = self.ranges.range(rest_expr)
            if rest_range.lower >= 0 and rest_range.upper < factor:
                return factor, multiples, rest_expr
        return None

    # -- floordiv ----------------------------------------------------------------

    def _rewrite_floordiv(self, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
        divisor = _positive_constant(rhs)
        if divisor is None:
            return make_binary(AffineKind.FLOORDIV, lhs, rhs)
        if divisor == 1:
            return lhs
        lhs_range = self.ranges.range(lhs)
        if lhs_range.lower // divisor == lhs_range.upper // divisor:
            return ConstantExpr(lhs_range.lower // divisor)
        if isinstance(lhs, BinaryExpr):
            inner = _positive_constant(lhs.rhs)
            if lhs.kind == AffineKind.FLOORDIV and inner is not None:
                # (x floordiv a) floordiv b == x floordiv (a*b)
                return self._rewrite_floordiv(lhs.lhs, ConstantExpr(inner * divisor))
            if lhs.kind == AffineKind.MOD and inner is not None and inner % divisor == 0:
                # (x mod (a*b)) floordiv a == (x floordiv a) mod b
                quotient = self._rewrite_floordiv(lhs.lhs, rhs)
                return self._rewrite_mod(quotient, ConstantExpr(inner // divisor))
        terms = linear_form(lhs)
        split = self._split_at_factor(terms, divisor)
        if split is not None:
            # (g*a + r) floordiv (g*b) == a floordiv b when r stays in [0, g-1].
            factor, multiples, _ = split
            return self._rewrite_floordiv(multiples.to_expr(), ConstantExpr(divisor // factor))
        pulled = LinearSum(
            {t: c // divisor for t, c in terms.terms.items() if c % divisor == 0},
            terms.constant // divisor,
        )
        if pulled.terms:
            # (c*a + r) floordiv c == a + r floordiv c
            rest = LinearSum(
                {t: c for t, c in terms.terms.items() if c % divisor != 0},
                terms.constant % divisor,
            )
            quotient = self._rewrite_floordiv(rest.to_expr(), rhs)
            return self._rewrite_sum(make_add(pulled.to_expr(), quotient))
        return BinaryExpr(AffineKind.FLOORDIV, lhs, rhs)

    # -- min / max -------------------------------------------------------------

    def _rewrite_min_max(self, kind: AffineKind, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
        lhs_range, rhs_range = self.ranges.range(lhs), self.ranges.range(rhs)
        if lhs_range.upper <= rhs_range.lower:
            return lhs if kind == AffineKind.MIN else rhs
        if rhs_range.upper <= lhs_range.lower:
            return rhs if kind == AffineKind.MIN else lhs
        return make_binary(kind, lhs, rhs)


def _merge_mod_and_floordiv_pairs(terms: LinearSum) -> None:
    """`(x mod c) * k + (x floordiv c) * (c * k)` -> `x * k`, in place, until none is left.

    The quotient may be spelled as nested divisions: `((x floordiv 8) mod 512) * 4096`
    pairs with `(x floordiv 4096) * 2097152`.
    """
    merged = True
    while merged:
        merged = False
        for mod_term, k in terms.terms.items():
            if not (isinstance(mod_term, BinaryExpr) and mod_term.kind == AffineKind.MOD):
                continue
            modulus = _positive_constant(mod_term.rhs)
            if modulus is None:
                continue
            base, inner = _as_floordiv(mod_term.lhs)
            partner = _find_quotient_term(terms, base, inner * modulus, k * modulus)
            if partner is None:
                continue
            del terms.terms[mod_term]
            del terms.terms[partner]
            terms.add(linear_form(mod_term.lhs), k)
            merged = True
            break


def _merge_value_minus_quotient(terms: LinearSum) -> None:
    """`x * k - (x floordiv c) * (c * k)` -> `(x mod c) * k`, in place, until none is left.

    `x` may itself be a sum whose summands appear among the terms; its constant
    part needs no match because the sum's constant absorbs the difference.
    """
    merged = True
    while merged:
        merged = False
        for quotient, m in terms.terms.items():
            if not (isinstance(quotient, BinaryExpr) and quotient.kind == AffineKind.FLOORDIV):
                continue
            divisor = _positive_constant(quotient.rhs)
            if divisor is None or m % divisor != 0:
                continue
            k = -m // divisor
            value = linear_form(quotient.lhs)
            if not value.terms or any(terms.terms.get(t) != c * k for t, c in value.terms.items()):
                continue
            del terms.terms[quotient]
            for t in value.terms:
                del terms.terms[t]
            terms.constant -= value.constant * k
            terms.add_term(BinaryExpr(AffineKind.MOD, quotient.lhs, quotient.rhs), k)
            merged = True
            break


def _remainder_toward_zero(value: int, modulus: int) -> int:
    """The remainder of `value / modulus` with the sign of `value` (like C's `%`)."""
    return value % modulus if value >= 0 else -(-value % modulus)


def _find_quotient_term(
    terms: LinearSum, base: AffineExpr, divisor: int, coefficient: int
) -> AffineExpr | None:
    for term, c in terms.terms.items():
        if c == coefficient and _as_floordiv(term) == (base, divisor):
            return term
    return None


# ----------------------------------------------------------------------------
# Constraints


def normalize_constraint(
    expr: AffineExpr, bounds: Interval, ranges: RangeEvaluator
) -> tuple[AffineExpr, Interval]:
    """Moves constants, common factors, signs and divisions from `expr` into `bounds`.

    `e + c in [a, b]` -> `e in [a-c, b-c]`; `e * c in [a, b]` -> `e in
    [ceil(a/c), floor(b/c)]` (bounds swap for negative c); `e floordiv c in
    [a, b]` -> `e in [a*c, b*c + c-1]`; `e * g + r in [0, b]` -> `e in [0, b
    floordiv g]` when `r` cannot move the sum across a multiple of `g`
    (`_fold_remainder`). `ranges` are the map's variable bounds without its
    constraints. The set of points satisfying the constraint does not change.
    """
    while True:
        terms = linear_form(expr)
        if not terms.terms:
            return terms.to_expr(), bounds
        if terms.constant != 0:
            bounds = Interval(bounds.lower - terms.constant, bounds.upper - terms.constant)
            terms.constant = 0
        factor = math.gcd(*terms.terms.values())
        if all(c < 0 for c in terms.terms.values()):
            factor = -factor
        if factor != 1:
            terms = terms.scaled_down(factor)
            if factor > 0:
                bounds = Interval(ceil_div(bounds.lower, factor), bounds.upper // factor)
            else:
                bounds = Interval(ceil_div(bounds.upper, factor), bounds.lower // factor)
        folded = _fold_remainder(terms, bounds, ranges)
        if folded is not None:
            expr, bounds = folded
            continue
        expr = terms.to_expr()
        if not (isinstance(expr, BinaryExpr) and expr.kind == AffineKind.FLOORDIV):
            return expr, bounds
        divisor = _positive_constant(expr.rhs)
        if divisor is None:
            return expr, bounds
        expr = expr.lhs
        bounds = Interval(bounds.lower * divisor, bounds.upper * divisor + divisor - 1)


def _fold_remainder(
    terms: LinearSum, bounds: Interval, ranges: RangeEvaluator
) -> tuple[AffineExpr, Interval] | None:
    """`a * g + r in [0, b]` -> `a in [0, b floordiv g]`, or None when it does not apply.

    XLA's `SimplifyAddConstraint`: for a constraint whose interval starts at 0,
    `g` is the gcd of the coefficients other than 1, `a` the sum of those
    summands divided by `g` and `r` the summands with coefficient 1. This is how
    concatenate's `(bl_x mod 2) * 128 + th_x in [0, 127]` (th_x in [0, 127])
    becomes `bl_x mod 2 in [0, 0]`.

    XLA rewrites whenever `(b - r) floordiv g` is one value over r's range. The
    points are sure to stay the same only if, further, `r >= 0` and `r <= b mod
    g` (then `a*g + r >= 0` iff `a >= 0` and `a*g + r <= b` iff `a <= b
    floordiv g`), which is XLA's condition when r's range starts at 0, as it
    does in the emitters' maps (concatenate's, the transposes'); for other
    ranges XLA's rewrite can add points (`a*128 + r in [0, 130]`, r in [5, 6],
    admits a = 1 with r = 5), so those are left alone here.
    """
    if bounds.lower != 0 or bounds.upper < 0:
        return None
    scaled = {t: c for t, c in terms.terms.items() if c != 1}
    factor = math.gcd(*scaled.values()) if scaled else 1
    if factor == 1:
        return None
    rest = LinearSum({t: 1 for t, c in terms.terms.items() if c == 1})
    rest_range = ranges.range(rest.to_expr())
    if rest_range.lower < 0 or rest_range.upper > bounds.upper % factor:
        return None
    multiples = LinearSum({t: c // factor for t, c in scaled.items()})
    return multiples.to_expr(), Interval(0, bounds.upper // factor)
