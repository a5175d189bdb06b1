"""The `tpu` dialect's enum attributes, printed `#tpu.<name><value>` as Mosaic prints them.

The value lists are Mosaic's (`tpu_enums.td`): `#tpu.core_type<tc>`,
`#tpu.dimension_semantics<parallel>`, `#tpu.pipeline_mode<synchronous>`, ...
Each enum is a `TpuEnumAttr` subclass naming its attribute and its values.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException


class TpuEnumAttr(ParametrizedAttribute):
    """One value of a Mosaic enum, `#tpu.<name><value>`."""

    VALUES: ClassVar[tuple[str, ...]] = ()

    value: StringAttr

    def __init__(self, value: str) -> None:
        super().__init__(StringAttr(value))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        value = parser.parse_identifier(f" (one of {', '.join(cls.VALUES)})")
        parser.parse_punctuation(">")
        return (StringAttr(value),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.value.data}>")

    def verify(self) -> None:
        if self.value.data not in self.VALUES:
            raise VerifyException(
                f"Expected {self.name} in {{{', '.join(self.VALUES)}}}, but got '{self.value.data}'"
            )


@irdl_attr_definition
class CoreTypeAttr(TpuEnumAttr):
    """`#tpu.core_type<tc>`: the core a kernel runs on (a kernel `func.func` attribute)."""

    name = "tpu.core_type"
    VALUES = ("tc", "sc_scalar_subcore", "sc_vector_subcore")


@irdl_attr_definition
class DimensionSemanticsAttr(TpuEnumAttr):
    """`#tpu.dimension_semantics<parallel>`: whether a grid dimension's steps are independent."""

    name = "tpu.dimension_semantics"
    VALUES = ("parallel", "arbitrary", "core_parallel", "subcore_parallel")


@irdl_attr_definition
class PipelineModeAttr(TpuEnumAttr):
    """`#tpu.pipeline_mode<synchronous>`: how a window is brought into VMEM."""

    name = "tpu.pipeline_mode"
    VALUES = ("synchronous", "double_buffered")


@irdl_attr_definition
class RevisitModeAttr(TpuEnumAttr):
    name = "tpu.revisit_mode"
    VALUES = ("immediate", "any")


@irdl_attr_definition
class ContractPrecisionAttr(TpuEnumAttr):
    """`#tpu.contract_precision<fp32>`: the precision of a `tpu.matmul`."""

    name = "tpu.contract_precision"
    VALUES = ("bf16", "fp32", "bf16x3")  # bf16x3: jaxlib 0.12


@irdl_attr_definition
class PackFormatAttr(TpuEnumAttr):
    name = "tpu.pack_format"
    VALUES = ("compressed", "interleaved")


@irdl_attr_definition
class ReductionKindAttr(TpuEnumAttr):
    name = "tpu.reduction_kind"
    # `max` and `min` are deprecated in jaxlib 0.12, which adds the typed kinds after them.
    VALUES = (
        "sum",
        "max",
        "min",
        "arg_max",
        "arg_min",
        "find_first_set",
        "maxf",
        "minf",
        "maxsi",
        "minsi",
        "maxui",
        "minui",
    )


@irdl_attr_definition
class RoundingModeAttr(TpuEnumAttr):
    name = "tpu.rounding_mode"
    VALUES = ("towards_zero", "to_nearest_even")


ENUM_ATTRIBUTES: tuple[type[TpuEnumAttr], ...] = (
    CoreTypeAttr,
    DimensionSemanticsAttr,
    PipelineModeAttr,
    RevisitModeAttr,
    ContractPrecisionAttr,
    PackFormatAttr,
    ReductionKindAttr,
    RoundingModeAttr,
)
