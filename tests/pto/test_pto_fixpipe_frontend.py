"""PTOAS main's rules for the data ops of a fixpipe pipe (a front-end pipe whose init
has `acc_push_epilogue`), over a cube and a vector kernel of our own; the rules and
their messages are PTOAS's (`lib/PTO/IR/PTO.cpp`), the cases worked out by hand."""

from __future__ import annotations

import pytest

from tests.pto.kernel_checks import located_error, verify_kernel
from xla_emit.diagnostics import UserError

ACC = "!pto.tile_buf<acc, 16x16x{acc}, blayout=col_major, slayout=row_major, fractal=1024>"
VEC = "!pto.tile_buf<vec, 16x16x{vec}{layout}>"
SCALE = "!pto.tile_buf<scaling, 1x16xf16>"
RESERVE = 'name = "fifo", size = 4096, location = #pto.address_space<vec>, auto = true'


def _kernels(
    quant: str = "no_convert",
    acc: str = "f32",
    vec: str = "f32",
    layout: str = "",
    cube_body: str = "",
    push: str = "{id = 0, split = 0}",
    pop: str = "{id = 0, split = 0}",
    vector_body: str = "",
) -> str:
    epilogue = f"#pto.acc_push_epilogue<layout = nz2nd, quant = {quant}, relu = no_relu>"
    init = f"dir_mask = 1, slot_size = 1024, nosplit = true, acc_push_epilogue = {epilogue}"
    acc_type, vec_type = ACC.format(acc=acc), VEC.format(vec=vec, layout=layout)
    return f"""module attributes {{pto.target_arch = "a5"}} {{
  func.func @cube(%acc: {acc_type}, %s: f32, %fp: {SCALE}) {{
    %fifo = pto.import_reserved_buffer {{name = "fifo", peer_func = @vector}} -> i32
    pto.aic_initialize_pipe {{{init}}}(c2v_consumer_buf = %fifo : i32)
{cube_body}    pto.tpush_to_aiv(%acc : {acc_type}) {push}
    return
  }}
  func.func @vector() {{
    %fifo = pto.reserve_buffer {{{RESERVE}}} -> i32
    pto.aiv_initialize_pipe {{{init}}}(c2v_consumer_buf = %fifo : i32)
{vector_body}    %t = pto.tpop_from_aic {pop} -> {vec_type}
    pto.tfree_from_aic {{id = 0, split = 0}}
    return
  }}
}}
"""


SET_SCALAR = "    pto.set_quant_scalar(%s : f32) {id = 0}\n"
SET_VECTOR = f"    pto.set_quant_vector(%fp : {SCALE}) {{id = 0}}\n"


@pytest.mark.parametrize(
    ("quant", "acc", "vec", "cube_body"),
    [
        ("no_convert", "f32", "f32", ""),
        ("f32_bf16", "f32", "bf16", ""),
        ("deqf16_scalar", "i32", "f16", SET_SCALAR),
        ("req8_vec", "i32", "si8", SET_VECTOR),
    ],
)
def test_a_fixpipe_pipe_verifies(quant: str, acc: str, vec: str, cube_body: str) -> None:
    verify_kernel(_kernels(quant, acc, vec, cube_body=cube_body))


@pytest.mark.parametrize(
    ("options", "line", "message"),
    [
        (
            {"quant": "f32_f16", "acc": "i32", "vec": "f16"},
            5,
            "expects fixpipe TPUSH source element type to match acc_push_epilogue.quant mode "
            "requirements",
        ),
        (
            {"quant": "deqf16_scalar", "acc": "i32", "vec": "f16"},
            5,
            "expects a preceding pto.set_quant_scalar with id = 0 in the same block",
        ),
        (
            {"quant": "deqf16_vec", "acc": "i32", "vec": "f16"},
            5,
            "expects a preceding pto.set_quant_vector with id = 0 in the same block",
        ),
        ({"push": "{id = 0, split = 1}"}, 5, "expects fixpipe TPUSH to have split = 0"),
        ({"pop": "{id = 0, split = 1}"}, 11, "expects fixpipe TPOP to have split = 0"),
        (
            {"quant": "f32_bf16", "vec": "f16"},
            10,
            "expects consumer element type to match acc_push_epilogue.quant f32_bf16",
        ),
        (
            {"layout": ", blayout=col_major"},
            10,
            "expects consumer tile layout to match acc_push_epilogue.layout nz2nd",
        ),
        (
            {"push": "{id = 0, split = 0, stPhase = 1}"},
            5,
            "does not allow unpublished fixpipe attr 'stPhase'; STPhase / AtomicType / "
            "SubBlockId / ClipReluMode / IsChannelSplit are not part of the PTOIR frontend "
            "surface",
        ),
    ],
)
def test_fixpipe_rules(options: dict[str, str], line: int, message: str) -> None:
    assert located_error(_kernels(**options)) == (line, message)


