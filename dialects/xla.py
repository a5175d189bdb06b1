"""The `xla` dialect: XLA's target-neutral emitter ops and the indexing-map attribute.

Today's XLA spells these ops `xla.loop`, `xla.apply_indexing`, ...; the seed
(and XLA before December 2024) spells four of them `xla_gpu.` and the
attribute `#xla_gpu.indexing_map`. Both spellings are concrete classes over
the undecorated bases defined here (`LoopOpBase`, ...), and passes match the
bases, so the spelling never changes what a pass does. `dialects/xla_gpu.py`
holds the seed spellings.

Conventions shared by the ops:
- `xla.range = [LB : index, UB : index]` on an op or an index function
  argument gives the inclusive range of the value (`get_xla_range`).
- An indexing map prints through `IndexingMap.__str__`, so equal maps print
  equally whatever text they were parsed from.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import auto
from typing import ClassVar, Self

from xdsl.builder import Builder
from xdsl.dialects.builtin import (
    ArrayAttr,
    IndexType,
    IntegerAttr,
    SymbolRefAttr,
    TensorType,
    VectorType,
    i1,
)
from xdsl.dialects.func import FuncOp
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import (
    Attribute,
    Block,
    BlockArgument,
    Data,
    Dialect,
    Operation,
    OpResult,
    Region,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    VarConstraint,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsTerminator, Pure, SymbolTable
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.lexer import Position
from xdsl.utils.mlir_lexer import MLIRToken, MLIRTokenKind
from xdsl.utils.str_enum import StrEnum

from xla_emit.indexing import (
    IndexingMap,
    IndexingMapSyntaxError,
    Interval,
    parse_indexing_map,
)

XLA_RANGE = "xla.range"
"""The attribute holding a value's inclusive range: `[LB : index, UB : index]`."""

# ----------------------------------------------------------------------------
# The indexing-map attribute
# ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _MapSource:
    """Map text gathered from one or more string literals, and where each piece sits in the file.

    Adjacent literals (`<"(d0) -> (d0)," "domain: d0 in [0, 3]">`) are joined,
    so an offset into the joined text has to be mapped back piecewise.
    """

    text: str
    # (offset of the piece in `text`, file position of its first character)
    pieces: tuple[tuple[int, Position], ...]

    def file_position(self, offset: int) -> Position:
        text_start, file_start = self.pieces[0]
        for piece_text_start, piece_file_start in self.pieces:
            if piece_text_start > offset:
                break
            text_start, file_start = piece_text_start, piece_file_start
        return file_start + (offset - text_start)


def _next_token(parser: AttrParser) -> MLIRToken:
    # xDSL has no public peek; custom syntax needs one to pick between forms.
    return parser._current_token  # pyright: ignore[reportPrivateUsage]


def _parse_map_source(parser: AttrParser) -> _MapSource:
    """Parse `<"..." "...">` or XLA's older unquoted `<(d0) -> ..., domain: ...>`."""
    if _next_token(parser).kind != MLIRTokenKind.LESS:
        parser.raise_error("expected '<' and an indexing map")
    body_start = _next_token(parser).span.end
    content = parser.lexer.input.content
    if not content[body_start:].lstrip().startswith('"'):
        # The raw scan is the only way to take `->` and nested brackets verbatim.
        body = parser._parse_dialect_symbol_body()  # pyright: ignore[reportPrivateUsage]
        return _MapSource(body, ((0, body_start),))
    parser.parse_punctuation("<")
    text = ""
    pieces: list[tuple[int, Position]] = []
    while _next_token(parser).kind == MLIRTokenKind.STRING_LIT:
        # +1 skips the opening quote.
        pieces.append((len(text), _next_token(parser).span.start + 1))
        text += parser.parse_str_literal()
    parser.parse_punctuation(">", " to end the indexing map")
    return _MapSource(text, tuple(pieces))


class IndexingMapAttrBase(Data[IndexingMap]):
    """An XLA indexing map, `#xla.indexing_map<"(d0)[s0] -> (d0 + s0), domain: ...">`.

    The attribute holds the parsed `IndexingMap`; it is printed through the
    map's own printer, so the printed text is canonical.
    """

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> IndexingMap:
        source = _parse_map_source(parser)
        try:
            return parse_indexing_map(source.text)
        except IndexingMapSyntaxError as error:
            position = source.file_position(error.offset)
            parser.raise_error(f"invalid indexing map: {error.message}", position, position + 1)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_string_literal(str(self.data))
        printer.print_string(">")

    @classmethod
    def from_map(cls, indexing_map: IndexingMap) -> Self:
        return cls(indexing_map)

    @property
    def indexing_map(self) -> IndexingMap:
        return self.data


