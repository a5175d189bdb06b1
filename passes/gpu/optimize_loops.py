"""`xla-gpu-optimize-loops`: unroll small static `scf.for` loops.

XLA's `optimize_loops.cc` rule, restated:

* only loops with constant lower bound 0, step 1 and a constant trip count T;
* never a loop whose body calls a function (`func.call`, `pure_call`), holds
  another `scf.for`, or uses `math.acos/acosh/asin/asinh/atanh/sinh` (their
  expansions are large and unrolling them does not pay);
* T <= max_unroll_factor and T * body_size <= 400: unroll fully;
* otherwise unroll by f = min(T, 400 // body_size), lowered until it divides T,
  where body_size counts 1 per op and 20 per expensive float `math` op, times
  the vector width of the op's result.

400 is XLA's `kMaxSize` ("chosen empirically"): it caps every unrolled body,
so however large `max_unroll_factor` is, a loop grows by at most 400 ops'
worth (a factor of 10^6 on a 10^5-trip loop would otherwise print 10^5
copies of its body).

Full unrolling turns the seed's `scf.for %vector_index = 0 to 4` into four
copies of the body at the constant positions `%vector_index`, `%vector_index_1`, ...
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, math, scf
from xdsl.dialects.builtin import ModuleOp, VectorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import PassFailedException

from dialects.xla import PureCallOpBase
from passes.loop_utils import clone_body, insert_index_constant, static_bounds

# Size budget XLA gives a partially unrolled body.
_UNROLL_BUDGET = 400
_EXPENSIVE_MATH_COST = 20

# math ops whose lowering is a single cheap instruction.
_CHEAP_MATH_OPS: tuple[type[Operation], ...] = (
    math.AbsFOp,
    math.CeilOp,
    math.CopySignOp,
    math.FloorOp,
    math.FmaOp,
    math.RoundOp,
    math.RoundEvenOp,
    math.RsqrtOp,
    math.SqrtOp,
    math.TruncOp,
)

# math ops that block unrolling altogether.
_BLOCKING_MATH_OPS: tuple[type[Operation], ...] = (
    math.AcosOp,
    math.AcoshOp,
    math.AsinOp,
    math.AsinhOp,
    math.AtanhOp,
    math.SinhOp,
)


def _blocks_unrolling(op: Operation) -> bool:
    return isinstance(op, (func.CallOp, PureCallOpBase, scf.ForOp, *_BLOCKING_MATH_OPS))


def _op_cost(op: Operation) -> int:
    cost = 1
    if op.dialect_name() == "math" and not isinstance(op, _CHEAP_MATH_OPS):
        cost = _EXPENSIVE_MATH_COST
    if op.results and isinstance(vector := op.results[0].type, VectorType):
        cost *= vector.element_count()
    return cost


def body_size(loop: scf.ForOp) -> int:
    """The unrolling cost of one iteration of `loop` (nested regions included)."""
    return sum(_op_cost(op) for op in loop.body.walk())


def partial_unroll_factor(trip_count: int, size: int) -> int:
    """The largest factor <= min(T, budget // size) that divides the trip count."""
    factor = min(trip_count, _UNROLL_BUDGET // max(size, 1))
    while factor > 1 and trip_count % factor != 0:
        factor -= 1
    return factor


@dataclass(frozen=True)
class UnrollLoop(RewritePattern):
    """Unrolls one eligible `scf.for` fully or by a factor."""

    max_unroll_factor: int

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter) -> None:
        bounds = static_bounds(op)
        # Only the canonical `0 to T step 1` form; a partially unrolled loop has a
        # larger step and so is never unrolled twice.
        if bounds is None or bounds.lower != 0 or bounds.step != 1:
            return
        if any(_blocks_unrolling(inner) for inner in op.body.walk()):
            return
        trip_count = bounds.trip_count
        size = body_size(op)
        if trip_count <= self.max_unroll_factor and trip_count * size <= _UNROLL_BUDGET:
            _unroll_fully(op, trip_count, rewriter)
            return
        factor = partial_unroll_factor(trip_count, size)
        if factor > 1:
            _unroll_by(op, factor, rewriter)


def _unroll_fully(loop: scf.ForOp, trip_count: int, rewriter: PatternRewriter) -> None:
    induction_var = loop.body.block.args[0]
    where = InsertPoint.before(loop)
    carried: list[SSAValue] = list(loop.iter_args)
    for iteration in range(trip_count):
        position = insert_index_constant(rewriter, iteration, where, induction_var.name_hint)
        carried = clone_body(rewriter, loop, position, carried, where)
    rewriter.replace(loop, (), carried)


def _unroll_by(loop: scf.ForOp, factor: int, rewriter: PatternRewriter) -> None:
    """`for i in 0..T step 1 {B(i)}` -> `for i in 0..T step f {B(i); B(i+1); ...}`."""
    induction_var = loop.body.block.args[0]
    body = Block(arg_types=[arg.type for arg in loop.body.block.args])
    body.args[0].name_hint = induction_var.name_hint
    for new_arg, old_arg in zip(body.args[1:], loop.body.block.args[1:], strict=True):
        new_arg.name_hint = old_arg.name_hint
    where = InsertPoint.at_end(body)
    carried: list[SSAValue] = list(body.args[1:])
    for offset in range(factor):
        position: SSAValue = body.args[0]
        if offset:
            delta = insert_index_constant(rewriter, offset, where, f"c{offset}")
            shifted = arith.AddiOp(body.args[0], delta)
            shifted.result.name_hint = induction_var.name_hint
            rewriter.insert(shifted, where)
            position = shifted.result
        carried = clone_body(rewriter, loop, position, carried, where)
    rewriter.insert(scf.YieldOp(*carried), where)
    step = insert_index_constant(rewriter, factor, InsertPoint.before(loop), f"c{factor}")
    unrolled = scf.ForOp(loop.lb, loop.ub, step, loop.iter_args, Region(body))
    rewriter.replace(loop, unrolled)


@dataclass(frozen=True)
class OptimizeLoopsPass(ModulePass):
    """Unrolls `scf.for` loops with static bounds (XLA's `xla-gpu-optimize-loops`).

    Options:
    - max_unroll_factor (int, default 4): loops with at most this many
      iterations are unrolled fully, if the unrolled body stays within XLA's
      size budget (400); 0 means the default. Other loops are unrolled by the
      largest factor that divides the trip count and keeps the body within
      that budget.
    """

    name = "xla-gpu-optimize-loops"

    max_unroll_factor: int = 4

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.max_unroll_factor < 0:
            raise PassFailedException(
                f"max_unroll_factor must be >= 0, but got {self.max_unroll_factor}"
            )
        factor = self.max_unroll_factor or 4
        PatternRewriteWalker(UnrollLoop(factor), apply_recursively=True).rewrite_module(op)
