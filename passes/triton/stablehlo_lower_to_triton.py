"""`stablehlo-lower-to-triton`: the `stablehlo` ops left on tiles become Triton's `tt` ops.

As XLA's pass of this name writes them (its TTIR shows the result):

    %r = stablehlo.reduce(%x init: %c) applies <op> across dimensions = [1]
      -> %t = "tt.reduce"(%x) <{axis = 1 : i32}> ({ ^bb0(%a: f32, %b: f32):
             %s = <op> %a, %b : f32   tt.reduce.return %s : f32 })
         %r = <op> %t, splat(%c)           (the init joins once, after the tree)
    stablehlo.broadcast_in_dim %x, dims = [0] : tensor<8xf32> -> tensor<8x16xf32>
      -> tt.expand_dims (axis 1), then tt.broadcast
    stablehlo.broadcast_in_dim of a 0-d tensor -> a splat (a dense constant for a constant)
    stablehlo.reshape -> tt.reshape;  stablehlo.transpose -> tt.trans
    stablehlo.iota -> tt.make_range (expanded and broadcast for higher ranks)
    arith.addf %acc, (stablehlo.dot_general %a, %b) -> tt.dot %a, %b, %acc (TF32 inputs, as
      XLA prints it for f32 and bf16 alike), unit batch dims dropped by tt.reshape and an
      operand contracting on the wrong side transposed by tt.trans first

It runs after `stablehlo-lower-to-arith`, so a reducer's body is one `arith` op on 0-d
tensors; other bodies, and reduces over several inputs, are left alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    ModuleOp,
    TensorType,
    i32,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xla_emit.dialects import stablehlo, triton


def _shape(type_: Attribute) -> tuple[int, ...]:
    return tuple(type_.get_shape()) if isinstance(type_, TensorType) else ()


def _element(type_: Attribute) -> Attribute:
    return type_.get_element_type() if isinstance(type_, TensorType) else type_


def _splat(value: SSAValue, result_type: TensorType[Attribute]) -> list[Operation]:
    """`value` (a 0-d tensor) in every position of `result_type`: a dense constant when the
    value is a splat constant, else its element splat."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, DenseIntOrFPElementsAttr):
        values = owner.value.get_values()
        if len(set(values)) == 1:
            dense = DenseIntOrFPElementsAttr.from_list(result_type, [values[0]])
            return [arith.ConstantOp(dense)]
    element = tensor.ExtractOp(value, [], _element(value.type))
    return [element, triton.SplatOp(element, result_type)]


def _reducer(body: Block) -> Operation | None:
    """The body's one combining op (after `stablehlo-lower-to-arith`), if that is all it is."""
    ops = list(body.ops)
    if len(ops) != 2 or len(body.args) != 2:
        return None
    combiner, terminator = ops
    if not isinstance(terminator, stablehlo.ReturnOp) or len(combiner.results) != 1:
        return None
    if tuple(combiner.operands) != tuple(body.args):
        return None
    if tuple(terminator.operands) != tuple(combiner.results):
        return None
    return combiner


def _like(combiner: Operation, operands: list[SSAValue], result_type: Attribute) -> Operation:
    """`combiner` again, on other operands and with another result type."""
    return type(combiner).create(
        operands=operands,
        result_types=[result_type],
        properties=dict(combiner.properties),
        attributes=dict(combiner.attributes),
    )


