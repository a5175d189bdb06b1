"""`pto-verify-pipes`: PTOAS's module-wide rules for cube-vector pipes.

A pipe carries tiles between a cube function and a vector function. Each side
initializes it (`pto.initialize_l2l_pipe` on A5, `pto.initialize_l2g2l_pipe`
on A2A3, or the front-end `pto.aic_initialize_pipe` / `pto.aiv_initialize_pipe`
that PTOAS lowers to them), naming its local slot buffer: a
`pto.reserve_buffer` of its own or a `pto.import_reserved_buffer` of the
peer's. Both sides of one logical pipe name the same buffer (the owner's
function and the buffer's name) for the same direction (1: cube to vector,
2: vector to cube; direction 3 initializes both, its local buffer for 1 and its
peer buffer for 2). PTOAS checks, in the order its passes run:

front end (PTOLowerFrontendPipeOps), per function:
  inits of one kind, their ids unique (0 when left out); on A2A3 a local pipe
  (no `gm_slot_tensor`) needs a `gm_slot_buffer`; `tpush_to_aiv` /
  `tpop_from_aic` / `tfree_from_aic` name (by `id`) an init of their function
  enabling direction 1, the `_to_aic` / `_from_aiv` ops direction 2.
split inference (PTOInferValidatePipeInit), over the inits that share a buffer:
  the tpush/tpop/tfree of one pipe all use `split = 0` (no split) or all
  `split = 1`/`2`; peers agree on it and on an explicit `nosplit`, and an
  explicit `nosplit` agrees with the users.
reserved buffers (PTOResolveReservedBuffers):
  without an explicit `flag_base`, an init's buffer comes from reserve_buffer or
  import_reserved_buffer; such a buffer is initialized exactly once on each of
  its two sides (the owner and the one importer); peers' explicit `flag_base`s
  agree; an import names an existing function that reserves that buffer.

The target (for the A2A3 rule) comes from the `target-arch` option, else the
module's `pto.target_arch`, else A2A3.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TypeVar

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr, SymbolRefAttr
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto import module_target
from xla_emit.dialects.pto.pipe_ops import (
    AicInitializePipeOp,
    AivInitializePipeOp,
    ImportReservedBufferOp,
    InitializeL2G2LPipeOp,
    InitializeL2LPipeOp,
    ReserveBufferOp,
    TFreeFromAicOp,
    TFreeFromAivOp,
    TFreeOp,
    TPopFromAicOp,
    TPopFromAivOp,
    TPopOp,
    TPushOp,
    TPushToAicOp,
    TPushToAivOp,
)
from xla_emit.passes.diagnostics import OpError

CUBE_TO_VECTOR, VECTOR_TO_CUBE, BOTH = 1, 2, 3
FRONTEND_INITS = (AicInitializePipeOp, AivInitializePipeOp)
LOWERED_INITS = (InitializeL2LPipeOp, InitializeL2G2LPipeOp)
# The front-end data ops by the direction of the pipe they use.
FRONTEND_USERS = {
    CUBE_TO_VECTOR: (TPushToAivOp, TPopFromAicOp, TFreeFromAicOp),
    VECTOR_TO_CUBE: (TPushToAicOp, TPopFromAivOp, TFreeFromAivOp),
}
# A logical pipe: the function owning its buffer, the buffer's name, the direction.
PipeKey = tuple[str, str, int]


@dataclass
class PipeInit:
    """One side's initialization of a pipe, front-end or lowered."""

    op: Operation
    function: str
    buffers: list[tuple[SSAValue, int]]
    splits: list[int]
    nosplit: bool | None
    flag_base: int | None
    keys: list[PipeKey] = field(default_factory=list[PipeKey])
    # A pipe of GlobalTensor slots only: its peers share its front-end id and direction.
    global_key: PipeKey | None = None


def verify_pipes(module: ModuleOp, target_arch: str | None = None) -> None:
    """Raise an `OpError` at the first pipe rule the module breaks."""
    try:
        target = module_target(module, target_arch)
    except (ValueError, VerifyException) as error:
        raise OpError(module, str(error)) from None
    functions = [op for op in module.ops if isinstance(op, func.FuncOp)]
    for function in functions:
        verify_frontend_pipes(function, target)
    inits = [init for function in functions for init in _inits_of(function)]
    verify_split_agreement(inits)
    verify_buffer_pairs(inits)
    verify_imports(module, functions)


