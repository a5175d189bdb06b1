"""`pto-verify-pipes`: PTOAS's module-wide rules for cube-vector pipes.

Each kernel here is small and the expected verdict is worked out by hand from
PTOAS's passes (PTOLowerFrontendPipeOps, PTOInferValidatePipeInit,
PTOResolveReservedBuffers): which inits name the same buffer, which splits their
users ask for.
"""

from __future__ import annotations

import pytest

from passes.diagnostics import OpError
from passes.pto.pto_verify_pipes import verify_pipes
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
            FRONT_CUBE + _frontend("aic", 1, "fifo", "fifo"),
            FRONT_VECTOR,
            "a5",
            "func.func",
            "requires at most one pto.aic_initialize_pipe",
        ),
        (
            FRONT_CUBE + _frontend("aiv", 1, "fifo", "fifo"),
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
            "requires a frontend initialize_pipe op in the same function",
        ),
        (
            _import("fifo", "vector") + _frontend("aic", 2, "fifo", "fifo") + PUSH_TO_AIV,
            FRONT_VECTOR,
            "a5",
            "pto.tpush_to_aiv",
            "requires the dominating initialize_pipe op to enable C2V",
        ),
    ],
)
def test_front_end_rules(cube: str, vector: str, target: str, op: str, message: str) -> None:
    assert _error(_pair(cube, vector), target) == (op, message)
