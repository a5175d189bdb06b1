"""PTOAS's verifier rules of the `pto.vmi.*` ops (`dialects/pto/vmi_rules.py`).

Each case is a small kernel of ours that verifies, and the same kernel with one
thing changed that PTOAS's C++ verifier (`lib/PTO/IR/VMI.cpp`) rejects: the
message it gives is worked out by hand from that verifier.
"""

from __future__ import annotations

import pytest

from tests.pto.kernel_checks import check_rule, verify_body

V64 = "!pto.vmi.vreg<64xf32>"
ARGUMENTS = {
    "a": V64,
    "b": V64,
    "w": "!pto.vmi.vreg<128xf32>",
    "h": "!pto.vmi.vreg<64xf16>",
    "i": "!pto.vmi.vreg<64xi32>",
    "si": "!pto.vmi.vreg<64xsi32>",
    "ui": "!pto.vmi.vreg<64xui32>",
    "q": "!pto.vmi.vreg<64x!pto.bf16x2>",
    "m": "!pto.vmi.mask<64xb32>",
    "m16": "!pto.vmi.mask<64xb16>",
    "p": "!pto.vmi.mask<64xpred>",
    "ub": "!pto.ptr<f32, ub>",
    "gm": "!pto.ptr<f32, gm>",
    "o": "index",
    "x": "f32",
    "k": "i16",
    "hist": "!pto.vmi.vreg<256xui16>",
    "bytes": "!pto.vmi.vreg<256xui8>",
    "m8": "!pto.vmi.mask<256xb8>",
    "d2": "!pto.vmi.vreg<128xf32, #pto.vmi.layout<deinterleaved = 2>>",
    "c2": "!pto.vmi.vreg<128xf32, #pto.vmi.layout<contiguous>>",
    "g8": "!pto.vmi.vreg<8xf32>",
    "ig": "!pto.vmi.vreg<64xsi16>",
}


def _verify(body: str) -> None:
    verify_body(ARGUMENTS, body)


