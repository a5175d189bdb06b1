"""The `xla` ops' definitions, shared by both spellings.

`YieldOpBase`, `ApplyIndexingOpBase`, `LoopOpBase` and `PureCallOpBase` are
undecorated: `dialects.xla.ops` names them `xla.*` (the internal form) and
`dialects.xla.seed_spelling` names them `xla_gpu.*` (the seed's spelling).
Code that inspects ops matches these bases, so it works on either spelling.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Self

from xdsl.dialects.builtin import IndexType, SymbolRefAttr, TensorType, VectorType
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind
from xla_emit.dialects.xla.attributes import IndexingMapAttrBase, next_token
from xla_emit.dialects.xla.syntax import (
    lookup_function,
    nearest_symbol_table,
    parse_map_attr,
    parse_operand_list,
    print_types,
    print_values,
    shaped_element_type,
    verify_index_count,
)

from xla_emit.indexing import IndexingMap


class YieldOpBase(IRDLOperation):
    """`xla.yield %a, %b : T, U`: ends the body of a loop or an atomic_rmw."""

    values = var_operand_def()

    traits = traits_def(IsTerminator(), Pure())

    def __init__(self, values: Sequence[SSAValue | Operation] = ()):
        super().__init__(operands=[values])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        start = parser.pos
        operands = parser.parse_optional_undelimited_comma_separated_list(
            parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand
        )
        attributes = parser.parse_optional_attr_dict()
        values: Sequence[SSAValue] = []
        if operands:
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
            values = parser.resolve_operands(operands, types, start)
        op = cls(values)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        if self.values:
            printer.print_string(" ")
            print_values(printer, self.values)
        printer.print_op_attributes(self.attributes)
        if self.values:
            printer.print_string(" : ")
            print_types(printer, [value.type for value in self.values])

    def verify_(self) -> None:
        parent = self.parent_op()
        if parent is not None and not isinstance(parent, LoopOpBase | AtomicRMWOp):
            raise VerifyException(
                f"expected the parent op to be a loop or xla.atomic_rmw, but got {parent.name}"
            )


class ApplyIndexingOpBase(IRDLOperation):
    """`%r:2 = xla.apply_indexing #map(%d0, %d1)[%s0]`: evaluates an indexing map.

    Operands are the map's dims, then its symbols; there is one index result
    per map result. The map must have no constraints (only loops skip points).
    """

    arguments = var_operand_def(IndexType)
    res = var_result_def(IndexType)
    indexing_map_attr = prop_def(IndexingMapAttrBase)

    traits = traits_def(Pure())

    MAP_ATTR: ClassVar[type[IndexingMapAttrBase]]

    def __init__(
        self,
        indexing_map: IndexingMap | IndexingMapAttrBase,
        dims: Sequence[SSAValue | Operation],
        symbols: Sequence[SSAValue | Operation] = (),
        attributes: dict[str, Attribute] | None = None,
    ):
        attr = self._map_attr(indexing_map)
        super().__init__(
            operands=[[*dims, *symbols]],
            result_types=[[IndexType()] * len(attr.indexing_map.results)],
            properties={"indexing_map_attr": attr},
            attributes=attributes,
        )

    @classmethod
    def _map_attr(cls, indexing_map: IndexingMap | IndexingMapAttrBase) -> IndexingMapAttrBase:
        if isinstance(indexing_map, IndexingMapAttrBase):
            return indexing_map
        return cls.MAP_ATTR.from_map(indexing_map)

    @property
    def indexing_map(self) -> IndexingMap:
        return self.indexing_map_attr.indexing_map

    @property
    def dims(self) -> Sequence[SSAValue]:
        return self.arguments[: self.indexing_map.num_dims]

    @property
    def symbols(self) -> Sequence[SSAValue]:
        return self.arguments[self.indexing_map.num_dims :]

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        attr = parse_map_attr(parser)
        operands: list[UnresolvedOperand] = []
        start = parser.pos
        if next_token(parser).kind == MLIRTokenKind.L_PAREN:
            operands += parse_operand_list(parser, Parser.Delimiter.PAREN)
        if next_token(parser).kind == MLIRTokenKind.L_SQUARE:
            operands += parse_operand_list(parser, Parser.Delimiter.SQUARE)
        values = parser.resolve_operands(operands, [IndexType()] * len(operands), start)
        attributes = parser.parse_optional_attr_dict()
        num_dims = attr.indexing_map.num_dims
        return cls(attr, values[:num_dims], values[num_dims:], attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.indexing_map_attr)
        num_dims = self.indexing_map.num_dims
        if num_dims > 0:
            with printer.in_parens():
                print_values(printer, self.arguments[:num_dims])
        if len(self.arguments) > num_dims:
            with printer.in_square_brackets():
                print_values(printer, self.arguments[num_dims:])
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        indexing_map = self.indexing_map
        num_dims, num_symbols = indexing_map.num_dims, indexing_map.num_symbols
        if len(self.arguments) != num_dims + num_symbols:
            raise VerifyException(
                f"operand count {len(self.arguments)} does not match the sum of dimensions "
                f"{num_dims} and symbols {num_symbols} in the symbolic map"
            )
        if indexing_map.constraints:
            raise VerifyException("apply indexing op cannot have any constraints")
        if len(self.res) != len(indexing_map.results):
            raise VerifyException(
                f"expected {len(indexing_map.results)} results, but got {len(self.res)}. "
                "There is one result per indexing map result"
            )


class LoopOpBase(IRDLOperation):
    """`xla.loop (%dims)[%i, %j] -> (%ra, %rb) in #map iter_args(%it = %init) -> (T) {...}`.

    Runs the body once for every point of the map's domain that the dims
    operands select: the range variables are the induction variables, and the
    map results are passed in as further block arguments (then the iter args).
    Points outside the domain's constraints are skipped.
    """

    dims = var_operand_def(IndexType)
    inits = var_operand_def()
    res = var_result_def()
    indexing_map_attr = prop_def(IndexingMapAttrBase)
    body = region_def("single_block")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    MAP_ATTR: ClassVar[type[IndexingMapAttrBase]]
    YIELD: ClassVar[type[YieldOpBase]]

    def __init__(
        self,
        indexing_map: IndexingMap | IndexingMapAttrBase,
        dims: Sequence[SSAValue | Operation],
        inits: Sequence[SSAValue | Operation],
        body: Region | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        attr = (
            indexing_map
            if isinstance(indexing_map, IndexingMapAttrBase)
            else self.MAP_ATTR.from_map(indexing_map)
        )
        init_types = [SSAValue.get(init).type for init in inits]
        if body is None:
            num_indices = len(attr.indexing_map.range_vars) + len(attr.indexing_map.results)
            body = Region(Block(arg_types=[IndexType()] * num_indices + init_types))
        super().__init__(
            operands=[dims, inits],
            result_types=[init_types],
            properties={"indexing_map_attr": attr},
            regions=[body],
            attributes=attributes,
        )
        for result in self.res:
            result.name_hint = "xla_loop"

    @property
    def indexing_map(self) -> IndexingMap:
        return self.indexing_map_attr.indexing_map

    @property
    def num_induction_vars(self) -> int:
        indexing_map = self.indexing_map
        return len(self.body.block.args) - len(indexing_map.results) - len(self.inits)

    @property
    def induction_vars(self) -> Sequence[BlockArgument]:
        return self.body.block.args[: self.num_induction_vars]

    @property
    def map_results(self) -> Sequence[BlockArgument]:
        args = self.body.block.args
        return args[self.num_induction_vars : len(args) - len(self.inits)]

    @property
    def region_iter_args(self) -> Sequence[BlockArgument]:
        args = self.body.block.args
        return args[len(args) - len(self.inits) :]

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        dims = parse_operand_list(parser, Parser.Delimiter.PAREN)
        dims_start = parser.pos
        dim_values = parser.resolve_operands(dims, [IndexType()] * len(dims), dims_start)
        ivs = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, lambda: parser.parse_argument(expect_type=False)
        )
        parser.parse_punctuation("->")
        map_results = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
        )
        parser.parse_keyword("in")
        attr = parse_map_attr(parser)
        iter_args: list[Parser.UnresolvedArgument] = []
        init_operands: list[UnresolvedOperand] = []
        init_types: list[Attribute] = []
        if parser.parse_optional_keyword("iter_args"):
            for iter_arg, init in parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, lambda: _parse_assignment(parser)
            ):
                iter_args.append(iter_arg)
                init_operands.append(init)
            parser.parse_punctuation("->")
            types_start = parser.pos
            init_types = parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, parser.parse_type
            )
            if len(init_types) != len(init_operands):
                parser.raise_error(
                    f"expected {len(init_operands)} types, one per iter_arg, "
                    f"but got {len(init_types)}",
                    types_start,
                    parser.pos,
                )
        init_values = parser.resolve_operands(init_operands, init_types, parser.pos)
        block_args = [arg.resolve(IndexType()) for arg in (*ivs, *map_results)]
        block_args += [arg.resolve(t) for arg, t in zip(iter_args, init_types, strict=True)]
        body = parser.parse_region(block_args)
        attributes = parser.parse_optional_attr_dict()
        op = cls(attr, dim_values, init_values, body, attributes)
        op.add_implicit_terminator()
        return op

    def add_implicit_terminator(self) -> None:
        """Append an empty yield if the body has no terminator, as MLIR's parser does."""
        block = self.body.block
        last = block.last_op
        if last is None or not last.has_trait(IsTerminator):
            block.add_op(self.YIELD())

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        with printer.in_parens():
            print_values(printer, self.dims)
        with printer.in_square_brackets():
            print_values(printer, self.induction_vars)
        printer.print_string(" -> ")
        with printer.in_parens():
            print_values(printer, self.map_results)
        printer.print_string(" in ")
        printer.print_attribute(self.indexing_map_attr)
        printer.print_string(" iter_args(")
        printer.print_list(
            # Not strict: unverified IR is printed in diagnostics, and its body
            # may have fewer arguments than there are inits.
            zip(self.region_iter_args, self.inits, strict=False),
            lambda pair: _print_assignment(printer, *pair),
        )
        printer.print_string(") -> (")
        print_types(printer, [init.type for init in self.inits])
        printer.print_string(") ")
        printer.print_region(self.body, print_entry_block_args=False)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        indexing_map = self.indexing_map
        if len(self.inits) != len(self.res):
            raise VerifyException("mismatch in number of loop-carried values and results")
        num_fixed = len(indexing_map.results) + len(self.inits)
        num_args = len(self.body.block.args)
        if num_args < num_fixed:
            raise VerifyException(
                f"expected at least {num_fixed} block arguments, but got {num_args}. "
                "The body takes the induction variables, then one index per map result, "
                "then the iter args"
            )
        if self.num_induction_vars != len(indexing_map.range_vars):
            raise VerifyException(
                f"mismatch in number of induction variables {self.num_induction_vars} "
                f"and RangeVars in the indexing map {indexing_map}"
            )
        if len(self.dims) != indexing_map.num_dims:
            raise VerifyException(
                f"mismatch in number of dims operands {len(self.dims)} "
                f"and DimVars in the indexing map {indexing_map}"
            )
        self._verify_block_argument_types()
        self._verify_yield()

    def _verify_block_argument_types(self) -> None:
        for position, arg in enumerate([*self.induction_vars, *self.map_results]):
            if not isinstance(arg.type, IndexType):
                raise VerifyException(
                    f"expected block argument #{position} to be index, but got {arg.type}. "
                    "Induction variables and map results are indices"
                )
        for arg, result, init in zip(self.region_iter_args, self.res, self.inits, strict=True):
            if arg.type != result.type or init.type != result.type:
                raise VerifyException(
                    f"block iter arg type = '{arg.type}', result type = '{result.type}' and "
                    f"init operand type = '{init.type}' should match"
                )

    def _verify_yield(self) -> None:
        terminator = self.body.block.last_op
        if not isinstance(terminator, YieldOpBase):
            found = "nothing" if terminator is None else terminator.name
            raise VerifyException(f"expected the body to end with a yield, but got {found}")
        yielded = [value.type for value in terminator.values]
        expected = [result.type for result in self.res]
        if len(yielded) != len(expected):
            raise VerifyException(
                f"expected the yield to return {len(expected)} values, but got {len(yielded)}. "
                "A loop yields one value per iter arg"
            )
        for position, (got, want) in enumerate(zip(yielded, expected, strict=True)):
            if got != want:
                raise VerifyException(
                    f"expected yielded value #{position} to be {want}, but got {got}. "
                    "Yielded values must match the loop-carried types"
                )


