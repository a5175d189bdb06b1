"""`pto-verify-driver`: PTOAS's checks of a module against its build options
(`--pto-level`, `--enable-insert-sync`) and PlanMemory's reserve_buffer rules.

The expected behaviour is PTOAS's (tools/ptoas/ptoas.cpp, PTOPlanMemory.cpp),
worked out by hand for each small kernel.
"""

from __future__ import annotations

import pytest
from xla_emit.passes.diagnostics import OpError
from xla_emit.passes.pto.pto_verify_driver import verify_driver_options

from xla_emit.ir import parse_mlir, verify_module

TILE = "!pto.tile_buf<vec, 16x16xf16>"


def _module(body: str) -> object:
    text = f"func.func @k() {{\n{body}\n  return\n}}\n"
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)
    return module


def _error(body: str, level: str = "level2", insert_sync: bool = False) -> tuple[str, str]:
    """(op name, message) of the error, which must be raised."""
    with pytest.raises(OpError) as caught:
        verify_driver_options(_module(body), level, insert_sync)  # type: ignore[arg-type]
    return caught.value.op.name, caught.value.message


ALLOC = f"  %t = pto.alloc_tile : {TILE}"
ALLOC_AT = f"  %a = arith.constant 0 : i64\n  %t = pto.alloc_tile addr = %a : {TILE}"
TASSIGN = f"  %b = arith.constant 4096 : i64\n  %u = pto.tassign %t, %b : {TILE} -> {TILE}"


def _reserve(auto: bool, base: int | None = None, name: str = "fifo") -> str:
    fields = f'name = "{name}", size = 4096, location = #pto.address_space<vec>'
    fields += f", auto = {str(auto).lower()}" + (f", base = {base}" if base is not None else "")
    return f"  %{name} = pto.reserve_buffer {{{fields}}} -> i32"


def test_level_2_accepts_planned_tiles_and_one_automatic_reserved_buffer() -> None:
    verify_driver_options(_module(ALLOC + "\n" + _reserve(auto=True)))  # type: ignore[arg-type]


def test_level_3_accepts_tiles_bound_by_hand() -> None:
    module = _module(ALLOC_AT + "\n" + TASSIGN + "\n" + _reserve(auto=False, base=0))
    verify_driver_options(module, "level3")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("body", "level", "insert_sync", "op", "message"),
    [
        (
            ALLOC_AT + "\n" + TASSIGN,
            "level2",
            False,
            "pto.tassign",
            "pto.tassign is only supported when --pto-level=level3",
        ),
        (
            ALLOC_AT + "\n" + TASSIGN,
            "level3",
            True,
            "pto.tassign",
            "pto.tassign requires --enable-insert-sync to be disabled",
        ),
        (
            ALLOC + "\n" + TASSIGN,
            "level3",
            False,
            "pto.alloc_tile",
            "requires 'addr' operand when --pto-level=level3",
        ),
        (
            ALLOC_AT,
            "level1",
            False,
            "pto.alloc_tile",
            "unexpected 'addr' operand: only supported when --pto-level=level3",
        ),
        (
            _reserve(auto=False, base=0),
            "level2",
            False,
            "pto.reserve_buffer",
            "pto.reserve_buffer with explicit 'base' (auto = false) is not supported in "
            "PlanMemory; use --pto-level=level3 or set auto = true",
        ),
        (
            _reserve(auto=False),
            "level2",
            False,
            "pto.reserve_buffer",
            "expects 'base' when 'auto' is false",
        ),
        (
            _reserve(auto=True, base=512),
            "level2",
            False,
            "pto.reserve_buffer",
            "expects 'base' to be absent when 'auto' is true",
        ),
        (
            _reserve(auto=False, base=0) + "\n" + _reserve(auto=True, name="other", base=64),
            "level2",
            False,
            "pto.reserve_buffer",
            "expects 'base' to be absent when 'auto' is true",
        ),
        (
            _reserve(auto=True),
            "level3",
            False,
            "pto.reserve_buffer",
            "expects 'base' to be resolved before address materialization "
            "(nothing plans memory at --pto-level=level3)",
        ),
        (
            ALLOC,
            "level4",
            False,
            "builtin.module",
            "unknown PTO build level 'level4', expected one of level1, level2, level3",
        ),
    ],
)
def test_what_ptoas_rejects_for_its_options(
    body: str, level: str, insert_sync: bool, op: str, message: str
) -> None:
    assert _error(body, level, insert_sync) == (op, message)


def test_several_automatic_reserve_buffers_are_planned() -> None:
    """PTOAS main plans each reserved buffer of a function in a hole of its memory."""
    body = _reserve(auto=True) + "\n" + _reserve(auto=True, name="other")
    verify_driver_options(_module(body), "level2", False)  # type: ignore[arg-type]