# (valid body, the body with one change, PTOAS's message for the change)
CASES = [
    (  # every data value has one lane count
        f"%r = pto.vmi.vadd %a, %b : {V64}, {V64} -> {V64}",
        f"%r = pto.vmi.vadd %a, %w : {V64}, !pto.vmi.vreg<128xf32> -> {V64}",
        "requires all VMI data values to have the same logical lane count",
    ),
    (  # vdiv divides f16 and f32 lanes only
        f"%r = pto.vmi.vdiv %a, %b : {V64}, {V64} -> {V64}",
        "%r = pto.vmi.vdiv %i, %i : !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32> "
        "-> !pto.vmi.vreg<64xi32>",
        "'pto.vmi.vdiv' op requires f16 or f32 VMI element type",
    ),
    (  # bf16x2 pairs are for conversions only
        "%r = pto.vmi.vcvt %q : !pto.vmi.vreg<64x!pto.bf16x2> -> !pto.vmi.vreg<64x!pto.f4E2M1x2>",
        "%r = pto.vmi.vadd %q, %q : !pto.vmi.vreg<64x!pto.bf16x2>, "
        "!pto.vmi.vreg<64x!pto.bf16x2> -> !pto.vmi.vreg<64x!pto.bf16x2>",
        "does not support bf16x2 VMI element type; bf16x2 is conversion-only",
    ),
    (  # a concrete mask has one bit per lane of the data's width
        f"%r = pto.vmi.vadd %a, %b, %m : {V64}, {V64}, !pto.vmi.mask<64xb32> -> {V64}",
        f"%r = pto.vmi.vadd %a, %b, %m16 : {V64}, {V64}, !pto.vmi.mask<64xb16> -> {V64}",
        "requires mask granularity to match data element width",
    ),
    (  # mask logic takes no predication mask
        "%r = pto.vmi.vand %p, %p : !pto.vmi.mask<64xpred>, !pto.vmi.mask<64xpred> "
        "-> !pto.vmi.mask<64xpred>",
        "%r = pto.vmi.vand %p, %p, %p : !pto.vmi.mask<64xpred>, !pto.vmi.mask<64xpred>, "
        "!pto.vmi.mask<64xpred> -> !pto.vmi.mask<64xpred>",
        "mask logic op does not support predication mask",
    ),
    (  # bitwise ops on integers only
        "%r = pto.vmi.vand %i, %i : !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32> "
        "-> !pto.vmi.vreg<64xi32>",
        f"%r = pto.vmi.vand %a, %b : {V64}, {V64} -> {V64}",
        "'pto.vmi.vand' op requires integer-like VMI element type",
    ),
    (  # a vector-scalar op's scalar has the lanes' type
        f"%r = pto.vmi.vadds %a, %x, %p : {V64}, f32, !pto.vmi.mask<64xpred> -> {V64}",
        f"%r = pto.vmi.vadds %a, %k, %p : {V64}, i16, !pto.vmi.mask<64xpred> -> {V64}",
        "requires scalar type to match vector element type, got scalar i16 vs vector element f32",
    ),
    (  # shifts shift integers
        "%r = pto.vmi.vshls %i, %k, %p : !pto.vmi.vreg<64xi32>, i16, !pto.vmi.mask<64xpred> "
        "-> !pto.vmi.vreg<64xi32>",
        f"%r = pto.vmi.vshls %a, %k, %p : {V64}, i16, !pto.vmi.mask<64xpred> -> {V64}",
        "requires integer-like VMI element type for shift",
    ),
    (  # a float add-reduction must allow reassociation (pairwise adds)
        "%r = pto.vmi.vcadd %a, %p {reassoc} : "
        f"{V64}, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<1xf32>",
        f"%r = pto.vmi.vcadd %a, %p : {V64}, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<1xf32>",
        "floating add-reduction requires reassoc attr",
    ),
    (  # a full reduction leaves one lane
        "%r = pto.vmi.vcadd %a, %p {reassoc} : "
        f"{V64}, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<1xf32>",
        f"%r = pto.vmi.vcadd %a, %p {{reassoc}} : {V64}, !pto.vmi.mask<64xpred> -> {V64}",
        "full reduction (no group) requires 1-lane result, got 64",
    ),
    (  # integers compare without the ordered float predicates
        '%r = pto.vmi.vcmp %i, %i, %p {cmp = "lt"} : !pto.vmi.vreg<64xi32>, '
        "!pto.vmi.vreg<64xi32>, !pto.vmi.mask<64xpred> -> !pto.vmi.mask<64xpred>",
        '%r = pto.vmi.vcmp %i, %i, %p {cmp = "olt"} : !pto.vmi.vreg<64xi32>, '
        "!pto.vmi.vreg<64xi32>, !pto.vmi.mask<64xpred> -> !pto.vmi.mask<64xpred>",
        "requires integer compare predicate eq/ne/lt/le/gt/ge",
    ),
    (  # gathers read UB
        "%r = pto.vmi.vgather %ub, %i, %p : !pto.ptr<f32, ub>, !pto.vmi.vreg<64xi32>, "
        f"!pto.vmi.mask<64xpred> -> {V64}",
        "%r = pto.vmi.vgather %gm, %i, %p : !pto.ptr<f32, gm>, !pto.vmi.vreg<64xi32>, "
        f"!pto.vmi.mask<64xpred> -> {V64}",
        "'pto.vmi.vgather' op requires memory source to be UB-backed",
    ),
    (  # a load reads the memory's element type
        f"%r = pto.vmi.vload %ub[%o] : !pto.ptr<f32, ub> -> {V64}",
        "%r = pto.vmi.vload %ub[%o] : !pto.ptr<f32, ub> -> !pto.vmi.vreg<64xi32>",
        "requires memory source element type to match VMI data element type",
    ),
    (  # a grouped load may broadcast (brc), nothing else
        f'%r = pto.vmi.vload %ub[%o], %o {{group = 8 : i64, dist_mode = "brc"}} '
        f": !pto.ptr<f32, ub> -> {V64}",
        f'%r = pto.vmi.vload %ub[%o], %o {{group = 8 : i64, dist_mode = "unpack"}} '
        f": !pto.ptr<f32, ub> -> {V64}",
        "group and dist_mode are mutually exclusive",
    ),
    (  # stores cannot keep the destination's inactive lanes
        f'pto.vmi.vstore %a, %ub[%o], %m {{pmode = "zero"}} : {V64}, !pto.ptr<f32, ub>, '
        "!pto.vmi.mask<64xb32>",
        f'pto.vmi.vstore %a, %ub[%o], %m {{pmode = "merge"}} : {V64}, !pto.ptr<f32, ub>, '
        "!pto.vmi.mask<64xb32>",
        'pmode "merge" is not supported for stores',
    ),
    (  # narrowing floats says how it saturates
        f'%r = pto.vmi.vcvt %a {{saturate = "SAT"}} : {V64} -> !pto.vmi.vreg<64xf16>',
        f"%r = pto.vmi.vcvt %a : {V64} -> !pto.vmi.vreg<64xf16>",
        "'saturate' attribute is required for fp-narrow / int-narrow conversions",
    ),
    (  # widening floats has nothing to round
        "%r = pto.vmi.vcvt %h : !pto.vmi.vreg<64xf16> -> !pto.vmi.vreg<64xf32>",
        '%r = pto.vmi.vcvt %h {rounding = "R"} : !pto.vmi.vreg<64xf16> -> !pto.vmi.vreg<64xf32>',
        "'rounding' attribute is only valid for floating-point narrowing or "
        "floating-point-to-integer conversions",
    ),
    (  # integers convert to floats from a signed type
        f"%r = pto.vmi.vcvt %si : !pto.vmi.vreg<64xsi32> -> {V64}",
        f"%r = pto.vmi.vcvt %ui : !pto.vmi.vreg<64xui32> -> {V64}",
        "int-to-fp conversion requires explicitly signed integer source element type",
    ),
    (  # si32 -> si8 has no saturating form
        '%r = pto.vmi.vcvt %si {saturate = "NOSAT"} : !pto.vmi.vreg<64xsi32> '
        "-> !pto.vmi.vreg<64xsi8>",
        '%r = pto.vmi.vcvt %si {saturate = "SAT"} : !pto.vmi.vreg<64xsi32> '
        "-> !pto.vmi.vreg<64xsi8>",
        'si32 -> si8 int-narrow does not support saturate="SAT"',
    ),
    (  # f16 -> ui8 is the one fp-to-unsigned pair, and it saturates
        '%r = pto.vmi.fptoui %h {saturate = "SAT"} : !pto.vmi.vreg<64xf16> '
        "-> !pto.vmi.vreg<64xui8>",
        '%r = pto.vmi.fptoui %a {saturate = "SAT"} : !pto.vmi.vreg<64xf32> '
        "-> !pto.vmi.vreg<64xui8>",
        "unsupported fp-to-ui conversion element type pair",
    ),
    (  # truncf rounds R, A, H or Z
        '%r = pto.vmi.truncf %a {rounding = "H", saturate = "SAT"} : '
        f"{V64} -> !pto.vmi.vreg<64xf16>",
        '%r = pto.vmi.truncf %a {rounding = "F", saturate = "SAT"} : '
        f"{V64} -> !pto.vmi.vreg<64xf16>",
        "rounding attr must be R, A, H, or Z",
    ),
    (  # a reinterpretation keeps every bit
        f"%r = pto.vmi.vinterpret_cast %a : {V64} -> !pto.vmi.vreg<128xf16>",
        f"%r = pto.vmi.vinterpret_cast %a : {V64} -> !pto.vmi.vreg<64xf16>",
        "requires source and result to carry the same total number of bits",
    ),
    (  # vmull widens 64, 128 or 256 lanes
        "%l, %hi = pto.vmi.vmull %i, %i, %p : !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32>, "
        "!pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32>",
        "%l, %hi = pto.vmi.vmull %si, %si, %p : !pto.vmi.vreg<64xsi32>, "
        "!pto.vmi.vreg<64xsi32>, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xsi32>, "
        "!pto.vmi.vreg<64xsi32>",
        "requires a, b, low, and high element types to be exactly i32 or ui32",
    ),
    (  # a histogram counts unsigned 16-bit bins
        "%r = pto.vmi.vdhist %hist, %bytes, %m8 : !pto.vmi.vreg<256xui16>, "
        "!pto.vmi.vreg<256xui8>, !pto.vmi.mask<256xb8> -> !pto.vmi.vreg<256xui16>",
        "%r = pto.vmi.vdhist %hist, %bytes, %m8 : !pto.vmi.vreg<256xui16>, "
        "!pto.vmi.vreg<256xui8>, !pto.vmi.mask<256xb8> -> !pto.vmi.vreg<256xsi16>",
        "requires result element type to be ui16 or i16 (interpreted as unsigned)",
    ),
    (  # a constant has one value per lane
        f'%r = "pto.vmi.constant"() {{value = dense<1.0> : vector<64xf32>}} : () -> {V64}',
        f'%r = "pto.vmi.constant"() {{value = dense<1.0> : vector<32xf32>}} : () -> {V64}',
        "requires dense constant element count to match result logical lane count",
    ),
    (  # a shuffle selects existing lanes
        '%r = "pto.vmi.shuffle"(%a) {indices = array<i64: 63, 0>} : '
        f"({V64}) -> !pto.vmi.vreg<2xf32>",
        '%r = "pto.vmi.shuffle"(%a) {indices = array<i64: 64, 0>} : '
        f"({V64}) -> !pto.vmi.vreg<2xf32>",
        "requires every shuffle index to select an existing source logical lane",
    ),
    (  # channels split the lanes evenly
        '%r:2 = "pto.vmi.channel_split"(%a) : '
        f"({V64}) -> (!pto.vmi.vreg<32xf32>, !pto.vmi.vreg<32xf32>)",
        '%r:2 = "pto.vmi.channel_split"(%a) : '
        f"({V64}) -> (!pto.vmi.vreg<16xf32>, !pto.vmi.vreg<16xf32>)",
        "requires source lane count to equal result count times per-channel lane count",
    ),
    (  # vexpdif's result is f32
        f"%r = pto.vmi.vexpdif %h, %h, %p : !pto.vmi.vreg<64xf16>, !pto.vmi.vreg<64xf16>, "
        f"!pto.vmi.mask<64xpred> -> {V64}",
        "%r = pto.vmi.vexpdif %h, %h, %p : !pto.vmi.vreg<64xf16>, !pto.vmi.vreg<64xf16>, "
        "!pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xf16>",
        "requires result element type to be f32",
    ),
    (  # an index vector counts up or down
        f'%r = pto.vmi.vci %x {{order = "DESC"}} : f32 -> {V64}',
        f'%r = pto.vmi.vci %x {{order = "UP"}} : f32 -> {V64}',
        "requires order to be ASC or DESC",
    ),
    (  # a broadcast value has the lanes' type
        f"%r = pto.vmi.vbrc %x : f32 -> {V64}",
        f"%r = pto.vmi.vbrc %k : i16 -> {V64}",
        "requires scalar or VMI vector input element type to match result element type",
    ),
    (  # 128 f32 lanes deinterleaved by two sit in two registers of 64
        '%r:2 = "pto.vmi.unpack"(%d2) : (!pto.vmi.vreg<128xf32, '
        "#pto.vmi.layout<deinterleaved = 2>>) -> (!pto.vreg<64xf32>, !pto.vreg<64xf32>)",
        '%r = "pto.vmi.unpack"(%d2) : (!pto.vmi.vreg<128xf32, '
        "#pto.vmi.layout<deinterleaved = 2>>) -> !pto.vreg<64xf32>",
        "requires 2 physical parts, got 1",
    ),
    (  # ... of f32 lanes
        '%r:2 = "pto.vmi.unpack"(%d2) : (!pto.vmi.vreg<128xf32, '
        "#pto.vmi.layout<deinterleaved = 2>>) -> (!pto.vreg<64xf32>, !pto.vreg<64xf32>)",
        '%r:2 = "pto.vmi.unpack"(%d2) : (!pto.vmi.vreg<128xf32, '
        "#pto.vmi.layout<deinterleaved = 2>>) -> (!pto.vreg<64xf32>, !pto.vreg<64xi32>)",
        "requires physical data part type to match VMI lane-map helper",
    ),
    (  # legacy float arithmetic on f16, bf16 or f32
        f"%r = pto.vmi.addf %a, %b : {V64}, {V64} -> {V64}",
        "%r = pto.vmi.addf %i, %i : !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32> "
        "-> !pto.vmi.vreg<64xi32>",
        "requires floating-point-like VMI element type",
    ),
    (  # a compare's mask has the data's lanes
        '%r = pto.vmi.cmpi "slt", %i, %i : !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32> '
        "-> !pto.vmi.mask<64xpred>",
        '%r = pto.vmi.cmpi "slt", %i, %i : !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32> '
        "-> !pto.vmi.mask<32xpred>",
        "requires mask logical lane count to match data lane count",
    ),
    (  # an integer add-reduction sums 32-bit lanes into one
        "%r = pto.vmi.reduce_addi %i, %p : !pto.vmi.vreg<64xi32>, !pto.vmi.mask<64xpred> "
        "-> !pto.vmi.vreg<1xi32>",
        "%r = pto.vmi.reduce_addi %i, %p : !pto.vmi.vreg<64xi32>, !pto.vmi.mask<64xpred> "
        "-> !pto.vmi.vreg<2xi32>",
        "requires result to be a 1-lane VMI vector",
    ),
    (  # a group reduction leaves one lane per group
        "%r = pto.vmi.group_reduce_maxf %a, %p {num_groups = 8 : i64} : "
        f"{V64}, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<8xf32>",
        "%r = pto.vmi.group_reduce_maxf %a, %p {num_groups = 8 : i64} : "
        f"{V64}, !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<4xf32>",
        "requires result logical lane count to match num_groups",
    ),
    (  # a group broadcast spreads one lane per group
        "%r = pto.vmi.group_broadcast %g8 {num_groups = 8 : i64} : "
        f"!pto.vmi.vreg<8xf32> -> {V64}",
        "%r = pto.vmi.group_broadcast %g8 {num_groups = 16 : i64} : "
        f"!pto.vmi.vreg<8xf32> -> {V64}",
        "requires source logical lane count to match num_groups",
    ),
    (  # prefix indices are signless integers
        "%r = pto.vmi.active_prefix_index %p : !pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xi32>",
        f"%r = pto.vmi.active_prefix_index %p : !pto.vmi.mask<64xpred> -> {V64}",
        "requires signless integer result element type",
    ),
    (  # sign extension widens signed lanes
        "%r = pto.vmi.extsi %ig : !pto.vmi.vreg<64xsi16> -> !pto.vmi.vreg<64xsi32>",
        "%r = pto.vmi.extsi %ig : !pto.vmi.vreg<64xsi16> -> !pto.vmi.vreg<64xsi16>",
        "requires result element type to be wider than source element type",
    ),
    (  # si32 -> f32 is the one int-to-float pair
        f"%r = pto.vmi.sitofp %si : !pto.vmi.vreg<64xsi32> -> {V64}",
        "%r = pto.vmi.sitofp %si : !pto.vmi.vreg<64xsi32> -> !pto.vmi.vreg<64xf16>",
        "requires f32 result element type",
    ),
    (  # integer narrowing says how it saturates
        '%r = pto.vmi.trunci %i {saturate = "NOSAT"} : !pto.vmi.vreg<64xi32> '
        "-> !pto.vmi.vreg<64xi16>",
        "%r = pto.vmi.trunci %i : !pto.vmi.vreg<64xi32> -> !pto.vmi.vreg<64xi16>",
        "'saturate' attribute is required (SAT or NOSAT)",
    ),
    (  # a masked load reads UB
        f"%r = pto.vmi.masked_load %ub[%o], %p, %a : !pto.ptr<f32, ub>, "
        f"!pto.vmi.mask<64xpred>, {V64} -> {V64}",
        f"%r = pto.vmi.masked_load %gm[%o], %p, %a : !pto.ptr<f32, gm>, "
        f"!pto.vmi.mask<64xpred>, {V64} -> {V64}",
        "requires memory source to be UB-backed",
    ),
    (  # carries of 32-bit integers
        "%r, %c = pto.vmi.vaddc %i, %i, %p : !pto.vmi.vreg<64xi32>, !pto.vmi.vreg<64xi32>, "
        "!pto.vmi.mask<64xpred> -> !pto.vmi.vreg<64xi32>, !pto.vmi.mask<64xpred>",
        f"%r, %c = pto.vmi.vaddc %a, %b, %p : {V64}, {V64}, "
        f"!pto.vmi.mask<64xpred> -> {V64}, !pto.vmi.mask<64xpred>",
        "requires 32-bit integer vector element types",
    ),
    (  # lane selection by indices of the data's width
        f"%r = pto.vmi.vselr %a, %i : {V64}, !pto.vmi.vreg<64xi32> -> {V64}",
        f"%r = pto.vmi.vselr %a, %ig : {V64}, !pto.vmi.vreg<64xsi16> -> {V64}",
        "requires index element storage width to match source element storage width",
    ),
    (  # an interleave keeps one element type
        f"%l, %hi = pto.vmi.vintlv %a, %b, %p : {V64}, {V64}, !pto.vmi.mask<64xpred> "
        f"-> {V64}, {V64}",
        f"%l, %hi = pto.vmi.vintlv %a, %i, %p : {V64}, !pto.vmi.vreg<64xi32>, "
        f"!pto.vmi.mask<64xpred> -> {V64}, {V64}",
        "requires all VMI data values to have the same element type",
    ),
    (  # PAT_VL<n> activates at most the mask's lanes
        '%r = pto.vmi.pge "PAT_VL64" : !pto.vmi.mask<64xpred>',
        '%r = pto.vmi.pge "PAT_VL128" : !pto.vmi.mask<64xpred>',
        "PAT_VL active lanes 128 exceeds mask element count 64",
    ),
    (  # a layout change goes between layouts
        "%r = pto.vmi.ensure_layout %d2 : !pto.vmi.vreg<128xf32, "
        "#pto.vmi.layout<deinterleaved = 2>> -> !pto.vmi.vreg<128xf32, "
        "#pto.vmi.layout<contiguous>>",
        "%r = pto.vmi.ensure_layout %d2 : !pto.vmi.vreg<128xf32, "
        "#pto.vmi.layout<deinterleaved = 2>> -> !pto.vmi.vreg<128xf32>",
        "requires source and result to be layout-assigned",
    ),
    (  # merged channels make one vector of all their lanes
        f'%r = "pto.vmi.channel_merge"(%a, %b) : ({V64}, {V64}) -> !pto.vmi.vreg<128xf32>',
        f'%r = "pto.vmi.channel_merge"(%a, %b) : ({V64}, {V64}) -> {V64}',
        "requires result lane count and element type to match merged channels",
    ),
]


@pytest.mark.parametrize(("valid", "invalid", "message"), CASES, ids=[c[2][:40] for c in CASES])
def test_vmi_rule(valid: str, invalid: str, message: str) -> None:
    location = check_rule(_verify, valid, invalid, message).location
    assert location is not None and location.line == 2
