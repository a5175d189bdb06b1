"""`pto-verify-pipes`: PTOAS's module-wide rules for cube-vector pipes.

Each kernel here is small and the expected verdict is worked out by hand from
PTOAS's passes (PTOLowerFrontendPipeOps, PTOInferValidatePipeInit,
PTOResolveReservedBuffers): which inits name the same buffer, which splits their
users ask for.
"""

from __future__ import annotations

import io

import pytest
from xdsl.printer import Printer
from xla_emit.passes.diagnostics import OpError
from xla_emit.passes.pto.pto_verify_pipes import verify_pipes

from xla_emit.diagnostics import UserError
from xla_emit.ir import parse_mlir, verify_module

ACC = (
    "!pto.tile_buf<loc=acc, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, "
    "blayout=col_major, slayout=row_major, fractal=1024, pad=0>"
)
VEC = "!pto.tile_buf<vec, 16x16xf32>"


def _module(text: str) -> object:
    module, source_map = parse_mlir(text, "pipes.mlir")
    verify_module(module, source_map)
    return module


def _error(text: str, target: str = "a5") -> tuple[str, str]:
    with pytest.raises(OpError) as caught:
        verify_pipes(_module(text), target)  # type: ignore[arg-type]
    return caught.value.op.name, caught.value.message


def _reserve(name: str) -> str:
    return (
        f'    %{name} = pto.reserve_buffer {{name = "{name}", size = 4096, '
        "location = #pto.address_space<vec>, auto = true} -> i32\n"
    )


def _import(name: str, peer: str) -> str:
    fields = f'name = "{name}", peer_func = @{peer}'
    return f"    %{name} = pto.import_reserved_buffer {{{fields}}} -> i32\n"


def _init(buffer: str, extra: str = "", direction: int = 1) -> str:
    return (
        f"    %pipe = pto.initialize_l2l_pipe {{dir_mask = {direction}, slot_size = 1024, "
        f"slot_num = 8{extra}}}(%{buffer} : i32) -> !pto.pipe\n"
    )


def _push(split: int) -> str:
    return f"    pto.tpush(%acc, %pipe : {ACC}, !pto.pipe) {{split = {split}}}\n"


def _pop(split: int) -> str:
    return (
        f"    pto.tpop(%vec, %pipe : {VEC}, !pto.pipe) {{split = {split}}}\n"
        f"    pto.tfree(%pipe : !pto.pipe) {{split = {split}}}\n"
    )


def _pair(cube: str, vector: str) -> str:
    """A cube function pushing through a pipe on buffer `fifo`, reserved by the vector
    function, which pops from it."""
    return (
        "module {\n"
        f"  func.func @cube(%acc: {ACC}) {{\n{cube}    return\n  }}\n"
        f"  func.func @vector(%vec: {VEC}) {{\n{vector}    return\n  }}\n"
        "}\n"
    )


GOOD_CUBE = _import("fifo", "vector") + _init("fifo") + _push(1)
GOOD_VECTOR = _reserve("fifo") + _init("fifo") + _pop(1)


def test_a_complete_pair_with_one_split_passes() -> None:
    verify_pipes(_module(_pair(GOOD_CUBE, GOOD_VECTOR)), "a5")  # type: ignore[arg-type]


def test_an_explicit_flag_base_frees_the_buffer_from_being_reserved() -> None:
    cube = _init("buf", ", flag_base = 0 : i32") + _push(0)
    text = _pair(cube, "").replace("%acc: ", "%buf: i32, %acc: ")
    verify_pipes(_module(text), "a5")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("cube", "vector", "op", "message"),
    [
        (
            _import("fifo", "vector") + _init("fifo") + _push(0) + _push(1),
            GOOD_VECTOR,
            "pto.initialize_l2l_pipe",
            "cannot mix 'split = 0' with 'split = 1' or 'split = 2' on the same logical pipe",
        ),
        (
            _import("fifo", "vector") + _init("fifo") + _push(0),
            GOOD_VECTOR,
            "pto.initialize_l2l_pipe",
            "conflicting pipe split usage across peer pipe init ops",
        ),
        (
            _import("fifo", "vector") + _init("fifo", ", nosplit = true") + _push(1),
            _reserve("fifo") + _init("fifo", ", nosplit = false") + _pop(1),
            "pto.initialize_l2l_pipe",
            "conflicting explicit 'nosplit' across peer pipe init ops",
        ),
        (
            _import("fifo", "vector") + _init("fifo", ", nosplit = true") + _push(1),
            GOOD_VECTOR,
            "pto.initialize_l2l_pipe",
            "explicit 'nosplit = true' conflicts with downstream users that require "
            "split = 1 or split = 2",
        ),
        (
            # The cube imports the buffer but never initializes its side.
            _import("fifo", "vector"),
            GOOD_VECTOR,
            "pto.initialize_l2l_pipe",
            "requires a complete peer init pair when local_addr comes from "
            "pto.reserve_buffer or pto.import_reserved_buffer",
        ),
        (
            _import("fifo", "vector") + _init("fifo", ", flag_base = 0 : i32") + _push(1),
            _reserve("fifo") + _init("fifo", ", flag_base = 8 : i32") + _pop(1),
            "pto.initialize_l2l_pipe",
            "conflicting explicit flag_base across peer pipe inits",
        ),
        (
            _import("fifo", "nowhere") + _init("fifo") + _push(1),
            GOOD_VECTOR,
            "pto.initialize_l2l_pipe",
            # The cube's buffer is owned by @nowhere: a pipe of one side.
            "requires a complete peer init pair when local_addr comes from "
            "pto.reserve_buffer or pto.import_reserved_buffer",
        ),
    ],
)
def test_peer_rules(cube: str, vector: str, op: str, message: str) -> None:
    assert _error(_pair(cube, vector)) == (op, message)


