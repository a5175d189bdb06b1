"""Which output elements each GPU thread computes: the emitters' thread-id indexing maps.

Maps here have the dims `(th_x, bl_x)` (XLA's six grid dims with the point
ones folded away, as canonicalization does) and range variables that a
`xla.loop` iterates over.
"""

from __future__ import annotations

from collections.abc import Sequence

from xla_emit.emitters.launch import LaunchDimensions
from xla_emit.indexing.affine import AffineExpr, ConstantExpr, DimExpr, SymbolExpr
from xla_emit.indexing.indexing_map import IndexingMap, Variable
from xla_emit.indexing.interval import Interval, ceil_div

THREAD_X = DimExpr(0)
BLOCK_X = DimExpr(1)


def grid_dim_vars(launch: LaunchDimensions) -> tuple[Variable, Variable]:
    """`th_x` and `bl_x` with the launch grid's bounds."""
    return (
        Variable(Interval(0, launch.threads_x - 1), "th_x"),
        Variable(Interval(0, launch.blocks_x - 1), "bl_x"),
    )


def delinearize(
    linear: AffineExpr, sizes: Sequence[int], minor_to_major: Sequence[int] | None = None
) -> tuple[AffineExpr, ...]:
    """The multi-index of `linear` in a shape (row-major unless `minor_to_major` says otherwise)."""
    order = (
        list(minor_to_major) if minor_to_major is not None else list(range(len(sizes) - 1, -1, -1))
    )
    results: list[AffineExpr] = [ConstantExpr(0)] * len(sizes)
    divisor = 1
    for dim in order:
        results[dim] = (
            linear.floordiv(divisor).mod(sizes[dim]) if sizes[dim] > 1 else ConstantExpr(0)
        )
        divisor *= sizes[dim]
    return tuple(results)


def linearize(index: Sequence[AffineExpr], sizes: Sequence[int]) -> AffineExpr:
    """The row-major linear position of a multi-index in a shape of `sizes`."""
    linear: AffineExpr = ConstantExpr(0)
    for expr, size in zip(index, sizes, strict=True):
        linear = linear * size + expr
    return linear


def index_dim_vars(shape: Sequence[int]) -> tuple[Variable, ...]:
    """Dims ranging over a shape's indices (a size-0 dim still gets the point 0)."""
    return tuple(Variable(Interval(0, max(size, 1) - 1)) for size in shape)


def default_work_item_map(
    launch: LaunchDimensions,
    unroll_factor: int,
    shape: Sequence[int],
    minor_to_major: Sequence[int] | None = None,
) -> IndexingMap:
    """XLA's default thread-id-to-output map of the loop emitter.

    Thread `th_x` of block `bl_x` handles the `unroll_factor` consecutive
    linear indices starting at `(th_x + bl_x * threads) * unroll`, repeated in
    chunks when the grid covers fewer elements than the shape has. The linear
    index is delinearized in the layout's minor-to-major order, so that
    consecutive threads write consecutive memory.
    """
    num_elements = 1
    for size in shape:
        num_elements *= size
    launch_bound = launch.threads_x * launch.blocks_x
    num_chunks = ceil_div(num_elements, launch_bound * unroll_factor)
    thread_linear = (THREAD_X + BLOCK_X * launch.threads_x) * unroll_factor
    range_vars: list[Variable] = []
    linear = thread_linear
    if num_chunks > 1:
        range_vars.append(Variable(Interval(0, num_chunks - 1), "chunk_id"))
        linear = linear + SymbolExpr(0) * (launch_bound * unroll_factor)
    # As XLA's map, an unvectorized loop has no vector symbol (rather than one of range [0, 0]).
    vector_index: AffineExpr = ConstantExpr(0)
    if unroll_factor > 1:
        vector_index = SymbolExpr(len(range_vars))
        range_vars.append(Variable(Interval(0, unroll_factor - 1), "vector_index"))
    results = delinearize(linear + vector_index, shape, minor_to_major)
    indexing_map = IndexingMap(grid_dim_vars(launch), tuple(range_vars), (), results)
    if num_elements % unroll_factor == 0:
        # Whole vectors are either in or out, so the bound need not mention vector_index.
        indexing_map = indexing_map.with_constraint(
            linear, Interval(0, num_elements - unroll_factor)
        )
    else:
        indexing_map = indexing_map.with_constraint(
            linear + vector_index, Interval(0, num_elements - 1)
        )
    return indexing_map.simplify()
