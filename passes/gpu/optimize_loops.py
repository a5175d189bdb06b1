"""`xla-gpu-optimize-loops`: unroll small static `scf.for` loops.

XLA's `optimize_loops.cc` rule, restated:

* only loops with constant lower bound 0, step 1 and a constant trip count T;
* never a loop whose body holds a `func.call`, another `scf.for`, or
  `math.acos/acosh/asin/asinh/atanh/sinh` (their expansions are large and
  unrolling them does not pay), nor a `pure_call` to a function that does;
* the body's size counts 1 per op and 20 per float `math` op that is not one
  of the cheap ones, times the vector width of the op's result; a `pure_call`
  counts the size of its callee's body (the XLA of the corpus: newer sources
  weigh `math.exp`/`math.log` 40, which would keep the transpose corpus
  kernels' 8-trip loops with an exp from unrolling fully);
* the loop is unrolled by f = min(T, 400 // size), lowered until it divides T:
  fully (no loop left) when f = T, else into a loop of step f whose body holds
  f copies. Our option `max-unroll-factor` (XLA's pass has none) caps f
  further, before it is lowered to a divisor; 0, the default, caps nothing.

400 is XLA's `kMaxSize` ("chosen empirically"): it caps every unrolled body,
so a 10^5-trip loop grows by at most 400 ops' worth.

XLA runs the rule through MLIR's greedy driver, which also folds what the
copies leave behind; with `greedy-cleanup` (the default) ours does the same
(`passes.greedy_driver`): the copies read the constant positions 0, 1, ...
as static `vector.extract %v[1]`, and constants end up at the function's
start, one per value. Without it, each copy reads its position from an index
constant placed before it (`%vector_index`, `%vector_index_1`, ...), as in
the seed's listings.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, math, scf
from xdsl.dialects.builtin import IndexType, IntegerType, ModuleOp, VectorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import PassFailedException
from xla_emit.dialects.xla import PureCallOpBase
from xla_emit.passes.greedy_driver import finish_like_greedy_driver
from xla_emit.passes.loop_utils import clone_body, insert_index_constant, static_bounds

# Size budget XLA gives an unrolled body (`kMaxSize`).
_UNROLL_BUDGET = 400
_NON_TRIVIAL_MATH_COST = 20

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

# Ops that block unrolling altogether.
_BLOCKING_OPS: tuple[type[Operation], ...] = (
    func.CallOp,
    scf.ForOp,
    math.AcosOp,
    math.AcoshOp,
    math.AsinOp,
    math.AsinhOp,
    math.AtanhOp,
    math.SinhOp,
)


def _math_cost(op: Operation) -> int:
    """XLA's weight of a `math` op: integer ones and the cheap float ones cost 1."""
    if not op.results or isinstance(op.results[0].type, (IntegerType, IndexType)):
        return 1
    if isinstance(op, _CHEAP_MATH_OPS):
        return 1
    return _NON_TRIVIAL_MATH_COST


def _op_size(op: Operation, callee_sizes: dict[func.FuncOp, int | None]) -> int | None:
    """The unrolling cost of `op`, or None if it blocks unrolling."""
    if isinstance(op, _BLOCKING_OPS):
        return None
    if isinstance(op, PureCallOpBase):
        callee = SymbolTable.lookup_symbol(op, op.callee)
        if not isinstance(callee, func.FuncOp) or not callee.body.blocks:
            return None
        if callee not in callee_sizes:
            callee_sizes[callee] = region_size(callee.body, callee_sizes)
        return callee_sizes[callee]
    cost = _math_cost(op) if op.dialect_name() == "math" else 1
    if op.results and isinstance(vector := op.results[0].type, VectorType):
        cost *= vector.element_count()
    return cost


def region_size(
    region: Region, callee_sizes: dict[func.FuncOp, int | None] | None = None
) -> int | None:
    """The unrolling cost of the ops of `region` (nested ones included), None if blocked.

    A pure call costs its callee's body, counted once per callee (`callee_sizes`): calls
    that share callees level after level (`v = add(v, transpose(v))`) would otherwise be
    walked once per path, twice as often per level."""
    sizes = callee_sizes if callee_sizes is not None else {}
    total = 0
    for op in region.walk():
        size = _op_size(op, sizes)
        if size is None:
            return None
        total += size
    return total


def partial_unroll_factor(trip_count: int, size: int, max_factor: int = 0) -> int:
    """The largest factor <= min(T, budget // size) that divides the trip count,
    and <= `max_factor` too when that is positive (0: no cap, as XLA)."""
    factor = min(trip_count, _UNROLL_BUDGET // max(size, 1))
    if max_factor > 0:
        factor = min(factor, max_factor)
    while factor > 1 and trip_count % factor != 0:
        factor -= 1
    return factor


@dataclass(frozen=True)
class UnrollLoop(RewritePattern):
    """Unrolls one eligible `scf.for` fully or by a factor (at most `max_factor`
    when that is positive)."""

    max_factor: int = 0

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter) -> None:
        bounds = static_bounds(op)
        # Only the canonical `0 to T step 1` form; a partially unrolled loop has a
        # larger step and so is never unrolled twice.
        if bounds is None or bounds.lower != 0 or bounds.step != 1:
            return
        size = region_size(op.body)
        if size is None:
            return
        factor = partial_unroll_factor(bounds.trip_count, size, self.max_factor)
        if factor == bounds.trip_count and factor > 1:
            _unroll_fully(op, factor, rewriter)
        elif factor > 1:
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
    - max-unroll-factor (int, default 0): a cap on the factor the size rule picks
      (then the largest divisor of the trip count not above it); 0, XLA's
      behaviour, caps nothing (XLA unrolls by the size budget alone, see the
      module's docstring); it must be >= 0.
    - greedy-cleanup (bool, default true): fold what unrolling leaves behind as XLA's
      greedy driver does (static vector positions, constants merged at the
      function's start, dead ops erased); false keeps the seed's listing form.
    """

    name = "xla-gpu-optimize-loops"

    max_unroll_factor: int = 0
    greedy_cleanup: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.max_unroll_factor < 0:
            raise PassFailedException(
                f"max-unroll-factor must be >= 0, but got {self.max_unroll_factor}"
            )
        PatternRewriteWalker(
            UnrollLoop(self.max_unroll_factor), apply_recursively=True
        ).rewrite_module(op)
        if self.greedy_cleanup:
            finish_like_greedy_driver(ctx, op)
