"""`xla-emit-layout`: sizes of an XLA shape with a tiled layout, and where an element lives.

xla-emit-layout 'f32[3,5]{1,0:T(2,2)}' --index 2,3
xla-emit-layout 'bf16[16,256]' --tpu-default --json
xla-emit-layout 'f32[4,8]{1,0:T(2,4)(2,1)}' --svg fig2.svg
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from xla_emit.diagnostics import SourceLocation, UserError
from xla_emit.layout import Shape, TiledLayoutMap, parse_shape, tiled_layout_map
from xla_emit.layout.shape import LayoutSyntaxError
from xla_emit.layout.svg import LayoutTooLargeToDraw, render_svg
from xla_emit.layout.tpu_defaults import tpu_default_layout

_ARGUMENT_FILE = "<shape>"


def _parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="xla-emit-layout",
        description="Sizes and element offsets of an XLA shape with a (tiled) layout.",
    )
    parser.add_argument("shape", help="e.g. 'f32[3,5]{1,0:T(2,2)}'")
    parser.add_argument("--index", help="logical index I,J,... whose physical offset to print")
    parser.add_argument("--json", action="store_true", help="print a JSON object")
    parser.add_argument("--svg", metavar="OUT.svg", help="draw the layout into an SVG file")
    parser.add_argument(
        "--tpu-default",
        action="store_true",
        help="give a shape written without a layout the TPU default tiling",
    )
    return parser.parse_args(argv)


def _shape_from_argument(text: str, tpu_default: bool) -> Shape:
    try:
        shape = parse_shape(text)
    except LayoutSyntaxError as error:
        raise UserError(
            error.message, SourceLocation.from_offset(_ARGUMENT_FILE, text, error.offset)
        ) from None
    if tpu_default:
        if shape.layout is not None:
            raise UserError(
                f"--tpu-default needs a shape without a layout, but got {shape.layout}",
                SourceLocation.from_offset(_ARGUMENT_FILE, text, text.index("{")),
            )
        shape = shape.with_layout(tpu_default_layout(shape))
    return shape


def _index_from_argument(text: str, shape: Shape) -> tuple[int, ...]:
    location = SourceLocation("<index>", 1, 1, text)
    try:
        index = tuple(int(part) for part in text.split(",")) if text.strip() else ()
    except ValueError:
        raise UserError(f"expected comma-separated integers, but got '{text}'", location) from None
    if len(index) != shape.rank:
        raise UserError(
            f"expected {shape.rank} indices for {shape}, but got {len(index)}", location
        )
    for dim, (value, bound) in enumerate(zip(index, shape.dims, strict=True)):
        if not 0 <= value < bound:
            raise UserError(
                f"index {value} in dimension {dim} is out of bounds [0, {bound})", location
            )
    return index


def _report_lines(layout_map: TiledLayoutMap, index: tuple[int, ...] | None) -> list[str]:
    shape = layout_map.shape
    logical = 1
    for dim in shape.dims:
        logical *= dim
    padded = layout_map.padded_element_count
    lines = [
        f"shape: {shape}",
        f"tiled shape: [{','.join(map(str, layout_map.tiled_dims))}]",
        f"elements: {logical}",
        f"padded elements: {padded} ({padded - logical} padding)",
        f"bytes: {layout_map.byte_size}",
    ]
    if index is not None:
        lines.append(f"offset of ({','.join(map(str, index))}): {layout_map.offset(index)}")
    return lines


def run(argv: Sequence[str] | None = None) -> int:
    """Run the tool; raises UserError for bad input."""
    arguments = _parse_arguments(argv)
    shape = _shape_from_argument(arguments.shape, arguments.tpu_default)
    layout_map = tiled_layout_map(shape)
    index = _index_from_argument(arguments.index, shape) if arguments.index is not None else None
    if arguments.svg is not None:
        try:
            picture = render_svg(layout_map)
        except LayoutTooLargeToDraw as error:
            raise UserError(f"cannot draw {shape}: {error}") from None
        with open(arguments.svg, "w", encoding="utf-8") as out:
            out.write(picture)
    if arguments.json:
        result: dict[str, int | str] = {
            "shape": str(shape),
            "padded_elements": layout_map.padded_element_count,
            "bytes": layout_map.byte_size,
        }
        if index is not None:
            result["offset"] = int(layout_map.offset(index))
        print(json.dumps(result))
    else:
        print("\n".join(_report_lines(layout_map, index)))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Console entry point: user errors print `FILE:LINE:COL: error: ...` and exit 1."""
    try:
        return run(argv)
    except UserError as error:
        print(error.format(), file=sys.stderr)
        return 1
    except OSError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
