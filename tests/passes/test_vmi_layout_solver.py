"""The conflicts of PTOAS's VMI solvers (`passes/analysis/vmi_layout_solver.py`) on
kernels of ours. Granularities by hand: a compare of f16 lanes makes a b16 mask, of
f32 lanes a b32 one. Preferred layouts by hand: a register is 2048 bits, so 128 f16
lanes widened into f32 fill two registers and prefer `deinterleaved = 2`, 128 8-bit
lanes widened 4x prefer `deinterleaved = 4`, and 64 lanes of either, lane-strided in
one source register, widen into one contiguous register."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xla_emit.passes.analysis.vmi_pass_checks import check_vmi_passes

from tests.passes.vmi_checks import pass_error, verified_module

LOWER = "vmi-lower-unified-to-legacy"
GRANULARITY = [LOWER, "vmi-mask-granularity-assignment"]
ASSIGN = [*GRANULARITY, "vmi-layout-assignment"]


def _select_mask(then_element: str, else_element: str) -> ModuleOp:
    def branch(element: str) -> str:
        vreg = f"!pto.vmi.vreg<64x{element}>"
        return f"""      %s = pto.vmi.pset "PAT_ALL" : !pto.vmi.mask<64xpred>
      %m = pto.vmi.vcmp %x_{element}, %x_{element}, %s {{cmp = "lt"}}
          : {vreg}, {vreg}, !pto.vmi.mask<64xpred> -> !pto.vmi.mask<64xpred>
      scf.yield %m : !pto.vmi.mask<64xpred>"""

    elements = sorted({then_element, else_element})
    args = ", ".join(f"%x_{e}: !pto.vmi.vreg<64x{e}>" for e in elements)
    return verified_module(f"""module {{
  func.func @k(%c: i1, {args}) {{
    %r = scf.if %c -> !pto.vmi.mask<64xpred> {{
{branch(then_element)}
    }} else {{
{branch(else_element)}
    }}
    return
  }}
}}
""")


def test_branches_of_one_granularity_agree() -> None:
    check_vmi_passes(_select_mask("f32", "i32"), GRANULARITY)
    check_vmi_passes(_select_mask("f16", "i16"), GRANULARITY)


def test_branches_of_two_granularities_conflict_at_the_if() -> None:
    assert pass_error(_select_mask("f16", "f32"), GRANULARITY) == (
        "scf.if",
        "VMI-LAYOUT-CONTRACT: conflicting mask granularities b16 and b32",
    )
    assert pass_error(_select_mask("f32", "i8"), GRANULARITY)[1].endswith("b32 and b8")


def test_unified_compares_are_read_only_once_rewritten() -> None:
    # Without the rewrite the pass sees no cmpf/cmpi: nothing to conflict.
    check_vmi_passes(_select_mask("f16", "f32"), ["vmi-mask-granularity-assignment"])


def test_a_mask_and_joins_its_masks() -> None:
    f16, f32 = "!pto.vmi.vreg<64xf16>", "!pto.vmi.vreg<64xf32>"
    mask = "!pto.vmi.mask<64xpred>"

    def kernel(other: str) -> ModuleOp:
        return verified_module(f"""module {{
  func.func @k(%a: {f16}, %b: {other}, %s: {mask}) {{
    %m = pto.vmi.cmpf "olt", %a, %a : {f16}, {f16} -> {mask}
    %n = pto.vmi.cmpf "olt", %b, %b : {other}, {other} -> {mask}
    %r = pto.vmi.mask_and %m, %n : {mask}, {mask} -> {mask}
    return
  }}
}}
""")

    check_vmi_passes(kernel(f16), GRANULARITY)
    assert pass_error(kernel(f32), GRANULARITY) == (
        "pto.vmi.mask_and",
        "VMI-LAYOUT-CONTRACT: conflicting mask granularities b16 and b32",
    )


def _two_returns(lanes: int, first: str, second: str) -> ModuleOp:
    def widen(name: str, element: str) -> str:
        source, result = f"!pto.vmi.vreg<{lanes}x{element}>", f"!pto.vmi.vreg<{lanes}xf32>"
        return (
            f"    %w{name} = pto.vmi.vcvt %{name} : {source} -> {result}\n"
            f"    return %w{name} : {result}"
        )

    result = f"!pto.vmi.vreg<{lanes}xf32>"
    return verified_module(f"""module {{
  func.func @k(%c: i1, %a: !pto.vmi.vreg<{lanes}x{first}>,
      %b: !pto.vmi.vreg<{lanes}x{second}>) -> {result} {{
    cf.cond_br %c, ^one, ^two
  ^one:
{widen("a", first)}
  ^two:
{widen("b", second)}
  }}
}}
""")


def test_returns_of_one_preferred_layout_agree() -> None:
    check_vmi_passes(_two_returns(128, "f16", "bf16"), ASSIGN)  # both deinterleaved = 2
    check_vmi_passes(_two_returns(64, "f16", "f8E5M2"), ASSIGN)  # both contiguous


def test_returns_of_two_preferred_layouts_conflict_at_the_second() -> None:
    assert pass_error(_two_returns(128, "f16", "f8E5M2"), ASSIGN) == (
        "func.return",
        "VMI-LAYOUT-CONTRACT: conflicting preferred layouts "
        "#pto.vmi.layout<deinterleaved = 2> and #pto.vmi.layout<deinterleaved = 4>",
    )
    # The mask pass alone plans no data layout.
    check_vmi_passes(_two_returns(128, "f16", "f8E5M2"), GRANULARITY)
