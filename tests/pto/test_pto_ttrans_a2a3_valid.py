"""A2A3 ttrans as PTOAS main verifies it: the destination's valid shape is not asked to
be the source's transposed; the executor transposes the source's valid region and
reports, at the op, one that the destination cannot hold."""

from __future__ import annotations

import numpy as np
import pytest
from xla_emit.dialects.pto import TileTypeBase

from xla_emit.diagnostics import UserError
from xla_emit.interpreter.pto import PTOExecutor, Tile
from xla_emit.ir import parse_mlir, verify_module


def _run(src: str, dst: str, data: np.ndarray) -> np.ndarray:
    text = f"""module attributes {{pto.target_arch = "a2a3"}} {{
  func.func @k(%s: {src}, %d: {dst}) {{
    pto.ttrans ins(%s : {src}) outs(%d : {dst})
    return
  }}
}}
"""
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)
    executor = PTOExecutor(module, locate=source_map.location_of)
    tiles = []
    for arg in executor.functions["k"].body.block.args:
        assert isinstance(arg.type, TileTypeBase)
        tiles.append(Tile.of_type(arg.type))
    tiles[0].data[...] = data
    executor.run("k", tiles)  # type: ignore[arg-type]
    return tiles[1].data


def test_a_valid_region_transposes_into_a_tile_that_holds_it() -> None:
    data = np.arange(64, dtype=np.float32).reshape(8, 8)
    src = "!pto.tile_buf<vec, 8x8xf32, valid=2x8>"
    got = _run(src, "!pto.tile_buf<vec, 8x8xf32, valid=2x8>", data)
    np.testing.assert_array_equal(got[:8, :2], data[:2, :8].T)


def test_a_row_into_a_row_is_a_located_run_time_error() -> None:
    row = "!pto.tile_buf<vec, 1x16xf32>"
    with pytest.raises(UserError, match=r"k.mlir:3:5: .*the 1x16 transpose does not fit the 1x16"):
        _run(row, row, np.ones((1, 16), np.float32))
