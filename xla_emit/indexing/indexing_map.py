"""XLA's indexing maps: an affine map plus a domain for every variable and constraints.

    (d0, d1)[s0]{rt0} -> (d0 + s0, d1), domain: d0 in [0, 3], d1 in [0, 7], s0 in [0, 1],
        rt0 in [0, 9], d0 + s0 in [1, 10]

The map has dimension variables (`d<i>`), range variables (`s<i>`, the
symbols a loop iterates over) and runtime variables (`rt<i>`, values only
known at run time). In expressions range and runtime variables are both
symbols: `SymbolExpr(i)` is range variable `i` for `i < len(range_vars)`, then
the runtime variables follow. A point is in the domain when every variable
lies in its bounds and every constraint expression lies in its interval.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from math import lcm, prod

import numpy as np
from numpy.typing import NDArray

from xla_emit.indexing.affine import (
    AffineExpr,
    AffineKind,
    BinaryExpr,
    ConstantExpr,
    DimExpr,
    IndexValue,
    SymbolExpr,
)
from xla_emit.indexing.interval import Interval, ceil_div
from xla_emit.indexing.simplify import (
    ExprSimplifier,
    RangeEvaluator,
    linear_form,
    normalize_constraint,
)
from xla_emit.indexing.syntax import (
    KNOWN_EMPTY_TEXT,
    IndexingMapSyntaxError,
    ParsedVariable,
    parse_map_text,
)

__all__ = [
    "IndexingMap",
    "IndexingMapSyntaxError",
    "Variable",
    "compose_indexing_maps",
    "delinearize_map",
    "identity_map",
    "linearize_map",
    "parse_indexing_map",
]

# Constraint simplification converges in a few rounds; this only bounds pathological input.
_MAX_CONSTRAINT_ROUNDS = 8
# Two `x mod a` and `x mod b` constraints merge into one `x mod lcm(a, b)` only while the
# residues of the combined modulus are cheap to enumerate.
_MAX_MERGED_MODULUS = 1 << 16

Constraint = tuple[AffineExpr, Interval]


@dataclass(frozen=True)
class Variable:
    """A map variable: its inclusive bounds and its name (empty for the default name)."""

    bounds: Interval
    name: str = ""


@dataclass(frozen=True)
class IndexingMap:
    dim_vars: tuple[Variable, ...]
    range_vars: tuple[Variable, ...]
    rt_vars: tuple[Variable, ...]
    results: tuple[AffineExpr, ...]
    constraints: tuple[Constraint, ...] = ()
    is_known_empty: bool = False

    # -- shape -------------------------------------------------------------------

    @property
    def num_dims(self) -> int:
        return len(self.dim_vars)

    @property
    def num_symbols(self) -> int:
        """Range variables plus runtime variables."""
        return len(self.range_vars) + len(self.rt_vars)

    @property
    def symbol_vars(self) -> tuple[Variable, ...]:
        return self.range_vars + self.rt_vars

    @property
    def dim_names(self) -> tuple[str, ...]:
        return tuple(v.name or f"d{i}" for i, v in enumerate(self.dim_vars))

    @property
    def symbol_names(self) -> tuple[str, ...]:
        range_names = tuple(v.name or f"s{i}" for i, v in enumerate(self.range_vars))
        rt_names = tuple(v.name or f"rt{i}" for i, v in enumerate(self.rt_vars))
        return range_names + rt_names

    # -- evaluation --------------------------------------------------------------

    def evaluate(
        self, dims: Sequence[IndexValue], symbols: Sequence[IndexValue] = ()
    ) -> tuple[IndexValue, ...]:
        """The results at a point (ints) or at many points at once (int64 arrays)."""
        self._check_arity(dims, symbols)
        return tuple(result.evaluate(dims, symbols) for result in self.results)

    def is_in_domain(
        self, dims: Sequence[IndexValue], symbols: Sequence[IndexValue] = ()
    ) -> bool | NDArray[np.bool_]:
        """Whether the point lies in every variable's bounds and satisfies every constraint."""
        self._check_arity(dims, symbols)
        if self.is_known_empty:
            return _all_false_like(dims, symbols)
        inside: bool | NDArray[np.bool_] = True
        checks = [(var.bounds, value) for var, value in zip(self.dim_vars, dims, strict=True)]
        checks += [
            (var.bounds, value) for var, value in zip(self.symbol_vars, symbols, strict=True)
        ]
        checks += [(bounds, expr.evaluate(dims, symbols)) for expr, bounds in self.constraints]
        for bounds, value in checks:
            inside = inside & _contains(bounds, value)
        return inside

    def _check_arity(self, dims: Sequence[IndexValue], symbols: Sequence[IndexValue]) -> None:
        if len(dims) != self.num_dims or len(symbols) != self.num_symbols:
            raise ValueError(
                f"expected {self.num_dims} dims and {self.num_symbols} symbols, but got "
                f"{len(dims)} and {len(symbols)}"
            )

    # -- ranges and constraints ---------------------------------------------------

    def range_evaluator(self, use_constraints: bool = True) -> RangeEvaluator:
        constraints = dict(self.constraints) if use_constraints else None
        return RangeEvaluator(
            [v.bounds for v in self.dim_vars], [v.bounds for v in self.symbol_vars], constraints
        )

    def expression_range(self, expr: AffineExpr) -> Interval:
        """An interval holding `expr` at every point of the domain."""
        return self.range_evaluator().range(expr)

    def with_constraint(self, expr: AffineExpr, bounds: Interval) -> IndexingMap:
        """The map restricted to `expr in bounds`.

        A constraint on a bare variable tightens its bounds; a constant outside
        `bounds` or an empty variable range makes the map known-empty; a second
        constraint on the same expression intersects with the first.
        """
        if self.is_known_empty:
            return self
        if isinstance(expr, ConstantExpr):
            return self if bounds.contains(expr.value) else self.as_known_empty()
        if isinstance(expr, (DimExpr, SymbolExpr)):
            return self._with_variable_bounds(expr, bounds)
        constraints = dict(self.constraints)
        constraints[expr] = constraints.get(expr, bounds).intersect(bounds)
        if constraints[expr].is_empty:
            return self.as_known_empty()
        return replace(self, constraints=tuple(constraints.items()))

    def _with_variable_bounds(self, var: DimExpr | SymbolExpr, bounds: Interval) -> IndexingMap:
        variables = list(self.dim_vars if isinstance(var, DimExpr) else self.symbol_vars)
        old = variables[var.position]
        variables[var.position] = Variable(old.bounds.intersect(bounds), old.name)
        if variables[var.position].bounds.is_empty:
            return self.as_known_empty()
        if isinstance(var, DimExpr):
            return replace(self, dim_vars=tuple(variables))
        n_range = len(self.range_vars)
        return replace(
            self, range_vars=tuple(variables[:n_range]), rt_vars=tuple(variables[n_range:])
        )

    def as_known_empty(self) -> IndexingMap:
        """The same variables and results, marked as having no point in the domain."""
        return replace(self, constraints=(), is_known_empty=True)

    # -- simplification ----------------------------------------------------------

    def simplify(self) -> IndexingMap:
        """An equivalent map: same domain, same values at every point of it, simpler text.

        Constraints that always hold are removed, constraints on bare variables
        become bounds, infeasible ones make the map known-empty; then every
        result is rewritten with the range rules of `simplify.ExprSimplifier`.
        """
        simplified = self._simplify_constraints()
        if simplified.is_known_empty:
            return simplified
        simplifier = ExprSimplifier(simplified.range_evaluator())
        results = tuple(simplifier.simplify(result) for result in simplified.results)
        return replace(simplified, results=results)

    def _simplify_constraints(self) -> IndexingMap:
        current = self
        for _ in range(_MAX_CONSTRAINT_ROUNDS):
            if current.is_known_empty:
                return current
            if any(v.bounds.is_empty for v in current.dim_vars + current.symbol_vars):
                return current.as_known_empty()
            updated = current._simplify_constraints_once()
            if updated == current:
                break
            current = updated
        return current

    def _simplify_constraints_once(self) -> IndexingMap:
        # Ranges here must ignore the constraints themselves, or every constraint would
        # look as if it always held.
        ranges = self.range_evaluator(use_constraints=False)
        simplifier = ExprSimplifier(ranges)
        result = replace(self, constraints=())
        for expr, bounds in self.constraints:
            expr, bounds = normalize_constraint(simplifier.simplify(expr), bounds, ranges)
            expr_range = ranges.range(expr)
            if bounds.contains_interval(expr_range):
                continue
            if bounds.intersect(expr_range).is_empty:
                return result.as_known_empty()
            result = result.with_constraint(expr, bounds)
            if result.is_known_empty:
                return result
        for expr, bounds in result.constraints:
            result = _tighten_by_linear_constraint(result, expr, bounds)
        return _apply_mod_constraints(result)

    # -- printing ----------------------------------------------------------------

    def __str__(self) -> str:
        if self.is_known_empty:
            return KNOWN_EMPTY_TEXT
        return self.full_text()

    def full_text(self) -> str:
        """The text with variables and results even when the map is known empty (an
        infeasible `0 in [1, 0]` says so): what an attribute prints, so that its op's
        operand counts still match when the text is parsed back. `KNOWN EMPTY`, XLA's
        text for such maps, keeps no variables."""
        dims, symbols = self.dim_names, self.symbol_names
        n_range = len(self.range_vars)
        text = "(" + ", ".join(dims) + ")"
        if self.range_vars:
            text += "[" + ", ".join(symbols[:n_range]) + "]"
        if self.rt_vars:
            text += "{" + ", ".join(symbols[n_range:]) + "}"
        text += " -> (" + ", ".join(r.to_str(dims, symbols) for r in self.results) + ")"
        domain = [
            f"{name} in {var.bounds}"
            for name, var in zip(dims + symbols, self.dim_vars + self.symbol_vars, strict=True)
        ]
        domain += sorted(f"{e.to_str(dims, symbols)} in {b}" for e, b in self.constraints)
        variables = self.dim_vars + self.symbol_vars
        if self.is_known_empty and not any(v.bounds.is_empty for v in variables):
            domain.append(f"0 in {Interval(1, 0)}")
        if domain:
            text += ", domain: " + ", ".join(domain)
        return text


