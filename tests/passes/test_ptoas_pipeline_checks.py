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


def _helper(signature: str, body: str) -> str:
    return f"""module attributes {{pto.target_arch = "a5"}} {{
  func.func private @h({signature}) attributes {{pto.tileop.helper}} {{
{body}    return
  }}
}}
"""


VEC = "!pto.tile_buf<vec, 1x16xf32>"


def test_a_tileop_helper_of_register_ops_passes() -> None:
    body = '    %m = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>\n'
    check_pipeline(_module(_helper(f"%t: {VEC}, %n: i32", body)))


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("    pto.barrier <PIPE_V>\n", "tileop helpers must not contain pipe synchronization"),
        (
            "    %z = arith.constant 0 : i32\n"
            "    %v = pto.prmt %z, %z, %z : i32, i32, i32 -> i32\n",
            "tileop helpers must launch a @pto.simt helper instead of containing SIMT "
            "operations directly",
        ),
        (
            f"    %a = pto.alloc_tile : {VEC}\n",
            "tileop helpers must not contain Tile allocation or high-level TileOps",
        ),
        (
            f"    pto.tadd ins(%t, %t : {VEC}, {VEC}) outs(%t : {VEC})\n",
            "tileop helpers must not contain Tile allocation or high-level TileOps",
        ),
    ],
)
def test_what_a_tileop_helper_may_not_hold(body: str, message: str) -> None:
    with pytest.raises(OpError) as caught:
        check_pipeline(_module(_helper(f"%t: {VEC}", body)))
    assert caught.value.message == message


def test_a_tileop_helper_returns_nothing_and_takes_tiles_or_scalars() -> None:
    text = _helper("", "").replace(
        "pto.tileop.helper} {", "pto.tileop.helper} {\n    %c = arith.constant 1 : i32"
    )
    text = text.replace("@h()", "@h() -> i32").replace("    return\n", "    return %c : i32\n")
    with pytest.raises(OpError) as caught:
        check_pipeline(_module(text))
    assert caught.value.message.startswith("tileop helpers must not return values")
    view = "!pto.partition_tensor_view<16xf32>"
    with pytest.raises(OpError) as caught:
        check_pipeline(_module(_helper(f"%v: {view}", "")))
    assert caught.value.message == (
        f"tileop argument #0 must be !pto.tile_buf or a PTO scalar, got {view}"
    )
