"""PTOAS main's semantic no-alias rule (`passes/analysis/semantic_alias_checks.py`) on
kernels of ours: byte ranges worked out by hand (a 16x32 ui8 tile is 512 bytes, a
16x32 f32 one 2048)."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import ModuleOp
from xla_emit.passes.analysis.semantic_alias_checks import MESSAGE, check_semantic_no_alias
from xla_emit.passes.diagnostics import OpError

from xla_emit.ir import parse_mlir, verify_module

SRC = "!pto.tile_buf<vec, 16x32xf32>"
DST = "!pto.tile_buf<vec, 16x32xui8>"
EXP = "!pto.tile_buf<vec, 1x32xui8, valid=1x16>"
MAX = "!pto.tile_buf<vec, 1x16xf32>"
SCALING = "!pto.tile_buf<vec, 1x64xf32, valid=1x16>"
OUTS = f"{DST}, {EXP}, {MAX}, {SCALING}"
MXFP8 = "{quant_type = #pto<quant_type MXFP8>}"


def _quant(addresses: tuple[int, int, int, int, int]) -> ModuleOp:
    names = ("src", "dst", "exp", "max", "scaling")
    types = (SRC, DST, EXP, MAX, SCALING)
    lines = [
        f"    %a{n} = arith.constant {a} : i64\n    %{n} = pto.alloc_tile addr = %a{n} : {t}"
        for n, a, t in zip(names, addresses, types, strict=True)
    ]
    body = "\n".join(lines)
    text = f"""module attributes {{pto.target_arch = "a5"}} {{
  func.func @k() {{
{body}
    pto.tquant.mx ins(%src : {SRC}) outs(%dst, %exp, %max, %scaling : {OUTS}) {MXFP8}
    return
  }}
}}
"""
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)
    return module


def test_disjoint_outputs_pass() -> None:
    # src [0, 2048), dst [2048, 2560), exp, max and scaling after it.
    check_semantic_no_alias(_quant((0, 2048, 3072, 3328, 3584)))


def test_an_output_inside_another_is_refused() -> None:
    # scaling at 2048 lies inside dst's [2048, 2560).
    with pytest.raises(OpError) as caught:
        check_semantic_no_alias(_quant((0, 2048, 3072, 3328, 2048)))
    assert caught.value.message == MESSAGE
    # one byte past dst's end is free again
    check_semantic_no_alias(_quant((0, 2048, 3072, 3328, 2560)))


def test_views_of_one_allocation_overlap_without_addresses() -> None:
    text = f"""module attributes {{pto.target_arch = "a5"}} {{
  func.func @k() {{
    %c0 = arith.constant 0 : index
    %root = pto.alloc_tile : {SRC}
    %sub = pto.subview %root[%c0, %c0] sizes [16, 32] : {SRC} -> {SRC}
    %dst = pto.bitcast %root : {SRC} -> {DST}
    %exp = pto.alloc_tile : {EXP}
    %max = pto.alloc_tile : {MAX}
    %scaling = pto.alloc_tile : {SCALING}
    pto.tquant.mx ins(%sub : {SRC}) outs(%dst, %exp, %max, %scaling : {OUTS}) {MXFP8}
    return
  }}
}}
"""
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)
    with pytest.raises(OpError):
        check_semantic_no_alias(module)
