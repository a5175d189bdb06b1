"""Our `memref` dialect: `memref.reinterpret_cast` verified as MLIR verifies it.

The cases are worked by hand from MLIR's rule: an offset, size or stride is
compared with the result type only where both are static.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import Builtin
from xla_emit.dialects.memref_ext import MEMREF, ReinterpretCastOp

from xla_emit.diagnostics import UserError
from xla_emit.ir import parse_mlir, verify_module

ROOT = Path(__file__).resolve().parents[2]


def _context(memref_dialect: object = MEMREF) -> Context:
    ctx = Context()
    for dialect in (Builtin, func.Func, arith.Arith, memref_dialect):
        ctx.load_dialect(dialect)  # type: ignore[arg-type]
    return ctx


def _kernel(operands: str, result: str) -> str:
    """A kernel casting `%m : memref<16xi16>` with `operands` to `result`."""
    return (
        "func.func @f(%m: memref<16xi16>) {\n"
        "  %c0 = arith.constant 0 : index\n"
        "  %c1 = arith.constant 1 : index\n"
        "  %c16 = arith.constant 16 : index\n"
        f"  %v = memref.reinterpret_cast %m to {operands} : memref<16xi16> to {result}\n"
        "  return\n"
        "}\n"
    )


# PTOAS's own form (test/basic/tci_i16_emitc.pto): dynamic sizes, a static result.
DYNAMIC_SIZES = (
    "offset: [%c0], sizes: [%c1, %c16], strides: [%c16, %c1]",
    "memref<1x16xi16, strided<[16, 1], offset: ?>>",
)


SIZES_2X8 = "offset: [0], sizes: [2, 8], strides: [8, 1]"
FLAT = "offset: [0], sizes: [16], strides: [1]"


def _verify(text: str, ctx: Context | None = None) -> None:
    module, source_map = parse_mlir(text, "cast.mlir", ctx or _context())
    verify_module(module, source_map)


def test_dynamic_sizes_may_give_a_static_result_type() -> None:
    _verify(_kernel(*DYNAMIC_SIZES))


def test_xdsls_own_verifier_rejects_that_form() -> None:
    """The reason for the override: without it, PTOAS's kernel does not verify."""
    with pytest.raises(UserError, match="dynamic size instead of 1 in dim = 0"):
        _verify(_kernel(*DYNAMIC_SIZES), _context(memref.MemRef))


def test_static_operands_may_give_a_dynamic_result_type() -> None:
    _verify(_kernel(SIZES_2X8, "memref<?x8xi16, strided<[?, 1], offset: ?>>"))


@pytest.mark.parametrize(
    ("operands", "result", "message"),
    [
        (
            SIZES_2X8,
            "memref<1x8xi16, strided<[8, 1]>>",
            "expected result type with size = 2 instead of 1 in dim = 0",
        ),
        (
            "offset: [0], sizes: [2, 8], strides: [4, 1]",
            "memref<2x8xi16, strided<[8, 1]>>",
            "expected result type with stride = 4 instead of 8 in dim = 0",
        ),
        (
            "offset: [3], sizes: [2, 8], strides: [8, 1]",
            "memref<2x8xi16, strided<[8, 1], offset: 5>>",
            "expected result type with offset = 3 instead of 5",
        ),
        (
            FLAT,
            "memref<16xf16>",
            "different element types specified for source type memref<16xi16> "
            "and result memref type memref<16xf16>",
        ),
        (
            FLAT,
            "memref<16xi16, 1 : i64>",
            "different memory spaces specified for source type memref<16xi16> "
            "and result memref type memref<16xi16, 1 : i64>",
        ),
        (
            FLAT,
            "memref<1x16xi16>",
            "expected 1 offset and 2 sizes and strides for the rank-2 result, but got 1, 1 and 1",
        ),
    ],
)
def test_mismatches_are_located_errors(operands: str, result: str, message: str) -> None:
    with pytest.raises(UserError) as caught:
        _verify(_kernel(operands, result))
    assert caught.value.format().splitlines()[0] == (
        f"cast.mlir:5:3: error: 'memref.reinterpret_cast' op {message}"
    )


def test_the_dialect_is_xdsls_with_one_op_replaced_and_transpose_added() -> None:
    ours = {op.name: op for op in MEMREF.operations}
    xdsls = {op.name: op for op in memref.MemRef.operations}
    assert set(ours) == set(xdsls) | {"memref.transpose"}
    del ours["memref.transpose"]
    for name, op in ours.items():
        assert (op is ReinterpretCastOp) == (name == "memref.reinterpret_cast")
        assert op is ReinterpretCastOp or op is xdsls[name]
    assert issubclass(ReinterpretCastOp, memref.ReinterpretCastOp)


def test_pyproject_publishes_it_as_the_memref_dialect() -> None:
    table = tomllib.loads((ROOT / "pyproject.toml").read_text())
    dialects = table["project"]["entry-points"]["xla_emit.dialects"]
    assert dialects["memref"] == "xla_emit.dialects.memref_ext:MEMREF"


def test_transpose_views_the_buffer_permuted() -> None:
    text = (
        "func.func @f(%m: memref<4x128x64xbf16>) {\n"
        "  %t = memref.transpose %m (d0, d1, d2) -> (d0, d2, d1) : memref<4x128x64xbf16> to "
        "memref<4x64x128xbf16, strided<[8192, 1, 64]>>\n"
        "  func.return\n}\n"
    )
    module, source_map = parse_mlir(text, "t.mlir")
    verify_module(module, source_map)
    assert "(d0, d1, d2) -> (d0, d2, d1) : memref<4x128x64xbf16> to" in str(module)
    with pytest.raises(UserError, match=r"expected a result of shape \[4, 64, 128\]"):
        bad, bad_map = parse_mlir(text.replace("4x64x128xbf16,", "4x128x64xbf16,"), "t.mlir")
        verify_module(bad, bad_map)
