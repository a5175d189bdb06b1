"""The option rules of PTOAS's driver (`tools/ptoas/ptoas.cpp`) and its fatobj child
assembly (`tools/ptoas/driver.cpp`), for one `ptoas` command line.

The driver compiles for the module's own `pto.target_arch` (else that of its child
modules when they agree), else `--pto-arch`, else A3 (`resolveEffectiveTargetArch`).
For that target it rejects:

- `--enable-bufid_sync` and `--vpto-scheduler=analyze|schedule` off A5;
- `--enable-op-fusion=true` off A5;
- a `--plan-memory-impl` other than `legacy` or `modern`;
- more than one automatic synchronization mode (`--enable-insert-sync`,
  `--enable-bufid_sync`, `--enable-inject-barrier-all-sync`,
  `--enable-graph-sync-solver`), and any of them with a `pto.tassign`;
- a `pto.alloc_multi_tile` carrying `pto.multi_buffer_addrs` (the planner's slot
  addresses), one without a base `addr` at level 3, one with it below.

A module compiled as a fatobj of backend children (`ptoas_backend_checks`) builds one
compile unit per child; a child whose public functions (without a kernel kind) share
a PTODSL logical name (`pto.ptodsl.logical_name`, else the symbol) cannot get its
logical wrapper yet, which the driver rejects at the child.

A full EmitC compile lowers every `pto.subview` through the address of the tile it
views (ResolveBufferSelect rewrites it into an `alloc_tile` at that address); a
subview of a function's tile argument has none, stays, and EmitC's conversion, which
takes no `pto.subview`, fails on it.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import BlockArgument, Operation
from xla_emit.passes.analysis.ptoas_backend_checks import DriverOptions, resolve_backend
from xla_emit.passes.diagnostics import OpError

PLAN_MEMORY_IMPLS = ("legacy", "modern")
TARGETS = ("a2", "a3", "a5")
LOGICAL_NAME_ATTR = "pto.ptodsl.logical_name"


def option_values(words: Sequence[str]) -> dict[str, str]:
    """`--name=value` and `--name value` options (a bare flag reads as `true`)."""
    values: dict[str, str] = {}
    for at, word in enumerate(words):
        if not word.startswith("--"):
            continue
        name, equals, value = word[2:].partition("=")
        following = words[at + 1] if at + 1 < len(words) else ""
        if not equals and name == "pto-arch" and following and not following.startswith("-"):
            value = following
        values[name] = value if equals or value else "true"
    return values


def _module_target(module: Operation) -> str | None:
    attr = module.attributes.get("pto.target_arch")
    if isinstance(attr, StringAttr) and attr.data.lower() in TARGETS:
        return attr.data.lower()
    return None


def effective_target(module: ModuleOp, command_line: str | None) -> str:
    """The target the driver compiles for (PTOAS's resolveEffectiveTargetArch)."""
    own = _module_target(module)
    if own is not None:
        return own
    children = {
        target
        for child in module.body.ops
        if isinstance(child, ModuleOp) and (target := _module_target(child)) is not None
    }
    if len(children) == 1:
        return children.pop()
    fallback = (command_line or "").lower()
    if children:
        return fallback
    return fallback if fallback in TARGETS else "a3"


def check_driver_flags(module: ModuleOp, words: Sequence[str]) -> None:
    """Raise `OpError` (at the module) for the options the driver refuses."""
    values = option_values(words)
    target = effective_target(module, values.get("pto-arch"))
    if values.get("enable-bufid_sync") == "true" and target != "a5":
        raise OpError(module, "--enable-bufid_sync requires --pto-arch=a5.")
    if values.get("vpto-scheduler", "off") != "off" and target != "a5":
        raise OpError(module, "--vpto-scheduler requires --pto-arch=a5.")
    if values.get("enable-op-fusion") == "true" and target != "a5":
        raise OpError(module, "--enable-op-fusion=true requires --pto-arch=a5.")
    impl = values.get("plan-memory-impl", "legacy")
    if impl not in PLAN_MEMORY_IMPLS:
        raise OpError(
            module, f"invalid --plan-memory-impl='{impl}', expected 'legacy' or 'modern'."
        )
    _check_sync_modes(module, values)
    _check_multi_tiles(module, values.get("pto-level", "level2"))
    options = DriverOptions.from_words(words)
    if not options.prints_ir and resolve_backend(module, options) == "emitc":
        _check_emitc_subviews(module)
    if resolve_backend(module, options) is None:
        for child in module.body.ops:
            if isinstance(child, ModuleOp):
                _check_logical_names(child)


def _logical_name(function: Operation) -> str:
    name = function.attributes.get(LOGICAL_NAME_ATTR)
    if isinstance(name, StringAttr):
        return name.data
    symbol = function.properties.get("sym_name")
    return symbol.data if isinstance(symbol, StringAttr) else ""


def _check_logical_names(child: ModuleOp) -> None:
    """A child's exported functions without a kernel kind need distinct logical names."""
    seen: set[str] = set()
    for function in child.body.ops:
        if function.name != "func.func" or "pto.kernel_kind" in function.attributes:
            continue
        visibility = function.properties.get("sym_visibility")
        private = isinstance(visibility, StringAttr) and visibility.data == "private"
        if private or not function.regions[0].blocks:
            continue
        name = _logical_name(function)
        if name in seen:
            raise OpError(
                child,
                "mixed-backend child assembly does not yet support ambiguous in-child logical "
                f"reference '@{name}'; found multiple ABI-specialized public func.func "
                "definitions",
            )
        seen.add(name)


SYNC_MODES = (
    "enable-insert-sync",
    "enable-bufid_sync",
    "enable-inject-barrier-all-sync",
    "enable-graph-sync-solver",
)
PLANNED_ADDRESSES_ATTR = "pto.multi_buffer_addrs"


def _check_sync_modes(module: ModuleOp, values: dict[str, str]) -> None:
    modes = [mode for mode in SYNC_MODES if values.get(mode) == "true"]
    if len(modes) > 1:
        raise OpError(
            module,
            "--enable-insert-sync, --enable-bufid_sync, --enable-inject-barrier-all-sync, and "
            "--enable-graph-sync-solver are mutually exclusive.",
        )
    tassign = next((op for op in module.walk() if op.name == "pto.tassign"), None)
    if tassign is not None and modes:
        raise OpError(tassign, f"pto.tassign requires --{modes[0]} to be disabled.")


def _check_multi_tiles(module: ModuleOp, level: str) -> None:
    allocs = [op for op in module.walk() if op.name == "pto.alloc_multi_tile"]
    for op in allocs:
        if PLANNED_ADDRESSES_ATTR in op.attributes:
            raise OpError(
                op, f"attribute '{PLANNED_ADDRESSES_ATTR}' is reserved for pto-plan-memory"
            )
    for op in allocs:
        has_address = getattr(op, "addr", None) is not None
        if level == "level3" and not has_address:
            raise OpError(
                op, "pto.alloc_multi_tile requires a base 'addr' operand when --pto-level=level3"
            )
        if level != "level3" and has_address:
            raise OpError(
                op,
                "unexpected 'addr' operand on pto.alloc_multi_tile: only supported when "
                "--pto-level=level3",
            )


def _viewed_root(op: Operation) -> object:
    """What a chain of subviews views: the first value not made by a subview."""
    value = op.operands[0]
    while isinstance(value.owner, Operation) and value.owner.name == "pto.subview":
        value = value.owner.operands[0]
    return value


def _check_emitc_subviews(module: ModuleOp) -> None:
    for op in module.walk():
        if op.name == "pto.subview" and isinstance(_viewed_root(op), BlockArgument):
            raise OpError(
                op, "failed to legalize operation 'pto.subview' that was explicitly marked illegal"
            )
