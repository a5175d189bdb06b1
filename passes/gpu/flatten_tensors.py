"""`xla-flatten-tensors`: every N-d tensor becomes a 1-d tensor in row-major order.

After this pass every tensor access is a single linear index, which is what
vectorization and the lowering to pointers need. Each pattern is local: it
rewrites one op to the flat type and bridges to its neighbours with
`builtin.unrealized_conversion_cast`; the patterns of the neighbours consume
those casts, and a cast of a cast folds away.

* function signatures (arguments and results) and their `return`s;
* `func.call` / `pure_call` operands and results;
* `tensor.extract` / `tensor.insert`: the index is linearized through one
  `apply_indexing` whose map composes the producers of the indices with the
  row-major linearization (see `passes/analysis/linear_index.py`);
* `scf.for` iter_args and `scf.if` results; `xla.loop` iter_args;
* `xla.atomic_rmw` (the element is addressed by its linear index);
* `arith.constant dense<...>` tensors;
* `xla_gpu.allocate_shared` and the tensors passing through `xla_gpu.sync_threads`;
* `vector.transfer_read/write` of a 1-d vector along the minor dimension.

Tensors of rank 0 or 1, with a dynamic size or with a layout encoding are
left alone. If a cast survives (an N-d tensor reaches an op no pattern knows),
the pass fails with "FlattenTensorsPass failed to converge" at that op.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import arith, func, scf, tensor, vector
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseIntOrFPElementsAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    ModuleOp,
    NoneAttr,
    TensorType,
    UnrealizedConversionCastOp,
    VectorType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xla_emit.dialects.vector_ext import FromElementsOp
from xla_emit.dialects.xla import (
    AtomicRMWOp,
    LoopOpBase,
    PureCallOpBase,
    YieldOpBase,
    make_apply_indexing,
)
from xla_emit.dialects.xla_gpu import AllocateSharedOp, SyncThreadsOp
from xla_emit.passes.analysis.linear_index import constant_result, linear_index
from xla_emit.passes.apply_indexing_patterns import FoldApplyIndexingChain
from xla_emit.passes.diagnostics import OpError
from xla_emit.passes.greedy_driver import finish_like_greedy_driver


def flat_type(type_: Attribute) -> TensorType[Attribute] | None:
    """The 1-d type an N-d (N >= 2) static tensor type becomes, else None."""
    if not isinstance(type_, TensorType) or len(type_.shape) < 2:
        return None
    if not isinstance(type_.encoding, NoneAttr):
        return None
    shape = type_.get_shape()
    if any(size < 0 for size in shape):
        return None
    return TensorType(type_.element_type, [prod(shape)])


def _needs_flattening(types: Sequence[Attribute]) -> bool:
    return any(flat_type(t) is not None for t in types)


def _cast(
    value: SSAValue, to: Attribute, rewriter: PatternRewriter, where: InsertPoint
) -> SSAValue:
    """`value` as type `to`: the input of a cast going the other way, else a new cast."""
    owner = value.owner
    if isinstance(owner, UnrealizedConversionCastOp) and owner.inputs[0].type == to:
        return owner.inputs[0]
    cast = UnrealizedConversionCastOp.get([value], [to])
    cast.results[0].name_hint = value.name_hint
    rewriter.insert(cast, where)
    return cast.results[0]


def _flatten_values(
    values: Sequence[SSAValue], rewriter: PatternRewriter, where: InsertPoint
) -> list[SSAValue]:
    result: list[SSAValue] = []
    for value in values:
        flat = flat_type(value.type)
        result.append(value if flat is None else _cast(value, flat, rewriter, where))
    return result


def _unflatten_results(
    old: Sequence[SSAValue], new: Sequence[SSAValue], rewriter: PatternRewriter, where: InsertPoint
) -> list[SSAValue]:
    """New (flat) results cast back to the old results' types where those differ."""
    return [
        n if n.type == o.type else _cast(n, o.type, rewriter, where)
        for o, n in zip(old, new, strict=True)
    ]


