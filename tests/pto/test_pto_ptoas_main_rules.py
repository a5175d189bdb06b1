"""Rules and forms of PTOAS main (e32488c) on our own small kernels: each accepted
form reads, verifies and prints back; each rejected one fails with PTOAS's message."""

from __future__ import annotations

import pytest

from xla_emit.diagnostics import UserError
from xla_emit.ir import parse_mlir, verify_module


def verified(text: str) -> str:
    module, source_map = parse_mlir(text, "k.pto")
    verify_module(module, source_map)
    printed = str(module)
    again, _ = parse_mlir(printed, "printed.pto")
    assert str(again) == printed
    return printed


def rejected(text: str) -> str:
    with pytest.raises(UserError) as caught:
        verified(text)
    return caught.value.format().splitlines()[0]


def test_set_ffts_takes_a_pointer_to_i64_or_i8_and_still_a_memref() -> None:
    for kind in ("!pto.ptr<i64>", "!pto.ptr<i8, gm>", "memref<256xi64>"):
        assert f"pto.set_ffts %f : {kind.replace('<i64>', '<i64, gm>')}" in verified(
            f"func.func @k(%f: {kind}) {{\n  pto.set_ffts %f : {kind}\n  return\n}}\n"
        )


def test_set_ffts_rejects_a_pointer_to_f32() -> None:
    error = rejected(
        "func.func @k(%f: !pto.ptr<f32>) {\n  pto.set_ffts %f : !pto.ptr<f32>\n  return\n}\n"
    )
    assert error.startswith("k.pto:2:3: error:")
    assert "'pto.set_ffts' op expects element type i64 (or i8)" in error


def test_an_empty_section_is_one_empty_block() -> None:
    text = (
        "func.func @k() {\n  pto.section.vector {\n  }\n"
        "  pto.section.cube {\n    %c = arith.constant 0 : index\n  }\n  return\n}\n"
    )
    printed = verified(text)
    assert "pto.section.vector {\n    }" in printed
    module, _ = parse_mlir(text, "k.pto")
    section = next(op for op in module.walk() if op.name == "pto.section.vector")
    assert len(section.regions[0].blocks) == 1


# X-to-ZZ tmov: 16x4 exponents (ND, grouped along columns) into the ZZ box layout
# through a scratch tile of 64 + ceil(16 / 16) * 4 = 68 bytes.
X2ZZ = """\
module attributes {{pto.target_arch = "{target}"}} {{
  func.func @k(%src: !pto.tile_buf<vec, {src}>, %tmp: !pto.tile_buf<vec, {tmp}>, \
%dst: !pto.tile_buf<vec, {dst}, slayout=row_major>) {{
    pto.tmov ins(%src : !pto.tile_buf<vec, {src}>, %tmp : !pto.tile_buf<vec, {tmp}>) \
outs(%dst : !pto.tile_buf<vec, {dst}, slayout=row_major>){attrs}
    return
  }}
}}
"""


def x2zz(
    src: str = "32x4xui8, valid=16x4",
    tmp: str = "1x68xui8",
    dst: str = "32x4xui8, valid=16x4",
    target: str = "a5",
    attrs: str = "",
) -> str:
    return X2ZZ.format(src=src, tmp=tmp, dst=dst, target=target, attrs=attrs)


@pytest.mark.parametrize(
    "kernel",
    [
        x2zz(),
        x2zz("32x4x!pto.f8E8M0, valid=16x4", "1x68x!pto.f8E8M0", "32x4x!pto.f8E8M0, valid=16x4"),
        # DN: two rows of 16 exponents; the scratch tile is not measured.
        x2zz("2x16xui8", "1x1xui8", "2x16xui8", attrs=" {grpAxis = #pto<mx_group_axis axis0>}"),
    ],
)
def test_x2zz_moves_that_verify(kernel: str) -> None:
    assert "pto.tmov" in verified(kernel)


@pytest.mark.parametrize(
    ("kernel", "message"),
    [
        (x2zz(target="a3"), "X-to-ZZ tmov is only supported on A5"),
        (x2zz(tmp="1x67xui8"), "expects tmp to provide at least 68 bytes for ND-to-ZZ"),
        (
            x2zz("16x4xi8", "1x68xi8", "16x4xi8"),
            "expects element type to be one of ui8, !pto.hif8, !pto.f8E8M0",
        ),
        (x2zz(tmp="1x68x!pto.hif8"), "expects src, dst, and tmp to share one element type"),
        (x2zz("16x3xui8", "1x68xui8", "16x3xui8"), "dst valid_shape[1] (the grouped exponent"),
        # align16(20 rows) * 4 columns = 128 bytes, but a 20x4 source holds 80.
        (
            x2zz("20x4xui8", "1x72xui8", "32x4xui8, valid=20x4"),
            "expects ND-to-ZZ src physical capacity to cover align16(dst rows) * dst cols",
        ),
        (x2zz(src="32x8xui8, valid=16x4"), "expects ND-to-ZZ src valid elements to form a compact"),
        (
            x2zz("3x16xui8", "1x1xui8", "3x16xui8", attrs=" {grpAxis = #pto<mx_group_axis axis0>}"),
            "expects DN-to-ZZ src valid_shape[0] to be an even count >= 2",
        ),
        (
            x2zz("2x8xui8", "1x1xui8", "2x8xui8", attrs=" {grpAxis = #pto<mx_group_axis axis0>}"),
            "expects DN-to-ZZ src valid_shape[1] to be a multiple of 16",
        ),
        (
            x2zz(attrs=" {reluPreMode = #pto<relu_pre_mode normal_relu>}"),
            "expects the X-to-ZZ form not to use preQuantScalar, accToVecMode, or reluPreMode",
        ),
    ],
)
def test_x2zz_rules(kernel: str, message: str) -> None:
    error = rejected(kernel)
    assert error.startswith("k.pto:3:5: error: 'pto.tmov' op ")
    assert message in error


def test_grp_axis_needs_the_x2zz_form() -> None:
    # A `scaling` third tile is the fixpipe form, which takes no grpAxis.
    kernel = x2zz(attrs=" {grpAxis = #pto<mx_group_axis axis0>}")
    kernel = kernel.replace("vec, 1x68xui8>", "scaling, 1x68xui8>")
    assert "expects grpAxis only on the X-to-ZZ form with a non-scaling third tile" in rejected(
        kernel
    )
