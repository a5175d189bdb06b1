"""The `nvvm` ops XLA's Triton pipeline puts in Triton IR.

`xla-lower-pdl-wait` turns XLA's programmatic-dependent-launch markers into

    nvvm.griddepcontrol wait    // generic: <{kind = #nvvm.grid_dep_action<wait>}>
    nvvm.griddepcontrol launch_dependents

which order this kernel against the one launched before (`wait`) or let the next
start (`launch_dependents`); within one kernel they order nothing.

`xla-lower-to-llvm` writes the rest: the special registers (`nvvm.read.ptx.sreg.*`),
`nvvm.barrier` for `gpu.barrier` and `nvvm.shfl.sync` for `gpu.shuffle`.
"""

from __future__ import annotations

from typing import ClassVar, Self

from xdsl.dialects.builtin import I32, DenseArrayBase, StringAttr, i32
from xdsl.ir import Attribute, Data, Dialect, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import NoMemoryEffect
from xla_emit.dialects.syntax import parse_attr_dict_split, print_attr_dict_merged


@irdl_attr_definition
class GridDepActionAttr(Data[str]):
    """`#nvvm.grid_dep_action<wait>` or `<launch_dependents>` (older MLIR prints
    `#nvvm<grid_dep_action wait>`; both read, the first is printed)."""

    name = "nvvm.grid_dep_action"

    CASES: ClassVar[tuple[str, ...]] = ("wait", "launch_dependents")

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> str:
        # `#nvvm.grid_dep_action<wait>`, or in older MLIR `#nvvm<grid_dep_action wait>`,
        # where the parser has read up to the value already.
        if parser.parse_optional_punctuation("<") is None:
            return cls.parse_case(parser)
        case = cls.parse_case(parser)
        parser.parse_punctuation(">")
        return case

    @classmethod
    def parse_case(cls, parser: AttrParser) -> str:
        at = parser.pos
        word = parser.parse_identifier()
        if word not in cls.CASES:
            parser.raise_error(
                f"expected one of {', '.join(cls.CASES)}, but got '{word}'", at, parser.pos
            )
        return word

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data}>")


@irdl_op_definition
class GridDepControlOp(IRDLOperation):
    """`nvvm.griddepcontrol wait` (or `launch_dependents`)."""

    name = "nvvm.griddepcontrol"

    kind = prop_def(GridDepActionAttr)

    def __init__(self, kind: str):
        super().__init__(properties={"kind": GridDepActionAttr(kind)})

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        kind = GridDepActionAttr.parse_case(parser)
        _, attributes = parse_attr_dict_split(parser, cls)
        op = cls(kind)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.kind.data}")
        print_attr_dict_merged(printer, self, ("kind",))


class ReadSpecialRegisterOp(IRDLOperation):
    """`%t = nvvm.read.ptx.sreg.tid.x {range = array<i32: 0, 128>} : i32`: a PTX
    special register. `range` (optional) is the half-open range of its values,
    which LLVM IR carries as `!range` metadata on the call of the intrinsic
    `llvm.` + the op's name."""

    res = result_def(I32)
    assembly_format = "attr-dict `:` type($res)"
    traits = traits_def(NoMemoryEffect())

    def __init__(self, value_range: tuple[int, int] | None = None):
        attributes: dict[str, Attribute] = {}
        if value_range is not None:
            attributes["range"] = DenseArrayBase.from_list(i32, value_range)
        super().__init__(result_types=[i32], attributes=attributes)


def _special_register(register: str) -> type[ReadSpecialRegisterOp]:
    name = f"nvvm.read.ptx.sreg.{register}"
    op = type(
        "ReadSreg" + register.replace(".", "_").title().replace("_", "") + "Op",
        (ReadSpecialRegisterOp,),
        {"name": name},
    )
    return irdl_op_definition(op)


# The thread's index in its block and the block's in the grid, per dimension.
THREAD_ID_OPS = {d: _special_register(f"tid.{d}") for d in "xyz"}
BLOCK_ID_OPS = {d: _special_register(f"ctaid.{d}") for d in "xyz"}


@irdl_op_definition
class BarrierOp(IRDLOperation):
    """`nvvm.barrier`: every thread of the block waits here (PTX `bar.sync 0`)."""

    name = "nvvm.barrier"

    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


# `nvvm.shfl.sync`'s kinds; the intrinsic is `llvm.nvvm.shfl.sync.<kind>.<i32|f32>`.
SHUFFLE_KINDS = ("bfly", "up", "down", "idx")


@irdl_op_definition
class ShflSyncOp(IRDLOperation):
    """`%r = nvvm.shfl.sync down %mask, %value, %offset, %clamp : f32 -> f32`.

    `mask`: the lanes taking part; `clamp`: PTX's `c` operand (the last lane a
    lane may read, or for `up` the first).
    """

    name = "nvvm.shfl.sync"

    mask = operand_def(i32)
    value = operand_def()
    offset = operand_def(i32)
    clamp = operand_def(i32)
    res = result_def()
    kind = prop_def(StringAttr)

    traits = traits_def(NoMemoryEffect())

    def __init__(self, kind: str, mask: SSAValue, value: SSAValue, offset: SSAValue,
                 clamp: SSAValue) -> None:  # fmt: skip
        super().__init__(
            operands=[mask, value, offset, clamp],
            result_types=[value.type],
            properties={"kind": StringAttr(kind)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        at = parser.pos
        kind = parser.parse_identifier()
        if kind not in SHUFFLE_KINDS:
            parser.raise_error(f"expected one of {', '.join(SHUFFLE_KINDS)}", at, parser.pos)
        operands = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        parser.parse_punctuation("->")
        parser.parse_type()
        if len(operands) != 4:
            parser.raise_error("expected mask, value, offset and clamp", at, parser.pos)
        mask, value, offset, clamp = parser.resolve_operands(
            operands, [i32, value_type, i32, i32], at
        )
        op = cls(kind, mask, value, offset, clamp)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.kind.data} ")
        printer.print_list(self.operands, printer.print_ssa_value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" : {self.value.type} -> {self.res.type}")


NVVM = Dialect(
    "nvvm",
    [
        GridDepControlOp,
        *THREAD_ID_OPS.values(),
        *BLOCK_ID_OPS.values(),
        BarrierOp,
        ShflSyncOp,
    ],
    [GridDepActionAttr],
)
