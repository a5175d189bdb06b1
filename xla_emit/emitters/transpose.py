"""The transpose emitter: 32x32 tiles through shared memory, coalesced on both sides.

The hero transposes `input[D_0, ..., D_{r-1}]` by `permutation` (output dim
`j` is input dim `permutation[j]`) and moves the minor-most dim. Each block
handles one tile: 32 elements along the input's minor dim and 32 along the
input dim that becomes the output's minor dim (1 along every other dim).
128 threads (4 rows of 32) read the tile row by row, so consecutive threads
read consecutive input elements, into a shared tensor laid out in the
output's dim order with the minor dim padded to 33 (no bank conflicts when
the columns are read back); after `xla_gpu.sync_threads` they write the
output the same way, running the epilogue on the way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import func, tensor
from xdsl.dialects.builtin import TensorType
from xdsl.ir import SSAValue

from xla_emit.dialects.xla import YieldOp
from xla_emit.dialects.xla_gpu import AllocateSharedOp, SyncThreadsOp
from xla_emit.emitters.entry import (
    EntryFunction,
    begin_entry_function,
    begin_loop,
    insert_element,
)
from xla_emit.emitters.functions import FusionFunctions, Subgraph
from xla_emit.emitters.hero import FusionAnalysis
from xla_emit.emitters.launch import LaunchDimensions
from xla_emit.emitters.subgraphs import emit_epilogue
from xla_emit.emitters.types import builder_at_end, element_type
from xla_emit.emitters.work_items import BLOCK_X, THREAD_X, delinearize, grid_dim_vars
from xla_emit.hlo.ir import HloInstruction
from xla_emit.indexing.affine import AffineExpr, SymbolExpr
from xla_emit.indexing.indexing_map import IndexingMap, Variable
from xla_emit.indexing.interval import Interval, ceil_div

TILE_SIZE = 32
NUM_ROWS = 4
NUM_THREADS = TILE_SIZE * NUM_ROWS
VECTOR_SIZE = 1


@dataclass(frozen=True)
class TransposeTiling:
    """Tile sizes and counts of a transpose, in the input's dim order."""

    input_shape: tuple[int, ...]
    permutation: tuple[int, ...]

    @property
    def block_sizes(self) -> tuple[int, ...]:
        sizes = [1] * len(self.input_shape)
        sizes[-1] = TILE_SIZE
        sizes[self.permutation[-1]] = TILE_SIZE
        return tuple(sizes)

    @property
    def block_counts(self) -> tuple[int, ...]:
        return tuple(
            ceil_div(size, block)
            for size, block in zip(self.input_shape, self.block_sizes, strict=True)
        )

    @property
    def output_shape(self) -> tuple[int, ...]:
        return tuple(self.input_shape[d] for d in self.permutation)

    @property
    def output_block_sizes(self) -> tuple[int, ...]:
        return tuple(self.block_sizes[d] for d in self.permutation)

    @property
    def shared_shape(self) -> tuple[int, ...]:
        """The output-ordered tile, its minor dim padded by one against bank conflicts."""
        sizes = list(self.output_block_sizes)
        sizes[-1] += 1
        return tuple(sizes)

    @property
    def launch(self) -> LaunchDimensions:
        num_blocks = 1
        for count in self.block_counts:
            num_blocks *= count
        return LaunchDimensions(threads_x=NUM_THREADS, blocks_x=num_blocks)

    def range_vars(self) -> tuple[Variable, Variable]:
        """`[i, j]`: the row of the thread's pass over the tile, and the vector element."""
        return (
            Variable(Interval(0, TILE_SIZE // NUM_ROWS - 1), "i"),
            Variable(Interval(0, VECTOR_SIZE - 1), "j"),
        )

    def thread_offsets(self, tile_sizes: Sequence[int]) -> tuple[AffineExpr, ...]:
        """The thread's position inside a tile of `tile_sizes`, row by row of 128 elements."""
        linear = (
            SymbolExpr(0) * (NUM_THREADS * VECTOR_SIZE) + THREAD_X * VECTOR_SIZE + SymbolExpr(1)
        )
        return delinearize(linear, tile_sizes)

    def block_ids(self) -> tuple[AffineExpr, ...]:
        """The tile's coordinates, in the input's dim order."""
        return delinearize(BLOCK_X, self.block_counts)

    def grid_map(
        self, results: Sequence[AffineExpr], bounds: Sequence[tuple[AffineExpr, int]]
    ) -> IndexingMap:
        indexing_map = IndexingMap(
            grid_dim_vars(self.launch), self.range_vars(), (), tuple(results)
        )
        for expr, size in bounds:
            indexing_map = indexing_map.with_constraint(expr, Interval(0, size - 1))
        return indexing_map.simplify()

    def read_map(self) -> IndexingMap:
        """(th_x, bl_x)[i, j] -> (input index..., shared index...): the coalesced read."""
        offsets = self.thread_offsets(self.block_sizes)
        input_index = [
            b * size + t
            for b, size, t in zip(self.block_ids(), self.block_sizes, offsets, strict=True)
        ]
        shared_index = [offsets[d] for d in self.permutation]
        bounds = list(zip(input_index, self.input_shape, strict=True))
        return self.grid_map([*input_index, *shared_index], bounds)

    def write_map(self) -> IndexingMap:
        """(th_x, bl_x)[i, j] -> (output index...): the coalesced write."""
        offsets = self.thread_offsets(self.output_block_sizes)
        block_ids = self.block_ids()
        output_index = [
            block_ids[d] * self.block_sizes[d] + t
            for d, t in zip(self.permutation, offsets, strict=True)
        ]
        return self.grid_map(output_index, list(zip(output_index, self.output_shape, strict=True)))

    def shared_read_map(self) -> IndexingMap:
        """(th_x, bl_x)[i, j] -> (shared index...) for the write loop."""
        offsets = self.thread_offsets(self.output_block_sizes)
        return IndexingMap(grid_dim_vars(self.launch), self.range_vars(), (), offsets).simplify()


def transpose_tiling(analysis: FusionAnalysis) -> TransposeTiling:
    hero = analysis.hero
    return TransposeTiling(hero.operands[0].array_shape.dimensions, tuple(hero.dimensions or ()))


def emit_transpose_entry(
    name: str, fusion: FusionFunctions, analysis: FusionAnalysis, epilogue: Subgraph | None
) -> func.FuncOp:
    """The transpose fusion's entry: read loop, sync, write loop with the epilogue."""
    tiling = transpose_tiling(analysis)
    hero = analysis.hero
    root_shape = analysis.roots[0].array_shape
    entry = begin_entry_function(name, fusion, [root_shape], tiling.launch)
    shared_type = TensorType(element_type(hero.array_shape.element_type), tiling.shared_shape)
    shared = entry.body.insert(AllocateSharedOp(shared_type)).results[0]
    filled = _emit_read_loop(entry, tiling, hero.operands[0], shared)
    synced = entry.body.insert(SyncThreadsOp([filled])).results[0]
    written = _emit_write_loop(entry, tiling, analysis, epilogue, synced)
    return entry.finish([written])


def _emit_read_loop(
    entry: EntryFunction, tiling: TransposeTiling, operand: HloInstruction, shared: SSAValue
) -> SSAValue:
    """Reads the hero's operand tile coalesced and stores it in shared memory."""
    rank = len(tiling.input_shape)
    names = [f"input_dim{d}" for d in range(rank)] + [f"shmem_dim{d}" for d in range(rank)]
    loop = begin_loop(entry, tiling.read_map(), [shared], names)
    builder = builder_at_end(loop.body.block)
    emitter = entry.emitter(builder)
    value = emitter.emit(operand, list(loop.map_results[:rank]))[0]
    insert = insert_element(builder, value, loop.region_iter_args[0], list(loop.map_results[rank:]))
    builder.insert(YieldOp([insert]))
    entry.body.insert(loop)
    return loop.res[0]


def _emit_write_loop(
    entry: EntryFunction,
    tiling: TransposeTiling,
    analysis: FusionAnalysis,
    epilogue: Subgraph | None,
    synced: SSAValue,
) -> SSAValue:
    """Reads the shared tile by output rows, runs the epilogue and writes the output coalesced."""
    rank = len(tiling.output_shape)
    loop = begin_loop(
        entry, tiling.write_map(), [entry.outputs[0]], [f"dim{d}" for d in range(rank)]
    )
    builder = builder_at_end(loop.body.block)
    emitter = entry.emitter(builder)
    shared_map = tiling.shared_read_map()
    grid = [entry.thread_id, entry.block_id]
    shared_index = [
        emitter.apply_grid_expr(expr, shared_map, grid, loop.induction_vars)
        for expr in shared_map.results
    ]
    hero_type = element_type(analysis.hero.array_shape.element_type)
    extract = builder.insert(tensor.ExtractOp(synced, shared_index, hero_type))
    extract.results[0].name_hint = "extracted"
    value = extract.results[0]
    output_index = list(loop.map_results)
    if epilogue is not None:
        emitter.injected[analysis.hero] = [value]
        values, output_index = emit_epilogue(emitter, analysis, epilogue, output_index)
        value = values[0]
    insert = insert_element(builder, value, loop.region_iter_args[0], output_index)
    builder.insert(YieldOp([insert]))
    entry.body.insert(loop)
    return loop.res[0]