def verify_frontend_pipes(function: func.FuncOp, target: str) -> None:
    """PTOAS's front-end lowering: inits of one kind per function, each data op naming
    (by `id`, 0 when left out) an init that enables its direction."""
    inits = [op for op in function.walk() if isinstance(op, FRONTEND_INITS)]
    kinds = {type(op) for op in inits}
    if len(kinds) > 1:
        raise OpError(
            function,
            "cannot mix pto.aic_initialize_pipe and pto.aiv_initialize_pipe in one function",
        )
    for init in inits:
        local = init.gm_slot_tensor is None
        if local and target != "a5" and init.gm_slot_buffer is None:
            raise OpError(init, "requires 'gm_slot_buffer' when lowering to a2/a3")
    by_id = {_integer(init, "id") or 0: init for init in inits}
    for direction, users in FRONTEND_USERS.items():
        for user in (op for op in function.walk() if isinstance(op, users)):
            pipe_id = _integer(user, "id") or 0
            init = by_id.get(pipe_id)
            if init is None:
                raise OpError(
                    user,
                    f"expects 'id' = {pipe_id} to match a frontend initialize_pipe op in the "
                    "same function",
                )
            if direction not in _frontend_directions(init):
                masks = "1 or 3" if direction == CUBE_TO_VECTOR else "2 or 3"
                raise OpError(
                    user,
                    f"expects 'id' = {pipe_id} to reference initialize_pipe with dir_mask = "
                    f"{masks}",
                )


def verify_split_agreement(inits: list[PipeInit]) -> None:
    """PTOAS's split inference over each group of inits that share a buffer."""
    for group in _peer_groups(inits):
        explicit: bool | None = None
        for init in group:
            if 0 in init.splits and any(split != 0 for split in init.splits):
                raise OpError(
                    init.op,
                    "cannot mix 'split = 0' with 'split = 1' or 'split = 2' on the same "
                    "logical pipe",
                )
            if init.nosplit is None:
                continue
            if explicit is not None and explicit != init.nosplit:
                raise OpError(init.op, "conflicting explicit 'nosplit' across peer pipe init ops")
            explicit = init.nosplit
        inferred: bool | None = None
        for init in group:
            used = _nosplit_used(init)
            if used is None:
                continue
            if inferred is not None and inferred != used:
                raise OpError(init.op, "conflicting pipe split usage across peer pipe init ops")
            inferred = used
        if explicit is None or inferred is None or explicit == inferred:
            continue
        for init in group:
            if init.nosplit is not None and init.nosplit != inferred:
                wanted = "split = 1 or split = 2" if init.nosplit else "split = 0"
                raise OpError(
                    init.op,
                    f"explicit 'nosplit = {str(init.nosplit).lower()}' conflicts with "
                    f"downstream users that require {wanted}",
                )


def verify_buffer_pairs(inits: list[PipeInit]) -> None:
    """PTOAS's reserved-buffer resolution: each buffer's pipe has its two sides."""
    by_key: dict[PipeKey, list[PipeInit]] = {}
    for init in inits:
        if init.global_key is not None:
            continue  # no reserved buffer to resolve
        if not init.keys and init.flag_base is None:
            raise OpError(
                init.op,
                "requires local_addr to come from pto.reserve_buffer or "
                "pto.import_reserved_buffer when 'flag_base' is not explicit",
            )
        for key in init.keys:
            by_key.setdefault(key, []).append(init)
    for key in sorted(by_key):
        group = by_key[key]
        sides = {init.function for init in group}
        if len(group) != 2 or len(sides) != 2 or len(sides | {key[0]}) != 2:
            raise OpError(
                group[0].op,
                "requires a complete peer init pair when local_addr comes from "
                "pto.reserve_buffer or pto.import_reserved_buffer",
            )
        bases = [init for init in group if init.flag_base is not None]
        if any(init.flag_base != bases[0].flag_base for init in bases):
            conflicting = next(i for i in bases if i.flag_base != bases[0].flag_base)
            raise OpError(conflicting.op, "conflicting explicit flag_base across peer pipe inits")


def verify_imports(module: ModuleOp, functions: list[func.FuncOp]) -> None:
    """Each import names an existing function that reserves the buffer it names."""
    by_name = {function.sym_name.data: function for function in functions}
    for imported in _ops(module, ImportReservedBufferOp):
        peer = by_name.get(_peer_function(imported))
        if peer is None:
            raise OpError(imported, "expects 'peer_func' to reference an existing func.func")
        name = _name(imported)
        if not any(_name(reserve) == name for reserve in _ops(peer, ReserveBufferOp)):
            raise OpError(imported, "expects matching peer reserve_buffer to exist")


# -- collecting the inits ---------------------------------------------------------------


def _inits_of(function: func.FuncOp) -> Iterator[PipeInit]:
    name = function.sym_name.data
    for op in function.walk():
        if isinstance(op, LOWERED_INITS):
            init = _lowered_init(op, name)
            global_only = isinstance(op, InitializeL2G2LPipeOp) and op.local_addr is None
            pipe_id = _integer(op, "__pto.frontend_id")
        elif isinstance(op, FRONTEND_INITS) and _dir_mask(op) in (1, 2, 3):
            init = _frontend_init(op, function)
            global_only = op.c2v_consumer_buf is None and op.v2c_consumer_buf is None
            pipe_id = _integer(op, "id") or 0
        else:
            continue
        init.keys = [key for value, d in init.buffers if (key := _key(value, d, name))]
        if global_only:
            # PTOAS keys a GlobalTensor-only pipe by its front-end id (else the op
            # itself) and direction.
            name_key = f"id_{pipe_id}" if pipe_id is not None else f"op_{id(op)}"
            init.global_key = ("__globaltensor", name_key, _dir_mask(op) or 0)
        yield init


