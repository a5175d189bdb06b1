"""`xla-lower-xla-to-scf`: predicated tensor accesses, warp shuffles and indexed-vector inserts.

    %r = xla.predicated_insert %v into %t[%i] if %c : tensor<8xf32>
      ->  %r = scf.if %c -> (tensor<8xf32>) { tensor.insert ... } else { scf.yield %t }

    %r = xla.predicated_extract %t[%i] if %c else %fb : tensor<8xf32>
      ->  %r = scf.if %c -> (f32) { tensor.extract ... } else { scf.yield %fb }

    %r:2 = xla_gpu.shuffle_reduce(%a, %b) to 2 combiner=@f : f32, i64
      ->  %a2, %v = gpu.shuffle down %a, %c2_i32, %c32_i32 : f32
          %b2 = <i64 as two i32 chunks, each shuffled down by 2, put back together>
          %s:2 = xla.pure_call @f(%a, %b, %a2, %b2) : (f32, i64, f32, i64) -> (f32, i64)
          ... the same at distance 1 on %s#0, %s#1 ...

    %r = xla_gpu.insert %v(%th) into %t at #m : !xla_gpu.indexed_vector<...> -> tensor<...>
      ->  %vec = builtin.unrealized_conversion_cast %v : ... to vector<N x T>
          %r = xla.loop (%th)[%i] -> (%ra) in <the indexed vector's map> iter_args(%it = %t) {
            %x = vector.extract %vec[%i]; %idx = xla.apply_indexing #m(%ra)
            tensor.insert %x into %it[%idx] ...
          }

`gpu.shuffle` moves 32 bits, so `shuffle_reduce` shuffles each value the way
XLA does: a 32-bit value as it is; a narrower one bitcast to an integer and
zero-extended to i32 (truncated and bitcast back afterwards); a wider one
bitcast to an integer, zero-extended to a multiple of 32 bits and split into
i32 chunks through a one-element vector (`vector.bitcast` to `vector<Nxi32>`),
one shuffle per chunk. Complex values shuffle their real and imaginary parts;
unsigned integers go through a signless cast. The shuffle width is the warp
size (option `warp-size`, XLA's default 32).

Created `xla` ops are in the internal form (`xla.loop`, `xla.pure_call`);
printers respell them (see `dialects.xla`).

`xla.loop` itself is lowered by `xla-lower-xla-loops-to-scf` (XLA runs the
inliner and loop peeling in between). `xla.atomic_rmw` is kept: XLA lowers it
only when tensors become pointers, and an extract/insert pair would lose its
atomicity.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf, tensor, vector
from xdsl.dialects.builtin import (
    AnyFloat,
    ComplexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    UnrealizedConversionCastOp,
    VectorType,
    i32,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import PassFailedException
from xdsl.utils.hints import isa
from xla_emit.dialects.gpu import ShuffleMode, ShuffleOp
from xla_emit.dialects.vector_ext import FromElementsOp
from xla_emit.dialects.xla import (
    IndexingMapAttr,
    LoopOp,
    LoopOpBase,
    PredicatedExtractOp,
    PredicatedInsertOp,
    YieldOp,
    make_apply_indexing,
    make_pure_call,
)
from xla_emit.dialects.xla_gpu import IndexedVectorType, InsertOp, ShuffleReduceOp
from xla_emit.passes.diagnostics import OpError
from xla_emit.passes.loop_utils import index_constant

# gpu.shuffle moves this many bits per lane.
_SHUFFLE_BITS = 32


def _run_if(condition: SSAValue, op: Operation, otherwise: SSAValue) -> scf.IfOp:
    """`scf.if` yielding `op`'s single result when `condition` holds, else `otherwise`."""
    (result,) = op.results
    return scf.IfOp(
        condition,
        [result.type],
        Region(Block([op, scf.YieldOp(result)])),
        Region(Block([scf.YieldOp(otherwise)])),
    )