def _retype_block_args(block: Block, rewriter: PatternRewriter, first: int = 0) -> None:
    """Gives N-d block arguments (from `first`) their flat type; old uses see a cast."""
    for arg in block.args[first:]:
        flat = flat_type(arg.type)
        if flat is None:
            continue
        old_type = arg.type
        new_arg = rewriter.replace_value_with_new_type(arg, flat)
        cast = UnrealizedConversionCastOp.get([new_arg], [old_type])
        cast.results[0].name_hint = new_arg.name_hint
        rewriter.insert(cast, InsertPoint.at_start(block))
        rewriter.replace_uses_with_if(
            new_arg, cast.results[0], lambda use, c=cast: use.operation is not c
        )


def _linear_index_value(
    shape: Sequence[int], indices: Sequence[SSAValue], rewriter: PatternRewriter, where: InsertPoint
) -> SSAValue:
    indexing_map, operands = linear_index(shape, indices)
    if (constant := constant_result(indexing_map)) is not None:
        const = arith.ConstantOp(IntegerAttr(constant, IndexType()))
        rewriter.insert(const, where)
        return const.result
    apply = make_apply_indexing(indexing_map, operands)
    apply.res[0].name_hint = "linear_index"
    rewriter.insert(apply, where)
    return apply.res[0]


class FlattenFunctionSignature(RewritePattern):
    """N-d arguments and results of a `func.func` become 1-d."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.FuncOp, rewriter: PatternRewriter) -> None:
        function_type = op.function_type
        if not _needs_flattening((*function_type.inputs.data, *function_type.outputs.data)):
            return
        if op.body.blocks:
            _retype_block_args(op.body.block, rewriter)
            for ret in [o for o in op.body.walk() if isinstance(o, func.ReturnOp)]:
                flat = _flatten_values(ret.arguments, rewriter, InsertPoint.before(ret))
                rewriter.replace(ret, func.ReturnOp(*flat))
        inputs = [flat_type(t) or t for t in function_type.inputs.data]
        outputs = [flat_type(t) or t for t in function_type.outputs.data]
        op.function_type = FunctionType.from_lists(inputs, outputs)
        rewriter.notify_op_modified(op)


class FlattenCall(RewritePattern):
    """Calls pass and receive flat tensors, matching the flattened callee."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: func.CallOp | PureCallOpBase, rewriter: PatternRewriter
    ) -> None:
        if not _needs_flattening((*op.operand_types, *op.result_types)):
            return
        where = InsertPoint.before(op)
        arguments = _flatten_values(op.operands, rewriter, where)
        result_types = [flat_type(t) or t for t in op.result_types]
        if isinstance(op, func.CallOp):
            call: Operation = func.CallOp(op.callee, arguments, result_types)
        else:
            call = type(op)(op.callee, arguments, result_types)
        call.attributes.update(op.attributes)
        rewriter.insert(call, where)
        rewriter.replace(op, (), _unflatten_results(op.results, call.results, rewriter, where))


def _flat_access(
    tensor_value: SSAValue,
    indices: Sequence[SSAValue],
    rewriter: PatternRewriter,
    where: InsertPoint,
) -> tuple[SSAValue, SSAValue] | None:
    """The flat tensor and linear index that `tensor_value[indices]` becomes, or None
    when the tensor is not one to flatten."""
    tensor_type = tensor_value.type
    if (flat := flat_type(tensor_type)) is None:
        return None
    assert isinstance(tensor_type, TensorType)
    index = _linear_index_value(tensor_type.get_shape(), indices, rewriter, where)
    return _cast(tensor_value, flat, rewriter, where), index


class FlattenExtract(RewritePattern):
    """`tensor.extract %t[%i, %j]` -> `tensor.extract %flat[linear(%i, %j)]`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.ExtractOp, rewriter: PatternRewriter) -> None:
        where = InsertPoint.before(op)
        if (access := _flat_access(op.tensor, op.indices, rewriter, where)) is None:
            return
        source, index = access
        rewriter.replace(op, tensor.ExtractOp(source, [index], op.result.type))


class FlattenInsert(RewritePattern):
    """`tensor.insert %v into %t[%i, %j]` -> insert into the flat tensor, cast back."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.InsertOp, rewriter: PatternRewriter) -> None:
        where = InsertPoint.before(op)
        if (access := _flat_access(op.dest, op.indices, rewriter, where)) is None:
            return
        dest, index = access
        insert = rewriter.insert(tensor.InsertOp(op.scalar, dest, [index]), where)
        rewriter.replace(op, (), [_cast(insert.result, op.dest.type, rewriter, where)])