def _parse_assignment(parser: Parser) -> tuple[Parser.UnresolvedArgument, UnresolvedOperand]:
    arg = parser.parse_argument(expect_type=False)
    parser.parse_punctuation("=")
    return arg, parser.parse_unresolved_operand()


def _print_assignment(printer: Printer, arg: BlockArgument, value: SSAValue) -> None:
    printer.print_block_argument(arg, print_type=False)
    printer.print_string(" = ")
    printer.print_operand(value)


class PureCallOpBase(IRDLOperation):
    """`%r = xla.pure_call @f(%a, %b) : (T1, T2) -> R`: a call without side effects.

    A `noinline` attribute keeps the inliner away from it.
    """

    callee = prop_def(SymbolRefAttr)
    arguments = var_operand_def()
    res = var_result_def()

    traits = traits_def(Pure())

    def __init__(
        self,
        callee: str | SymbolRefAttr,
        arguments: Sequence[SSAValue | Operation],
        result_types: Sequence[Attribute],
        attributes: dict[str, Attribute] | None = None,
    ):
        if isinstance(callee, str):
            callee = SymbolRefAttr(callee)
        super().__init__(
            operands=[arguments],
            result_types=[result_types],
            properties={"callee": callee},
            attributes=attributes,
        )
        for result in self.res:
            result.name_hint = "pure_call"

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        callee = parser.parse_symbol_name()
        operands = parse_operand_list(parser, Parser.Delimiter.PAREN)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_start = parser.pos
        function_type = parser.parse_function_type()
        arguments = parser.resolve_operands(operands, function_type.inputs.data, type_start)
        return cls(callee.data, arguments, function_type.outputs.data, attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.callee)
        with printer.in_parens():
            print_values(printer, self.arguments)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_function_type(
            [arg.type for arg in self.arguments], [result.type for result in self.res]
        )

    def verify_(self) -> None:
        symbol_table = nearest_symbol_table(self)
        if symbol_table is None:
            # An op being built is checked once it is inserted into a module.
            return
        function = lookup_function(symbol_table, self.callee)
        if function is None:
            raise VerifyException(f"'f' attribute refers to an undefined function: {self.callee}")
        inputs = function.function_type.inputs.data
        if len(self.arguments) != len(inputs):
            raise VerifyException(
                f"argument count mismatch: 'operands' has {len(self.arguments)} arguments, "
                f"but '{self.callee}' expects {len(inputs)}"
            )
        for position, (arg, want) in enumerate(zip(self.arguments, inputs, strict=True)):
            if arg.type != want:
                raise VerifyException(
                    f"expected operand #{position} to be {want}, but got {arg.type}. "
                    f"Operands must match the signature of {self.callee}"
                )
        outputs = function.function_type.outputs.data
        got = tuple(result.type for result in self.res)
        if got != outputs:
            raise VerifyException(
                f"expected result types ({', '.join(map(str, outputs))}), but got "
                f"({', '.join(map(str, got))}). Results must match the signature of {self.callee}"
            )


