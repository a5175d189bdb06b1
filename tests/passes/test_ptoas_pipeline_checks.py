"""`pto.inttoptr`: PTOAS main's op verifier (`dialects/pto/scalar_ptr_rules.py`) and its
pipeline's use check (`passes/analysis/ptoas_pipeline_checks.py`), on kernels of ours."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import ModuleOp
from xla_emit.passes.analysis.ptoas_pipeline_checks import check_pipeline
from xla_emit.passes.diagnostics import OpError

from xla_emit.diagnostics import UserError
from xla_emit.ir import parse_mlir, verify_module


def _kernel(address: str = "i64", element: str = "ui32", use: str = "") -> str:
    return f"""func.func @k(%a: {address}, %q: !pto.ptr<!pto.ptr<ui32>>, %i: index) {{
  %c0 = arith.constant 0 : index
  %p = pto.inttoptr %a : {address} -> !pto.ptr<{element}>
  %v = pto.load_scalar %p[%c0] : !pto.ptr<{element}> -> {element}
  pto.store_scalar %v, %p[%c0] : !pto.ptr<{element}>, {element}
{use}  return
}}
"""


def _module(text: str) -> ModuleOp:
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)
    return module


def test_scalar_accesses_through_an_address_verify() -> None:
    check_pipeline(_module(_kernel()))


@pytest.mark.parametrize(
    ("address", "element", "message"),
    [
        ("i32", "ui32", "address operand must be i64"),
        ("i64", "index", "result element type is not supported by EmitC: 'index'"),
    ],
)
def test_the_op_rules(address: str, element: str, message: str) -> None:
    with pytest.raises(UserError) as caught:
        _module(_kernel(address, element))
    assert caught.value.message.endswith(message)
    assert caught.value.location is not None and caught.value.location.line == 3


@pytest.mark.parametrize(
    ("use", "user"),
    [
        ("  %r = pto.addptr %p, %i : !pto.ptr<ui32> -> !pto.ptr<ui32>\n", "pto.addptr"),
        # the pointer stored as a value, not as the place stored to
        (
            "  pto.store_scalar %p, %q[%c0] : !pto.ptr<!pto.ptr<ui32>>, !pto.ptr<ui32>\n",
            "pto.store_scalar",
        ),
    ],
)
def test_only_scalar_accesses_use_the_pointer(use: str, user: str) -> None:
    module = _module(_kernel(use=use))
    with pytest.raises(OpError) as caught:
        check_pipeline(module)
    assert caught.value.op.name == "pto.inttoptr"
    assert caught.value.message == (
        "result may only be used as the pointer operand of pto.load_scalar or "
        f"pto.store_scalar; found use by '{user}'"
    )