class FlattenFor(RewritePattern):
    """`scf.for` carrying N-d tensors carries flat ones instead."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter) -> None:
        if not _needs_flattening(op.result_types):
            return
        where = InsertPoint.before(op)
        inits = _flatten_values(op.iter_args, rewriter, where)
        _flatten_region_yields(op.body.block, rewriter)
        _retype_block_args(op.body.block, rewriter, first=1)
        body = rewriter.move_region_contents_to_new_regions(op.body)
        new_loop = rewriter.insert(scf.ForOp(op.lb, op.ub, op.step, inits, body), where)
        after = InsertPoint.after(new_loop)
        rewriter.replace(op, (), _unflatten_results(op.results, new_loop.results, rewriter, after))


class FlattenIf(RewritePattern):
    """`scf.if` producing N-d tensors produces flat ones instead."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IfOp, rewriter: PatternRewriter) -> None:
        if not _needs_flattening(op.result_types):
            return
        for region in (op.true_region, op.false_region):
            _flatten_region_yields(region.block, rewriter)
        types = [flat_type(t) or t for t in op.result_types]
        true_region = rewriter.move_region_contents_to_new_regions(op.true_region)
        false_region = rewriter.move_region_contents_to_new_regions(op.false_region)
        new_if = rewriter.insert(
            scf.IfOp(op.cond, types, true_region, false_region), InsertPoint.before(op)
        )
        after = InsertPoint.after(new_if)
        rewriter.replace(op, (), _unflatten_results(op.results, new_if.results, rewriter, after))


def _flatten_region_yields(block: Block, rewriter: PatternRewriter) -> None:
    terminator = block.last_op
    assert isinstance(terminator, scf.YieldOp)
    flat = _flatten_values(terminator.arguments, rewriter, InsertPoint.before(terminator))
    rewriter.replace(terminator, scf.YieldOp(*flat))


class FlattenXlaLoop(RewritePattern):
    """`xla.loop` carrying N-d tensors carries flat ones instead."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: LoopOpBase, rewriter: PatternRewriter) -> None:
        if not _needs_flattening(op.result_types):
            return
        where = InsertPoint.before(op)
        inits = _flatten_values(op.inits, rewriter, where)
        block = op.body.block
        terminator = block.last_op
        assert isinstance(terminator, YieldOpBase)
        yielded = _flatten_values(terminator.values, rewriter, InsertPoint.before(terminator))
        rewriter.replace(terminator, type(terminator)(yielded))
        _retype_block_args(block, rewriter, first=len(block.args) - len(op.inits))
        body = rewriter.move_region_contents_to_new_regions(op.body)
        new_loop = rewriter.insert(
            type(op)(op.indexing_map_attr, op.dims, inits, body, op.attributes), where
        )
        for new_result, old_result in zip(new_loop.res, op.res, strict=True):
            new_result.name_hint = old_result.name_hint
        after = InsertPoint.after(new_loop)
        rewriter.replace(op, (), _unflatten_results(op.res, new_loop.res, rewriter, after))


class FlattenAtomicRMW(RewritePattern):
    """`xla.atomic_rmw %t[%i, %j]` updates the flat tensor at the linear index."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AtomicRMWOp, rewriter: PatternRewriter) -> None:
        if (flat := flat_type(op.input.type)) is None:
            return
        input_type = op.input.type
        assert isinstance(input_type, TensorType)
        where = InsertPoint.before(op)
        index = _linear_index_value(input_type.get_shape(), op.indices, rewriter, where)
        source = _cast(op.input, flat, rewriter, where)
        body = rewriter.move_region_contents_to_new_regions(op.body)
        atomic = rewriter.insert(AtomicRMWOp(source, [index], body, op.attributes), where)
        atomic.result.name_hint = op.result.name_hint
        rewriter.replace(op, (), [_cast(atomic.result, input_type, rewriter, where)])


