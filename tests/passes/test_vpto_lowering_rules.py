"""Rules of PTOAS's lowering passes on our own small kernels: the core inference of
`--pto-normalize-uncovered-tile-sections` (`uncovered_tile_sections.py`) and the VPTO
backend's checks (`vpto_emission_checks.py`: A2/A3 DMA strides, A5 integer vdiv, fp8
constants), each worked out by hand from PTOAS's pass. A kernel passes, and the same
kernel with one thing changed fails at the op and with the message PTOAS gives."""

from __future__ import annotations

from dataclasses import replace

import pytest
from xla_emit.passes.analysis.ptoas_backend_checks import DriverOptions, check_backend
from xla_emit.passes.analysis.tool_option_checks import option_error
from xla_emit.passes.analysis.uncovered_tile_sections import check_uncovered_tile_sections
from xla_emit.passes.diagnostics import OpError

from xla_emit.ir import op_error, parse_mlir, verify_module

VEC = "!pto.tile_buf<vec, 16x16xf32>"
VIEW = "!pto.partition_tensor_view<16x16xf32>"


def located(text: str, check: object) -> str:
    """'' where `check(module)` passes, else its located first error."""
    module, source_map = parse_mlir(text, "k.pto")
    verify_module(module, source_map)
    try:
        check(module)  # type: ignore[operator]
    except OpError as error:
        return op_error(error.op, error.message, source_map).format().splitlines()[0]
    return ""


def function(body: str, attrs: str = "{pto.kernel}", module_attrs: str = "") -> str:
    return f"""module attributes {{pto.target_arch = "a5"{module_attrs}}} {{
  func.func @k(%v: {VIEW}, %t: {VEC}, %u: {VEC}, %x: f32) attributes {attrs} {{
{body}
    return
  }}
}}
"""


LOAD = f"    pto.tload ins(%v : {VIEW}) outs(%t : {VEC})"
ADDS = f"    pto.tadds ins(%t, %x : {VEC}, f32) outs(%u : {VEC})"
SHARED_FLAG = "    pto.set_flag[<PIPE_MTE2>, <PIPE_S>, <EVENT_ID0>]"
VECTOR_FLAG = "    pto.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID0>]"


def sections_error(text: str) -> str:
    return located(text, check_uncovered_tile_sections)


def test_a_vector_segment_and_a_flag_from_a_vector_pipe_are_inferred() -> None:
    assert sections_error(function(LOAD + "\n" + VECTOR_FLAG + "\n" + ADDS)) == ""


def test_a_flag_from_a_pipe_both_cores_have_names_no_core() -> None:
    error = sections_error(function(SHARED_FLAG))
    assert error.startswith("k.pto:2:3: error: 'func.func' op contains an uncovered top-level op")
    assert "ambiguous op(s): 'pto.set_flag'; wrap the ambiguous region in pto.section.cube" in error
    # wait_flag runs on its destination pipe: PIPE_S there is just as ambiguous.
    wait = "    pto.wait_flag[<PIPE_V>, <PIPE_S>, <EVENT_ID0>]"
    assert "ambiguous op(s): 'pto.wait_flag'" in sections_error(function(wait))


def test_a_known_kernel_kind_or_an_explicit_section_settles_the_core() -> None:
    kind = ", pto.kernel_kind = #pto.kernel_kind<vector>"
    assert sections_error(function(SHARED_FLAG, module_attrs=kind)) == ""
    wrapped = f"    pto.section.vector {{\n  {SHARED_FLAG}\n    }}"
    assert sections_error(function(wrapped)) == ""


def test_vector_and_cube_ops_in_one_top_level_op_are_refused() -> None:
    cube_flag = "      pto.set_flag[<PIPE_FIX>, <PIPE_V>, <EVENT_ID0>]"
    loop = (
        "    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n"
        f"    scf.for %i = %c0 to %c1 step %c1 {{\n  {LOAD}\n{cube_flag}\n    }}"
    )
    error = sections_error(function(loop))
    assert "saw both vector-like and cube-like ops in the same segment" in error