def test_an_init_on_a_plain_value_needs_a_flag_base() -> None:
    text = _pair(_init("buf") + _push(0), "").replace("%acc: ", "%buf: i32, %acc: ")
    assert _error(text) == (
        "pto.initialize_l2l_pipe",
        "requires local_addr to come from pto.reserve_buffer or pto.import_reserved_buffer "
        "when 'flag_base' is not explicit",
    )


def test_an_import_names_a_function_that_reserves_its_buffer() -> None:
    missing_function = _pair(_import("fifo", "nowhere"), "")
    assert _error(missing_function) == (
        "pto.import_reserved_buffer",
        "expects 'peer_func' to reference an existing func.func",
    )
    missing_buffer = _pair(_import("fifo", "vector"), _reserve("other"))
    assert _error(missing_buffer) == (
        "pto.import_reserved_buffer",
        "expects matching peer reserve_buffer to exist",
    )


# -- the front-end ops, as PTOAS lowers them ---------------------------------------------


def _frontend(kind: str, direction: int, c2v: str, v2c: str, extra: str = "") -> str:
    return (
        f"    pto.{kind}_initialize_pipe {{dir_mask = {direction}, slot_size = 1024{extra}}}"
        f"(c2v_consumer_buf = %{c2v} : i32, v2c_consumer_buf = %{v2c} : i32)\n"
    )


PUSH_TO_AIV = f"    pto.tpush_to_aiv(%acc : {ACC}) {{split = 0}}\n"
POP_FROM_AIC = (
    f"    %got = pto.tpop_from_aic {{split = 0}} -> {VEC}\n    pto.tfree_from_aic {{split = 0}}\n"
)
FRONT_CUBE = _import("fifo", "vector") + _frontend("aic", 1, "fifo", "fifo") + PUSH_TO_AIV
FRONT_VECTOR = _reserve("fifo") + _frontend("aiv", 1, "fifo", "fifo") + POP_FROM_AIC


def test_front_end_pipes_pair_as_their_lowered_inits_do() -> None:
    verify_pipes(_module(_pair(FRONT_CUBE, FRONT_VECTOR)), "a5")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("cube", "vector", "target", "op", "message"),
    [
        (
            _import("fifo", "vector")
            + _frontend("aic", 1, "fifo", "fifo", ", nosplit = false")
            + PUSH_TO_AIV,
            FRONT_VECTOR,
            "a5",
            "pto.aic_initialize_pipe",
            "explicit 'nosplit = false' conflicts with downstream users that require split = 0",
        ),
        (
            FRONT_CUBE,
            FRONT_VECTOR,
            "a2a3",
            "pto.aic_initialize_pipe",
            "requires 'gm_slot_buffer' when lowering to a2/a3",
        ),
        (
            FRONT_CUBE + _frontend("aiv", 1, "fifo", "fifo", ", id = 1"),
            FRONT_VECTOR,
            "a5",
            "func.func",
            "cannot mix pto.aic_initialize_pipe and pto.aiv_initialize_pipe in one function",
        ),
        (
            PUSH_TO_AIV,
            FRONT_VECTOR,
            "a5",
            "pto.tpush_to_aiv",
            "expects 'id' = 0 to match a frontend initialize_pipe op in the same function",
        ),
        (
            _import("fifo", "vector") + _frontend("aic", 2, "fifo", "fifo") + PUSH_TO_AIV,
            FRONT_VECTOR,
            "a5",
            "pto.tpush_to_aiv",
            "expects 'id' = 0 to reference initialize_pipe with dir_mask = 1 or 3",
        ),
    ],
)
def test_front_end_rules(cube: str, vector: str, target: str, op: str, message: str) -> None:
    assert _error(_pair(cube, vector), target) == (op, message)


