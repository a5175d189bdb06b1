"""Checks of passes that PTOAS's `ptoas` pipeline runs on every compile
(`tools/ptoas/ptoas.cpp`), beyond op verifiers:

- `PTOValidateIntToPtrUses`: a pointer made by `pto.inttoptr` is only the pointer
  operand of `pto.load_scalar` / `pto.store_scalar` (it names a scalar in global
  memory; no view, offset or tile op may be built on it).
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xla_emit.passes.diagnostics import OpError

SCALAR_ACCESSES = ("pto.load_scalar", "pto.store_scalar")


def check_inttoptr_uses(module: ModuleOp) -> None:
    for op in module.walk():
        if op.name != "pto.inttoptr":
            continue
        pointer = op.results[0]
        for use in pointer.uses:
            user = use.operation
            if user.name in SCALAR_ACCESSES and getattr(user, "ptr", None) is pointer:
                continue
            raise OpError(
                op,
                "result may only be used as the pointer operand of pto.load_scalar or "
                f"pto.store_scalar; found use by '{user.name}'",
            )


def check_pipeline(module: ModuleOp) -> None:
    """Raise `OpError` at the first op a pipeline check rejects."""
    check_inttoptr_uses(module)
