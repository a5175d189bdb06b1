"""The rules PTOAS's SIMT persistent-fragment analysis checks before it materializes
fragments (`lib/PTO/Transforms/SIMTPersistentFragmentAnalysis.cpp`, run by the VPTO
backend's emission pipeline before SIMT outlining).

A persistent fragment is an `llvm.alloca ... {pto.persistent}` in a kernel entry whose
elements live in registers across the function's `pto.section.simt` launches: the
backend keeps each element in a keep/resume slot between sections instead of in
memory. That is only possible when every element and every access is known at
compile time, so PTOAS refuses a fragment unless:

- its function is a PTO kernel entry (`pto.entry`, `pto.kernel`, `pto.aicore`,
  `hacc.entry`) not yet outlined (`pto.simt_entry`), the alloca is outside every
  SIMT section and `pto.persistent` is a unit attribute;
- its element type is an integer of at most 64 bits, f16, bf16 or f32, and its
  element count a positive constant;
- its pointer is only offset by single-index `llvm.getelementptr`s of constant index
  (the pointer as their base), and read or written by `llvm.load`/`llvm.store` (as the
  address, never the stored value): nothing else may see it (`ptrtoint`, calls);
- each access sits directly in the one block of a `pto.section.simt` of the same
  function, reads or writes the alloca's element type (or a fixed vector of 2 or 4 of
  them, neither volatile nor atomic), at an aligned byte offset inside the allocation;
- one accessing section (the init section) dominates every other one; it stores each
  element it touches before loading it, and the other sections touch no element it
  did not store; every section it dominates launches the same (x, y, z) threads;
- the function's resident elements fit the 123 keep/resume slots, one each, two
  (starting at an even slot) for a type wider than 32 bits.

An access in `scf.for {pto.unroll = "full"}` loops of constant bounds inside its
section counts once per iteration, at its place in the unrolled block, as PTOAS's
`pto-unroll-simt-for` (run first) leaves it. Dominance is MLIR's over structured
regions: an op dominates the ops after it in its
block and everything nested in those; of a region's blocks only the entry block is
taken to dominate the others. Constants are `arith.constant` and `llvm.mlir.constant`
results, integer casts and sums, differences and products of them (PTOAS runs SCCP
and canonicalization first; a value they would fold further is not seen as constant
here). `check_persistent_fragments` raises `OpError` at the
op PTOAS's diagnostic names, with its message.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    UnitAttr,
    VectorType,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xla_emit.passes.diagnostics import OpError

PERSISTENT = "pto.persistent"
ENTRY_ATTRS = ("pto.entry", "hacc.entry", "pto.kernel", "pto.aicore")
SIMT_ENTRY = "pto.simt_entry"
SECTION = "pto.section.simt"
SLOT_LIMIT = 123
# `rawConstantIndices`' marker of an index given as an SSA operand.
GEP_DYNAMIC_INDEX = -(2**31)
PREFIX = "persistent SIMT fragment"


@dataclass
class Access:
    """One scalar lane of a load or store of the fragment."""

    op: Operation
    section: Operation
    element: int
    # Where the access stands in its section's block once loops are unrolled.
    position: tuple[int, ...] = ()


@dataclass
class Fragment:
    alloca: llvm.AllocaOp
    element_type: Attribute
    element_bytes: int
    total_bytes: int
    accesses: list[Access] = field(default_factory=list)
    resident: list[int] = field(default_factory=list)


def check_persistent_fragments(module: ModuleOp) -> None:
    """PTOAS's persistent-fragment rules on every function of `module`."""
    for op in module.walk():
        if isinstance(op, FuncOp) and op.body.blocks:
            _check_function(op)


def _check_function(func: FuncOp) -> None:
    allocas = [
        op for op in func.walk() if isinstance(op, llvm.AllocaOp) and _persistent(op) is not None
    ]
    if not allocas:
        return
    if not any(isinstance(func.attributes.get(name), UnitAttr) for name in ENTRY_ATTRS):
        raise OpError(allocas[0], f"{PREFIX} must be defined in a PTO kernel entry")
    sections = [op for op in func.walk() if op.name == SECTION]
    fragments = [_analyze(alloca, func, sections) for alloca in allocas]
    _allocate_slots(func, fragments)


