"""The ops PTOAS main parses by hand (SIMT scalar ops, block flags, dynamic buffer
slots, `syncall`, `dcci`/`dsb`, comm collectives, `struct_get`/`set`) and its
keyword-enum attributes: each kernel below is ours; the printed forms and the
rejections are PTOAS's (`lib/PTO/IR/PTO.cpp`, `VPTO.cpp`), worked out by hand."""

from __future__ import annotations

import io

import pytest
from xdsl.printer import Printer

from xla_emit.diagnostics import UserError
from xla_emit.ir import parse_mlir, verify_module

PARAMS = (
    "%p: !pto.ptr<f32, gm>, %q: !pto.ptr<i32, gm>, %u: !pto.ptr<i32, ub>, %i: index, "
    "%x: i32, %f: f32, %h: f16, %s: !pto.struct<i32, !pto.struct<f32, i16>>"
)


def _kernel(body: str, arch: str = "a5", attributes: str = "{pto.simt_entry}") -> str:
    return (
        f'module attributes {{pto.target_arch = "{arch}"}} {{\n'
        f"  func.func @k({PARAMS}) attributes {attributes} {{\n{body}\n    return\n  }}\n}}\n"
    )


def _printed(text: str) -> str:
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)
    stream = io.StringIO()
    Printer(stream=stream).print_op(module)
    return stream.getvalue()


def _body_lines(text: str) -> list[str]:
    return [line.strip() for line in _printed(text).splitlines()[2:-3]]


def _error(body: str, **options: str) -> tuple[int, str]:
    with pytest.raises(UserError) as caught:
        _printed(_kernel(body, **options))
    location = caught.value.location
    assert location is not None
    return location.line, caught.value.message


@pytest.mark.parametrize(
    ("written", "printed"),
    [
        # Left-out cache controls read as PTOAS's defaults and print.
        (
            "%v = pto.ldg %p[%i] : !pto.ptr<f32, gm> -> f32",
            "%v = pto.ldg %p[%i] l1cache(cache) l2cache(nmfv) : !pto.ptr<f32, gm> -> f32",
        ),
        (
            "pto.stg %f, %p[%i] l1cache(uncache) l2cache(wtsred) : !pto.ptr<f32, gm>, f32",
            "pto.stg %f, %p[%i] l1cache(uncache) l2cache(wtsred) : !pto.ptr<f32, gm>, f32",
        ),
        (
            "%o = pto.atomic_xor %q, %x signed : !pto.ptr<i32, gm>, i32 -> i32",
            "%o = pto.atomic_xor %q, %x l2cache(nmfv) signed : !pto.ptr<i32, gm>, i32 -> i32",
        ),
        (
            "%o = pto.atomic_cas %u, %x, %x l2cache(nmfv) : !pto.ptr<i32, ub>, i32 -> i32",
            "%o = pto.atomic_cas %u, %x, %x l2cache(nmfv) : !pto.ptr<i32, ub>, i32 -> i32",
        ),
        ("%r = pto.redux_add %f : f32 -> f32", "%r = pto.redux_add %f : f32 -> f32"),
        (
            "%r = pto.redux_min %x unsigned : i32 -> i32",
            "%r = pto.redux_min %x unsigned : i32 -> i32",
        ),
        (
            "%m = pto.mulhi %x, %x signed : i32, i32 -> i32",
            "%m = pto.mulhi %x, %x signed : i32, i32 -> i32",
        ),
        (
            "%m = pto.mul_i32toi64 %x, %x unsigned : i32, i32 -> i64",
            "%m = pto.mul_i32toi64 %x, %x unsigned : i32, i32 -> i64",
        ),
        (
            "%c = pto.convert %h round(r) nosat : f16 -> f32",
            "%c = pto.convert %h round(r) nosat : f16 -> f32",
        ),
        (
            "%g = pto.struct_get %s[1, 1] : !pto.struct<i32, !pto.struct<f32, i16>> -> i16",
            "%g = pto.struct_get %s[1, 1] : !pto.struct<i32, !pto.struct<f32, i16>> -> i16",
        ),
        ("pto.set_cross_block <PIPE_FIX>, 0", "pto.set_cross_block <PIPE_FIX>, 0"),
        ("pto.wait_intra_block #pto.pipe<PIPE_V>, %i", "pto.wait_intra_block <PIPE_V>, %i"),
        ('pto.get_buf_dyn "PIPE_MTE2", %i', 'pto.get_buf_dyn "PIPE_MTE2", %i, 0'),
        (
            "pto.rls_buf_dyn [#pto.pipe_event_type<TLOAD>, %i, 1]",
            "pto.rls_buf_dyn[#pto.pipe_event_type<TLOAD>, %i, 1]",
        ),
        ("pto.dsb #pto.dsb_mem<UB>", 'pto.dsb "UB"'),
        (
            'pto.dcci %u "SINGLE_CACHE_LINE", #pto.dcci_dst<CACHELINE_UB> : !pto.ptr<i32, ub>',
            'pto.dcci %u "SINGLE_CACHE_LINE", "CACHELINE_UB" : !pto.ptr<i32, ub>',
        ),
    ],
)
def test_reads_and_prints_ptoas_forms(written: str, printed: str) -> None:
    lines = _body_lines(_kernel("    " + written))
    assert lines == [printed]
    # The printed form reads back to itself.
    assert _body_lines(_kernel("    " + printed)) == [printed]


