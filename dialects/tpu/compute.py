"""`tpu` vector compute ops: rotation, iota and matmul."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    I32,
    BoolAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    VectorType,
    i32,
)
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.tpu.attributes import DotDimensionNumbersAttr
from xla_emit.dialects.tpu.helpers import vector_of


@irdl_op_definition
class DynamicRotateOp(IRDLOperation):
    """`%r = tpu.dynamic_rotate %v by %amount dim 1 : V, i32 -> V`.

    Element i moves to (i + amount) mod n.
    """

    name = "tpu.dynamic_rotate"

    T: ClassVar = VarConstraint("T", base(VectorType))

    value = operand_def(T)
    amount = operand_def(i32)
    dimension = prop_def(IntegerAttr[I32])
    stride = opt_prop_def(IntegerAttr[I32])
    stride_dimension = opt_prop_def(IntegerAttr[I32])
    result = result_def(T)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$value `by` $amount `dim` $dimension attr-dict "
        "`:` type($value) `,` type($amount) `->` type($result)"
    )

    def __init__(
        self, value: SSAValue | Operation, amount: SSAValue | Operation, dimension: int
    ) -> None:
        value = SSAValue.get(value)
        super().__init__(
            operands=[value, amount],
            result_types=[value.type],
            properties={"dimension": IntegerAttr(dimension, 32)},
        )

    def verify_(self) -> None:
        rank = vector_of(self.value).get_num_dims()
        dimension = self.dimension.value.data
        if not 0 <= dimension < rank:
            raise VerifyException(f"Invalid dimension: {dimension}, expected it in [0, {rank})")
        if (self.stride is None) != (self.stride_dimension is None):
            raise VerifyException(
                "Expected either none or both stride and stride dimension are present"
            )


@irdl_op_definition
class IotaOp(IRDLOperation):
    """`%i = tpu.iota {dimensions = array<i32: 0>} : vector<8x128xi32>`."""

    name = "tpu.iota"

    dimensions = prop_def(DenseArrayBase.constr(i32))
    output = result_def(VectorType)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict `:` type($output)"

    def verify_(self) -> None:
        vector = vector_of(self.output)
        if not isinstance(vector.element_type, IntegerType | IndexType):
            raise VerifyException(
                f"Expected an integer or index element type, but got {vector.element_type}"
            )
        rank = vector.get_num_dims()
        dims = int_values(self.dimensions)
        if not dims:
            raise VerifyException("At least one dimension must be specified.")
        if len(set(dims)) != len(dims):
            raise VerifyException("Dimensions must be unique.")
        for dim in dims:
            if not 0 <= dim < rank:
                raise VerifyException(f"Invalid dimension: {dim}, expected it in [0, {rank})")


def int_values(array: DenseArrayBase[I32]) -> list[int]:
    """The values of an `array<i32: ...>` property."""
    return list(array.get_values())


@irdl_op_definition
class MatmulOp(IRDLOperation):
    """`%r = tpu.matmul %l, %r, %acc {dimension_numbers = ...} : VL, VR, VA -> VA`: acc + l x r."""

    name = "tpu.matmul"

    lhs = operand_def(VectorType)
    rhs = operand_def(VectorType)
    acc = operand_def(VectorType)
    transpose_lhs = prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))
    transpose_rhs = prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))
    precision = opt_prop_def(AnyAttr())
    dimension_numbers = opt_prop_def(DotDimensionNumbersAttr)
    result = result_def(VectorType)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$lhs `,` $rhs `,` $acc attr-dict "
        "`:` type($lhs) `,` type($rhs) `,` type($acc) `->` type($result)"
    )

    def contraction(self) -> tuple[int, int]:
        """(lhs contracting dim, rhs contracting dim) for 2-D operands."""
        if self.dimension_numbers is not None:
            return (
                self.dimension_numbers.field("lhs_contracting_dims")[0],
                self.dimension_numbers.field("rhs_contracting_dims")[0],
            )
        return (0 if self.transpose_lhs.value else 1, 1 if self.transpose_rhs.value else 0)

    def verify_(self) -> None:
        lhs, rhs, acc = vector_of(self.lhs), vector_of(self.rhs), vector_of(self.acc)
        if self.result.type != acc:
            raise VerifyException(f"Expected the result type to be the accumulator type {acc}")
        if not lhs.get_num_dims() == rhs.get_num_dims() == acc.get_num_dims() == 2:
            raise VerifyException("Expected 2-D lhs, rhs and acc (batched matmul is not supported)")
        lhs_k, rhs_k = self.contraction()
        lhs_shape, rhs_shape = lhs.get_shape(), rhs.get_shape()
        if lhs_shape[lhs_k] != rhs_shape[rhs_k]:
            raise VerifyException(
                f"Expected the contracting dims to match: lhs has {lhs_shape[lhs_k]}, rhs has "
                f"{rhs_shape[rhs_k]}."
            )
        expected = (lhs_shape[1 - lhs_k], rhs_shape[1 - rhs_k])
        if acc.get_shape() != expected:
            raise VerifyException(
                f"Expected the accumulator shape {list(expected)}, but got {list(acc.get_shape())}."
            )