def _persistent(op: Operation) -> Attribute | None:
    return op.attributes.get(PERSISTENT, op.properties.get(PERSISTENT))


def _analyze(alloca: llvm.AllocaOp, func: FuncOp, sections: list[Operation]) -> Fragment:
    if not isinstance(_persistent(alloca), UnitAttr):
        raise OpError(alloca, f"expects '{PERSISTENT}' to be a unit attribute")
    if _enclosing_section(alloca) is not None:
        raise OpError(alloca, f"{PREFIX} must be defined outside pto.section.simt")
    if SIMT_ENTRY in func.attributes:
        raise OpError(alloca, f"{PREFIX} must be defined before SIMT outlining")
    fragment = _shape(alloca)
    _collect_accesses(fragment, func)
    if not fragment.accesses:
        raise OpError(
            alloca,
            f"{PREFIX} requires at least one llvm.load or llvm.store inside pto.section.simt",
        )
    _check_residency(fragment, sections)
    return fragment


def _shape(alloca: llvm.AllocaOp) -> Fragment:
    element = alloca.elem_type
    if not _supported_scalar(element):
        raise OpError(
            alloca,
            f"{PREFIX} requires an integer scalar element type up to 64 bits or f16/bf16/f32, "
            f"got '{element}'",
        )
    count = _constant(alloca.size, alloca, "persistent fragment element count")
    if count <= 0:
        raise OpError(alloca, f"{PREFIX} element count must be positive")
    size = _byte_size(element)
    return Fragment(alloca, element, size, count * size)


Env = dict[SSAValue, int]


def _collect_accesses(fragment: Fragment, func: FuncOp) -> None:
    """Follow the pointer through its GEPs to every load and store, with its byte offset;
    an op in a loop PTOAS fully unrolls counts once per iteration (`env` holds the
    induction variables' values of one iteration)."""
    alloca = fragment.alloca
    work: list[tuple[SSAValue, int, Env]] = [(alloca.res, 0, {})]
    offsets: dict[tuple[SSAValue, tuple[int, ...]], int] = {}
    order = {id(op): index for index, op in enumerate(func.walk())}
    while work:
        pointer, offset, env = work.pop()
        key = (pointer, tuple(sorted(env.values())))
        if key in offsets:
            if offsets[key] != offset:
                raise OpError(alloca, "persistent fragment pointer has inconsistent byte offsets")
            continue
        offsets[key] = offset
        # In program order, so that of several bad uses the first is named.
        for use in sorted(pointer.uses, key=lambda use: order.get(id(use.operation), -1)):
            user = use.operation
            if _function_of(user) is not func:
                raise OpError(user, f"{PREFIX} pointer must remain in its defining function")
            if not dominates(alloca, user):
                raise OpError(user, f"{PREFIX} definition must dominate every use")
            for instance in _instances(user, env):
                _follow(fragment, func, use.index, user, offset, instance, work)


def _follow(
    fragment: Fragment,
    func: FuncOp,
    operand: int,
    user: Operation,
    offset: int,
    env: Env,
    work: list[tuple[SSAValue, int, Env]],
) -> None:
    if isinstance(user, llvm.GEPOp):
        if operand != 0:
            raise OpError(user, f"{PREFIX} pointer must be the base of llvm.getelementptr")
        work.append((user.result, offset + _gep_offset(user, env), env))
    elif isinstance(user, llvm.StoreOp):
        if operand != 1:
            raise OpError(user, f"{PREFIX} pointer must not be stored as a value")
        _record(fragment, user, user.value.type, offset, func, env)
    elif user.name == "llvm.load":
        _record(fragment, user, user.results[0].type, offset, func, env)
    else:
        raise OpError(user, f"unsupported use of {PREFIX} pointer by '{user.name}'")