def _lowered_init(op: InitializeL2LPipeOp | InitializeL2G2LPipeOp, function: str) -> PipeInit:
    direction = _dir_mask(op)
    # A pipe through global memory only (PTOAS main) has no local buffer to check.
    local = [] if op.local_addr is None else [op.local_addr]
    if direction == BOTH:
        buffers = [(value, CUBE_TO_VECTOR) for value in local]
        if op.peer_local_addr is not None:
            buffers.append((op.peer_local_addr, VECTOR_TO_CUBE))
    else:
        buffers = [(value, direction) for value in local]
    splits = [
        _integer(user, "split") or 0
        for use in op.pipe.uses
        if isinstance(user := use.operation, TPushOp | TPopOp | TFreeOp)
    ]
    return PipeInit(op, function, buffers, splits, _bool(op, "nosplit"), _integer(op, "flag_base"))


def _frontend_init(
    op: AicInitializePipeOp | AivInitializePipeOp, function: func.FuncOp
) -> PipeInit:
    """What PTOAS lowers a front-end init to: one pipe, used by the function's data ops."""
    directions = _frontend_directions(op)
    buffers = []
    if CUBE_TO_VECTOR in directions and op.c2v_consumer_buf is not None:
        buffers.append((op.c2v_consumer_buf, CUBE_TO_VECTOR))
    if VECTOR_TO_CUBE in directions and op.v2c_consumer_buf is not None:
        buffers.append((op.v2c_consumer_buf, VECTOR_TO_CUBE))
    users = tuple(kind for d in directions for kind in FRONTEND_USERS[d])
    pipe_id = _integer(op, "id") or 0
    splits = [
        _integer(user, "split") or 0
        for user in function.walk()
        if isinstance(user, users) and (_integer(user, "id") or 0) == pipe_id
    ]
    # The lowering gives the pipe no flag_base.
    return PipeInit(op, function.sym_name.data, buffers, splits, _bool(op, "nosplit"), None)


def _frontend_directions(op: AicInitializePipeOp | AivInitializePipeOp) -> set[int]:
    return {BOTH: {CUBE_TO_VECTOR, VECTOR_TO_CUBE}}.get(_dir_mask(op), {_dir_mask(op)})


def _key(buffer: SSAValue, direction: int, function: str) -> PipeKey | None:
    """The logical pipe a buffer names: its owner, its name, the direction."""
    owner = buffer.owner
    if isinstance(owner, ReserveBufferOp):
        return (function, _name(owner), direction)
    if isinstance(owner, ImportReservedBufferOp):
        return (_peer_function(owner), _name(owner), direction)
    return None


def _peer_groups(inits: list[PipeInit]) -> list[list[PipeInit]]:
    """The inits joined by shared buffers, each group in program order."""
    group_of = list(range(len(inits)))

    def root(index: int) -> int:
        while group_of[index] != index:
            index = group_of[index]
        return index

    first: dict[PipeKey, int] = {}
    for index, init in enumerate(inits):
        global_keys = [init.global_key] if init.global_key is not None else []
        for key in [*init.keys, *global_keys]:
            if key in first:
                group_of[root(index)] = root(first[key])
            else:
                first[key] = index
    groups: dict[int, list[PipeInit]] = {}
    for index, init in enumerate(inits):
        groups.setdefault(root(index), []).append(init)
    return list(groups.values())


def _nosplit_used(init: PipeInit) -> bool | None:
    """What the users of a pipe require: no split (True), a split (False), or nothing."""
    if not init.splits:
        return None
    return all(split == 0 for split in init.splits)


# -- attributes -------------------------------------------------------------------------


def _dir_mask(op: Operation) -> int:
    return _integer(op, "dir_mask") or 0


def _integer(op: Operation, name: str) -> int | None:
    value = op.attributes.get(name)
    return value.value.data if isinstance(value, IntegerAttr) else None


def _bool(op: Operation, name: str) -> bool | None:
    value = _integer(op, name)
    return None if value is None else value != 0


def _name(op: Operation) -> str:
    value = op.attributes.get("name")
    return value.data if isinstance(value, StringAttr) else ""


def _peer_function(op: ImportReservedBufferOp) -> str:
    value = op.attributes.get("peer_func")
    return value.root_reference.data if isinstance(value, SymbolRefAttr) else ""


_Op = TypeVar("_Op", bound=Operation)


def _ops(root: Operation, kind: type[_Op]) -> Iterator[_Op]:
    return (op for op in root.walk() if isinstance(op, kind))


@dataclass(frozen=True)
class PTOVerifyPipesPass(ModulePass):
    """Checks PTOAS's module-wide rules for cube-vector pipes.

    Options: `target-arch` (`a2a3` or `a5`; default: the module's
    `pto.target_arch`, else `a2a3`).
    """

    name = "pto-verify-pipes"

    target_arch: str | None = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        verify_pipes(op, self.target_arch)