class LowerPredicatedInsert(RewritePattern):
    """`predicated_insert` -> `scf.if` that inserts or yields the destination unchanged."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: PredicatedInsertOp, rewriter: PatternRewriter) -> None:
        insert = tensor.InsertOp(op.value, op.dest, op.indices)
        rewriter.replace(op, _run_if(op.condition, insert, op.dest))


class LowerPredicatedExtract(RewritePattern):
    """`predicated_extract` -> `scf.if` that extracts or yields the fallback."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: PredicatedExtractOp, rewriter: PatternRewriter) -> None:
        extract = tensor.ExtractOp(op.src, op.indices, op.result.type)
        rewriter.replace(op, _run_if(op.condition, extract, op.fallback))


# ----------------------------------------------------------------------------
# shuffle_reduce
# ----------------------------------------------------------------------------


@dataclass
class _Shuffler:
    """Emits `gpu.shuffle down` of any scalar by `distance`, before `where`."""

    rewriter: PatternRewriter
    where: InsertPoint
    distance: SSAValue
    width: SSAValue

    def emit(self, op: Operation) -> SSAValue:
        self.rewriter.insert(op, self.where)
        return op.results[0]

    def shuffle(self, value: SSAValue) -> SSAValue:
        type_ = value.type
        if isinstance(type_, ComplexType):
            # Imported here: only complex kernels need the dialect, and it is slow to import.
            from xdsl.dialects import complex

            real = self.shuffle_bits(self.emit(complex.ReOp(value)))
            imaginary = self.shuffle_bits(self.emit(complex.ImOp(value)))
            return self.emit(complex.CreateOp(real, imaginary, type_))
        if isinstance(type_, IntegerType) and type_.signedness.data != Signedness.SIGNLESS:
            # arith works on signless integers only; the cast changes no bits.
            signless = IntegerType(type_.width.data)
            cast = UnrealizedConversionCastOp.get([value], [signless])
            shuffled = self.shuffle_bits(self.emit(cast))
            return self.emit(UnrealizedConversionCastOp.get([shuffled], [type_]))
        return self.shuffle_bits(value)

    def shuffle_bits(self, value: SSAValue) -> SSAValue:
        """Shuffles a signless integer or a float, in 32-bit chunks."""
        type_ = value.type
        width = _bit_width(type_)
        assert width is not None, "_check_shuffle_reduce admits integers and floats only"
        if width == _SHUFFLE_BITS:
            return self.shuffle_32(value)
        chunks = -(-width // _SHUFFLE_BITS)
        integer = IntegerType(width)
        padded = IntegerType(chunks * _SHUFFLE_BITS)
        bits = value if type_ == integer else self.emit(arith.BitcastOp(value, integer))
        if padded != integer:
            bits = self.emit(arith.ExtUIOp(bits, padded))
        bits = self.shuffle_32(bits) if chunks == 1 else self.shuffle_chunks(bits, chunks)
        if padded != integer:
            bits = self.emit(arith.TruncIOp(bits, integer))
        return bits if type_ == integer else self.emit(arith.BitcastOp(bits, type_))

    def shuffle_chunks(self, bits: SSAValue, chunks: int) -> SSAValue:
        """A wide integer as a one-element vector, bitcast to i32 chunks, each shuffled."""
        wide_vector = VectorType(bits.type, [1])
        chunk_vector = VectorType(i32, [chunks])
        packed = self.emit(FromElementsOp([bits], wide_vector))
        split = self.emit(vector.BitcastOp(packed, chunk_vector))
        shuffled = [
            self.shuffle_32(self.emit(vector.ExtractOp(split, [position], i32)))
            for position in range(chunks)
        ]
        joined = self.emit(FromElementsOp(shuffled, chunk_vector))
        repacked = self.emit(vector.BitcastOp(joined, wide_vector))
        return self.emit(vector.ExtractOp(repacked, [0], bits.type))

    def shuffle_32(self, value: SSAValue) -> SSAValue:
        shuffle = ShuffleOp(ShuffleMode.DOWN, value, self.distance, self.width)
        # MLIR's result names for gpu.shuffle.
        shuffle.result.name_hint = "shuffleResult"
        shuffle.valid.name_hint = "valid"
        return self.emit(shuffle)


def _bit_width(type_: Attribute) -> int | None:
    if isinstance(type_, IntegerType):
        return type_.width.data
    if isa(type_, AnyFloat):
        return type_.bitwidth
    return None


def _i32_constant(rewriter: PatternRewriter, value: int, where: InsertPoint) -> SSAValue:
    """`arith.constant value : i32`, named like MLIR's `%c16_i32`."""
    const = arith.ConstantOp(IntegerAttr(value, i32))
    const.result.name_hint = f"c{value}_i32"
    rewriter.insert(const, where)
    return const.result


@dataclass(frozen=True)
class LowerShuffleReduce(RewritePattern):
    """`shuffle_reduce` -> per distance, a shuffle of every value and a call of the combiner."""

    warp_size: int

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ShuffleReduceOp, rewriter: PatternRewriter) -> None:
        where = InsertPoint.before(op)
        width = _i32_constant(rewriter, self.warp_size, where)
        types = [value.type for value in op.values]
        values: Sequence[SSAValue] = list(op.values)
        distance = op.max_distance.value.data
        while distance > 0:
            shuffler = _Shuffler(rewriter, where, _i32_constant(rewriter, distance, where), width)
            shuffled = [shuffler.shuffle(value) for value in values]
            call = make_pure_call(op.combiner, [*values, *shuffled], types)
            rewriter.insert(call, where)
            values = call.results
            distance //= 2
        rewriter.replace(op, (), list(values))


