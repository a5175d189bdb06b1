"""MLIR `tensor` ops that xDSL 0.74 lacks, and `TENSOR`: xDSL's `tensor` dialect with them added.

`tensor.parallel_insert_slice` is the write of one `scf.forall` iteration into
a shared output; it only appears inside `scf.forall.in_parallel` and has no
result (the `scf.forall` returns the updated tensors):

    tensor.parallel_insert_slice %v into %o[0, 0] [8, 4] [1, 1]
        : tensor<8x4xf32> into tensor<8x4xf32>
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, IndexType, TensorType, i64
from xdsl.dialects.utils import DynamicIndexList, verify_dynamic_index_list
from xdsl.ir import Dialect
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    var_operand_def,
)
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.scf_ext import InParallelOp


@irdl_op_definition
class ParallelInsertSliceOp(IRDLOperation):
    """`tensor.parallel_insert_slice %src into %dest[offsets] [sizes] [strides] : T into U`."""

    name = "tensor.parallel_insert_slice"

    source = operand_def(TensorType)
    dest = operand_def(TensorType)
    offsets = var_operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    static_offsets = prop_def(DenseArrayBase.constr(i64))
    static_sizes = prop_def(DenseArrayBase.constr(i64))
    static_strides = prop_def(DenseArrayBase.constr(i64))

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        "$source `into` $dest ``"
        "custom<DynamicIndexList>($offsets, $static_offsets)"
        "custom<DynamicIndexList>($sizes, $static_sizes)"
        "custom<DynamicIndexList>($strides, $static_strides)"
        "attr-dict `:` type($source) `into` type($dest)"
    )

    custom_directives = (DynamicIndexList,)

    def verify_(self) -> None:
        lists = (
            (self.static_offsets, self.offsets, "offset"),
            (self.static_sizes, self.sizes, "size"),
            (self.static_strides, self.strides, "stride"),
        )
        for static, dynamic, what in lists:
            verify_dynamic_index_list(
                static.get_values(), dynamic, DYNAMIC_INDEX, f" in the {what} arguments"
            )
        rank = len(self.dest.type.get_shape())
        for static, _, what in lists:
            if len(static.get_values()) != rank:
                raise VerifyException(
                    f"expected {rank} {what}s, one per destination dimension, "
                    f"but got {len(static.get_values())}"
                )
        if not isinstance(self.parent_op(), InParallelOp | None):
            raise VerifyException("expected to be inside scf.forall.in_parallel")


TENSOR = Dialect(
    "tensor",
    [*tensor.Tensor.operations, ParallelInsertSliceOp],
    [*tensor.Tensor.attributes],
)
