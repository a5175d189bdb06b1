"""Pictures of tiled layouts, like the seed's figures 1 and 2, as SVG.

Left: the logical array (rows = second-most-minor logical dim, columns = most
minor; leading dims become separate panels) extended to the padded extent of
the first tile, each cell labelled with its memory offset; padding cells are
white and dashed. Cells of one first-level tile share a colour; later tile
levels are outlined in red. Right: memory, one row per first-level tile,
each cell labelled with the logical index it holds (blank = padding).
"""

from __future__ import annotations

import itertools
import math
from xml.sax.saxutils import escape

from xla_emit.layout.tiling import TiledLayoutMap

CELL = 34
GAP = 24
MAX_CELLS = 4096

_PALETTE = ("#9ecae1", "#fdae6b", "#a1d99b", "#bcbddc", "#fdd0a2", "#c7e9c0", "#d9d9d9", "#fbb4b9")


class LayoutTooLargeToDraw(ValueError):
    """The picture would have more than MAX_CELLS cells."""


def render_svg(layout_map: TiledLayoutMap) -> str:
    """The SVG document for `layout_map` (raises LayoutTooLargeToDraw for huge arrays)."""
    if layout_map.padded_element_count > MAX_CELLS:
        raise LayoutTooLargeToDraw(
            f"{layout_map.padded_element_count} padded elements; pictures are limited to "
            f"{MAX_CELLS}"
        )
    shape = layout_map.shape
    dims = shape.dims if shape.rank >= 2 else (1,) * (2 - shape.rank) + shape.dims
    rows, columns = dims[-2], dims[-1]
    padded_rows, padded_columns = _padded_extent(layout_map, rows, columns)
    panels = list(itertools.product(*(range(d) for d in dims[:-2])))
    elements: list[str] = []
    y = GAP
    for panel in panels:
        if panel:
            elements.append(_text(GAP, y - 6, f"[{','.join(map(str, panel))},:,:]", anchor="start"))
        elements.extend(
            _logical_panel(layout_map, panel, rows, columns, padded_rows, padded_columns, y)
        )
        y += padded_rows * CELL + GAP
    memory_x = GAP * 2 + padded_columns * CELL
    memory_elements, memory_width, memory_height = _memory_panel(layout_map, memory_x)
    elements.extend(memory_elements)
    width = memory_x + memory_width + GAP
    height = max(y, memory_height + 2 * GAP)
    title = escape(str(shape))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="monospace" font-size="11">\n'
        f"<title>{title}</title>\n" + "\n".join(elements) + "\n</svg>\n"
    )


def _padded_extent(layout_map: TiledLayoutMap, rows: int, columns: int) -> tuple[int, int]:
    """Rows and columns to draw.

    The array grown to whole first-level tiles, where that is defined.
    """
    layout = layout_map.shape.layout_or_default()
    rank = layout_map.shape.rank
    if not layout.tiles or rank < 2 or layout.tiles[0].has_combined_dims:
        return rows, columns
    if layout.minor_to_major[:2] != (rank - 1, rank - 2):
        return rows, columns
    tile = (1,) * 2 + layout.tiles[0].dims
    return _round_up(rows, tile[-2]), _round_up(columns, tile[-1])