@irdl_attr_definition
class IndexingMapAttr(IndexingMapAttrBase):
    """Today's spelling, `#xla.indexing_map<"...">`."""

    name = "xla.indexing_map"


def _as_map(indexing_map: IndexingMap | IndexingMapAttrBase) -> IndexingMap:
    if isinstance(indexing_map, IndexingMapAttrBase):
        return indexing_map.indexing_map
    return indexing_map


class WorkGroupDimension(StrEnum):
    """A dimension of the launch grid."""

    X = auto()
    Y = auto()
    Z = auto()


@irdl_attr_definition
class WorkGroupDimensionAttr(EnumAttribute[WorkGroupDimension], SpacedOpaqueSyntaxAttribute):
    """`#xla<workgroup_dim x>`: which grid dimension `xla.workgroup_id` reads."""

    name = "xla.workgroup_dim"


# ----------------------------------------------------------------------------
# Parsing and printing helpers
# ----------------------------------------------------------------------------


def _parse_operand_list(parser: Parser, delimiter: Parser.Delimiter) -> list[UnresolvedOperand]:
    return parser.parse_comma_separated_list(delimiter, parser.parse_unresolved_operand)


def _parse_map_attr(parser: Parser) -> IndexingMapAttrBase:
    start = parser.pos
    attr = parser.parse_attribute()
    if not isinstance(attr, IndexingMapAttrBase):
        parser.raise_error(f"expected an indexing map attribute, but got {attr}", start, parser.pos)
    return attr


def _print_values(printer: Printer, values: Sequence[SSAValue]) -> None:
    printer.print_list(values, printer.print_operand)


def _print_types(printer: Printer, types: Sequence[Attribute]) -> None:
    printer.print_list(types, printer.print_attribute)


def _print_id_dimension(printer: Printer, dimension: str) -> None:
    # MLIR prints a space before the enum keyword on top of the one after the
    # op name; we print the same bytes.
    printer.print_string(f"  {dimension}")


def _shaped_element_type(type_: Attribute) -> Attribute | None:
    if isinstance(type_, TensorType | VectorType):
        return type_.get_element_type()
    return None


def _parse_tensor_type(parser: Parser) -> tuple[Attribute, Attribute, int]:
    """`: tensor<...>`: the type, its element type and the position it starts at."""
    parser.parse_punctuation(":")
    type_start = parser.pos
    tensor_type = parser.parse_type()
    element_type = _shaped_element_type(tensor_type)
    if element_type is None:
        parser.raise_error(f"expected a tensor type, but got {tensor_type}", type_start)
    return tensor_type, element_type, type_start


def _verify_index_count(tensor_type: Attribute, indices: Sequence[SSAValue]) -> None:
    if isinstance(tensor_type, TensorType) and len(indices) != tensor_type.get_num_dims():
        raise VerifyException(
            f"expected {tensor_type.get_num_dims()} indices, but got {len(indices)}. "
            f"There is one index per dimension of {tensor_type}"
        )


def nearest_symbol_table(op: Operation) -> Operation | None:
    """The closest ancestor of `op` that holds symbols; None for an op not in a module yet."""
    anchor = op.parent_op()
    while anchor is not None and not anchor.has_trait(SymbolTable):
        anchor = anchor.parent_op()
    return anchor


def lookup_function(symbol_table: Operation, callee: SymbolRefAttr) -> FuncOp | None:
    """The `func.func` that `callee` names in `symbol_table`, or None."""
    found = SymbolTable.lookup_symbol(symbol_table, callee)
    return found if isinstance(found, FuncOp) else None


