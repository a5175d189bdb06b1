"""The rules of PTOAS's `--pto-normalize-uncovered-tile-sections` pass
(`lib/PTO/Transforms/PTONormalizeUncoveredTileSections.cpp`), which `ptoas` runs on
every module before its backend and `pto-test-opt` runs when asked.

A kernel function runs on a cube core or a vector core. Where neither its module nor
the function says which (`pto.kernel_kind`), PTOAS infers it: a module whose
functions all have ops of one kind only gets that kind; otherwise each top-level run
of tile and synchronization ops of a function (a segment: top-level ops, with what
they nest, between explicit `pto.section.cube` / `pto.section.vector`, returns and
other ops) is wrapped in the section of its kind. It refuses a function when

- a segment holds an op whose core it cannot tell, or ops of both kinds: "contains an
  uncovered top-level op segment whose section kind cannot be inferred uniquely";
- a top-level op mixes nested explicit sections with tile ops outside them, which no
  wrapping can cover: "still contains an uncovered top-level op segment after
  section normalization".

An op's core: `set_flag` runs on its source pipe, `wait_flag` on its destination
pipe, `sync.set`/`sync.wait` and the block flags on their pipe; PIPE_M, PIPE_MTE1
and PIPE_FIX are the cube's, PIPE_V, PIPE_V2 and PIPE_MTE3 the vector's, and PIPE_S
and PIPE_MTE2, which both cores have, tell nothing. A tile op (`pto.t*`): by name
(matmul and gemv are cube ops; the `_to_aiv`/`_from_aiv` ... pipe ops by direction),
by the direction of the pipe a `tpush`/`tpop`/`tfree`/`talloc` uses, by tload's
destination and tstore's source location, then by its tiles' locations (left, right,
acc, bias or scaling: cube; vec: vector). PTOAS then falls back to the op's pipe,
which our ops do not record, and it also counts VPTO micro-ops and MTE copies by
their interfaces: such ops are left out here, so this check refuses only what PTOAS
refuses (it may accept a function PTOAS refuses for one of those ops). Nothing is
rewritten: the module is only read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.ir import Attribute, Operation
from xla_emit.dialects.pto.attrs import PipeHandleType
from xla_emit.dialects.pto.types import TileTypeBase
from xla_emit.dialects.pto.vpto_rules import memory_space
from xla_emit.passes.diagnostics import OpError

KERNEL_KIND = "pto.kernel_kind"
SECTIONS = ("pto.section.cube", "pto.section.vector")
CUBE_PIPES = frozenset({"PIPE_M", "PIPE_MTE1", "PIPE_FIX"})
VECTOR_PIPES = frozenset({"PIPE_V", "PIPE_V2", "PIPE_MTE3"})
CUBE_LOCATIONS = frozenset({"left", "right", "acc", "bias", "scaling"})
# `pto.t*` ops without PTOAS's pipe interface: no tile ops to this pass.
NOT_TILE_OPS = frozenset(
    {
        "pto.tassign",
        "pto.tensor_view_addr",
        "pto.threadfence",
        "pto.threadfence_block",
        "pto.tile_buf_addr",
        "pto.tile_valid_cols",
        "pto.tile_valid_rows",
        "pto.tpop_from_aic",
        "pto.tpop_from_aiv",
        "pto.tpush_to_aiv",
        "pto.trap",
    }
)
PIPE_TILE_OPS = ("pto.tpush", "pto.tpop", "pto.tfree", "pto.talloc")
PIPE_INITS = ("pto.initialize_l2l_pipe", "pto.initialize_l2g2l_pipe")
# The core an op runs on when its pipe carries tiles cube to vector (direction 1), then
# vector to cube (direction 2): the producer pushes and allocates, the consumer pops
# and frees.
_BY_DIRECTION = {"pto.tpush": ("cube", "vector"), "pto.talloc": ("cube", "vector")}
_AMBIGUOUS = "ambiguous"

Kind = str  # "cube" or "vector"


@dataclass
class Segment:
    """A run of top-level ops and what PTOAS finds in it."""

    first: Operation
    carrier: Operation | None = None
    tile_ops: bool = False
    nested_section: bool = False
    counts: dict[Kind, int] = field(default_factory=lambda: {"cube": 0, "vector": 0})
    ambiguous: list[Operation] = field(default_factory=list)

    def kind(self) -> Kind | None:
        if self.ambiguous or (self.counts["cube"] and self.counts["vector"]):
            return None
        if self.counts["vector"]:
            return "vector"
        return "cube" if self.counts["cube"] else None

    def merge(self, other: Segment) -> None:
        self.tile_ops |= other.tile_ops
        self.nested_section |= other.nested_section
        for kind, count in other.counts.items():
            self.counts[kind] += count
        self.ambiguous += other.ambiguous


def check_uncovered_tile_sections(module: ModuleOp) -> None:
    """Raise `OpError` at the first function PTOAS's pass refuses."""
    known = {id(m) for m in module.walk() if isinstance(m, ModuleOp) and _kind_of(m)}
    for inner in (op for op in module.walk() if isinstance(op, ModuleOp)):
        if id(inner) not in known and _whole_module_kind(inner) is not None:
            known.add(id(inner))
    for function in (op for op in module.walk() if isinstance(op, FuncOp)):
        if not function.body.blocks:
            continue
        owner = _parent_module(function)
        if _kind_of(function) or (owner is not None and id(owner) in known):
            continue
        if not _has_section(function) and _function_kind(function, {}) is not None:
            continue  # PTOAS gives the function its one kind
        _check_function(function)


