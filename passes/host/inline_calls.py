"""`xla-host-inline-calls`: every call of a one-block function replaced by its body.

XLA's inliner keeps a reducer that a kernel calls many times as one function
(`inline` follows its rules). On the host the kernel is compiled by LLVM, which
inlines small functions anyway, and `xla-lower-to-llvm` lowers calls of one
result only: a variadic reducer (argmax's `(f32, i32)`) must be inlined first.
Callees left without calls are erased by `xla-erase-dead-functions`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xla_emit.passes.analysis.call_graph import function_table, recursive_functions
from xla_emit.passes.gpu.inline import call_target, callees_first


@dataclass(frozen=True)
class HostInlineCallsPass(ModulePass):
    name = "xla-host-inline-calls"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        table = function_table(op)
        recursive = recursive_functions(table)
        for name in callees_first(table):
            for call in [c for c in table[name].walk() if call_target(c) is not None]:
                target = call_target(call) or ""
                if target in table and target not in recursive:
                    inline(call, table[target])


def inline(call: Operation, callee: func.FuncOp) -> None:
    if len(callee.body.blocks) != 1:
        return  # a declaration, or control flow that cannot be spliced into a region
    block = callee.body.block
    mapping: dict[SSAValue, SSAValue] = dict(zip(block.args, call.operands, strict=True))
    returned: list[SSAValue] = []
    for inner in block.ops:
        if isinstance(inner, func.ReturnOp):
            returned = [mapping.get(v, v) for v in inner.arguments]
            continue
        Rewriter.insert_op(inner.clone(mapping), InsertPoint.before(call))
    Rewriter.replace_op(call, (), returned)