# ----------------------------------------------------------------------------
# Bounds implied by constraints


def _tighten_by_linear_constraint(
    indexing_map: IndexingMap, expr: AffineExpr, bounds: Interval
) -> IndexingMap:
    """Narrows variable bounds implied by `sum(k_i * v_i) in bounds` over bare variables.

    Each `k_j * v_j` must lie in `bounds` minus the range of the other summands.
    """
    terms = linear_form(expr)
    if not all(isinstance(term, (DimExpr, SymbolExpr)) for term in terms.terms):
        return indexing_map
    for var, coefficient in terms.terms.items():
        assert isinstance(var, (DimExpr, SymbolExpr))
        ranges = indexing_map.range_evaluator(use_constraints=False)
        rest = Interval.point(terms.constant)
        for other, other_coefficient in terms.terms.items():
            if other != var:
                rest = rest + ranges.range(other) * Interval.point(other_coefficient)
        lower, upper = bounds.lower - rest.upper, bounds.upper - rest.lower
        if coefficient < 0:
            lower, upper = upper, lower
        implied = Interval(ceil_div(lower, coefficient), upper // coefficient)
        indexing_map = indexing_map.with_constraint(var, implied)
    return indexing_map


# ----------------------------------------------------------------------------
# Mod constraints


def _apply_mod_constraints(indexing_map: IndexingMap) -> IndexingMap:
    """Merges `x mod a in [r, r]` with `x mod b in [q, q]`; tightens bare-variable bounds.

    Two point constraints on the same `x` become one constraint modulo
    lcm(a, b), or show that the domain is empty; a constraint `v mod c in
    [a, b]` on a variable `v` moves v's bounds to the nearest values that
    satisfy it.
    """
    residues: dict[AffineExpr, tuple[int, int]] = {}
    others: list[Constraint] = []
    for expr, bounds in indexing_map.constraints:
        parts = _point_mod_constraint(expr, bounds)
        if parts is None:
            others.append((expr, bounds))
            continue
        base, modulus, residue = parts
        if base not in residues:
            residues[base] = (modulus, residue)
            continue
        known_modulus, known_residue = residues[base]
        if lcm(known_modulus, modulus) > _MAX_MERGED_MODULUS:
            others.append((expr, bounds))
            continue
        combined = _combine_residues(known_modulus, known_residue, modulus, residue)
        if combined is None:
            return indexing_map.as_known_empty()
        residues[base] = combined
    result = replace(indexing_map, constraints=tuple(others))
    for base, (modulus, residue) in residues.items():
        result = result.with_constraint(base.mod(modulus), Interval.point(residue))
    for expr, bounds in result.constraints:
        result = _tighten_by_mod_constraint(result, expr, bounds)
    return result


def _point_mod_constraint(expr: AffineExpr, bounds: Interval) -> tuple[AffineExpr, int, int] | None:
    """`(x, c, r)` if the constraint is `x mod c in [r, r]` with `0 <= r < c`."""
    if not (isinstance(expr, BinaryExpr) and expr.kind == AffineKind.MOD):
        return None
    if not isinstance(expr.rhs, ConstantExpr) or not bounds.is_point:
        return None
    modulus = expr.rhs.value
    if modulus <= 0 or not 0 <= bounds.lower < modulus:
        return None
    return expr.lhs, modulus, bounds.lower


def _combine_residues(
    modulus_a: int, residue_a: int, modulus_b: int, residue_b: int
) -> tuple[int, int] | None:
    """`(m, r)` such that `x mod m == r` iff both residues hold; None if they never do."""
    modulus = lcm(modulus_a, modulus_b)
    for residue in range(residue_a, modulus, modulus_a):
        if residue % modulus_b == residue_b:
            return modulus, residue
    return None


def _tighten_by_mod_constraint(
    indexing_map: IndexingMap, expr: AffineExpr, bounds: Interval
) -> IndexingMap:
    """Moves the bounds of `v` inward to values with `v mod c in bounds`."""
    if not (isinstance(expr, BinaryExpr) and expr.kind == AffineKind.MOD):
        return indexing_map
    var, modulus = expr.lhs, expr.rhs
    if not isinstance(var, (DimExpr, SymbolExpr)) or not isinstance(modulus, ConstantExpr):
        return indexing_map
    c = modulus.value
    if c <= 0 or bounds.lower < 0 or bounds.upper >= c or bounds.is_empty:
        return indexing_map
    old = indexing_map.range_evaluator(use_constraints=False).range(var)
    lower, upper = old.lower, old.upper
    if not bounds.contains(lower % c):
        lower += (bounds.lower - lower % c) % c
    if not bounds.contains(upper % c):
        upper -= (upper % c - bounds.upper) % c
    return indexing_map.with_constraint(var, Interval(lower, upper))


# ----------------------------------------------------------------------------
# Helpers for domain checks


def _contains(bounds: Interval, value: IndexValue) -> bool | NDArray[np.bool_]:
    if isinstance(value, np.ndarray):
        return (value >= bounds.lower) & (value <= bounds.upper)
    return bounds.lower <= int(value) <= bounds.upper


def _all_false_like(
    dims: Sequence[IndexValue], symbols: Sequence[IndexValue]
) -> bool | NDArray[np.bool_]:
    arrays = [v for v in (*dims, *symbols) if isinstance(v, np.ndarray)]
    if not arrays:
        return False
    return np.zeros(np.broadcast_shapes(*(a.shape for a in arrays)), dtype=np.bool_)


# ----------------------------------------------------------------------------
# Parsing


def parse_indexing_map(text: str) -> IndexingMap:
    """Parses XLA's text form; raises `IndexingMapSyntaxError` with an offset into `text`.

    Constraints go through `with_constraint`, so constraints on bare variables
    tighten their bounds and infeasible domains give a known-empty map, as in XLA.
    """
    parsed = parse_map_text(text)
    indexing_map = IndexingMap(
        dim_vars=_variables(parsed.dims, "d"),
        range_vars=_variables(parsed.range_vars, "s"),
        rt_vars=_variables(parsed.rt_vars, "rt"),
        results=parsed.results,
        is_known_empty=parsed.known_empty,
    )
    if any(v.bounds.is_empty for v in indexing_map.dim_vars + indexing_map.symbol_vars):
        return indexing_map.as_known_empty()
    for expr, bounds in parsed.constraints:
        indexing_map = indexing_map.with_constraint(expr, bounds)
    return indexing_map


def _variables(parsed: Sequence[ParsedVariable], prefix: str) -> tuple[Variable, ...]:
    """Default names (`d3` at position 3) are stored as "" so equal maps compare equal."""
    return tuple(
        Variable(v.bounds, "" if v.name == f"{prefix}{i}" else v.name) for i, v in enumerate(parsed)
    )


# ----------------------------------------------------------------------------
# Construction helpers


def compose_indexing_maps(first: IndexingMap, second: IndexingMap) -> IndexingMap:
    """`second` applied to the results of `first`, over `first`'s dims.

    The symbols of the composition are ordered as in XLA: range variables of
    `second`, range variables of `first`, runtime variables of `second`,
    runtime variables of `first`. Each result of `first` is constrained to the
    bounds of the `second` dim it feeds (bare variables get tighter bounds,
    other constraints stay until `simplify` proves them redundant).
    """
    if len(first.results) != second.num_dims:
        raise ValueError(
            f"expected the first map to have {second.num_dims} results, but it has "
            f"{len(first.results)}"
        )
    n_range_1, n_range_2 = len(first.range_vars), len(second.range_vars)
    n_rt_2 = len(second.rt_vars)
    # Where each old symbol lands in the combined symbol list.
    first_symbols = [SymbolExpr(n_range_2 + i) for i in range(n_range_1)]
    first_symbols += [
        SymbolExpr(n_range_2 + n_range_1 + n_rt_2 + i) for i in range(len(first.rt_vars))
    ]
    second_symbols = [SymbolExpr(i) for i in range(n_range_2)]
    second_symbols += [SymbolExpr(n_range_2 + n_range_1 + i) for i in range(n_rt_2)]
    first_dims = [DimExpr(i) for i in range(first.num_dims)]

    def from_first(expr: AffineExpr) -> AffineExpr:
        return expr.substitute(first_dims, first_symbols)

    inputs = [from_first(result) for result in first.results]

    def from_second(expr: AffineExpr) -> AffineExpr:
        return expr.substitute(inputs, second_symbols)

    composed = IndexingMap(
        dim_vars=first.dim_vars,
        range_vars=second.range_vars + first.range_vars,
        rt_vars=second.rt_vars + first.rt_vars,
        results=tuple(from_second(result) for result in second.results),
        is_known_empty=first.is_known_empty or second.is_known_empty,
    )
    constraints = [(from_first(e), b) for e, b in first.constraints]
    constraints += [(from_second(e), b) for e, b in second.constraints]
    constraints += [(expr, var.bounds) for expr, var in zip(inputs, second.dim_vars, strict=True)]
    for expr, bounds in constraints:
        composed = composed.with_constraint(expr, bounds)
    return composed


def identity_map(shape: Sequence[int]) -> IndexingMap:
    """`(d0, ..., dn) -> (d0, ..., dn)` over the index space of `shape`."""
    return IndexingMap(
        dim_vars=_dims_of_shape(shape),
        range_vars=(),
        rt_vars=(),
        results=tuple(DimExpr(i) for i in range(len(shape))),
    )


def linearize_map(shape: Sequence[int]) -> IndexingMap:
    """`(d0, ..., dn) -> (row-major linear index)`: `d0 * (s1*...*sn) + ... + dn`."""
    linear: AffineExpr = ConstantExpr(0)
    for i in range(len(shape)):
        linear = linear + DimExpr(i) * prod(shape[i + 1 :])
    return IndexingMap(dim_vars=_dims_of_shape(shape), range_vars=(), rt_vars=(), results=(linear,))


def delinearize_map(shape: Sequence[int]) -> IndexingMap:
    """`(d0) -> (multi-index)` for a row-major linear index into `shape`.

    Shape [6, 512, 4096] gives `(d0 floordiv 2097152, (d0 floordiv 4096) mod 512,
    d0 mod 4096)`; the outermost index needs no `mod` because d0 is bounded.
    """
    linear = DimExpr(0)
    results: list[AffineExpr] = []
    for i, size in enumerate(shape):
        index = linear.floordiv(prod(shape[i + 1 :]))
        results.append(index if i == 0 else index.mod(size))
    return IndexingMap(
        dim_vars=(Variable(Interval(0, prod(shape) - 1)),),
        range_vars=(),
        rt_vars=(),
        results=tuple(results),
    )


def _dims_of_shape(shape: Sequence[int]) -> tuple[Variable, ...]:
    return tuple(Variable(Interval(0, size - 1)) for size in shape)