def test_tile_ops_beside_a_nested_section_stay_uncovered() -> None:
    loop = (
        "    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n"
        f"    scf.for %i = %c0 to %c1 step %c1 {{\n"
        f"      pto.section.vector {{\n  {LOAD}\n      }}\n  {ADDS}\n    }}"
    )
    error = sections_error(function(loop))
    assert "still contains an uncovered top-level op segment after section normalization" in error
    assert "first uncovered op segment starts at 'scf.for'" in error
    inside = loop.replace(f"      }}\n  {ADDS}", f"  {ADDS}\n      }}")
    assert sections_error(function(inside)) == ""


def backend_error(text: str, *words: str) -> str:
    options = DriverOptions.from_words(["--pto-backend=vpto", *words])
    return located(text, lambda module: check_backend(module, options))


DMA = """module attributes {{pto.target_arch = "a3", pto.kernel_kind = #pto.kernel_kind<vector>}} {{
  func.func @k(%p: !pto.ptr<f32, gm>, %t: {vec}) attributes {{pto.aicore}} {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %w = pto.make_tensor_view %p, shape = [%c16, %c16], strides = [%c64, {inner}] \
: !pto.tensor_view<?x?xf32>
    %v = pto.partition_view %w, offsets = [%c0, %c0], sizes = [%c16, %c16] \
: !pto.tensor_view<?x?xf32> -> {view}
    pto.tload ins(%v : {view}) outs(%t : {vec})
    return
  }}
}}
"""


def test_a2a3_dma_reads_contiguous_rows_only() -> None:
    unit = DMA.format(vec=VEC, view=VIEW, inner="%c1")
    assert backend_error(unit, "--pto-arch=a3") == ""
    strided = DMA.format(vec=VEC, view=VIEW, inner="%c2")
    error = backend_error(strided, "--pto-arch=a3")
    assert error.startswith("k.pto:10:5: error: 'pto.tload' op A2/A3 DMA lowering requires")
    # A5 expands tload through its own templates; printing PTO IR lowers nothing.
    assert backend_error(strided, "--pto-arch=a5") == ""
    assert backend_error(strided, "--pto-arch=a3", "--emit-pto-ir") == ""


VECTOR_A5 = 'pto.target_arch = "a5", pto.kernel_kind = #pto.kernel_kind<vector>'
VDIV = """module attributes {{{module}}} {{
  func.func @k(%a: {reg}, %m: !pto.mask<{mask}>) attributes {{pto.kernel}} {{
    %q = pto.vdiv %a, %a, %m : {reg}, {reg}, !pto.mask<{mask}> -> {reg}
    return
  }}
}}
"""


@pytest.mark.parametrize(
    ("reg", "mask", "message"),
    [
        ("!pto.vreg<128xsi16>", "b16", ""),
        ("!pto.vreg<64xi32>", "b32", ""),
        ("!pto.vreg<128xf16>", "b16", ""),  # the hardware divides floats
        ("!pto.vreg<128xui16>", "b16", "'!pto.vreg<128xui16>' with mask '!pto.mask<b16>'"),
        ("!pto.vreg<64xi32>", "b16", "'!pto.vreg<64xi32>' with mask '!pto.mask<b16>'"),
        ("!pto.vreg<256xi8>", "b8", "'!pto.vreg<256xi8>' with mask '!pto.mask<b8>'"),
    ],
)
def test_a5_integer_vdiv_goes_through_the_software_library(
    reg: str, mask: str, message: str
) -> None:
    error = backend_error(VDIV.format(module=VECTOR_A5, reg=reg, mask=mask), "--emit-vpto")
    if not message:
        assert error == ""
        return
    assert error.startswith("k.pto:3:5: error: 'pto.vdiv' op A5 integer pto.vdiv is not supported")
    assert message in error


FP8 = """module attributes {{{module}}} {{
  func.func @k(%d: !pto.ptr<{kind}, gm>) attributes {{pto.entry}} {{
    pto.section.simt<<<32, 1, 1>>> {{
      %c = arith.constant dense<0.0> : {kind}
      %c0 = arith.constant 0 : index
      pto.stg %c, %d[%c0] : !pto.ptr<{kind}, gm>, {kind}
    }}
    return
  }}
}}
"""


