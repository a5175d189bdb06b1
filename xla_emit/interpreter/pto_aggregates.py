"""The PTO executor's structs and local arrays: `declare_struct`, `struct_get` /
`struct_set`, `declare_local_array`, `local_array_get` / `local_array_set`.

A `!pto.struct<...>` value is a list of its fields (a nested struct a list of its
own), starting at zero; `struct_set` writes one scalar field in place, so every use
of the struct sees it, as a variable in the kernel's local memory does. A
`!pto.local_array<...>` value is a numpy array of its shape, zeroed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.ir import Attribute, Operation

from xla_emit.dialects.pto.aggregate_types import LocalArrayType, StructType
from xla_emit.interpreter.element_types import numpy_dtype
from xla_emit.interpreter.pto_handlers import Handler, handlers_by_class
from xla_emit.interpreter.pto_tile import Value


def _zero(type_: Attribute) -> Any:
    if isinstance(type_, StructType):
        return [_zero(field) for field in type_.fields.data]
    return numpy_dtype(type_).type(0).item()


def _declare_struct(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    return [_zero(op.results[0].type)]


def _path(op: Operation) -> list[int]:
    return [int(i) for i in op.path.get_values()]  # type: ignore[attr-defined]


def _struct_get(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    value: Any = args[0]
    for index in _path(op):
        value = value[index]
    return [value]


def _struct_set(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    struct: Any = args[0]
    *outer, last = _path(op)
    for index in outer:
        struct = struct[index]
    struct[last] = args[1]
    return []


def _declare_array(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    type_ = op.results[0].type
    assert isinstance(type_, LocalArrayType)
    shape = tuple(dim.data for dim in type_.shape.data)
    return [np.zeros(shape, numpy_dtype(type_.element_type))]


def _element(ex: Any, op: Operation, array: Value, indices: list[Value]) -> tuple[int, ...]:
    assert isinstance(array, np.ndarray)
    where = tuple(int(i) for i in indices)  # type: ignore[arg-type]
    inside = len(where) == array.ndim and all(
        0 <= i < n for i, n in zip(where, array.shape, strict=True)
    )
    if not inside:
        raise ex.error(op, f"index {list(where)} is outside the array's shape {list(array.shape)}")
    return where


def _array_get(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    array = args[0]
    assert isinstance(array, np.ndarray)
    return [array[_element(ex, op, array, args[1:])].item()]


def _array_set(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    array = args[0]
    assert isinstance(array, np.ndarray)
    array[_element(ex, op, array, args[1:-1])] = args[-1]
    return []


_BY_NAME: dict[str, Handler] = {
    "pto.declare_struct": _declare_struct,
    "pto.struct_get": _struct_get,
    "pto.struct_set": _struct_set,
    "pto.declare_local_array": _declare_array,
    "pto.local_array_get": _array_get,
    "pto.local_array_set": _array_set,
}

AGGREGATE_HANDLERS = handlers_by_class(_BY_NAME)
