"""`xla-host-serialize-atomics`: `xla.atomic_rmw` as a read, its body and a write.

The native engine runs a block's threads one after the other and the blocks one
after the other, so no two updates of an element overlap: an atomic
read-modify-write is a `tensor.extract` of the element, the body on it and a
`tensor.insert` of what it yields. The updates happen in thread order, which
the interpreter follows too (on a GPU their order is unspecified). The function
is marked `xla.host_blocks_in_order`: the engine must not run its blocks on
several threads at once. An atomic on a vector of elements is an error at the op.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, tensor
from xdsl.dialects.builtin import ModuleOp, UnitAttr, VectorType
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xla_emit.dialects.xla import AtomicRMWOp
from xla_emit.passes.diagnostics import OpError
from xla_emit.passes.gpu.lower_to_llvm import BLOCKS_IN_ORDER


@dataclass(frozen=True)
class HostSerializeAtomicsPass(ModulePass):
    name = "xla-host-serialize-atomics"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for atomic in [a for a in op.walk() if isinstance(a, AtomicRMWOp)]:
            function = atomic.parent_op()
            while function is not None and not isinstance(function, func.FuncOp):
                function = function.parent_op()
            if function is not None:
                function.attributes[BLOCKS_IN_ORDER] = UnitAttr()
            serialize(atomic)


def serialize(atomic: AtomicRMWOp) -> None:
    body = atomic.body.block
    if len(body.args) != 1 or isinstance(body.args[0].type, VectorType):
        raise OpError(atomic, "xla-host-serialize-atomics: only one element is updated at a time")
    at = InsertPoint.before(atomic)
    current = tensor.ExtractOp(atomic.input, list(atomic.indices), body.args[0].type)
    Rewriter.insert_op(current, at)
    mapping: dict[SSAValue, SSAValue] = {body.args[0]: current.result}
    updated: SSAValue | None = None
    for inner in body.ops:
        if inner is body.last_op:
            updated = mapping.get(inner.operands[0], inner.operands[0])
            continue
        Rewriter.insert_op(inner.clone(mapping), at)
    assert updated is not None
    write = tensor.InsertOp(updated, atomic.input, list(atomic.indices))
    Rewriter.replace_op(atomic, write, [write.result])
