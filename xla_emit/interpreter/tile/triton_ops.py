"""The tile executor's handlers for Triton's `tt` ops on tiles (values per pid, pid first).

`tt.reduce` combines in Triton's in-tile order (`reduce_order`); the
`stablehlo.reduce` handler is this reduce followed by the init value, which is
how `stablehlo-lower-to-triton` lowers it. `tt.extern_elementwise` calls of
libdevice run the `math` op of the same function (`__nv_expf` is `math.exp`),
so they round as the rest of the executor does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

import numpy as np
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import ShapedType, TensorType
from xdsl.ir import Block, Operation, SSAValue

from xla_emit.dialects import triton
from xla_emit.interpreter.arith import float_binary_ufunc
from xla_emit.interpreter.element_types import numpy_dtype
from xla_emit.interpreter.tile.reduce_order import (
    Combine,
    blocked_layout,
    combine_count,
    reduce_in_triton_order,
)

if TYPE_CHECKING:
    from xla_emit.interpreter.tile.executor import Handler, TileExecutor

# libdevice functions (f32 and f64 spellings) and the `math` op each one computes.
_LIBDEVICE: dict[str, type[Operation]] = {}
for _name, _op in (
    ("exp", math.ExpOp),
    ("expm1", math.ExpM1Op),
    ("log", math.LogOp),
    ("log1p", math.Log1pOp),
    ("rsqrt", math.RsqrtOp),
    ("sqrt", math.SqrtOp),
    ("tanh", math.TanhOp),
    ("sin", math.SinOp),
    ("cos", math.CosOp),
    ("erf", math.ErfOp),
    ("pow", math.PowFOp),
    ("atan2", math.Atan2Op),
    ("cbrt", math.CbrtOp),
):
    _LIBDEVICE[f"__nv_{_name}f"] = _op
    _LIBDEVICE[f"__nv_{_name}"] = _op
# XLA calls the approximate exp for 16-bit floats (computed in f32, then rounded to bf16 or
# f16): within 2 f32 ulp of exp, so it rounds like exp but where exp lies that close to a
# 16-bit rounding boundary. Run as exp, as every other stage computes it.
_LIBDEVICE["__nv_fast_expf"] = math.ExpOp

_STAND_INS: WeakKeyDictionary[Operation, tuple[Block, Operation]] = WeakKeyDictionary()


# Integer combines whose result does not depend on the order of the terms (two's complement
# wraps alike however they are grouped, and min and max pick the same element).
_ORDER_FREE_INTEGER: dict[type[Operation], np.ufunc] = {
    arith.AddiOp: np.add,
    arith.MuliOp: np.multiply,
    arith.AndIOp: np.bitwise_and,
    arith.OrIOp: np.bitwise_or,
    arith.XOrIOp: np.bitwise_xor,
    arith.MaxSIOp: np.maximum,
    arith.MinSIOp: np.minimum,
}


def _single_op(block: Block) -> Operation | None:
    """The op of a combine region that is one op of its two arguments (`(a, b) -> a op b`
    or `b op a`), else None."""
    ops = list(block.ops)
    if len(block.args) != 2 or len(ops) != 2:
        return None
    combine, terminator = ops
    if len(combine.operands) != 2 or set(combine.operands) != set(block.args):
        return None
    if list(terminator.operands) != [combine.results[0]]:
        return None
    return combine


def order_free_combine(block: Block, dtype: np.dtype[Any]) -> np.ufunc | None:
    """The numpy reduction that `block` amounts to when its single op is an order-free
    integer combine of its two arguments on signed integers; else None."""
    combine = _single_op(block) if dtype.kind == "i" else None
    return None if combine is None else _ORDER_FREE_INTEGER.get(type(combine))


def direct_combine(block: Block, dtype: np.dtype[Any]) -> Combine | None:
    """`block` as the numpy ufunc of its single op, called without interpreting the region,
    where that op is an f32 or f64 float binary (the same ufunc the `arith` handlers call, so
    the same bits); else None."""
    combine = _single_op(block)
    ufunc = None if combine is None else float_binary_ufunc(type(combine), dtype)
    if combine is None or ufunc is None:
        return None
    if list(combine.operands) == list(block.args):
        return ufunc
    return lambda a, b: ufunc(b, a)


def triton_reduce(
    ex: TileExecutor,
    values: Any,
    axis: int,
    combine: Callable[[Any, Any], Any],
    block: Block | None = None,
) -> Any:
    """`values` ([pids, *tile]) combined along tile axis `axis` in Triton's order. Where the
    combine region `block` is order free, in one numpy reduction; where it is one float op,
    in Triton's order with that op's ufunc; both charge the steps the region would take."""
    layout = blocked_layout(values.shape[1:], ex.num_warps, values.dtype.itemsize)
    if block is None:
        return reduce_in_triton_order(values, axis, combine, layout)
    ufunc = order_free_combine(block, values.dtype)
    direct = None if ufunc is not None else direct_combine(block, values.dtype)
    if ufunc is None and direct is None:
        return reduce_in_triton_order(values, axis, combine, layout)
    steps = combine_count(values.shape[axis + 1], axis, layout) * len(block.ops)
    if ex.step_counter.charge(steps):
        first = block.first_op
        assert first is not None
        raise ex.error(first, ex.step_counter.exceeded())
    if ufunc is not None:
        return ufunc.reduce(values, axis=axis + 1, dtype=values.dtype)
    assert direct is not None
    return reduce_in_triton_order(values, axis, direct, layout)


def reduce(ex: TileExecutor, op: Operation, args: list[Any]) -> list[Any]:
    assert isinstance(op, triton.ReduceOp)
    if len(op.srcs) != 1:
        raise ex.error(op, "with several operands is not supported by the tile executor")
    block = op.combineOp.block

    def combine(a: Any, b: Any) -> Any:
        return np.asarray(ex.run_block(block, [a, b])[0])

    values = ex.per_pid(args[0], op.srcs[0].type)
    return [triton_reduce(ex, values, op.axis.value.data, combine, block)]


def expand_dims(ex: TileExecutor, op: Operation, args: list[Any]) -> list[Any]:
    assert isinstance(op, triton.ExpandDimsOp)
    values = ex.per_pid(args[0], op.src.type)
    return [np.expand_dims(values, op.axis.value.data + 1)]


def broadcast(ex: TileExecutor, op: Operation, args: list[Any]) -> list[Any]:
    assert isinstance(op, triton.BroadcastOp)
    result_type = op.result.type
    assert isinstance(result_type, ShapedType)
    values = ex.per_pid(args[0], op.src.type)
    return [np.broadcast_to(values, (values.shape[0], *result_type.get_shape()))]


def splat(ex: TileExecutor, op: Operation, args: list[Any]) -> list[Any]:
    assert isinstance(op, triton.SplatOp)
    result_type = op.result.type
    assert isinstance(result_type, TensorType)
    shape = tuple(result_type.get_shape())
    value = np.asarray(args[0], dtype=numpy_dtype(result_type))
    if value.ndim:  # a scalar per pid
        return [np.broadcast_to(value.reshape(-1, *[1] * len(shape)), (len(ex.pids), *shape))]
    return [np.broadcast_to(value, shape)]


def reshape(ex: TileExecutor, op: Operation, args: list[Any]) -> list[Any]:
    assert isinstance(op, triton.ReshapeOp)
    result_type = op.result.type
    assert isinstance(result_type, ShapedType)
    values = ex.per_pid(args[0], op.src.type)
    return [values.reshape(values.shape[0], *result_type.get_shape())]


def trans(ex: TileExecutor, op: Operation, args: list[Any]) -> list[Any]:
    assert isinstance(op, triton.TransOp)
    order = list(op.order.get_values())
    values = ex.per_pid(args[0], op.src.type)
    return [values.transpose(0, *(o + 1 for o in order))]


def make_range(_ex: TileExecutor, op: Operation, _args: list[Any]) -> list[Any]:
    assert isinstance(op, triton.MakeRangeOp)
    start, end = op.start.value.data, op.end.value.data
    return [np.arange(start, end).astype(numpy_dtype(op.result.type))]


def extern_elementwise(ex: TileExecutor, op: Operation, args: list[Any]) -> list[Any]:
    """A libdevice call, as the `math` op of the same function."""
    assert isinstance(op, triton.ExternElementwiseOp)
    known = _STAND_INS.get(op)
    if known is None:
        symbol = op.symbol.data
        math_op = _LIBDEVICE.get(symbol)
        if math_op is None:
            raise ex.error(op, f"calls '{symbol}', which the tile executor does not know")
        stand_ins = Block(arg_types=[v.type for v in op.srcs])
        operands: list[SSAValue] = list(stand_ins.args)
        known = (stand_ins, math_op.create(operands=operands, result_types=[op.result.type]))
        _STAND_INS[op] = known
    _, math_op_instance = known
    handler = ex.handlers.lookup(type(math_op_instance))
    assert handler is not None
    return handler(ex, math_op_instance, args)


def nothing(_ex: TileExecutor, _op: Operation, _args: list[Any]) -> list[Any]:
    return []


TRITON_HANDLERS: tuple[tuple[type[Operation], Handler], ...] = (
    (triton.ReduceOp, reduce),
    (triton.ExpandDimsOp, expand_dims),
    (triton.BroadcastOp, broadcast),
    (triton.SplatOp, splat),
    (triton.ReshapeOp, reshape),
    (triton.TransOp, trans),
    (triton.MakeRangeOp, make_range),
    (triton.ExternElementwiseOp, extern_elementwise),
)
