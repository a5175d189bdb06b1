"""`pto-verify-driver`: the checks PTOAS's driver makes for its build options.

PTOAS (`ptoas --pto-level=... [--enable-insert-sync]`) rejects a module before
any pass runs when it does not fit the build level it is compiled at, and its
PlanMemory pass, which runs below level 3 only, rejects reserved buffers it
cannot place. This pass makes the same checks for the same options:

- `pto.tassign` binds tiles to addresses by hand: only at level 3, and not with
  automatic synchronization (`insert-sync`), which would reorder around it;
- at level 3 every `pto.alloc_tile` names its address (`addr = %a`): nothing
  plans memory there; below level 3 none does, PlanMemory places them all;
- at level 3 an op names every scratch tile its kernel needs (PTOAS's implicit-tmp
  pass, which allocates a missing one, runs before PlanMemory); below it the pass
  sizes that tile from static shapes;
- below level 3, each function reserves at most one buffer (`pto.reserve_buffer`),
  with `auto = true` and no `base` (PlanMemory finds the base; a buffer fixed by
  hand, `auto = false`, is a level-3 program); at level 3 every reserved buffer
  has its `base`, since nothing else would give it one.

Options: `level` (`level1`, `level2` (PTOAS's default) or `level3`) and
`insert-sync` (default false).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TypeVar

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, UnitAttr
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xla_emit.dialects.pto import AllocTileOp, TAssignOp
from xla_emit.dialects.pto.pipe_ops import ReserveBufferOp
from xla_emit.dialects.pto.tile_op import TileOpBase, plain_tile
from xla_emit.dialects.pto.types import TileTypeBase, op_target
from xla_emit.passes.diagnostics import OpError

from xla_emit.pto.implicit_tmp_rules import implicit_tmp_error

LEVELS = ("level1", "level2", "level3")


def verify_driver_options(
    module: ModuleOp, level: str = "level2", insert_sync: bool = False
) -> None:
    """Raise an `OpError` at the first op PTOAS's driver rejects for these options."""
    if level not in LEVELS:
        expected = ", ".join(LEVELS)
        raise OpError(module, f"unknown PTO build level '{level}', expected one of {expected}")
    level_3 = level == "level3"
    tassign = next(_ops(module, TAssignOp), None)
    if tassign is not None and not level_3:
        raise OpError(tassign, "pto.tassign is only supported when --pto-level=level3")
    if tassign is not None and insert_sync:
        raise OpError(tassign, "pto.tassign requires --enable-insert-sync to be disabled")
    for alloc in _ops(module, AllocTileOp):
        if level_3 and alloc.addr is None:
            raise OpError(alloc, "requires 'addr' operand when --pto-level=level3")
        if not level_3 and alloc.addr is not None:
            raise OpError(
                alloc, "unexpected 'addr' operand: only supported when --pto-level=level3"
            )
    verify_implicit_tmps(module, level_3)
    if level_3:
        for reserve in _ops(module, ReserveBufferOp):
            if "base" not in reserve.attributes:
                raise OpError(
                    reserve,
                    "expects 'base' to be resolved before address materialization "
                    "(nothing plans memory at --pto-level=level3)",
                )
        return
    for function in module.ops:
        if isinstance(function, func.FuncOp):
            verify_plannable_reserve_buffers(function)


def verify_implicit_tmps(module: ModuleOp, level_3: bool) -> None:
    """PTOAS main's implicit-tmp pass: an op without the scratch tile its kernel needs
    gets one before PlanMemory, which level 3 skips (so the op must name it there)."""
    for op in _ops(module, TileOpBase):
        if not op.is_dps or not op.outs or _has_tmp(op):
            continue
        first, dst = (op.ins[0].type if op.ins else None), op.outs[0].type
        if not isinstance(dst, TileTypeBase):
            continue
        src = plain_tile(first) if isinstance(first, TileTypeBase) else None
        error = implicit_tmp_error(
            op.name.removeprefix("pto."),
            op_target(op),
            level_3,
            src,
            plain_tile(dst),
            {name: _attr_text(attr) for name, attr in op.attributes.items()},
        )
        if error:
            raise OpError(op, error)


def _has_tmp(op: TileOpBase) -> bool:
    if op.name == "pto.tquant":
        return len(op.outs) > 1
    if op.name == "pto.tmrgsort":
        return "no_tmp" not in op.attributes  # its other tile inputs are lists
    return any(isinstance(v.type, TileTypeBase) for v in op.ins[op.TILE_INPUTS :])


def _attr_text(attr: Attribute) -> str:
    if isinstance(attr, UnitAttr):
        return "true"
    if isinstance(attr, IntegerAttr):
        return "true" if attr.value.data else "false"
    return str(getattr(attr, "data", attr))


def verify_plannable_reserve_buffers(function: func.FuncOp) -> None:
    """PlanMemory's preconditions on reserved buffers (any number of them, as PTOAS main
    plans each in a hole of its memory): each placed automatically, none with an
    explicit base. Helper functions of tile ops own no buffers and are not planned."""
    if "pto.tileop.helper" in function.attributes:
        return
    reserves = list(_ops(function, ReserveBufferOp))
    for reserve in reserves:
        automatic = _flag(reserve, "auto")
        has_base = "base" in reserve.attributes
        if automatic and has_base:
            raise OpError(reserve, "expects 'base' to be absent when 'auto' is true")
        if not automatic and not has_base:
            raise OpError(reserve, "expects 'base' when 'auto' is false")
    for reserve in reserves:
        if not _flag(reserve, "auto"):
            raise OpError(
                reserve,
                "pto.reserve_buffer with explicit 'base' (auto = false) is not supported in "
                "PlanMemory; use --pto-level=level3 or set auto = true",
            )


def _flag(op: Operation, name: str) -> bool:
    """A boolean attribute (`auto = true`); absent is false."""
    value = op.attributes.get(name)
    return isinstance(value, IntegerAttr) and value.value.data != 0


_Op = TypeVar("_Op", bound=Operation)


def _ops(root: Operation, kind: type[_Op]) -> Iterator[_Op]:
    return (op for op in root.walk() if isinstance(op, kind))


@dataclass(frozen=True)
class PTOVerifyDriverPass(ModulePass):
    """Checks a module against PTOAS's build options.

    Options: `level` (`level1`, `level2` or `level3`; default `level2`, as PTOAS's)
    and `insert-sync` (PTOAS's `--enable-insert-sync`; default false).
    """

    name = "pto-verify-driver"

    level: str = "level2"
    insert_sync: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        verify_driver_options(op, self.level, self.insert_sync)
