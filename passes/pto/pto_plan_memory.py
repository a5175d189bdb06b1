"""`pto-plan-memory`: give every level-2 tile buffer an address in its memory.

Each `pto.alloc_tile` buffer lives in the memory of its location (UB for
`vec`, L1 for `mat`, L0A/L0B/L0C for `left`/`right`/`acc`, ...). The pass
computes each buffer's live range over the function (from its alloc_tile to
its last use; a use inside a loop that the buffer was allocated outside of
keeps it live to the end of that loop), sizes it as rows x cols x element
bytes rounded up to 32 bytes, and places it first-fit at the lowest 32-byte
aligned address not used by any buffer live at the same time, so buffers with
disjoint lives share memory. Each placement is emitted as

    %t = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
    pto.tassign %t, @tile(0x400)

Manual mode: buffers the program already binds (`pto.tassign %t, @tile(A)`,
`pto.alloc_tile addr = %c`, or `pto.tassign %t, %c` with a constant `%c`)
keep their address; the pass checks that no two of them overlap while both
are live and plans the other buffers around them.

A buffer that does not fit is an error at its alloc_tile naming the buffers
live at that point. Capacities are the target's (`pto.target_arch` or the
`target-arch` option); `capacity="vec=4096","acc=1024"` overrides them.
Buffers passed in as function arguments belong to the caller and are not
planned.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException, VerifyException
from xla_emit.dialects.pto import AllocTileOp, TAssignOp, TileBufType, module_target
from xla_emit.passes.diagnostics import OpError

from xla_emit.pto.targets import BLOCK_BYTES, CAPACITIES, LOCATIONS, align_up, tile_bytes


@dataclass
class _Buffer:
    """One alloc_tile buffer: where it lives, for how long, and where it goes."""

    alloc: AllocTileOp
    name: str
    loc: str
    size: int
    start: int
    end: int
    address: int | None = None
    # The op that fixed the address (manual mode), for diagnostics.
    bound_by: Operation | None = None

    def live_with(self, other: _Buffer) -> bool:
        return self.start <= other.end and other.start <= self.end

    def overlaps(self, other: _Buffer) -> bool:
        assert self.address is not None and other.address is not None
        return (
            self.address < other.address + other.size and other.address < self.address + self.size
        )

    def describe(self) -> str:
        where = (
            ""
            if self.address is None
            else f" at [{hex(self.address)}, {hex(self.address + self.size)})"
        )
        return f"{self.name} ({self.size} bytes){where}"


@dataclass
class _FunctionPlan:
    """Live ranges and placements of the buffers of one function."""

    function: func.FuncOp
    capacities: dict[str, int]
    order: dict[Operation, int] = field(default_factory=dict[Operation, int])
    loop_end: dict[Operation, int] = field(default_factory=dict[Operation, int])
    buffers: list[_Buffer] = field(default_factory=list[_Buffer])

    def run(self) -> None:
        self._number_ops()
        self._collect_buffers()
        self._check_manual_placements()
        for buffer in sorted(self.buffers, key=lambda b: b.start):
            if buffer.address is None:
                address = self._place(buffer)
                Rewriter.insert_op(
                    TAssignOp(buffer.alloc.result, address), InsertPoint.after(buffer.alloc)
                )

    # -- liveness --------------------------------------------------------------

    def _number_ops(self) -> None:
        for index, op in enumerate(self.function.walk()):
            self.order[op] = index
        for op in self.function.walk():
            if isinstance(op, scf.ForOp | scf.WhileOp):
                self.loop_end[op] = max(self.order[nested] for nested in op.walk())

    def _use_position(self, user: Operation, alloc: AllocTileOp) -> int:
        """Where a use keeps the buffer live to: the use, or the end of every
        enclosing loop that does not also enclose the allocation."""
        position = self.order[user]
        ancestor = user.parent_op()
        while ancestor is not None and ancestor is not self.function:
            if ancestor in self.loop_end and not ancestor.is_ancestor(alloc):
                position = max(position, self.loop_end[ancestor])
            ancestor = ancestor.parent_op()
        return position

    def _collect_buffers(self) -> None:
        for index, op in enumerate(
            op for op in self.function.walk() if isinstance(op, AllocTileOp)
        ):
            tile = op.result.type
            assert isinstance(tile, TileBufType)
            name = f"%{op.result.name_hint}" if op.result.name_hint else f"alloc_tile #{index}"
            buffer = _Buffer(
                op,
                name,
                tile.loc.data,
                tile_bytes(tile.rows.data, tile.cols.data, tile.element_name),
                self.order[op],
                self.order[op],
            )
            for user in _users_through_aliases(op.result):
                buffer.end = max(buffer.end, self._use_position(user, op))
            self._read_manual_address(buffer)
            self.buffers.append(buffer)

    # -- manual mode -------------------------------------------------------------

    def _read_manual_address(self, buffer: _Buffer) -> None:
        bindings: list[tuple[Operation, int]] = []
        if buffer.alloc.addr is not None:
            bindings.append((buffer.alloc, _constant_address(buffer.alloc, buffer.alloc.addr)))
        for user in _users_through_aliases(buffer.alloc.result):
            if isinstance(user, TAssignOp):
                if user.address is not None:
                    bindings.append((user, user.address.data))
                elif user.dynamic_address is not None:
                    bindings.append((user, _constant_address(user, user.dynamic_address)))
        bindings.sort(key=lambda binding: self.order[binding[0]])
        addresses = sorted({address for _, address in bindings})
        if len(addresses) > 1:
            raise OpError(
                bindings[-1][0],
                f"{buffer.name} is bound to {len(addresses)} addresses "
                f"({', '.join(hex(a) for a in addresses)}); "
                "pto-plan-memory needs one address per buffer",
            )
        if bindings:
            buffer.bound_by, buffer.address = bindings[0]
            self._check_capacity(buffer, buffer.bound_by)

    def _check_manual_placements(self) -> None:
        fixed = [b for b in self.buffers if b.address is not None]
        for i, later in enumerate(fixed):
            for earlier in fixed[:i]:
                if (
                    later.loc == earlier.loc
                    and later.live_with(earlier)
                    and later.overlaps(earlier)
                ):
                    assert later.bound_by is not None
                    raise OpError(
                        later.bound_by,
                        f"{later.describe()} overlaps {earlier.describe()} in {later.loc} memory "
                        "while both are live",
                    )

    # -- placement -----------------------------------------------------------------

    def _capacity(self, loc: str) -> int:
        return self.capacities[loc]

    def _check_capacity(self, buffer: _Buffer, op: Operation) -> None:
        assert buffer.address is not None
        if buffer.address + buffer.size > self._capacity(buffer.loc):
            raise OpError(
                op,
                f"{buffer.describe()} ends beyond the {self._capacity(buffer.loc)}-byte "
                f"{buffer.loc} memory",
            )

    def _place(self, buffer: _Buffer) -> int:
        """First fit: the lowest aligned address clear of every live, placed buffer."""
        live = sorted(
            (
                other
                for other in self.buffers
                if other is not buffer
                and other.address is not None
                and other.loc == buffer.loc
                and other.live_with(buffer)
            ),
            key=lambda other: other.address or 0,
        )
        address = 0
        for other in live:
            assert other.address is not None
            if address + buffer.size <= other.address:
                break
            address = max(address, align_up(other.address + other.size, BLOCK_BYTES))
        capacity = self._capacity(buffer.loc)
        if address + buffer.size > capacity:
            in_use = sum(other.size for other in live)
            raise OpError(
                buffer.alloc,
                f"{buffer.loc} memory exceeded: {buffer.name} needs {buffer.size} bytes, but "
                f"{in_use} of the "
                f"{capacity} bytes are held by {len(live)} live buffers",
                [f"live: {other.describe()}" for other in live],
            )
        buffer.address = address
        return address


def _users_through_aliases(value: SSAValue) -> list[Operation]:
    """Ops using a buffer directly or through the result of an SSA-form tassign."""
    users: list[Operation] = []
    pending = [value]
    while pending:
        current = pending.pop()
        for use in current.uses:
            users.append(use.operation)
            if isinstance(use.operation, TAssignOp):
                pending.extend(use.operation.result)
    return users


def _constant_address(op: Operation, value: SSAValue) -> int:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    raise OpError(op, "pto-plan-memory needs manual addresses to be constants")


def _parse_capacities(entries: tuple[str, ...], defaults: dict[str, int]) -> dict[str, int]:
    capacities = dict(defaults)
    for entry in entries:
        loc, _, size = entry.partition("=")
        if loc not in LOCATIONS or not size.isdigit():
            raise PassFailedException(
                f'capacity entries look like "vec=196608" (locations: {", ".join(LOCATIONS)}), '
                f'but got "{entry}"'
            )
        capacities[loc] = int(size)
    return capacities


@dataclass(frozen=True)
class PTOPlanMemoryPass(ModulePass):
    """Assigns liveness-based, 32-byte aligned addresses to tile buffers.

    Options: `target-arch` (`a2a3` or `a5`; default: the module's
    `pto.target_arch`, else `a2a3`) picks the memory capacities;
    `capacity` (e.g. `"vec=4096","mat=65536"`) overrides some of them.
    """

    name = "pto-plan-memory"

    target_arch: str | None = None
    capacity: tuple[str, ...] = ()

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            target = module_target(op, self.target_arch)
            capacities = _parse_capacities(self.capacity, CAPACITIES[target])
        except (ValueError, VerifyException) as error:
            raise OpError(op, str(error)) from None
        for function in [f for f in op.walk() if isinstance(f, func.FuncOp)]:
            _FunctionPlan(function, capacities).run()
