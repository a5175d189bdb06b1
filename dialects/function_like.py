"""The definition `func.func`, `tt.func` and `xtile.entry_func` share.

MLIR prints all three with `function_interface_impl::printFunctionOp`:

    tt.func public @f(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32}) attributes {...} {

so one base parses and prints them; each op adds its own verifier.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    StringAttr,
    SymbolNameConstraint,
)
from xdsl.dialects.utils import parse_func_op_like, print_func_op_like
from xdsl.ir import Attribute, Block, Region
from xdsl.irdl import IRDLOperation, opt_prop_def, prop_def, region_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

_RESERVED = ("sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs")


class FunctionLikeOp(IRDLOperation):
    """`<op> [visibility] @name(args) [-> results] [attributes {...}] { body }`."""

    body = region_def()
    sym_name = prop_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    sym_visibility = opt_prop_def(StringAttr)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])

    def __init__(
        self,
        name: str,
        function_type: FunctionType | tuple[Sequence[Attribute], Sequence[Attribute]],
        region: Region | None = None,
        visibility: str | None = None,
        *,
        arg_attrs: ArrayAttr[DictionaryAttr] | None = None,
        res_attrs: ArrayAttr[DictionaryAttr] | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        if isinstance(function_type, tuple):
            function_type = FunctionType.from_lists(*function_type)
        if region is None:
            region = Region(Block(arg_types=function_type.inputs))
        properties: dict[str, Attribute | None] = {
            "sym_name": StringAttr(name),
            "function_type": function_type,
            "sym_visibility": StringAttr(visibility) if visibility else None,
            "arg_attrs": arg_attrs,
            "res_attrs": res_attrs,
        }
        super().__init__(properties=properties, regions=[region], attributes=attributes)

    @property
    def entry_block(self) -> Block:
        block = self.body.blocks.first
        assert block is not None, "a declaration has no body"
        return block

    def verify_(self) -> None:
        block = self.body.blocks.first
        if block is None:
            return
        inputs = self.function_type.inputs.data
        if inputs != block.arg_types:
            raise VerifyException(
                f"expected the entry block's arguments to have the function's input types "
                f"({', '.join(map(str, inputs))}), but got ({', '.join(map(str, block.arg_types))})"
            )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        visibility = parser.parse_optional_visibility_keyword()
        name, inputs, outputs, region, extra, arg_attrs, res_attrs = parse_func_op_like(
            parser, reserved_attr_names=_RESERVED
        )
        op = cls(
            name,
            (inputs, outputs),
            region,
            visibility.data if visibility else None,
            arg_attrs=arg_attrs,
            res_attrs=res_attrs,
        )
        if extra is not None:
            # Properties the op defines (`num_opaque_args`) come in the same dictionary.
            names = set(cls.get_irdl_definition().properties)
            for key, value in extra.data.items():
                if key in names:
                    op.properties[key] = value
                else:
                    op.attributes[key] = value
        return op

    def print(self, printer: Printer) -> None:
        if self.sym_visibility:
            printer.print_string(f" {self.sym_visibility.data}")
        extra = {k: v for k, v in self.properties.items() if k not in _RESERVED}
        print_func_op_like(
            printer,
            self.sym_name,
            self.function_type,
            self.body,
            dict(sorted((extra | self.attributes).items())),
            arg_attrs=self.arg_attrs,
            res_attrs=self.res_attrs,
            reserved_attr_names=_RESERVED,
        )