def test_the_pops_of_one_fixpipe_pipe_agree() -> None:
    other = "    %u = pto.tpop_from_aic {id = 0, split = 0} -> !pto.tile_buf<vec, 8x16xf32>\n"
    line, message = located_error(_kernels(vector_body=other))
    assert message == (
        "expects all tpop_from_aic results for fixpipe pipe id = 0 to use the same tile type"
    )
    assert line == 10  # the consumer init, as PTOAS reports it


def test_an_ordinary_pipe_has_none_of_these_rules() -> None:
    text = _kernels(push="{id = 0, split = 1}").replace(
        "nosplit = true, acc_push_epilogue = #pto.acc_push_epilogue<layout = nz2nd, "
        "quant = no_convert, relu = no_relu>",
        "nosplit = false",
    )
    verify_kernel(text)


def _with_consumer_epilogue(text: str, quant: str = "no_convert", relu: str = "no_relu") -> str:
    """The vector kernel's init (the second) with an epilogue of its own."""
    head, _, tail = text.rpartition("pto.aiv_initialize_pipe")
    tail = tail.replace(
        "#pto.acc_push_epilogue<layout = nz2nd, quant = no_convert, relu = no_relu>",
        f"#pto.acc_push_epilogue<layout = nz2nd, quant = {quant}, relu = {relu}>",
        1,
    )
    return head + "pto.aiv_initialize_pipe" + tail


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (
            _with_consumer_epilogue(_kernels(), relu="normal_relu"),
            4,
            "expects acc_push_epilogue.relu to match peer consumer (producer has no_relu, "
            "consumer has normal_relu)",
        ),
        (
            _with_consumer_epilogue(_kernels(), quant="f32_bf16"),
            4,
            "expects acc_push_epilogue.quant to match peer consumer (producer has no_convert, "
            "consumer has f32_bf16)",
        ),
        (
            _kernels().replace("    %t = pto.tpop_from_aic {id = 0, split = 0} -> ", "    // "),
            10,
            "expects at least one tpop_from_aic for fixpipe pipe id = 0 to resolve the "
            "consumer entry type",
        ),
        (
            # 16x16 f32 is 1024 bytes: a 512-byte slot on the vector side cannot hold it.
            _kernels()
            .replace("slot_size = 1024", "slot_size = 512", 2)
            .replace("slot_size = 512", "slot_size = 1024", 1),
            10,
            "expects consumer-side fixpipe slot_size to be at least 1024 bytes for the "
            "resolved post-fixpipe consumer entry",
        ),
        (
            _kernels().replace("slot_size = 1024", "slot_size = 512", 1),
            10,
            "expects peer producer fixpipe slot_size to be at least 1024 bytes for the "
            "resolved post-fixpipe consumer entry",
        ),
        (
            # no_convert keeps the element type: an i32 accumulator cannot pop as f32.
            _kernels(acc="i32", vec="f32"),
            10,
            "expects producer source element type and consumer tpop result element type to "
            "satisfy acc_push_epilogue.quant no_convert",
        ),
    ],
)
def test_producer_and_consumer_inits_agree(text: str, line: int, message: str) -> None:
    assert located_error(text) == (line, message)


def test_a_producer_needs_its_consumer_init() -> None:
    text = _kernels().replace("peer_func = @vector", "peer_func = @nowhere")
    assert located_error(text) == (
        4,
        "expects peer consumer function to contain a matching aiv_initialize_pipe with the "
        "same consumer buffer contract",
    )


