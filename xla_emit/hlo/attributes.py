"""Typed readings of the structured attributes of gather, scatter, dot, windows, convolution.

The parser keeps these attributes' text verbatim (so printing gives them back)
and hands them here with the offset each value starts at; every malformed
value becomes a `UserError` at the exact character.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from xla_emit.diagnostics import UserError
from xla_emit.hlo.ir import (
    ConvolutionDimensions,
    DotDimensions,
    GatherDimensions,
    HloInstruction,
    ScatterDimensions,
    WindowDimension,
)

ErrorAt = Callable[[str, int], UserError]

_GATHER_LISTS = (
    "offset_dims",
    "collapsed_slice_dims",
    "start_index_map",
    "slice_sizes",
    "operand_batching_dims",
    "start_indices_batching_dims",
)
_SCATTER_LISTS = (
    "update_window_dims",
    "inserted_window_dims",
    "scatter_dims_to_operand_dims",
    "input_batching_dims",
    "scatter_indices_batching_dims",
)
_DOT_LISTS = (
    "lhs_batch_dims",
    "lhs_contracting_dims",
    "rhs_batch_dims",
    "rhs_contracting_dims",
)

# The attributes each opcode must carry (beyond the computations it calls).
REQUIRED_KEYS: dict[str, tuple[str, ...]] = {
    "gather": ("offset_dims", "collapsed_slice_dims", "start_index_map", "index_vector_dim",
               "slice_sizes"),
    "scatter": ("update_window_dims", "inserted_window_dims", "scatter_dims_to_operand_dims",
                "index_vector_dim"),
    "convolution": ("dim_labels",),
    "custom-call": ("custom_call_target",),
    "reduce-precision": ("exponent_bits", "mantissa_bits"),
}  # fmt: skip


@dataclass
class RawAttribute:
    """An attribute's text and the offset of its first character in the source."""

    text: str
    offset: int


class _Reader:
    """Reads one attribute value; errors point into the source text."""

    def __init__(self, raw: RawAttribute, key: str, error_at: ErrorAt) -> None:
        self.raw = raw
        self.key = key
        self.error_at = error_at

    def fail(self, message: str, position: int = 0) -> UserError:
        return self.error_at(message, self.raw.offset + position)

    def int_value(self) -> int:
        if not re.fullmatch(r"[-+]?\d+", self.raw.text):
            raise self.fail(f"'{self.key}' must be an integer, found '{self.raw.text}'")
        return int(self.raw.text)

    def bool_value(self) -> bool:
        if self.raw.text not in ("true", "false"):
            raise self.fail(f"'{self.key}' must be true or false, found '{self.raw.text}'")
        return self.raw.text == "true"

    def int_list(self) -> tuple[int, ...]:
        text = self.raw.text
        if not re.fullmatch(r"\{\s*([-+]?\d+\s*(,\s*[-+]?\d+\s*)*)?\}", text):
            raise self.fail(f"'{self.key}' must be a list of integers like {{0,1}}, found '{text}'")
        inner = text[1:-1].strip()
        return tuple(int(v) for v in inner.split(",")) if inner else ()

    def string(self) -> str:
        text = self.raw.text
        if len(text) < 2 or text[0] != '"' or text[-1] != '"':
            raise self.fail(f"'{self.key}' must be a quoted string, found '{text}'")
        return text[1:-1]


def interpret_attributes(
    instruction: HloInstruction, raw: dict[str, RawAttribute], error_at: ErrorAt
) -> None:
    """Sets the typed fields of `instruction` from its structured attributes."""

    def reader(key: str) -> _Reader:
        return _Reader(raw[key], key, error_at)

    def ints(key: str) -> tuple[int, ...]:
        return reader(key).int_list() if key in raw else ()

    opcode = instruction.opcode
    if opcode == "gather":
        lists = {key: ints(key) for key in _GATHER_LISTS}
        instruction.gather_dimensions = GatherDimensions(
            index_vector_dim=reader("index_vector_dim").int_value(), **lists
        )
    elif opcode == "scatter":
        lists = {key: ints(key) for key in _SCATTER_LISTS}
        instruction.scatter_dimensions = ScatterDimensions(
            index_vector_dim=reader("index_vector_dim").int_value(), **lists
        )
    elif opcode == "dot":
        lhs_batch, lhs_contracting, rhs_batch, rhs_contracting = (ints(k) for k in _DOT_LISTS)
        instruction.dot_dimensions = DotDimensions(
            lhs_batch, lhs_contracting, rhs_batch, rhs_contracting
        )
    elif opcode == "custom-call":
        instruction.custom_call_target = reader("custom_call_target").string()
    elif opcode == "reduce-precision":
        exponent_bits = reader("exponent_bits").int_value()
        mantissa_bits = reader("mantissa_bits").int_value()
        if exponent_bits < 1:
            raise reader("exponent_bits").fail("'exponent_bits' must be at least 1")
        if mantissa_bits < 0:
            raise reader("mantissa_bits").fail("'mantissa_bits' must be at least 0")
        instruction.precision_bits = (exponent_bits, mantissa_bits)
    if "dim_labels" in raw:  # convolutions, and cuDNN's custom calls
        instruction.convolution_dimensions = parse_dim_labels(reader("dim_labels"))
    if "window" in raw:
        instruction.window = parse_window(reader("window"))
    for key in ("feature_group_count", "batch_group_count"):
        if key in raw:
            value = reader(key).int_value()
            if value < 1:
                raise reader(key).fail(f"'{key}' must be at least 1")
            setattr(instruction, key, value)
    for key in ("indices_are_sorted", "unique_indices", "is_stable"):
        if key in raw:
            setattr(instruction, key, reader(key).bool_value())


