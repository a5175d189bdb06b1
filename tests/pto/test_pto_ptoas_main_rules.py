"""Rules and forms of PTOAS main (e32488c) on our own small kernels: each accepted
form reads, verifies and prints back; each rejected one fails with PTOAS's message."""

from __future__ import annotations

import re

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


# tquant.mx of a 32x64 source: 32 * 64 / 32 = 64 groups. ND (axis1) groups 32
# columns: max/scaling [32, 2] or flat [1, 64]; DN (axis0) groups 32 rows: [1, 64].
MX = """\
module attributes {{pto.target_arch = "{target}"}} {{
  func.func @k(%s: !pto.tile_buf<vec, {src}>, %d: !pto.tile_buf<vec, {dst}>, \
%e: !pto.tile_buf<vec, {exp}>, %m: !pto.tile_buf<vec, {max}>, %c: !pto.tile_buf<vec, {sc}>) {{
    pto.tquant.mx ins(%s : !pto.tile_buf<vec, {src}>) outs(%d, %e, %m, %c : \
!pto.tile_buf<vec, {dst}>, !pto.tile_buf<vec, {exp}>, !pto.tile_buf<vec, {max}>, \
!pto.tile_buf<vec, {sc}>) {{quant_type = #pto<quant_type {quant}>{attrs}}}
    return
  }}
}}
"""


def mx(**changes: str) -> str:
    fields = {
        "target": "a5",
        "src": "32x64xf32",
        "dst": "32x64xui8",
        "exp": "1x64xui8",
        "max": "1x64xf32",
        "sc": "1x128xf32, valid=1x64",
        "quant": "MXFP8",
        "attrs": "",
    }
    return MX.format(**(fields | changes))


DN = ", grpAxis = #pto<mx_group_axis axis0>"


@pytest.mark.parametrize(
    "kernel",
    [
        # ND, legacy flat exponents. A 32x64 source (2048 > 1024 elements, a multiple of
        # 256) is unrolled twice: the f32 scratch needs align64(2 * 64) * 4 = 512 bytes.
        mx(),
        mx(exp="32x2xui8", max="32x2xf32", sc="32x2xf32"),  # ND canonical f32
        mx(attrs=DN, sc="1x64xf32"),  # DN canonical [M/32, N] = [1, 64]
        # MXFP4: bf16 into f4 pairs, half as many columns.
        mx(
            src="32x64xbf16",
            dst="32x32x!pto.f4E2M1x2",
            max="1x64xbf16",
            sc="1x64xbf16",
            quant="MXFP4_E2M1",
            attrs=DN,
        ),
    ],
)
def test_tquant_mx_shapes_that_verify(kernel: str) -> None:
    assert "pto.tquant.mx" in verified(kernel)


@pytest.mark.parametrize(
    ("kernel", "message"),
    [
        (mx(target="a3"), "tquant.mx is only supported on A5"),
        (mx(src="32x48xf32", dst="32x48xui8"), "expects src valid_shape[1] to be a multiple of 32"),
        (mx(max="1x32xf32"), "expects max valid_shape to match canonical [M, N/32] or legacy"),
        (mx(attrs=DN, exp="2x32xui8"), "expects exp valid_shape to match canonical [M/32, N]"),
        (mx(dst="32x64xf16"), "expects MXFP8 dst element type to be i8/ui8"),
        (mx(sc="1x64xf16"), "expects scaling element type to match src element type"),
        (mx(sc="1x64xf32"), "flat unrolled f32 scaling physical capacity to cover 512 bytes"),
        (
            mx(exp="32x2xui8", max="32x2xf32", sc="32x2xbf16", src="32x64xbf16"),
            "expects max element type to match src element type",
        ),
        (mx(attrs=", interleave = true"), "expects interleave to be used only with grpAxis=axis0"),
        (
            mx(attrs=DN + ", interleave = true", sc="1x64xf32"),
            "expects src valid rows to be a multiple of 64",
        ),
        (
            mx(
                src="32x64xf32, valid=32x32",
                dst="32x64xui8, valid=32x32",
                exp="1x32xui8",
                max="1x32xf32",
                sc="1x32xf32",
            ),
            "expects axis1 flat exp to use a tight source",
        ),
    ],
)
def test_tquant_mx_rules(kernel: str, message: str) -> None:
    error = rejected(kernel)
    assert error.startswith("k.pto:3:5: error: 'pto.tquant.mx' op ")
    assert message in error