def test_the_vpto_backend_builds_no_fp8_constant() -> None:
    assert backend_error(FP8.format(module=VECTOR_A5, kind="vector<2xf16>"), "--emit-vpto") == ""
    error = backend_error(FP8.format(module=VECTOR_A5, kind="vector<4xf8E5M2>"), "--emit-vpto")
    assert error.startswith("k.pto:4:7: error: 'arith.constant' op does not support directly")
    assert "produce FP8 values with pto.convert" in error
    # Only the PTO IR is printed: the VPTO pipeline does not run.
    assert (
        backend_error(FP8.format(module=VECTOR_A5, kind="vector<4xf8E5M2>"), "--emit-pto-ir") == ""
    )


def test_enum_options_take_their_values_only() -> None:
    assert option_error("ptoas", ["--bisheng-vf-auto-sync=global", "%s"]) is None
    assert option_error("ptoas", ["--bisheng-vf-auto-sync=on"]) == (
        "for the --bisheng-vf-auto-sync option: Cannot find option named 'on'!"
    )
    assert option_error("pto-test-opt", ["'-pto-vpto-scheduler=mode=on'"]) is None
    assert option_error("pto-test-opt", ["-pto-vpto-scheduler=mode=fast"]) == (
        "unknown VPTO scheduler mode 'fast'"
    )


TEXTRACT = """module attributes {{{module}}} {{
  func.func @k(%s: {src}, %d: {dst}) attributes {{pto.kernel}} {{
    %c0 = arith.constant 0 : index
    pto.textract ins(%s, %c0, %c0 : {src}, index, index) outs(%d : {dst})
    return
  }}
}}
"""
NZ = "blayout=col_major, slayout=row_major"


def test_a5_vpto_expands_textract_only_where_a_template_moves_its_locations() -> None:
    """vec -> mat passes A5's op verifier but no PTODSL template moves it."""
    mat_left = TEXTRACT.format(
        module=VECTOR_A5,
        src=f"!pto.tile_buf<mat, 32x32xf16, {NZ}>",
        dst=f"!pto.tile_buf<left, 16x16xf16, {NZ}>",
    )
    assert backend_error(mat_left, "--pto-arch=a5", "--emit-pto-ir") == ""
    vec_mat = TEXTRACT.format(
        module=VECTOR_A5,
        src="!pto.tile_buf<vec, 16x16xf16>",
        dst=f"!pto.tile_buf<mat, 16x16xf16, {NZ}>",
    )
    error = backend_error(vec_mat, "--pto-arch=a5", "--emit-pto-ir")
    assert error.startswith(
        "k.pto:4:5: error: 'pto.textract' op NoMatchingTemplate: no legal template for "
        "op='pto.textract' target='a5'; no template moves vec to mat"
    )
    # The EmitC backend has a library call for it.
    options = DriverOptions.from_words(["--pto-arch=a5"])
    assert located(vec_mat, lambda module: check_backend(module, options)) == ""


def test_objects_need_the_cann_toolchain() -> None:
    """Without ASCEND_HOME_PATH, a VPTO object (or a fatobj) cannot be built; printed IR
    and the EmitC backend need no toolchain."""
    text = function(LOAD, module_attrs=", pto.kernel_kind = #pto.kernel_kind<vector>")
    unset = frozenset({"ASCEND_HOME_PATH"})

    def error(*words: str) -> str:
        options = replace(DriverOptions.from_words(list(words)), unset_env=unset)
        return located(text, lambda module: check_backend(module, options))

    assert error("--pto-backend=vpto", "-o", "k.o").endswith(
        "error: 'builtin.module' op CANN toolchain is required but was not initialized: "
        "ASCEND_HOME_PATH is required for VPTO fatobj emission."
    )
    assert error("--pto-backend=vpto", "--emit-vpto", "-o", "-") == ""
    assert error("-o", "k.cpp") == ""