def _round_up(value: int, multiple: int) -> int:
    return -(-value // multiple) * multiple


def _logical_index(panel: tuple[int, ...], row: int, column: int, rank: int) -> tuple[int, ...]:
    full = (*panel, row, column)
    return full[len(full) - rank :]


def _logical_panel(
    layout_map: TiledLayoutMap,
    panel: tuple[int, ...],
    rows: int,
    columns: int,
    padded_rows: int,
    padded_columns: int,
    top: int,
) -> list[str]:
    rank = layout_map.shape.rank
    first_tile_elements = _first_tile_elements(layout_map)
    out: list[str] = []
    for row in range(padded_rows):
        for column in range(padded_columns):
            x, y = GAP + column * CELL, top + row * CELL
            inside = row < rows and column < columns
            offset = int(layout_map.offset(_logical_index(panel, row, column, rank)))
            if inside:
                colour = _PALETTE[(offset // first_tile_elements) % len(_PALETTE)]
                index = ",".join(map(str, _logical_index(panel, row, column, rank)))
                out.append(_rect(x, y, colour, cls="element", offset=offset, index=index))
            else:
                out.append(_rect(x, y, "#ffffff", cls="padding", offset=offset, dashed=True))
            out.append(_text(x + CELL / 2, y + CELL / 2 + 4, str(offset)))
    out.extend(_sub_tile_outlines(layout_map, panel, padded_rows, padded_columns, top))
    return out


def _first_tile_elements(layout_map: TiledLayoutMap) -> int:
    if not layout_map.steps:
        return max(1, math.prod(layout_map.tiled_dims))
    step = layout_map.steps[0]
    return math.prod(g.size for g in step.groups)


def _sub_tile_outlines(
    layout_map: TiledLayoutMap, panel: tuple[int, ...], rows: int, columns: int, top: int
) -> list[str]:
    """Red boxes around cells that share one innermost tile of the last level (figure 2)."""
    if len(layout_map.steps) < 2:
        return []
    innermost = math.prod(g.size for g in layout_map.steps[-1].groups)
    rank = layout_map.shape.rank
    out: list[str] = []
    for row in range(rows):
        for column in range(columns):
            offset = int(layout_map.offset(_logical_index(panel, row, column, rank)))
            x, y = GAP + column * CELL, top + row * CELL
            block = offset // innermost
            right = (
                column + 1 < columns
                and _block(layout_map, panel, row, column + 1, innermost) == block
            )
            below = (
                row + 1 < rows and _block(layout_map, panel, row + 1, column, innermost) == block
            )
            if not right:
                out.append(_line(x + CELL, y, x + CELL, y + CELL))
            if not below:
                out.append(_line(x, y + CELL, x + CELL, y + CELL))
            if row == 0 or _block(layout_map, panel, row - 1, column, innermost) != block:
                out.append(_line(x, y, x + CELL, y))
            if column == 0 or _block(layout_map, panel, row, column - 1, innermost) != block:
                out.append(_line(x, y, x, y + CELL))
    return out


def _block(
    layout_map: TiledLayoutMap, panel: tuple[int, ...], row: int, column: int, size: int
) -> int:
    offset = int(layout_map.offset(_logical_index(panel, row, column, layout_map.shape.rank)))
    return offset // size


def _memory_panel(layout_map: TiledLayoutMap, left: int) -> tuple[list[str], int, int]:
    per_row = _first_tile_elements(layout_map)
    total = layout_map.padded_element_count
    out = [_text(left, GAP - 6, "memory (offset: logical index)", anchor="start")]
    for offset in range(total):
        row, column = divmod(offset, per_row)
        x, y = left + column * CELL * 2, GAP + row * CELL
        index = layout_map.logical_index(offset)
        if index is None:
            out.append(
                _rect(x, y, "#ffffff", cls="memory-padding", offset=offset, dashed=True, width=2)
            )
            continue
        colour = _PALETTE[(offset // per_row) % len(_PALETTE)]
        label = ",".join(map(str, index))
        out.append(_rect(x, y, colour, cls="memory", offset=offset, width=2, index=label))
        out.append(_text(x + CELL, y + CELL / 2 + 4, label))
    rows = -(-total // per_row)
    return out, min(per_row, total) * CELL * 2, rows * CELL


def _rect(
    x: float,
    y: float,
    fill: str,
    *,
    cls: str,
    offset: int,
    dashed: bool = False,
    width: int = 1,
    index: str | None = None,
) -> str:
    dash = ' stroke-dasharray="3,2"' if dashed else ""
    if index is not None:
        dash += f' data-index="{index}"'
    return (
        f'<rect class="{cls}" data-offset="{offset}" x="{x}" y="{y}" width="{CELL * width}" '
        f'height="{CELL}" fill="{fill}" stroke="#555555"{dash}/>'
    )


def _text(x: float, y: float, content: str, anchor: str = "middle") -> str:
    return f'<text x="{x}" y="{y}" text-anchor="{anchor}">{escape(content)}</text>'


def _line(x1: float, y1: float, x2: float, y2: float) -> str:
    return (
        f'<line class="subtile" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
        'stroke="#d62728" stroke-width="2"/>'
    )