# Scratch tiles: PTOAS main lets most ops leave their tmp out and checks the one given.
def vec(shape: str) -> str:
    return f"!pto.tile_buf<vec, {shape}>"


def kernel(line: str, target: str = "a3", **tiles: str) -> str:
    params = ", ".join(f"%{name}: {kind}" for name, kind in tiles.items())
    return (
        f'module attributes {{pto.target_arch = "{target}"}} {{\n'
        f"  func.func @k({params}, %s: f32, %i: i16) {{\n    {line}\n    return\n  }}\n}}\n"
    )


def test_ops_may_leave_their_scratch_tile_out() -> None:
    f, i16 = vec("16x64xf32"), vec("16x64xi16")
    for line in (
        f"pto.txor ins(%x, %y : {i16}, {i16}) outs(%z : {i16})",
        f"pto.txors ins(%x, %i : {i16}, i16) outs(%z : {i16})",
        f"pto.trems ins(%a, %s : {f}, f32) outs(%d : {f})",
    ):
        assert line.split()[0] in verified(kernel(line, x=i16, y=i16, z=i16, a=f, d=f))


@pytest.mark.parametrize(
    ("line", "tiles", "message"),
    [
        # trem on A2A3: a tmp of at least two rows.
        (
            "pto.trem ins(%a, %b, %t : {f}, {f}, {t}) outs(%d : {f})",
            {"t": "1x64xf32"},
            "expects A2/A3 tmp valid_shape[0] to be at least 2",
        ),
        # tprelu on A2A3: the packed sign mask, 16 + 1 rows and ceil(64 / 8) = 8 columns.
        (
            "pto.tprelu ins(%a, %b, %t : {f}, {f}, {t}) outs(%d : {f})",
            {"t": "16x32xi8"},
            "expects A2/A3 tmp shape[0] to be at least dst valid_shape[0] + 1 (17)",
        ),
        (
            "pto.tprelu ins(%a, %b, %t : {f}, {f}, {t}) outs(%d : {f})",
            {"t": "17x32xi8, valid=17x7"},
            "ceil(dst valid_shape[1] / 8) (8)",
        ),
        (
            "pto.tprelu ins(%a, %b, %t : {f}, {f}, {t}) outs(%d : {f})",
            {"t": "17x64xf32"},
            "expects A2/A3 tmp element type to be u8",
        ),
        # tpow: no high precision on A2A3, and a tmp shaped like dst.
        (
            "pto.tpow ins(%a, %b, %t : {f}, {f}, {t}) outs(%d : {f})",
            {"t": "16x64xf32, valid=16x32"},
            "expects tmp and dst to have the same valid_shape",
        ),
        (
            "pto.tpows ins(%a, %s : {f}, f32) outs(%d : {f}) "
            "{{precisionType = #pto<pow_precision high_precision>}}",
            {"t": "1x1xf32"},
            "A2/A3 does not support precisionType=high_precision",
        ),
        # tci on A2A3: 768 bytes of 4-byte scratch for a 32-bit dst.
        (
            "pto.tci ins(%n, %t : i32, {t}) outs(%c : {c})",
            {"t": "1x128xf32"},
            "expects A2/A3 tmp capacity to be at least 768 bytes for 32-bit dst element type",
        ),
        # tquant on A2A3: per-row parameters are column major.
        (
            "pto.tquant ins(%a, %t : {f}, {t}) outs(%q : {q}) "
            "{{quant_type = #pto<quant_type INT8_SYM>}}",
            {"t": "16x1xf32"},
            "expects A2/A3 fp to use non-row-major layout",
        ),
    ],
)
def test_scratch_tile_rules(line: str, tiles: dict[str, str], message: str) -> None:
    f, t = vec("16x64xf32"), vec(tiles["t"])
    text = kernel(
        line.format(f=f, t=t, c=vec("1x64xi32"), q=vec("16x64xi8")),
        a=f,
        b=f,
        d=f,
        t=t,
        c=vec("1x64xi32"),
        q=vec("16x64xi8"),
        n="i32",
    )
    error = rejected(text)
    assert error.startswith("k.pto:3:5: error:")
    assert message in error


