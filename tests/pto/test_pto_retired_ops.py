"""Ops PTOAS main retired that ours still reads for PTOAS a56b18c's files keep
a56b18c's type constraints: `pto.declare_tile_memref` gives a memref."""

from __future__ import annotations

import pytest

from xla_emit.diagnostics import UserError
from xla_emit.ir import parse_mlir, verify_module


def _verify(result: str) -> None:
    text = f'func.func @k() {{\n  %m = "pto.declare_tile_memref"() : () -> {result}\n  return\n}}\n'
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)


def test_declare_tile_memref_gives_a_memref() -> None:
    _verify("memref<16x16xf32>")
    with pytest.raises(UserError) as caught:
        _verify("i32")
    assert caught.value.location is not None and caught.value.location.line == 2
    assert "pto.declare_tile_memref" in caught.value.message
