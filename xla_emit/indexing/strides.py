"""How an affine expression moves with one of its variables, and what it is a multiple of.

Vectorizing an access `t[f(..., iv, ...)]` over a loop of N iterations needs
two facts about `f`: it steps by exactly 1 when `iv` does (`stride_in`), and
its value at `iv = 0` is a multiple of N (`alignment_of` of `at_zero`), so
that the N elements form one aligned vector.
"""

from __future__ import annotations

from math import gcd

from xla_emit.indexing.affine import (
    AffineExpr,
    AffineKind,
    BinaryExpr,
    ConstantExpr,
    DimExpr,
    SymbolExpr,
)


def stride_in(expr: AffineExpr, var: AffineExpr) -> int | None:
    """d expr / d var when expr is linear in `var`, else None."""
    if expr == var:
        return 1
    if isinstance(expr, ConstantExpr | DimExpr | SymbolExpr):
        return 0
    assert isinstance(expr, BinaryExpr)
    if var not in expr.walk():
        return 0
    lhs, rhs = stride_in(expr.lhs, var), stride_in(expr.rhs, var)
    if lhs is None or rhs is None:
        return None
    if expr.kind == AffineKind.ADD:
        return lhs + rhs
    if expr.kind == AffineKind.MUL:
        if isinstance(expr.rhs, ConstantExpr):
            return lhs * expr.rhs.value
        if isinstance(expr.lhs, ConstantExpr):
            return rhs * expr.lhs.value
    return None  # mod, division, min, max of the variable: not contiguous


def alignment_of(expr: AffineExpr) -> int:
    """A number every value of `expr` is a multiple of (0 means: only 0)."""
    if isinstance(expr, ConstantExpr):
        return abs(expr.value)
    if isinstance(expr, DimExpr | SymbolExpr):
        return 1
    assert isinstance(expr, BinaryExpr)
    lhs, rhs = alignment_of(expr.lhs), alignment_of(expr.rhs)
    if expr.kind == AffineKind.ADD:
        return gcd(lhs, rhs)
    if expr.kind == AffineKind.MUL:
        return lhs * rhs
    if expr.kind == AffineKind.MOD and isinstance(expr.rhs, ConstantExpr):
        return gcd(lhs, expr.rhs.value)
    return 1


def at_zero(
    expr: AffineExpr, var: DimExpr | SymbolExpr, num_dims: int, num_symbols: int
) -> AffineExpr:
    """`expr` with `var` replaced by 0 (the other dims and symbols left as they are)."""
    dims: list[AffineExpr] = [
        ConstantExpr(0) if DimExpr(i) == var else DimExpr(i) for i in range(num_dims)
    ]
    symbols: list[AffineExpr] = [
        ConstantExpr(0) if SymbolExpr(i) == var else SymbolExpr(i) for i in range(num_symbols)
    ]
    return expr.substitute(dims, symbols)