def test_trsqrt_with_high_precision_needs_its_tmp() -> None:
    f = vec("1x16xf32")
    line = (
        f"pto.trsqrt ins(%a : {f}) outs(%d : {f}) "
        "{precisionType = #pto<rsqrt_precision high_precision>}"
    )
    assert "expects tmp when precisionType is high_precision" in rejected(
        kernel(line, "a5", a=f, d=f)
    )
    with_tmp = line.replace(f"ins(%a : {f})", f"ins(%a, %t : {f}, {f})")
    assert "pto.trsqrt" in verified(kernel(with_tmp, "a5", a=f, t=f, d=f))


# Level 3 skips PlanMemory, so nothing allocates a left-out tmp there.
@pytest.mark.parametrize(
    ("line", "target", "message"),
    [
        ("pto.txor ins(%x, %x : {i}, {i}) outs(%y : {i})", "a3", "requires explicit tmp when"),
        ("pto.tpow ins(%a, %a : {f}, {f}) outs(%b : {f})", "a5", "requires explicit tmp when"),
        (
            "pto.tsort32 ins(%a, %u : {f}, {u}) outs(%b : {f})",
            "a3",
            "requires explicit tmp for tsort32 with dynamic or non-32-aligned width",
        ),
    ],
)
def test_level3_needs_explicit_scratch_tiles(line: str, target: str, message: str) -> None:
    from xla_emit.passes.diagnostics import OpError
    from xla_emit.passes.pto.pto_verify_driver import verify_implicit_tmps

    i, f, u = vec("16x64xi16"), vec("16x48xf32"), vec("16x48xui32")
    text = kernel(line.format(i=i, f=f, u=u), target, x=i, y=i, a=f, b=f, u=u)
    module, source_map = parse_mlir(text, "k.pto")
    verify_module(module, source_map)
    verify_implicit_tmps(module, level_3=False)  # below level 3 the pass allocates it
    with pytest.raises(OpError, match=message):
        verify_implicit_tmps(module, level_3=True)


def test_ptoas_main_spellings_read_and_print_back() -> None:
    text = (
        "func.func @k(%e: index, %t: !pto.tile_buf<vec, 8x16xf32>, %p: !pto.pipe) {\n"
        '  pto.get_buf "PIPE_MTE2", 2, 0\n'
        "  pto.rls_buf[#pto.pipe_event_type<TLOAD>, 2, 1]\n"
        "  pto.sync.set <PIPE_FIX>, %e {ffts_mode = 1 : i32}\n"
        "  pto.tfree(%t, %p : !pto.tile_buf<vec, 8x16xf32>, !pto.pipe) {split = 1 : i8}\n"
        "  return\n}\n"
    )
    printed = verified(text)
    assert 'pto.get_buf "PIPE_MTE2", 2, 0' in printed
    assert "pto.rls_buf[#pto.pipe_event_type<TLOAD>, 2, 1]" in printed
    assert "pto.sync.set <PIPE_FIX>, %e {ffts_mode = 1 : i32}" in printed
    assert "pto.tfree(%t, %p : !pto.tile_buf<vec, 8x16xf32>, !pto.pipe)" in printed


def test_sync_flags_need_one_event_form_and_a_known_ffts_mode() -> None:
    text = "func.func @k(%e: index) {\n  pto.sync.set <PIPE_FIX>, %e {ffts_mode = 3 : i32}\n}\n"
    error = rejected(text.replace("\n}\n", "\n  return\n}\n"))
    assert "k.pto:2:3: error: 'pto.sync.set' op requires ffts_mode in range [0, 2], but got 3" in (
        error
    )


# A tscatter in PTOAS's generic form: (src, dst[, indexes]) and a maskPattern property.
SCATTER = (
    "func.func @k(%s: !pto.tile_buf<vec, 1x64xf16>, %d: !pto.tile_buf<vec, 1x32xf16>, "
    '%i: !pto.tile_buf<vec, 1x32xi16>) {{\n  "pto.tscatter"({operands}){props} : ({types}) -> ()\n'
    "  return\n}}\n"
)


def scatter(with_indexes: bool, with_pattern: bool) -> str:
    names = ["%s", "%d"] + (["%i"] if with_indexes else [])
    kinds = ["!pto.tile_buf<vec, 1x64xf16>", "!pto.tile_buf<vec, 1x32xf16>"]
    kinds += ["!pto.tile_buf<vec, 1x32xi16>"] if with_indexes else []
    props = " <{maskPattern = #pto.mask_pattern<P0101>}>" if with_pattern else ""
    return SCATTER.format(operands=", ".join(names), props=props, types=", ".join(kinds))


