"""`pto-validate-vmi-ir`: PTOAS's check that a module is surface VMI IR, the form a
producer hands to layout assignment (the rules: `analysis/vmi_pass_checks.py`)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xla_emit.passes.analysis.vmi_pass_checks import check_producer_boundary


@dataclass(frozen=True)
class PTOValidateVMIIRPass(ModulePass):
    """Rejects VMI types with layouts, layout helpers and VMI values used by other ops."""

    name = "pto-validate-vmi-ir"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_producer_boundary(op)