def test_syncall_forms() -> None:
    body = (
        "    pto.syncall() mode = #pto.sync_all_mode<hard>, core_type = #pto.sync_core_type<mix>\n"
        "    pto.syncall(%q, %x : !pto.ptr<i32, gm>, i32) mode = #pto.sync_all_mode<soft>, "
        "core_type = #pto.sync_core_type<aiv_only>"
    )
    assert _body_lines(_kernel(body)) == [line.strip() for line in body.splitlines()]


def test_comm_collectives_print_their_operand_groups() -> None:
    view = "!pto.partition_tensor_view<128xf32>"
    tile = "!pto.tile_buf<vec, 1x128xf32>"
    text = f"""
func.func @k(%src: {view}, %g0: {view}, %g1: {view}, %ping: {tile}, %pong: {tile}) {{
  pto.comm.tbroadcast(%src, recv(%ping, %pong), group(%g0, %g1) :
    {view}, {tile}, {tile}, {view}, {view}) {{root = 1 : i32}}
  pto.comm.treduce(%src, %ping, recv(%pong), group(%g0) :
    {view}, {tile}, {tile}, {view}) {{reduceOp = #pto.reduce_op<sum>, root = 0 : i32}}
  return
}}"""
    printed = _printed(text)
    assert (
        f"pto.comm.tbroadcast(%src, recv(%ping, %pong), group(%g0, %g1) : {view}, {tile}, "
        f"{tile}, {view}, {view}) {{root = 1 : i32}}" in printed
    )
    assert "pto.comm.treduce(%src, %ping, recv(%pong), group(%g0) :" in printed
    assert _printed(printed) == printed
    # The root must name a member of the group.
    with pytest.raises(UserError) as caught:
        _printed(text.replace("root = 1", "root = 2"))
    assert caught.value.message.endswith("expects root to index into group operands")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "%v = pto.ldg %p[%i] : !pto.ptr<f32, gm> -> f32",
            "must be inside a pto.simt_entry function or pto.section.simt",
        ),
        (
            "%o = pto.atomic_add %u, %x : !pto.ptr<i32, ub>, i32 -> f32",
            "requires atomic result type to match value type",
        ),
        (
            "%o = pto.atomic_add %p, %f signed : !pto.ptr<f32, gm>, f32 -> f32",
            "does not accept signedness for floating-point atomics",
        ),
        (
            "%o = pto.atomic_or %p, %f : !pto.ptr<f32, gm>, f32 -> f32",
            "requires integer type for bitwise atomics",
        ),
        ("%r = pto.redux_max %x : i32 -> i32", "requires signedness for integer reductions"),
        (
            "%c = pto.convert %f round(z) nosat signed : f32 -> i32",
            "floating-to-integer conversion requires saturation enable",
        ),
        (
            "%g = pto.struct_get %s[1] : !pto.struct<i32, !pto.struct<f32, i16>> -> f32",
            "struct path must end at a scalar field",
        ),
        (
            "%g = pto.struct_get %s[2] : !pto.struct<i32, !pto.struct<f32, i16>> -> f32",
            "struct path index 0 (2) is out of range",
        ),
        (
            "pto.struct_set %s[0], %f : !pto.struct<i32, !pto.struct<f32, i16>>, f32",
            "value type f32 does not match field type i32 at the given path",
        ),
        ("pto.set_cross_block <PIPE_FIX>, 16", "expects static event_id in [0, 15], but got 16"),
        ("pto.set_intra_block <PIPE_S>, 1", "expects pipe to be one of <PIPE_FIX>"),
        (
            "pto.syncall(%u : !pto.ptr<i32, ub>) mode = #pto.sync_all_mode<soft>, "
            "core_type = #pto.sync_core_type<mix>",
            "expects gm_workspace to be in GM address space",
        ),
    ],
)
def test_rejects_what_ptoas_rejects(body: str, message: str) -> None:
    attributes = "{}" if "ldg" in body else "{pto.simt_entry}"
    line, found = _error("    " + body, attributes=attributes)
    assert line == 3
    assert message in found


