"""Integer semantics, the same in every executor: compares per predicate and C division.

Expected values come from numpy's signed and unsigned views of the same bits
and from exact rational arithmetic, never from the module under test.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from interpreter_harness import run_mlir

from xla_emit.interpreter import scalars
from xla_emit.interpreter.pto import PTOExecutor
from xla_emit.interpreter.tpu import run_tpu_kernel
from xla_emit.ir import parse_mlir

PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
SIGNED = {8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}
UNSIGNED = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}
DIVISIONS = ("divsi", "remsi", "divui", "remui")


def edge_values(width: int) -> list[int]:
    info = np.iinfo(SIGNED[width])
    low, high = int(info.min), int(info.max)
    return [0, 1, -1, 2, -2, 7, -7, low, low + 1, high, high - 1]


def expected_compare(predicate: str, a: int, b: int, width: int) -> bool:
    """The predicate on numpy's signed or unsigned view of the two values' bits."""
    signed = np.array([a, b], dtype=SIGNED[width])
    lhs, rhs = signed.view(UNSIGNED[width]) if predicate.startswith("u") else signed
    compare: dict[str, Callable[[object, object], object]] = {
        "eq": lambda x, y: x == y,
        "ne": lambda x, y: x != y,
        "lt": lambda x, y: x < y,  # type: ignore[operator]
        "le": lambda x, y: x <= y,  # type: ignore[operator]
        "gt": lambda x, y: x > y,  # type: ignore[operator]
        "ge": lambda x, y: x >= y,  # type: ignore[operator]
    }
    return bool(compare[predicate if predicate in ("eq", "ne") else predicate[1:]](lhs, rhs))


def truncated(a: int, b: int) -> tuple[int, int]:
    """C's quotient (rounded toward zero) and remainder, from exact rationals."""
    quotient = math.trunc(Fraction(a, b))
    return quotient, a - quotient * b


def as_signed(value: int, width: int) -> int:
    return int(np.array(value % (1 << width), dtype=UNSIGNED[width]).view(SIGNED[width]))


def expected_division(name: str, a: int, b: int, width: int) -> int:
    if name.endswith("ui"):
        a, b = a % (1 << width), b % (1 << width)
    quotient, remainder = truncated(a, b)
    return as_signed(quotient if name.startswith("div") else remainder, width)


def division_defined(a: int, b: int, width: int) -> bool:
    """Division by zero and MIN / -1 are undefined behaviour (poison)."""
    return b != 0 and not (a == -(1 << (width - 1)) and b == -1)


def kernel(width: int) -> str:
    """One function computing every predicate and division of its two operands."""
    t = f"i{width}"
    lines = [f"  %{p} = arith.cmpi {p}, %a, %b : {t}" for p in PREDICATES]
    lines += [f"  %{d} = arith.{d} %a, %b : {t}" for d in DIVISIONS]
    names = ", ".join(f"%{n}" for n in (*PREDICATES, *DIVISIONS))
    types = ", ".join(["i1"] * len(PREDICATES) + [t] * len(DIVISIONS))
    body = "\n".join(lines)
    return (
        f"func.func @f(%a: {t}, %b: {t}) -> ({types}) {{\n{body}\n  return {names} : {types}\n}}\n"
    )


def run_simt(text: str, a: int, b: int, width: int) -> list[object]:
    dtype = SIGNED[width]
    return list(run_mlir(text, [dtype(a), dtype(b)]))


def run_tpu(text: str, a: int, b: int, width: int) -> list[object]:
    module, _ = parse_mlir(text, "test.mlir")
    return list(run_tpu_kernel(module, [a, b]))


def run_pto(text: str, a: int, b: int, width: int) -> list[object]:
    module, _ = parse_mlir(text, "test.mlir")
    return list(PTOExecutor(module).run("f", [a, b]))


EXECUTORS = {"simt": run_simt, "tpu": run_tpu, "pto": run_pto}


@pytest.mark.parametrize("width", [8, 16, 32, 64])
@pytest.mark.parametrize("executor", list(EXECUTORS))
def test_every_executor_compares_and_divides_like_numpy_and_c(executor: str, width: int) -> None:
    text = kernel(width)
    values = edge_values(width)
    for a, b in product(values, values):
        if not division_defined(a, b, width):
            continue
        results = EXECUTORS[executor](text, a, b, width)
        compares = [bool(r) for r in results[: len(PREDICATES)]]
        expected = [expected_compare(p, a, b, width) for p in PREDICATES]
        assert compares == expected, f"{executor} cmpi on i{width} {a}, {b}"
        divisions = [as_signed(int(r), width) for r in results[len(PREDICATES) :]]  # type: ignore[call-overload]
        assert divisions == [expected_division(d, a, b, width) for d in DIVISIONS], (
            f"{executor} division on i{width} {a}, {b}"
        )


@pytest.mark.parametrize("width", [8, 16, 32, 64])
@pytest.mark.parametrize("predicate", range(len(PREDICATES)))
def test_compare_integers_on_arrays_and_python_ints(predicate: int, width: int) -> None:
    values = edge_values(width)
    pairs = list(product(values, values))
    lhs = np.array([a for a, _ in pairs], dtype=SIGNED[width])
    rhs = np.array([b for _, b in pairs], dtype=SIGNED[width])
    expected = [expected_compare(PREDICATES[predicate], a, b, width) for a, b in pairs]
    assert scalars.compare_integers(predicate, lhs, rhs, width).tolist() == expected
    assert [scalars.compare_integers(predicate, a, b, width) for a, b in pairs] == expected


@pytest.mark.parametrize("width", [8, 16, 32, 64])
def test_truncating_division_on_arrays_and_python_ints(width: int) -> None:
    values = edge_values(width)
    pairs = [(a, b) for a, b in product(values, values) if division_defined(a, b, width)]
    lhs = np.array([a for a, _ in pairs], dtype=SIGNED[width])
    rhs = np.array([b for _, b in pairs], dtype=SIGNED[width])
    expected = [truncated(a, b) for a, b in pairs]
    quotients = scalars.truncating_divide(lhs, rhs)
    remainders = scalars.truncating_remainder(lhs, rhs)
    assert quotients.dtype == lhs.dtype and remainders.dtype == lhs.dtype
    assert list(zip(quotients.tolist(), remainders.tolist(), strict=True)) == expected
    assert [
        (scalars.truncating_divide(a, b), scalars.truncating_remainder(a, b)) for a, b in pairs
    ] == expected


def test_floor_and_ceil_division_round_toward_their_infinities() -> None:
    for a, b in product([7, -7, 6, -6, 0], [2, -2, 3, -3]):
        exact = Fraction(a, b)
        assert scalars.floor_divide(a, b) == math.floor(exact)
        assert scalars.ceil_divide(a, b) == math.ceil(exact)
        assert int(scalars.floor_divide(np.int32(a), np.int32(b))) == math.floor(exact)
        assert int(scalars.ceil_divide(np.int32(a), np.int32(b))) == math.ceil(exact)


def test_wrap_signed_and_unsigned_views() -> None:
    assert scalars.wrap_signed(1 << 31, 32) == -(1 << 31)
    assert scalars.wrap_signed(255, 8) == -1
    assert scalars.unsigned(-1, 16) == 0xFFFF
    assert scalars.unsigned(np.array([-1], np.int8), 8).tolist() == [255]