def _check_function(function: FuncOp) -> None:
    segments = _segments(function)
    for segment in reversed(segments):
        if segment.tile_ops and not segment.nested_section and segment.kind() is None:
            raise OpError(function, _inference_error(segment))
    for segment in segments:
        if segment.tile_ops and segment.nested_section:
            start = (segment.carrier or segment.first).name
            raise OpError(
                function,
                "still contains an uncovered top-level op segment after section normalization; "
                "a top-level op mixes nested explicit pto.section.* with sibling ops outside "
                f"those sections; first uncovered op segment starts at '{start}'",
            )


def _inference_error(segment: Segment) -> str:
    message = (
        "contains an uncovered top-level op segment whose section kind cannot be inferred uniquely"
    )
    if segment.counts["cube"] and segment.counts["vector"]:
        message += "; saw both vector-like and cube-like ops in the same segment"
    elif segment.ambiguous:
        names = ", ".join(f"'{op.name}'" for op in segment.ambiguous[:3])
        message += f"; ambiguous op(s): {names}"
    return (
        message + "; wrap the ambiguous region in pto.section.cube or pto.section.vector to "
        "specify its physical section explicitly"
    )


def _segments(function: FuncOp) -> list[Segment]:
    """The function's uncovered top-level segments holding tile or sync ops."""
    blocks = function.body.blocks
    if len(blocks) != 1:
        return []
    segments: list[Segment] = []
    current: Segment | None = None
    for op in blocks.first.ops:  # type: ignore[union-attr]
        summary = None if isinstance(op, ReturnOp) or op.name in SECTIONS else _summary(op)
        if summary is None or not summary.tile_ops:
            if current is not None:
                segments.append(current)
            current = None
            continue
        if current is None:
            current = summary
            continue
        kinds = current.kind(), summary.kind()
        split = current.nested_section or summary.nested_section or None in kinds
        if split or kinds[0] != kinds[1]:
            segments.append(current)
            current = summary
        else:
            current.merge(summary)
    if current is not None:
        segments.append(current)
    return segments


def _summary(op: Operation) -> Segment:
    segment = Segment(op)
    _inspect(op, segment)
    if segment.tile_ops:
        segment.carrier = op
    return segment


def _inspect(op: Operation, segment: Segment) -> None:
    kind = _classify(op)
    if kind is not None:
        segment.tile_ops = True
        if kind == _AMBIGUOUS:
            segment.ambiguous.append(op)
        else:
            segment.counts[kind] += 1
    for region in op.regions:
        for block in region.blocks:
            for nested in block.ops:
                if nested.name in SECTIONS:
                    segment.nested_section = True
                else:
                    _inspect(nested, segment)


def _classify(op: Operation) -> str | None:
    """`cube`, `vector` or `ambiguous` for a sync or tile op PTOAS classifies as this
    module does; None for any other op (see the module's docstring)."""
    pipe = _sync_pipe(op)
    if pipe is not None:
        if pipe in CUBE_PIPES:
            return "cube"
        return "vector" if pipe in VECTOR_PIPES else _AMBIGUOUS
    if op.name.startswith("pto.t") and op.name not in NOT_TILE_OPS:
        return _classify_tile_op(op)
    return None


def _sync_pipe(op: Operation) -> str | None:
    """The pipe a synchronization op runs on, by PTOAS's rule for its kind."""
    names = {
        "pto.set_flag": "src_pipe",
        "pto.wait_flag": "dst_pipe",
        "pto.sync.set": "pipe",
        "pto.sync.wait": "pipe",
        "pto.set_cross_block": "pipe",
        "pto.wait_cross_block": "pipe",
        "pto.set_intra_block": "pipe",
        "pto.wait_intra_block": "pipe",
    }
    name = names.get(op.name)
    if name is None:
        return None
    attr = op.properties.get(name, op.attributes.get(name))
    value = getattr(attr, "value", None)
    return getattr(value, "data", None) or "PIPE_UNKNOWN"