class _LowerReduce(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stablehlo.ReduceOp, rewriter: PatternRewriter) -> None:
        if len(op.inputs) != 1:
            return  # a variadic reduce (argmax): not lowered here
        combiner = _reducer(op.body.block)
        if combiner is None:
            return  # a body that is not one combining op
        element = _element(op.inputs[0].type)
        new_ops: list[Operation] = []
        value: SSAValue = op.inputs[0]
        for dim in sorted(op.dims, reverse=True):
            shape = list(_shape(value.type))
            del shape[dim]
            body = Block(arg_types=[element, element])
            combine = _like(combiner, list(body.args), element)
            body.add_ops([combine, triton.ReduceReturnOp([combine.results[0]])])
            # Reducing the last axis gives a scalar in Triton, not a 0-d tensor.
            reduced = TensorType(element, shape) if shape else element
            reduce = triton.ReduceOp.build(
                operands=[[value]],
                result_types=[[reduced]],
                properties={"axis": IntegerAttr(dim, i32)},
                regions=[Region(body)],
            )
            new_ops.append(reduce)
            value = reduce.results[0]
        if not isinstance(value.type, TensorType):
            # The scalar back as the 0-d tensor the reduce's users take.
            wrap = tensor.FromElementsOp(value, result_type=TensorType(element, []))
            new_ops.append(wrap)
            value = wrap.results[0]
        result_type = op.results_[0].type
        assert isinstance(result_type, TensorType)
        init = _splat(op.init_values[0], result_type)
        final = _like(combiner, [value, init[-1].results[0]], result_type)
        rewriter.replace(op, [*new_ops, *init, final], [final.results[0]])


class _LowerBroadcastInDim(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stablehlo.BroadcastInDimOp, rewriter: PatternRewriter) -> None:
        result_type = op.result.type
        assert isinstance(result_type, TensorType)
        dims = list(op.properties[op.DIMS].get_values())  # pyright: ignore[reportAttributeAccessIssue]
        if not dims:
            new_ops = _splat(op.operand, result_type)
            rewriter.replace(op, new_ops, [new_ops[-1].results[0]])
            return
        if dims != sorted(dims):
            return  # a broadcast that also transposes: not lowered here
        new_ops: list[Operation] = []
        value: SSAValue = op.operand
        shape = list(_shape(value.type))
        for axis in range(len(_shape(result_type))):
            if axis in dims:
                continue
            shape.insert(axis, 1)
            expand = triton.ExpandDimsOp(
                value,
                TensorType(_element(result_type), shape),
                properties={"axis": IntegerAttr(axis, i32)},
            )
            new_ops.append(expand)
            value = expand.results[0]
        if tuple(shape) != _shape(result_type):
            new_ops.append(triton.BroadcastOp(value, result_type))
            value = new_ops[-1].results[0]
        rewriter.replace(op, new_ops, [value])


class _LowerReshape(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stablehlo.ReshapeOp, rewriter: PatternRewriter) -> None:
        rewriter.replace(op, triton.ReshapeOp(op.operand, op.result.type))


class _LowerTranspose(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stablehlo.TransposeOp, rewriter: PatternRewriter) -> None:
        order = op.properties[op.DIMS]
        assert isinstance(order, DenseArrayBase)
        trans = triton.TransOp(
            op.operand,
            op.result.type,
            properties={"order": DenseArrayBase.from_list(i32, list(order.get_values()))},
        )
        rewriter.replace(op, trans)