# ----------------------------------------------------------------------------
# Undecorated bases shared by both spellings
# ----------------------------------------------------------------------------


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
            _print_values(printer, self.values)
        printer.print_op_attributes(self.attributes)
        if self.values:
            printer.print_string(" : ")
            _print_types(printer, [value.type for value in self.values])

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
        attr = _parse_map_attr(parser)
        operands: list[UnresolvedOperand] = []
        start = parser.pos
        if _next_token(parser).kind == MLIRTokenKind.L_PAREN:
            operands += _parse_operand_list(parser, Parser.Delimiter.PAREN)
        if _next_token(parser).kind == MLIRTokenKind.L_SQUARE:
            operands += _parse_operand_list(parser, Parser.Delimiter.SQUARE)
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
                _print_values(printer, self.arguments[:num_dims])
        if len(self.arguments) > num_dims:
            with printer.in_square_brackets():
                _print_values(printer, self.arguments[num_dims:])
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
        dims = _parse_operand_list(parser, Parser.Delimiter.PAREN)
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
        attr = _parse_map_attr(parser)
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
            _print_values(printer, self.dims)
        with printer.in_square_brackets():
            _print_values(printer, self.induction_vars)
        printer.print_string(" -> ")
        with printer.in_parens():
            _print_values(printer, self.map_results)
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
        _print_types(printer, [init.type for init in self.inits])
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
        operands = _parse_operand_list(parser, Parser.Delimiter.PAREN)
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
            _print_values(printer, self.arguments)
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
# ----------------------------------------------------------------------------


@irdl_op_definition
class YieldOp(YieldOpBase):
    """`xla.yield`."""

    name = "xla.yield"


@irdl_op_definition
class ApplyIndexingOp(ApplyIndexingOpBase):
    """`xla.apply_indexing`."""

    name = "xla.apply_indexing"

    MAP_ATTR: ClassVar[type[IndexingMapAttrBase]] = IndexingMapAttr


@irdl_op_definition
class LoopOp(LoopOpBase):
    """`xla.loop`."""

    name = "xla.loop"

    MAP_ATTR: ClassVar[type[IndexingMapAttrBase]] = IndexingMapAttr
    YIELD: ClassVar[type[YieldOpBase]] = YieldOp


@irdl_op_definition
class PureCallOp(PureCallOpBase):
    """`xla.pure_call`."""

    name = "xla.pure_call"


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
        indices = _parse_operand_list(parser, Parser.Delimiter.SQUARE)
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
            _print_values(printer, self.indices)
        printer.print_string(" : ")
        printer.print_attribute(self.input.type)
        printer.print_string(" ")
        printer.print_region(self.body)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        _verify_index_count(self.input.type, self.indices)
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
        element_type = _shaped_element_type(self.result.type)
        if isinstance(arg_type, VectorType):
            if arg_type.get_num_dims() != 1:
                raise VerifyException("expected a rank-1 vector type for the block argument")
            if arg_type.get_element_type() != element_type:
                raise VerifyException(
                    "mismatch in the result element type and the block argument vector element type"
                )
        elif arg_type != element_type:
            raise VerifyException("mismatch in the result element type and the block argument type")


@irdl_op_definition
class PredicatedInsertOp(IRDLOperation):
    """`%r = xla.predicated_insert %v into %t[%i] if %c : tensor<2xi32>`.

    `tensor.insert` when `%c` holds, else `%t` unchanged.
    """

    name = "xla.predicated_insert"

    T: ClassVar = VarConstraint("T", base(TensorType))

    value = operand_def()
    dest = operand_def(T)
    indices = var_operand_def(IndexType)
    condition = operand_def(i1)
    result = result_def(T)

    traits = traits_def(Pure())

    def __init__(
        self,
        value: SSAValue | Operation,
        dest: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation],
        condition: SSAValue | Operation,
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[value, dest, indices, condition],
            result_types=[SSAValue.get(dest).type],
            attributes=attributes,
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        value = parser.parse_unresolved_operand()
        parser.parse_keyword("into")
        dest = parser.parse_unresolved_operand()
        indices = _parse_operand_list(parser, Parser.Delimiter.SQUARE)
        parser.parse_keyword("if")
        condition = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        tensor_type, element_type, type_start = _parse_tensor_type(parser)
        return cls(
            parser.resolve_operand(value, element_type),
            parser.resolve_operand(dest, tensor_type),
            parser.resolve_operands(indices, [IndexType()] * len(indices), type_start),
            parser.resolve_operand(condition, i1),
            attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(" into ")
        printer.print_operand(self.dest)
        with printer.in_square_brackets():
            _print_values(printer, self.indices)
        printer.print_string(" if ")
        printer.print_operand(self.condition)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.dest.type)

    def verify_(self) -> None:
        _verify_index_count(self.dest.type, self.indices)
        element_type = _shaped_element_type(self.dest.type)
        if self.value.type != element_type:
            raise VerifyException(
                f"expected the inserted value to be {element_type}, but got {self.value.type}. "
                "It must have the element type of the destination"
            )


