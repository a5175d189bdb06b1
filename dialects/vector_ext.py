"""MLIR `vector` ops that xDSL 0.74 lacks, and `VECTOR`: xDSL's `vector` dialect with them added.

XLA's vectorization and lowering write `vector.splat` (a broadcast of a
scalar) and `vector.from_elements` (a vector built from scalars).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects import vector
from xdsl.dialects.builtin import VectorType
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class SplatOp(IRDLOperation):
    """`%v = vector.splat %s : vector<4xf32>`: every element is `%s`."""

    name = "vector.splat"

    ELEMENT: ClassVar = VarConstraint("ELEMENT", AnyAttr())

    input = operand_def(ELEMENT)
    result = result_def(VectorType.constr(ELEMENT))

    traits = traits_def(Pure())

    assembly_format = "$input attr-dict `:` type($result)"

    def __init__(self, input: SSAValue | Operation, result_type: VectorType[Attribute]):
        super().__init__(operands=[input], result_types=[result_type])


@irdl_op_definition
class FromElementsOp(IRDLOperation):
    """`%v = vector.from_elements %a, %b : vector<2xf32>`: the elements in row-major order."""

    name = "vector.from_elements"

    ELEMENT: ClassVar = VarConstraint("ELEMENT", AnyAttr())

    elements = var_operand_def(ELEMENT)
    result = result_def(VectorType.constr(ELEMENT))

    traits = traits_def(Pure())

    assembly_format = "$elements attr-dict `:` type($result)"

    def __init__(
        self, elements: Sequence[SSAValue | Operation], result_type: VectorType[Attribute]
    ):
        super().__init__(operands=[elements], result_types=[result_type])

    def verify_(self) -> None:
        count = self.result.type.element_count()
        if len(self.elements) != count:
            raise VerifyException(
                f"expected {count} elements for {self.result.type}, but got {len(self.elements)}"
            )


VECTOR = Dialect(
    "vector",
    [*vector.Vector.operations, SplatOp, FromElementsOp],
    [*vector.Vector.attributes],
)
