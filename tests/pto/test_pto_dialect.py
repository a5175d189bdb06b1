"""The pto types: both tile_buf spellings, printing, and the target attribute."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr, f16, f32
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto import TileBufType, TileType, TileTypeBase, buffer_type_of, module_target

from xla_emit.diagnostics import UserError
from xla_emit.ir import parse_mlir

LOCATIONS = ["vec", "mat", "left", "right", "acc", "bias", "scaling"]
ELEMENTS = ["f32", "f16", "bf16", "i8", "ui8", "i16", "i32", "ui32"]


def parse_type(spelling: str) -> TileTypeBase:
    module, _ = parse_mlir(f"func.func @f(%t: {spelling}) {{\n  return\n}}")
    function = next(op for op in module.walk() if isinstance(op, func.FuncOp))
    arg_type = function.args[0].type
    assert isinstance(arg_type, TileTypeBase)
    return arg_type


def printed(attr: TileTypeBase) -> str:
    from io import StringIO

    out = StringIO()
    Printer(stream=out).print_attribute(attr)
    return out.getvalue()


@st.composite
def tile_params(draw: st.DrawFn) -> dict[str, object]:
    rows = draw(st.integers(1, 256))
    cols = draw(st.integers(1, 256))
    return {
        "loc": draw(st.sampled_from(LOCATIONS)),
        "dtype": draw(st.sampled_from(ELEMENTS)),
        "rows": rows,
        "cols": cols,
        "v_row": draw(st.one_of(st.integers(1, rows), st.just("?"))),
        "v_col": draw(st.one_of(st.integers(1, cols), st.just("?"))),
        "blayout": draw(st.sampled_from(["row_major", "col_major"])),
        "slayout": draw(st.sampled_from(["none_box", "row_major", "col_major"])),
        "fractal": draw(st.sampled_from([512, 1024, 32])),
        "pad": draw(st.integers(0, 3)),
        "compact": draw(st.integers(0, 2)),
    }


def key_form(params: dict[str, object]) -> str:
    return "!pto.tile_buf<" + ", ".join(f"{k}={v}" for k, v in params.items()) + ">"


@settings(max_examples=60, deadline=None)
@given(tile_params())
def test_key_form_and_printed_compact_form_are_the_same_type(params: dict[str, object]) -> None:
    from_keys = parse_type(key_form(params))
    assert isinstance(from_keys, TileBufType)
    assert from_keys.loc.data == params["loc"]
    assert from_keys.shape == (params["rows"], params["cols"])
    expected_valid = tuple(-1 if params[k] == "?" else params[k] for k in ("v_row", "v_col"))
    assert from_keys.valid_shape == expected_valid
    assert (from_keys.fractal.data, from_keys.pad.data, from_keys.compact.data) == (
        params["fractal"],
        params["pad"],
        params["compact"],
    )
    compact = printed(from_keys)
    assert "loc=" not in compact
    assert parse_type(compact) == from_keys


def test_compact_form_leaves_defaults_out() -> None:
    full = (
        "!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=128, v_row=16, v_col=1, "
        "blayout=row_major, slayout=none_box, fractal=512, pad=0>"
    )
    assert printed(parse_type(full)) == "!pto.tile_buf<vec, 16x128xf32, valid=16x1>"


def test_tile_shorthand_is_a_row_major_vec_tile() -> None:
    short = parse_type("!pto.tile<16x8xf16>")
    assert isinstance(short, TileType)
    assert short == parse_type("!pto.tile<vec, 16x8xf16>")
    assert short == TileType.of(f16, 16, 8)
    assert printed(short) == "!pto.tile<16x8xf16>"
    assert printed(TileType.of(f16, 16, 8, loc="mat")) == "!pto.tile<mat, 16x8xf16>"


def test_buffer_type_keeps_every_parameter() -> None:
    tile = TileType.of(
        f32,
        32,
        16,
        loc="acc",
        valid_rows=20,
        blayout="col_major",
        slayout="row_major",
        fractal=1024,
    )
    buffer = buffer_type_of(tile)
    assert isinstance(buffer, TileBufType)
    assert buffer.parameters == tile.parameters
    assert buffer != TileBufType.of(f32, 32, 16, loc="acc")


def test_types_compare_by_parameters() -> None:
    assert TileBufType.of(f32, 16, 1) != TileBufType.of(f32, 16, 16)
    assert hash(TileBufType.of(f32, 16, 16)) == hash(TileBufType.of(f32, 16, 16))


@pytest.mark.parametrize(
    ("spelling", "message"),
    [
        (
            "!pto.tile_buf<vec, 16x16xf32, valid=17x16>",
            "tile_buf valid_row (17) exceeds row (16)",
        ),
        (
            "!pto.tile_buf<vec, 16x16xf32, pad=4>",
            "pad must be 0 (null), 1 (zero), 2 (max) or 3 (min), but got 4",
        ),
        ("!pto.tile_buf<vec, 16x16xf32, pad=1, pad=2>", "duplicate 'pad' in tile type"),
        (
            "!pto.tile_buf<vec, 16x16xf32, fractal=16>",
            "unsupported s_fractal_size: 16, must be one of {32, 512, 1024}",
        ),
        ("!pto.tile_buf<vec, 0x16xf32>", "tile_buf rows/cols must be positive, but got 0x16"),
        ("!pto.tile_buf<vec, 16x?xf32>", "a tile has a static 2-D shape, but got 16x?"),
        ("!pto.tile_buf<vec, 4x4x4xf32>", "a tile has a static 2-D shape, but got 4x4x4"),
        ("!pto.tile<16x16xf128>", "'f128' is not a tile element type"),
        # PTOAS's stale Subset.pto spells a buffer this way; PTOAS rejects it too.
        (
            "!pto.tile_buf<32x64xf32, #pto.address_space<vec>>",
            "pto.tile_buf needs a location before its shape ('vec, 16x16xf32' or 'loc=vec, ...')"
            ": a tile buffer has no default location",
        ),
    ],
)
def test_bad_tile_types_are_located_errors(spelling: str, message: str) -> None:
    with pytest.raises(UserError) as error:
        parse_type(spelling)
    assert message in error.value.message
    assert error.value.location is not None and error.value.location.line == 1


def test_target_comes_from_the_option_then_the_module() -> None:
    module = ModuleOp([])
    assert module_target(module) == "a2a3"
    module.attributes["pto.target_arch"] = StringAttr("A5")
    assert module_target(module) == "a5"
    assert module_target(module, "a3") == "a2a3"
    module.attributes["pto.target_arch"] = StringAttr("a9")
    with pytest.raises(VerifyException, match="unknown PTO target 'a9', expected one of a2a3, a5"):
        module_target(module)


def test_tassign_of_a_result_the_tile_does_not_have_is_a_located_error() -> None:
    source = (
        "func.func @f() {\n"
        "  %t = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>\n"
        "  pto.tassign %t#1, @tile(0x1000)\n"
        "  func.return\n"
        "}"
    )
    with pytest.raises(UserError) as error:
        parse_mlir(source)
    assert "the tassign tile must be defined before it is bound" in error.value.message
    assert error.value.location is not None and error.value.location.line == 3
