"""What the VMI pass tests share: a verified module from kernel text, and the op and
message of the first error a run of VMI passes raises on it."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import ModuleOp
from xla_emit.passes.analysis.vmi_pass_checks import check_vmi_passes
from xla_emit.passes.diagnostics import OpError

from xla_emit.ir import parse_mlir, verify_module


def verified_module(text: str) -> ModuleOp:
    """`text` parsed and verified, as the passes receive it."""
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)
    return module


def pass_error(module: ModuleOp, flags: list[str]) -> tuple[str, str]:
    """The name of the op the passes `flags` refuse in `module`, and why."""
    with pytest.raises(OpError) as caught:
        check_vmi_passes(module, flags)
    return caught.value.op.name, caught.value.message