def _classify_tile_op(op: Operation) -> str | None:
    name = op.name
    if name.startswith(("pto.tmatmul", "pto.tgemv")):
        return "cube"
    if name in ("pto.talloc_to_aiv", "pto.tpush_to_aic", "pto.tpop_from_aic", "pto.tfree_from_aic"):
        return "vector"
    if name in ("pto.talloc_to_aic", "pto.tpush_to_aiv", "pto.tpop_from_aiv", "pto.tfree_from_aiv"):
        return "cube"
    if name.endswith(("_to_aiv", "_from_aiv")):
        return "vector"
    by_pipe = _by_pipe_direction(op)
    if by_pipe is not None:
        return by_pipe
    if name == "pto.tload" and op.operands:
        space = _location(op.operands[-1].type)
        if space is not None:
            return "vector" if space == "vec" else ("cube" if space != "gm" else None)
    if name == "pto.tstore" and op.operands:
        space = _location(op.operands[0].type)
        if space is not None:
            return "vector" if space == "vec" else ("cube" if space != "gm" else None)
    spaces = {_location(v.type) for v in (*op.operands, *op.results)}
    if spaces & CUBE_LOCATIONS:
        return "cube"
    return "vector" if "vec" in spaces else None


def _by_pipe_direction(op: Operation) -> str | None:
    """tpush/tpop/tfree/talloc on a pipe made for one direction (1: cube to vector,
    2: vector to cube)."""
    if op.name not in PIPE_TILE_OPS:
        return None
    handle = next((v for v in op.operands if isinstance(v.type, PipeHandleType)), None)
    init = handle.owner if handle is not None else None
    if not isinstance(init, Operation) or init.name not in PIPE_INITS:
        return None
    mask = init.attributes.get("dir_mask", init.properties.get("dir_mask"))
    direction = mask.value.data if isinstance(mask, IntegerAttr) else None
    cube_to_vector, vector_to_cube = _BY_DIRECTION.get(op.name, ("vector", "cube"))
    if direction == 1:
        return cube_to_vector
    return vector_to_cube if direction == 2 else None


def _location(kind: Attribute) -> str | None:
    """A tile's location, or a pointer's or memref's memory, by tile location names."""
    if isinstance(kind, TileTypeBase):
        return kind.loc.data
    space = memory_space(kind)
    return _PTR_LOCATIONS.get(space, space) if space is not None else None


_PTR_LOCATIONS = {"ub": "vec", "l1": "mat", "l0a": "left", "l0b": "right", "l0c": "acc"}
_PTR_LOCATIONS |= {"bt": "bias", "fb": "scaling"}


def _whole_module_kind(module: ModuleOp) -> Kind | None:
    """The one kind every function of `module` has, where PTOAS can tell it."""
    functions = [op for op in module.body.ops if isinstance(op, FuncOp) and op.body.blocks]
    cache: dict[int, Kind | None] = {}
    kinds = set()
    for function in functions:
        if _has_section(function):
            return None
        kind = _function_kind(function, cache)
        if kind is None:
            return None
        kinds.add(kind)
    return kinds.pop() if len(kinds) == 1 else None


def _function_kind(function: FuncOp, cache: dict[int, Kind | None]) -> Kind | None:
    """PTOAS's whole-function inference: the one kind of its ops (SIMT sections count
    as vector), else that of the one function a wrapper only calls."""
    if id(function) in cache:
        return cache[id(function)]
    cache[id(function)] = None
    counts = {"cube": 0, "vector": 0}
    ambiguous = False
    for op in function.walk():
        if op.name in ("pto.section.simt", "pto.simt_launch"):
            counts["vector"] += 1
        kind = _classify(op)
        if kind == _AMBIGUOUS:
            ambiguous = True
        elif kind is not None:
            counts[kind] += 1
    kind = None
    if not ambiguous and not (counts["cube"] and counts["vector"]):
        kind = "vector" if counts["vector"] else ("cube" if counts["cube"] else None)
    if kind is None:
        callee = _wrapped_callee(function)
        if callee is not None and callee is not function:
            kind = _function_kind(callee, cache)
    cache[id(function)] = kind
    return kind


def _wrapped_callee(function: FuncOp) -> FuncOp | None:
    ops = list(function.body.blocks.first.ops) if len(function.body.blocks) == 1 else []  # type: ignore[union-attr]
    if len(ops) != 2 or not isinstance(ops[0], CallOp) or not isinstance(ops[1], ReturnOp):
        return None
    if list(ops[1].operands) != list(ops[0].results):
        return None
    module = _parent_module(function)
    name = ops[0].callee.root_reference.data
    found = (
        [op for op in module.body.ops if isinstance(op, FuncOp) and op.sym_name.data == name]
        if module is not None
        else []
    )
    return found[0] if found else None


def _kind_of(op: Operation) -> bool:
    return KERNEL_KIND in op.attributes or KERNEL_KIND in op.properties


def _has_section(function: FuncOp) -> bool:
    return any(op.name in SECTIONS for op in function.walk())


def _parent_module(op: Operation) -> ModuleOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, ModuleOp):
        parent = parent.parent_op()
    return parent
