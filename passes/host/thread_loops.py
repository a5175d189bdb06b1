"""`xla-host-thread-loops`: a kernel's threads as loops, split at barriers and shuffles.

The native CPU engine runs a GPU kernel one block per call. This pass turns an
entry function (`xla.entry`) into that form, as CPU runtimes for GPU kernels do
(loop fission at the barriers):

* the function's top-level ops are cut into segments at every barrier
  (`xla_gpu.sync_threads`, `gpu.barrier`) and shuffle (`gpu.shuffle`); each
  segment becomes an `scf.for` over the block's threads (linear id, x
  fastest), in which `gpu.thread_id` is computed from the loop counter;
* a segment whose loads of a kernel input read, over the block's threads, stretches
  of memory apart (a reduction's thread reads elements a block's width apart) is
  cut before each load that starts another stretch: each loop then reads memory in
  order, which the CPU's prefetchers follow (`_Streams`);
* ops that do not depend on the thread (constants, block ids and arithmetic
  on them) are computed once, before the loops;
* a value computed from the thread id alone (`arith` on the ids and on uniform
  values, such as a lane `tid % 32`) is computed again in each segment that
  reads it: a lookup in a buffer would hide from LLVM that it is affine in
  the loop counter;
* any other per-thread value defined in one segment and used in a later one is kept
  per thread: stored into a buffer of one element per thread at the end of its
  segment, loaded back at the start of each user's segment;
* a shuffle reads the other lane's value from that buffer, with the
  interpreter's rule (`xla_emit/interpreter/gpu.py`): 32-lane warps, `width`
  segments, a lane whose source lies outside reads its own value; a `down`
  shuffle by a constant offset (a reduction's) reads two unit-stride slots,
  `thread + offset` and `thread`, and selects one, so LLVM vectorizes it with
  plain loads instead of a gather (its buffer has a warp's slots of padding,
  so `thread + offset` stays inside);
* a loop whose body divides `base + thread` by a row length that ends rows inside
  the block runs as two loops split where the row ends (`split_at_row_end`); a loop
  whose body splits the thread into lane and group, or branches on the lane, runs as
  two nested loops (`nest_lanes`), the loop over groups marked not to be loop-vectorized where only
  lane 0 writes; a kernel cut into stretches asks LLVM for 256-bit vectors;
* shared memory (`xla_gpu.allocate_shared`) and those per-thread buffers are
  new trailing arguments of the kernel marked `xla.host_scratch`: the caller
  gives each block (or each worker running blocks) its own.

The order of operations of each thread is unchanged, so results are the
interpreter's bit for bit. A barrier or shuffle nested in a loop or branch is
an error at that op (XLA's emitters put them at the top level).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from math import prod

from xdsl.context import Context
from xdsl.dialects import arith, func, scf, tensor, ub, vector
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    BoolAttr,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    ModuleOp,
    TensorType,
    UnitAttr,
    VectorType,
    i64,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xla_emit.dialects.gpu import BarrierOp, BlockIdOp, ShuffleMode, ShuffleOp, ThreadIdOp
from xla_emit.dialects.xla import get_xla_range
from xla_emit.dialects.xla_gpu import WARP_SIZE, AllocateSharedOp, SyncThreadsOp
from xla_emit.passes.diagnostics import OpError
from xla_emit.passes.gpu.lower_to_llvm import HOST_VECTOR_BITS, NO_LOOP_VECTORIZE

# Marks a kernel argument the caller allocates per block: shared memory, per-thread values.
SCRATCH = "xla.host_scratch"
SPLITS = (ShuffleOp, SyncThreadsOp, BarrierOp)
# Ops without memory effects computed once per block when their operands are.
_UNIFORM_DIALECTS = ("arith", "math", "ub")
_UNIFORM_VECTOR_OPS = (vector.BroadcastOp, vector.ExtractOp, vector.InsertOp)
IN_BOUNDS = ArrayAttr([BoolAttr.from_bool(True)])
IDENTITY_1D = AffineMap.identity(1)


@dataclass(frozen=True)
class HostThreadLoopsPass(ModulePass):
    name = "xla-host-thread-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in [f for f in op.ops if isinstance(f, func.FuncOp)]:
            if "xla.entry" in function.attributes and function.body.blocks.first is not None:
                split_function(function)


def block_extent(function: func.FuncOp) -> tuple[int, int, int]:
    """Threads per block in x, y, z: one past the largest id each `gpu.thread_id` reads."""
    extent = [1, 1, 1]
    for op in function.walk():
        if isinstance(op, ThreadIdOp):
            interval = get_xla_range(op)
            if interval is None:
                raise OpError(op, "xla-host-thread-loops: a thread id without an xla.range")
            dim = "xyz".index(str(op.dimension.data))
            extent[dim] = max(extent[dim], interval.upper + 1)
    return (extent[0], extent[1], extent[2])


def split_function(function: func.FuncOp) -> None:
    if not any(isinstance(op, ThreadIdOp | AllocateSharedOp) for op in function.walk()):
        return
    body = function.body.block
    for op in function.walk():
        if isinstance(op, (*SPLITS, AllocateSharedOp)) and op.parent_op() is not function:
            raise OpError(
                op, f"xla-host-thread-loops: '{op.name}' inside a loop or branch is not split"
            )
    splitter = _Splitter(function, block_extent(function))
    for op in list(body.ops):
        if isinstance(op, AllocateSharedOp):
            op.result.replace_all_uses_with(splitter.add_scratch(op.result.type))
            Rewriter.erase_op(op)
    splitter.run()


@dataclass
class _Segment:
    ops: list[Operation] = field(default_factory=list[Operation])

    def defines(self, value: SSAValue) -> bool:
        return isinstance(value, OpResult) and value.op in self.ops

    def only_splits(self) -> bool:
        return all(isinstance(op, SPLITS) for op in self.ops)


@dataclass
class _Splitter:
    function: func.FuncOp
    extent: tuple[int, int, int]
    # The latest version, outside the loops, of each buffer (a tensor argument).
    current: dict[SSAValue, SSAValue] = field(default_factory=dict[SSAValue, SSAValue])
    roots: dict[SSAValue, SSAValue] = field(default_factory=dict[SSAValue, SSAValue])
    # Per-thread value -> the buffer that keeps it for later segments.
    spills: dict[SSAValue, SSAValue] = field(default_factory=dict[SSAValue, SSAValue])
    # Values computed from the thread ids alone: each segment computes its own copy.
    derived: set[SSAValue] = field(default_factory=set[SSAValue])
    # A loop's id or computed-again value -> the value it stands for (a `gpu.thread_id`,
    # one of `derived`): ops moved into a loop read that loop's values.
    origin: dict[SSAValue, SSAValue] = field(default_factory=dict[SSAValue, SSAValue])
    # A shuffle's result -> what its loop computes for it. A later segment that reads the
    # result loads it from its buffer; the shuffle waits, detached, in `left` till then.
    shuffled: dict[SSAValue, SSAValue] = field(default_factory=dict[SSAValue, SSAValue])
    left: list[ShuffleOp] = field(default_factory=list[ShuffleOp])

    @property
    def threads(self) -> int:
        return prod(self.extent)

    def add_scratch(self, tensor_type: Attribute) -> SSAValue:
        body = self.function.body.block
        arg = body.insert_arg(tensor_type, len(body.args))
        function_type = self.function.function_type
        self.function.function_type = FunctionType.from_lists(
            [*function_type.inputs.data, tensor_type], list(function_type.outputs.data)
        )
        given = self.function.arg_attrs.data if self.function.arg_attrs is not None else ()
        attrs = [given[i] if i < len(given) else DictionaryAttr({}) for i in range(arg.index)]
        self.function.arg_attrs = ArrayAttr([*attrs, DictionaryAttr({SCRATCH: UnitAttr()})])
        self.current[arg] = arg
        return arg

    def run(self) -> None:
        body = self.function.body.block
        terminator = body.last_op
        assert terminator is not None
        uniform: set[SSAValue] = set(self.function.args)
        thread_ids: list[ThreadIdOp] = []
        segments = [_Segment()]
        for op in list(body.ops):
            if op is terminator:
                continue
            if isinstance(op, ThreadIdOp):
                thread_ids.append(op)
                self.derived.add(op.result)
            elif is_uniform(op, uniform):
                uniform.update(op.results)
            else:
                if is_thread_derived(op, uniform, self.derived):
                    self.derived.update(op.results)
                if starts_segment(op, segments[-1]):
                    segments.append(_Segment())
                segments[-1].ops.append(op)
        segments = [s for s in segments if s.ops]
        streams = _Streams(self.function, {op.result for op in thread_ids}, uniform)
        pieces = [piece for s in segments for piece in streams.cut(s, self.threads)]
        if len(pieces) > len(segments):
            # Values kept per thread between the stretches' loops are stored by one loop
            # and loaded by the next: with 512-bit vectors the row sum f32[1024,4096] ran
            # 1.4-1.7x slower than with 256-bit ones on AMD Zen 4 (the exp and row
            # maximum kernels, without such loops, run faster at 512).
            self.function.attributes[HOST_VECTOR_BITS] = IntegerAttr(256, i64)
        segments = pieces
        for arg in self.function.args:
            if isinstance(arg.type, TensorType):
                self.current.setdefault(arg, arg)
        self.find_roots(segments)
        owner = {
            result: index
            for index, segment in enumerate(segments)
            for op in segment.ops
            for result in op.results
            if not isinstance(result.type, TensorType)
        }
        crossing = self.crossing_values(segments, owner, uniform)
        shifted = shifted_values(segments)
        for value in crossing:
            padding = WARP_SIZE if value in shifted else 0
            self.spills[value] = self.add_scratch(spill_type(value, self.threads + padding))
        insert = InsertPoint.before(terminator)
        loops: list[scf.ForOp] = []
        for index, segment in enumerate(segments):
            stored = [v for v in crossing if owner.get(v) == index]
            loop = self.thread_loop(segment, stored, thread_ids, owner, index)
            zero, one = (arith.ConstantOp.from_int_and_width(n, IndexType()) for n in (0, 1))
            count = arith.ConstantOp.from_int_and_width(self.threads, IndexType())
            loop_op = scf.ForOp(zero, count, one, loop.inits, loop.block)
            Rewriter.insert_op([zero, one, count, loop_op], insert)
            loops.append(loop_op)
            for root, result in zip(loop.carried, loop_op.results, strict=True):
                self.current[root] = result
        for op in thread_ids:
            if op.result.uses:
                raise OpError(op, "xla-host-thread-loops: a thread id used outside the loops")
            Rewriter.erase_op(op)
        for shuffle in self.left:
            shuffle.erase()
        for i, operand in enumerate(terminator.operands):
            if isinstance(operand.type, TensorType):
                terminator.operands[i] = self.current[self.roots[operand]]
        # Once every segment has computed again what it reads from the ops of earlier
        # loops (`recompute`), which must still see the thread as one counter.
        for loop_op in loops:
            if not nest_lanes(loop_op, self.threads):
                split_at_row_end(loop_op, self.threads)

    def find_roots(self, segments: list[_Segment]) -> None:
        for arg in self.function.args:
            self.roots[arg] = arg
        for segment in segments:
            for op in segment.ops:
                for result in op.results:
                    if isinstance(result.type, TensorType):
                        self.roots[result] = self.root_of(result)

    def root_of(self, value: SSAValue) -> SSAValue:
        """The kernel argument a tensor value is a version of."""
        if value in self.roots:
            return self.roots[value]
        if isinstance(value, BlockArgument):
            parent = value.block.parent_op()
            if isinstance(parent, scf.ForOp) and value.index > 0:
                return self.root_of(parent.iter_args[value.index - 1])
        elif isinstance(value, OpResult):
            op = value.op
            if isinstance(op, tensor.InsertOp):
                return self.root_of(op.dest)
            if isinstance(op, vector.TransferWriteOp):
                return self.root_of(op.source)
            if isinstance(op, SyncThreadsOp):
                return self.root_of(op.tensors[value.index])
            if isinstance(op, scf.ForOp):
                return self.root_of(op.iter_args[value.index])
            if isinstance(op, scf.IfOp):
                yielded = op.true_region.block.last_op
                assert yielded is not None
                return self.root_of(yielded.operands[value.index])
        owner = value.op if isinstance(value, OpResult) else self.function
        raise OpError(owner, "xla-host-thread-loops: a tensor that is no kernel buffer")

    def recompute(self, value: SSAValue, known: dict[SSAValue, SSAValue], block: Block) -> SSAValue:
        """`value` (derived from the thread ids) computed again at the end of `block`, from
        the values in `known` (this loop's ids, what was computed again before); uniform
        operands are read as they are (computed before the loops)."""
        while value in self.origin:
            value = self.origin[value]
        if value in known:
            return known[value]
        if value not in self.derived or not isinstance(value, OpResult):
            return value
        op = value.op
        operands = [self.recompute(v, known, block) for v in op.operands]
        copy = op.clone()
        for i, operand in enumerate(operands):
            copy.operands[i] = operand
        block.add_op(copy)
        for old, new in zip(op.results, copy.results, strict=True):
            known[old] = new
            self.origin[new] = old
        return known[value]

    def crossing_values(
        self, segments: list[_Segment], owner: dict[SSAValue, int], uniform: set[SSAValue]
    ) -> list[SSAValue]:
        """Per-thread values a later segment reads (its own lane's, or a shuffle's source)."""
        crossing: dict[SSAValue, None] = {}
        for index, segment in enumerate(segments):
            for op in segment.ops:
                for inner in op.walk():
                    for value in inner.operands:
                        if value in owner and owner[value] != index and value not in self.derived:
                            crossing[value] = None
                if isinstance(op, ShuffleOp) and op.value not in uniform:
                    if op.value not in owner:
                        raise OpError(op, "xla-host-thread-loops: shuffles a thread id")
                    crossing[op.value] = None
        return list(crossing)

    def thread_loop(
        self,
        segment: _Segment,
        stored: list[SSAValue],
        thread_ids: list[ThreadIdOp],
        owner: dict[SSAValue, int],
        index: int,
    ) -> _Loop:
        carried = list(
            dict.fromkeys(
                [
                    self.roots[r]
                    for op in segment.ops
                    for r in op.results
                    if isinstance(r.type, TensorType)
                ]
                + [self.spills[v] for v in stored]
            )
        )
        block = Block(arg_types=[IndexType(), *(r.type for r in carried)])
        thread = block.args[0]
        version = dict(zip(carried, block.args[1:], strict=True))
        at_start = {root: version.get(root, self.current[root]) for root in self.current}
        ids = thread_id_values(thread, self.extent, block)
        for op in thread_ids:
            op.result.replace_uses_with_if(
                ids[str(op.dimension.data)], lambda use: segment_of(use.operation, segment)
            )
        loaded: dict[SSAValue, SSAValue] = {}
        thread_id_map = {op.result: ids[str(op.dimension.data)] for op in thread_ids}
        for op in thread_ids:
            self.origin[ids[str(op.dimension.data)]] = op.result
        for op in segment.ops:
            for inner in op.walk():
                for i, value in enumerate(inner.operands):
                    if isinstance(inner, ShuffleOp) and i == 0:
                        continue  # read at the source lane, not this one
                    if isinstance(value.type, TensorType) and not segment.defines(value):
                        if value not in self.roots:
                            continue  # defined in a nested region of this segment
                        inner.operands[i] = at_start[self.roots[value]]
                    elif value in owner and owner[value] != index:
                        if value not in loaded:
                            loaded[value] = (
                                load_value(at_start[self.spills[value]], thread, block, value)
                                if value in self.spills
                                else self.recompute(value, thread_id_map, block)
                            )
                        inner.operands[i] = loaded[value]
        for op in segment.ops:
            op.detach()
            if isinstance(op, ShuffleOp):
                self.shuffle(op, thread, block, at_start, segment)
                continue
            if isinstance(op, SyncThreadsOp | BarrierOp):
                # The loop's end is the barrier: the buffers go on as they are.
                # Later segments read the buffer itself (their loops' current version).
                for result, operand in zip(op.results, op.operands, strict=True):
                    result.replace_uses_with_if(
                        operand, lambda use: segment_of(use.operation, segment)
                    )
                    result.replace_all_uses_with(self.roots[result])
                op.erase()
                continue
            block.add_op(op)
            for result in op.results:
                if isinstance(result.type, TensorType):
                    version[self.roots[result]] = result
        for value in stored:
            spill = self.spills[value]
            kept = self.shuffled.get(value, value)
            version[spill] = store_value(kept, version[spill], thread, block)
        block.add_op(scf.YieldOp(*(version[r] for r in carried)))
        return _Loop(block, carried, [self.current[r] for r in carried])

    def shuffle(
        self,
        op: ShuffleOp,
        thread: SSAValue,
        block: Block,
        at_start: dict[SSAValue, SSAValue],
        segment: _Segment,
    ) -> None:
        """The shuffle's result read from the source lane's slot of its value's buffer."""
        if isinstance(op.value.type, VectorType | TensorType):
            raise OpError(op, "xla-host-thread-loops: only scalars are shuffled")
        ops, source, valid = shuffle_source(op.mode.data, thread, op.offset, op.width, self.threads)
        for new in ops:
            block.add_op(new)
        valid = simpler_down_valid(op, thread, self.threads, block) or valid
        result = op.value
        if op.value in self.spills:
            spill = at_start[self.spills[op.value]]
            offset = constant_down_offset(op)
            if offset is None:
                result = load_value(spill, source, block, op.value)
            else:
                result = read_shifted(spill, thread, offset, valid, block, op.value)
        op.valid.replace_all_uses_with(valid)
        # Uses in later segments (a complex value's real part shuffled, then its imaginary
        # part computed and shuffled in the next loop) read the result's buffer instead.
        op.result.replace_uses_with_if(result, lambda use: segment_of(use.operation, segment))
        self.shuffled[op.result] = result
        if op.result.uses:
            self.left.append(op)
        else:
            op.erase()


# An address as an affine form: SSA value (uniform, or the thread id) or _CONSTANT -> factor.
_CONSTANT = "constant"
_THREAD = "thread"


@dataclass
class _Streams:
    """Cuts a segment where its threads' loads move to another stretch of memory.

    A reduction's thread reads elements far apart (the row sum's thread t reads
    2t, 2t + 1, 2t + 512, ...): a loop over the threads that runs each thread's
    loads in turn reads as many streams of memory at once, each a few cache lines
    long, which the CPU's prefetchers follow badly. Cut before each load whose
    addresses over the block's threads lie apart from those of the piece's loads
    of the same buffer, each piece is a loop reading one stretch of memory in order
    (a loop interchange; the values between the pieces are kept per thread, as at a
    barrier). Each thread's operations keep their order.
    """

    function: func.FuncOp
    thread: set[SSAValue]
    uniform: set[SSAValue]

    def cut(self, segment: _Segment, threads: int) -> list[_Segment]:
        pieces = [_Segment()]
        loads: list[tuple[tuple[object, ...], int]] = []
        for op in segment.ops:
            form = self.load_address(op)
            if form is not None:
                key, offset, stride = form
                # The addresses of a load over the block: offset + stride * [0, threads).
                span = stride * (threads - 1)
                same = [o for k, o in loads if k == key]
                if same and all(abs(offset - o) > span for o in same):
                    pieces.append(_Segment())
                    loads = []
                loads.append((key, offset))
            pieces[-1].ops.append(op)
        return [p for p in pieces if p.ops]

    def load_address(self, op: Operation) -> tuple[tuple[object, ...], int, int] | None:
        """For a load of one element of a kernel input at an address affine in the thread
        id (factor > 0): what identifies its stream (the buffer, the address less its
        constant), the constant and the factor; None for any other op."""
        if not isinstance(op, tensor.ExtractOp) or len(op.indices) != 1:
            return None
        if (
            not isinstance(op.tensor, BlockArgument)
            or op.tensor.owner is not self.function.body.block
        ):
            return None
        form = self.affine(op.indices[0], 8)
        if form is None or form.get(_THREAD, 0) <= 0:
            return None
        offset = form.pop(_CONSTANT, 0)
        key = (op.tensor, *sorted(form.items(), key=lambda item: id(item[0])))
        return key, offset, form[_THREAD]

    def affine(self, value: SSAValue, depth: int) -> dict[object, int] | None:
        if value in self.thread:
            return {_THREAD: 1}
        constant = constant_index(value)
        if constant is not None:
            return {_CONSTANT: constant}
        if value in self.uniform:
            return {value: 1}
        owner = value.owner
        if depth == 0 or not isinstance(owner, arith.AddiOp | arith.MuliOp):
            return None
        lhs, rhs = self.affine(owner.lhs, depth - 1), self.affine(owner.rhs, depth - 1)
        if lhs is None or rhs is None:
            return None
        if isinstance(owner, arith.AddiOp):
            return {k: lhs.get(k, 0) + rhs.get(k, 0) for k in {*lhs, *rhs}}
        for scaled, factor in ((lhs, rhs), (rhs, lhs)):
            if set(factor) == {_CONSTANT}:
                return {k: v * factor[_CONSTANT] for k, v in scaled.items()}
        return None


def simpler_down_valid(
    op: ShuffleOp, thread: SSAValue, threads: int, block: Block
) -> SSAValue | None:
    """For a `down` shuffle by a constant offset within a constant width that divides the
    warp, in a block of whole warps: whether the source is valid as `thread % width <
    width - offset` (the segments of `width` lanes tile the block, so the source never
    lies past its end), which LLVM computes in fewer vector ops; None otherwise."""
    width = constant_index(op.width)
    if constant_down_offset(op) is None or width is None or width <= 0:
        return None
    if WARP_SIZE % width or threads % WARP_SIZE:
        return None
    offset = constant_index(op.offset)
    assert offset is not None
    width_index = arith.ConstantOp.from_int_and_width(width, IndexType())
    limit = arith.ConstantOp.from_int_and_width(max(width - offset, 0), IndexType())
    lane = arith.RemUIOp(thread, width_index)
    valid = arith.CmpiOp(lane, limit, "ult")
    block.add_ops([width_index, limit, lane, valid])
    return valid.result


def constant_down_offset(op: ShuffleOp) -> SSAValue | None:
    """The offset of a `down` shuffle by a constant in [0, 32) (its source lane lies at
    most a warp above its own), else None."""
    if op.mode.data is not ShuffleMode.DOWN or not isinstance(op.offset.owner, arith.ConstantOp):
        return None
    value = op.offset.owner.value
    if not isinstance(value, IntegerAttr) or not 0 <= value.value.data < WARP_SIZE:
        return None
    return op.offset


def shifted_values(segments: Sequence[_Segment]) -> set[SSAValue]:
    """Values a constant-offset `down` shuffle reads (their buffers get a warp of padding)."""
    return {
        op.value
        for segment in segments
        for op in segment.ops
        if isinstance(op, ShuffleOp) and constant_down_offset(op) is not None
    }


def read_shifted(
    spill: SSAValue,
    thread: SSAValue,
    offset: SSAValue,
    valid: SSAValue,
    block: Block,
    like: SSAValue,
) -> SSAValue:
    """A `down` shuffle's value: slot `thread + offset` where the source is valid, the
    thread's own slot where not; both reads unit-stride in the thread (the slot above the
    block's threads is padding, read and not used)."""
    offset_index = arith.IndexCastOp(offset, IndexType())
    source = arith.AddiOp(thread, offset_index)
    block.add_ops([offset_index, source])
    other = load_value(spill, source.result, block, like)
    own = load_value(spill, thread, block, like)
    chosen = arith.SelectOp(valid, other, own)
    block.add_op(chosen)
    return chosen.result


@dataclass
class _Loop:
    block: Block
    carried: list[SSAValue]
    inits: list[SSAValue]


def nest_lanes(loop_op: scf.ForOp, threads: int) -> bool:
    """Where the body of a loop over a block's threads splits the thread into lane and
    group (`thread % n`, `thread / n`, n dividing the block), two nested loops instead,
    the lane innermost: lane and group are then loop counters, and an address affine in
    them is unit-stride (or strided) in the inner loop, which LLVM vectorizes with plain
    loads instead of gathers."""
    lanes = lane_extent(loop_op.body.block, threads)
    if lanes is None:
        return False
    block = loop_op.body.detach_block(0)
    zero, one = loop_op.lb, loop_op.step
    groups = arith.ConstantOp.from_int_and_width(threads // lanes, IndexType())
    outer = Block(arg_types=[IndexType(), *(a.type for a in block.args[1:])])
    group = outer.args[0]
    lane = block.args[0]
    width = arith.ConstantOp.from_int_and_width(lanes, IndexType())
    base = arith.MuliOp(group, width)
    thread = arith.AddiOp(base, lane)
    lane.replace_uses_with_if(thread.result, lambda use: use.operation is not thread)
    assert block.first_op is not None
    block.insert_op_before(thread, block.first_op)
    split_thread_index(block, thread.result, lane, group, lanes)
    inner = scf.ForOp(zero, width, one, outer.args[1:], block)
    outer.add_ops([width, base, inner, scf.YieldOp(*inner.results)])
    nested = scf.ForOp(zero, groups, one, loop_op.iter_args, outer)
    if only_lane_zero_works(block, lane):
        # A warp's lane 0 combining its warp's values: across the groups the loop
        # vectorizer would gather (32 `vgatherdps` a block in the row sum); left alone,
        # each warp's tree is straight-line code the SLP vectorizer takes (10-20% of the
        # row sum's time).
        nested.attributes[NO_LOOP_VECTORIZE] = UnitAttr()
    Rewriter.replace_op(loop_op, [groups, nested])
    return True


def only_lane_zero_works(block: Block, lane: SSAValue) -> bool:
    """Whether the lane loop's body writes only under `if lane == 0`."""
    guarded = [
        op
        for op in block.ops
        if isinstance(op, scf.IfOp)
        and isinstance(op.cond.owner, arith.CmpiOp)
        and op.cond.owner.predicate.value.data == 0  # eq
        and {op.cond.owner.lhs, op.cond.owner.rhs} >= {lane}
        and any(constant_index(v) == 0 for v in op.cond.owner.operands)
    ]
    return bool(guarded) and not any(isinstance(op, tensor.InsertOp) for op in block.ops)


def split_at_row_end(loop_op: scf.ForOp, threads: int) -> None:
    """Where the body divides `base + thread` by a constant n no smaller than the block and
    not a multiple of it (a row of 1000 elements read by blocks of 128 threads: `row =
    (block * 128 + thread) / 1000`), two loops instead, split at the thread where the row
    ends: the quotient is the same for every thread of each loop, so LLVM vectorizes it at
    full width with one broadcast load instead of proving the quotient uniform only over
    groups of gcd(n, block) threads (8 for rows of 1000) or gathering.

        for t in [0, T): body(t, (base + t) / n)
      ->
        row = base / n; end = min(n - base % n, T)
        for t in [0, end): body(t, row)
        for t in [end, T): body(t, row + 1)
    """
    quotients = row_quotients(loop_op.body.block, threads)
    if not quotients:
        return
    base, rows = quotients[0][0], quotients[0][1]
    row = arith.DivUIOp(base, rows)
    offset = arith.RemUIOp(base, rows)
    left = arith.SubiOp(rows, offset)
    end = arith.MinUIOp(left, loop_op.ub)
    one = arith.ConstantOp.from_int_and_width(1, IndexType())
    next_row = arith.AddiOp(row, one)
    Rewriter.insert_op([row, offset, left, end, one, next_row], InsertPoint.before(loop_op))
    rest = loop_op.clone()
    Rewriter.insert_op(rest, InsertPoint.after(loop_op))
    for result, later in zip(loop_op.results, rest.results, strict=True):
        result.replace_uses_with_if(later, lambda use: use.operation is not rest)
    loop_op.operands[1] = end.result
    rest.operands[0] = end.result
    for i, result in enumerate(loop_op.results):
        rest.operands[3 + i] = result
    for loop, quotient in ((loop_op, row.result), (rest, next_row.result)):
        for op in row_quotients_of(loop.body.block, base, rows):
            op.result.replace_all_uses_with(quotient)
            Rewriter.erase_op(op)


def row_quotients(block: Block, threads: int) -> list[tuple[SSAValue, SSAValue]]:
    """(base, n) of each `(base + thread) / n` in the loop body with `base` defined outside
    it and a constant n >= threads that is not a multiple of threads."""
    thread = block.args[0]
    found: list[tuple[SSAValue, SSAValue]] = []
    for op in block.ops:
        if not isinstance(op, arith.DivUIOp) or not isinstance(op.lhs.owner, arith.AddiOp):
            continue
        n = constant_index(op.rhs)
        add = op.lhs.owner
        others = [v for v in add.operands if v is not thread]
        if n is None or n < threads or n % threads == 0 or len(others) != 1:
            continue
        if defined_inside(others[0], block):
            continue
        found.append((others[0], op.rhs))
    return found


def defined_inside(value: SSAValue, block: Block) -> bool:
    owner = value.block if isinstance(value, BlockArgument) else value.owner
    while isinstance(owner, Operation | Block):
        if owner is block:
            return True
        owner = owner.parent_block() if isinstance(owner, Operation) else owner.parent_op()
    return False


def row_quotients_of(block: Block, base: SSAValue, rows: SSAValue) -> list[arith.DivUIOp]:
    thread = block.args[0]
    return [
        op
        for op in block.ops
        if isinstance(op, arith.DivUIOp)
        and op.rhs is rows
        and isinstance(op.lhs.owner, arith.AddiOp)
        and set(op.lhs.owner.operands) == {base, thread}
    ]


def constant_index(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def lane_extent(block: Block, threads: int) -> int | None:
    """The largest n (dividing the block, below it) by which the body divides the thread,
    or whose remainder `thread % n` it branches on; None where it does neither. (A
    remainder only computed with, such as a shuffle's lane, LLVM vectorizes as it is:
    nesting the loops would only shorten the vector loop. A branch on the lane it does
    not: the row sum's loop `lane <= 7 ? slots[lane] : 0` over 256 threads ran as scalar
    code, a quarter of the kernel's time; over the lanes, a few vector stores a block.)"""
    thread = block.args[0]
    divisors = [
        n
        for op in block.walk()
        if (isinstance(op, arith.DivUIOp) or is_branched_on(op)) and op.operands[0] is thread
        for n in [constant_index(op.operands[1])]
        if n is not None and 1 < n < threads and threads % n == 0
    ]
    return max(divisors, default=None)


def is_branched_on(op: Operation) -> bool:
    """Whether `op` is a remainder compared for an `scf.if` (a branch on the lane; a
    shuffle's validity test, a select, LLVM vectorizes as it is)."""
    return isinstance(op, arith.RemUIOp) and any(
        isinstance(use.operation, arith.CmpiOp)
        and any(isinstance(test.operation, scf.IfOp) for test in use.operation.result.uses)
        for use in op.result.uses
    )


def split_thread_index(
    block: Block, thread: SSAValue, lane: SSAValue, group: SSAValue, lanes: int
) -> None:
    """`thread % n` (n dividing `lanes`) as `lane % n` (`lane` itself for n = lanes) and
    `thread / lanes` as `group`: thread = group * lanes + lane with lane < lanes."""
    for op in list(block.walk()):
        if not isinstance(op, arith.RemUIOp | arith.DivUIOp) or op.lhs is not thread:
            continue
        n = constant_index(op.rhs)
        if isinstance(op, arith.RemUIOp) and n is not None and lanes % n == 0:
            if n == lanes:
                op.result.replace_all_uses_with(lane)
            else:
                op.operands[0] = lane
        elif isinstance(op, arith.DivUIOp) and n == lanes:
            op.result.replace_all_uses_with(group)


def is_uniform(op: Operation, uniform: set[SSAValue]) -> bool:
    """Whether `op` computes the same for every thread of a block, without memory effects."""
    if op.regions or isinstance(op, SPLITS) or op.dialect_name() == "tensor":
        return False
    if any(isinstance(v.type, TensorType) for v in (*op.operands, *op.results)):
        return False
    if not (
        op.dialect_name() in _UNIFORM_DIALECTS or isinstance(op, (BlockIdOp, *_UNIFORM_VECTOR_OPS))
    ):
        return False
    return all(v in uniform for v in op.operands)


def is_thread_derived(op: Operation, uniform: set[SSAValue], derived: set[SSAValue]) -> bool:
    """Whether `op` is `arith` on the thread ids and uniform values only (cheap to compute
    again where it is read)."""
    if op.regions or op.dialect_name() != "arith":
        return False
    if any(isinstance(v.type, TensorType | VectorType) for v in (*op.operands, *op.results)):
        return False
    return all(v in uniform or v in derived for v in op.operands)


def starts_segment(op: Operation, segment: _Segment) -> bool:
    """A split begins a segment, unless the segment holds only splits none of whose
    results it reads (two shuffles in a row share one loop)."""
    if not isinstance(op, SPLITS) or not segment.ops:
        return False
    if not segment.only_splits():
        return True
    return any(segment.defines(v) for v in op.operands)


def segment_of(op: Operation, segment: _Segment) -> bool:
    top = op
    while top.parent_op() is not None and not isinstance(top.parent_op(), func.FuncOp):
        parent = top.parent_op()
        assert parent is not None
        top = parent
    return top in segment.ops


def spill_type(value: SSAValue, threads: int) -> TensorType[Attribute]:
    t = value.type
    if isinstance(t, VectorType):
        if t.get_num_dims() != 1:
            raise OpError(value.owner, "xla-host-thread-loops: keeps only 1-d vectors per thread")
        return TensorType(t.element_type, [threads * t.get_shape()[0]])
    return TensorType(i64 if isinstance(t, IndexType) else t, [threads])


def thread_id_values(thread: SSAValue, extent: Sequence[int], block: Block) -> dict[str, SSAValue]:
    """x, y, z from the linear thread id (x fastest)."""
    ids: dict[str, SSAValue] = {}
    stride = 1
    for dim, size in zip("xyz", extent, strict=True):
        value = thread
        if stride > 1:
            divisor = arith.ConstantOp.from_int_and_width(stride, IndexType())
            quotient = arith.DivUIOp(value, divisor)
            block.add_ops([divisor, quotient])
            value = quotient.result
        if stride * size < prod(extent):
            modulus = arith.ConstantOp.from_int_and_width(size, IndexType())
            remainder = arith.RemUIOp(value, modulus)
            block.add_ops([modulus, remainder])
            value = remainder.result
        ids[dim] = value
        stride *= size
    return ids


def load_value(spill: SSAValue, slot: SSAValue, block: Block, like: SSAValue) -> SSAValue:
    """The value kept for thread `slot` in `spill`, of `like`'s type."""
    t = like.type
    if isinstance(t, VectorType):
        lanes = arith.ConstantOp.from_int_and_width(t.get_shape()[0], IndexType())
        start = arith.MuliOp(slot, lanes)
        padding = ub.PoisonOp(t.element_type)
        read = vector.TransferReadOp(
            spill, [start.result], padding.result, t, IN_BOUNDS, AffineMapAttr(IDENTITY_1D)
        )
        block.add_ops([lanes, start, padding, read])
        return read.result
    extract = tensor.ExtractOp(spill, [slot], i64 if isinstance(t, IndexType) else t)
    block.add_op(extract)
    if isinstance(t, IndexType):
        cast = arith.IndexCastOp(extract.result, IndexType())
        block.add_op(cast)
        return cast.result
    return extract.result


def store_value(value: SSAValue, spill: SSAValue, slot: SSAValue, block: Block) -> SSAValue:
    """`value` written to thread `slot`'s place in `spill`; the buffer's new version."""
    t = value.type
    if isinstance(t, VectorType):
        lanes = arith.ConstantOp.from_int_and_width(t.get_shape()[0], IndexType())
        start = arith.MuliOp(slot, lanes)
        write = vector.TransferWriteOp(
            value, spill, [start.result], IN_BOUNDS, None, AffineMapAttr(IDENTITY_1D), spill.type
        )
        block.add_ops([lanes, start, write])
        assert write.result is not None
        return write.result
    if isinstance(t, IndexType):
        cast = arith.IndexCastOp(value, i64)
        block.add_op(cast)
        value = cast.result
    insert = tensor.InsertOp(value, spill, [slot])
    block.add_op(insert)
    return insert.result


def shuffle_source(
    mode: ShuffleMode, thread: SSAValue, offset: SSAValue, width: SSAValue, threads: int
) -> tuple[list[Operation], SSAValue, SSAValue]:
    """Ops computing the lane a shuffle reads (its own where the source lies outside the
    warp's `width` segment or the block) and whether it lies inside."""
    warp = arith.ConstantOp.from_int_and_width(WARP_SIZE, IndexType())
    zero = arith.ConstantOp.from_int_and_width(0, IndexType())
    block_size = arith.ConstantOp.from_int_and_width(threads, IndexType())
    width_index = arith.IndexCastOp(width, IndexType())
    offset_index = arith.IndexCastOp(offset, IndexType())
    in_warp = arith.RemUIOp(thread, warp)
    lane = arith.RemUIOp(in_warp, width_index)
    ops: list[Operation] = [warp, zero, block_size, width_index, offset_index, in_warp, lane]
    if mode is ShuffleMode.DOWN:
        target: Operation = arith.AddiOp(lane, offset_index)
    elif mode is ShuffleMode.UP:
        target = arith.SubiOp(lane, offset_index)
    elif mode is ShuffleMode.XOR:
        target = arith.XOrIOp(lane, offset_index)
    else:
        target = arith.AddiOp(offset_index, zero)
    base = arith.SubiOp(thread, lane)
    source = arith.AddiOp(base, target)
    not_below = arith.CmpiOp(target, zero, "sge")
    below_width = arith.CmpiOp(target, width_index, "slt")
    in_block = arith.CmpiOp(source, block_size, "slt")
    valid_width = arith.AndIOp(not_below, below_width)
    valid = arith.AndIOp(valid_width, in_block)
    chosen = arith.SelectOp(valid, source, thread)
    ops += [target, base, source, not_below, below_width, in_block, valid_width, valid, chosen]
    return ops, chosen.result, valid.result