@pytest.mark.parametrize(
    ("quant", "acc", "vec", "cube_body", "message"),
    [
        (
            "deqf16_vec",
            "i32",
            "f16",
            SET_SCALAR,
            "expects 'id' = 0 to reference a pipe with scalar quantization mode, but found "
            "non-scalar mode",
        ),
        (
            "deqf16_scalar",
            "i32",
            "f16",
            SET_VECTOR,
            "expects 'id' = 0 to reference a pipe with vector quantization mode, but found "
            "non-vector mode",
        ),
        (
            "deqf16_scalar",
            "i32",
            "f16",
            SET_SCALAR.replace("id = 0", "id = 3"),
            "expects 'id' = 3 to match a frontend or lowered initialize_pipe op in the same "
            "function",
        ),
        (
            "deqf16_vec",
            "i32",
            "f16",
            SET_VECTOR.replace(SCALE, "!pto.tile_buf<vec, 1x16xf16>"),
            "expects 'scaling_tile' to use loc=scaling",
        ),
        (
            "deqf16_vec",
            "i32",
            "f16",
            SET_VECTOR.replace(SCALE, "!pto.tile_buf<scaling, 1x16xi8>"),
            "expects 'scaling_tile' element type to be f16, bf16, or f32 on A5",
        ),
        (
            "deqf16_scalar",
            "i32",
            "f16",
            SET_SCALAR.replace("{id = 0}", "{id = 0} {clipReluMode = 1}"),
            "does not allow unpublished fixpipe attr 'clipReluMode'; STPhase / AtomicType / "
            "SubBlockId / ClipReluMode / IsChannelSplit are not part of the PTOIR frontend "
            "surface",
        ),
    ],
)
def test_quantization_setters(quant: str, acc: str, vec: str, cube_body: str, message: str) -> None:
    text = _kernels(quant, acc, vec, cube_body=cube_body)
    # The cube kernel's scaling tile parameter takes the setter's tile type.
    setter_tile = cube_body.partition("%fp : ")[2].partition(") {")[0]
    if setter_tile:
        text = text.replace(f"%fp: {SCALE}", f"%fp: {setter_tile}")
    assert located_error(text) == (5, message)


def test_a2a3_scaling_tiles_hold_packed_words() -> None:
    """On A2A3 a vector setter's payload is 64-bit words (f16 is A5's)."""
    text = _kernels("deqf16_vec", "i32", "f16", cube_body=SET_VECTOR).replace('"a5"', '"a3"')
    assert located_error(text) == (
        5,
        "expects 'scaling_tile' element type to be packed i64/ui64 on A3",
    )
    wide = SCALE.replace("xf16", "xi64")
    verify_kernel(text.replace(SCALE, wide))


def test_a_fixpipe_talloc_does_not_split() -> None:
    view = "!pto.tensor_view<16x16xf32>"
    body = f"    %e = pto.talloc_to_aiv {{id = 0, split = 1}} -> {view}\n"
    assert located_error(_kernels(cube_body=body)) == (
        5,
        "expects fixpipe TALLOC to have split = 0",
    )


def test_a_lowered_consumer_that_keeps_its_peer_contract_pairs() -> None:
    """PTOAS's lowered fixpipe init keeps the owner, buffer and direction of its peer
    contract; a front-end producer pairs with it as with a front-end consumer."""
    epilogue = "#pto.acc_push_epilogue<layout = nz2nd, quant = no_convert, relu = no_relu>"
    text = _kernels().replace(
        "    pto.aiv_initialize_pipe {dir_mask",
        "    %pipe = pto.initialize_l2l_pipe {dir_mask = 1, slot_size = 1024, slot_num = 8, "
        '__pto.peer_owner_func = @vector, __pto.peer_reserve_name = "{name}", '
        f"__pto.peer_dir_mask = 1 : i32, acc_push_epilogue = {epilogue}}}(%fifo : i32) -> !pto.pipe"
        "\n    // {dir_mask",
    )
    lines = [line for line in text.splitlines() if "pto.tpop_from_aic" not in line]
    lines = [line for line in lines if "tfree_from_aic" not in line]
    verify_kernel("\n".join(lines).replace('"{name}"', '"fifo"'))
    with pytest.raises(UserError, match="expects peer consumer function"):
        verify_kernel("\n".join(lines).replace('"{name}"', '"other"'))


@pytest.mark.parametrize(
    ("bare_init", "line", "peer"),
    [("pto.aic_initialize_pipe", 10, "producer"), ("pto.aiv_initialize_pipe", 4, "consumer")],
)
def test_an_epilogue_needs_one_on_the_peer_init(bare_init: str, line: int, peer: str) -> None:
    """An init with an epilogue is refused, on its own line, where its peer has none."""
    text = _kernels()
    epilogue = text[text.index(", acc_push_epilogue") : text.index("}(c2v_consumer_buf")]
    text = "\n".join(
        row.replace(epilogue, "") if bare_init in row else row for row in text.split("\n")
    )
    assert located_error(text) == (
        line,
        f"expects peer {peer} pipe init to also have 'acc_push_epilogue' for fixpipe "
        "contract consistency",
    )