def test_generic_tscatter_takes_indexes_or_a_mask_pattern() -> None:
    assert "pto.tscatter ins(%s, %i" in verified(scatter(True, False))
    assert "maskPattern" in verified(scatter(False, True))
    for both in (True, False):
        error = rejected(scatter(both, both))
        assert "expects exactly one of indexes operand or maskPattern attribute" in error


def test_a2a3_tsel_takes_bf16() -> None:
    m, t = vec("1x32xi8"), vec("1x16xbf16")
    line = f"pto.tsel ins(%m, %a, %a : {m}, {t}, {t}) outs(%b : {t})"
    from xla_emit.passes.pto.pto_verify_target import verify_target

    module, source_map = parse_mlir(kernel(line, m=m, a=t, b=t), "k.pto")
    verify_module(module, source_map)
    verify_target(module, None)


def test_an_empty_reduction_destination_is_a_no_op_marker() -> None:
    src, dst = vec("16x16xf32, valid=0x0"), vec("16x1xf32, valid=0x0")
    line = f"pto.trowmax ins(%a : {src}) outs(%b : {dst})"
    assert "pto.trowmax" in verified(kernel(line, a=src, b=dst))


@pytest.mark.parametrize(
    ("line", "tiles", "message"),
    [
        (
            "pto.trowargmax ins(%a : {a}) outs(%b : {b})",
            {"a": "16x32xf16, valid=0x0", "b": "16x1xi32, valid=0x0"},
            "expects src valid_shape[0] to be non-zero",
        ),
        (
            "pto.tcolargmax ins(%a : {a}) outs(%b : {b})",
            {"a": "16x8xf32", "b": "1x8xui32, valid=0x8"},
            "expects dst valid_shape[0] to be 1",
        ),
    ],
)
def test_arg_reductions_stay_strict(line: str, tiles: dict[str, str], message: str) -> None:
    a, b = vec(tiles["a"]), vec(tiles["b"])
    assert message in rejected(kernel(line.format(a=a, b=b), a=a, b=b))


def test_tgemv_writes_one_row() -> None:
    left = "!pto.tile_buf<left, 1x32xf16, blayout=col_major, slayout=row_major>"
    right = "!pto.tile_buf<right, 32x16xf16, blayout=row_major, slayout=col_major>"
    acc = "!pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major>"
    line = f"pto.tgemv ins(%l, %r : {left}, {right}) outs(%c : {acc})"
    error = rejected(kernel(line, l=left, r=right, c=acc))
    assert "'pto.tgemv' op expects dst valid_shape[0] to be 1 for tgemv" in error


@pytest.mark.parametrize(
    ("alloc", "message"),
    [
        # 7 f32 columns are 28 bytes, not whole 32-byte blocks.
        (
            "%t = pto.alloc_tile : !pto.tile_buf<vec, 16x7xf32>",
            "expects result row-major none_box tile row byte size (cols * sizeof(dtype)) to be "
            "32-byte aligned, but got 28 bytes",
        ),
        (
            "%t = pto.alloc_tile : !pto.tile_buf<vec, 7x16xf32, blayout=col_major>",
            "column byte size (rows * sizeof(dtype)) to be 32-byte aligned, but got 28 bytes",
        ),
        # A mat NZ tile of f16 boxes 16 rows at a time.
        (
            "%t = pto.alloc_tile : !pto.tile_buf<mat, 8x32xf16, blayout=col_major, "
            "slayout=row_major>",
            "expects result boxed tile rows to be a multiple of innerRows (16), but got 8",
        ),
        (
            "%a = arith.constant 100 : i64\n"
            "    %t = pto.alloc_tile addr = %a : !pto.tile_buf<vec, 16x16xf32>",
            "addr must be aligned to 32 bytes for local tile memory space, got 100",
        ),
    ],
)
def test_alloc_tile_layout_and_address_rules(alloc: str, message: str) -> None:
    from xla_emit.passes.diagnostics import OpError
    from xla_emit.passes.pto.pto_verify_target import verify_target

    module, source_map = parse_mlir(kernel(alloc, x="i32"), "k.pto")
    verify_module(module, source_map)
    with pytest.raises(OpError, match=re.escape(message)):
        verify_target(module, None)
    fixed = (
        alloc.replace("16x7x", "16x8x").replace("7x16x", "8x16x").replace("8x32xf16", "16x32xf16")
    )
    module, source_map = parse_mlir(kernel(fixed.replace("100", "128"), x="i32"), "k.pto")
    verify_target(module, None)


