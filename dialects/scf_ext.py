"""MLIR `scf` ops that xDSL 0.74 lacks, and `SCF`: xDSL's `scf` dialect with them added.

Today's XLA:GPU loop emitter maps threads with `scf.forall`: each iteration is
a thread, the `shared_outs` are the kernel's output tensors, and the
terminator `scf.forall.in_parallel` holds the `tensor.parallel_insert_slice`s
that write each thread's result back:

    %r = scf.forall (%tx, %ty, %tz) in (128, 1, 1) shared_outs(%o = %init) -> (tensor<8xf32>) {
      ...
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %v into %o[0] [8] [1] : tensor<8xf32> into tensor<8xf32>
      }
    }

Only the normalized form (`in (upper bounds)`, lower bounds 0, steps 1) that
XLA prints is read; the bounds may be constants or index values.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from xdsl.dialects import scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, IndexType, TensorType, i64
from xdsl.dialects.utils import (
    parse_assignment,
    parse_dynamic_index_list_without_types,
    print_assignment,
    print_dynamic_index_list,
)
from xdsl.ir import Attribute, Block, Dialect, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    lazy_traits_def,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator, NoTerminator, SingleBlockImplicitTerminator
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class InParallelOp(IRDLOperation):
    """`scf.forall.in_parallel { ... }`: the parallel writes that end an `scf.forall` body."""

    name = "scf.forall.in_parallel"

    body = region_def("single_block")

    traits = lazy_traits_def(lambda: (IsTerminator(), NoTerminator(), HasParent(ForallOp)))

    def __init__(self, body: Region | None = None):
        super().__init__(regions=[body or Region(Block())])

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=True)
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        body = parser.parse_region()
        if not body.blocks:
            body.add_block(Block())
        op = cls(body)
        op.attributes |= parser.parse_optional_attr_dict()
        return op


@irdl_op_definition
class ForallOp(IRDLOperation):
    """`scf.forall (%i, ...) in (N, ...) shared_outs(%o = %init) -> (types) { ... }`.

    The body's arguments are the induction variables (index) and then one per
    shared output; the results are the shared outputs after every iteration's
    parallel inserts.
    """

    name = "scf.forall"

    dynamic_upper_bound = var_operand_def(IndexType)
    outputs = var_operand_def(TensorType)
    static_upper_bound = prop_def(DenseArrayBase.constr(i64))
    mapping = opt_prop_def(Attribute)
    results_ = var_result_def(TensorType)
    body = region_def("single_block")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(SingleBlockImplicitTerminator(InParallelOp))

    def __init__(
        self,
        upper_bounds: Sequence[int | SSAValue],
        outputs: Sequence[SSAValue],
        body: Region,
    ):
        static = [b if isinstance(b, int) else DYNAMIC_INDEX for b in upper_bounds]
        dynamic = [b for b in upper_bounds if not isinstance(b, int)]
        super().__init__(
            operands=[dynamic, outputs],
            result_types=[[o.type for o in outputs]],
            properties={"static_upper_bound": DenseArrayBase.from_list(i64, static)},
            regions=[body],
        )

    @property
    def rank(self) -> int:
        return len(self.static_upper_bound.get_values())

    @property
    def induction_variables(self) -> tuple[SSAValue, ...]:
        return tuple(self.body.block.args[: self.rank])

    @property
    def shared_outs(self) -> tuple[SSAValue, ...]:
        return tuple(self.body.block.args[self.rank :])

    def upper_bounds(self) -> list[int | SSAValue]:
        dynamic = iter(self.dynamic_upper_bound)
        return [
            next(dynamic) if bound == DYNAMIC_INDEX else bound
            for bound in self.static_upper_bound.get_values()
        ]

    def verify_(self) -> None:
        static = self.static_upper_bound.get_values()
        if static.count(DYNAMIC_INDEX) != len(self.dynamic_upper_bound):
            raise VerifyException(
                f"expected {static.count(DYNAMIC_INDEX)} dynamic upper bounds, "
                f"but got {len(self.dynamic_upper_bound)}"
            )
        args = self.body.block.args
        if len(args) != self.rank + len(self.outputs):
            raise VerifyException(
                f"expected {self.rank} induction variables and {len(self.outputs)} shared "
                f"outputs as body arguments, but got {len(args)}"
            )
        for arg in args[: self.rank]:
            if not isinstance(arg.type, IndexType):
                raise VerifyException(f"expected index induction variables, but got {arg.type}")
        for number, (arg, init, result) in enumerate(
            zip(args[self.rank :], self.outputs, self.results, strict=True)
        ):
            if not arg.type == init.type == result.type:
                raise VerifyException(
                    f"shared output #{number}: the body argument ({arg.type}), the initial "
                    f"value ({init.type}) and the result ({result.type}) differ in type"
                )
        if not isinstance(self.body.block.last_op, InParallelOp):
            raise VerifyException("expected the body to end with scf.forall.in_parallel")

    def print(self, printer: Printer) -> None:
        printer.print_string(" (")
        printer.print_list(self.induction_variables, printer.print_ssa_value)
        printer.print_string(") in ")
        print_dynamic_index_list(
            printer,
            DYNAMIC_INDEX,
            self.dynamic_upper_bound,
            self.static_upper_bound.get_values(),
            delimiter=Parser.Delimiter.PAREN,
        )
        if self.outputs:
            printer.print_string(" shared_outs(")
            pairs = zip(self.shared_outs, self.outputs, strict=True)
            printer.print_list(pairs, lambda pair: print_assignment(printer, *pair))
            printer.print_string(") -> (")
            printer.print_list((r.type for r in self.results), printer.print_attribute)
            printer.print_string(")")
        printer.print_string(" ")
        printer.print_region(
            self.body, print_entry_block_args=False, print_block_terminators=bool(self.outputs)
        )
        attributes = dict(self.attributes)
        if self.mapping is not None:
            attributes["mapping"] = self.mapping
        printer.print_op_attributes(attributes)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        ivs = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
        )
        if parser.parse_optional_punctuation("=") is not None:
            parser.raise_error("scf.forall with lower bounds and steps is not supported")
        parser.parse_keyword("in")
        bound_values, bound_integers = parse_dynamic_index_list_without_types(
            parser, DYNAMIC_INDEX, delimiter=Parser.Delimiter.PAREN
        )
        if len(bound_integers) != len(ivs):
            parser.raise_error(
                f"expected {len(ivs)} upper bounds, one per induction variable, "
                f"but got {len(bound_integers)}"
            )
        shared: list[tuple[Parser.UnresolvedArgument, UnresolvedOperand]] = []
        types: list[Attribute] = []
        if parser.parse_optional_keyword("shared_outs") is not None:
            shared = parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, lambda: parse_assignment(parser)
            )
            parser.parse_punctuation("->")
            types = parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, parser.parse_attribute
            )
            if len(types) != len(shared):
                parser.raise_error(f"expected {len(shared)} result types, but got {len(types)}")
        index = IndexType()
        dynamic = [parser.resolve_operand(value, index) for value in bound_values]
        pairs = list(zip(shared, types, strict=True))
        inits = [parser.resolve_operand(init, t) for (_, init), t in pairs]
        arguments = [iv.resolve(index) for iv in ivs]
        arguments += [arg.resolve(t) for (arg, _), t in pairs]
        body = parser.parse_region(arguments)
        attributes = parser.parse_optional_attr_dict()
        upper = list(bound_integers)
        dynamic_iter = iter(dynamic)
        bounds = [next(dynamic_iter) if b == DYNAMIC_INDEX else b for b in upper]
        op = cls(bounds, inits, body)
        if "mapping" in attributes:
            op.mapping = attributes.pop("mapping")
        op.attributes |= attributes
        if not isinstance(op.body.block.last_op, InParallelOp):
            op.body.block.add_op(InParallelOp())
        return op


SCF = Dialect(
    "scf",
    [*scf.Scf.operations, ForallOp, InParallelOp],
    [*scf.Scf.attributes],
)
