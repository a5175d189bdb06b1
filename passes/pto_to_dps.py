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
stays live until the op holding the region ends. Tiles carried through loops
(iter_args, yields) are not supported and reported as errors.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from dialects.pto import (
    AllocTileOp,
    ElementwiseOpBase,
    TAssignOp,
    TileBufType,
    TileOpBase,
    TileType,
    buffer_type_of,
)
from passes.diagnostics import OpError


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
    """Lowers the tile ops of one block, recycling buffers of dead values."""

    def __init__(
        self, block: Block, pinned_values: set[SSAValue], pinned_buffers: set[SSAValue]
    ) -> None:
        self.block = block
        self.pinned_values = pinned_values
        self.pool = _BufferPool(pinned_buffers)
        self.last_use = _last_uses(block)
        # The level-1 value each buffer allocated in this block holds now.
        self.held: dict[SSAValue, SSAValue] = {}

    def run(self) -> None:
        for index, op in enumerate(list(self.block.ops)):
            for region in op.regions:
                for nested in region.blocks:
                    _BlockLowering(nested, self.pinned_values, self.pool.pinned).run()
            _reject_carried_tiles(op)
            dying = self._dying_buffers(op, index)
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
        destination = self._destination(op, result, dying)
        Rewriter.replace_op(
            op, type(op)(ins, [destination], (), dict(op.attributes)), new_results=[destination]
        )
        if destination in dying:
            dying.remove(destination)
        self.held[destination] = result
        if result not in self.last_use:
            # A value nobody reads frees its buffer at once.
            dying.append(destination)

    def _destination(self, op: TileOpBase, result: SSAValue, dying: list[SSAValue]) -> SSAValue:
        if not isinstance(result.type, TileType):
            raise OpError(op, f"expected a !pto.tile result, but got {result.type}")
        buffer_type = buffer_type_of(result.type)
        if result in self.pinned_values:
            return self._allocate(op, result, buffer_type, pinned=True)
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

    def _allocate(
        self, op: TileOpBase, result: SSAValue, buffer_type: TileBufType, pinned: bool
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
                "pass tiles into loops and branches as values defined outside them",
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
