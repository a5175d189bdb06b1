"""The module's functions and who references whom.

Inlining and dead-function erasure both read the call graph. An edge is any
symbol reference from an op inside one function to another function: a
`func.call`, a `pure_call`, but also a `combiner=@f` on `shuffle_reduce` or
`reduce`, so a function only used as a combiner is neither inlined away nor
erased.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, SymbolRefAttr
from xdsl.ir import Attribute, Operation


def function_table(module: ModuleOp) -> dict[str, func.FuncOp]:
    """The module's top-level functions by symbol name, in module order."""
    return {f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp)}


def is_public(function: func.FuncOp) -> bool:
    visibility = function.sym_visibility
    return visibility is None or visibility.data == "public"


def _symbols_in(attr: Attribute) -> Iterator[str]:
    if isinstance(attr, SymbolRefAttr):
        yield attr.root_reference.data
    elif isinstance(attr, ArrayAttr):
        for element in attr.data:
            yield from _symbols_in(element)
    elif isinstance(attr, DictionaryAttr):
        for element in attr.data.values():
            yield from _symbols_in(element)


def referenced_symbols(op: Operation) -> Iterator[str]:
    """Symbol names referenced by `op` or any op nested in it (with repeats)."""
    for inner in op.walk():
        if isinstance(inner, func.FuncOp):
            continue  # its own name is a definition, not a reference
        for attr in (*inner.attributes.values(), *inner.properties.values()):
            yield from _symbols_in(attr)


def callees(function: func.FuncOp, table: dict[str, func.FuncOp]) -> list[str]:
    """Functions `function` references, each once, in first-reference order."""
    return list(dict.fromkeys(s for s in referenced_symbols(function) if s in table))


def reachable_functions(roots: list[str], table: dict[str, func.FuncOp]) -> set[str]:
    """Every function reachable from `roots` through references."""
    seen: set[str] = set()
    stack = list(roots)
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        stack.extend(callees(table[name], table))
    return seen


def recursive_functions(table: dict[str, func.FuncOp]) -> set[str]:
    """Functions that can reach themselves (directly or through others)."""
    edges = {name: callees(f, table) for name, f in table.items()}
    return {name for name in table if name in reachable_functions(edges[name], table)}