def _instances(op: Operation, env: Env) -> list[Env]:
    """The iterations `op` runs in once PTOAS's `pto-unroll-simt-for` has unrolled the
    `scf.for {pto.unroll = "full"}` loops (constant bounds) between it and its SIMT
    section, each agreeing with `env`; just `env` where no such loop encloses it."""
    loops = _unrolled_loops(op)
    if not loops:
        return [env]
    envs: list[Env] = [{}]
    for loop in loops:
        expanded: list[Env] = []
        for outer in envs:
            bounds = [_evaluate(v, outer) for v in loop.operands[:3]]
            lb, ub, step = bounds
            if lb is None or ub is None or step is None or step <= 0 or ub <= lb:
                return [env]  # PTOAS leaves such a loop as it is
            iv = loop.regions[0].blocks.first.args[0]  # type: ignore[union-attr]
            expanded += [{**outer, iv: value} for value in range(lb, ub, step)]
        envs = expanded
    return [e for e in envs if all(e.get(k, v) == v for k, v in env.items())]


def _unrolled_loops(op: Operation) -> list[Operation]:
    """The unrollable loops around `op` inside its SIMT section, outermost first (none
    where something else stands between them)."""
    loops: list[Operation] = []
    parent = op.parent_op()
    while parent is not None and parent.name != SECTION:
        if not _fully_unrolled(parent):
            return []
        loops.append(parent)
        parent = parent.parent_op()
    return loops[::-1] if parent is not None else []


def _fully_unrolled(op: Operation) -> bool:
    """An `scf.for {pto.unroll = "full"}` MLIR's unroller takes: none of its results
    used after it (their constant bounds are checked per iteration)."""
    attr = op.attributes.get("pto.unroll")
    live_out = any(result.uses for result in op.results)
    return op.name == "scf.for" and not live_out and getattr(attr, "data", None) == "full"


def _position(op: Operation, env: Env) -> tuple[int, ...]:
    """The access's place in its section's block after unrolling: each enclosing op's
    index in its block, with each loop's iteration value after it."""
    key: list[int] = []
    current: Operation | None = op
    while current is not None and current.name != SECTION:
        block = current.parent_block()
        index = list(block.ops).index(current) if block is not None else 0
        if current is not op and current.name == "scf.for":
            iv = current.regions[0].blocks.first.args[0]  # type: ignore[union-attr]
            key[:0] = [env.get(iv, 0)]
        key[:0] = [index]
        current = current.parent_op()
    return tuple(key)


def _gep_offset(gep: llvm.GEPOp, env: Env) -> int:
    raw = gep.rawConstantIndices
    indices = raw.get_values() if isinstance(raw, DenseArrayBase) else ()
    if len(indices) != 1:
        raise OpError(
            gep, f"{PREFIX} currently requires llvm.getelementptr to have exactly one index"
        )
    index = indices[0]
    if index == GEP_DYNAMIC_INDEX:
        index = _constant(gep.ssa_indices[0], gep, "persistent fragment GEP index", env)
    return int(index) * _byte_size(gep.elem_type)


