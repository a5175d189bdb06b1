"""`LLVM`: xDSL's `llvm` dialect with `#llvm.linkage` printed as MLIR prints it,
and the ops `xla-lower-to-llvm` needs that xDSL 0.74 lacks
(`llvm.extractelement`, `llvm.mlir.poison`, `llvm.fptosi`, `llvm.fptoui`,
`llvm.uitofp`, `llvm.addrspacecast`), and `llvm.load` as MLIR spells a volatile
load (`llvm.load volatile %p`) and a load of memory that does not change while the
kernel runs: `llvm.load %p invariant
{alignment = 4 : i64} : !llvm.ptr -> f32` (what XLA's `xla-lower-tensors` writes;
xDSL 0.74 does not read the `invariant` keyword).

XLA marks its kernels' private functions `llvm.linkage = #llvm.linkage<internal>`;
xDSL 0.74 reads that but prints `#llvm.linkage<"internal">`, so a kernel would
not print back as it was read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerAttr, IntegerType, StringAttr, UnitAttr, VectorType
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
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


class IntrinsicOp(IRDLOperation):
    """`%r = llvm.intr.maximum(%a, %b) : (f32, f32) -> f32`: an LLVM intrinsic as an op,
    as MLIR's lowering writes the ones it knows; the LLVM IR call is
    `@llvm.<name>.<type>`, overloaded on the first operand's type."""

    args = var_operand_def()
    res = result_def()

    traits = traits_def(NoMemoryEffect())

    def __init__(self, args: Sequence[SSAValue], result_type: Attribute) -> None:
        super().__init__(operands=[args], result_types=[result_type])

    @property
    def intrinsic(self) -> str:
        """The LLVM intrinsic's name without its overload suffix: `llvm.maximum`."""
        return "llvm." + self.name.removeprefix("llvm.intr.")

    @classmethod
    def parse(cls, parser: Parser) -> IntrinsicOp:
        at = parser.pos
        operands = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        function_type = parser.parse_function_type()
        if len(function_type.outputs.data) != 1:
            parser.raise_error("an intrinsic has one result", at, parser.pos)
        args = parser.resolve_operands(operands, function_type.inputs.data, at)
        op = cls(args, function_type.outputs.data[0])
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list(self.args, printer.print_ssa_value)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        inputs = ", ".join(str(a.type) for a in self.args)
        printer.print_string(f" : ({inputs}) -> {self.res.type}")


def _intrinsic(name: str) -> type[IntrinsicOp]:
    title = "".join(part.title() for part in name.split("."))
    return irdl_op_definition(type(f"Intr{title}Op", (IntrinsicOp,), {"name": f"llvm.intr.{name}"}))


# The intrinsics `xla-lower-to-llvm` writes, by LLVM's name (`llvm.intr.<name>`).
INTRINSIC_OPS: dict[str, type[IntrinsicOp]] = {
    name: _intrinsic(name)
    for name in (
        "maximum", "minimum", "maxnum", "minnum", "smax", "smin", "umax", "umin",
        "fabs", "sqrt", "floor", "ceil", "roundeven", "round", "trunc", "copysign",
        "fma", "ctpop",
    )
}  # fmt: skip


# The `llvm.load` flag (a unit attribute) saying the memory read is invariant.
INVARIANT = "invariant"


@irdl_op_definition
class LoadOp(IRDLOperation):
    """`%v = llvm.load [volatile] %p [invariant] {alignment = 4 : i64} : !llvm.ptr -> f32`."""

    name = "llvm.load"

    ptr = operand_def(llvm.LLVMPointerType)
    alignment = opt_prop_def(IntegerAttr)
    # MLIR's property of a load the optimizer may not remove or reorder.
    volatile_ = opt_prop_def(UnitAttr)
    dereferenced_value = result_def()

    def __init__(self, ptr: SSAValue, result_type: Attribute, alignment: int | None = None):
        properties: dict[str, Attribute] = {}
        if alignment is not None:
            properties["alignment"] = IntegerAttr(alignment, 64)
        super().__init__(operands=[ptr], result_types=[result_type], properties=properties)

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        volatile = parser.parse_optional_keyword("volatile") is not None
        ptr = parser.parse_unresolved_operand()
        invariant = parser.parse_optional_keyword(INVARIANT) is not None
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        alignment = attrs.pop("alignment", None)
        op = cls(
            parser.resolve_operand(ptr, ptr_type),
            result_type,
            alignment=alignment.value.data if isinstance(alignment, IntegerAttr) else None,
        )
        op.attributes |= attrs
        if invariant:
            op.attributes[INVARIANT] = UnitAttr()
        if volatile:
            op.volatile_ = UnitAttr()
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" volatile " if self.volatile_ is not None else " ")
        printer.print_ssa_value(self.ptr)
        if INVARIANT in self.attributes:
            printer.print_string(f" {INVARIANT}")
        attrs = {k: v for k, v in self.attributes.items() if k != INVARIANT}
        if self.alignment is not None:
            attrs["alignment"] = self.alignment
        printer.print_op_attributes(attrs)
        printer.print_string(f" : {self.ptr.type} -> {self.dereferenced_value.type}")