def test_intra_block_event_ids_follow_the_target() -> None:
    """A5 has 32 intra-block flags, A2/A3 16."""
    assert _body_lines(_kernel("    pto.set_intra_block <PIPE_FIX>, 31"))
    line, message = _error("    pto.set_intra_block <PIPE_FIX>, 31", arch="a3")
    assert (line, message.split("op ")[-1]) == (3, "expects static event_id in [0, 15], but got 31")


def test_parse_errors_are_located() -> None:
    for body, message in (
        ("    %v = pto.ldg %p[%i] l2cache(wtsred) : !pto.ptr<f32, gm> -> f32", "load L2 cache"),
        ('    pto.dsb "L2"', "invalid dsb memory token: L2"),
        (
            "    pto.syncall(%q : !pto.ptr<i32, gm>) mode = #pto.sync_all_mode<hard>, "
            "core_type = #pto.sync_core_type<mix>",
            "expects hard syncall to have no operands",
        ),
    ):
        line, found = _error(body)
        assert line == 3 and message in found


def test_keyword_enum_attribute() -> None:
    attr = "#pto.acc_push_epilogue<layout = nz2nd, quant = deqf16_vec, relu = normal_relu>"
    text = f"func.func @k() attributes {{e = {attr}, s = #pto.fence_scope<gm>}} {{\n  return\n}}"
    printed = _printed(text)
    assert attr in printed and "#pto.fence_scope<gm>" in printed
    with pytest.raises(UserError) as caught:
        _printed(text.replace("deqf16_vec", "deq_vec"))
    assert "'deq_vec' is not a pto.acc_push_epilogue quant" in caught.value.message


def test_short_forms_of_ptoas_main() -> None:
    """A partition view's type inferred from its sizes; `fp %f : T` in ins(...) (the
    older `_fp` op, which prints); tinsert's `pre_quant %s : i64`."""
    acc = "!pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major>"
    mat = "!pto.tile_buf<mat, 16x16xf16, blayout=col_major, slayout=row_major>"
    fp = "!pto.tile_buf<scaling, 1x16xf16>"
    text = f"""func.func @k(%p: !pto.ptr<f32, gm>, %a: {acc}, %f: {fp}, %m: {mat}, %q: i64) {{
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %n = arith.constant 4 : index
  %v = pto.make_tensor_view %p, shape = [%c16, %n], strides = [%n, %c16] : !pto.tensor_view<?x?xf32>
  %w = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c16, %n] : !pto.tensor_view<?x?xf32>
  pto.textract ins(%a, %c0, %c0 : {acc}, index, index fp %f : {fp}) outs(%m : {mat})
  pto.tinsert ins(%a, %c0, %c0 : {acc}, index, index pre_quant %q : i64) outs(%m : {mat})
  %o = pto.addptr %p, %n : <f32, gm> -> <f32, gm>
  return
}}"""
    printed = _printed(text)
    assert "-> !pto.partition_tensor_view<16x4xf32>" in printed
    assert f"pto.textract_fp ins(%a, %f, %c0, %c0 : {acc}, {fp}, index, index)" in printed
    assert f"pto.tinsert ins(%a, %c0, %c0, %q : {acc}, index, index, i64)" in printed
    assert "pto.addptr %p, %n : !pto.ptr<f32, gm> -> !pto.ptr<f32, gm>" in printed
    assert _printed(printed) == printed
    with pytest.raises(UserError) as caught:
        _printed(text.replace("pto.textract ins", "pto.tmov ins"))
    assert "'pto.tmov' takes no 'fp' operand" in caught.value.message


