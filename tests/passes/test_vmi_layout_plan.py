"""The layouts PTOAS's VMI layout assignment settles (`passes/analysis/vmi_layout_plan.py`)
and what its `apply` and `-vmi-to-vpto` refuse of them, on kernels of ours.

Worked by hand: a register holds 64 f32 lanes in 8 blocks of 8 (32 bytes each). A group
of 16 f32 lanes is 2 blocks, of 32 lanes 4 blocks, of 64 lanes one whole register; a
group of 20 lanes is no whole number of blocks, so no group-reduce row has it. Rows of a
strided group load 8-aligned (stride 24, 48) take the block8 plan; rows back to back
(stride = group size) load contiguous. The only `ensure_layout` row from `contiguous`
into `deinterleaved = 4` for f32 is for 256 lanes."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xla_emit.passes.analysis.vmi_pass_checks import check_vmi_passes

from tests.passes.vmi_checks import pass_error, verified_module

ASSIGN = ["vmi-lower-unified-to-legacy", "vmi-mask-granularity-assignment", "vmi-layout-assignment"]
LOWER = [*ASSIGN, "vmi-to-vpto"]


def _grouped_sum(lanes: int, groups: int, stride: int, mask: str = "arg") -> ModuleOp:
    """A strided group load summed per group; the mask an argument or made here."""
    vreg, mask_type = f"!pto.vmi.vreg<{lanes}xf32>", f"!pto.vmi.mask<{lanes}xpred>"
    sums = f"!pto.vmi.vreg<{groups}xf32>"
    mask_arg = f", %m: {mask_type}" if mask == "arg" else ""
    make_mask = (
        ""
        if mask == "arg"
        else f"    %n = arith.constant {lanes} : index\n"
        f"    %m = pto.vmi.create_mask %n : index -> {mask_type}\n"
    )
    return verified_module(f"""module {{
  func.func @k(%src: !pto.ptr<f32, ub>, %dst: !pto.ptr<f32, ub>, %i: index{mask_arg}) {{
    %one = arith.constant 1 : index
    %stride = arith.constant {stride} : index
{make_mask}    %x = pto.vmi.vload %src[%i], %stride {{group = {groups}}}
        : !pto.ptr<f32, ub> -> {vreg}
    %s = pto.vmi.vcadd %x, %m {{group = {groups}, reassoc}} : {vreg}, {mask_type} -> {sums}
    pto.vmi.vstore %s, %dst[%i], %one {{group = {groups}}} : {sums}, !pto.ptr<f32, ub>
    return
  }}
}}
""")


def test_a_block8_sum_is_assigned_but_its_argument_mask_is_not_lowered() -> None:
    kernel = _grouped_sum(256, 8, 48)  # 32 lanes a group: block_deinterleaved = 4
    check_vmi_passes(kernel, ASSIGN)
    assert pass_error(kernel, LOWER) == (
        "pto.vmi.vcadd",
        "VMI-RESIDUAL-OP: failed to convert all VMI ops/types to VPTO",
    )
    assert pass_error(_grouped_sum(256, 16, 24), LOWER)[1].startswith("VMI-RESIDUAL-OP")


def test_a_sum_without_the_block8_plan_lowers() -> None:
    check_vmi_passes(_grouped_sum(256, 4, 80), LOWER)  # 64 lanes a group: one register
    # A mask made in the kernel may take the block layout itself: nothing is claimed.
    check_vmi_passes(_grouped_sum(256, 8, 48, mask="made"), LOWER)


def _narrowed(stride: int) -> ModuleOp:
    vreg, half = "!pto.vmi.vreg<256xf32>", "!pto.vmi.vreg<256xbf16>"
    return verified_module(f"""module {{
  func.func @k(%src: !pto.ptr<f32, ub>, %dst: !pto.ptr<bf16, ub>, %i: index) {{
    %stride = arith.constant {stride} : index
    %x = pto.vmi.vload %src[%i], %stride {{group = 16}} : !pto.ptr<f32, ub> -> {vreg}
    %h = pto.vmi.vcvt %x {{saturate = "SAT"}} : {vreg} -> {half}
    pto.vmi.vstore %h, %dst[%i] : {half}, !pto.ptr<bf16, ub>
    return
  }}
}}
""")


def test_a_narrowing_cast_of_a_block8_value_has_no_helper() -> None:
    assert pass_error(_narrowed(24), LOWER) == (
        "pto.vmi.vcvt",
        "VMI-UNSUPPORTED: pto.vmi.truncf operand #0 has type "
        "!pto.vmi.vreg<256xf32, #pto.vmi.layout<block_deinterleaved = 2>> but requires "
        "!pto.vmi.vreg<256xf32, #pto.vmi.layout<contiguous>>; pto.vmi.ensure_layout cannot "
        "materialize this conversion",
    )
    check_vmi_passes(_narrowed(24), ASSIGN)
    check_vmi_passes(_narrowed(16), LOWER)  # rows back to back: a contiguous load


def _summed_argument(lanes: int, groups: int, called: bool = False) -> ModuleOp:
    vreg, mask_type = f"!pto.vmi.vreg<{lanes}xf32>", f"!pto.vmi.mask<{lanes}xpred>"
    sums = f"!pto.vmi.vreg<{groups}xf32>"
    caller = (
        f"""  func.func @caller(%v: {vreg}, %m: {mask_type}, %dst: !pto.ptr<f32, ub>, %i: index) {{
    func.call @k(%v, %m, %dst, %i) : ({vreg}, {mask_type}, !pto.ptr<f32, ub>, index) -> ()
    return
  }}
"""
        if called
        else ""
    )
    return verified_module(f"""module {{
  func.func @k(%v: {vreg}, %m: {mask_type}, %dst: !pto.ptr<f32, ub>, %i: index) {{
    %one = arith.constant 1 : index
    %s = pto.vmi.vcadd %v, %m {{group = {groups}, reassoc}} : {vreg}, {mask_type} -> {sums}
    pto.vmi.vstore %s, %dst[%i], %one {{group = {groups}}} : {sums}, !pto.ptr<f32, ub>
    return
  }}
{caller}}}
""")


def test_a_sum_of_arguments_needs_an_ensure_layout_row() -> None:
    check_vmi_passes(_summed_argument(256, 8), LOWER)  # 256 lanes: a row exists
    assert pass_error(_summed_argument(320, 10), LOWER) == (
        "pto.vmi.vcadd",
        "VMI-UNSUPPORTED: pto.vmi.group_reduce_addf operand #0 has type "
        "!pto.vmi.vreg<320xf32, #pto.vmi.layout<contiguous>> but requires "
        "!pto.vmi.vreg<320xf32, #pto.vmi.layout<deinterleaved = 4>>; "
        "pto.vmi.ensure_layout cannot materialize this conversion",
    )
    check_vmi_passes(_summed_argument(320, 10), ASSIGN)
    # A call may give the argument another layout: nothing is claimed.
    check_vmi_passes(_summed_argument(320, 10, called=True), LOWER)


def test_a_store_of_a_sum_without_a_group_row_cannot_be_materialized() -> None:
    check_vmi_passes(_summed_argument(128, 8), ASSIGN)  # 16 lanes a group
    assert pass_error(_summed_argument(160, 8), ASSIGN) == (  # 20 lanes a group
        "pto.vmi.vstore",
        "VMI-LAYOUT-CONTRACT: cannot materialize requested VMI operand layout "
        "#pto.vmi.layout<num_groups = 8, slots = 8>",
    )
    # Fewer than 8 groups are stored one slot each.
    assert "num_groups = 4" in pass_error(_summed_argument(80, 4), ASSIGN)[1]
