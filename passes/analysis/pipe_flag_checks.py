"""PTOAS main's ResolveReservedBuffers pairing and flag allocation of cube-vector pipes
(`lib/PTO/Transforms/PTOResolveReservedBuffersPass.cpp`), run by every `ptoas` compile.

Each pipe init (the internal `initialize_l2l_pipe` / `initialize_l2g2l_pipe`, and a
front-end `aic/aiv_initialize_pipe` as PTOAS lowers it: to l2g2l when it has a global
slot buffer or tensor, else to l2l; its local buffer the C2V consumer buffer for
dir_mask 1, the V2C one for 2, both for 3) is keyed by the reserved buffers it uses
(owner function, name, direction: a reservation keys by its own function, an import
by its `peer_func`); a pipe of global slots only is keyed by its front-end id and
direction. Inits sharing a key form one component, which:

- for local pipes, holds exactly two inits, in two functions;
- agrees on dir_mask, slot_size, slot_num and local_slot_num;
- gets one flag base: the explicit `flag_base` if any, else the lowest even base free
  in each of its functions; it takes 2 flag ids (4 for dir_mask 3), and every
  function has 16.

Components take their bases in the order of their front-end id (then direction),
those without one after, in creation order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr, SymbolRefAttr
from xdsl.ir import Operation, SSAValue
from xla_emit.dialects.pto.types import enclosing_function
from xla_emit.passes.diagnostics import OpError

MAX_FLAG_IDS = 16
INTERNAL = ("pto.initialize_l2l_pipe", "pto.initialize_l2g2l_pipe")
FRONTEND = ("pto.aic_initialize_pipe", "pto.aiv_initialize_pipe")
FRONTEND_ID = "__pto.frontend_id"
PAIR_MESSAGE = (
    "requires a complete compatible peer init pair when local_addr comes from "
    "pto.reserve_buffer or pto.import_reserved_buffer"
)


@dataclass
class _Init:
    op: Operation
    function: str
    signature: tuple[int, int, int, int | None]
    global_only: bool
    kind: str  # the internal op it is or lowers to, for creation order
    keys: list[tuple[str, str, int]] = field(default_factory=list)


def _int(op: Operation, name: str) -> int | None:
    attr = op.attributes.get(name, op.properties.get(name))
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def _symbol(function: Operation | None) -> str:
    name = function.properties.get("sym_name") if function is not None else None
    return name.data if isinstance(name, StringAttr) else ""


def _key(value: SSAValue | None, function: str, direction: int) -> tuple[str, str, int] | None:
    owner = value.owner if value is not None else None
    if not isinstance(owner, Operation):
        return None
    name = owner.attributes.get("name")
    if not isinstance(name, StringAttr):
        return None
    if owner.name == "pto.reserve_buffer":
        return (function, name.data, direction)
    peer = owner.attributes.get("peer_func")
    if owner.name == "pto.import_reserved_buffer" and isinstance(peer, SymbolRefAttr):
        return (peer.root_reference.data, name.data, direction)
    return None


def _operand(op: Operation, name: str) -> SSAValue | None:
    return getattr(op, name, None)


def _describe(op: Operation) -> _Init | None:
    function = _symbol(enclosing_function(op))
    direction = _int(op, "dir_mask") or 0
    slot_num = _int(op, "slot_num") or (4 if direction == 3 else 8)
    signature = (direction, _int(op, "slot_size") or 0, slot_num, _int(op, "local_slot_num"))
    if op.name in FRONTEND:
        global_slots = _operand(op, "gm_slot_buffer") or _operand(op, "gm_slot_tensor")
        c2v, v2c = _operand(op, "c2v_consumer_buf"), _operand(op, "v2c_consumer_buf")
        local = {1: [(c2v, 1)], 2: [(v2c, 2)], 3: [(c2v, 1), (v2c, 2)]}.get(direction, [])
        kind = "pto.initialize_l2g2l_pipe" if global_slots is not None else INTERNAL[0]
        global_only = _operand(op, "gm_slot_tensor") is not None and c2v is None and v2c is None
        pipe_id = _int(op, "id") or 0
    else:
        first = _operand(op, "local_addr")
        local = [(first, 1 if direction == 3 else direction)]
        if direction == 3:
            local.append((_operand(op, "peer_local_addr"), 2))
        kind = op.name
        global_only = op.name == INTERNAL[1] and first is None
        pipe_id = _int(op, FRONTEND_ID)
    init = _Init(op, function, signature, global_only, kind)
    if global_only:
        init.keys.append(("__globaltensor", f"id_{pipe_id}", direction))
        return init
    init.keys = [key for value, d in local if (key := _key(value, function, d)) is not None]
    return init if init.keys else None


def _components(inits: list[_Init]) -> list[list[_Init]]:
    by_key: dict[tuple[str, str, int], list[_Init]] = {}
    for init in inits:
        for key in init.keys:
            by_key.setdefault(key, []).append(init)
    seen: set[int] = set()
    components = []
    for root in inits:
        if id(root) in seen:
            continue
        seen.add(id(root))
        stack, members = [root], []
        while stack:
            current = stack.pop()
            members.append(current)
            for key in current.keys:
                for other in by_key[key]:
                    if id(other) not in seen:
                        seen.add(id(other))
                        stack.append(other)
        components.append(members)
    return components


def _check_component(members: list[_Init]) -> None:
    first = members[0]
    if not first.global_only and len(members) != 2:
        raise OpError(first.op, PAIR_MESSAGE)
    if any(member.signature != first.signature for member in members[1:]):
        raise OpError(first.op, "requires peer pipe init ops to agree on direction and pipe shape")
    if not first.global_only and len({member.function for member in members}) != 2:
        raise OpError(first.op, PAIR_MESSAGE)


def _sort_key(members: list[_Init], order: int) -> tuple[int, int, int, int]:
    ids = [pipe_id for m in members if (pipe_id := _frontend_id(m.op)) is not None]
    if ids:
        return (0, min(ids), members[0].signature[0], order)
    return (1, 0, 0, order)


def _frontend_id(op: Operation) -> int | None:
    return _int(op, "id") if op.name in FRONTEND else _int(op, FRONTEND_ID)


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _place(members: list[_Init], used: dict[str, list[tuple[int, int]]]) -> None:
    width = 4 if members[0].signature[0] == 3 else 2
    functions = {member.function for member in members}
    explicit = [base for m in members if (base := _int(m.op, "flag_base")) is not None]
    base = explicit[0] if explicit else 0
    while not explicit:
        base += base % 2
        clashes = [
            other
            for f in functions
            for other in used.get(f, [])
            if _overlap((base, base + width), other)
        ]
        if not clashes:
            break
        base = max(base + 2, *(end + end % 2 for _, end in clashes))
    interval = (base, base + width)
    if interval[1] > MAX_FLAG_IDS:
        raise OpError(
            members[0].op,
            "requires all pipe components in a function to fit within "
            f"{MAX_FLAG_IDS} hardware flag ids",
        )
    if any(_overlap(interval, other) for f in functions for other in used.get(f, [])):
        raise OpError(
            members[0].op,
            "conflicting flag_base across peer pipe init components in the same function",
        )
    for function in functions:
        used.setdefault(function, []).append(interval)


def check_pipe_flags(module: ModuleOp) -> None:
    """Raise `OpError` where PTOAS's pairing or flag allocation fails."""
    described = [
        init
        for kind in INTERNAL
        for op in module.walk()
        if op.name in (kind, *FRONTEND)
        and (init := _describe(op)) is not None
        and init.kind == kind
    ]
    components = _components(described)
    for members in components:
        _check_component(members)
    ordered = sorted(enumerate(components), key=lambda item: _sort_key(item[1], item[0]))
    used: dict[str, list[tuple[int, int]]] = {}
    for _, members in ordered:
        _place(members, used)
