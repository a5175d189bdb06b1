"""`xla-vectorize-loads-stores`: contiguous scalar accesses in a loop -> one vector access.

XLA's `vectorize_loads_stores.cc` rules, restated. In an `scf.for` with lower
bound 0, step 1 and a constant trip count N that is a power of 2 in [2, 32]:

* a `tensor.extract` directly in the body, from a 1-d tensor without encoding
  defined outside the loop, whose index is the induction variable or a
  one-result `apply_indexing` that uses it exactly once (all other operands
  defined outside the loop), with a stride of exactly 1 in the induction
  variable and the rest of the index a multiple of N, with
  `elem_bits * N <= 256` and the tensor size divisible by N, becomes

      %base = apply_indexing #map(..., %c0)           // before the loop
      %v = vector.transfer_read %t[%base], %pad {in_bounds = [true]}
      ... vector.extract %v[%iv]                       // in the body

* a `tensor.insert` with the same index conditions into an iter arg that it
  alone uses, whose result only the loop's `scf.yield` uses, becomes a
  `vector.insert` into a new `vector<Nx..>` iter arg (initially zero) and one
  `vector.transfer_write` of the loop's final vector after the loop.

Everything else stays scalar: other strides, unaligned bases, vectors wider
than 256 bits, trip counts that are not small powers of 2, N-d tensors, and
accesses nested in further regions of the body.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf, tensor, ub, vector
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    BoolAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    NoneAttr,
    TensorType,
    VectorType,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.utils.hints import isa
from xla_emit.dialects.xla import ApplyIndexingOpBase
from xla_emit.passes.greedy_driver import finish_like_greedy_driver
from xla_emit.passes.loop_utils import insert_index_constant, static_bounds
from xla_emit.passes.scf_simplify import defined_outside

from xla_emit.indexing import DimExpr, SymbolExpr
from xla_emit.indexing.strides import alignment_of, at_zero, stride_in

MAX_VECTOR_BITS = 256
MIN_TRIP_COUNT = 2
MAX_TRIP_COUNT = 32


@dataclass(frozen=True)
class _Access:
    """A contiguous, aligned access: how to compute its base before the loop."""

    apply: ApplyIndexingOpBase | None  # None: the index is the induction variable itself
    induction_position: int


def _contiguous_access(index: SSAValue, loop: scf.ForOp, trip_count: int) -> _Access | None:
    induction_var = loop.body.block.args[0]
    if index is induction_var:
        return _Access(None, -1)
    apply = index.owner
    if not isinstance(apply, ApplyIndexingOpBase) or apply.parent_op() is not loop:
        return None
    indexing_map = apply.indexing_map
    if len(indexing_map.results) != 1 or indexing_map.rt_vars:
        return None
    positions = [i for i, operand in enumerate(apply.arguments) if operand is induction_var]
    if len(positions) != 1:
        return None
    if not all(
        defined_outside(operand, loop)
        for i, operand in enumerate(apply.arguments)
        if i != positions[0]
    ):
        return None
    position = positions[0]
    num_dims = indexing_map.num_dims
    var = DimExpr(position) if position < num_dims else SymbolExpr(position - num_dims)
    expr = indexing_map.results[0]
    if stride_in(expr, var) != 1:
        return None
    base = at_zero(expr, var, num_dims, indexing_map.num_symbols)
    if alignment_of(base) % trip_count != 0:
        return None
    return _Access(apply, position)


def _vector_type(
    tensor_type: Attribute, trip_count: int
) -> VectorType[IntegerType | AnyFloat] | None:
    """`vector<N x elem>` if a 1-d tensor of this type can be accessed N elements at a time."""
    if not isinstance(tensor_type, TensorType) or len(tensor_type.shape) != 1:
        return None
    if not isinstance(tensor_type.encoding, NoneAttr):
        return None
    element = tensor_type.element_type
    if not isinstance(element, IntegerType) and not isa(element, AnyFloat):
        return None  # index elements have no fixed width
    (size,) = tensor_type.get_shape()
    if size < 0 or size % trip_count != 0:
        return None
    if element.bitwidth * trip_count > MAX_VECTOR_BITS:
        return None
    return VectorType(element, [trip_count])


def _base_index(access: _Access, loop: scf.ForOp, rewriter: PatternRewriter) -> SSAValue:
    """The access's index at induction variable 0, computed before the loop."""
    where = InsertPoint.before(loop)
    zero = insert_index_constant(rewriter, 0, where, "c0")
    if access.apply is None:
        return zero
    operands = list(access.apply.arguments)
    operands[access.induction_position] = zero
    num_dims = access.apply.indexing_map.num_dims
    base = type(access.apply)(
        access.apply.indexing_map_attr, operands[:num_dims], operands[num_dims:]
    )
    rewriter.insert(base, where)
    return base.res[0]