def test_front_end_inits_are_told_apart_by_id() -> None:
    """PTOAS main allows several inits in a function; a data op names its init by id."""
    second = _frontend("aic", 2, "fifo", "fifo", ", id = 1").replace(
        "c2v_consumer_buf = %fifo : i32, ", ""
    )
    push_back = f"    pto.tpush_to_aic(%acc : {ACC}) {{id = 3}}\n"
    assert _error(_pair(FRONT_CUBE + second + push_back, FRONT_VECTOR), "a5") == (
        "pto.tpush_to_aic",
        "expects 'id' = 3 to match a frontend initialize_pipe op in the same function",
    )
    with pytest.raises(UserError) as caught:
        _module(_pair(FRONT_CUBE + _frontend("aic", 1, "fifo", "fifo"), FRONT_VECTOR))
    assert caught.value.message.endswith(
        "requires 'id' to be unique across frontend initialize_pipe ops in the function"
    )


# -- a front-end init's own rules (op verifier) -------------------------------------------

EPILOGUE = "#pto.acc_push_epilogue<layout = nz2nd, quant = {quant}, relu = no_relu>"


def _init_error(clauses: str, operands: str, arch: str = "a5") -> str:
    text = (
        f'module attributes {{pto.target_arch = "{arch}"}} {{\n'
        "  func.func @cube(%g: !pto.ptr<f32, gm>, %t: !pto.tensor_view<16x16xf32>) {\n"
        '    %fifo = pto.reserve_buffer {name = "fifo", size = 4096, '
        "location = #pto.address_space<vec>, auto = true} -> i32\n"
        "    %raw = arith.constant 0 : i32\n"
        f"    pto.aic_initialize_pipe {{{clauses}}}({operands})\n"
        "    return\n  }\n}\n"
    )
    with pytest.raises(UserError) as caught:
        _module(text)
    location = caught.value.location
    assert location is not None and location.line == 5
    return caught.value.message.split("' op ", 1)[1]


C2V = "c2v_consumer_buf = %fifo : i32"


@pytest.mark.parametrize(
    ("clauses", "operands", "arch", "message"),
    [
        ("dir_mask = 4, slot_size = 64", C2V, "a5", "expects 'dir_mask' to be 1, 2, or 3"),
        ("dir_mask = 1, slot_size = 0", C2V, "a5", "expects 'slot_size' to be greater than 0"),
        (
            "dir_mask = 2, slot_size = 64",
            C2V,
            "a5",
            "expects 'v2c_consumer_buf' when dir_mask is 2",
        ),
        (
            "dir_mask = 1, slot_size = 64",
            "",
            "a5",
            "expects local pipe init to provide at least one consumer buffer operand; use "
            "'gm_slot_tensor' for globaltensor pipe entries",
        ),
        (
            "dir_mask = 1, slot_size = 64, slot_num = 2, local_slot_num = 3",
            "gm_slot_buffer = %g : !pto.ptr<f32, gm>, " + C2V,
            "a3",
            "expects 'local_slot_num' to be less than or equal to slot_num (2) for dir_mask = 1",
        ),
        (
            "dir_mask = 1, slot_size = 64, local_slot_num = 2",
            C2V,
            "a5",
            "'local_slot_num' is only supported for a2/a3 frontend pipe lowering",
        ),
        # 16x16 f32 is 1024 bytes: a slot holds one entry or two halves.
        (
            "dir_mask = 1, slot_size = 4096",
            "gm_slot_tensor = %t : !pto.tensor_view<16x16xf32>",
            "a3",
            "expects 'slot_size' to equal gm_slot_tensor byte size or twice gm_slot_tensor "
            "byte size for split GlobalTensor entries (got slot_size = 4096, gm_slot_tensor "
            "byte size = 1024)",
        ),
        (
            "dir_mask = 3, slot_size = 64, acc_push_epilogue = " + EPILOGUE,
            C2V + ", v2c_consumer_buf = %fifo : i32",
            "a5",
            "expects fixpipe pipe (with 'acc_push_epilogue') to have dir_mask = 1 (C2V only)",
        ),
        (
            "dir_mask = 1, slot_size = 64, acc_push_epilogue = " + EPILOGUE,
            C2V,
            "a5",
            "expects fixpipe pipe (with 'acc_push_epilogue') to have nosplit = true",
        ),
        (
            "dir_mask = 1, slot_size = 64, nosplit = true, acc_push_epilogue = " + EPILOGUE,
            "c2v_consumer_buf = %raw : i32",
            "a5",
            "expects fixpipe pipe 'c2v_consumer_buf' to trace to reserve_buffer or "
            "import_reserved_buffer for peer contract verification",
        ),
        (
            "dir_mask = 1, slot_size = 64, nosplit = true, acc_push_epilogue = "
            + EPILOGUE.replace("{quant}", "qs322bf16_pre_vec"),
            "gm_slot_buffer = %g : !pto.ptr<f32, gm>, " + C2V,
            "a3",
            "expects 'qs322bf16_pre_*' quantization modes to be used only on A5 target",
        ),
    ],
)
def test_front_end_init_rules(clauses: str, operands: str, arch: str, message: str) -> None:
    clauses = clauses.replace("{quant}", "no_convert")
    assert _init_error(clauses, operands, arch) == message