# ----------------------------------------------------------------------------
# insert of an indexed vector
# ----------------------------------------------------------------------------


def _thread_vector_type(indexed: IndexedVectorType) -> VectorType[Attribute]:
    """What one thread holds: one element per point of the map's range variables.

    A complex element becomes a leading dimension of 2 (real, imaginary).
    """
    element = indexed.element_type
    shape: list[int] = []
    if isinstance(element, ComplexType):
        shape.append(2)
        element = element.element_type
    shape += [variable.bounds.size for variable in indexed.indexing_map.range_vars]
    return VectorType(element, shape)


class LowerInsert(RewritePattern):
    """`xla_gpu.insert` -> an `xla.loop` over the indexed vector's map that inserts each element."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: InsertOp, rewriter: PatternRewriter) -> None:
        source_type = op.source.type
        assert isinstance(source_type, IndexedVectorType), "the operand constraint says so"
        where = InsertPoint.before(op)
        thread_vector = rewriter.insert(
            UnrealizedConversionCastOp.get([op.source], [_thread_vector_type(source_type)]),
            where,
        ).results[0]
        loop = LoopOp(IndexingMapAttr.from_map(source_type.indexing_map), op.indices, [op.dest])
        _name_loop_arguments(loop)
        body = InsertPoint.at_end(loop.body.block)
        positions = _vector_positions(rewriter, loop, source_type, body)
        element = _element_at(rewriter, thread_vector, positions, source_type.element_type, body)
        # apply_indexing takes no constraints: the loop's domain already holds them.
        insert_map = dataclasses.replace(op.map.indexing_map, constraints=())
        indices = rewriter.insert(make_apply_indexing(insert_map, loop.map_results), body).results
        inserted = rewriter.insert(
            tensor.InsertOp(element, loop.region_iter_args[-1], list(indices)), body
        )
        rewriter.insert(YieldOp([inserted.result]), body)
        rewriter.insert(loop, where)
        rewriter.replace(op, (), list(loop.results))


def _name_loop_arguments(loop: LoopOpBase) -> None:
    """XLA's default names: `%i %j ...` for induction variables, `%ra %rb ...` for map results."""
    for position, induction_var in enumerate(loop.induction_vars):
        induction_var.name_hint = chr(ord("i") + position)
    for position, map_result in enumerate(loop.map_results):
        map_result.name_hint = "r" + chr(ord("a") + position)
    for iter_arg in loop.region_iter_args:
        iter_arg.name_hint = "iter"