def _record(
    fragment: Fragment, access: Operation, kind: Attribute, offset: int, func: FuncOp, env: Env
) -> None:
    section = _enclosing_section(access)
    if section is None:
        raise OpError(access, f"{PREFIX} access must be inside pto.section.simt")
    if _function_of(section) is not func:
        raise OpError(access, f"{PREFIX} access must remain in its defining function")
    body = section.regions[0].blocks
    top = _unrolled_loops(access)
    if len(body) != 1 or (top[0] if top else access).parent_block() is not body.first:
        raise OpError(
            access,
            f"{PREFIX} access must be directly inside the single top-level block of the "
            "pto.section.simt body",
        )
    lanes = _lane_count(access, kind, fragment.element_type)
    size = fragment.element_bytes
    if offset < 0 or offset % size:
        raise OpError(
            access,
            f"{PREFIX} byte offset {offset} must be non-negative and aligned to element byte "
            f"size {size}",
        )
    if offset + lanes * size > fragment.total_bytes:
        lanes_text = f" with {lanes} scalar lane(s)" if lanes > 1 else ""
        raise OpError(
            access,
            f"{PREFIX} access at byte offset {offset}{lanes_text} exceeds allocation size "
            f"{fragment.total_bytes}",
        )
    position = _position(access, env)
    for lane in range(lanes):
        fragment.accesses.append(Access(access, section, offset // size + lane, position))


def _lane_count(access: Operation, kind: Attribute, element: Attribute) -> int:
    scalar, lanes = kind, 1
    if isinstance(kind, VectorType):
        shape = kind.get_shape()
        if len(shape) != 1 or any(kind.get_scalable_dims()):
            raise OpError(
                access, f"{PREFIX} vector access must be fixed-length and one-dimensional"
            )
        if shape[0] not in (2, 4):
            raise OpError(
                access,
                f"{PREFIX} currently supports only 2- or 4-lane vector accesses, got "
                f"{shape[0]} lanes",
            )
        scalar, lanes = kind.element_type, shape[0]
        if _volatile_or_atomic(access):
            raise OpError(access, f"{PREFIX} vector access cannot be volatile or atomic")
    if not _supported_scalar(scalar):
        raise OpError(
            access,
            f"{PREFIX} access requires an integer scalar element type up to 64 bits or "
            f"f16/bf16/f32, got '{scalar}'",
        )
    if scalar != element:
        raise OpError(
            access,
            f"{PREFIX} access element type '{scalar}' must match alloca element type '{element}'",
        )
    return lanes


def _volatile_or_atomic(access: Operation) -> bool:
    volatile = access.properties.get("volatile_", access.attributes.get("volatile_"))
    ordering = access.properties.get("ordering", access.attributes.get("ordering"))
    atomic = isinstance(ordering, IntegerAttr) and ordering.value.data != 0
    return volatile is not None or atomic


def _check_residency(fragment: Fragment, sections: list[Operation]) -> None:
    init = _init_section(fragment, sections)
    stored: set[int] = set()
    in_order = sorted((a for a in fragment.accesses if a.section is init), key=lambda a: a.position)
    for access in in_order:
        if access.element in stored:
            continue
        if not isinstance(access.op, llvm.StoreOp):
            raise OpError(
                access.op,
                f"{PREFIX} element offset {access.element} must be initialized by a store "
                "before its first load in the init section",
            )
        stored.add(access.element)
    for access in fragment.accesses:
        if access.element not in stored:
            raise OpError(
                access.op,
                f"{PREFIX} element offset {access.element} is not initialized by the init "
                "section and is not part of residentElements",
            )
    fragment.resident = sorted(stored)
    for section in sections:
        if section is init or not dominates(init, section):
            continue
        if launch_dimensions(section) != launch_dimensions(init):
            raise OpError(
                section,
                f"{PREFIX} carry section launch dimensions {_dims(section)} must match init "
                f"section dimensions {_dims(init)}",
            )


def _init_section(fragment: Fragment, sections: list[Operation]) -> Operation:
    touched = {id(a.section) for a in fragment.accesses}
    accessed = [section for section in sections if id(section) in touched]
    candidates = [
        candidate
        for candidate in accessed
        if all(other is candidate or dominates(candidate, other) for other in accessed)
    ]
    if len(candidates) > 1:
        raise OpError(
            fragment.alloca,
            f"{PREFIX} has multiple init section candidates that dominate every access section",
        )
    if not candidates:
        raise OpError(
            fragment.alloca,
            f"{PREFIX} requires a unique init section that dominates every access section",
        )
    return candidates[0]


def _allocate_slots(func: FuncOp, fragments: list[Fragment]) -> None:
    next_slot = 0
    for fragment in fragments:
        width = 2 if _bit_width(fragment.element_type) > 32 else 1
        for element in fragment.resident:
            slot = next_slot + (next_slot % 2 if width == 2 else 0)
            if slot > SLOT_LIMIT - width:
                raise OpError(
                    fragment.alloca,
                    f"{PREFIX} slot allocation in function '{func.sym_name.data}' exceeds the "
                    f"{SLOT_LIMIT}-slot limit: element offset {element} of type "
                    f"'{fragment.element_type}' needs {width} slot(s), next candidate slot is "
                    f"{slot}",
                )
            next_slot = slot + width


def launch_dimensions(section: Operation) -> tuple[int, int, int]:
    """A `pto.section.simt`'s (x, y, z) thread counts (1 where not given)."""

    def dim(name: str) -> int:
        attr = section.properties.get(name, section.attributes.get(name))
        return attr.value.data if isinstance(attr, IntegerAttr) else 1

    return dim("dimX"), dim("dimY"), dim("dimZ")


def _dims(section: Operation) -> str:
    x, y, z = launch_dimensions(section)
    return f"({x}, {y}, {z})"


def dominates(a: Operation, b: Operation) -> bool:
    """Whether `a` dominates `b` in structured regions (see the module's docstring)."""
    block_a = a.parent_block()
    for ancestor in _self_and_ancestors(b):
        block = ancestor.parent_block()
        if block is None:
            return False
        if block is block_a:
            return ancestor is a or _comes_before(a, ancestor, block)
        if block_a is not None and block.parent is block_a.parent and block.parent is not None:
            return block_a is block.parent.blocks.first
    return False


def _self_and_ancestors(op: Operation) -> Iterator[Operation]:
    current: Operation | None = op
    while current is not None:
        yield current
        current = current.parent_op()


def _comes_before(a: Operation, b: Operation, block: Block) -> bool:
    for op in block.ops:
        if op is a:
            return True
        if op is b:
            return False
    return False


def _enclosing_section(op: Operation) -> Operation | None:
    return next((p for p in _self_and_ancestors(op) if p is not op and p.name == SECTION), None)


def _function_of(op: Operation) -> Operation | None:
    return next((p for p in _self_and_ancestors(op) if isinstance(p, FuncOp)), None)


def _constant(value: SSAValue, anchor: Operation, what: str, env: Env | None = None) -> int:
    result = _evaluate(value, env or {})
    if result is None:
        raise OpError(anchor, f"{what} must be a compile-time integer constant")
    return result


_CASTS = ("arith.index_cast", "arith.index_castui", "arith.extsi", "arith.extui", "arith.trunci")
_BINARY = {
    "arith.addi": lambda a, b: a + b,
    "arith.subi": lambda a, b: a - b,
    "arith.muli": lambda a, b: a * b,
}


def _evaluate(value: SSAValue, env: Env) -> int | None:
    """The integer `value` folds to (constants, casts, +, -, * of them and of the
    induction variables `env` gives), None where it is not a constant."""
    if value in env:
        return env[value]
    owner = value.owner
    if not isinstance(owner, Operation):
        return None
    if owner.name in ("arith.constant", "llvm.mlir.constant"):
        attr = owner.properties.get("value", owner.attributes.get("value"))
        return attr.value.data if isinstance(attr, IntegerAttr) else None
    if owner.name in _CASTS:
        return _evaluate(owner.operands[0], env)
    if owner.name in _BINARY:
        a, b = (_evaluate(operand, env) for operand in owner.operands)
        return None if a is None or b is None else _BINARY[owner.name](a, b)
    return None


def _supported_scalar(kind: Attribute) -> bool:
    if isinstance(kind, IntegerType):
        return kind.width.data <= 64
    return isinstance(kind, Float16Type | BFloat16Type | Float32Type)


def _bit_width(kind: Attribute) -> int:
    if isinstance(kind, IntegerType):
        return kind.width.data
    if isinstance(kind, AnyFloat):
        return kind.bitwidth
    return 0


def _byte_size(kind: Attribute) -> int:
    """The bytes LLVM's default data layout gives a scalar or a fixed vector of them."""
    if isinstance(kind, VectorType):
        return kind.element_count() * _byte_size(kind.element_type)
    return max(1, (_bit_width(kind) + 7) // 8)
