"""`tpu` memory ops: scalar, vector and strided loads and stores."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    I32,
    BoolAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    MemRefType,
    VectorType,
    i1,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.tpu.helpers import (
    Syntax,
    check_index_count,
    check_vmem,
    element_bitwidth,
    empty_i32_array,
    memref_of,
    strides_of,
    vector_of,
)


@irdl_op_definition
class LoadOp(IRDLOperation):
    """`%v = tpu.load %m[%i, %j] sublanes array<i1: ...> [sublane_stride N] : M, V`."""

    name = "tpu.load"

    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    sublane_mask = prop_def(DenseArrayBase.constr(i1))
    sublane_stride = prop_def(IntegerAttr[I32], default_value=IntegerAttr(1, 32))
    result = result_def(VectorType)

    irdl_options = (ParsePropInAttrDict(),)

    def __init__(
        self,
        base_value: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation],
        sublane_mask: Sequence[bool],
        result_type: VectorType[Attribute],
        sublane_stride: int = 1,
    ) -> None:
        super().__init__(
            operands=[base_value, indices],
            result_types=[result_type],
            properties={
                "sublane_mask": DenseArrayBase.from_list(i1, [int(b) for b in sublane_mask]),
                "sublane_stride": IntegerAttr(sublane_stride, 32),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        base_value, indices = Syntax.base_and_indices(parser)
        properties = Syntax.sublanes(parser)
        more, attributes = Syntax.attributes(parser, ("sublane_stride",))
        properties.update(more)
        base_type, result_type = Syntax.memref_and_vector_types(parser)
        return cls.build(
            operands=[
                parser.resolve_operand(base_value, base_type),
                Syntax.resolve_all(parser, indices, IndexType()),
            ],
            result_types=[result_type],
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        Syntax.print_base_and_indices(printer, self.base, self.indices)
        Syntax.print_sublanes(printer, self.sublane_mask, self.sublane_stride)
        printer.print_op_attributes(self.attributes)
        Syntax.print_memref_and_vector_types(printer, self.base, self.result)

    def verify_(self) -> None:
        memref = memref_of(self.base)
        check_index_count(memref, len(self.indices))
        if vector_of(self.result).element_type != memref.element_type:
            raise VerifyException("Expected base and result element type to match")


@irdl_op_definition
class StoreOp(IRDLOperation):
    """`tpu.store %m[%i, %j], %v [masked %k] sublanes array<i1: ...> : M, V, [K]`."""

    name = "tpu.store"

    value_to_store = operand_def(VectorType)
    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    mask = opt_operand_def(AnyAttr())
    sublane_mask = prop_def(DenseArrayBase.constr(i1))
    sublane_stride = prop_def(IntegerAttr[I32], default_value=IntegerAttr(1, 32))
    add = prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))

    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())

    def __init__(
        self,
        value: SSAValue | Operation,
        base_value: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation],
        sublane_mask: Sequence[bool],
        mask: SSAValue | Operation | None = None,
    ) -> None:
        super().__init__(
            operands=[value, base_value, indices, [mask] if mask is not None else []],
            properties={
                "sublane_mask": DenseArrayBase.from_list(i1, [int(b) for b in sublane_mask])
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        base_value, indices = Syntax.base_and_indices(parser)
        value, mask = Syntax.value_and_mask(parser)
        properties = Syntax.sublanes(parser)
        more, attributes = Syntax.attributes(parser, ("sublane_stride", "add"))
        properties.update(more)
        base_type, value_type = Syntax.memref_and_vector_types(parser)
        mask_type = Syntax.optional_trailing_type(parser)
        return cls.build(
            operands=Syntax.store_operands(
                parser, (value, value_type), (base_value, base_type), indices, (mask, mask_type)
            ),
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        Syntax.print_base_and_indices(printer, self.base, self.indices)
        Syntax.print_value_and_mask(printer, self.value_to_store, self.mask)
        Syntax.print_sublanes(printer, self.sublane_mask, self.sublane_stride)
        extra: dict[str, Attribute] = dict(self.attributes)
        if self.add.value:
            extra["add"] = self.add
        printer.print_op_attributes(extra)
        Syntax.print_memref_and_vector_types(printer, self.base, self.value_to_store)
        Syntax.print_trailing_mask_type(printer, self.mask)

    def verify_(self) -> None:
        memref = memref_of(self.base)
        check_index_count(memref, len(self.indices))
        if vector_of(self.value_to_store).element_type != memref.element_type:
            raise VerifyException("Expected base and valueToStore element type to match")


class _VectorMemoryOpBase(IRDLOperation):
    """Shared verification of `tpu.vector_load` and `tpu.vector_store`."""

    def _verify_access(
        self,
        memref: MemRefType[Attribute],
        vector: VectorType[Attribute],
        kind: str,
        indices: int,
        mask: SSAValue | None,
    ) -> None:
        if strides_of(self):
            raise VerifyException(f"Not implemented: general vector {kind} with strides.")
        check_vmem(memref)
        check_index_count(memref, indices)
        if vector.element_type != memref.element_type:
            noun = "result" if kind == "load" else "valueToStore"
            raise VerifyException(f"Expected base and {noun} element type to match")
        if mask is not None:
            if element_bitwidth(vector.element_type) != 32:
                raise VerifyException(
                    f"Not implemented: masked {kind} with non-32-bit element type"
                )
            mask_shape = vector_of(mask).get_shape()
            if mask_shape != vector.get_shape():
                raise VerifyException(
                    "Expected mask shape to match result shape: "
                    f"({', '.join(map(str, vector.get_shape()))}). "
                    f"Got: ({', '.join(map(str, mask_shape))})."
                )


@irdl_op_definition
class VectorLoadOp(_VectorMemoryOpBase):
    """`%v = tpu.vector_load %m[%i, %j] [masked %k] {strides = array<i32>} : M, V, [K]`."""

    name = "tpu.vector_load"

    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    mask = opt_operand_def(VectorType)
    strides = prop_def(DenseArrayBase.constr(i32), default_value=empty_i32_array())
    result = result_def(VectorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())

    def __init__(
        self,
        base_value: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation],
        result_type: VectorType[Attribute],
        mask: SSAValue | Operation | None = None,
    ) -> None:
        super().__init__(
            operands=[base_value, indices, [mask] if mask is not None else []],
            result_types=[result_type],
            properties={"strides": empty_i32_array()},
        )

    @classmethod
    def parse(cls, parser: Parser) -> VectorLoadOp:
        base_value, indices = Syntax.base_and_indices(parser)
        mask = Syntax.optional_mask(parser)
        properties, attributes = Syntax.attributes(parser, ("strides",))
        properties.setdefault("strides", empty_i32_array())
        base_type, result_type = Syntax.memref_and_vector_types(parser)
        mask_type = Syntax.optional_trailing_type(parser)
        return cls.build(
            operands=[
                parser.resolve_operand(base_value, base_type),
                Syntax.resolve_all(parser, indices, IndexType()),
                Syntax.resolve_mask(parser, mask, mask_type),
            ],
            result_types=[result_type],
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        Syntax.print_base_and_indices(printer, self.base, self.indices)
        Syntax.print_optional_mask(printer, self.mask)
        Syntax.print_attributes(printer, self, {})
        Syntax.print_memref_and_vector_types(printer, self.base, self.result)
        Syntax.print_trailing_mask_type(printer, self.mask)

    def verify_(self) -> None:
        self._verify_access(
            memref_of(self.base), vector_of(self.result), "load", len(self.indices), self.mask
        )


@irdl_op_definition
class VectorStoreOp(_VectorMemoryOpBase):
    """`tpu.vector_store %m[%i, %j], %v [masked %k] {strides = array<i32>} : M, V, [K]`."""

    name = "tpu.vector_store"

    value_to_store = operand_def(VectorType)
    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    mask = opt_operand_def(VectorType)
    strides = prop_def(DenseArrayBase.constr(i32), default_value=empty_i32_array())
    add = prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))

    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())

    def __init__(
        self,
        value: SSAValue | Operation,
        base_value: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation],
        mask: SSAValue | Operation | None = None,
    ) -> None:
        super().__init__(
            operands=[value, base_value, indices, [mask] if mask is not None else []],
            properties={"strides": empty_i32_array()},
        )

    @classmethod
    def parse(cls, parser: Parser) -> VectorStoreOp:
        base_value, indices = Syntax.base_and_indices(parser)
        value, mask = Syntax.value_and_mask(parser)
        properties, attributes = Syntax.attributes(parser, ("strides", "add"))
        properties.setdefault("strides", empty_i32_array())
        base_type, value_type = Syntax.memref_and_vector_types(parser)
        mask_type = Syntax.optional_trailing_type(parser)
        return cls.build(
            operands=Syntax.store_operands(
                parser, (value, value_type), (base_value, base_type), indices, (mask, mask_type)
            ),
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        Syntax.print_base_and_indices(printer, self.base, self.indices)
        Syntax.print_value_and_mask(printer, self.value_to_store, self.mask)
        Syntax.print_attributes(printer, self, {"add": BoolAttr.from_bool(False)})
        Syntax.print_memref_and_vector_types(printer, self.base, self.value_to_store)
        Syntax.print_trailing_mask_type(printer, self.mask)

    def verify_(self) -> None:
        self._verify_access(
            memref_of(self.base),
            vector_of(self.value_to_store),
            "store",
            len(self.indices),
            self.mask,
        )


def _verify_strided(
    memref: MemRefType[Attribute],
    vector: VectorType[Attribute],
    indices: int,
    strides: tuple[int, ...],
    min_stride: int,
) -> None:
    check_index_count(memref, indices)
    if vector.element_type != memref.element_type:
        raise VerifyException("Expected base and vector element type to match")
    if len(strides) != memref.get_num_dims():
        raise VerifyException(f"Expected {memref.get_num_dims()} strides, but got {len(strides)}.")
    if memref.get_num_dims() != vector.get_num_dims():
        raise VerifyException(
            "Base memref's rank and result's rank do not match: "
            f"{memref.get_num_dims()} vs {vector.get_num_dims()}"
        )
    for position, stride in enumerate(strides):
        if stride < min_stride:
            raise VerifyException(f"Strides[{position}]={stride} must be >= {min_stride}")


@irdl_op_definition
class StridedLoadOp(IRDLOperation):
    """`%v = tpu.strided_load %m[%i, %j] {strides = array<i32: 2, 1>} : M, V`."""

    name = "tpu.strided_load"

    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    strides = prop_def(DenseArrayBase.constr(i32))
    result = result_def(VectorType)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$base `[` $indices `]` attr-dict `:` type($base) `,` type($result)"

    def verify_(self) -> None:
        _verify_strided(
            memref_of(self.base), vector_of(self.result), len(self.indices), strides_of(self), 0
        )


@irdl_op_definition
class StridedStoreOp(IRDLOperation):
    """`tpu.strided_store %m[%i, %j], %v {strides = array<i32: 2, 1>} : M, V`."""

    name = "tpu.strided_store"

    value_to_store = operand_def(VectorType)
    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    strides = prop_def(DenseArrayBase.constr(i32))

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$base `[` $indices `]` `,` $value_to_store attr-dict "
        "`:` type($base) `,` type($value_to_store)"
    )

    def verify_(self) -> None:
        _verify_strided(
            memref_of(self.base),
            vector_of(self.value_to_store),
            len(self.indices),
            strides_of(self),
            1,
        )
