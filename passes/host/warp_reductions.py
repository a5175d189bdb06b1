"""`xla-host-warp-reductions`: a warp's shuffle tree whose result only lane 0 reads, as
reads of shared memory by lane 0.

XLA's reduction emitters combine a warp's partial values with a tree of `down`
shuffles (offsets 16, 8, 4, 2, 1 within 32 lanes: `xla_gpu.shuffle_reduce`),
and only the lane that leads its segment uses the result (it writes it to
shared memory or to the output). On the host every shuffle splits the block's
threads into one more loop (`xla-host-thread-loops`), each reading and writing a
buffer of the block's threads, and all lanes compute every level of the tree.

This pass rewrites such a tree, on the GPU form, into what a CUDA block would do
with shared memory: every thread writes its values to a buffer of one slot per
thread, a barrier, and where the result is read (inside a branch taken by lane 0
alone) the tree is computed from the segment's slots in straight-line code. The
lanes lane 0's result depends on are exactly those the tree's levels read (lane
`l` combines its value with lane `l + offset`'s), each combined by a copy of the
step's ops in the same order and with the same operands: the result is the
shuffles' result bit for bit. One barrier replaces the shuffles, and the copies
are code LLVM's SLP vectorizer turns into vector operations.

A tree is taken only where this is exact: `down` shuffles by constant offsets in
a constant width that divides the warp and the block's threads, every source lane
of lane 0's tree inside the width (so none reads its own value instead), the steps'
ops `arith` or `math` on the step's values, its shuffles' results and values that
are the same for every thread, no value of the tree used outside it but the last
step's results, and those only under a condition that holds for a segment's lane 0
alone (`tid % n == 0` with n a multiple of the width, or `tid == 0`). Anything else
is left to `xla-host-thread-loops`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func, scf, tensor
from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xla_emit.dialects.gpu import ShuffleMode, ShuffleOp, ThreadIdOp
from xla_emit.dialects.xla_gpu import WARP_SIZE, AllocateSharedOp, SyncThreadsOp
from xla_emit.passes.diagnostics import OpError
from xla_emit.passes.host.thread_loops import block_extent, constant_index, is_uniform

# Dialects whose ops a step may hold: lane-wise arithmetic without memory effects.
_LANE_WISE_DIALECTS = ("arith", "math")


@dataclass(frozen=True)
class HostWarpReductionsPass(ModulePass):
    name = "xla-host-warp-reductions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in [f for f in op.ops if isinstance(f, func.FuncOp)]:
            if "xla.entry" in function.attributes and function.body.blocks.first is not None:
                rewrite_function(function)


@dataclass
class _Step:
    """One level of a tree: shuffles of the level's values by `offset`, and the ops that
    combine each lane's values with the shuffled ones into the next level's."""

    shuffles: list[ShuffleOp]
    offset: int
    ops: list[Operation] = field(default_factory=list[Operation])
    # The next level's values (the next step's shuffled values, or the tree's results).
    outputs: list[SSAValue] = field(default_factory=list[SSAValue])

    @property
    def inputs(self) -> list[SSAValue]:
        return [shuffle.value for shuffle in self.shuffles]


@dataclass
class _Tree:
    steps: list[_Step]
    width: int

    @property
    def ops(self) -> list[Operation]:
        return [op for step in self.steps for op in (*step.shuffles, *step.ops)]

    def lanes_read(self) -> list[list[int]] | None:
        """Per level (the first step's inputs first), the lanes lane 0's result reads;
        None where one of them would read a source outside the width."""
        levels = [[0]]
        for step in reversed(self.steps):
            needed = levels[0]
            if max(needed) + step.offset >= self.width:
                return None
            levels.insert(0, sorted({*needed, *(lane + step.offset for lane in needed)}))
        return levels


def rewrite_function(function: func.FuncOp) -> None:
    try:
        extent = block_extent(function)
    except OpError:
        return  # a thread id without a range: `xla-host-thread-loops` says so
    threads = extent[0] * extent[1] * extent[2]
    body = function.body.block
    ids = [op for op in body.ops if isinstance(op, ThreadIdOp) and op.dimension.data == "x"]
    if extent[1:] != (1, 1) or threads % WARP_SIZE or not ids:
        return  # linear thread ids in x only, whole warps
    uniform = uniform_values(function)
    claimed: set[Operation] = set()
    for op in list(body.ops):
        if isinstance(op, ShuffleOp) and op not in claimed and op.parent is body:
            tree = grow_tree(op, body, uniform)
            if tree is None:
                continue
            claimed.update(tree.ops)
            guarded = lane_zero_blocks(tree)
            if guarded is not None and tree.lanes_read() is not None:
                replace_tree(tree, guarded, ids[0], threads)


def uniform_values(function: func.FuncOp) -> set[SSAValue]:
    """Values every thread of a block computes alike (the function's arguments, and
    top-level ops on them without memory effects)."""
    uniform: set[SSAValue] = set(function.args)
    for op in function.body.block.ops:
        if is_uniform(op, uniform):
            uniform.update(op.results)
    return uniform


def tree_shuffle(op: Operation, width: int | None = None) -> tuple[int, int] | None:
    """(offset, width) of a `down` shuffle by constants whose `valid` goes unused."""
    if not isinstance(op, ShuffleOp) or op.mode.data is not ShuffleMode.DOWN or op.valid.uses:
        return None
    offset, op_width = constant_index(op.offset), constant_index(op.width)
    if offset is None or op_width is None or not 0 < offset < op_width:
        return None
    if WARP_SIZE % op_width or (width is not None and op_width != width):
        return None
    if not isinstance(op.value.type, AnyFloat | IntegerType):
        return None
    return offset, op_width


def shuffle_run(first: ShuffleOp) -> list[ShuffleOp]:
    """`first` and the shuffles right after it by the same offset and width."""
    key = tree_shuffle(first)
    run = [first]
    op = first.next_op
    while op is not None and key is not None and tree_shuffle(op, key[1]) == key:
        assert isinstance(op, ShuffleOp)
        run.append(op)
        op = op.next_op
    return run


def grow_tree(first: ShuffleOp, body: Block, uniform: set[SSAValue]) -> _Tree | None:
    """The tree whose first step's shuffles start at `first`, or None where the ops
    from `first` on are not such a tree."""
    key = tree_shuffle(first)
    if key is None:
        return None
    width = key[1]
    steps = [_Step(shuffle_run(first), key[0])]
    while True:
        step = steps[-1]
        allowed = {*step.inputs, *(s.result for s in step.shuffles), *uniform}
        if any(
            isinstance(use.operation, ShuffleOp) for s in step.shuffles for use in s.result.uses
        ):
            return None  # a shuffled value shuffled again: not a combining step
        following = next_step(step, width, allowed, body)
        if following is None:
            ops = forward_ops(step, allowed, body)
            if ops is None:
                return None
            step.ops = ops
            inside = set(ops)
            step.outputs = [r for op in ops for r in op.results if outside_uses(r, inside)]
            return _Tree(steps, width) if step.outputs else None
        steps.append(following)


def next_step(step: _Step, width: int, allowed: set[SSAValue], body: Block) -> _Step | None:
    """The step after `step`: the first shuffles after its own, by a smaller offset in the
    same width, whose values its ops compute from its values and its shuffles' results
    (which sets `step.ops` and `step.outputs`); None where there is none."""
    op = step.shuffles[-1].next_op
    while op is not None and not isinstance(op, ShuffleOp):
        op = op.next_op
    if op is None:
        return None
    key = tree_shuffle(op, width)
    if key is None or key[0] >= step.offset:
        return None
    run = shuffle_run(op)
    values = [s.value for s in run]
    ops = backward_ops(values, allowed, body)
    if ops is None:
        return None
    shuffled = {s.result for s in step.shuffles}
    reads_shuffles = any(v in shuffled for v in values) or any(
        v in shuffled for op in ops for v in op.operands
    )
    if not reads_shuffles:
        return None
    step.ops, step.outputs = ops, values
    return _Step(run, key[0])


def lane_wise(op: Operation) -> bool:
    if op.regions or op.dialect_name() not in _LANE_WISE_DIALECTS:
        return False
    return not any(isinstance(v.type, TensorType) for v in (*op.operands, *op.results))


def backward_ops(
    outputs: Iterable[SSAValue], allowed: set[SSAValue], body: Block
) -> list[Operation] | None:
    """The top-level lane-wise ops computing `outputs` from `allowed` values, in program
    order; None where an output needs anything else."""
    found: set[Operation] = set()

    def visit(value: SSAValue) -> bool:
        if value in allowed:
            return True
        if not isinstance(value, OpResult) or value.op.parent is not body:
            return False
        op = value.op
        if op in found:
            return True
        if not lane_wise(op):
            return False
        found.add(op)
        return all(visit(v) for v in op.operands)

    if not all(visit(v) for v in outputs):
        return None
    return [op for op in body.ops if op in found]


def forward_ops(step: _Step, allowed: set[SSAValue], body: Block) -> list[Operation] | None:
    """The last step's ops: the top-level lane-wise ops its shuffles' results feed (each
    with what it needs from the step's values), in program order."""
    frontier = [use.operation for s in step.shuffles for use in s.result.uses]
    reached: set[Operation] = set()
    while frontier:
        op = frontier.pop()
        if op in reached or op.parent is not body or not lane_wise(op):
            continue
        reached.add(op)
        frontier.extend(use.operation for r in op.results for use in r.uses)
    return backward_ops([r for op in reached for r in op.results], allowed, body)


def outside_uses(value: SSAValue, inside: set[Operation]) -> list[Operation]:
    return [use.operation for use in value.uses if use.operation not in inside]


def lane_zero_blocks(tree: _Tree) -> dict[Block, list[SSAValue]] | None:
    """Where the tree's results are read: per block entered by a segment's lane 0 alone
    (the `then` block of an `scf.if` on such a condition, the outermost one), the results
    read inside it; None where a result is read elsewhere, or an intermediate value of
    the tree is read outside it."""
    inside = set(tree.ops)
    final = set(tree.steps[-1].outputs)
    for op in tree.ops:
        if any(r not in final and outside_uses(r, inside) for r in op.results):
            return None
    blocks: dict[Block, list[SSAValue]] = {}
    for value in tree.steps[-1].outputs:
        for user in outside_uses(value, inside):
            block = lane_zero_block(user, tree.width)
            if block is None:
                return None
            if value not in blocks.setdefault(block, []):
                blocks[block].append(value)
    return blocks


def lane_zero_block(op: Operation, width: int) -> Block | None:
    """The `then` block of the outermost `scf.if` around `op` whose condition holds only
    for lanes that lead a segment of `width` lanes, if any."""
    found: Block | None = None
    while op.parent_op() is not None and not isinstance(op.parent_op(), func.FuncOp):
        parent = op.parent_op()
        assert parent is not None
        if (
            isinstance(parent, scf.IfOp)
            and op.parent_block() is parent.true_region.block
            and leads_segment(parent.cond, width)
        ):
            found = parent.true_region.block
        op = parent
    return found


def leads_segment(condition: SSAValue, width: int) -> bool:
    """Whether `condition` implies `thread % width == 0` (the threads being x alone)."""
    owner = condition.owner
    if isinstance(owner, arith.AndIOp):
        return leads_segment(owner.lhs, width) or leads_segment(owner.rhs, width)
    if not isinstance(owner, arith.CmpiOp) or owner.predicate.value.data != 0:  # eq
        return False
    for value, other in ((owner.lhs, owner.rhs), (owner.rhs, owner.lhs)):
        if constant_index(other) != 0:
            continue
        if isinstance(value.owner, ThreadIdOp):
            return True
        if isinstance(value.owner, arith.RemUIOp) and isinstance(value.owner.lhs.owner, ThreadIdOp):
            modulus = constant_index(value.owner.rhs)
            if modulus is not None and modulus > 0 and modulus % width == 0:
                return True
    return False


def replace_tree(
    tree: _Tree, guarded: dict[Block, list[SSAValue]], thread_id: ThreadIdOp, threads: int
) -> None:
    first = tree.steps[0]
    thread = thread_id_before(thread_id, first.shuffles[0])
    synced = write_to_shared(first.inputs, thread, threads, InsertPoint.before(first.shuffles[0]))
    levels = tree.lanes_read()
    assert levels is not None
    for block, results in guarded.items():
        computed = expand(tree, levels, synced, thread, block)
        for value in results:
            value.replace_uses_with_if(
                computed[value], lambda use, b=block: inside_block(use.operation, b)
            )
    for op in reversed(tree.ops):
        Rewriter.erase_op(op)


def thread_id_before(thread_id: ThreadIdOp, anchor: Operation) -> SSAValue:
    """The top-level `thread_id`, moved before `anchor` if it came later."""
    if not any(op is thread_id for op in _ops_before(anchor)):
        thread_id.detach()
        Rewriter.insert_op(thread_id, InsertPoint.before(anchor))
    return thread_id.result


def _ops_before(anchor: Operation) -> Iterable[Operation]:
    op = anchor.prev_op
    while op is not None:
        yield op
        op = op.prev_op


def write_to_shared(
    values: list[SSAValue], thread: SSAValue, threads: int, at: InsertPoint
) -> list[SSAValue]:
    """Each value written to its thread's slot of a new shared buffer, then a barrier; the
    buffers after it."""
    written: list[SSAValue] = []
    for value in values:
        shared = AllocateSharedOp(TensorType(value.type, [threads]))
        insert = tensor.InsertOp(value, shared.result, [thread])
        Rewriter.insert_op([shared, insert], at)
        written.append(insert.result)
    barrier = SyncThreadsOp(written)
    Rewriter.insert_op(barrier, at)
    return list(barrier.res)


def expand(
    tree: _Tree, levels: list[list[int]], synced: list[SSAValue], thread: SSAValue, block: Block
) -> dict[SSAValue, SSAValue]:
    """Lane 0's tree at the start of `block`: the lanes' values read from shared memory,
    then each step's ops copied once per lane of its level; the results by the tree's."""
    ops: list[Operation] = []
    values: dict[int, list[SSAValue]] = {}
    for lane in levels[0]:
        offset = arith.ConstantOp(IntegerAttr(lane, IndexType()))
        slot = arith.AddiOp(thread, offset.result)
        reads = [tensor.ExtractOp(buffer, [slot.result], element_type(buffer)) for buffer in synced]
        ops += [offset, slot, *reads]
        values[lane] = [read.result for read in reads]
    for step, lanes in zip(tree.steps, levels[1:], strict=True):
        following: dict[int, list[SSAValue]] = {}
        for lane in lanes:
            mapping: dict[SSAValue, SSAValue] = {}
            for i, shuffle in enumerate(step.shuffles):
                mapping[shuffle.value] = values[lane][i]
                mapping[shuffle.result] = values[lane + step.offset][i]
            for op in step.ops:
                copy = op.clone(mapping)
                ops.append(copy)
            following[lane] = [mapping.get(v, v) for v in step.outputs]
        values = following
    Rewriter.insert_op(ops, InsertPoint.at_start(block))
    return dict(zip(tree.steps[-1].outputs, values[0], strict=True))


def element_type(buffer: SSAValue) -> Attribute:
    assert isinstance(buffer.type, TensorType)
    return buffer.type.element_type


def inside_block(op: Operation, block: Block) -> bool:
    current: Operation | None = op
    while current is not None:
        if current.parent_block() is block:
            return True
        current = current.parent_op()
    return False
