"""Stride and alignment of affine expressions, against evaluating them at every point of a
small domain."""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from xla_emit.indexing import AffineExpr, ConstantExpr, DimExpr, SymbolExpr
from xla_emit.indexing.strides import alignment_of, at_zero, stride_in

DIMS = (DimExpr(0), DimExpr(1))
DOMAIN = list(itertools.product(range(9), range(5)))


@st.composite
def expressions(draw: st.DrawFn, depth: int = 3) -> AffineExpr:
    if depth == 0 or draw(st.booleans()):
        if draw(st.booleans()):
            return draw(st.sampled_from(DIMS))
        return ConstantExpr(draw(st.integers(-6, 6)))
    lhs = draw(expressions(depth - 1))
    kind = draw(st.sampled_from(["add", "mul", "mod", "floordiv"]))
    if kind == "add":
        return lhs + draw(expressions(depth - 1))
    constant = draw(st.integers(1, 6))
    if kind == "mul":
        return lhs * draw(st.integers(-4, 4))
    if kind == "mod":
        return lhs.mod(constant)
    return lhs.floordiv(constant)


def _value(expr: AffineExpr, d0: int, d1: int) -> int:
    return int(expr.evaluate([d0, d1]))


@settings(max_examples=200, deadline=None)
@given(expressions())
def test_stride_is_the_exact_step_in_d0(expr: AffineExpr) -> None:
    stride = stride_in(expr, DIMS[0])
    if stride is None:
        return  # not provably linear: the pass leaves such accesses scalar
    for d0, d1 in DOMAIN:
        assert _value(expr, d0 + 1, d1) - _value(expr, d0, d1) == stride


@settings(max_examples=200, deadline=None)
@given(expressions())
def test_alignment_divides_every_value(expr: AffineExpr) -> None:
    alignment = alignment_of(expr)
    for d0, d1 in DOMAIN:
        value = _value(expr, d0, d1)
        if alignment == 0:
            assert value == 0
        else:
            assert value % alignment == 0


def test_alignment_of_the_seed_base_is_four() -> None:
    base = DIMS[0] * 4 + DIMS[1] * 512
    assert alignment_of(base) == 4
    assert stride_in(base + DimExpr(2), DimExpr(2)) == 1


@settings(max_examples=200, deadline=None)
@given(expressions())
def test_at_zero_is_the_value_at_d0_zero(expr: AffineExpr) -> None:
    base = at_zero(expr, DIMS[0], num_dims=2, num_symbols=0)
    for _, d1 in DOMAIN:
        assert _value(base, 7, d1) == _value(expr, 0, d1)


def test_at_zero_replaces_a_symbol_and_keeps_the_dims() -> None:
    expr = DimExpr(0) * 8 + SymbolExpr(0) + SymbolExpr(1) * 2
    assert at_zero(expr, SymbolExpr(0), num_dims=1, num_symbols=2) == (
        DimExpr(0) * 8 + SymbolExpr(1) * 2
    )
    assert at_zero(ConstantExpr(3), DimExpr(0), num_dims=1, num_symbols=0) == ConstantExpr(3)