SCOPE = """module attributes {{{module}}} {{
  func.func @k(%ub: !pto.ptr<f32, ub>) attributes {{pto.kernel}} {{
    %c0 = arith.constant 0 : index
    %r = pto.vlds %ub[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
{between}
    %m = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>
    pto.vsts %r, %ub[%c0], %m : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>
    return
  }}
}}
"""


def test_a_loaded_register_cannot_outlive_its_inferred_vecscope() -> None:
    """A barrier ends the run PTOAS wraps in one resultless pto.vecscope; the loaded
    register, used past it, would have to leave the scope."""
    flag = "    pto.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]"
    assert backend_error(SCOPE.format(module=VECTOR_A5, between=flag), "--emit-vpto") == ""
    barrier = "    pto.barrier #pto.pipe<PIPE_ALL>"
    error = backend_error(SCOPE.format(module=VECTOR_A5, between=barrier), "--emit-vpto")
    assert error.startswith(
        "k.pto:4:5: error: 'pto.vlds' op cannot infer resultless pto.vecscope because VPTO "
        "vector-scope data cannot have external users; escaping value type is "
        "'!pto.vreg<64xf32>'"
    )
    # A scalar loop is a boundary too; one holding vector ops is kept whole.
    loop = (
        "    %c1 = arith.constant 1 : index\n"
        "    scf.for %i = %c0 to %c1 step %c1 {\n      BODY\n    }"
    )
    scalar = loop.replace("BODY", "%s = arith.addi %i, %i : index")
    text = SCOPE.format(module=VECTOR_A5, between=scalar)
    assert "cannot infer resultless pto.vecscope" in backend_error(text, "--emit-vpto")
    vector = loop.replace("BODY", '%n = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>')
    text = SCOPE.format(module=VECTOR_A5, between=vector)
    assert backend_error(text, "--emit-vpto") == ""


CONTAINER = """module attributes {{pto.target_arch = "a5"}} {{
  module attributes {{pto.backend = "vpto"{kind}}} {{
    func.func @k() {{
{body}
      return
    }}
  }}
}}
"""


def test_a_vpto_child_module_needs_a_core_some_pass_can_give_it() -> None:
    """Nothing in the child tells its core, and it carries no kind: PTOAS's container
    normalization refuses it; a kind, or an op the inference may count, settles it."""
    empty = CONTAINER.format(kind="", body="      %c = arith.constant 0 : index")
    error = backend_error(empty, "--emit-vpto")
    assert error.startswith(
        "k.pto:2:3: error: 'builtin.module' op expected VPTO kernel submodule to carry "
        "'pto.kernel_kind'"
    )
    kind = ", pto.kernel_kind = #pto.kernel_kind<vector>"
    assert backend_error(CONTAINER.format(kind=kind, body=""), "--emit-vpto") == ""
    barrier = CONTAINER.format(kind="", body="      pto.barrier #pto.pipe<PIPE_ALL>")
    assert backend_error(barrier, "--emit-vpto") == ""
    assert backend_error(empty, "--emit-pto-ir") == ""


def test_a_pipes_direction_names_the_core_of_its_pops_and_pushes() -> None:
    """On a cube-to-vector pipe (dir_mask 1) a tpop runs on the vector core, whatever
    tile it fills: in one loop with a flag from PIPE_FIX (a cube pipe) the segment is
    mixed; on a vector-to-cube pipe both are the cube's."""
    mat = "!pto.tile_buf<mat, 16x16xf32>"
    pop = (
        "    %z = arith.constant 0 : i32\n"
        "    %p = pto.initialize_l2l_pipe {dir_mask = DIR, slot_size = 1024} (%z : i32) "
        "-> !pto.pipe\n"
        f"    %m = pto.alloc_tile : {mat}\n"
        "    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n"
        "    scf.for %i = %c0 to %c1 step %c1 {\n"
        f"      pto.tpop(%m, %p : {mat}, !pto.pipe) {{split = 0}}\n"
        "      pto.set_flag[<PIPE_FIX>, <PIPE_M>, <EVENT_ID0>]\n    }"
    )
    error = sections_error(function(pop.replace("DIR", "1")))
    assert "saw both vector-like and cube-like ops in the same segment" in error
    assert sections_error(function(pop.replace("DIR", "2"))) == ""
