"""MLIR `arith` ops that xDSL 0.74 lacks, and `ARITH`: xDSL's `arith` dialect with them added.

XLA's emitters produce `arith.remf` (HLO `remainder` on floats) and the
lowering produces `arith.index_castui` (unsigned index casts of provably
non-negative values).
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    base,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.arith_vector import VECTOR_ARITH_OPS


@irdl_op_definition
class RemFOp(arith.FloatingPointLikeBinaryOperation):
    """`%r = arith.remf %a, %b : f32`: the remainder of `a / b`, with the sign of `a` (C's fmod)."""

    name = "arith.remf"

    traits = traits_def(Pure())


@irdl_op_definition
class IndexCastUIOp(IRDLOperation):
    """`%r = arith.index_castui %a : i32 to index`: an index cast treating integers as unsigned."""

    name = "arith.index_castui"

    input = operand_def(base(IntegerType) | base(IndexType))
    result = result_def(base(IntegerType) | base(IndexType))

    traits = traits_def(Pure())

    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"

    def __init__(self, input_arg: SSAValue | Operation, target_type: Attribute):
        super().__init__(operands=[input_arg], result_types=[target_type])

    def verify_(self) -> None:
        if isinstance(self.input.type, IndexType) == isinstance(self.result.type, IndexType):
            raise VerifyException(
                f"expected exactly one of the operand and result types to be index, but got "
                f"{self.input.type} to {self.result.type}"
            )


# The vector-capable ops of `arith_vector` replace xDSL's scalar ones of the same name.
_REPLACED = {op.name for op in VECTOR_ARITH_OPS}

ARITH = Dialect(
    "arith",
    [
        *(op for op in arith.Arith.operations if op.name not in _REPLACED),
        *VECTOR_ARITH_OPS,
        RemFOp,
        IndexCastUIOp,
    ],
    [*arith.Arith.attributes],
)
