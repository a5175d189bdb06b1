"""PTOAS's verifier rules of the register-level VPTO ops (`dialects/pto/vpto_rules.py`).

Each case is a small kernel of ours that verifies, and the same kernel with one
thing changed that PTOAS's C++ verifier (`lib/PTO/IR/VPTO.cpp`) rejects: the
message it gives is worked out by hand from that verifier.
"""

from __future__ import annotations

import pytest

from tests.pto.kernel_checks import check_rule, verify_body

F32 = "!pto.vreg<64xf32>"
ARGUMENTS = {
    "a": F32,
    "f8": "!pto.vreg<256xf8E4M3FN>",
    "q": "!pto.vreg<64x!pto.bf16x2>",
    "i": "!pto.vreg<64xi32>",
    "ui": "!pto.vreg<64xui32>",
    "si": "!pto.vreg<64xsi32>",
    "h": "!pto.vreg<128xf16>",
    "o16": "!pto.vreg<128xui16>",
    "o32": "!pto.vreg<64xui32>",
    "b8": "!pto.vreg<256xi8>",
    "m32": "!pto.mask<b32>",
    "m16": "!pto.mask<b16>",
    "m8": "!pto.mask<b8>",
    "ub": "!pto.ptr<f32, ub>",
    "uh": "!pto.ptr<f16, ub>",
    "u8": "!pto.ptr<i8, ub>",
    "l1": "!pto.ptr<ui16, l1>",
    "x": "f32",
    "n": "i32",
    "un": "ui32",
    "c": "index",
    "l1f4": "!pto.ptr<!pto.f4E2M1x2, l1>",
    "l0af4": "!pto.ptr<!pto.f4E2M1x2, l0a>",
    "l1h": "!pto.ptr<f16, l1>",
    "l0ah": "!pto.ptr<f16, l0a>",
    "acc": "!pto.ptr<f32, l0c>",
    "gmf": "!pto.ptr<f32, gm>",
    "ubh": "!pto.ptr<f16, ub>",
    "l1f": "!pto.ptr<f32, l1>",
    "bf": "bf16",
    "la": "!pto.ptr<i8, l0a>",
    "rb": "!pto.ptr<i8, l0b>",
    "ci": "!pto.ptr<i32, l0c>",
}


def _verify(body: str) -> None:
    verify_body(ARGUMENTS, body)


def _constants(*values: int) -> str:
    return "".join(f"%k{v} = arith.constant {v} : i64\n  " for v in values)


FILL = "pto.raw_fill_l1 %l1, %k{offset}, %n, %k1, %k2, %k0 {{fill_word_bits = {bits} : i64}}"
FILL_TYPES = " : !pto.ptr<ui16, l1>, i64, i32, i64, i64, i64"

