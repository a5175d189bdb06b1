"""`inline`: inline calls to functions of the same module, with XLA's rules.

Call sites are `func.call` and `xla.pure_call`/`xla_gpu.pure_call`. A call is
inlined unless

* the callee or the call carries `noinline`;
* the callee is recursive, or has more than one block;
* the caller calls this callee more than once (XLA keeps one copy instead of
  cloning the body for every call site);
* the caller would grow beyond `max-caller-ops` operations (XLA: 4000).

A callee marked `xla.has_no_compute` (only index transformations: bitcast,
broadcast, transpose, ...; today's XLA writes `no_compute = true`) is always
inlined, whatever the counts say.
As MLIR's inliner does, functions are visited callees first, and each function
that received inlined code is cleaned with CSE before its callers inline it (XLA
runs its inliner with a CSE pipeline): a callee's duplicates are merged once,
not copied into every caller. Without that, levels of shared subexpressions (a
threefry hash) grow with every level. A private callee left without references
after inlining is erased; `xla-erase-dead-functions` handles the rest.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.common_subexpression_elimination import cse
from xdsl.utils.exceptions import PassFailedException
from xla_emit.dialects.xla import PureCallOpBase
from xla_emit.passes.analysis.call_graph import (
    callees,
    function_table,
    is_public,
    recursive_functions,
    referenced_symbols,
)

NOINLINE = "noinline"
HAS_NO_COMPUTE = "xla.has_no_compute"
# Today's XLA spells the mark `no_compute = true` on the function (its dumps show it).
NO_COMPUTE = "no_compute"


def call_target(op: Operation) -> str | None:
    """The name of the function a call site calls, or None for other ops."""
    if isinstance(op, func.CallOp | PureCallOpBase):
        callee = op.callee
        assert isinstance(callee, SymbolRefAttr)
        return callee.root_reference.data
    return None


def _op_count(function: func.FuncOp) -> int:
    return sum(1 for _ in function.body.walk())


def _calls_to(caller: func.FuncOp, callee: str) -> int:
    return sum(1 for op in caller.body.walk() if call_target(op) == callee)


@dataclass
class InlineCall(RewritePattern):
    """Replaces one call with a copy of the callee's body, if the rules allow it."""

    table: dict[str, func.FuncOp]
    recursive: set[str]
    max_caller_ops: int
    inlined: set[str]

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: func.CallOp | PureCallOpBase, rewriter: PatternRewriter
    ) -> None:
        name = call_target(op)
        callee = self.table.get(name) if name is not None else None
        caller = op.parent_op()
        while caller is not None and not isinstance(caller, func.FuncOp):
            caller = caller.parent_op()
        if name is None or callee is None or caller is None:
            return
        if not self._may_inline(op, name, callee, caller):
            return
        block = callee.body.block
        mapping: dict[SSAValue, SSAValue] = dict(zip(block.args, op.operands, strict=True))
        returned: list[SSAValue] = []
        for inner in block.ops:
            if isinstance(inner, func.ReturnOp):
                returned = [mapping.get(v, v) for v in inner.arguments]
                continue
            rewriter.insert(inner.clone(mapping), InsertPoint.before(op))
        rewriter.replace(op, (), returned)
        self.inlined.add(name)

    def _may_inline(
        self, call: Operation, name: str, callee: func.FuncOp, caller: func.FuncOp
    ) -> bool:
        if callee is caller or name in self.recursive:
            return False
        if len(callee.body.blocks) != 1:
            return False  # a declaration, or control flow we cannot splice into a region
        if NOINLINE in call.attributes or NOINLINE in callee.attributes:
            return False
        if HAS_NO_COMPUTE in callee.attributes or NO_COMPUTE in callee.attributes:
            return True
        if _calls_to(caller, name) > 1:
            return False
        return _op_count(caller) + _op_count(callee) <= self.max_caller_ops


@dataclass(frozen=True)
class InlinePass(ModulePass):
    """Inlines `func.call` and `pure_call` callees following XLA's inliner rules.

    Options:
    - max-caller-ops (int, default 4000): a call is not inlined if the caller
      would then hold more operations than this (XLA's size cap).
    """

    name = "inline"

    max_caller_ops: int = 4000

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.max_caller_ops < 0:
            raise PassFailedException(f"max-caller-ops must be >= 0, but got {self.max_caller_ops}")
        table = function_table(op)
        pattern = InlineCall(table, recursive_functions(table), self.max_caller_ops, set())
        walker = PatternRewriteWalker(pattern, apply_recursively=True)
        for name in callees_first(table):
            if walker.rewrite_region(table[name].body):
                cse(table[name].body)
        _erase_unreferenced(op, pattern.inlined, table)


def callees_first(table: dict[str, func.FuncOp]) -> list[str]:
    """Every function after the functions it calls (a depth-first post-order of the call
    graph; in a cycle, the one reached first comes last)."""
    order: list[str] = []
    visited: set[str] = set()
    for root in table:
        if root in visited:
            continue
        visited.add(root)
        stack = [(root, iter(callees(table[root], table)))]
        while stack:
            name, pending = stack[-1]
            following = next((c for c in pending if c not in visited), None)
            if following is None:
                stack.pop()
                order.append(name)
                continue
            visited.add(following)
            stack.append((following, iter(callees(table[following], table))))
    return order


def _erase_unreferenced(module: ModuleOp, inlined: set[str], table: dict[str, func.FuncOp]) -> None:
    still_used = set(referenced_symbols(module))
    for name in sorted(inlined):
        function = table[name]
        if not is_public(function) and name not in still_used:
            Rewriter.erase_op(function)
