"""`LLVM`: xDSL's `llvm` dialect with `#llvm.linkage` printed as MLIR prints it,
and the ops `xla-lower-to-llvm` needs that xDSL 0.74 lacks
(`llvm.extractelement`, `llvm.mlir.poison`, `llvm.fptosi`, `llvm.fptoui`,
`llvm.uitofp`, `llvm.addrspacecast`).

XLA marks its kernels' private functions `llvm.linkage = #llvm.linkage<internal>`;
xDSL 0.74 reads that but prints `#llvm.linkage<"internal">`, so a kernel would
not print back as it was read.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerType, StringAttr, VectorType
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import NoMemoryEffect
from xdsl.utils.exceptions import VerifyException

# LLVM IR's linkage kinds, as MLIR's LLVM dialect spells them.
LINKAGES = (
    "private", "internal", "available_externally", "linkonce", "weak", "common",
    "appending", "extern_weak", "linkonce_odr", "weak_odr", "external",
)  # fmt: skip


@irdl_attr_definition
class LinkageAttr(ParametrizedAttribute):
    """`#llvm.linkage<internal>`: the linkage, a bare keyword (a quoted one is read too)."""

    name = "llvm.linkage"

    linkage: StringAttr

    def __init__(self, linkage: str | StringAttr) -> None:
        super().__init__(StringAttr(linkage) if isinstance(linkage, str) else linkage)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.linkage.data}>")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            quoted = parser.parse_optional_str_literal()
            return [StringAttr(quoted if quoted is not None else parser.parse_identifier())]

    def verify(self) -> None:
        if self.linkage.data not in LINKAGES:
            raise VerifyException(f"unknown linkage '{self.linkage.data}'")


@irdl_op_definition
class ExtractElementOp(IRDLOperation):
    """`%e = llvm.extractelement %v[%i : i64] : vector<4xbf16>`: one lane of a vector."""

    name = "llvm.extractelement"

    VECTOR: ClassVar = VarConstraint("VECTOR", VectorType.constr())

    vector = operand_def(VECTOR)
    position = operand_def(IntegerType)
    res = result_def(AnyAttr())

    traits = traits_def(NoMemoryEffect())

    @classmethod
    def parse(cls, parser: Parser) -> ExtractElementOp:
        vector = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        position = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        position_type = parser.parse_type()
        parser.parse_punctuation("]")
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        vector_type = parser.parse_type()
        op = cls(
            parser.resolve_operand(vector, vector_type),
            parser.resolve_operand(position, position_type),
        )
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.vector)
        printer.print_string("[")
        printer.print_ssa_value(self.position)
        printer.print_string(f" : {self.position.type}]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" : {self.vector.type}")

    def __init__(self, vector: SSAValue, position: SSAValue):
        vector_type = vector.type
        element = vector_type.element_type if isinstance(vector_type, VectorType) else vector_type
        super().__init__(operands=[vector, position], result_types=[element])

    def verify_(self) -> None:
        vector_type = self.vector.type
        assert isinstance(vector_type, VectorType)
        if self.res.type != vector_type.element_type:
            raise VerifyException("result type must be the vector's element type")


@irdl_op_definition
class PoisonOp(IRDLOperation):
    """`%p = llvm.mlir.poison : vector<4xbf16>`: a value no lane of which may be read."""

    name = "llvm.mlir.poison"

    res = result_def(AnyAttr())

    assembly_format = "attr-dict `:` type($res)"

    traits = traits_def(NoMemoryEffect())

    def __init__(self, result_type: Attribute):
        super().__init__(result_types=[result_type])


@irdl_op_definition
class FPToSIOp(llvm.GenericCastOp):
    """`%i = llvm.fptosi %f : f32 to i32` (poison out of range; XLA selects it away)."""

    name = "llvm.fptosi"


@irdl_op_definition
class FPToUIOp(llvm.GenericCastOp):
    """`%i = llvm.fptoui %f : f32 to i8`."""

    name = "llvm.fptoui"


@irdl_op_definition
class UIToFPOp(llvm.GenericCastOp):
    """`%f = llvm.uitofp %i : i32 to f32`."""

    name = "llvm.uitofp"


@irdl_op_definition
class AddrSpaceCastOp(llvm.GenericCastOp):
    """`%p = llvm.addrspacecast %s : !llvm.ptr<3> to !llvm.ptr`: a shared-memory
    address as a generic one (how XLA reaches its `addr_space = 3` globals)."""

    name = "llvm.addrspacecast"


LLVM = Dialect(
    "llvm",
    [
        *llvm.LLVM.operations,
        ExtractElementOp,
        PoisonOp,
        FPToSIOp,
        FPToUIOp,
        UIToFPOp,
        AddrSpaceCastOp,
    ],
    [LinkageAttr if a is llvm.LinkageAttr else a for a in llvm.LLVM.attributes],
)