def _vector_positions(
    rewriter: PatternRewriter,
    loop: LoopOpBase,
    source_type: IndexedVectorType,
    where: InsertPoint,
) -> list[SSAValue]:
    """The element's position in the thread's vector: each induction variable minus its lower
    bound (XLA's emitters start range variables at 0, where this is the variable itself)."""
    positions: list[SSAValue] = []
    for induction_var, variable in zip(
        loop.induction_vars, source_type.indexing_map.range_vars, strict=True
    ):
        if variable.bounds.lower == 0:
            positions.append(induction_var)
            continue
        lower = index_constant(rewriter, variable.bounds.lower, where)
        positions.append(rewriter.insert(arith.SubiOp(induction_var, lower), where).result)
    return positions


def _element_at(
    rewriter: PatternRewriter,
    thread_vector: SSAValue,
    positions: list[SSAValue],
    element_type: Attribute,
    where: InsertPoint,
) -> SSAValue:
    """The indexed vector's element at `positions` (a complex one rebuilt from its two parts)."""
    if not isinstance(element_type, ComplexType):
        extract = vector.ExtractOp(thread_vector, positions, element_type)
        return rewriter.insert(extract, where).result
    from xdsl.dialects import complex  # only complex kernels need it (see `shuffle`)

    parts: list[SSAValue] = []
    for part in (0, 1):  # real, imaginary
        extract = vector.ExtractOp(thread_vector, [part, *positions], element_type.element_type)
        parts.append(rewriter.insert(extract, where).result)
    return rewriter.insert(complex.CreateOp(parts[0], parts[1], element_type), where).complex


@dataclass(frozen=True)
class LowerXlaToScfPass(ModulePass):
    """Lowers `xla.predicated_insert`/`xla.predicated_extract` to `scf.if`,
    `xla_gpu.shuffle_reduce` to `gpu.shuffle down` plus `pure_call`s of the
    combiner, and `xla_gpu.insert` to an `xla.loop`.

    Option `warp-size` (default 32, as XLA's): the width of the shuffles; the
    distances of a `shuffle_reduce` must stay below it.
    """

    name = "xla-lower-xla-to-scf"

    warp_size: int = 32

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.warp_size <= 0 or self.warp_size & (self.warp_size - 1):
            raise PassFailedException(f"warp-size must be a power of 2, but got {self.warp_size}")
        for shuffle_reduce in op.walk():
            if isinstance(shuffle_reduce, ShuffleReduceOp):
                _check_shuffle_reduce(shuffle_reduce, self.warp_size)
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    LowerPredicatedInsert(),
                    LowerPredicatedExtract(),
                    LowerShuffleReduce(self.warp_size),
                    LowerInsert(),
                ]
            ),
            apply_recursively=True,
        ).rewrite_module(op)


def _check_shuffle_reduce(op: ShuffleReduceOp, warp_size: int) -> None:
    """The lowering applies: distances within a warp (as XLA checks), values of shufflable types.

    Checked before any rewrite, so that a rejected module is left as it was.
    """
    if op.max_distance.value.data >= warp_size:
        raise OpError(
            op,
            f"max_distance {op.max_distance.value.data} must be a power of 2 below "
            f"the warp size {warp_size}",
        )
    for value in op.values:
        type_ = value.type
        # complex.re/im take complex numbers of floats only.
        shufflable = (
            isa(type_.element_type, AnyFloat)
            if isinstance(type_, ComplexType)
            else _bit_width(type_) is not None
        )
        if not shufflable:
            raise OpError(
                op,
                f"cannot shuffle a value of type {type_}: only integers, floats and "
                "complex numbers of floats can be shuffled",
            )
