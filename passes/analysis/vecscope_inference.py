"""The error of PTOAS's `pto.vecscope` inference (`PTOInferVPTOVecScope.cpp`, in the VPTO
emission pipeline): a register value that cannot stay inside the scope it must live in.

Vector registers, masks and align state (`!pto.vreg`, `!pto.mask`, `!pto.align`) exist
only inside a vector scope. PTOAS wraps each run of ops between boundaries in a
resultless `pto.vecscope` of its vector ops; a boundary is an explicit (strict) vecscope,
a terminator, a `func.call`, `pto.barrier` / `pto.barrier_sync`, the block queries and
sorts a vector scope may not hold (`get_block_idx`, `get_block_num`, `vbitsort`,
`vmrgsort4`), or an op with regions that is not structured control flow (`scf.if`,
`scf.for`, `scf.while`) holding vector ops and no boundary. A register value made in
one run and used past its boundary would have to leave its scope, which a resultless
scope cannot give. PTOAS first rebuilds such a value in each later run where its
producer has no memory effect; a load (`vlds`, `vldsx2`, `vldas`, `vldus`, `vsldb`, the
gathers) cannot be rebuilt, so PTOAS refuses it: "cannot infer resultless pto.vecscope
because VPTO vector-scope data cannot have external users".

This check names only those loads: an op whose memory effects we do not record counts
as one that stays inside the run (no boundary), so it refuses only what PTOAS refuses.
Blocks nested in boundary ops are checked too. `check_vecscope_escapes` raises
`OpError` at the load.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Block, Operation
from xdsl.traits import IsTerminator
from xla_emit.dialects.pto.vpto_types import AlignType, MaskType, VRegType
from xla_emit.passes.diagnostics import OpError

SCOPES = frozenset({"pto.vecscope", "pto.strict_vecscope"})
BOUNDARIES = frozenset(
    {
        "func.call",
        "pto.barrier",
        "pto.barrier_sync",
        "pto.get_block_idx",
        "pto.get_block_num",
        "pto.vbitsort",
        "pto.vmrgsort4",
    }
)
CONTROL_FLOW = frozenset({"scf.if", "scf.for", "scf.while"})
SCOPED_WITHOUT_REGISTERS = frozenset({"pto.mem_bar", "pto.sprclr"})
LOADS = frozenset(
    {
        "pto.vlds",
        "pto.vldsx2",
        "pto.vldas",
        "pto.vldus",
        "pto.vsldb",
        "pto.vgather2",
        "pto.vgather2_bc",
        "pto.vgatherb",
    }
)


def check_vecscope_escapes(module: ModuleOp) -> None:
    for op in module.walk():
        if op.name == "func.func":
            for block in op.regions[0].blocks:
                _check_block(block)


def _check_block(block: Block) -> None:
    runs: list[list[Operation]] = [[]]
    for op in block.ops:
        if _is_boundary(op):
            runs.append([])
            if op.name not in SCOPES:
                for region in op.regions:
                    for nested in region.blocks:
                        _check_block(nested)
        else:
            runs[-1].append(op)
    for run in runs:
        _check_run(run, block)


def _check_run(run: list[Operation], block: Block) -> None:
    members = {id(op) for op in run}
    for op in run:
        if op.name not in LOADS:
            continue
        for result in op.results:
            if not _is_register(result.type):
                continue
            for use in result.uses:
                if id(_ancestor_in(use.operation, block)) not in members:
                    raise OpError(
                        op,
                        "cannot infer resultless pto.vecscope because VPTO vector-scope data "
                        f"cannot have external users; escaping value type is '{result.type}'",
                    )


def _ancestor_in(op: Operation, block: Block) -> Operation | None:
    current: Operation | None = op
    while current is not None and current.parent_block() is not block:
        current = current.parent_op()
    return current


def _is_register(kind: Attribute) -> bool:
    return isinstance(kind, VRegType | MaskType | AlignType)


def _is_boundary(op: Operation) -> bool:
    if op.name in SCOPES or op.name in BOUNDARIES or op.has_trait(IsTerminator):
        return True
    if _is_vector(op) or not op.regions:
        return False
    return not _atomic_control_flow(op)


def _is_vector(op: Operation) -> bool:
    if not op.name.startswith("pto."):
        return False
    kinds = [v.type for v in op.operands] + [r.type for r in op.results]
    return any(_is_register(k) for k in kinds) or op.name in SCOPED_WITHOUT_REGISTERS


def _atomic_control_flow(op: Operation) -> bool:
    """scf.if/for/while kept whole: vector ops in its regions' blocks, no boundary."""
    if op.name not in CONTROL_FLOW:
        return False
    vector = False
    for region in op.regions:
        for block in region.blocks:
            for nested in block.ops:
                if nested.has_trait(IsTerminator):
                    continue
                if _is_boundary(nested):
                    return False
                vector = vector or _is_vector(nested) or nested.name in CONTROL_FLOW
    return vector
