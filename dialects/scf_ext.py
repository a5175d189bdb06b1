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

XLA prints the normalized form (`in (upper bounds)`: lower bounds 0, steps 1);
the general one, `(%i) = (lower bounds) to (upper bounds) step (steps)`, runs
the induction variable over lb, lb + step, ... < ub. Bounds and steps may be
constants or index values; the normalized form is printed whenever it holds.

`scf.for` and `scf.if` read their result types as MLIR writes them: a parenthesized
list, or one type without parentheses (`iter_args(%a = %x) -> i32 {`,
`scf.if %c -> f32 {`), which xDSL 0.74 does not accept.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Self

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    TensorType,
    i1,
    i64,
)
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
from xla_emit.dialects.syntax import parse_body_region


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
        op = cls(parse_body_region(parser))
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

    dynamic_lower_bound = var_operand_def(IndexType)
    dynamic_upper_bound = var_operand_def(IndexType)
    dynamic_step = var_operand_def(IndexType)
    outputs = var_operand_def(TensorType)
    static_lower_bound = prop_def(DenseArrayBase.constr(i64))
    static_upper_bound = prop_def(DenseArrayBase.constr(i64))
    static_step = prop_def(DenseArrayBase.constr(i64))
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
        lower_bounds: Sequence[int | SSAValue] | None = None,
        steps: Sequence[int | SSAValue] | None = None,
    ):
        lower = list(lower_bounds) if lower_bounds is not None else [0] * len(upper_bounds)
        step = list(steps) if steps is not None else [1] * len(upper_bounds)
        lists = (lower, list(upper_bounds), step)
        super().__init__(
            operands=[*(_dynamic_part(values) for values in lists), outputs],
            result_types=[[o.type for o in outputs]],
            properties={
                name: _static_part(values)
                for name, values in zip(_STATIC_NAMES, lists, strict=True)
            },
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

    def lower_bounds(self) -> list[int | SSAValue]:
        return _mixed(self.static_lower_bound, self.dynamic_lower_bound)

    def upper_bounds(self) -> list[int | SSAValue]:
        return _mixed(self.static_upper_bound, self.dynamic_upper_bound)

    def steps(self) -> list[int | SSAValue]:
        return _mixed(self.static_step, self.dynamic_step)

    @property
    def num_bound_operands(self) -> int:
        """Operands before the shared outputs: the dynamic bounds and steps."""
        return (
            len(self.dynamic_lower_bound) + len(self.dynamic_upper_bound) + len(self.dynamic_step)
        )

    def is_normalized(self) -> bool:
        """Lower bounds 0 and steps 1 (printed as `in (upper bounds)`)."""
        return set(self.lower_bounds()) <= {0} and set(self.steps()) <= {1}

    def verify_(self) -> None:
        lists = (
            ("lower bound", self.static_lower_bound, self.dynamic_lower_bound),
            ("upper bound", self.static_upper_bound, self.dynamic_upper_bound),
            ("step", self.static_step, self.dynamic_step),
        )
        for what, static_attr, dynamic in lists:
            static = static_attr.get_values()
            if len(static) != self.rank:
                raise VerifyException(f"expected {self.rank} {what}s, but got {len(static)}")
            if static.count(DYNAMIC_INDEX) != len(dynamic):
                raise VerifyException(
                    f"expected {static.count(DYNAMIC_INDEX)} dynamic {what}s, "
                    f"but got {len(dynamic)}"
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
        if self.is_normalized():
            printer.print_string(") in ")
            self._print_list(printer, self.static_upper_bound, self.dynamic_upper_bound)
        else:
            printer.print_string(") = ")
            self._print_list(printer, self.static_lower_bound, self.dynamic_lower_bound)
            printer.print_string(" to ")
            self._print_list(printer, self.static_upper_bound, self.dynamic_upper_bound)
            printer.print_string(" step ")
            self._print_list(printer, self.static_step, self.dynamic_step)
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

    @staticmethod
    def _print_list(printer: Printer, static: DenseArrayBase, dynamic: Sequence[SSAValue]) -> None:
        print_dynamic_index_list(
            printer, DYNAMIC_INDEX, dynamic, static.get_values(), delimiter=Parser.Delimiter.PAREN
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        ivs = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
        )
        index = IndexType()

        def bounds(what: str) -> list[int | SSAValue]:
            values, integers = parse_dynamic_index_list_without_types(
                parser, DYNAMIC_INDEX, delimiter=Parser.Delimiter.PAREN
            )
            if len(integers) != len(ivs):
                parser.raise_error(
                    f"expected {len(ivs)} {what}, one per induction variable, "
                    f"but got {len(integers)}"
                )
            dynamic = iter(parser.resolve_operand(value, index) for value in values)
            return [next(dynamic) if b == DYNAMIC_INDEX else b for b in integers]

        lower: list[int | SSAValue] | None = None
        steps: list[int | SSAValue] | None = None
        if parser.parse_optional_punctuation("=") is not None:
            lower = bounds("lower bounds")
            parser.parse_keyword("to")
            upper = bounds("upper bounds")
            parser.parse_keyword("step")
            steps = bounds("steps")
        else:
            parser.parse_keyword("in")
            upper = bounds("upper bounds")
        shared, types = parse_carried_values(
            parser,
            "shared_outs",
            lambda: parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, parser.parse_attribute
            ),
            "result types",
        )
        pairs = list(zip(shared, types, strict=True))
        inits = [parser.resolve_operand(init, t) for (_, init), t in pairs]
        arguments = [iv.resolve(index) for iv in ivs]
        arguments += [arg.resolve(t) for (arg, _), t in pairs]
        body = parser.parse_region(arguments)
        attributes = parser.parse_optional_attr_dict()
        op = cls(upper, inits, body, lower, steps)
        if "mapping" in attributes:
            op.mapping = attributes.pop("mapping")
        op.attributes |= attributes
        if not isinstance(op.body.block.last_op, InParallelOp):
            op.body.block.add_op(InParallelOp())
        return op


def parse_carried_values(
    parser: Parser, keyword: str, parse_types: Callable[[], list[Attribute]], noun: str
) -> tuple[list[tuple[Parser.UnresolvedArgument, UnresolvedOperand]], list[Attribute]]:
    """`KEYWORD(%arg = %init, ...) -> TYPES` when the keyword is there (scf.forall's
    shared_outs, scf.for's iter_args): the pairs and their types, one type a pair."""
    if parser.parse_optional_keyword(keyword) is None:
        return [], []
    carried = parser.parse_comma_separated_list(
        Parser.Delimiter.PAREN, lambda: parse_assignment(parser)
    )
    parser.parse_punctuation("->")
    types = parse_types()
    if len(types) != len(carried):
        parser.raise_error(f"expected {len(carried)} {noun}, but got {len(types)}")
    return carried, types


def parse_result_types(parser: Parser) -> list[Attribute]:
    """The types after `->`: `(T, U)`, `()` or one type without parentheses, as MLIR's
    function-result type list reads them."""
    if parser.parse_optional_punctuation("(") is not None:
        if parser.parse_optional_punctuation(")") is not None:
            return []
        types = [parser.parse_type()]
        while parser.parse_optional_punctuation(",") is not None:
            types.append(parser.parse_type())
        parser.parse_punctuation(")")
        return types
    return [parser.parse_type()]


class ForOp(scf.ForOp):
    """xDSL's `scf.for`, reading `iter_args(...) -> T` without parentheses too (a plain
    subclass: its fields are xDSL's), with MLIR's rule that a constant step is positive."""

    def verify_(self) -> None:
        super().verify_()
        step = self.step.owner
        value = step.value if isinstance(step, arith.ConstantOp) else None
        if isinstance(value, IntegerAttr) and value.value.data <= 0:
            raise VerifyException("constant step operand must be positive")

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        indvar = parser.parse_argument(expect_type=False)
        parser.parse_punctuation("=")
        lower = parser.parse_unresolved_operand()
        parser.parse_keyword("to")
        upper = parser.parse_unresolved_operand()
        parser.parse_keyword("step")
        step = parser.parse_unresolved_operand()
        position = parser.pos
        carried, types = parse_carried_values(
            parser, "iter_args", lambda: parse_result_types(parser), "iter_args types"
        )
        inits = parser.resolve_operands([init for _, init in carried], types, position)
        index_type: Attribute = IndexType()
        if parser.parse_optional_punctuation(":") is not None:
            index_type = parser.parse_type()
        bounds = [parser.resolve_operand(v, index_type) for v in (lower, upper, step)]
        arguments = [indvar.resolve(index_type)]
        arguments += [arg.resolve(t) for (arg, _), t in zip(carried, types, strict=True)]
        body = parser.parse_region(arguments)
        op = cls(*bounds, inits, body)
        op.attributes |= parser.parse_optional_attr_dict()
        if not carried and not _ends_in_terminator(op.body):
            op.body.block.add_op(scf.YieldOp())
        return op


class IfOp(scf.IfOp):
    """xDSL's `scf.if`, reading `-> T` without parentheses too."""

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        condition = parser.parse_operand(i1)
        types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            types = parse_result_types(parser)
        then_region = cls.parse_region_with_yield(parser)
        else_region = Region()
        if parser.parse_optional_keyword("else") is not None:
            else_region = cls.parse_region_with_yield(parser)
        return cls(condition, types, then_region, else_region, parser.parse_optional_attr_dict())


def _ends_in_terminator(region: Region) -> bool:
    block = region.blocks.first
    return block is not None and block.last_op is not None and block.last_op.has_trait(IsTerminator)


_STATIC_NAMES = ("static_lower_bound", "static_upper_bound", "static_step")


def _dynamic_part(values: Sequence[int | SSAValue]) -> list[SSAValue]:
    return [v for v in values if not isinstance(v, int)]


def _static_part(values: Sequence[int | SSAValue]) -> DenseArrayBase:
    return DenseArrayBase.from_list(
        i64, [v if isinstance(v, int) else DYNAMIC_INDEX for v in values]
    )


def _mixed(static: DenseArrayBase, dynamic: Sequence[SSAValue]) -> list[int | SSAValue]:
    values = iter(dynamic)
    return [next(values) if v == DYNAMIC_INDEX else v for v in static.get_values()]


SCF = Dialect(
    "scf",
    [
        *(op for op in scf.Scf.operations if op not in (scf.ForOp, scf.IfOp)),
        ForOp,
        IfOp,
        ForallOp,
        InParallelOp,
    ],
    [*scf.Scf.attributes],
)
