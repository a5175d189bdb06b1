"""The linear (row-major) index of an N-d tensor access, as one indexing map.

Flattening replaces `t[%i, %j, %k]` by `t[linear]`. When the indices are
themselves `apply_indexing` results (they are, after loop lowering), their
maps are composed with the linearization so that one `apply_indexing` over
the original operands computes the linear index, simplified by the indexing
library; chains of `apply_indexing` are looked through to their first operands.
For the seed's GELU the three maps
`(th_x, bl_x)[vector_index] -> (bl_x floordiv 4096, ...)` and the shape
6x512x4096 give `(th_x, bl_x, vector_index) -> (th_x * 4 + bl_x * 512 + vector_index)`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.ir import SSAValue
from xla_emit.dialects.xla import ApplyIndexingOpBase
from xla_emit.passes.loop_utils import constant_int

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


OperandExpr = Callable[[SSAValue, Variable], AffineExpr]


def _producer_of(value: SSAValue) -> ApplyIndexingOpBase | None:
    producer = value.owner
    if isinstance(producer, ApplyIndexingOpBase) and not producer.indexing_map.rt_vars:
        return producer
    return None


def _results_over(op: ApplyIndexingOpBase, operand_expr: OperandExpr) -> list[AffineExpr]:
    """`op`'s results with each operand replaced by `operand_expr(operand, its variable)`."""
    indexing_map = op.indexing_map
    variables = (*indexing_map.dim_vars, *indexing_map.range_vars)
    operands = [
        operand_expr(operand, variable)
        for operand, variable in zip(op.arguments, variables, strict=True)
    ]
    num_dims = indexing_map.num_dims
    return [
        result.substitute(operands[:num_dims], operands[num_dims:])
        for result in indexing_map.results
    ]


def _apply_indexing_expr(value: SSAValue, leaves: _Leaves) -> AffineExpr | None:
    """`value` as an expression over leaves if an `apply_indexing` computes it, looking
    through chains of them (as XLA's `FoldApplyIndexingSequence` does)."""
    producer = _producer_of(value)
    if producer is None:
        return None
    results = _results_over(producer, lambda operand, var: _operand_expr(operand, var, leaves))
    return results[producer.res.index(value)]


def _operand_expr(operand: SSAValue, variable: Variable, leaves: _Leaves) -> AffineExpr:
    expr = _apply_indexing_expr(operand, leaves)
    return expr if expr is not None else leaves.dim_for(operand, variable.bounds, variable.name)


def _index_expr(index: SSAValue, size: int, leaves: _Leaves) -> AffineExpr:
    """`index` as an expression over leaves, looking through apply_indexing ops."""
    if (expr := _apply_indexing_expr(index, leaves)) is not None:
        return expr
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


def _has_one_use(op: ApplyIndexingOpBase) -> bool:
    return sum(result.uses.get_length() for result in op.res) == 1


def _leaf(value: SSAValue, variable: Variable, leaves: _Leaves) -> AffineExpr:
    return leaves.dim_for(value, variable.bounds, variable.name)


def _folded_operand(value: SSAValue, variable: Variable, leaves: _Leaves) -> AffineExpr:
    """`value` over leaves: its producer's expression over the producer's operands if an
    apply_indexing computes it, else a leaf of its own."""
    producer = _producer_of(value)
    if producer is None:
        return _leaf(value, variable, leaves)
    results = _results_over(producer, lambda operand, var: _leaf(operand, var, leaves))
    return results[producer.res.index(value)]


def fold_producers(op: ApplyIndexingOpBase) -> tuple[IndexingMap, list[SSAValue]] | None:
    """`op`'s map with the apply_indexing ops computing its operands folded in, over
    dims only (XLA's `FoldApplyIndexingSequence` after `MoveSymbolsToDims`), and its
    new operands; None unless some operand has such a producer and every such
    producer has no other use (XLA then also requires the folded map to simplify,
    which this does not try to tell)."""
    indexing_map = op.indexing_map
    if indexing_map.rt_vars:
        return None
    producers = [p for operand in op.arguments if (p := _producer_of(operand)) is not None]
    if not producers or not all(_has_one_use(producer) for producer in producers):
        return None
    leaves = _Leaves()
    results = _results_over(op, lambda operand, var: _folded_operand(operand, var, leaves))
    folded = IndexingMap(tuple(leaves.variables), (), (), tuple(results)).simplify()
    return dataclasses.replace(folded, constraints=()), leaves.values
