"""The linear (row-major) index of an N-d tensor access, as one indexing map.

Flattening replaces `t[%i, %j, %k]` by `t[linear]`. When the indices are
themselves `apply_indexing` results (they are, after loop lowering), their
maps are composed with the linearization so that one `apply_indexing` over
the original operands computes the linear index, simplified by the indexing
library. For the seed's GELU the three maps
`(th_x, bl_x)[vector_index] -> (bl_x floordiv 4096, ...)` and the shape
6x512x4096 give `(th_x, bl_x, vector_index) -> (th_x * 4 + bl_x * 512 + vector_index)`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.ir import SSAValue

from dialects.xla import ApplyIndexingOpBase
from passes.loop_utils import constant_int
from xla_emit.indexing import (
    AffineExpr,
    ConstantExpr,
    DimExpr,
    IndexingMap,
    Interval,
    Variable,
    compose_indexing_maps,
    linearize_map,
)


@dataclass
class _Leaves:
    """The SSA values the composed map reads, each a dim with its bounds and name."""

    values: list[SSAValue] = dataclasses.field(default_factory=list[SSAValue])
    variables: list[Variable] = dataclasses.field(default_factory=list[Variable])

    def dim_for(self, value: SSAValue, bounds: Interval, name: str) -> AffineExpr:
        if (constant := constant_int(value)) is not None:
            return ConstantExpr(constant)
        for position, known in enumerate(self.values):
            if known is value:
                old = self.variables[position]
                self.variables[position] = Variable(old.bounds.intersect(bounds), old.name)
                return DimExpr(position)
        taken = {variable.name for variable in self.variables}
        self.values.append(value)
        self.variables.append(Variable(bounds, name if name not in taken else ""))
        return DimExpr(len(self.values) - 1)


def _index_expr(index: SSAValue, size: int, leaves: _Leaves) -> AffineExpr:
    """`index` as an expression over leaves, looking through one apply_indexing."""
    producer = index.owner
    if isinstance(producer, ApplyIndexingOpBase) and not producer.indexing_map.rt_vars:
        indexing_map = producer.indexing_map
        position = producer.res.index(index)
        variables = (*indexing_map.dim_vars, *indexing_map.range_vars)
        operands = [
            leaves.dim_for(operand, variable.bounds, variable.name)
            for operand, variable in zip(producer.arguments, variables, strict=True)
        ]
        num_dims = indexing_map.num_dims
        return indexing_map.results[position].substitute(operands[:num_dims], operands[num_dims:])
    # A plain index must be in bounds for the access to be valid.
    return leaves.dim_for(index, Interval(0, size - 1), "")


def linear_index(
    shape: Sequence[int], indices: Sequence[SSAValue]
) -> tuple[IndexingMap, list[SSAValue]]:
    """A one-result map and its operands (all dims) computing the row-major linear index."""
    leaves = _Leaves()
    exprs = tuple(
        _index_expr(index, size, leaves) for index, size in zip(indices, shape, strict=True)
    )
    accesses = IndexingMap(tuple(leaves.variables), (), (), exprs)
    linear = compose_indexing_maps(accesses, linearize_map(tuple(shape))).simplify()
    # Composition records "index within its dimension" as constraints; an access is
    # in bounds by definition, and apply_indexing takes no constraints.
    return dataclasses.replace(linear, constraints=()), leaves.values


def constant_result(indexing_map: IndexingMap) -> int | None:
    """The map's single result if it is a constant."""
    (result,) = indexing_map.results
    return result.value if isinstance(result, ConstantExpr) else None