@pytest.mark.parametrize(
    ("attrs", "message"),
    [
        ("{byte = 4 : i32}", "expects byte to be in range [0, 3]"),
        ("{byte = 2 : i32}", "expects byte to be 0 or 1 when src element type is ui16"),
        ("{byte = 0 : i32, isMSB = true}", "conflicting 'byte' and legacy 'isMSB'"),
    ],
)
def test_thistogram_byte_rules(attrs: str, message: str) -> None:
    src, idx, dst = vec("8x32xui16"), vec("8x32xui8"), vec("8x256xui32")
    line = f"pto.thistogram ins(%a, %x : {src}, {idx}) outs(%d : {dst}) {attrs}"
    assert message in rejected(kernel(line, "a5", a=src, x=idx, d=dst))
    plain = line.replace(attrs, "{byte = 1 : i32, isMSB = true}")
    assert "pto.thistogram" in verified(kernel(plain, "a5", a=src, x=idx, d=dst))


def test_a5_loads_into_nd_dn_or_nz_vec_tiles_and_stores_from_vec_or_acc() -> None:
    view = "!pto.partition_tensor_view<16x32xf16>"
    boxed = "!pto.tile_buf<vec, 16x32xf16, slayout=row_major>"
    load = f"pto.tload ins(%v : {view}) outs(%t : {boxed})"
    error = rejected(kernel(load, "a5", v=view, t=boxed))
    assert "expects A5 tload vec dst layout to be ND, DN, or NZ" in error
    mat = "!pto.tile_buf<mat, 16x32xf16, blayout=col_major, slayout=row_major>"
    store = f"pto.tstore ins(%t : {mat}) outs(%v : {view})"
    assert "expects A5 tstore src to use loc=vec or loc=acc" in rejected(
        kernel(store, "a5", v=view, t=mat)
    )
    assert "pto.tstore" in verified(kernel(store, "a3", v=view, t=mat))


@pytest.mark.parametrize(
    ("target", "ins", "message"),
    [
        ("a3", "%a, %x : {f}, {i}", "index-form tgather expects indices and tmp"),
        ("a3", "%a, %y, %y : {f}, {h}, {h}", "expects indices element type to be i32"),
        (
            "a3",
            "%a, %x, %z : {f}, {i}, {z}",
            "expects indices and tmp to have the same valid_shape",
        ),
        (
            "a5",
            "%b, %y : {b}, {h}",
            "expects A5 gather src/dst element type to be i8/i16/i32/f16/f32",
        ),
    ],
)
def test_index_form_tgather_rules(target: str, ins: str, message: str) -> None:
    tiles = {
        "f": vec("4x8xf32"),
        "i": vec("4x8xi32"),
        "h": vec("4x8xi16"),
        "z": vec("4x8xi32, valid=2x8"),
        "b": vec("4x8xbf16"),
    }
    out = tiles["b"] if "%b" in ins else tiles["f"]
    line = f"pto.tgather ins({ins.format(**tiles)}) outs(%d : {out})"
    text = kernel(
        line, target, a=tiles["f"], b=tiles["b"], x=tiles["i"], y=tiles["h"], z=tiles["z"], d=out
    )
    assert message in rejected(text)


def test_index_form_tgather_with_a_dynamic_scratch_shape_verifies() -> None:
    f, i = vec("1x64xf32"), vec("1x64xi32")
    t = "!pto.tile_buf<vec, 1x64xi32, valid=?x?>"
    line = f"pto.tgather ins(%a, %x, %t : {f}, {i}, {t}) outs(%d : {f})"
    assert "pto.tgather" in verified(kernel(line, a=f, x=i, t=t, d=f))