class _LowerDot(RewritePattern):
    """`arith.addf %acc, (stablehlo.dot_general %a, %b)` -> `tt.dot %a, %b, %acc`, put in
    Triton's form first as XLA does: batch dims whose tile is 1 dropped (`tt.reshape` of
    both operands and of the accumulator, and of the result back), then `tt.trans` of an
    operand whose contracting dim is on the wrong side (lhs: last, rhs: first). Dots with
    batch tiles wider than 1 lower only when already in form (batch dims leading)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.AddfOp, rewriter: PatternRewriter) -> None:
        dot = op.rhs.owner
        if not isinstance(dot, stablehlo.DotGeneralOp) or not dot.result.has_one_use():
            return
        if op.lhs.type != dot.result.type:
            return
        lhs_batch, rhs_batch, lhs_k, rhs_k = dot.dot_dimension_numbers.lists()
        if len(lhs_k) != 1 or len(rhs_k) != 1:
            return
        lhs_shape = _shape(dot.lhs.type)
        rank = len(lhs_shape)
        batch = tuple(range(rank - 2))
        in_form = lhs_batch == rhs_batch == batch and (lhs_k, rhs_k) == ((rank - 1,), (rank - 2,))
        unit_batch = all(lhs_shape[d] == 1 for d in lhs_batch)
        if in_form and not (lhs_batch and unit_batch):
            rewriter.replace(op, triton.DotOp(dot.lhs, dot.rhs, op.lhs, "tf32"))
            rewriter.erase(dot)
            return
        if not unit_batch or len(lhs_shape) - len(lhs_batch) != 2:
            return  # batch tiles wider than 1 out of place, or several free dims: not here
        new_ops: list[Operation] = []
        lhs = _matrix(dot.lhs, lhs_batch, lhs_k[0], contracting_last=True, new_ops=new_ops)
        rhs = _matrix(dot.rhs, rhs_batch, rhs_k[0], contracting_last=False, new_ops=new_ops)
        accumulator_type = op.lhs.type
        assert isinstance(accumulator_type, TensorType)
        result_shape = [d for i, d in enumerate(_shape(accumulator_type)) if i >= len(lhs_batch)]
        matrix_type = TensorType(_element(accumulator_type), result_shape)
        accumulator: SSAValue = op.lhs
        if lhs_batch:
            new_ops.append(triton.ReshapeOp(op.lhs, matrix_type))
            accumulator = new_ops[-1].results[0]
        new_ops.append(triton.DotOp(lhs, rhs, accumulator, "tf32"))
        if lhs_batch:
            new_ops.append(triton.ReshapeOp(new_ops[-1].results[0], accumulator_type))
        rewriter.replace(op, new_ops, [new_ops[-1].results[0]])
        rewriter.erase(dot)


def _matrix(
    value: SSAValue,
    batch: tuple[int, ...],
    contracting: int,
    contracting_last: bool,
    new_ops: list[Operation],
) -> SSAValue:
    """A dot operand tile as the 2-d matrix `tt.dot` takes: its unit batch dims dropped
    (`tt.reshape`), then transposed (`tt.trans`) when its contracting dim is on the other
    side."""
    shape = _shape(value.type)
    element = _element(value.type)
    kept = [d for d in range(len(shape)) if d not in batch]
    if batch:
        new_ops.append(triton.ReshapeOp(value, TensorType(element, [shape[d] for d in kept])))
        value = new_ops[-1].results[0]
    if (kept.index(contracting) == 1) != contracting_last:
        rows, columns = (shape[d] for d in kept)
        trans = triton.TransOp(
            value,
            TensorType(element, [columns, rows]),
            properties={"order": DenseArrayBase.from_list(i32, [1, 0])},
        )
        new_ops.append(trans)
        value = trans.results[0]
    return value


class _LowerIota(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stablehlo.IotaOp, rewriter: PatternRewriter) -> None:
        result_type = op.output.type
        assert isinstance(result_type, TensorType)
        if _element(result_type) != i32:
            return  # make_range counts in i32 only
        shape = _shape(result_type)
        dimension = op.iota_dimension.value.data
        new_ops: list[Operation] = [triton.MakeRangeOp(0, shape[dimension])]
        value = new_ops[-1].results[0]
        current = [shape[dimension]]
        for axis in range(len(shape)):
            if axis == dimension:
                continue
            current.insert(axis, 1)
            new_ops.append(
                triton.ExpandDimsOp(
                    value, TensorType(i32, current), properties={"axis": IntegerAttr(axis, i32)}
                )
            )
            value = new_ops[-1].results[0]
        if tuple(current) != shape:
            new_ops.append(triton.BroadcastOp(value, result_type))
            value = new_ops[-1].results[0]
        rewriter.replace(op, new_ops, [value])


@dataclass(frozen=True)
class StablehloLowerToTritonPass(ModulePass):
    """Lowers reduces, broadcasts, reshapes, transposes and iotas on tiles to `tt` ops, as
    XLA's pass of this name."""

    name = "stablehlo-lower-to-triton"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = [
            _LowerReduce(),
            _LowerBroadcastInDim(),
            _LowerReshape(),
            _LowerTranspose(),
            _LowerIota(),
            _LowerDot(),
        ]
        for pattern in patterns:
            PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(op)
