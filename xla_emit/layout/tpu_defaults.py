"""TPU tiled formats (the seed's table) chosen from element type and shape.

| element | tiling |
|---|---|
| 32-bit | (8,128); (2,128) when the second-minor dim is 1 or 2, (4,128) when 3 or 4 |
| 16-bit (bf16) | (8,128)(2,1): two rows packed into one 32-bit word |
| 8-bit | (8,128)(4,1) |
| pred | (32,128)(32,1) with one bit per element (`E(1)`) |

Rank-1 arrays are one long row: 32-bit `(1024)` (one 8x128 vreg), narrower
types `(1024)(128)(p,1)` with p = 32 / bits, pred `(4096)(128)(32,1)E(1)`.
Rank-0 arrays are not tiled. XLA's actual TPU padding rules are closed source;
this is the documented table.
"""

from __future__ import annotations

from xla_emit.layout.shape import ELEMENT_BITS, Layout, Shape, Tile

LANES = 128
SUBLANES = 8


def tpu_default_tiles(element_type: str, dims: tuple[int, ...]) -> tuple[Tile, ...]:
    """The seed's TPU tiling for an array of `element_type` and logical `dims`."""
    if not dims:
        return ()
    is_pred = element_type == "pred"
    bits = 1 if is_pred else ELEMENT_BITS[element_type]
    packing = max(1, 32 // bits)
    if len(dims) == 1:
        first = Tile((SUBLANES * packing * LANES if is_pred else SUBLANES * LANES,))
        if packing == 1:
            return (first,)
        return (first, Tile((LANES,)), Tile((packing, 1)))
    rows = _rows_for(bits, dims[-2], packing)
    if packing == 1:
        return (Tile((rows, LANES)),)
    return (Tile((rows, LANES)), Tile((packing, 1)))


def _rows_for(bits: int, second_minor: int, packing: int) -> int:
    if packing > 1:
        # Packed rows share a 32-bit word; one-bit pred packs a whole 32-row tile.
        return 32 if packing == 32 else SUBLANES
    if bits == 32 and second_minor <= 2:
        return 2
    if bits == 32 and second_minor <= 4:
        return 4
    return SUBLANES


def tpu_default_layout(shape: Shape) -> Layout:
    """Row-major dim order with the TPU default tiles (and `E(1)` for pred)."""
    base = Layout.default_for_rank(shape.rank)
    tiles = tpu_default_tiles(shape.element_type, shape.dims)
    element_size = 1 if shape.element_type == "pred" and tiles else 0
    return Layout(base.minor_to_major, tiles, element_size_in_bits=element_size)