def test_views_with_spaced_shapes_and_global_memory_pipes() -> None:
    text = (
        "func.func @k(%v: !pto.partition_tensor_view<8 x 128 x f32>) attributes "
        "{pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
        "  %g = pto.declare_global -> !pto.tensor_view<16x16xf32>\n"
        '  %p = "pto.initialize_l2g2l_pipe"(%g) <{dir_mask = 1 : i8, slot_size = 1024 : i32, '
        "slot_num = 8 : i32, operandSegmentSizes = array<i32: 1, 0, 0>}> : "
        "(!pto.tensor_view<16x16xf32>) -> !pto.pipe\n"
        "  %e = pto.declare_global -> !pto.tensor_view<16xCOLSxf32>\n"
        "  pto.tpush(%e, %p : !pto.tensor_view<16xCOLSxf32>, !pto.pipe) {split = 0}\n"
        "  return\n}\n"
    )
    printed = verified(text.replace("COLS", "16"))
    assert "!pto.partition_tensor_view<8x128xf32>" in printed
    assert "(%g : !pto.tensor_view<16x16xf32>) -> !pto.pipe" in printed
    error = rejected(text.replace("COLS", "32"))
    assert "expects pipe entry dimension 1 to match initialize_l2g2l_pipe gm_addr dimension 16" in (
        error
    )


def test_generic_tinsert_regroups_its_six_segments() -> None:
    acc = "!pto.tile_buf<acc, 32x32xf32, blayout=col_major, slayout=row_major, fractal=1024>"
    mat = "!pto.tile_buf<mat, 32x32xi8, blayout=col_major, slayout=row_major>"
    fp = "!pto.tile_buf<scaling, 1x32xf32>"
    text = (
        f"func.func @k(%s: {acc}, %d: {mat}, %f: {fp}, %q: i64, %c: index) {{\n"
        f'  "pto.tinsert"(%s, %c, %c, %d, %q) <{{operandSegmentSizes = '
        f"array<i32: 1, 1, 1, 1, 0, 1>}}> : ({acc}, index, index, {mat}, i64) -> ()\n"
        f'  "pto.tinsert"(%s, %c, %c, %d, %f) <{{operandSegmentSizes = '
        f"array<i32: 1, 1, 1, 1, 1, 0>}}> : ({acc}, index, index, {mat}, {fp}) -> ()\n"
        "  return\n}\n"
    )
    printed = verified(kernel_free(text))
    assert f"pto.tinsert ins(%s, %c, %c, %q : {acc}, index, index, i64) outs(%d : {mat})" in (
        printed
    )
    assert f"pto.tinsert_fp ins(%s, %f, %c, %c : {acc}, {fp}, index, index) outs(%d : {mat})" in (
        printed
    )


def kernel_free(text: str) -> str:
    """An A5 module around a function."""
    return 'module attributes {pto.target_arch = "a5"} {\n' + text + "}\n"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "func.func @k(%s: !pto.struct<f32, i8>) {\n  return\n}\n",
            "argument 0 has type !pto.struct<f32, i8>, but a stack-local struct must not be a",
        ),
        (
            "func.func @k() -> !pto.struct<f32, i8> {\n"
            "  %s = pto.declare_struct -> !pto.struct<f32, i8>\n"
            "  return %s : !pto.struct<f32, i8>\n}\n",
            "result 0 has type !pto.struct<f32, i8>, but a stack-local struct must not be returned",
        ),
        (
            "func.func @k(%c: i1) {\n  %r = scf.if %c -> !pto.struct<f32, i8> {\n"
            "    %s = pto.declare_struct -> !pto.struct<f32, i8>\n"
            "    scf.yield %s : !pto.struct<f32, i8>\n  } else {\n"
            "    %t = pto.declare_struct -> !pto.struct<f32, i8>\n"
            "    scf.yield %t : !pto.struct<f32, i8>\n  }\n  return\n}\n",
            "but only 'pto.declare_struct' may produce a !pto.struct result",
        ),
    ],
)
def test_structs_stay_in_their_declaring_scope(body: str, message: str) -> None:
    from xla_emit.passes.diagnostics import OpError
    from xla_emit.passes.pto.pto_verify_target import verify_target

    module, source_map = parse_mlir(body, "k.pto")
    verify_module(module, source_map)
    with pytest.raises(OpError, match=re.escape(message)):
        verify_target(module, None)
    kept = "func.func @k() {\n  %s = pto.declare_struct -> !pto.struct<f32, i8>\n  return\n}\n"
    module, _ = parse_mlir(kept, "k.pto")
    verify_target(module, None)


def test_an_empty_tile_stores_into_a_view_of_any_size() -> None:
    view = "!pto.partition_tensor_view<16x40xf32>"
    empty = vec("16x40xf32, valid=0x0")
    line = f"pto.tstore ins(%t : {empty}) outs(%v : {view})"
    assert "pto.tstore" in verified(kernel(line, v=view, t=empty))