_WINDOW_FIELDS = ("size", "stride", "pad", "lhs_dilate", "rhs_dilate", "rhs_reversal")


def parse_window(reader: _Reader) -> tuple[WindowDimension, ...]:
    """`{size=3x3 stride=2x2 pad=0_1x0_1 lhs_dilate=1x1 rhs_dilate=1x1}`, XLA's window text."""
    text = reader.raw.text
    if not (text.startswith("{") and text.endswith("}")):
        raise reader.fail(f"a window must be written {{size=...}}, found '{text}'")
    fields: dict[str, list[str]] = {}
    for match in re.finditer(r"\S+", text[1:-1]):
        position = match.start() + 1
        key, equals, value = match.group(0).partition("=")
        if not equals or key not in _WINDOW_FIELDS:
            raise reader.fail(f"unknown window field '{match.group(0)}'", position)
        fields[key] = value.split("x")
    if "size" not in fields:
        raise reader.fail("the window has no size")
    rank = len(fields["size"])
    for key, values in fields.items():
        if len(values) != rank:
            raise reader.fail(f"window field '{key}' has {len(values)} dimensions, size has {rank}")
    try:
        return tuple(_window_dimension(fields, d) for d in range(rank))
    except ValueError as error:
        raise reader.fail(f"malformed window: {error}") from None


def _window_dimension(fields: dict[str, list[str]], dim: int) -> WindowDimension:
    def number(key: str, default: int) -> int:
        return int(fields[key][dim]) if key in fields else default

    pad_low, pad_high = 0, 0
    if "pad" in fields:
        low_high = fields["pad"][dim].split("_")
        if len(low_high) != 2:
            raise ValueError(f"pad '{fields['pad'][dim]}' is not low_high")
        pad_low, pad_high = int(low_high[0]), int(low_high[1])
    result = WindowDimension(
        size=number("size", 1),
        stride=number("stride", 1),
        pad_low=pad_low,
        pad_high=pad_high,
        base_dilation=number("lhs_dilate", 1),
        window_dilation=number("rhs_dilate", 1),
        reversal=number("rhs_reversal", 0) == 1,
    )
    if min(result.size, result.stride, result.base_dilation, result.window_dilation) < 1:
        raise ValueError("sizes, strides and dilations must be at least 1")
    return result


def parse_dim_labels(reader: _Reader) -> ConvolutionDimensions:
    """`b01f_01io->b01f`: the input, kernel and output dimension labels."""
    text = reader.raw.text
    match = re.fullmatch(r"([bf\d]+)_([io\d]+)->([bf\d]+)", text)
    if match is None:
        raise reader.fail(f"dim_labels must look like b01f_01io->b01f, found '{text}'")
    input_labels, kernel_labels, output_labels = match.groups()
    spatial_rank = len(input_labels) - 2
    for labels, special in ((input_labels, "bf"), (kernel_labels, "io"), (output_labels, "bf")):
        expected = sorted(special + "".join(str(d) for d in range(spatial_rank)))
        if sorted(labels) != expected:
            raise reader.fail(
                f"dim_labels '{labels}' must name {special[0]}, {special[1]} and spatial "
                f"dimensions 0..{spatial_rank - 1} once each"
            )

    def spatial(labels: str) -> tuple[int, ...]:
        return tuple(labels.index(str(d)) for d in range(spatial_rank))

    return ConvolutionDimensions(
        input_batch=input_labels.index("b"),
        input_feature=input_labels.index("f"),
        input_spatial=spatial(input_labels),
        kernel_input_feature=kernel_labels.index("i"),
        kernel_output_feature=kernel_labels.index("o"),
        kernel_spatial=spatial(kernel_labels),
        output_batch=output_labels.index("b"),
        output_feature=output_labels.index("f"),
        output_spatial=spatial(output_labels),
    )
