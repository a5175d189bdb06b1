"""PTOAS's VMI lowering checks (`passes/analysis/vmi_lowering_checks.py`,
`vmi_to_vpto_checks.py`): the
layout-support gate of `-pto-validate-vmi-layout-ir`, the op survey of `-vmi-to-vpto`,
the legacy ops' verifiers after `-vmi-lower-unified-to-legacy`, layout assignment's
call boundaries; and the physical lanes they read (`dialects/pto/vmi_lanes.py`).

Each kernel is ours; the verdicts are worked out by hand from the register sizes (one
register holds 64 f32 or 128 f16 lanes, eight 32-byte blocks) and the tables' rows:
a kernel is accepted, then changed in one thing and rejected with PTOAS's message.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute
from xla_emit.dialects.pto.vmi_lanes import (
    chunks_in_part,
    is_padding_lane,
    logical_to_physical,
    padding_free,
    physical_to_logical,
)
from xla_emit.passes.analysis.vmi_pass_checks import check_vmi_passes

from tests.passes.vmi_checks import pass_error, verified_module

ROOT = Path(__file__).resolve().parents[2]
GATE = ["vmi-lower-unified-to-legacy", "pto-validate-vmi-layout-ir"]
TO_VPTO = ["vmi-lower-unified-to-legacy", "vmi-to-vpto"]
FULL = [
    "vmi-lower-unified-to-legacy",
    "vmi-mask-granularity-assignment",
    "vmi-layout-assignment",
    "vmi-to-vpto",
]


def vreg(count: int, element: str = "f32", layout: str = "contiguous") -> str:
    return f"!pto.vmi.vreg<{count}x{element}, #pto.vmi.layout<{layout}>>"


def mask(count: int, granularity: str = "b32", layout: str = "contiguous") -> str:
    return f"!pto.vmi.mask<{count}x{granularity}, #pto.vmi.layout<{layout}>>"


def kernel(args: str, body: str, extra: str = "") -> ModuleOp:
    text = f"module {{\n{extra}\nfunc.func @k({args}) {{\n{body}\nreturn\n}}\n}}\n"
    return verified_module(text)


def vtype(text: str) -> Attribute:
    module = kernel(f"%a: {text}", "")
    return module.body.block.first_op.args[0].type  # type: ignore[union-attr]


# -- physical lanes -----------------------------------------------------------------------


def test_a_whole_register_has_no_padding() -> None:
    assert padding_free(vtype(vreg(128))) is None
    assert [chunks_in_part(vtype(vreg(128)), 0)] == [2]


def test_lanes_past_the_logical_count_are_padding() -> None:
    # 96 f32 lanes: register 0 full, register 1 holds lanes 64..95 in its first 32.
    type_ = vtype(vreg(96))
    assert not is_padding_lane(type_, 0, 1, 31)
    assert is_padding_lane(type_, 0, 1, 32)
    assert padding_free(type_) == "found padding lane in physical chunk"


def test_deinterleaved_parts_take_every_other_lane() -> None:
    # 130 lanes in two parts: part 0 gets 65 (lanes 0, 2, ..., 128), part 1 gets 65.
    type_ = vtype(vreg(130, layout="deinterleaved = 2"))
    assert chunks_in_part(type_, 0) == 2 and chunks_in_part(type_, 1) == 2
    assert not is_padding_lane(type_, 1, 1, 0) and is_padding_lane(type_, 1, 1, 1)
    assert padding_free(vtype(vreg(128, layout="deinterleaved = 2"))) is None


def test_block_deinterleaving_deals_out_32_byte_blocks() -> None:
    # f32 blocks of 8 lanes go to parts 0 and 1 in turn: lane 8 starts part 1, lane 16
    # continues part 0 at its index 8.
    type_ = vtype(vreg(64, layout="block_deinterleaved = 2"))
    assert logical_to_physical(type_, 7) == (0, 0, 7)
    assert logical_to_physical(type_, 8) == (1, 0, 0)
    assert logical_to_physical(type_, 16) == (0, 0, 8)
    assert physical_to_logical(type_, 1, 0, 9) == 25
    assert physical_to_logical(type_, 1, 0, 32) is None  # padding: part 1 holds 32 lanes


def test_group_slots_fill_only_their_slots() -> None:
    type_ = vtype(vreg(8, layout="num_groups = 8, slots = 8"))
    assert not is_padding_lane(type_, 0, 0, 7) and is_padding_lane(type_, 0, 0, 8)


# -- the support gate of -pto-validate-vmi-layout-ir ------------------------------------


def store(value: str) -> ModuleOp:
    return kernel(
        f"%v: {value}, %p: !pto.ptr<f32, ub>, %o: index",
        f"pto.vmi.vstore %v, %p[%o] : {value}, !pto.ptr<f32, ub>",
    )


def test_a_deinterleaved_store_has_a_table_row() -> None:
    check_vmi_passes(store(vreg(128, layout="deinterleaved = 2")), GATE)


def test_a_block_deinterleaved_store_has_none() -> None:
    name, message = pass_error(store(vreg(128, layout="block_deinterleaved = 2")), GATE)
    assert name == "pto.vmi.vstore"
    assert message.startswith(
        "VMI-LAYOUT-CONTRACT: pto.vmi.store has no registered contiguous-memory layout "
        "support: value layout does not match a supported dense store table row; VMI types: "
        "operand#0=!pto.vmi.vreg<128xf32, #pto.vmi.layout<block_deinterleaved = 2>>"
    )


def test_the_gate_reads_unified_ops_only_after_their_rewrite() -> None:
    # Without the rewrite the unified store is no legacy store: the gate does not read it.
    check_vmi_passes(store(vreg(128, layout="block_deinterleaved = 2")), GATE[1:])


def group_reduce(result_layout: str) -> ModuleOp:
    # Groups of 8 f32 lanes: one 32-byte block each, the row `contiguous -> slots = 8`.
    source, m = vreg(64), mask(64)
    result = vreg(8, layout=result_layout)
    return kernel(
        f"%s: {source}, %m: {m}",
        f"%r = pto.vmi.vcadd %s, %m {{group = 8, reassoc}} : {source}, {m} -> {result}",
    )


def test_a_group_reduce_row_for_one_block_groups() -> None:
    check_vmi_passes(group_reduce("num_groups = 8, slots = 8"), GATE)
    name, message = pass_error(group_reduce("num_groups = 8, slots = 4"), GATE)
    assert name == "pto.vmi.vcadd"
    assert message.startswith(
        "VMI-LAYOUT-CONTRACT: pto.vmi.group_reduce_addf has no registered group_slots layout "
        "support: group_reduce source/mask/result layouts do not match a legal layout table "
        "row for the group size"
    )


def ensure(count: int, use: bool) -> ModuleOp:
    source, result = vreg(count), vreg(count, layout="deinterleaved = 2")
    body = f"%e = pto.vmi.ensure_layout %a : {source} -> {result}"
    if use:
        body += f"\n%s = pto.vmi.vadd %e, %b : {result}, {result} -> {result}"
    return kernel(f"%a: {source}, %b: {result}", body)


def test_ensure_layout_splits_whole_registers_only() -> None:
    check_vmi_passes(ensure(128, use=False), ["pto-validate-vmi-layout-ir"])
    name, message = pass_error(ensure(96, use=False), ["pto-validate-vmi-layout-ir"])
    assert (name, message) == (
        "pto.vmi.ensure_layout",
        "VMI-LAYOUT-CONTRACT: pto.vmi.ensure_layout has no registered materialization "
        "support: source/result layouts do not match a supported ensure_layout table row",
    )


def test_a_helper_with_one_user_is_reported_on_that_user() -> None:
    name, message = pass_error(ensure(96, use=True), ["pto-validate-vmi-layout-ir"])
    assert name == "pto.vmi.vadd"
    assert message.startswith(
        "VMI-LAYOUT-CONTRACT: pto.vmi.vadd operand #0 has type !pto.vmi.vreg<96xf32, "
        "#pto.vmi.layout<contiguous>> but requires !pto.vmi.vreg<96xf32, "
        "#pto.vmi.layout<deinterleaved = 2>>; pto.vmi.ensure_layout has no registered"
    )


@pytest.mark.parametrize(
    ("layout", "ok"), [("contiguous", True), ("deinterleaved = 2", False)], ids=["c", "d2"]
)
def test_a_width_changing_bitcast_keeps_a_contiguous_layout(layout: str, ok: bool) -> None:
    source, result = vreg(64, layout=layout), vreg(128, "i16", layout)
    module = kernel(f"%a: {source}", f"%b = pto.vmi.vinterpret_cast %a : {source} -> {result}")
    if ok:
        check_vmi_passes(module, GATE)
        return
    _, message = pass_error(module, GATE)
    assert message.startswith(
        "VMI-LAYOUT-CONTRACT: pto.vmi.bitcast has no registered layout support: "
        "width-changing bitcast layout does not match a bitcast layout table row"
    )


@pytest.mark.parametrize(
    ("layout", "ok"), [("deinterleaved = 2", True), ("contiguous", False)], ids=["d2", "c"]
)
def test_extf_widens_into_two_parts(layout: str, ok: bool) -> None:
    source, result = vreg(128, "f16"), vreg(128, layout=layout)
    module = kernel(f"%a: {source}", f"%b = pto.vmi.vcvt %a : {source} -> {result}")
    if ok:
        check_vmi_passes(module, GATE)
        return
    _, message = pass_error(module, GATE)
    assert message.startswith(
        "VMI-LAYOUT-CONTRACT: pto.vmi.extf has no registered layout support: "
        "source/result layouts do not match a legal cast table row"
    )


# -- the op survey of -vmi-to-vpto --------------------------------------------------------


def reduce(count: int) -> ModuleOp:
    source, m, result = vreg(count), mask(count), vreg(1)
    return kernel(
        f"%s: {source}, %m: {m}",
        f"%r = pto.vmi.vcadd %s, %m {{reassoc}} : {source}, {m} -> {result}",
    )


def test_a_reduction_reads_whole_registers() -> None:
    check_vmi_passes(reduce(128), TO_VPTO)
    name, message = pass_error(reduce(96), TO_VPTO)
    assert name == "pto.vmi.vcadd"
    assert message.startswith("VMI-UNSUPPORTED: pto.vmi.reduce_addf lowers through pto.vcadd")
    assert message.endswith(
        "(requires full source physical chunks so padding lanes do not participate in the "
        "reduction; found padding lane in physical chunk)"
    )


def compress(count: int) -> ModuleOp:
    source, m = vreg(count), mask(count)
    return kernel(
        f"%s: {source}, %m: {m}",
        f"%r = pto.vmi.compress %s, %m : {source}, {m} -> {source}",
    )


def test_compress_works_on_one_register() -> None:
    check_vmi_passes(compress(64), ["vmi-to-vpto"])
    _, message = pass_error(compress(128), ["vmi-to-vpto"])
    assert message == (
        "VMI-UNSUPPORTED: pto.vmi.compress lowers through pto.vsqz only for one contiguous "
        "full physical chunk (requires a single physical chunk; multi-chunk compress needs "
        "cross-chunk compaction)"
    )


def gather(element: str) -> ModuleOp:
    width = element.removeprefix("f")
    result, offsets, m = vreg(64, element), vreg(64, "i32"), mask(64, f"b{width}")
    return kernel(
        f"%p: !pto.ptr<{element}, ub>, %i: {offsets}, %m: {m}",
        f"%g = pto.vmi.vgather %p, %i, %m : !pto.ptr<{element}, ub>, {offsets}, {m} -> {result}",
    )


def test_gather_loads_32_bit_lanes() -> None:
    check_vmi_passes(gather("f32"), TO_VPTO)
    _, message = pass_error(gather("f16"), TO_VPTO)
    assert message.endswith(
        "(requires either 32-bit results with 32-bit indices and b32 mask, or ui16 results "
        "with ui16 indices and b16 mask)"
    )


def vselr(count: int, layouts: bool) -> ModuleOp:
    source = vreg(count) if layouts else f"!pto.vmi.vreg<{count}xf32>"
    index = vreg(count, "i32") if layouts else f"!pto.vmi.vreg<{count}xi32>"
    return kernel(
        f"%s: {source}, %i: {index}",
        f"%r = pto.vmi.vselr %s, %i : {source}, {index} -> {source}",
    )


def test_vselr_of_32_bit_lanes_takes_one_full_register() -> None:
    check_vmi_passes(vselr(64, layouts=True), ["vmi-to-vpto"])
    check_vmi_passes(vselr(64, layouts=False), FULL)
    for module, flags in ((vselr(32, True), ["vmi-to-vpto"]), (vselr(32, False), FULL)):
        _, message = pass_error(module, flags)
        assert message.startswith(
            "VMI-UNSUPPORTED: pto.vmi.vselr supports only contiguous lane_stride=1 layouts"
        )


def test_a_merging_vector_scalar_op_has_no_lowering() -> None:
    source, m = "!pto.vmi.vreg<64xf32>", "!pto.vmi.mask<64xpred>"
    body = "%r = pto.vmi.vmuls %s, %c, %m {{pmode = {}}} : {}, f32, {} -> {}"
    check_vmi_passes(
        kernel(f"%s: {source}, %c: f32, %m: {m}", body.format('"zero"', source, m, source)), FULL
    )
    module = kernel(f"%s: {source}, %c: f32, %m: {m}", body.format('"merge"', source, m, source))
    assert pass_error(module, FULL) == (
        "pto.vmi.vmuls",
        "VMI-UNSUPPORTED: pto.vmi.vmuls with pmode=merge requires an explicit passthru lowering",
    )


def test_channel_split_keeps_the_register_count() -> None:
    # 96 f32 lanes in one padded register pair (2 registers) split into two 48-lane
    # channels of one register each: 2 = 1 + 1. 80 lanes: 2 registers, two 40-lane
    # channels of one register each; 200 lanes: 4 registers, two 100-lane channels of
    # two registers each: still equal. 96 lanes in three channels of 32: 2 vs 3.
    source = vreg(96)
    channel = vreg(32)
    module = kernel(
        f"%a: {source}",
        f'%c:3 = "pto.vmi.channel_split"(%a) : ({source}) -> ({channel}, {channel}, {channel})',
    )
    _name, message = pass_error(module, ["vmi-to-vpto"])
    assert message == "VMI-UNSUPPORTED: pto.vmi.channel_split supports only 2 or 4 channels"
    two = kernel(
        f"%a: {vreg(130)}",
        f'%c:2 = "pto.vmi.channel_split"(%a) : ({vreg(130)}) -> ({vreg(65)}, {vreg(65)})',
    )
    # 130 lanes: 3 registers; two 65-lane channels: 2 registers each, 4 in all.
    _, message = pass_error(two, ["vmi-to-vpto"])
    assert message.endswith("(requires source and result to have the same physical arity)")


# -- after -vmi-lower-unified-to-legacy -------------------------------------------------


def test_an_integer_lane_sum_becomes_reduce_addi_of_32_bit_lanes() -> None:
    source, m = vreg(128, "i16"), mask(128, "b16")
    module = kernel(
        f"%s: {source}, %m: {m}",
        f"%r = pto.vmi.vcadd %s, %m : {source}, {m} -> {vreg(1, 'i16')}",
    )
    check_vmi_passes(module, ["pto-validate-vmi-layout-ir"])
    assert pass_error(module, GATE) == (
        "pto.vmi.vcadd",
        "as 'pto.vmi.reduce_addi': requires 32-bit integer source element type",
    )


def test_a_store_to_global_memory_is_no_vmi_store() -> None:
    value = vreg(64)
    module = kernel(
        f"%v: {value}, %p: !pto.ptr<f32, gm>, %o: index",
        f"pto.vmi.vstore %v, %p[%o] : {value}, !pto.ptr<f32, gm>",
    )
    name, message = pass_error(module, TO_VPTO)
    assert name == "pto.vmi.vstore"
    assert message.startswith("as 'pto.vmi.store': ") and "UB" in message


# -- -vmi-layout-assignment -------------------------------------------------------------


def test_layout_assignment_needs_the_bodies_of_vmi_functions() -> None:
    value = "!pto.vmi.vreg<64xf32>"
    flags = ["vmi-mask-granularity-assignment", "vmi-layout-assignment"]
    defined = f"func.func @ext(%x: {value}) -> {value} {{\nreturn %x : {value}\n}}"
    check_vmi_passes(kernel(f"%a: {value}", "", defined), flags)
    declared = f"func.func private @ext({value}) -> {value}"
    assert pass_error(kernel(f"%a: {value}", "", declared), flags) == (
        "func.func",
        "VMI-LAYOUT-CONTRACT: VMI typed function declaration requires an explicit external "
        "ABI materialization plan",
    )


@pytest.mark.slow  # one tool run; the fast tests above cover the gate's rules
def test_the_gate_pass_reports_a_located_error(tmp_path: Path) -> None:
    value = vreg(128, layout="block_deinterleaved = 2")
    path = tmp_path / "store.mlir"
    path.write_text(
        "module {\n"
        f"  func.func @k(%v: {value}, %p: !pto.ptr<f32, ub>, %o: index) {{\n"
        f'    "pto.vmi.store"(%v, %p, %o) : ({value}, !pto.ptr<f32, ub>, index) -> ()\n'
        "    return\n  }\n}\n"
    )
    run = subprocess.run(
        [sys.executable, "-m", "xla_emit.tools.opt", str(path), "-p", "pto-validate-vmi-layout-ir"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert run.returncode == 1, run.stderr
    assert f"{path}:3:5: error:" in run.stderr
    assert "pto.vmi.store has no registered contiguous-memory layout support" in run.stderr
    assert "Traceback" not in run.stderr


# -- grouped memory ops of -vmi-to-vpto ---------------------------------------------------


def slot_load(slots: int, stride: str) -> ModuleOp:
    result = vreg(8, layout=f"num_groups = 8, slots = {slots}")
    return kernel(
        "%p: !pto.ptr<f32, ub>, %o: index, %d: index",
        f"%c1 = arith.constant 1 : index\n%c8 = arith.constant 8 : index\n"
        f"%c2 = arith.constant 2 : index\n"
        f"%r = pto.vmi.group_slot_load %p[%o], {stride} {{num_groups = 8}} "
        f": !pto.ptr<f32, ub> -> {result}",
    )


@pytest.mark.parametrize(
    ("slots", "stride", "ok"),
    [(8, "%c1", True), (8, "%c8", False), (1, "%c8", True), (1, "%c2", False), (1, "%d", False)],
    ids=["8-unit", "8-strided", "1-block", "1-unaligned", "1-dynamic"],
)
def test_slot_loads_read_eight_neighbours_or_one_block_per_group(
    slots: int, stride: str, ok: bool
) -> None:
    # Eight f32 slots are one 32-byte block of neighbours; one slot per group is a
    # scalar load per group, which must start on a 32-byte (8 x f32) boundary.
    module = slot_load(slots, stride)
    if ok:
        check_vmi_passes(module, ["vmi-to-vpto"])
        return
    _, message = pass_error(module, ["vmi-to-vpto"])
    assert message.startswith("VMI-UNSUPPORTED: pto.vmi.group_slot_load requires explicit")
    expected = "constant unit source_group_stride" if slots == 8 else "divisible by 8 elements"
    assert expected in message


def test_a_stride_no_slot_layout_reads_is_refused_before_layouts_are_known() -> None:
    surface = "!pto.vmi.vreg<8xf32>"
    body = (
        "%c2 = arith.constant 2 : index\n%c8 = arith.constant 8 : index\n"
        "%r = pto.vmi.group_slot_load %p[%o], {} {{num_groups = 8}} "
        f": !pto.ptr<f32, ub> -> {surface}"
    )
    flags = FULL[1:]
    check_vmi_passes(kernel("%p: !pto.ptr<f32, ub>, %o: index", body.format("%c8")), flags)
    _, message = pass_error(kernel("%p: !pto.ptr<f32, ub>, %o: index", body.format("%c2")), flags)
    assert "slots=8 group_slot_load requires constant unit source_group_stride; slots=1" in message


def one_block_store(stride: int) -> ModuleOp:
    # 128 bf16 lanes in 8 groups of 16: one 32-byte block per group, one vsstb whose
    # block stride is the row stride in blocks.
    value = vreg(128, "bf16")
    return kernel(
        f"%v: {value}, %p: !pto.ptr<bf16, ub>, %o: index",
        f"%s = arith.constant {stride} : index\n"
        f"pto.vmi.group_store %v, %p[%o], %s {{num_groups = 8 : i64}} "
        f": {value}, !pto.ptr<bf16, ub>",
    )


def test_a_one_block_group_store_strides_at_most_65535_blocks() -> None:
    check_vmi_passes(one_block_store(16 * 0xFFFF), ["vmi-to-vpto"])
    _, message = pass_error(one_block_store(16 * 0x10000), ["vmi-to-vpto"])
    assert message.endswith(
        "(one-block group_store block_stride exceeds the 16-bit vsstb control field)"
    )


def test_a_broadcast_load_of_two_block_groups_needs_a_unit_stride() -> None:
    result = vreg(256, "bf16", "deinterleaved = 2")
    body = (
        "%c1 = arith.constant 1 : index\n"
        "%r = pto.vmi.group_broadcast_load %p[%o], {} {{num_groups = 8}} "
        f": !pto.ptr<bf16, ub> -> {result}"
    )
    args = "%p: !pto.ptr<bf16, ub>, %o: index, %s: index"
    check_vmi_passes(kernel(args, body.format("%c1")), ["vmi-to-vpto"])
    _, message = pass_error(kernel(args, body.format("%s")), ["vmi-to-vpto"])
    assert "group_broadcast_load requires a table row for result layout" in message


def test_layout_assignment_plans_strided_f32_group_loads_in_whole_blocks() -> None:
    surface = "!pto.vmi.vreg<128xf32>"
    body = (
        "%s = arith.constant {} : index\n"
        f"%x = pto.vmi.vload %p[%o], %s {{{{group = 8}}}} : !pto.ptr<f32, ub> -> {surface}"
    )
    flags = FULL[:-1]
    args = "%p: !pto.ptr<f32, ub>, %o: index"
    for stride in (16, 24):  # rows back to back, or 32-byte aligned rows
        check_vmi_passes(kernel(args, body.format(stride)), flags)
    _, message = pass_error(kernel(args, body.format(12)), flags)
    assert message == (
        "VMI-LAYOUT-CONTRACT: pto.vmi.group_load group_size 16 requires constant positive "
        "row_stride divisible by 8 f32 elements for the block8 stride plan; stable gather "
        "fallback is not implemented"
    )


# -- dense stores, expand loads, casts of -vmi-to-vpto -----------------------------------


def test_a_tail_store_of_unequal_deinterleaved_parts_cannot_be_made_contiguous() -> None:
    # 130 lanes: parts of 65 lanes, two registers each; 129 lanes: parts of 65 and 64,
    # two registers and one.
    check_vmi_passes(store(vreg(130, layout="deinterleaved = 2")), TO_VPTO)
    _, message = pass_error(store(vreg(129, layout="deinterleaved = 2")), TO_VPTO)
    assert message.endswith(
        "materialization requires every deinterleaved part to have the same physical chunk count)"
    )


def expand_load(active: int, count: int) -> ModuleOp:
    data, m = vreg(count), mask(count)
    return kernel(
        f"%p: !pto.ptr<f32, ub>, %o: index, %t: {data}",
        f"%n = arith.constant {active} : index\n"
        f"%m = pto.vmi.create_mask %n : index -> {m}\n"
        f"%r = pto.vmi.expand_load %p[%o], %m, %t : !pto.ptr<f32, ub>, {m}, {data} -> {data}",
    )


def test_a_runtime_mask_expand_load_fits_one_register() -> None:
    check_vmi_passes(expand_load(4, 64), ["vmi-to-vpto"])
    check_vmi_passes(expand_load(128, 128), ["vmi-to-vpto"])  # all lanes: a plain load
    _, message = pass_error(expand_load(4, 128), ["vmi-to-vpto"])
    assert message.endswith(
        "(runtime-mask path currently supports only one physical chunk because prefix indices "
        "must not reset across chunks)"
    )


def test_truncf_narrows_four_parts_into_two() -> None:
    source = vreg(256, layout="deinterleaved = 4")
    body = '%h = pto.vmi.vcvt %a {{saturate = "SAT"}} : {} -> {}'
    good = kernel(f"%a: {source}", body.format(source, vreg(256, "f16", "deinterleaved = 2")))
    check_vmi_passes(good, TO_VPTO)
    bad = kernel(f"%a: {source}", body.format(source, vreg(256, "f16")))
    _, message = pass_error(bad, TO_VPTO)
    assert message.startswith("VMI-UNSUPPORTED: pto.vmi.truncf supports f32/f16/bf16")
    assert message.endswith("(source/result layouts do not match a legal cast table row)")


@pytest.mark.parametrize(
    ("wide", "narrow", "sat", "ok"),
    [
        ("i32", "ui8", "SAT", True),  # vcvt s32 -> u8
        ("ui32", "ui8", "SAT", True),  # vcvt u32 -> u8
        ("si32", "si8", "NOSAT", True),  # converted as ui32 -> ui8 between bitcasts
        ("i32", "i8", "SAT", False),  # signless counts as signed: vcvt has no s32 -> s8
        ("i32", "i8", "NOSAT", False),
    ],
)
def test_trunci_builds_a_vcvt_of_its_element_types(
    wide: str, narrow: str, sat: str, ok: bool
) -> None:
    source = vreg(256, wide, "deinterleaved = 4")
    body = f'%h = pto.vmi.vcvt %a {{saturate = "{sat}"}} : {source} -> {vreg(256, narrow)}'
    module = kernel(f"%a: {source}", body)
    if ok:
        check_vmi_passes(module, TO_VPTO)
    else:
        assert pass_error(module, TO_VPTO) == (
            "pto.vmi.vcvt",
            "'pto.vcvt' op unsupported vcvt source/result element type pair",
        )
    # The survey of what it converts accepts them all: the op built is what fails.
    check_vmi_passes(module, GATE)


def test_a_nosat_trunci_into_strided_lanes_builds_no_vcvt() -> None:
    source = vreg(64, "i32")
    result = vreg(64, "i8", "contiguous, lane_stride = 4")
    body = '%h = pto.vmi.vcvt %a {{saturate = "{}"}} : {} -> {}'
    check_vmi_passes(kernel(f"%a: {source}", body.format("NOSAT", source, result)), TO_VPTO)
    sat = kernel(f"%a: {source}", body.format("SAT", source, result))
    assert pass_error(sat, TO_VPTO)[1].endswith("unsupported vcvt source/result element type pair")


def test_a_unified_op_the_rewrite_keeps_is_left_unconverted() -> None:
    body = "%r = pto.vmi.vmula %a, %a, %a : {t}, {t}, {t} -> {t}"
    floats, ints = "!pto.vmi.vreg<64xf32>", "!pto.vmi.vreg<64xi32>"
    check_vmi_passes(kernel(f"%a: {floats}", body.format(t=floats)), FULL)
    # An integer vmula has no legacy fma, and -vmi-to-vpto no pattern of its own.
    assert pass_error(kernel(f"%a: {ints}", body.format(t=ints)), FULL) == (
        "pto.vmi.vmula",
        "VMI-RESIDUAL-OP: failed to convert all VMI ops/types to VPTO",
    )


# -- the memory access plan of -vmi-to-vpto ---------------------------------------------


VEC = "#pto.address_space<vec>"


@pytest.mark.parametrize(
    ("memref", "ok"),
    [
        (f"memref<128xf32, {VEC}>", True),
        (f"memref<128xf32, strided<[1], offset: 0>, {VEC}>", True),
        (f"memref<128xf32, strided<[2], offset: 0>, {VEC}>", False),
        (f"memref<128xf32, strided<[1], offset: 4>, {VEC}>", False),
    ],
    ids=["identity", "strided-identity", "stride-2", "offset-4"],
)
def test_a_load_plans_lane_addresses_only_for_identity_memrefs(memref: str, ok: bool) -> None:
    result = vreg(64)
    module = kernel(
        f"%m: {memref}",
        f"%c0 = arith.constant 0 : index\n%v = pto.vmi.vload %m[%c0] : {memref} -> {result}",
    )
    if ok:
        check_vmi_passes(module, TO_VPTO)
        return
    _, message = pass_error(module, TO_VPTO)
    assert message == (
        "VMI-UNSUPPORTED: pto.vmi.load direct lowering requires a supported memory source "
        "(source memref layout is non-identity; current VMI memory access plan supports only "
        "contiguous identity lane-to-address maps)"
    )


def test_a_store_into_a_subview_says_the_view_needs_planning() -> None:
    value, whole = vreg(64), f"memref<128xf32, {VEC}>"
    view = f"memref<64xf32, strided<[1], offset: ?>, {VEC}>"
    module = kernel(
        f"%v: {value}, %m: {whole}, %o: index",
        f"%c0 = arith.constant 0 : index\n"
        f"%s = memref.subview %m[%o] [64] [1] : {whole} to {view}\n"
        f"pto.vmi.vstore %v, %s[%c0] : {value}, {view}",
    )
    _, message = pass_error(module, TO_VPTO)
    assert message.startswith("VMI-UNSUPPORTED: pto.vmi.store requires an 8/16/32-bit")
    assert message.endswith(
        "; memref.subview requires normalized base/offset/stride lane-to-address planning)"
    )


def test_layout_assignment_cannot_see_through_an_indirect_call() -> None:
    value = "!pto.vmi.vreg<64xf32>"
    callee = f"({value}) -> {value}"
    flags = ["vmi-mask-granularity-assignment", "vmi-layout-assignment"]
    scalar = kernel("%f: (f32) -> f32, %x: f32", "%r = func.call_indirect %f(%x) : (f32) -> f32")
    check_vmi_passes(scalar, flags)
    vector = kernel(f"%f: {callee}, %x: {value}", f"%r = func.call_indirect %f(%x) : {callee}")
    assert pass_error(vector, flags) == (
        "func.call_indirect",
        "VMI-LAYOUT-CONTRACT: VMI typed call requires a direct internal callee with a body",
    )


def shuffle(indices: list[int]) -> ModuleOp:
    source, result = vreg(128), vreg(len(indices))
    listed = ", ".join(map(str, indices))
    return kernel(
        f"%a: {source}",
        f'%s = "pto.vmi.shuffle"(%a) {{indices = array<i64: {listed}>}} : ({source}) -> {result}',
    )


@pytest.mark.parametrize(
    "indices",
    [list(range(64, 128)), [0] * 8, list(range(63, -1, -1))],
    ids=["forward-register-1", "splat-lane-0", "reverse-register-0"],
)
def test_a_shuffle_forwards_a_register_splats_lane_0_or_selects_affinely(
    indices: list[int],
) -> None:
    # Source lanes 64..127 are register 1 in place; all-0 is a splat; 63..0 reverses
    # register 0, which vselr does with descending `vci` indices.
    check_vmi_passes(shuffle(indices), ["vmi-to-vpto"])


def test_a_shuffle_of_shifted_lanes_into_a_partial_register_has_no_plan() -> None:
    _, message = pass_error(shuffle([1, 2, 3, 4]), ["vmi-to-vpto"])
    assert message.endswith(
        "(forwarding: requires same-lane physical chunks; lane0 splat: requires every result "
        "lane to select source lane 0; vselr: requires full physical result chunks)"
    )