class FlattenConstant(RewritePattern):
    """`arith.constant dense<...> : tensor<2x3xf32>` -> the same data as `tensor<6xf32>`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.ConstantOp, rewriter: PatternRewriter) -> None:
        value = op.value
        if not isinstance(value, DenseIntOrFPElementsAttr):
            return
        if flat_type(value.get_type()) is None:
            return
        # Row-major data does not change when the shape collapses.
        flat = TensorType(value.get_element_type(), [prod(value.get_shape())])
        flat_value = DenseIntOrFPElementsAttr(flat, value.data)
        constant = rewriter.insert(arith.ConstantOp(flat_value), InsertPoint.before(op))
        constant.result.name_hint = op.result.name_hint
        where = InsertPoint.before(op)
        rewriter.replace(op, (), [_cast(constant.result, op.result.type, rewriter, where)])


class FlattenAllocateShared(RewritePattern):
    """Shared memory is allocated flat; its N-d users see a cast until they are rewritten."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AllocateSharedOp, rewriter: PatternRewriter) -> None:
        if (flat := flat_type(op.result.type)) is None:
            return
        allocation = rewriter.insert(AllocateSharedOp(flat, op.attributes), InsertPoint.before(op))
        where = InsertPoint.before(op)
        rewriter.replace(op, (), [_cast(allocation.result, op.result.type, rewriter, where)])


class FlattenSyncThreads(RewritePattern):
    """`xla_gpu.sync_threads` passes flat tensors through."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: SyncThreadsOp, rewriter: PatternRewriter) -> None:
        if not _needs_flattening(op.result_types):
            return
        where = InsertPoint.before(op)
        synced = rewriter.insert(
            SyncThreadsOp(_flatten_values(op.tensors, rewriter, where), op.attributes), where
        )
        rewriter.replace(op, (), _unflatten_results(op.res, synced.res, rewriter, where))


def _is_minor_identity(permutation: AffineMap, rank: int) -> bool:
    return permutation == AffineMap.minor_identity(rank, 1)


class FlattenTransferRead(RewritePattern):
    """A 1-d `vector.transfer_read` along the minor dim of an N-d tensor reads the flat tensor."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.TransferReadOp, rewriter: PatternRewriter) -> None:
        source_type = op.source.type
        if (flat := flat_type(source_type)) is None or op.mask is not None:
            return
        assert isinstance(source_type, TensorType)
        if not _is_minor_identity(op.permutation_map.data, len(source_type.shape)):
            return
        where = InsertPoint.before(op)
        index = _linear_index_value(source_type.get_shape(), op.indices, rewriter, where)
        source = _cast(op.source, flat, rewriter, where)
        read = vector.TransferReadOp(
            source,
            [index],
            op.padding,
            op.result.type,
            op.in_bounds,
            AffineMapAttr(AffineMap.minor_identity(1, 1)),
        )
        rewriter.replace(op, read)


class FlattenTransferWrite(RewritePattern):
    """A 1-d `vector.transfer_write` along the minor dim of an N-d tensor writes the flat tensor."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.TransferWriteOp, rewriter: PatternRewriter) -> None:
        dest_type = op.source.type
        if (flat := flat_type(dest_type)) is None or op.mask is not None or op.result is None:
            return
        assert isinstance(dest_type, TensorType)
        if not _is_minor_identity(op.permutation_map.data, len(dest_type.shape)):
            return
        where = InsertPoint.before(op)
        index = _linear_index_value(dest_type.get_shape(), op.indices, rewriter, where)
        dest = _cast(op.source, flat, rewriter, where)
        write = vector.TransferWriteOp(
            op.vector,
            dest,
            [index],
            op.in_bounds,
            permutation_map=AffineMapAttr(AffineMap.minor_identity(1, 1)),
            result_type=flat,
        )
        rewriter.insert(write, where)
        rewriter.replace(op, (), [_cast(write.results[0], dest_type, rewriter, where)])


class FlattenVectorFromElements(RewritePattern):
    """An N-d `vector.from_elements` read only by scalar `vector.extract`s -> a 1-d vector
    read at the linearized positions (as XLA's pass leaves the packed transpose's tile)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: FromElementsOp, rewriter: PatternRewriter) -> None:
        vector_type = op.result.type
        if len(vector_type.shape) < 2:
            return
        shape = vector_type.get_shape()
        users = [use.operation for use in op.result.uses]
        if not users or not all(_extracts_a_scalar(user, len(shape)) for user in users):
            return
        flat_vector = VectorType(vector_type.element_type, [prod(shape)])
        flat = rewriter.insert(FromElementsOp(op.elements, flat_vector), InsertPoint.before(op))
        flat.result.name_hint = op.result.name_hint
        for user in users:
            assert isinstance(user, vector.ExtractOp)
            where = InsertPoint.before(user)
            position = _flat_position(shape, user.get_mixed_position(), rewriter, where)
            rewriter.replace(
                user, vector.ExtractOp(flat.result, [position], vector_type.element_type)
            )
        rewriter.erase(op)


