"""The module shape PTOAS's VPTO backend compiles (`VPTONormalizeContainer.cpp`, after
`VPTOSplitCVModule.cpp`): a kernel module carrying `pto.kernel_kind` (cube or vector),
or a container whose top level holds only such kernel modules.

A module gets its kind from its source, from the core inference every `ptoas` run does
first (`uncovered_tile_sections.py`), or from the split of a module with cube and vector
sections into one module per kind. The inference also counts VPTO micro-ops and MTE
copies by interfaces ours do not record, so this check takes only the case where no pass
can give a kind: a child module without `pto.kernel_kind` in which nothing is a `pto`
op, a section or a register value, inside a container without a kind whose own
functions hold no such op either. PTOAS then refuses the child: "expected VPTO kernel
submodule to carry 'pto.kernel_kind'". `check_vpto_container` raises `OpError` at it.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xla_emit.dialects.pto.vpto_types import AlignType, MaskType, VRegType
from xla_emit.passes.diagnostics import OpError

KERNEL_KIND = "pto.kernel_kind"


def check_vpto_container(module: ModuleOp) -> None:
    if KERNEL_KIND in module.attributes:
        return
    children = [op for op in module.body.ops if isinstance(op, ModuleOp)]
    outer_ops = [op for op in module.body.ops if not isinstance(op, ModuleOp)]
    if not children or any(_may_carry_a_kind(op) for op in outer_ops):
        return
    for child in children:
        if KERNEL_KIND not in child.attributes and not _may_carry_a_kind(child):
            raise OpError(child, "expected VPTO kernel submodule to carry 'pto.kernel_kind'")


def _may_carry_a_kind(op: Operation) -> bool:
    """Whether anything in `op` could let a PTOAS pass infer a core for it."""
    for nested in op.walk():
        if nested.name.startswith("pto.") or KERNEL_KIND in nested.attributes:
            return True
        kinds = [v.type for v in nested.operands] + [r.type for r in nested.results]
        if any(isinstance(k, VRegType | MaskType | AlignType) for k in kinds):
            return True
    return False