def test_vtrc_reads_both_rounding_spellings() -> None:
    vreg, mask = "!pto.vreg<64xf32>", "!pto.mask<b32>"
    text = f"""func.func @k(%v: {vreg}, %m: {mask}) {{
  %r = pto.vtrc %v, %m, "ROUND_F" : {vreg}, {mask} -> {vreg}
  return
}}"""
    assert f'pto.vtrc %v, %m, "F" : {vreg}, {mask} -> {vreg}' in _printed(text)
    with pytest.raises(UserError) as caught:
        _printed(text.replace("ROUND_F", "O"))
    assert caught.value.message.startswith("round mode must be one of R/A/F/C/Z")


def test_mask_forms_of_tgather_and_tscatter() -> None:
    """`ins(%src, {maskPattern = ...} : T, "row")`: the axis rides in the type list; the
    executor runs the index forms only and says so."""
    tile = "!pto.tile_buf<vec, 1x32xf16>"
    mask = "{maskPattern = #pto.mask_pattern<P1111>}"
    text = f"""func.func @k(%s: {tile}, %d: {tile}) {{
  pto.tgather ins(%s, {mask} : {tile}, "col") outs(%d : {tile})
  pto.tscatter ins(%s, {mask} : {tile}) outs(%d : {tile})
  return
}}"""
    printed = _printed(text)
    assert 'axis = "col"' in printed and _printed(printed) == printed
    with pytest.raises(UserError) as caught:
        _printed(text.replace('"col"', '"diag"'))
    assert caught.value.message == 'axis must be "row" or "col"'


def test_acc_store_takes_its_quant_payload_from_fixpipe_memory() -> None:
    """`mte_l0c_gm`'s pre_quant payload may be a scaling (`fb`) pointer; other trailing
    operands stay scalars."""
    fb = "!pto.ptr<f32, fb>"
    types = f"!pto.ptr<f32, l0c>, !pto.ptr<f16, gm>, i64, i64, i64, i64, i64, i64, {fb}"
    text = f"""module attributes {{pto.target_arch = "a5"}} {{
  func.func @k(%src: !pto.ptr<f32, l0c>, %dst: !pto.ptr<f16, gm>, %q: {fb}) {{
    %c = arith.constant 16 : i64
    pto.mte_l0c_gm %src, %dst, %c, %c, %c, %c, %c, %c, pre_quant(%q, mode = qf322f16_pre_vec)
      : {types}
    return
  }}
}}"""
    assert "pre_quant(%q, mode = qf322f16_pre_vec)" in _printed(text)
    bad = text.replace("%dst, %c,", "%dst, %q,").replace(
        "!pto.ptr<f16, gm>, i64,", f"!pto.ptr<f16, gm>, {fb},"
    )
    with pytest.raises(UserError) as caught:
        _printed(bad)
    assert "expects operand #2 to be an integer or float scalar" in caught.value.message


def test_a_fixpipe_memory_payload_holds_float_words() -> None:
    fb, words = "!pto.ptr<f32, fb>", "!pto.ptr<ui64, fb>"
    text = f"""module attributes {{pto.target_arch = "a5"}} {{
  func.func @k(%src: !pto.ptr<f32, l0c>, %dst: !pto.ptr<f16, gm>, %q: {words}) {{
    %c = arith.constant 16 : i64
    pto.mte_l0c_gm %src, %dst, %c, %c, %c, %c, %c, %c, pre_quant(%q, mode = qf322f16_pre_vec)
      : !pto.ptr<f32, l0c>, !pto.ptr<f16, gm>, i64, i64, i64, i64, i64, i64, {words}
    return
  }}
}}"""
    with pytest.raises(UserError) as caught:
        _printed(text)
    assert caught.value.message.endswith(
        "vector pre_quant mode requires scaling pointer element type to be f16, bf16, or f32"
    )
    _printed(text.replace(words, fb))
