"""XLA shapes with tiled layouts: parse, print, linear index, sizes, TPU defaults, pictures.

Pure Python + numpy; imports neither `dialects` nor `passes`.
"""

from xla_emit.layout.shape import (
    COMBINE_DIMENSION,
    ELEMENT_BITS,
    Layout,
    LayoutSyntaxError,
    Shape,
    Tile,
    parse_shape,
)
from xla_emit.layout.tiling import (
    TiledLayoutMap,
    linear_index,
    linear_index_with_tile,
    tiled_layout_map,
)
from xla_emit.layout.tpu_defaults import tpu_default_layout, tpu_default_tiles

__all__ = [
    "COMBINE_DIMENSION",
    "ELEMENT_BITS",
    "Layout",
    "LayoutSyntaxError",
    "Shape",
    "Tile",
    "TiledLayoutMap",
    "linear_index",
    "linear_index_with_tile",
    "parse_shape",
    "tiled_layout_map",
    "tpu_default_layout",
    "tpu_default_tiles",
]