def test_front_end_init_prints_as_ptoas() -> None:
    text = (
        'module attributes {pto.target_arch = "a5"} {\n  func.func @cube() {\n'
        '    %fifo = pto.reserve_buffer {name = "fifo", size = 4096, '
        "location = #pto.address_space<vec>, auto = true} -> i32\n"
        "    pto.aic_initialize_pipe {nosplit = true, slot_size = 64, dir_mask = 1, "
        f"acc_push_epilogue = {EPILOGUE.format(quant='f32_bf16')}}}({C2V})\n"
        "    return\n  }\n}\n"
    )
    # Printed only: a fixpipe producer without its consumer function does not verify.
    stream = io.StringIO()
    Printer(stream=stream).print_op(parse_mlir(text, "pipes.mlir")[0])
    assert (
        "pto.aic_initialize_pipe {id = 0, dir_mask = 1, slot_size = 64, nosplit = true, "
        f"acc_push_epilogue = {EPILOGUE.format(quant='f32_bf16')}}}(c2v_consumer_buf = %fifo : i32)"
        in stream.getvalue()
    )


def test_global_tensor_front_end_pipes_need_no_reserved_buffer() -> None:
    """A pipe of GlobalTensor entries (`gm_slot_tensor` only) has no local buffer to pair,
    and a vector sub-block may push to the cube (`aiv_subblockid`)."""
    view = "!pto.tensor_view<16x16xf32>"
    text = f"""module attributes {{pto.target_arch = "a5"}} {{
  func.func @cube(%t: {view}) {{
    pto.aic_initialize_pipe {{dir_mask = 1, slot_size = 1024}}(gm_slot_tensor = %t : {view})
    return
  }}
  func.func @vector(%v: {VEC}, %b: i64) {{
    pto.aiv_initialize_pipe {{dir_mask = 2, slot_size = 1024, id = 1}}(v2c_consumer_buf = %x : i32)
    pto.tpush_to_aic(%v : {VEC}) {{id = 1, split = 1}} aiv_subblockid(%b)
    return
  }}
}}"""
    text = text.replace("(v2c_consumer_buf = %x : i32)", "(gm_slot_tensor = %t : " + view + ")")
    text = text.replace("@vector(%v", "@vector(%t: " + view + ", %v")
    verify_pipes(_module(text), "a5")  # type: ignore[arg-type]


def test_global_tensor_pipes_pair_by_id_for_split_agreement() -> None:
    """A pipe of GlobalTensor slots only has no buffer to pair by: PTOAS pairs its two
    inits by front-end id and direction, and they agree on splitting."""
    view = "!pto.tensor_view<2x16x16xf32>"

    def text(vector_split: int) -> str:
        return f"""module attributes {{pto.target_arch = "a3"}} {{
  func.func @cube(%g: {view}) attributes {{pto.kernel_kind = #pto.kernel_kind<cube>}} {{
    pto.aic_initialize_pipe {{id = 0, dir_mask = 1, slot_size = 2048}}(gm_slot_tensor = %g : {view})
    %e = pto.talloc_to_aiv {{id = 0, split = 0}} -> {view}
    pto.tpush_to_aiv(%e : {view}) {{id = 0, split = 0}}
    return
  }}
  func.func @vector(%g: {view}) attributes {{pto.kernel_kind = #pto.kernel_kind<vector>}} {{
    pto.aiv_initialize_pipe {{id = 0, dir_mask = 1, slot_size = 2048}}(gm_slot_tensor = %g : {view})
    %e = pto.tpop_from_aic {{id = 0, split = {vector_split}}} -> {view}
    pto.tfree_from_aic(%e : {view}) {{id = 0, split = {vector_split}}}
    return
  }}
}}
"""

    verify_pipes(_module(text(0)), "a3")  # type: ignore[arg-type]
    assert _error(text(1), "a3") == (
        "pto.aiv_initialize_pipe",
        "conflicting pipe split usage across peer pipe init ops",
    )
