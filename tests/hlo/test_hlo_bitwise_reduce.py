"""Reductions with `and`, `or` and `xor`: bitwise on integers, logical on pred.

Oracle: Python's own integer operators folded over the values (two's complement,
then wrapped to the type), and the compiled kernels, which compute what XLA does.
"""

from __future__ import annotations

import functools
import operator

import numpy as np
import pytest

from xla_emit import api

_PY_OPS = {"and": operator.and_, "or": operator.or_, "xor": operator.xor}


def _module(opcode: str, type_: str, count: int, init: int | str) -> str:
    return (
        f"HloModule m\n\nr {{\n  a = {type_}[] parameter(0)\n  b = {type_}[] parameter(1)\n"
        f"  ROOT o = {type_}[] {opcode}(a, b)\n}}\n\n"
        f"ENTRY e {{\n  x = {type_}[{count}] parameter(0)\n  z = {type_}[] constant({init})\n"
        f"  ROOT s = {type_}[] reduce(x, z), dimensions={{0}}, to_apply=r\n}}\n"
    )


def test_signed_or_reduce_sets_the_sign_bit() -> None:
    x = np.array([1, 2, 4, 8, 16, 32, 64, -128], np.int8)
    text = _module("or", "s8", 8, 0)
    (reference,) = api.run_reference(text, [x])
    (compiled,) = api.run_hlo(text, [x])
    assert int(reference) == -1  # every bit set
    assert int(compiled) == -1


@pytest.mark.parametrize("opcode", ["and", "or", "xor"])
@pytest.mark.parametrize(
    ("type_", "dtype"), [("s8", np.int8), ("u8", np.uint8), ("s32", np.int32), ("u16", np.uint16)]
)
def test_integer_bitwise_reduce_matches_python(opcode: str, type_: str, dtype: type) -> None:
    info = np.iinfo(dtype)
    x = np.random.default_rng(5).integers(info.min, info.max, 6, endpoint=True).astype(dtype)
    init = -1 if opcode == "and" and info.min < 0 else (int(info.max) if opcode == "and" else 0)
    (reference,) = api.run_reference(_module(opcode, type_, 6, init), [x])
    expected = functools.reduce(_PY_OPS[opcode], [int(v) for v in x], init)
    assert int(reference) == int(np.array(expected).astype(dtype))


@pytest.mark.parametrize(
    ("opcode", "values", "expected"),
    [("or", [0, 0, 1], True), ("and", [1, 1, 0], False), ("xor", [1, 1, 1], True)],
)
def test_pred_reduce_is_logical(opcode: str, values: list[int], expected: bool) -> None:
    x = np.array(values, bool)
    init = "true" if opcode == "and" else "false"
    (reference,) = api.run_reference(_module(opcode, "pred", 3, init), [x])
    assert bool(reference) is expected
