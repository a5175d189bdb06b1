"""Per-dialect op implementations and the registry the executor dispatches through.

Each dialect has one module in this package holding one `OpImpls` subclass
decorated with `@register_impls`; each method decorated with `@impl(OpClass)`
implements that op (and every subclass of it, so a shared undecorated base
class such as `ApplyIndexingOpBase` covers both of its spellings):

    @register_impls
    class MyDialectImpls(OpImpls):
        @impl(MyOp)
        def run_my_op(self, ex: Executor, op: MyOp, args: Values) -> Values:
            return (args[0] + args[1],)

The method gets the executor (lanes, mask, checks, helpers for regions and
errors), the op and its operand values, and returns the result values. A
terminator returns the values it passes to its parent. A dialect module is
found by name: add it to `DIALECT_MODULES` (a missing module is skipped). The
TPU (`tpu`) and PTO (`pto`) executors register nothing here: they keep tables
of their own, so they are not listed and a GPU run never imports them.

`@grid_axis(OpClass)` registers a function telling how an op contributes to
the launch grid (`gpu.thread_id x` with its `xla.range`, ...). To override
ops for one executor only: `registry = load_dialect_impls().copy();
registry.register(MyImpls()); Executor(module, registry=registry)`.

`OpTable` is the mechanism underneath, shared by every executor: the TPU and
PTO executors keep one each (their values and handler signatures differ) and
register the same `scalar_arith.WholeValueArithImpls` in it (every `arith` and
`math` op, run by this package's `arith` and `math` handlers), so each adds
only its memory model and its own ops.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, Literal, TypeAlias, TypeVar

from xdsl.ir import Operation

if TYPE_CHECKING:
    from xla_emit.interpreter.executor import Executor, Values

    ImplFunction: TypeAlias = Callable[[Executor, Operation, Values], Values]

GridKind = Literal["thread", "block"]
# (thread or block, axis 0..2, extent) of one grid-defining op.
GridAxis = tuple[GridKind, int, int]
GridAxisFunction: TypeAlias = Callable[[Operation], GridAxis | tuple[GridAxis, ...] | None]

DIALECT_MODULES = (
    "func",
    "arith",
    "math",
    "complex",
    "scf",
    "tensor",
    "vector",
    "memref",
    "gpu",
    "xla",
    "xla_gpu",
)

_IMPL_MARK = "_implements_ops"

_F = TypeVar("_F", bound=Callable[..., object])
_H = TypeVar("_H", bound=Callable[..., object])


class OpImpls:
    """Base class of a dialect's op implementations."""


def impl(*op_types: type[Operation]) -> Callable[[_F], _F]:
    """Mark a method of an `OpImpls` class as the implementation of `op_types`."""

    def mark(method: _F) -> _F:
        setattr(method, _IMPL_MARK, op_types)
        return method

    return mark


def implemented_ops(impls: type[OpImpls]) -> tuple[type[Operation], ...]:
    """Every op class an `OpImpls` class has an `@impl` method for."""
    return tuple(
        op_type
        for attribute in dir(impls)
        for op_type in getattr(getattr(impls, attribute), _IMPL_MARK, ())
    )


class OpTable(Generic[_H]):
    """Op class -> handler, looked up along the op's class hierarchy.

    The one dispatch mechanism of every executor: the SIMT executor's
    `ImplRegistry`, the TPU executor's and the PTO executor's tables. `_H` is
    the executor's handler signature.
    """

    def __init__(self) -> None:
        self._impls: dict[type[Operation], _H] = {}
        self._resolved: dict[type[Operation], _H | None] = {}

    def add(self, op_type: type[Operation], handler: _H) -> None:
        """Make `handler` run `op_type` (and its subclasses); later additions win."""
        self._impls[op_type] = handler
        self._resolved.clear()

    def register(self, impls: OpImpls) -> None:
        """Add every `@impl` method of `impls`; later registrations win."""
        for attribute in dir(type(impls)):
            method = getattr(impls, attribute)
            for op_type in getattr(method, _IMPL_MARK, ()):
                self.add(op_type, method)

    def lookup(self, op_type: type[Operation]) -> _H | None:
        """The handler for `op_type` or its nearest registered base class."""
        if op_type not in self._resolved:
            self._resolved[op_type] = next(
                (self._impls[base] for base in op_type.__mro__ if base in self._impls), None
            )
        return self._resolved[op_type]


class ImplRegistry(OpTable["ImplFunction"]):
    """The SIMT executor's table, plus how ops define the launch grid."""

    def __init__(self) -> None:
        super().__init__()
        self._grid_axes: dict[type[Operation], GridAxisFunction] = {}

    def copy(self) -> ImplRegistry:
        """A registry with the same implementations, to override some without touching this one."""
        duplicate = ImplRegistry()
        duplicate._impls = dict(self._impls)
        duplicate._grid_axes = dict(self._grid_axes)
        return duplicate

    def register_grid_axis(self, op_type: type[Operation], function: GridAxisFunction) -> None:
        self._grid_axes[op_type] = function

    def grid_axes(self, op: Operation) -> tuple[GridAxis, ...]:
        """The grid axes `op` reads (an `scf.forall` maps up to three)."""
        for base in type(op).__mro__:
            function = self._grid_axes.get(base)
            if function is not None:
                axes = function(op)
                if axes is None:
                    return ()
                return axes if isinstance(axes[0], tuple) else (axes,)  # pyright: ignore
        return ()


DEFAULT_REGISTRY = ImplRegistry()
_loaded = False


def register_impls(cls: type[OpImpls]) -> type[OpImpls]:
    """Class decorator: register an instance of `cls` in the default registry."""
    DEFAULT_REGISTRY.register(cls())
    return cls


def grid_axis(op_type: type[Operation]) -> Callable[[GridAxisFunction], GridAxisFunction]:
    """Decorator: `function(op)` says which grid axis `op` reads and its extent."""

    def register(function: GridAxisFunction) -> GridAxisFunction:
        DEFAULT_REGISTRY.register_grid_axis(op_type, function)
        return function

    return register


def load_dialect_impls() -> ImplRegistry:
    """Import every dialect module present in this package (once) and return the registry."""
    global _loaded
    if not _loaded:
        _loaded = True
        for name in DIALECT_MODULES:
            module = f"xla_emit.interpreter.{name}"
            if importlib.util.find_spec(module) is not None:
                importlib.import_module(module)
    return DEFAULT_REGISTRY