# (valid body, the body with one change, PTOAS's message for the change)
CASES = [
    (  # arithmetic lanes are not low-precision ones
        f"%r = pto.vadd %a, %a, %m32 : {F32}, {F32}, !pto.mask<b32> -> {F32}",
        "%r = pto.vadd %f8, %f8, %m8 : !pto.vreg<256xf8E4M3FN>, !pto.vreg<256xf8E4M3FN>, "
        "!pto.mask<b8> -> !pto.vreg<256xf8E4M3FN>",
        "'pto.vadd' op lhs type must not use low-precision vector element type",
    ),
    (  # all three registers of one type
        f"%r = pto.vmul %a, %a, %m32 : {F32}, {F32}, !pto.mask<b32> -> {F32}",
        f"%r = pto.vmul %a, %a, %m32 : {F32}, {F32}, !pto.mask<b32> -> !pto.vreg<64xi32>",
        "requires matching register vector shapes",
    ),
    (  # bitwise ops move 8-bit payloads, not bf16x2 pairs
        "%r = pto.vand %f8, %f8, %m8 : !pto.vreg<256xf8E4M3FN>, !pto.vreg<256xf8E4M3FN>, "
        "!pto.mask<b8> -> !pto.vreg<256xf8E4M3FN>",
        "%r = pto.vand %q, %q, %m32 : !pto.vreg<64x!pto.bf16x2>, !pto.vreg<64x!pto.bf16x2>, "
        "!pto.mask<b32> -> !pto.vreg<64x!pto.bf16x2>",
        "does not support bf16x2 vector elements",
    ),
    (  # unary math neither
        f"%r = pto.vexp %a, %m32 : {F32}, !pto.mask<b32> -> {F32}",
        "%r = pto.vexp %f8, %m8 : !pto.vreg<256xf8E4M3FN>, !pto.mask<b8> "
        "-> !pto.vreg<256xf8E4M3FN>",
        "operand type must not use low-precision vector element type",
    ),
    (  # relu of signed or signless 32-bit integers, f16 or f32
        "%r = pto.vrelu %i, %m32 : !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<64xi32>",
        "%r = pto.vrelu %ui, %m32 : !pto.vreg<64xui32>, !pto.mask<b32> -> !pto.vreg<64xui32>",
        "requires si32/i32/f16/f32 vector element type",
    ),
    (  # an integer scalar has the lanes' width and signedness, or is signless
        "%r = pto.vmuls %si, %n, %m32 : !pto.vreg<64xsi32>, i32, !pto.mask<b32> "
        "-> !pto.vreg<64xsi32>",
        "%r = pto.vmuls %si, %un, %m32 : !pto.vreg<64xsi32>, ui32, !pto.mask<b32> "
        "-> !pto.vreg<64xsi32>",
        "integer scalar type must match vector element width and use matching signedness",
    ),
    (  # a select's registers are of one type
        f"%r = pto.vsel %a, %a, %m32 : {F32}, {F32}, !pto.mask<b32> -> {F32}",
        f"%r = pto.vsel %a, %i, %m32 : {F32}, !pto.vreg<64xi32>, !pto.mask<b32> -> {F32}",
        "requires src0, src1, and result to have identical vector types",
    ),
    (  # vmulscvt rounds away from zero only
        f'%r = pto.vmulscvt %a, %x, %m32, "A", "EVEN" : {F32}, f32, !pto.mask<b32> '
        "-> !pto.vreg<128xf16>",
        f'%r = pto.vmulscvt %a, %x, %m32, "R", "EVEN" : {F32}, f32, !pto.mask<b32> '
        "-> !pto.vreg<128xf16>",
        "currently only supports rnd A",
    ),
    (  # 32-bit values scatter by 32-bit offsets under a b32 mask
        f"pto.vscatter %a, %ub, %o32, %m32 : {F32}, !pto.ptr<f32, ub>, "
        "!pto.vreg<64xui32>, !pto.mask<b32>",
        f"pto.vscatter %a, %ub, %o32, %m16 : {F32}, !pto.ptr<f32, ub>, "
        "!pto.vreg<64xui32>, !pto.mask<b16>",
        "mask type must be !pto.mask<b32>",
    ),
    (  # 16-bit gathers take 16-bit offsets
        "%r = pto.vgather2 %uh, %o16, %m16 : !pto.ptr<f16, ub>, !pto.vreg<128xui16>, "
        "!pto.mask<b16> -> !pto.vreg<128xf16>",
        "%r = pto.vgather2 %uh, %o16, %m32 : !pto.ptr<f16, ub>, !pto.vreg<128xui16>, "
        "!pto.mask<b32> -> !pto.vreg<128xf16>",
        "mask type must be !pto.mask<b16>",
    ),
    (  # 8-bit gathers widen to a 16-bit result of the same signedness
        "%r = pto.vgather2 %u8, %o16, %m16 : !pto.ptr<i8, ub>, !pto.vreg<128xui16>, "
        "!pto.mask<b16> -> !pto.vreg<128xi16>",
        "%r = pto.vgather2 %u8, %o16, %m16 : !pto.ptr<i8, ub>, !pto.vreg<128xui16>, "
        "!pto.mask<b16> -> !pto.vreg<128xui16>",
        "8-bit gather requires i8/ui8 source and matching i16/ui16 result",
    ),
    (  # a post-update load returns a base of its base's type
        f"%r, %next = pto.vlds %ub[%c] : !pto.ptr<f32, ub> -> {F32}, !pto.ptr<f32, ub>",
        f"%r, %next = pto.vlds %ub[%c] : !pto.ptr<f32, ub> -> {F32}, !pto.ptr<i32, ub>",
        "requires updated base result to match base type",
    ),
    (  # L1 fills write 16- or 32-bit words
        "  " + _constants(0, 1, 2) + FILL.format(offset=0, bits=16) + FILL_TYPES,
        "  " + _constants(0, 1, 2) + FILL.format(offset=0, bits=8) + FILL_TYPES,
        "fill_word_bits must be 16 or 32, got 8",
    ),
    (  # at 32-byte offsets
        "  " + _constants(0, 1, 2, 64) + FILL.format(offset=64, bits=16) + FILL_TYPES,
        "  " + _constants(0, 1, 2, 48) + FILL.format(offset=48, bits=16) + FILL_TYPES,
        "byte_offset must be a multiple of 32 bytes",
    ),
    (  # a matrix fill's words are as wide as its view's elements
        "  "
        + _constants(0, 1, 2)
        + "pto.create_cbuf_matrix %l1, %n, %k1, %k2, %k0 {fill_word_bits = 16 : i64}"
        " : !pto.ptr<ui16, l1>, i32, i64, i64, i64",
        "  "
        + _constants(0, 1, 2)
        + "pto.create_cbuf_matrix %l1, %n, %k1, %k2, %k0 {fill_word_bits = 32 : i64}"
        " : !pto.ptr<ui16, l1>, i32, i64, i64, i64",
        "fill_word_bits 32 does not match the 16-bit destination view",
    ),
    (  # synchronization delimits vector scopes (a memory barrier may sit inside)
        '  pto.vecscope {\n    pto.mem_bar "VV_ALL"\n  }',
        "  pto.vecscope {\n    pto.barrier #pto.pipe<PIPE_V>\n  }",
        "'pto.barrier' must be outside 'pto.vecscope'",
    ),
    (  # shift counts are signed, of the data's width
        "%r = pto.vshr %ui, %si, %m32 : !pto.vreg<64xui32>, !pto.vreg<64xsi32>, "
        "!pto.mask<b32> -> !pto.vreg<64xui32>",
        "%r = pto.vshr %ui, %i, %m32 : !pto.vreg<64xui32>, !pto.vreg<64xi32>, "
        "!pto.mask<b32> -> !pto.vreg<64xui32>",
        "requires shift count to use a signed integer element type",
    ),
    (  # carries of 32-bit integer lanes
        "%r, %cy = pto.vaddc %i, %i, %m32 : !pto.vreg<64xi32>, !pto.vreg<64xi32>, "
        "!pto.mask<b32> -> !pto.vreg<64xi32>, !pto.mask<b32>",
        "%r, %cy = pto.vaddc %o16, %o16, %m16 : !pto.vreg<128xui16>, !pto.vreg<128xui16>, "
        "!pto.mask<b16> -> !pto.vreg<128xui16>, !pto.mask<b16>",
        "currently requires 32-bit integer vector elements",
    ),
    (  # packed FP4 goes L1 -> L0A by the S4 load
        "  "
        + _constants(0, 1)
        + "pto.load_cbuf_to_ca_s4 %l1f4, %l0af4, %k0, %k0, %k1, %k1, %k1, %k1, %k0 : "
        "!pto.ptr<!pto.f4E2M1x2, l1>, !pto.ptr<!pto.f4E2M1x2, l0a>, "
        "i64, i64, i64, i64, i64, i64, i64",
        "  "
        + _constants(0, 1)
        + "pto.load_cbuf_to_ca %l1f4, %l0af4, %k0, %k0, %k1, %k1, %k1, %k1 : "
        "!pto.ptr<!pto.f4E2M1x2, l1>, !pto.ptr<!pto.f4E2M1x2, l0a>, "
        "i64, i64, i64, i64, i64, i64",
        "packed FP4 source requires the S4 load operation",
    ),
    (  # a step of at least one
        "  " + _constants(0, 1) + "pto.load_cbuf_to_ca %l1h, %l0ah, %k0, %k0, %k1, %k1, %k1, %k1 : "
        "!pto.ptr<f16, l1>, !pto.ptr<f16, l0a>, i64, i64, i64, i64, i64, i64",
        "  " + _constants(0, 1) + "pto.load_cbuf_to_ca %l1h, %l0ah, %k0, %k0, %k0, %k1, %k1, %k1 : "
        "!pto.ptr<f16, l1>, !pto.ptr<f16, l0a>, i64, i64, i64, i64, i64, i64",
        "m_step must be greater than zero",
    ),
    (  # an L1 -> L0A load is written shape-derived (4) or with full controls (6)
        "  " + _constants(0, 16) + "pto.mte_l1_l0a %l1h, %l0ah, %k16, %k16, %k0, %k0 : "
        "!pto.ptr<f16, l1>, !pto.ptr<f16, l0a>, i64, i64, i64, i64",
        "  " + _constants(0, 16) + "pto.mte_l1_l0a %l1h, %l0ah, %k16, %k16, %k0 : "
        "!pto.ptr<f16, l1>, !pto.ptr<f16, l0a>, i64, i64, i64",
        "expects either four shape-derived or six full positional operands",
    ),
    (  # from L1
        "  " + _constants(0, 16) + "pto.mte_l1_l0a %l1h, %l0ah, %k16, %k16, %k0, %k0 : "
        "!pto.ptr<f16, l1>, !pto.ptr<f16, l0a>, i64, i64, i64, i64",
        "  " + _constants(0, 16) + "pto.mte_l1_l0a %l0ah, %l0ah, %k16, %k16, %k0, %k0 : "
        "!pto.ptr<f16, l0a>, !pto.ptr<f16, l0a>, i64, i64, i64, i64",
        "requires MAT source",
    ),
    (  # atomics add into GM only
        "  "
        + _constants(16, 32)
        + "pto.mte_l0c_gm %acc, %gmf, %k16, %k16, %k16, %k32, %k16, %k16, "
        "atomic(type = f32, op = add) : !pto.ptr<f32, l0c>, !pto.ptr<f32, gm>, "
        "i64, i64, i64, i64, i64, i64",
        "  " + _constants(16, 32) + "pto.mte_l0c_l1 %acc, %l1f, %k16, %k16, %k16, %k32, "
        "atomic(type = f32, op = add) : !pto.ptr<f32, l0c>, !pto.ptr<f32, l1>, "
        "i64, i64, i64, i64",
        "atomic is only supported for mte_l0c_gm",
    ),
    (  # f32 -> bf16 quantization writes bf16
        "  "
        + _constants(0, 16, 32)
        + "pto.mte_l0c_ub %acc, %ubh, %k16, %k16, %k16, %k32, dst_mode(%k0), "
        "pre_quant(%x, mode = f32_f16) : !pto.ptr<f32, l0c>, !pto.ptr<f16, ub>, "
        "i64, i64, i64, i64, i64, f32",
        "  "
        + _constants(0, 16, 32)
        + "pto.mte_l0c_ub %acc, %ubh, %k16, %k16, %k16, %k32, dst_mode(%k0), "
        "pre_quant(%x, mode = f32_bf16) : !pto.ptr<f32, l0c>, !pto.ptr<f16, ub>, "
        "i64, i64, i64, i64, i64, f32",
        "pre_quant mode f32_bf16 is incompatible with source element type 'f32' and "
        "destination element type 'f16'",
    ),
    (  # one saturation clause
        "  " + _constants(16) + "pto.mte_l0c_l1 %acc, %l1f, %k16, %k16, %k16, %k16, nz2nd, sat : "
        "!pto.ptr<f32, l0c>, !pto.ptr<f32, l1>, i64, i64, i64, i64",
        "  "
        + _constants(16)
        + "pto.mte_l0c_l1 %acc, %l1f, %k16, %k16, %k16, %k16, nz2nd, sat, nosat : "
        "!pto.ptr<f32, l0c>, !pto.ptr<f32, l1>, i64, i64, i64, i64",
        "duplicate sat/nosat clause",
    ),
    (  # integer matmuls do not saturate
        "  " + _constants(16) + "pto.mad %la, %rb, %ci, %k16, %k16, %k16 : "
        "!pto.ptr<i8, l0a>, !pto.ptr<i8, l0b>, !pto.ptr<i32, l0c>, i64, i64, i64",
        "  " + _constants(16) + "pto.mad %la, %rb, %ci, %k16, %k16, %k16 sat : "
        "!pto.ptr<i8, l0a>, !pto.ptr<i8, l0b>, !pto.ptr<i32, l0c>, i64, i64, i64",
        "requires sat/nosat only for floating lhs/rhs/dst element types",
    ),
    (  # a 64-bit packing store reads a b32 mask
        f'pto.vsts %a, %ub[%c], %m32 {{dist = "PK_B64"}} : {F32}, !pto.ptr<f32, ub>, '
        "!pto.mask<b32>",
        f'pto.vsts %a, %ub[%c], %m16 {{dist = "PK_B64"}} : {F32}, !pto.ptr<f32, ub>, '
        "!pto.mask<b16>",
        "mask type must be !pto.mask<b32>",
    ),
    (  # f32 -> f16 halves the width: an EVEN or ODD part, rounded and saturated
        '%r = pto.vcvt %a, %m32 {rnd = "R", sat = "SAT", part = "EVEN"} : '
        f"{F32}, !pto.mask<b32> -> !pto.vreg<128xf16>",
        '%r = pto.vcvt %a, %m32 {rnd = "R", sat = "SAT", part = "P1"} : '
        f"{F32}, !pto.mask<b32> -> !pto.vreg<128xf16>",
        "part must be EVEN or ODD for 8/16 and 16/32 vcvt forms",
    ),
    (  # ... and always saturated
        '%r = pto.vcvt %a, %m32 {rnd = "R", sat = "NOSAT", part = "ODD"} : '
        f"{F32}, !pto.mask<b32> -> !pto.vreg<128xf16>",
        '%r = pto.vcvt %a, %m32 {rnd = "R", part = "ODD"} : '
        f"{F32}, !pto.mask<b32> -> !pto.vreg<128xf16>",
        "requires sat attr for this vcvt type pair",
    ),
    (  # SIMT shuffles within 16 or 32 lanes
        "%r = pto.shuffle_idx %n, %n {width = 16 : i32} : i32, i32 -> i32",
        "%r = pto.shuffle_idx %n, %n {width = 24 : i32} : i32, i32 -> i32",
        "requires width to be 16 or 32",
    ),
    (  # a 64-bit kept value takes an even pair of slots
        "%w = arith.extsi %n : i32 to i64\n  pto.keep %w {slot = 6 : i64} : i64",
        "%w = arith.extsi %n : i32 to i64\n  pto.keep %w {slot = 7 : i64} : i64",
        "requires an even slot for 64-bit keep/resume values",
    ),
    (  # ub.* arithmetic runs on UB buffers
        "  "
        + _constants(0, 1)
        + "pto.ub.vmax %ub, %ub, %ub, %k1, %k1, %k1, %k1, %k0, %k0, %k0 : !pto.ptr<f32, ub>, "
        "!pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64, i64, i64",
        "  "
        + _constants(0, 1)
        + "pto.ub.vmax %ub, %gmf, %ub, %k1, %k1, %k1, %k1, %k0, %k0, %k0 : !pto.ptr<f32, ub>, "
        "!pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64, i64, i64",
        "requires UB-backed operands",
    ),
]


@pytest.mark.parametrize(("valid", "invalid", "message"), CASES, ids=[c[2][:40] for c in CASES])
def test_vpto_rule(valid: str, invalid: str, message: str) -> None:
    check_rule(_verify, valid, invalid, message)