def _zero(element: IntegerType | AnyFloat) -> IntegerAttr[IntegerType] | FloatAttr[AnyFloat]:
    if isinstance(element, IntegerType):
        return IntegerAttr(0, element)
    return FloatAttr(0.0, element)


def _zero_vector(vector_type: VectorType[IntegerType | AnyFloat]) -> DenseIntOrFPElementsAttr:
    element = vector_type.element_type
    if isinstance(element, IntegerType):
        return DenseIntOrFPElementsAttr.from_list(VectorType(element, vector_type.shape), [0])
    return DenseIntOrFPElementsAttr.from_list(VectorType(element, vector_type.shape), [0.0])


def _in_bounds() -> ArrayAttr[BoolAttr]:
    return ArrayAttr([BoolAttr.from_bool(True)])


def _identity_1d() -> AffineMapAttr:
    return AffineMapAttr(AffineMap.minor_identity(1, 1))


def _vectorize_load(
    op: tensor.ExtractOp, loop: scf.ForOp, trip_count: int, rewriter: PatternRewriter
) -> bool:
    vector_type = _vector_type(op.tensor.type, trip_count)
    if vector_type is None or not defined_outside(op.tensor, loop):
        return False
    access = _contiguous_access(op.indices[0], loop, trip_count)
    if access is None:
        return False
    base = _base_index(access, loop, rewriter)
    # No padding is ever read (the read is in bounds): XLA passes none, which
    # MLIR spells as a poison value.
    padding = ub.PoisonOp(vector_type.element_type)
    rewriter.insert(padding, InsertPoint.before(loop))
    read = vector.TransferReadOp(
        op.tensor, [base], padding.result, vector_type, _in_bounds(), _identity_1d()
    )
    rewriter.insert(read, InsertPoint.before(loop))
    induction_var = loop.body.block.args[0]
    rewriter.replace(op, vector.ExtractOp(read.result, [induction_var], vector_type.element_type))
    return True


@dataclass(frozen=True)
class _Store:
    insert: tensor.InsertOp
    iter_position: int  # position among the loop's iter args
    access: _Access
    vector_type: VectorType[IntegerType | AnyFloat]


def _vectorizable_store(op: tensor.InsertOp, loop: scf.ForOp, trip_count: int) -> _Store | None:
    block = loop.body.block
    dest = op.dest
    if dest not in block.args[1:] or len(list(dest.uses)) != 1:
        return None
    yield_op = block.last_op
    assert isinstance(yield_op, scf.YieldOp)
    iter_position = block.args.index(dest) - 1
    uses = list(op.result.uses)
    if len(uses) != 1 or uses[0].operation is not yield_op or uses[0].index != iter_position:
        return None
    vector_type = _vector_type(dest.type, trip_count)
    if vector_type is None:
        return None
    access = _contiguous_access(op.indices[0], loop, trip_count)
    if access is None:
        return None
    return _Store(op, iter_position, access, vector_type)


