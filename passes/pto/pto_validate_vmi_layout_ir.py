"""`pto-validate-vmi-layout-ir`: PTOAS's check that a module is layout-assigned VMI
IR, the form `-vmi-to-vpto` lowers (the rules: `analysis/vmi_pass_checks.py`)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xla_emit.passes.analysis.vmi_pass_checks import check_layout_assigned


@dataclass(frozen=True)
class PTOValidateVMILayoutIRPass(ModulePass):
    """Rejects VMI types without layouts, pack/unpack and VMI values used by other ops."""

    name = "pto-validate-vmi-layout-ir"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_layout_assigned(op)
