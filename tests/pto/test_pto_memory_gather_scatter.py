"""mgather / mscatter in the PTO executor against numpy indexing written here, from
pto-isa's MGATHER/MSCATTER pages: element-indexed (dst[i, j] = mem[idx[i, j]], linear
offsets into the memory's row-major elements) and row-indexed (an index tile of one
column picks whole rows of the table)."""

from __future__ import annotations

import numpy as np
import pytest
from xla_emit.dialects.pto import TileTypeBase

from xla_emit.diagnostics import UserError
from xla_emit.interpreter.pto import PTOExecutor, Tile
from xla_emit.ir import parse_mlir, verify_module

rng = np.random.default_rng(11)
TABLE = rng.uniform(-8, 8, (16, 8)).astype(np.float32)
F = "!pto.tile_buf<vec, 4x8xf32>"
IDX = "!pto.tile_buf<vec, 4x8xi32>"
ROWS = "!pto.tile_buf<vec, 4x1xi32, valid=4x1>"
MEM = "memref<16x8xf32>"


def run(line: str, params: str, args: list[np.ndarray]) -> None:
    """Run `line`; tile arguments are copied in and their final contents copied back."""
    text = f"func.func @k({params}) {{\n  {line}\n  return\n}}"
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)
    executor = PTOExecutor(module, locate=source_map.location_of)
    values: list[object] = []
    for arg, value in zip(executor.functions["k"].body.block.args, args, strict=True):
        if isinstance(arg.type, TileTypeBase):
            tile = Tile.of_type(arg.type)
            tile.data[...] = value
            values.append(tile)
        else:
            values.append(value)
    executor.run("k", values)  # type: ignore[arg-type]
    for value, array in zip(values, args, strict=True):
        if isinstance(value, Tile):
            array[...] = value.data


def test_element_indexed_gather() -> None:
    index = rng.integers(0, TABLE.size, (4, 8)).astype(np.int32)
    dst = np.zeros((4, 8), np.float32)
    line = f"pto.mgather ins(%m, %i : {MEM}, {IDX}) outs(%d : {F})"
    run(line, f"%m: {MEM}, %i: {IDX}, %d: {F}", [TABLE, index, dst])
    np.testing.assert_array_equal(dst, TABLE.reshape(-1)[index])


def test_row_indexed_gather() -> None:
    rows = np.array([[3], [0], [15], [3]], np.int32)
    dst = np.zeros((4, 8), np.float32)
    line = f"pto.mgather ins(%m, %i : {MEM}, {ROWS}) outs(%d : {F})"
    run(line, f"%m: {MEM}, %i: {ROWS}, %d: {F}", [TABLE, rows, dst])
    np.testing.assert_array_equal(dst, TABLE[rows[:, 0]])


def test_element_indexed_scatter() -> None:
    index = rng.permutation(TABLE.size)[:32].reshape(4, 8).astype(np.int32)
    src = rng.uniform(-8, 8, (4, 8)).astype(np.float32)
    memory = TABLE.copy()
    line = f"pto.mscatter ins(%s, %i : {F}, {IDX}) outs(%m : {MEM})"
    run(line, f"%s: {F}, %i: {IDX}, %m: {MEM}", [src, index, memory])
    want = TABLE.copy().reshape(-1)
    want[index.reshape(-1)] = src.reshape(-1)
    np.testing.assert_array_equal(memory, want.reshape(16, 8))


def test_index_outside_the_memory_is_a_located_error() -> None:
    index = np.full((4, 8), TABLE.size, np.int32)
    line = f"pto.mgather ins(%m, %i : {MEM}, {IDX}) outs(%d : {F})"
    with pytest.raises(UserError, match=r"k.mlir:2:3: .*indexes outside the 128-element memory"):
        run(line, f"%m: {MEM}, %i: {IDX}, %d: {F}", [TABLE, index, np.zeros((4, 8), np.float32)])


def test_gather_from_global_views_with_a_scratch_tile() -> None:
    """PTOAS main's forms: the table and the indices as global partition views, and an
    optional scratch tile before the destination."""
    table_view = "!pto.partition_tensor_view<16x8xf32>"
    index_view = "!pto.partition_tensor_view<4x8xi32>"
    index = rng.integers(0, TABLE.size, (4, 8)).astype(np.int32)
    dst, scratch = np.zeros((4, 8), np.float32), np.zeros((4, 8), np.int32)
    line = (
        f"pto.mgather ins(%m, %i, %s : {table_view}, {index_view}, {IDX}) outs(%d : {F}) "
        "{coalesce = #pto.coalesce<elem>}"
    )
    params = f"%m: {table_view}, %i: {index_view}, %s: {IDX}, %d: {F}"
    run(line, params, [TABLE, index, scratch, dst])
    np.testing.assert_array_equal(dst, TABLE.reshape(-1)[index])