def _vectorize_stores(stores: list[_Store], loop: scf.ForOp, rewriter: PatternRewriter) -> None:
    """Adds one vector iter arg per store and writes each vector once after the loop."""
    block = loop.body.block
    induction_var = block.args[0]
    inits: list[SSAValue] = list(loop.iter_args)
    vectors: list[SSAValue] = []
    forwarded: dict[int, SSAValue] = {}
    for offset, store in enumerate(stores):
        whole = _forwarded_vector(store, loop)
        if whole is not None:
            # Element i of a vector stored at position i: the vector itself is stored.
            forwarded[offset] = whole
            rewriter.replace(store.insert, (), [store.insert.dest])
            continue
        zero = arith.ConstantOp(_zero_vector(store.vector_type))
        zero.result.name_hint = "vector"
        rewriter.insert(zero, InsertPoint.before(loop))
        inits.append(zero.result)
        carried = rewriter.insert_block_argument(block, len(block.args), store.vector_type)
        carried.name_hint = "iter_vector"
        element = vector.InsertOp(store.insert.scalar, carried, [induction_var])
        element.result.name_hint = "iter_vector"
        # The tensor iter arg now passes through unchanged; the vector carries the data.
        rewriter.replace(store.insert, element, [store.insert.dest])
        vectors.append(element.result)
    yield_op = block.last_op
    assert isinstance(yield_op, scf.YieldOp)
    rewriter.replace(yield_op, scf.YieldOp(*yield_op.arguments, *vectors))
    new_loop = scf.ForOp(
        loop.lb, loop.ub, loop.step, inits, rewriter.move_region_contents_to_new_regions(loop.body)
    )
    rewriter.insert(new_loop, InsertPoint.before(loop))
    # The new loop has one more result per store; the old ones keep their names.
    for new_result, old_result in zip(new_loop.results, loop.results, strict=False):
        new_result.name_hint = old_result.name_hint
    results: list[SSAValue] = list(new_loop.results[: len(loop.results)])
    after = InsertPoint.after(new_loop)
    carried_results = iter(new_loop.results[len(loop.results) :])
    for offset, store in enumerate(stores):
        base = _base_index(store.access, new_loop, rewriter)
        destination = loop.iter_args[store.iter_position]
        # `_vectorizable_store` only accepts a store into a 1-d tensor iter arg.
        assert isinstance(destination.type, TensorType)
        stored = forwarded[offset] if offset in forwarded else next(carried_results)
        write = vector.TransferWriteOp(
            stored,
            destination,
            [base],
            _in_bounds(),
            permutation_map=_identity_1d(),
            result_type=destination.type,
        )
        rewriter.insert(write, after)
        after = InsertPoint.after(write)
        assert write.result is not None
        results[store.iter_position] = write.result
    rewriter.replace(loop, (), results)


def _forwarded_vector(store: _Store, loop: scf.ForOp) -> SSAValue | None:
    """The vector (of the stored vector's type, from outside the loop) whose element at the
    induction variable the store writes, if it writes one: then the loop copies it whole."""
    extract = store.insert.scalar.owner
    induction_var = loop.body.block.args[0]
    if not isinstance(extract, vector.ExtractOp) or extract.parent_op() is not loop:
        return None
    if list(extract.dynamic_position) != [induction_var]:
        return None
    source = extract.vector
    if source.type != store.vector_type:
        return None
    if isinstance(source.owner, vector.TransferReadOp) and source.owner.parent_op() is loop:
        return None
    return source if defined_outside(source, loop) else None


class VectorizeLoop(RewritePattern):
    """Vectorizes the eligible loads and stores directly in one `scf.for` body."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter) -> None:
        bounds = static_bounds(op)
        if bounds is None or bounds.lower != 0 or bounds.step != 1:
            return
        trip_count = bounds.trip_count
        if not MIN_TRIP_COUNT <= trip_count <= MAX_TRIP_COUNT or trip_count & (trip_count - 1):
            return
        body_ops = list(op.body.block.ops)
        for inner in body_ops:
            if isinstance(inner, tensor.ExtractOp):
                _vectorize_load(inner, op, trip_count, rewriter)
        stores = [
            store
            for inner in body_ops
            if isinstance(inner, tensor.InsertOp)
            and (store := _vectorizable_store(inner, op, trip_count)) is not None
        ]
        if stores:
            _vectorize_stores(stores, op, rewriter)


@dataclass(frozen=True)
class VectorizeLoadsStoresPass(ModulePass):
    """Turns contiguous aligned `tensor.extract`/`insert` in small loops into vector
    transfers (XLA's `xla-vectorize-loads-stores`).

    Options:
    - greedy-cleanup (bool, default true): fold as XLA's greedy driver does (constants
      merged at the function's start, the scalar index computations left
      unused erased); false keeps the seed's listing form.
    """

    name = "xla-vectorize-loads-stores"

    greedy_cleanup: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(VectorizeLoop(), apply_recursively=False).rewrite_module(op)
        if self.greedy_cleanup:
            finish_like_greedy_driver(ctx, op)
