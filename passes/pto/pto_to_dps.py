"""`pto-to-dps`: lower level-1 (SSA tile values) PTO to level 2 (tile buffers).

Every `!pto.tile` value becomes a `!pto.tile_buf` of the same parameters and
every tile op its destination-passing form:

    %e = pto.texp %a : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
  becomes
    %e = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
    pto.texp ins(%a : !pto.tile_buf<vec, 16x16xf32>) outs(%e : !pto.tile_buf<vec, 16x16xf32>)

A value's buffer is reused once the value is dead: an op takes a free buffer
of exactly its result's type before allocating a new one, and elementwise ops
(which may write the buffer they read) also take the buffer of an operand
whose last use they are. `ttrans` never writes a buffer it reads. Function
arguments and returned values are never recycled (the caller owns them), and a
value placed by `pto.tassign` keeps a buffer of its own, bound right after its
`alloc_tile` so that the address holds for the value's whole life.

Reuse is per block; a value used inside a nested region (an `scf.for` body)
stays live until the op holding the region ends, so it survives every trip
around the loop.

Tiles carried through `scf.for` iter_args and `scf.if` results become one
buffer each, and level-2 loops and branches carry no tiles: the body writes
the buffer in place.

    %r = scf.for ... iter_args(%acc = %init) -> (!pto.tile<16x1xf32>) {
      %m = pto.tmax %acc, %x : ...
      scf.yield %m : !pto.tile<16x1xf32>
    }
  becomes
    scf.for ... {
      pto.tmax ins(%init, %x : ...) outs(%init : ...)
    }

A loop carries the buffer of its init when the init dies at the loop;
otherwise (the init is read later, in the body, or belongs to the caller) a
free or fresh buffer, filled from the init by a `pto.tmov` before the loop.
The op producing the yielded value writes the carried buffer directly unless
the value the buffer holds then (the previous iteration's, or a nested loop's
result) is still read after it; then, as for yielded values defined
elsewhere, `pto.tmov`s before the yield copy it (all copies of one yield act
at once: a cycle such as swapped accumulators goes through a scratch buffer).
An `scf.if` result gets a buffer before the branch that both branches write
the same way. Nested loops and branches take the buffer over, so an
accumulator carried through a loop nest stays in one buffer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import FunctionType, ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xla_emit.dialects.pto import (
    AllocTileOp,
    ElementwiseOpBase,
    TAssignOp,
    TileBufType,
    TileOpBase,
    TileType,
    TMovOp,
    buffer_type_of,
)
from xla_emit.passes.diagnostics import OpError


def _last_uses(block: Block) -> dict[SSAValue, int]:
    """For each value used in `block`, the index of the last op of `block`
    that uses it (directly or inside its regions)."""
    last: dict[SSAValue, int] = {}
    for index, op in enumerate(block.ops):
        for nested in op.walk():
            for operand in nested.operands:
                last[operand] = index
    return last


@dataclass
class _BufferPool:
    """Free buffers by type; pinned buffers are never recycled."""

    pinned: set[SSAValue]
    free: dict[TileBufType, list[SSAValue]] = field(
        default_factory=dict[TileBufType, list[SSAValue]]
    )

    def take(self, buffer_type: TileBufType) -> SSAValue | None:
        candidates = self.free.get(buffer_type, [])
        return candidates.pop() if candidates else None

    def release(self, buffer: SSAValue) -> None:
        if buffer in self.pinned:
            return
        assert isinstance(buffer.type, TileBufType)
        pool = self.free.setdefault(buffer.type, [])
        if buffer not in pool:
            pool.append(buffer)


class _BlockLowering:
    """Lowers the tile ops of one block, recycling buffers of dead values.

    `carried` are buffers that enter the block holding a value (a loop's
    previous iteration): never recycled here, but a nested loop may carry one
    on when that value dies there. `targets` names the buffer the producer of
    a yielded value writes.
    """

    def __init__(
        self,
        block: Block,
        pinned_values: set[SSAValue],
        pinned_buffers: set[SSAValue],
        carried: set[SSAValue] | None = None,
        targets: dict[SSAValue, SSAValue] | None = None,
    ) -> None:
        self.block = block
        self.pinned_values = pinned_values
        self.carried = carried or set()
        self.targets = targets or {}
        self.pool = _BufferPool(pinned_buffers | self.carried)
        self.last_use = _last_uses(block)
        # The level-1 value each buffer of this block holds now (a carried
        # buffer stands for the iter_arg it replaced).
        self.held: dict[SSAValue, SSAValue] = {buffer: buffer for buffer in self.carried}

    def run(self) -> None:
        for index, op in enumerate(list(self.block.ops)):
            dying = self._dying_buffers(op, index)
            if isinstance(op, scf.ForOp) and _tile_slots(op.res):
                self._lower_for(op, index, dying)
            elif isinstance(op, scf.IfOp) and _tile_slots(op.output):
                self._lower_if(op, index, dying)
            else:
                _reject_carried_tiles(op)
                for region in op.regions:
                    for nested in region.blocks:
                        _BlockLowering(nested, self.pinned_values, self.pool.pinned).run()
                if isinstance(op, TileOpBase) and not op.is_dps:
                    self._lower(op, index, dying)
            for buffer in dying:
                self.pool.release(buffer)

    def _dying_buffers(self, op: Operation, index: int) -> list[SSAValue]:
        """Buffers (of this block) whose values have their last use at `op`."""
        dying: list[SSAValue] = []
        for nested in op.walk():
            for operand in nested.operands:
                value = self.held.get(operand)
                if value is not None and self.last_use.get(value) == index and operand not in dying:
                    dying.append(operand)
        return dying

    def _lower(self, op: TileOpBase, index: int, dying: list[SSAValue]) -> None:
        ins = list(op.ins)
        if not op.res:
            # level-1 tstore `%t, %view` writes its view: `ins(%t) outs(%view)`.
            Rewriter.replace_op(op, type(op)(ins[:1], ins[1:], (), dict(op.attributes)))
            return
        result = op.res[0]
        destination = self._destination(op, index, result, dying)
        Rewriter.replace_op(
            op, type(op)(ins, [destination], (), dict(op.attributes)), new_results=[destination]
        )
        self._now_holds(destination, result, dying)

    def _now_holds(self, buffer: SSAValue, value: SSAValue, dying: list[SSAValue]) -> None:
        if buffer in dying:
            dying.remove(buffer)
        self.held[buffer] = value
        if value not in self.last_use:
            # A value nobody reads frees its buffer at once.
            dying.append(buffer)

    def _destination(
        self, op: TileOpBase, index: int, result: SSAValue, dying: list[SSAValue]
    ) -> SSAValue:
        if not isinstance(result.type, TileType):
            raise OpError(op, f"expected a !pto.tile result, but got {result.type}")
        buffer_type = buffer_type_of(result.type)
        if result in self.pinned_values:
            return self._allocate(op, result, buffer_type, pinned=True)
        target = self._free_target(result, op, index)
        if target is not None:
            return target
        if isinstance(op, ElementwiseOpBase):
            for buffer in dying:
                if (
                    buffer.type == buffer_type
                    and buffer in op.ins
                    and buffer not in self.pool.pinned
                ):
                    return buffer
        reused = self.pool.take(buffer_type)
        if reused is not None:
            return reused
        return self._allocate(op, result, buffer_type, pinned=False)

    def _free_target(
        self, result: SSAValue, op: Operation, index: int, slot: int = 0
    ) -> SSAValue | None:
        """The buffer the enclosing loop or branch wants `result` in, unless
        the value it holds now is still read after `op` (or by `op`, which is
        fine only for an elementwise op, a branch, which starts from that
        value, or a loop that carries it on in this slot)."""
        target = self.targets.get(result)
        if target is None:
            return None
        value = self.held.get(target)
        last = -1 if value is None else self.last_use.get(value, -1)
        if last != index:
            return target if last < index else None
        if isinstance(op, ElementwiseOpBase | scf.IfOp):
            return target
        if isinstance(op, scf.ForOp) and op.iter_args[slot] == target and _reads(op, target) == 1:
            return target
        return None

    def _allocate(
        self, op: Operation, result: SSAValue, buffer_type: TileBufType, pinned: bool
    ) -> SSAValue:
        if buffer_type.has_dynamic_valid_shape:
            raise OpError(
                op,
                f"pto-to-dps cannot allocate {buffer_type}: its valid shape is dynamic; "
                "write this op at level 2 with `pto.alloc_tile valid_row = ... valid_col = ...`",
            )
        alloc = AllocTileOp(buffer_type)
        alloc.result.name_hint = result.name_hint
        # Errors about this buffer (e.g. memory planning) point at the op that made the value.
        alloc.location = op.location
        Rewriter.insert_op(alloc, InsertPoint.before(op))
        if pinned:
            self.pool.pinned.add(alloc.result)
            _bind_after_alloc(result, alloc)
        return alloc.result

    # -- tiles carried through loops and branches ------------------------------------

    def _lower_for(self, loop: scf.ForOp, index: int, dying: list[SSAValue]) -> None:
        slots = _tile_slots(loop.res)
        buffers: dict[int, SSAValue] = {}
        for slot in slots:
            buffers[slot] = self._carried_buffer(loop, slot, index, dying, buffers)
        body = loop.body.block
        for slot in slots:
            body.args[slot + 1].replace_all_uses_with(buffers[slot])
        for slot in reversed(slots):
            body.erase_arg(body.args[slot + 1])
        entry = {slot: buffers[slot] for slot in slots}
        self._lower_carrying_block(body, buffers, entry)
        kept = [k for k in range(len(loop.res)) if k not in buffers]
        lowered = scf.ForOp(
            loop.lb,
            loop.ub,
            loop.step,
            [loop.iter_args[k] for k in kept],
            Rewriter.move_region_contents_to_new_regions(loop.body),
        )
        self._replace_carrier(loop, lowered, buffers, kept, dying)

    def _lower_if(self, branch: scf.IfOp, index: int, dying: list[SSAValue]) -> None:
        buffers: dict[int, SSAValue] = {}
        # A buffer handed down by the enclosing loop enters the branches holding
        # the value it holds here; a fresh one holds nothing.
        entry: dict[int, SSAValue] = {}
        for slot in _tile_slots(branch.output):
            target = self._free_target(branch.output[slot], branch, index)
            if target is not None:
                buffers[slot] = entry[slot] = target
            else:
                buffers[slot] = self._result_buffer(branch, slot)
        for region in (branch.true_region, branch.false_region):
            self._lower_carrying_block(region.block, buffers, entry)
        kept = [k for k in range(len(branch.output)) if k not in buffers]
        false_ops = list(branch.false_region.block.ops)
        # An else that only yielded tiles in place has nothing left to do.
        drop_else = not kept and len(false_ops) == 1
        lowered = scf.IfOp(
            branch.cond,
            [branch.output[k].type for k in kept],
            Rewriter.move_region_contents_to_new_regions(branch.true_region),
            Region()
            if drop_else
            else Rewriter.move_region_contents_to_new_regions(branch.false_region),
        )
        self._replace_carrier(branch, lowered, buffers, kept, dying)

    def _replace_carrier(
        self,
        old: Operation,
        new: Operation,
        buffers: dict[int, SSAValue],
        kept: list[int],
        dying: list[SSAValue],
    ) -> None:
        """Swap in the loop or branch without tile results; the results live on in buffers."""
        new.attributes.update(old.attributes)
        new.location = old.location
        results = list(old.results)
        Rewriter.replace_op(
            old,
            new,
            [
                buffers[k] if k in buffers else new.results[kept.index(k)]
                for k in range(len(results))
            ],
        )
        for slot, buffer in buffers.items():
            self._now_holds(buffer, results[slot], dying)

    def _carried_buffer(
        self,
        loop: scf.ForOp,
        slot: int,
        index: int,
        dying: list[SSAValue],
        taken: dict[int, SSAValue],
    ) -> SSAValue:
        """The one buffer of iter_arg `slot`, filled with its init before the loop."""
        result, init = loop.res[slot], loop.iter_args[slot]
        # Ops before the loop are lowered: the init is a buffer by now.
        assert isinstance(init.type, TileBufType)
        target = self._free_target(result, loop, index, slot)
        if target is not None:
            buffer = target
        elif result in self.pinned_values:
            buffer = self._allocate(loop, result, buffer_type_of(_tile(result)), pinned=True)
        elif self._dies_into(loop, init, index) and init not in taken.values():
            dying.remove(init)
            buffer = init
        else:
            buffer = self._free_or_new(loop, result)
        if buffer != init:
            Rewriter.insert_op(TMovOp([init], [buffer]), InsertPoint.before(loop))
        return buffer

    def _result_buffer(self, branch: scf.IfOp, slot: int) -> SSAValue:
        result = branch.output[slot]
        if result in self.pinned_values:
            return self._allocate(branch, result, buffer_type_of(_tile(result)), pinned=True)
        return self._free_or_new(branch, result)

    def _free_or_new(self, op: Operation, result: SSAValue) -> SSAValue:
        buffer_type = buffer_type_of(_tile(result))
        reused = self.pool.take(buffer_type)
        return reused if reused is not None else self._allocate(op, result, buffer_type, False)

    def _dies_into(self, loop: scf.ForOp, init: SSAValue, index: int) -> bool:
        """Whether `init`'s value is read for the last time as this loop's init
        (not also in the body), so the loop may carry its buffer on."""
        value = self.held.get(init)
        if value is None or self.last_use.get(value) != index:
            return False
        if init in self.pool.pinned and init not in self.carried:
            return False
        return _reads(loop, init) == 1

    def _lower_carrying_block(
        self,
        block: Block,
        buffers: dict[int, SSAValue],
        entry: dict[int, SSAValue],
    ) -> None:
        """Lower a loop body or branch that leaves yield slot k in `buffers[k]`;
        `entry[k]` is the buffer's value on entry (a loop's previous iteration)."""
        carried = set(buffers.values())
        targets = _yield_targets(block, buffers, self.pinned_values)
        _BlockLowering(
            block, self.pinned_values, self.pool.pinned | carried, set(entry.values()), targets
        ).run()
        yield_op = block.last_op
        assert isinstance(yield_op, scf.YieldOp)
        copies = [
            (buffer, yield_op.operands[slot])
            for slot, buffer in buffers.items()
            if yield_op.operands[slot] != buffer
        ]
        _copy_at_once(copies, yield_op)
        kept = [v for k, v in enumerate(yield_op.operands) if k not in buffers]
        Rewriter.replace_op(yield_op, scf.YieldOp(*kept))


def _tile(value: SSAValue) -> TileType:
    assert isinstance(value.type, TileType)
    return value.type


def _tile_slots(values: Sequence[SSAValue]) -> list[int]:
    return [k for k, value in enumerate(values) if isinstance(value.type, TileType)]


def _reads(op: Operation, value: SSAValue) -> int:
    """How often `op` and the ops nested in it read `value`."""
    return sum(operand == value for nested in op.walk() for operand in nested.operands)


def _yield_targets(
    block: Block, buffers: dict[int, SSAValue], pinned_values: set[SSAValue]
) -> dict[SSAValue, SSAValue]:
    """Yielded values produced in `block`, by the slot buffer each should be
    written into (if that buffer is free when the producer runs)."""
    yield_op = block.last_op
    assert isinstance(yield_op, scf.YieldOp)
    targets: dict[SSAValue, SSAValue] = {}
    for slot, buffer in buffers.items():
        value = yield_op.operands[slot]
        if (
            isinstance(value, OpResult)
            and value.op.parent_block() is block
            and isinstance(value.op, TileOpBase | scf.ForOp | scf.IfOp)
            and value not in targets
            and value not in pinned_values
        ):
            targets[value] = buffer
    return targets


def _copy_at_once(copies: list[tuple[SSAValue, SSAValue]], before: Operation) -> None:
    """`pto.tmov` each (destination, source) pair before `before` as one
    parallel copy: a destination is written once no pending copy reads it;
    a cycle (swapped accumulators) is broken through a scratch buffer."""
    pending = list(copies)
    while pending:
        sources = {source for _, source in pending}
        ready = next((copy for copy in pending if copy[0] not in sources), None)
        if ready is None:
            blocked = pending[0][0]
            assert isinstance(blocked.type, TileBufType)
            scratch = AllocTileOp(blocked.type)
            Rewriter.insert_op(scratch, InsertPoint.before(before))
            Rewriter.insert_op(TMovOp([blocked], [scratch.result]), InsertPoint.before(before))
            pending = [
                (destination, scratch.result if source == blocked else source)
                for destination, source in pending
            ]
            continue
        pending.remove(ready)
        destination, source = ready
        Rewriter.insert_op(TMovOp([source], [destination]), InsertPoint.before(before))


def _bind_after_alloc(value: SSAValue, alloc: AllocTileOp) -> None:
    """Re-emit the tassigns of a level-1 value right after its buffer's
    alloc_tile (they then bind the buffer once `value` is replaced by it)."""
    point: Operation = alloc
    for use in list(value.uses):
        assign = use.operation
        if not isinstance(assign, TAssignOp) or assign.address is None:
            continue
        bound = TAssignOp(value, assign.address.data)
        Rewriter.erase_op(assign)
        Rewriter.insert_op(bound, InsertPoint.after(point))
        point = bound


def _reject_carried_tiles(op: Operation) -> None:
    if isinstance(op, func.FuncOp | func.ReturnOp | TileOpBase | TAssignOp):
        return
    for value in [*op.operands, *op.results]:
        if isinstance(value.type, TileType):
            raise OpError(
                op,
                f"pto-to-dps does not lower '{op.name}' carrying a !pto.tile value; "
                "carry tiles through scf.for iter_args and scf.if results",
            )


def _pinned_values(function: func.FuncOp) -> set[SSAValue]:
    """Returned values and tassign-placed values keep buffers of their own."""
    pinned: set[SSAValue] = set()
    for op in function.walk():
        if isinstance(op, func.ReturnOp):
            pinned.update(op.operands)
        if isinstance(op, TAssignOp) and isinstance(op.tile.type, TileType):
            if op.result:
                raise OpError(
                    op,
                    "pto-to-dps binds level-1 tiles with `pto.tassign %t, @tile(ADDRESS)`; "
                    "the address-operand form is for level-2 buffers",
                )
            if isinstance(op.tile, BlockArgument) and op.tile.block is not function.body.block:
                raise OpError(
                    op,
                    "pto-to-dps places a loop-carried tile through its init value, "
                    "not the iter_arg (one buffer holds it for the whole loop)",
                )
            pinned.add(op.tile)
    return pinned


def _convert_signature(function: func.FuncOp) -> None:
    """Tile arguments and results become buffers of the same parameters."""
    block = function.body.block
    for arg in list(block.args):
        if isinstance(arg.type, TileType):
            Rewriter.replace_value_with_new_type(arg, buffer_type_of(arg.type))
    inputs = [arg.type for arg in block.args]
    outputs = [
        buffer_type_of(t) if isinstance(t, TileType) else t for t in function.function_type.outputs
    ]
    function.function_type = FunctionType.from_lists(inputs, outputs)


def lower_function(function: func.FuncOp) -> None:
    """Lower one function's tile values to buffers (declarations only change signature)."""
    if not function.body.blocks:
        return
    _convert_signature(function)
    # Arguments belong to the caller: never recycled.
    pinned_buffers: set[SSAValue] = set(function.body.block.args)
    _BlockLowering(function.body.block, _pinned_values(function), pinned_buffers).run()


@dataclass(frozen=True)
class PTOToDPSPass(ModulePass):
    """Lowers level-1 tile values and ops to level-2 buffers with buffer reuse. No options."""

    name = "pto-to-dps"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in [f for f in op.walk() if isinstance(f, func.FuncOp)]:
            lower_function(function)
