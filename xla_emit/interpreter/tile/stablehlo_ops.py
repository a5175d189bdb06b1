"""The tile executor's handlers for `stablehlo` on tiles (values per pid, pid axis first).

Elementwise ops run the `arith`/`math` ops `stablehlo-lower-to-arith` lowers
them to (`lowered_ops`), so the first stage and the lowered ones compute the
same thing by construction of one table. `stablehlo.reduce` combines in
Triton's in-tile order (`reduce_order`), one reduced dimension at a time from
the last, then with its init value, as `stablehlo-lower-to-triton` lowers it
(a `tt.reduce`, then the reducer applied to the result and the init).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, Operation, SSAValue

from xla_emit.dialects import stablehlo
from xla_emit.interpreter.element_types import numpy_dtype
from xla_emit.interpreter.tile.triton_ops import triton_reduce
from xla_emit.passes.triton.stablehlo_lower_to_arith import lowered_ops

if TYPE_CHECKING:
    from xla_emit.interpreter.tile.executor import Handler, TileExecutor

# Per stablehlo op: the block whose arguments stand for its operands, and its lowered ops.
_LOWERED: WeakKeyDictionary[Operation, tuple[Block, list[Operation]]] = WeakKeyDictionary()


def _lowering(ex: TileExecutor, op: Operation) -> tuple[Block, list[Operation]]:
    known = _LOWERED.get(op)
    if known is None:
        stand_ins = Block(arg_types=[operand.type for operand in op.operands])
        ops = lowered_ops(op, stand_ins.args)
        if ops is None:
            raise ex.error(op, "is not supported by the tile executor")
        known = (stand_ins, ops)
        _LOWERED[op] = known
    return known


def elementwise(ex: TileExecutor, op: Operation, args: list[Any]) -> list[Any]:
    stand_ins, ops = _lowering(ex, op)
    if not ops:  # a convert to its own type
        return [args[0]]
    values: dict[SSAValue, Any] = dict(zip(stand_ins.args, args, strict=True))
    for lowered in ops:
        handler = ex.handlers.lookup(type(lowered))
        if handler is None:
            raise ex.error(op, f"lowers to '{lowered.name}', which the tile executor cannot run")
        results = handler(ex, lowered, [values[v] for v in lowered.operands])
        values.update(zip(lowered.results, results, strict=True))
    return [values[ops[-1].results[0]]]


def reduce(ex: TileExecutor, op: Operation, args: list[Any]) -> list[Any]:
    assert isinstance(op, stablehlo.ReduceOp)
    if len(op.inputs) != 1:
        raise ex.error(op, "with several inputs is not supported by the tile executor")
    input_type = op.inputs[0].type
    assert isinstance(input_type, TensorType)
    values = ex.per_pid(args[0], input_type)
    block = op.body.block

    def combine(a: Any, b: Any) -> Any:
        return np.asarray(ex.run_block(block, [a, b])[0])

    for dim in sorted(op.dims, reverse=True):
        values = triton_reduce(ex, values, dim, combine, block)
    return [combine(values, args[1])]


def broadcast_in_dim(ex: TileExecutor, op: Operation, args: list[Any]) -> list[Any]:
    assert isinstance(op, stablehlo.BroadcastInDimOp)
    operand_type, result_type = op.operand.type, op.result.type
    assert isinstance(result_type, TensorType)
    values = ex.per_pid(args[0], operand_type)
    dims = list(op.properties[op.DIMS].get_values())  # pyright: ignore[reportAttributeAccessIssue]
    order = sorted(range(len(dims)), key=lambda i: dims[i])
    values = values.transpose(0, *(i + 1 for i in order))
    shape = [1] * len(result_type.get_shape())
    for i in order:
        shape[dims[i]] = values.shape[1 + order.index(i)]
    target = (values.shape[0], *result_type.get_shape())
    return [np.broadcast_to(values.reshape(values.shape[0], *shape), target)]


def reshape(ex: TileExecutor, op: Operation, args: list[Any]) -> list[Any]:
    assert isinstance(op, stablehlo.ReshapeOp)
    result_type = op.results[0].type
    assert isinstance(result_type, TensorType)
    values = ex.per_pid(args[0], op.operands[0].type)
    return [values.reshape(values.shape[0], *result_type.get_shape())]


def transpose(ex: TileExecutor, op: Operation, args: list[Any]) -> list[Any]:
    assert isinstance(op, stablehlo.TransposeOp)
    permutation = list(op.properties[op.DIMS].get_values())  # pyright: ignore[reportAttributeAccessIssue]
    values = ex.per_pid(args[0], op.operand.type)
    return [values.transpose(0, *(p + 1 for p in permutation))]


def iota(_ex: TileExecutor, op: Operation, _args: list[Any]) -> list[Any]:
    assert isinstance(op, stablehlo.IotaOp)
    type_ = op.output.type
    assert isinstance(type_, TensorType)
    shape = tuple(type_.get_shape())
    dimension = op.iota_dimension.value.data
    along = [1] * len(shape)
    along[dimension] = shape[dimension]
    positions = np.arange(shape[dimension]).astype(numpy_dtype(type_)).reshape(along)
    return [np.broadcast_to(positions, shape)]


def constant(_ex: TileExecutor, op: Operation, _args: list[Any]) -> list[Any]:
    assert isinstance(op, stablehlo.ConstantOp)
    value = op.properties["value"]
    type_ = value.get_type()  # pyright: ignore[reportAttributeAccessIssue]
    values = np.array(value.get_values(), dtype=numpy_dtype(type_))  # pyright: ignore[reportAttributeAccessIssue]
    shape = tuple(type_.get_shape())
    return [
        np.broadcast_to(values.reshape(()), shape) if values.size == 1 else values.reshape(shape)
    ]


STABLEHLO_HANDLERS: tuple[tuple[type[Operation], Handler], ...] = (
    (stablehlo.ElementwiseOp, elementwise),
    (stablehlo.CompareOp, elementwise),
    (stablehlo.SelectOp, elementwise),
    (stablehlo.BitcastConvertOp, elementwise),
    (stablehlo.ReduceOp, reduce),
    (stablehlo.BroadcastInDimOp, broadcast_in_dim),
    (stablehlo.ReshapeOp, reshape),
    (stablehlo.TransposeOp, transpose),
    (stablehlo.IotaOp, iota),
    (stablehlo.ConstantOp, constant),
)
