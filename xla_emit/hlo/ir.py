"""A small Python model of an HLO module.

`HloModule` holds `HloComputation`s; a computation holds its instructions in
definition order (operands before users) and names its root. Each
`HloInstruction` has an opcode, a shape, operand instructions, and the
attributes its opcode needs as typed fields; attributes the front end does not
interpret (`metadata`, `backend_config`, `sharding`, ...) are kept as raw text
so that printing gives them back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from xla_emit.diagnostics import SourceLocation
from xla_emit.hlo.shape import ArrayShape, Shape


@dataclass(frozen=True)
class SliceRange:
    """One dimension of `slice={[start:limit:stride], ...}`."""

    start: int
    limit: int
    stride: int = 1


@dataclass(frozen=True)
class PadDimension:
    """One dimension of `padding=low_high[_interior]x...`; low/high may be negative."""

    low: int
    high: int
    interior: int = 0


@dataclass(frozen=True)
class GatherDimensions:
    """`gather`'s dimension numbers and `slice_sizes`, as XLA prints them."""

    offset_dims: tuple[int, ...]
    collapsed_slice_dims: tuple[int, ...]
    start_index_map: tuple[int, ...]
    index_vector_dim: int
    slice_sizes: tuple[int, ...]
    operand_batching_dims: tuple[int, ...] = ()
    start_indices_batching_dims: tuple[int, ...] = ()


@dataclass(frozen=True)
class ScatterDimensions:
    """`scatter`'s dimension numbers, as XLA prints them."""

    update_window_dims: tuple[int, ...]
    inserted_window_dims: tuple[int, ...]
    scatter_dims_to_operand_dims: tuple[int, ...]
    index_vector_dim: int
    input_batching_dims: tuple[int, ...] = ()
    scatter_indices_batching_dims: tuple[int, ...] = ()


@dataclass(frozen=True)
class DotDimensions:
    """`dot`'s batch and contracting dimensions of each side."""

    lhs_batch: tuple[int, ...] = ()
    lhs_contracting: tuple[int, ...] = ()
    rhs_batch: tuple[int, ...] = ()
    rhs_contracting: tuple[int, ...] = ()


@dataclass(frozen=True)
class WindowDimension:
    """One dimension of `window={size=.. stride=.. pad=.. lhs_dilate=.. rhs_dilate=..}`."""

    size: int
    stride: int = 1
    pad_low: int = 0
    pad_high: int = 0
    base_dilation: int = 1
    window_dilation: int = 1
    reversal: bool = False


@dataclass(frozen=True)
class ConvolutionDimensions:
    """`dim_labels=b01f_01io->b01f`: where batch, feature and spatial dims sit on each side."""

    input_batch: int
    input_feature: int
    input_spatial: tuple[int, ...]
    kernel_input_feature: int
    kernel_output_feature: int
    kernel_spatial: tuple[int, ...]
    output_batch: int
    output_feature: int
    output_spatial: tuple[int, ...]


@dataclass(eq=False)
class HloInstruction:
    """One HLO instruction. Identity is object identity (names are unique per computation)."""

    name: str
    opcode: str
    shape: Shape
    operands: list[HloInstruction] = field(default_factory=list["HloInstruction"])
    # Typed attributes; which ones are set depends on the opcode.
    dimensions: tuple[int, ...] | None = None
    parameter_number: int | None = None
    literal: np.ndarray | None = None
    comparison_direction: str | None = None
    comparison_type: str | None = None
    slice_ranges: tuple[SliceRange, ...] | None = None
    padding: tuple[PadDimension, ...] | None = None
    iota_dimension: int | None = None
    tuple_index: int | None = None
    dynamic_slice_sizes: tuple[int, ...] | None = None
    fusion_kind: str | None = None
    # reduce-precision: (exponent_bits, mantissa_bits) of the format values are rounded to.
    precision_bits: tuple[int, int] | None = None
    gather_dimensions: GatherDimensions | None = None
    scatter_dimensions: ScatterDimensions | None = None
    dot_dimensions: DotDimensions | None = None
    window: tuple[WindowDimension, ...] | None = None
    convolution_dimensions: ConvolutionDimensions | None = None
    feature_group_count: int = 1
    batch_group_count: int = 1
    indices_are_sorted: bool = False
    unique_indices: bool = False
    is_stable: bool = False
    custom_call_target: str | None = None
    called_computations: list[HloComputation] = field(default_factory=list["HloComputation"])
    # Attributes kept verbatim, in source order: (key, raw value text).
    extra_attributes: list[tuple[str, str]] = field(default_factory=list[tuple[str, str]])
    location: SourceLocation | None = None

    @property
    def array_shape(self) -> ArrayShape:
        """The shape, for instructions that produce an array (checked)."""
        assert isinstance(self.shape, ArrayShape), f"{self.name} produces a tuple"
        return self.shape

    def __repr__(self) -> str:
        return f"<HloInstruction {self.name} = {self.opcode}>"


@dataclass(eq=False)
class HloComputation:
    """A named computation; `instructions` are in definition order."""

    name: str
    instructions: list[HloInstruction]
    root: HloInstruction
    is_entry: bool = False
    execution_thread: str | None = None
    location: SourceLocation | None = None

    @property
    def parameters(self) -> list[HloInstruction]:
        """Parameter instructions ordered by parameter number."""
        params = [i for i in self.instructions if i.opcode == "parameter"]
        return sorted(params, key=lambda i: i.parameter_number or 0)

    def instruction(self, name: str) -> HloInstruction:
        for instr in self.instructions:
            if instr.name == name:
                return instr
        raise KeyError(name)

    def users(self) -> dict[HloInstruction, list[HloInstruction]]:
        """Each instruction's users in definition order (a user appears once)."""
        result: dict[HloInstruction, list[HloInstruction]] = {i: [] for i in self.instructions}
        for instr in self.instructions:
            for operand in dict.fromkeys(instr.operands):
                result[operand].append(instr)
        return result

    def __repr__(self) -> str:
        return f"<HloComputation {self.name}>"


@dataclass(eq=False)
class HloModule:
    """A module: computations in source order, one of them the entry."""

    name: str
    computations: list[HloComputation]
    header_attributes: str = ""

    @property
    def entry(self) -> HloComputation:
        for computation in self.computations:
            if computation.is_entry:
                return computation
        return self.computations[-1]

    def computation(self, name: str) -> HloComputation:
        for computation in self.computations:
            if computation.name == name:
                return computation
        raise KeyError(name)

    def __repr__(self) -> str:
        return f"<HloModule {self.name}>"
