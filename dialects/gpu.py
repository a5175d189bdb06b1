"""MLIR's `gpu` dialect as XLA's IR writes it.

xDSL's `gpu` dialect lacks MLIR's custom syntax for the ops XLA's kernels
use (`gpu.thread_id  x {xla.range = [0 : index, 127 : index]}`,
`gpu.barrier`) and has no `gpu.shuffle`, which `xla-lower-xla-to-scf` emits
for `xla_gpu.shuffle_reduce`. `GPU` is xDSL's dialect with those three ops
redeclared and `gpu.shuffle` added. Being new classes, the redeclared ops are
not what xDSL's own gpu code matches; our passes import them from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import auto
from typing import Any, ClassVar, Self

# The ids' `xla.range` sizes the launch grid: loading these ops loads its verifier.
import xla_emit.dialects.xla.attributes  # noqa: F401
from xdsl.dialects import gpu as xdsl_gpu
from xdsl.dialects.builtin import i1, i32
from xdsl.dialects.gpu import DimensionAttr, DimensionEnum
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, Dialect, Operation, SpacedOpaqueSyntaxAttribute, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.str_enum import StrEnum
from xla_emit.dialects.grid_index import GridIndexOpBase


class _GridIdOpBase(GridIndexOpBase):
    """An index of the launch grid, its dimension a `#gpu<dim x>`."""

    DIMENSION: ClassVar[type[StrEnum]] = DimensionEnum
    DIMENSION_ATTR: ClassVar[type[EnumAttribute[Any]]] = DimensionAttr

    dimension = prop_def(DimensionAttr)


@irdl_op_definition
class ThreadIdOp(_GridIdOpBase):
    """`%t = gpu.thread_id  x`: the thread's index within its block."""

    name = "gpu.thread_id"


@irdl_op_definition
class BlockIdOp(_GridIdOpBase):
    """`%b = gpu.block_id  x`: the block's index within the grid."""

    name = "gpu.block_id"


@irdl_op_definition
class BarrierOp(IRDLOperation):
    """`gpu.barrier`: waits until every thread of the block reaches it."""

    name = "gpu.barrier"

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


class ShuffleMode(StrEnum):
    """Which lane a `gpu.shuffle` reads from."""

    XOR = auto()
    UP = auto()
    DOWN = auto()
    IDX = auto()


@irdl_attr_definition
class ShuffleModeAttr(EnumAttribute[ShuffleMode], SpacedOpaqueSyntaxAttribute):
    """`#gpu<shuffle_mode down>`."""

    name = "gpu.shuffle_mode"


@irdl_op_definition
class ShuffleOp(IRDLOperation):
    """`%r, %valid = gpu.shuffle down %v, %offset, %width : f32`: reads another lane's value.

    `valid` is false when the source lane lies outside `width`; `r` is then
    the lane's own value.
    """

    name = "gpu.shuffle"

    T: ClassVar = VarConstraint("T", AnyAttr())

    value = operand_def(T)
    offset = operand_def(i32)
    width = operand_def(i32)
    result = result_def(T)
    valid = result_def(i1)
    mode = prop_def(ShuffleModeAttr)

    traits = traits_def(Pure())

    def __init__(
        self,
        mode: ShuffleMode | str,
        value: SSAValue | Operation,
        offset: SSAValue | Operation,
        width: SSAValue | Operation,
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[value, offset, width],
            result_types=[SSAValue.get(value).type, i1],
            properties={"mode": ShuffleModeAttr(ShuffleMode(mode))},
            attributes=attributes,
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        mode = parser.parse_str_enum(ShuffleMode)
        start = parser.pos
        operands = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        value, offset, width = parser.resolve_operands(operands, [value_type, i32, i32], start)
        return cls(mode, value, offset, width, attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.mode.data.value} ")
        printer.print_list([self.value, self.offset, self.width], printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)


_REDECLARED: Sequence[type[Operation]] = (ThreadIdOp, BlockIdOp, BarrierOp)
_REDECLARED_NAMES = frozenset(op.name for op in _REDECLARED)

GPU = Dialect(
    "gpu",
    [
        *(op for op in xdsl_gpu.GPU.operations if op.name not in _REDECLARED_NAMES),
        *_REDECLARED,
        ShuffleOp,
    ],
    [*xdsl_gpu.GPU.attributes, ShuffleModeAttr],
)
