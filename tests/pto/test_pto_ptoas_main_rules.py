"""Rules and forms of PTOAS main (e32488c) on our own small kernels: each accepted
form reads, verifies and prints back; each rejected one fails with PTOAS's message."""

from __future__ import annotations

import pytest

from xla_emit.diagnostics import UserError
from xla_emit.ir import parse_mlir, verify_module


def verified(text: str) -> str:
    module, source_map = parse_mlir(text, "k.pto")
    verify_module(module, source_map)
    printed = str(module)
    again, _ = parse_mlir(printed, "printed.pto")
    assert str(again) == printed
    return printed


def rejected(text: str) -> str:
    with pytest.raises(UserError) as caught:
        verified(text)
    return caught.value.format().splitlines()[0]


def test_set_ffts_takes_a_pointer_to_i64_or_i8_and_still_a_memref() -> None:
    for kind in ("!pto.ptr<i64>", "!pto.ptr<i8, gm>", "memref<256xi64>"):
        assert f"pto.set_ffts %f : {kind.replace('<i64>', '<i64, gm>')}" in verified(
            f"func.func @k(%f: {kind}) {{\n  pto.set_ffts %f : {kind}\n  return\n}}\n"
        )


def test_set_ffts_rejects_a_pointer_to_f32() -> None:
    error = rejected(
        "func.func @k(%f: !pto.ptr<f32>) {\n  pto.set_ffts %f : !pto.ptr<f32>\n  return\n}\n"
    )
    assert error.startswith("k.pto:2:3: error:")
    assert "'pto.set_ffts' op expects element type i64 (or i8)" in error


def test_an_empty_section_is_one_empty_block() -> None:
    text = (
        "func.func @k() {\n  pto.section.vector {\n  }\n"
        "  pto.section.cube {\n    %c = arith.constant 0 : index\n  }\n  return\n}\n"
    )
    printed = verified(text)
    assert "pto.section.vector {\n    }" in printed
    module, _ = parse_mlir(text, "k.pto")
    section = next(op for op in module.walk() if op.name == "pto.section.vector")
    assert len(section.regions[0].blocks) == 1
