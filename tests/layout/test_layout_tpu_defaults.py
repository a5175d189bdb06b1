"""The seed's TPU tiled formats by element type and shape."""

import pytest

from xla_emit.layout import Shape, Tile, parse_shape, tiled_layout_map, tpu_default_layout


@pytest.mark.parametrize(
    ("shape", "expected"),
    [
        ("f32[64,512]", "f32[64,512]{1,0:T(8,128)}"),
        ("s32[3,1,300]", "s32[3,1,300]{2,1,0:T(2,128)}"),
        ("f32[2,300]", "f32[2,300]{1,0:T(2,128)}"),
        ("f32[3,300]", "f32[3,300]{1,0:T(4,128)}"),
        ("f32[4,300]", "f32[4,300]{1,0:T(4,128)}"),
        ("f32[5,300]", "f32[5,300]{1,0:T(8,128)}"),
        ("bf16[16,256]", "bf16[16,256]{1,0:T(8,128)(2,1)}"),
        ("bf16[2,256]", "bf16[2,256]{1,0:T(8,128)(2,1)}"),
        ("s8[32,128]", "s8[32,128]{1,0:T(8,128)(4,1)}"),
        ("pred[64,128]", "pred[64,128]{1,0:T(32,128)(32,1)E(1)}"),
        ("f32[1000]", "f32[1000]{0:T(1024)}"),
        ("bf16[4096]", "bf16[4096]{0:T(1024)(128)(2,1)}"),
        ("f32[]", "f32[]{}"),
    ],
)
def test_default_tiles(shape: str, expected: str) -> None:
    parsed = parse_shape(shape)
    assert str(parsed.with_layout(tpu_default_layout(parsed))) == expected


def test_small_second_minor_saves_memory() -> None:
    # f32[2,128]: (2,128) tiles hold exactly 256 elements; (8,128) would pad to 1024.
    shape = Shape("f32", (2, 128))
    layout = tpu_default_layout(shape)
    assert layout.tiles == (Tile((2, 128)),)
    assert tiled_layout_map(shape.with_layout(layout)).padded_element_count == 256


def test_pred_uses_one_bit_per_element() -> None:
    shape = parse_shape("pred[32,128]")
    layout_map = tiled_layout_map(shape.with_layout(tpu_default_layout(shape)))
    assert layout_map.byte_size == 32 * 128 // 8
