"""`xla-erase-dead-functions`: remove functions no public function reaches.

Public functions (the kernels' entry points) are the roots; any symbol
reference counts as a use (`func.call`, `pure_call`, a `combiner=@f`). Private
functions outside that closure, including declarations, are erased.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xla_emit.passes.analysis.call_graph import function_table, is_public, reachable_functions


@dataclass(frozen=True)
class EraseDeadFunctionsPass(ModulePass):
    """Erases every function that no public function can reach. No options."""

    name = "xla-erase-dead-functions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        table = function_table(op)
        roots = [name for name, function in table.items() if is_public(function)]
        live = reachable_functions(roots, table)
        for name, function in table.items():
            if name not in live:
                Rewriter.erase_op(function)