@irdl_op_definition
class PredicatedExtractOp(IRDLOperation):
    """`%r = xla.predicated_extract %t[%i] if %c else %fallback : tensor<2xi32>`.

    `tensor.extract` when `%c` holds, else `%fallback`.
    """

    name = "xla.predicated_extract"

    src = operand_def(TensorType)
    indices = var_operand_def(IndexType)
    condition = operand_def(i1)
    fallback = operand_def()
    result = result_def()

    traits = traits_def(Pure())

    def __init__(
        self,
        src: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation],
        condition: SSAValue | Operation,
        fallback: SSAValue | Operation,
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[src, indices, condition, fallback],
            result_types=[SSAValue.get(fallback).type],
            attributes=attributes,
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        src = parser.parse_unresolved_operand()
        indices = _parse_operand_list(parser, Parser.Delimiter.SQUARE)
        parser.parse_keyword("if")
        condition = parser.parse_unresolved_operand()
        parser.parse_keyword("else")
        fallback = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        tensor_type, element_type, type_start = _parse_tensor_type(parser)
        return cls(
            parser.resolve_operand(src, tensor_type),
            parser.resolve_operands(indices, [IndexType()] * len(indices), type_start),
            parser.resolve_operand(condition, i1),
            parser.resolve_operand(fallback, element_type),
            attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        with printer.in_square_brackets():
            _print_values(printer, self.indices)
        printer.print_string(" if ")
        printer.print_operand(self.condition)
        printer.print_string(" else ")
        printer.print_operand(self.fallback)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)

    def verify_(self) -> None:
        _verify_index_count(self.src.type, self.indices)
        element_type = _shaped_element_type(self.src.type)
        for role, value in (("fallback", self.fallback), ("result", self.result)):
            if value.type != element_type:
                raise VerifyException(
                    f"expected the {role} to be {element_type}, but got {value.type}. "
                    "It must have the element type of the source"
                )


