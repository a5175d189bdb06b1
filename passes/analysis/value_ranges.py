"""What range of values an index SSA value can take, as XLA's `GetRange` sees it.

Sources of ranges:
* `arith.constant` of an integer or index: a point;
* `xla.range = [LB : index, UB : index]` on the defining op or on a function
  argument (thread ids, block ids, subgraph indices);
* an `scf.for` induction variable with constant bounds: `[lb, ub - 1]`;
* an `apply_indexing` result: the range of its expression over the map's
  domain, narrowed by the ranges of its operands;
* an `xla.loop` induction variable (its range variable's bounds) or map
  result (its expression's range);
* `arith.addi/subi/muli/minsi/maxsi/index_cast` of ranged operands (interval
  arithmetic).

Anything else is unknown (None). The analysis follows at most a bounded
number of producers so that long chains stay linear.
"""

from __future__ import annotations

import dataclasses

from xdsl.dialects import arith, scf
from xdsl.ir import BlockArgument, OpResult, SSAValue
from xla_emit.dialects.xla import ApplyIndexingOpBase, LoopOpBase, get_xla_range
from xla_emit.passes.loop_utils import constant_int, static_bounds

from xla_emit.indexing import IndexingMap, Interval, Variable

_MAX_DEPTH = 16


def value_range(value: SSAValue, depth: int = 0) -> Interval | None:
    """The inclusive range `value` lies in, or None if nothing is known."""
    if depth > _MAX_DEPTH:
        return None
    if isinstance(value, BlockArgument):
        return _block_argument_range(value)
    assert isinstance(value, OpResult)
    if (constant := constant_int(value)) is not None:
        return Interval.point(constant)
    op = value.op
    if (declared := get_xla_range(op)) is not None:
        return declared
    if isinstance(op, ApplyIndexingOpBase):
        narrowed = narrowed_map(op, depth)
        return narrowed.expression_range(narrowed.results[op.res.index(value)])
    if isinstance(op, arith.IndexCastOp):
        return value_range(op.input, depth + 1)
    if isinstance(op, arith.AddiOp | arith.SubiOp | arith.MuliOp | arith.MinSIOp | arith.MaxSIOp):
        lhs = value_range(op.lhs, depth + 1)
        rhs = value_range(op.rhs, depth + 1)
        if lhs is None or rhs is None:
            return None
        if isinstance(op, arith.AddiOp):
            return lhs + rhs
        if isinstance(op, arith.SubiOp):
            return lhs + rhs * Interval.point(-1)
        if isinstance(op, arith.MuliOp):
            return lhs * rhs
        if isinstance(op, arith.MinSIOp):
            return lhs.min(rhs)
        return lhs.max(rhs)
    return None


def _block_argument_range(arg: BlockArgument) -> Interval | None:
    if (declared := get_xla_range(arg)) is not None:
        return declared
    parent = arg.block.parent_op()
    if isinstance(parent, scf.ForOp) and arg.index == 0:
        bounds = static_bounds(parent)
        if bounds is not None and bounds.step > 0 and bounds.trip_count > 0:
            return Interval(bounds.lower, bounds.upper - 1)
    if isinstance(parent, LoopOpBase):
        indexing_map = parent.indexing_map
        if arg in parent.induction_vars:
            return indexing_map.range_vars[arg.index].bounds
        if arg in parent.map_results:
            position = arg.index - parent.num_induction_vars
            return indexing_map.expression_range(indexing_map.results[position])
    return None


def narrowed_map(op: ApplyIndexingOpBase, depth: int = 0) -> IndexingMap:
    """`op`'s map with each variable's bounds intersected with its operand's range."""
    indexing_map = op.indexing_map
    variables = [*indexing_map.dim_vars, *indexing_map.range_vars, *indexing_map.rt_vars]
    narrowed: list[Variable] = []
    for variable, operand in zip(variables, op.arguments, strict=True):
        known = value_range(operand, depth + 1)
        bounds = variable.bounds if known is None else variable.bounds.intersect(known)
        # Disjoint ranges mean the op is unreachable; keep the declared bounds then.
        narrowed.append(Variable(variable.bounds if bounds.is_empty else bounds, variable.name))
    num_dims = len(indexing_map.dim_vars)
    num_range = len(indexing_map.range_vars)
    return dataclasses.replace(
        indexing_map,
        dim_vars=tuple(narrowed[:num_dims]),
        range_vars=tuple(narrowed[num_dims : num_dims + num_range]),
        rt_vars=tuple(narrowed[num_dims + num_range :]),
    )
