"""`scf.while` and `pto.tgetval` in the PTO executor: the while loop below is re-run in
plain Python to give the expected tile (PTOAS's `scf_while_break` sample has this shape)."""

from __future__ import annotations

import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.interpreter.pto import PTOExecutor, Tile
from xla_emit.ir import parse_mlir, verify_module

T = "!pto.tile_buf<vec, 4x8xf32>"
KERNEL = f"""
func.func @k(%t: {T}, %limit: index, %stop_at: index) -> index {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %false = arith.constant false
  %one = arith.constant 1.0 : f32
  %ten = arith.constant 10.0 : f32
  %final:2 = scf.while (%i = %c0, %alive = %true) : (index, i1) -> (index, i1) {{
    %lt = arith.cmpi slt, %i, %limit : index
    %go = arith.andi %lt, %alive : i1
    scf.condition(%go) %i, %alive : index, i1
  }} do {{
  ^bb0(%i2: index, %alive2: i1):
    pto.tadds ins(%t, %one : {T}, f32) outs(%t : {T})
    %stop = arith.cmpi eq, %i2, %stop_at : index
    %next = arith.addi %i2, %c1 : index
    %yield:2 = scf.if %stop -> (index, i1) {{
      scf.yield %next, %false : index, i1
    }} else {{
      pto.tadds ins(%t, %ten : {T}, f32) outs(%t : {T})
      scf.yield %next, %true : index, i1
    }}
    scf.yield %yield#0, %yield#1 : index, i1
  }}
  return %final#0 : index
}}
"""


def expected(start: np.ndarray, limit: int, stop_at: int) -> tuple[np.ndarray, int]:
    values, i, alive = start.copy(), 0, True
    while i < limit and alive:
        values += 1
        if i == stop_at:
            alive = False
        else:
            values += 10
        i += 1
    return values, i


@pytest.mark.parametrize(("limit", "stop_at"), [(4, 2), (4, 9), (0, 0), (3, 0)])
def test_while_loop_with_break(limit: int, stop_at: int) -> None:
    module, source_map = parse_mlir(KERNEL, "k.mlir")
    verify_module(module, source_map)
    executor = PTOExecutor(module)
    arg = executor.functions["k"].body.block.args[0]
    tile = Tile.of_type(arg.type)  # type: ignore[arg-type]
    start = np.arange(32, dtype=np.float32).reshape(4, 8)
    tile.data[...] = start
    (count,) = executor.run("k", [tile, limit, stop_at])
    want, want_count = expected(start, limit, stop_at)
    np.testing.assert_array_equal(tile.data, want)
    assert count == want_count


def test_tgetval_reads_linear_offsets_of_the_storage() -> None:
    text = f"""
func.func @k(%t: {T}, %i: index) -> f32 {{
  %v = pto.tgetval ins(%t, %i : {T}, index) outs : f32
  return %v : f32
}}"""
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)
    executor = PTOExecutor(module)
    tile = Tile.of_type(executor.functions["k"].body.block.args[0].type)  # type: ignore[arg-type]
    tile.data[...] = np.arange(32, dtype=np.float32).reshape(4, 8) * 0.5
    # Offset 13 is row 1, column 5 of the 4x8 storage.
    assert executor.run("k", [tile, 13]) == [6.5]
    with pytest.raises(UserError, match="offset 32 is outside the 32-element buffer"):
        executor.run("k", [tile, 32])


@pytest.mark.parametrize(
    ("tile", "result", "message"),
    [
        (
            "!pto.tile_buf<mat, 4x8xf32>",
            "f32",
            "Ascend hardware does not support reading from Mat tile_buf to Scalar unit",
        ),
        ("!pto.tile_buf<acc, 4x8xf32>", "f32", "expects src memory space to be vec"),
        (
            "!pto.tile_buf<vec, 4x8xf32>",
            "f16",
            "expects dst type to match src element type f32, but got f16",
        ),
    ],
)
def test_tgetval_errors(tile: str, result: str, message: str) -> None:
    text = f"""
func.func @k(%t: {tile}, %i: index) -> {result} {{
  %v = pto.tgetval ins(%t, %i : {tile}, index) outs : {result}
  return %v : {result}
}}"""
    module, source_map = parse_mlir(text, "k.mlir")
    with pytest.raises(UserError, match=f"k.mlir:3:3: error: 'pto.tgetval' op {message}"):
        verify_module(module, source_map)