@irdl_op_definition
class WorkgroupIdOp(IRDLOperation):
    """`%r = xla.workgroup_id x {xla.range = [0 : index, 1023 : index]}`: the block id."""

    name = "xla.workgroup_id"

    dimension = prop_def(WorkGroupDimensionAttr)
    result = result_def(IndexType)

    traits = traits_def(Pure())

    def __init__(
        self,
        dimension: WorkGroupDimension | str,
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            result_types=[IndexType()],
            properties={"dimension": WorkGroupDimensionAttr(WorkGroupDimension(dimension))},
            attributes=attributes,
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        dimension = parser.parse_str_enum(WorkGroupDimension)
        return cls(dimension, parser.parse_optional_attr_dict())

    def print(self, printer: Printer) -> None:
        _print_id_dimension(printer, self.dimension.data)
        printer.print_op_attributes(self.attributes)


# ----------------------------------------------------------------------------
# The xla.range convention
# ----------------------------------------------------------------------------


def xla_range_attr(interval: Interval) -> ArrayAttr[IntegerAttr[IndexType]]:
    """`[LB : index, UB : index]`, the value of an `xla.range` attribute."""
    return ArrayAttr(
        [IntegerAttr(interval.lower, IndexType()), IntegerAttr(interval.upper, IndexType())]
    )


def get_xla_range(op_or_value: Operation | SSAValue) -> Interval | None:
    """The inclusive range that `xla.range` gives an op's result or a function argument.

    Raises ValueError when the attribute is present but not `[LB : index, UB : index]`.
    """
    attr: Attribute | None = None
    if isinstance(op_or_value, Operation):
        attr = op_or_value.attributes.get(XLA_RANGE)
    elif isinstance(op_or_value, OpResult):
        attr = op_or_value.op.attributes.get(XLA_RANGE)
    elif isinstance(op_or_value, BlockArgument):
        parent = op_or_value.block.parent_op()
        if isinstance(parent, FuncOp) and parent.arg_attrs is not None:
            attr = parent.arg_attrs.data[op_or_value.index].data.get(XLA_RANGE)
    if attr is None:
        return None
    return _interval_from_attr(attr)


def _interval_from_attr(attr: Attribute) -> Interval:
    if isinstance(attr, ArrayAttr) and len(attr.data) == 2:
        lower, upper = attr.data
        if isinstance(lower, IntegerAttr) and isinstance(upper, IntegerAttr):
            return Interval(lower.value.data, upper.value.data)
    raise ValueError(f"expected xla.range = [LB : index, UB : index], but got {attr}")


# ----------------------------------------------------------------------------
# Builders that take the spelling as an argument
# ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Spelling:
    """The concrete classes of one spelling (`xla` or the seed's `xla_gpu`)."""

    apply_indexing: type[ApplyIndexingOpBase]
    loop: type[LoopOpBase]
    pure_call: type[PureCallOpBase]
    yield_: type[YieldOpBase]
    indexing_map_attr: type[IndexingMapAttrBase]


def spelling_classes(spelling: str) -> Spelling:
    """The classes for `spelling`, "xla" or "xla_gpu"."""
    if spelling == "xla":
        return Spelling(ApplyIndexingOp, LoopOp, PureCallOp, YieldOp, IndexingMapAttr)
    if spelling == "xla_gpu":
        # xla_gpu imports this module, so it is only imported on demand.
        from dialects import xla_gpu

        return Spelling(
            xla_gpu.ApplyIndexingOp,
            xla_gpu.LoopOp,
            xla_gpu.PureCallOp,
            xla_gpu.YieldOp,
            xla_gpu.IndexingMapAttr,
        )
    raise ValueError(f"expected spelling 'xla' or 'xla_gpu', but got {spelling!r}")


def spelling_of(op: Operation) -> str:
    """The spelling of `op`: "xla_gpu" for the seed's spellings, else "xla".

    Passes that create ops next to `op` use it to keep the input's spelling.
    """
    return "xla_gpu" if op.dialect_name() == "xla_gpu" else "xla"


def make_indexing_map_attr(
    indexing_map: IndexingMap, spelling: str = "xla_gpu"
) -> IndexingMapAttrBase:
    """`#xla.indexing_map<...>` or `#xla_gpu.indexing_map<...>` for `indexing_map`."""
    return spelling_classes(spelling).indexing_map_attr.from_map(indexing_map)


def make_apply_indexing(
    indexing_map: IndexingMap | IndexingMapAttrBase,
    dims: Sequence[SSAValue | Operation],
    symbols: Sequence[SSAValue | Operation] = (),
    spelling: str = "xla_gpu",
) -> ApplyIndexingOpBase:
    """An apply_indexing of `indexing_map` to `dims` and `symbols` (one result per map result)."""
    classes = spelling_classes(spelling)
    attr = classes.indexing_map_attr.from_map(_as_map(indexing_map))
    return classes.apply_indexing(attr, dims, symbols)


LoopBodyBuilder = Callable[
    [Builder, Sequence[BlockArgument], Sequence[BlockArgument], Sequence[BlockArgument]],
    Sequence[SSAValue],
]
"""Fills a loop body: (builder at the body's end, ivs, map results, iter args) -> yielded values."""


def make_loop(
    indexing_map: IndexingMap | IndexingMapAttrBase,
    dims: Sequence[SSAValue | Operation],
    inits: Sequence[SSAValue | Operation],
    body_builder: LoopBodyBuilder | None = None,
    spelling: str = "xla_gpu",
) -> LoopOpBase:
    """A loop over `indexing_map`'s domain.

    With `body_builder`, the body is built and its results yielded; without,
    the body block is empty (with its arguments) and the caller adds the ops
    and the yield.
    """
    classes = spelling_classes(spelling)
    attr = classes.indexing_map_attr.from_map(_as_map(indexing_map))
    loop = classes.loop(attr, dims, inits)
    if body_builder is not None:
        builder = Builder(InsertPoint.at_end(loop.body.block))
        yielded = body_builder(
            builder, loop.induction_vars, loop.map_results, loop.region_iter_args
        )
        builder.insert(classes.yield_(yielded))
    return loop


def make_pure_call(
    callee: str | SymbolRefAttr,
    arguments: Sequence[SSAValue | Operation],
    result_types: Sequence[Attribute],
    spelling: str = "xla_gpu",
) -> PureCallOpBase:
    """A pure_call of `@callee`."""
    return spelling_classes(spelling).pure_call(callee, arguments, result_types)


def make_yield(
    values: Sequence[SSAValue | Operation] = (), spelling: str = "xla_gpu"
) -> YieldOpBase:
    """A yield of `values`."""
    return spelling_classes(spelling).yield_(values)


XLA = Dialect(
    "xla",
    [
        ApplyIndexingOp,
        AtomicRMWOp,
        LoopOp,
        PredicatedExtractOp,
        PredicatedInsertOp,
        PureCallOp,
        WorkgroupIdOp,
        YieldOp,
    ],
    [IndexingMapAttr, WorkGroupDimensionAttr],
)