def _extracts_a_scalar(user: Operation, rank: int) -> bool:
    return isinstance(user, vector.ExtractOp) and len(user.get_mixed_position()) == rank


def _flat_position(
    shape: Sequence[int],
    position: Sequence[SSAValue | int],
    rewriter: PatternRewriter,
    where: InsertPoint,
) -> SSAValue | int:
    """The row-major position of `position` in a vector of `shape` (static when it is)."""
    if all(isinstance(p, int) for p in position):
        flat = 0
        for size, p in zip(shape, position, strict=True):
            assert isinstance(p, int)
            flat = flat * size + p
        return flat
    indices: list[SSAValue] = []
    for p in position:
        if isinstance(p, int):
            constant = rewriter.insert(arith.ConstantOp(IntegerAttr(p, IndexType())), where)
            indices.append(constant.result)
        else:
            indices.append(p)
    return _linear_index_value(shape, indices, rewriter, where)


class FoldCastPairs(RewritePattern):
    """`cast(cast(x : A -> B) : B -> A)` -> `x`; a cast nobody uses is erased."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: UnrealizedConversionCastOp, rewriter: PatternRewriter) -> None:
        if not any(result.uses for result in op.results):
            rewriter.erase(op)
            return
        if len(op.inputs) != 1 or len(op.results) != 1:
            return
        producer = op.inputs[0].owner
        if (
            isinstance(producer, UnrealizedConversionCastOp)
            and len(producer.inputs) == 1
            and producer.inputs[0].type == op.results[0].type
        ):
            rewriter.replace(op, (), [producer.inputs[0]])


def _unflattened_neighbour(cast: UnrealizedConversionCastOp) -> Operation:
    """The op that kept `cast` alive: the producer of an N-d input, else the N-d user."""
    source = cast.inputs[0]
    if flat_type(source.type) is not None:
        producer = source.owner
        if isinstance(producer, Operation):
            return producer
        return producer.parent_op() or cast
    users = [use.operation for result in cast.results for use in result.uses]
    return next((u for u in users if not isinstance(u, UnrealizedConversionCastOp)), cast)


def _check_converged(module: ModuleOp) -> None:
    """XLA's post-condition: no bridging cast may survive."""
    for op in module.walk():
        if not isinstance(op, UnrealizedConversionCastOp):
            continue
        raise OpError(
            _unflattened_neighbour(op),
            "FlattenTensorsPass failed to converge",
            [f"no pattern flattens the {op.inputs[0].type} -> {op.results[0].type} value it uses"],
        )


@dataclass(frozen=True)
class FlattenTensorsPass(ModulePass):
    """Flattens N-d tensors to 1-d in row-major order (XLA's `xla-flatten-tensors`). No options."""

    name = "xla-flatten-tensors"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    FlattenFunctionSignature(),
                    FlattenCall(),
                    FlattenExtract(),
                    FlattenInsert(),
                    FlattenFor(),
                    FlattenIf(),
                    FlattenXlaLoop(),
                    FlattenAtomicRMW(),
                    FlattenConstant(),
                    FlattenAllocateShared(),
                    FlattenSyncThreads(),
                    FlattenTransferRead(),
                    FlattenTransferWrite(),
                    FlattenVectorFromElements(),
                    FoldCastPairs(),
                    FoldApplyIndexingChain(),
                ]
            ),
            apply_recursively=True,
        ).rewrite_module(op)
        _check_converged(op)
        finish_like_greedy_driver(ctx, op)
