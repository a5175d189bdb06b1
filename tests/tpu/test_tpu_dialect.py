"""The `#tpu.tiled` attribute: its affine map equals the layout library's offsets."""

import itertools

import pytest
from xla_emit.dialects.tpu import TiledLayoutAttr

from xla_emit.layout import parse_shape, tiled_layout_map


@pytest.mark.parametrize(
    ("tiles", "strides", "shape", "xla"),
    [
        (((8, 128),), (2, 1), (16, 256), "f32[16,256]{1,0:T(8,128)}"),
        (((8, 128), (2, 1)), (2, 1), (16, 256), "bf16[16,256]{1,0:T(8,128)(2,1)}"),
        (((4, 128),), (4, 2, 1), (2, 8, 256), "f32[2,8,256]{2,1,0:T(4,128)}"),
    ],
)
def test_affine_map_is_the_tiled_offset(
    tiles: tuple[tuple[int, ...], ...], strides: tuple[int, ...], shape: tuple[int, ...], xla: str
) -> None:
    affine_map = TiledLayoutAttr(tiles, strides).get_affine_map()
    expected = tiled_layout_map(parse_shape(xla))
    ranges = [sorted({0, 1, d // 2, d - 1, min(d - 1, 129)}) for d in shape]
    for index in itertools.product(*ranges):
        assert affine_map.eval(list(index), []) == (expected.offset(index),)
