"""PTOAS main's accumulator-form rules (`xla_emit/pto/acc_form_rules.py`), A5's tcvt
pairs and A2A3's tprefetch element types, over kernels of our own: each accepted, then
rejected with PTOAS's message once one thing changes."""

from __future__ import annotations

import pytest

from tests.pto.kernel_checks import error_on_line, target_kernel, verify_kernel
from xla_emit.pto.acc_form_rules import acc_store_error, prequant_source_error
from xla_emit.pto.rules import low_precision_cvt_errors

ACC = "!pto.tile_buf<acc, 16x16x{e}, blayout=col_major, slayout=row_major, fractal=1024>"


def _kernel(target: str, params: str, line: str) -> str:
    return target_kernel(target, params, f"    {line}")


def _error(text: str) -> str:
    """The message of the error of the kernel's op, on line 3."""
    return error_on_line(text, 3)


def _prequant_store(target: str, acc: str, view: str) -> str:
    tile, part = ACC.format(e=acc), f"!pto.partition_tensor_view<16x16x{view}>"
    line = f"pto.tstore ins(%a : {tile}, %q : i64) outs(%v : {part})"
    return _kernel(target, f"%a: {tile}, %q: i64, %v: {part}", line)


@pytest.mark.parametrize(
    ("target", "acc", "view", "message"),
    [
        ("a5", "f32", "f16", None),
        ("a5", "f32", "!pto.hif8", None),
        ("a5", "i32", "bf16", None),
        (
            "a5",
            "f32",
            "f8E5M2",
            "expects A5 acc preQuantScalar tstore dst type to be i8/ui8/f16/bf16/f32/hif8/f8E4M3",
        ),
        ("a3", "i32", "f16", None),
        ("a3", "f32", "f16", "expects A2/A3 acc preQuantScalar tstore dst type to be i8/ui8"),
    ],
)
def test_prequant_acc_stores(target: str, acc: str, view: str, message: str | None) -> None:
    text = _prequant_store(target, acc, view)
    if message is None:
        verify_kernel(text)
    else:
        assert _error(text) == message


def test_acc_store_rules_directly() -> None:
    assert acc_store_error("a5", "f16", "f16", fp=True, prequant=False) == (
        "expects A5 acc tstore src element type to be i32 or f32"
    )
    assert acc_store_error("a5", "f32", "i8", fp=False, prequant=False) == (
        "expects A5 acc tstore dst element type to be i32/f32/f16/bf16"
    )
    assert acc_store_error("a5", "f32", "i8", fp=True, prequant=False) is None
    assert prequant_source_error("acc") is None
    assert prequant_source_error("vec") == "expects preQuantScalar form to use loc=acc src"


def test_a_store_through_fixpipe_params_reads_a_32_bit_accumulator() -> None:
    tile, scale = ACC.format(e="f16"), "!pto.tile_buf<scaling, 1x16xf16>"
    part = "!pto.partition_tensor_view<16x16xf16>"
    line = f"pto.tstore ins(%a : {tile} fp %s : {scale}) outs(%v : {part})"
    text = _kernel("a5", f"%a: {tile}, %s: {scale}, %v: {part}", line)
    assert _error(text) == "expects A5 acc tstore src element type to be i32 or f32"


def test_a_prequant_insert_reads_an_accumulator() -> None:
    vec = "!pto.tile_buf<vec, 32x32xf16>"
    line = f"pto.tinsert ins(%s, %i, %i : {vec}, index, index pre_quant %q : i64) outs(%d : {vec})"
    text = _kernel("a5", f"%s: {vec}, %i: index, %q: i64, %d: {vec}", line)
    assert _error(text) == "expects preQuantScalar form to use loc=acc src"


@pytest.mark.parametrize(
    ("src", "dst", "ok"),
    [
        ("f32", "f8E4M3FN", True),
        ("f16", "!pto.hif8", True),
        ("bf16", "!pto.f4E2M1x2", True),
        ("!pto.f4E2M1x2", "bf16", True),
        ("f8E5M2", "f32", True),
        ("f16", "f8E4M3FN", False),
        ("f8E4M3FN", "f16", False),
        ("f32", "f16", True),  # no low-precision type: not this rule's
    ],
)
def test_a5_conversion_pairs(src: str, dst: str, ok: bool) -> None:
    errors = low_precision_cvt_errors("a5", src, dst)
    assert errors == (
        [] if ok else ["expects A5 tcvt low-precision type pairs to match PTO-ISA support"]
    )


def test_a2a3_prefetches_no_low_precision_elements() -> None:
    view, tile = (
        "!pto.partition_tensor_view<16x16x{e}>",
        "!pto.tile_buf<vec, 16x32xi8, valid=16x16>",
    )
    for target, element in (("a3", "i8"), ("a5", "!pto.hif8")):
        part = view.format(e=element)
        line = f"pto.tprefetch ins(%s : {part}) outs(%d : {tile})"
        verify_kernel(_kernel(target, f"%s: {part}, %d: {tile}", line))
    part = view.format(e="!pto.hif8")
    line = f"pto.tprefetch ins(%s : {part}) outs(%d : {tile})"
    assert _error(_kernel("a3", f"%s: {part}, %d: {tile}", line)) == (
        "expects A2/A3 tprefetch low-precision element types to be unsupported"
    )
