"""`xla-merge-pointers`: XLA's MergePointersToSameSlicePass, after `xla-lower-tensors`.

XLA passes a kernel one pointer per operand, and two operands may be the same
buffer slice (`xla.slice_index` says which; e.g. an output written in place of
an input). This pass:

* replaces every pointer argument whose slice an earlier argument already has
  by that argument; a function of the kernel drops it from its signature (and
  every call of it drops it, so callers and callees stay in step), while the
  kernel itself (`xla.entry`) keeps it, unused: its parameters are the launch's;
* marks the pointers `llvm.noalias`: once merged, no two used ones overlap;
* drops `xla.slice_index`, which says nothing once each slice has one pointer.

Arguments without `xla.slice_index` are left as they are.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IntegerAttr,
    ModuleOp,
    UnitAttr,
)
from xdsl.ir import Attribute
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

SLICE_INDEX = "xla.slice_index"
NOALIAS = "llvm.noalias"


@dataclass(frozen=True)
class MergePointersToSameSlicePass(ModulePass):
    """Pointer arguments of one buffer slice become one; all `noalias` (XLA's
    MergePointersToSameSlicePass, `xla-merge-pointers`). No options."""

    name = "xla-merge-pointers"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        dropped = {
            function.sym_name.data: merge_arguments(function)
            for function in op.walk()
            if isinstance(function, func.FuncOp)
        }
        for call in [c for c in op.walk() if isinstance(c, func.CallOp)]:
            positions = dropped.get(call.callee.string_value(), [])
            if positions:
                kept = [a for i, a in enumerate(call.arguments) if i not in positions]
                Rewriter.replace_op(
                    call, func.CallOp(call.callee, kept, [r.type for r in call.results])
                )


def merge_arguments(function: func.FuncOp) -> list[int]:
    """Merges the function's pointers to one slice; the positions of those dropped."""
    given = function.arg_attrs.data if function.arg_attrs is not None else ()
    attrs: list[dict[str, Attribute]] = [dict(a.data) for a in given]
    attrs += [{} for _ in range(len(function.function_type.inputs.data) - len(attrs))]
    first_of_slice: dict[int, int] = {}
    # Position of an argument -> that of the earlier argument of its slice.
    merged: dict[int, int] = {}
    for i, arg_attrs in enumerate(attrs):
        index = slice_of(arg_attrs)
        input_type = function.function_type.inputs.data[i]
        if index is None or not isinstance(input_type, llvm.LLVMPointerType):
            continue
        if index in first_of_slice:
            merged[i] = first_of_slice[index]
        else:
            first_of_slice[index] = i
        arg_attrs.pop(SLICE_INDEX)
        attrs[i] = {NOALIAS: UnitAttr(), **arg_attrs}
    block = function.body.blocks.first
    if block is not None:
        for i, first in merged.items():
            block.args[i].replace_all_uses_with(block.args[first])
    if "xla.entry" in function.attributes:
        described: list[DictionaryAttr] = [DictionaryAttr(a) for a in attrs]
        function.arg_attrs = ArrayAttr(described)
        return []
    dropped = sorted(merged)
    if block is not None:
        for i in reversed(dropped):
            block.erase_arg(block.args[i])
    inputs = [t for i, t in enumerate(function.function_type.inputs.data) if i not in dropped]
    outputs = list(function.function_type.outputs.data)
    function.function_type = FunctionType.from_lists(inputs, outputs)
    kept_attrs: list[DictionaryAttr] = [
        DictionaryAttr(a) for i, a in enumerate(attrs) if i not in dropped
    ]
    if function.arg_attrs is not None or any(kept_attrs):
        function.arg_attrs = ArrayAttr(kept_attrs)
    return dropped


def slice_of(arg_attrs: dict[str, Attribute]) -> int | None:
    value = arg_attrs.get(SLICE_INDEX)
    return value.value.data if isinstance(value, IntegerAttr) else None
