"""Parsing and printing XLA shapes with layouts (XLA's fixed attribute order)."""

import pytest

from xla_emit.layout import COMBINE_DIMENSION, Layout, LayoutSyntaxError, Shape, Tile, parse_shape


@pytest.mark.parametrize(
    "text",
    [
        "f32[3,5]{1,0:T(2,2)}",
        "bf16[2048,2048]{1,0:T(8,128)(2,1)S(1)}",
        "s32[]{:T(128)}",
        "bf16[4096]{0:T(1024)(128)(2,1)}",
        "pred[8,8,8]{0,2,1:T(8,128)E(32)}",
        "bf16[2,3,1004]{2,1,0:T(2,*,128)}",
        "f32[1,2,3,4]{3,2,1,0:T(42,123)(4,5)L(100)E(42)}",
        "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}",
        "s8[16,256]{0,1}",
        "f32[7]",
        "u4[16,16]{1,0:T(8,128)(8,1)E(4)S(5)}",
    ],
)
def test_round_trip(text: str) -> None:
    assert str(parse_shape(text)) == text


def test_fields_of_a_parsed_shape() -> None:
    shape = parse_shape("BF16[2,3,1004]{2,1,0:T(8,128)(2,*,1)L(4)E(16)S(1)}")
    assert shape == Shape(
        "bf16",
        (2, 3, 1004),
        Layout(
            (2, 1, 0),
            (Tile((8, 128)), Tile((2, COMBINE_DIMENSION, 1))),
            tail_padding_alignment_in_elements=4,
            element_size_in_bits=16,
            memory_space=1,
        ),
    )


def test_shape_without_layout_has_none() -> None:
    assert parse_shape("f32[3,5]").layout is None
    assert parse_shape("f32[3,5]").layout_or_default() == Layout((1, 0))


@pytest.mark.parametrize(
    ("text", "message", "offset"),
    [
        ("g32[3]", "expected an element type", 0),
        ("f32[3,5", "expected ',' between array dimensions, but got end of input", 7),
        ("f32[3,5]{1,0:T(2,0)}", "tile sizes must be positive or '*', but got 0", 17),
        ("f32[3,5]{1,0:T(2,-1)}", "tile sizes must be positive or '*', but got -1", 17),
        ("f32[3,5]{1,0:E(32)T(2,2)}", "layout attribute 'T' out of order", 18),
        ("f32[3,5]{1,0:Q(3)}", "unknown layout attribute 'Q'", 13),
        ("f32[3,5]{1}", "Dimensions size is 2, but minor to major size is 1.", 8),
        ("f32[3,5]{1,1}", "not a permutation", 8),
        ("f32[3,5]{1,0:T(2,*)}", "most-minor entry cannot be '*'", 8),
        ("f32[3,5]{1,0:T}", "expected '(' to start a tile", 14),
        ("f32[3,5] x", "unexpected 'x' after the shape", 9),
    ],
)
def test_errors_name_the_place(text: str, message: str, offset: int) -> None:
    with pytest.raises(LayoutSyntaxError) as info:
        parse_shape(text)
    assert message in info.value.message
    assert info.value.offset == offset