# ----------------------------------------------------------------------------
# Today's spellings


@irdl_op_definition
class AtomicRMWOp(IRDLOperation):
    """`%r = xla.atomic_rmw %t[%i, %j] : tensor<2x3xf32> {...}`.

    Atomically replaces one element (or a 1-D vector of elements starting at
    the indices) by what the body yields for its current value.
    """

    name = "xla.atomic_rmw"

    T: ClassVar = VarConstraint("T", base(TensorType))

    input = operand_def(T)
    indices = var_operand_def(IndexType)
    result = result_def(T)
    body = region_def("single_block")

    def __init__(
        self,
        input: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation],
        body: Region,
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[input, indices],
            result_types=[SSAValue.get(input).type],
            regions=[body],
            attributes=attributes,
        )
        self.result.name_hint = "atomic_rmw"

    @property
    def current_value(self) -> BlockArgument:
        return self.body.block.args[0]

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        input_operand = parser.parse_unresolved_operand()
        indices = parse_operand_list(parser, Parser.Delimiter.SQUARE)
        indices_end = parser.pos
        parser.parse_punctuation(":")
        tensor_type = parser.parse_type()
        input_value = parser.resolve_operand(input_operand, tensor_type)
        index_values = parser.resolve_operands(indices, [IndexType()] * len(indices), indices_end)
        body = parser.parse_region()
        attributes = parser.parse_optional_attr_dict()
        return cls(input_value, index_values, body, attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.input)
        with printer.in_square_brackets():
            print_values(printer, self.indices)
        printer.print_string(" : ")
        printer.print_attribute(self.input.type)
        printer.print_string(" ")
        printer.print_region(self.body)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        verify_index_count(self.input.type, self.indices)
        args = self.body.block.args
        if len(args) != 1:
            raise VerifyException(
                f"expected 1 block argument, but got {len(args)}. The body takes the current value"
            )
        arg_type = args[0].type
        terminator = self.body.block.last_op
        if (
            not isinstance(terminator, YieldOpBase)
            or len(terminator.values) != 1
            or terminator.values[0].type != arg_type
        ):
            raise VerifyException("mismatch in the block argument type and the yielded type")
        element_type = shaped_element_type(self.result.type)
        if isinstance(arg_type, VectorType):
            if arg_type.get_num_dims() != 1:
                raise VerifyException("expected a rank-1 vector type for the block argument")
            if arg_type.get_element_type() != element_type:
                raise VerifyException(
                    "mismatch in the result element type and the block argument vector element type"
                )
        elif arg_type != element_type:
            raise VerifyException("mismatch in the result element type and the block argument type")