# `llvm.atomicrmw`'s operations and memory orderings, as MLIR spells them.
ATOMIC_BINARY_OPS = (
    "xchg", "add", "sub", "_and", "nand", "_or", "_xor", "max", "min", "umax", "umin",
    "fadd", "fsub", "fmax", "fmin",
)  # fmt: skip
ATOMIC_ORDERINGS = ("monotonic", "acquire", "release", "acq_rel", "seq_cst")


@irdl_op_definition
class AtomicRMWOp(IRDLOperation):
    """`%old = llvm.atomicrmw fadd %p, %v monotonic : !llvm.ptr, f32`: reads the value at
    `p`, writes `old <op> v` there, atomically, and returns `old`."""

    name = "llvm.atomicrmw"

    ptr = operand_def(llvm.LLVMPointerType)
    val = operand_def()
    res = result_def()
    bin_op = prop_def(StringAttr)
    ordering = prop_def(StringAttr)

    def __init__(self, bin_op: str, ptr: SSAValue, val: SSAValue, ordering: str) -> None:
        super().__init__(
            operands=[ptr, val],
            result_types=[val.type],
            properties={"bin_op": StringAttr(bin_op), "ordering": StringAttr(ordering)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> AtomicRMWOp:
        at = parser.pos
        bin_op = parser.parse_identifier()
        if bin_op not in ATOMIC_BINARY_OPS:
            parser.raise_error(f"unknown atomic operation '{bin_op}'", at, parser.pos)
        ptr = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        val = parser.parse_unresolved_operand()
        at = parser.pos
        ordering = parser.parse_identifier()
        if ordering not in ATOMIC_ORDERINGS:
            parser.raise_error(f"unknown memory ordering '{ordering}'", at, parser.pos)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ptr_type = parser.parse_type()
        parser.parse_punctuation(",")
        val_type = parser.parse_type()
        op = cls(
            bin_op,
            parser.resolve_operand(ptr, ptr_type),
            parser.resolve_operand(val, val_type),
            ordering,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.bin_op.data} ")
        printer.print_ssa_value(self.ptr)
        printer.print_string(", ")
        printer.print_ssa_value(self.val)
        printer.print_string(f" {self.ordering.data}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" : {self.ptr.type}, {self.val.type}")


@irdl_op_definition
class AddrSpaceCastOp(llvm.GenericCastOp):
    """`%p = llvm.addrspacecast %s : !llvm.ptr<3> to !llvm.ptr`: a shared-memory
    address as a generic one (how XLA reaches its `addr_space = 3` globals)."""

    name = "llvm.addrspacecast"


LLVM = Dialect(
    "llvm",
    [
        # xDSL's own `llvm.load` and intrinsic ops give way to ours (MLIR's syntax).
        *(
            op
            for op in llvm.LLVM.operations
            if op is not llvm.LoadOp
            and op.name not in {intrinsic.name for intrinsic in INTRINSIC_OPS.values()}
        ),
        LoadOp,
        *INTRINSIC_OPS.values(),
        ExtractElementOp,
        PoisonOp,
        FPToSIOp,
        FPToUIOp,
        UIToFPOp,
        AddrSpaceCastOp,
        AtomicRMWOp,
    ],
    [LinkageAttr if a is llvm.LinkageAttr else a for a in llvm.LLVM.attributes],
)
