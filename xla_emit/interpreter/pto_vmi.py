"""The PTO executor's `pto.vmi.*` ops: logical vectors of any length, before layout.

A `!pto.vmi.vreg<NxT>` value is a numpy array of N lanes of T (its layout changes no
value); a `!pto.vmi.mask<Nx...>` value is a bool array of N lanes. Loads and stores
read and write `N` elements from the offset of a UB buffer (offsets count elements).
Integer arithmetic wraps, as two's complement does; `shrui` shifts in zeros and
`shrsi` copies the sign; a shift by the element width or more is a located error.

Masked `vmi.v*` forms follow PTOAS's VMI pages: `pmode = "zero"` (the default) makes
an inactive lane 0; `"merge"` (keep "the destination's prior value", which an SSA
form leaves to the lowering) is a located error. A full reduction (`reduce_*`,
`vcadd`) writes its one lane from the mask's active lanes; float sums are taken in
lane order (PTOAS pairs lanes in its lowering: sums whose order matters differ).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, StringAttr
from xdsl.ir import Attribute, Operation

from xla_emit.dialects.pto.vpto_types import VMIMaskType, VMIVRegType
from xla_emit.interpreter.element_types import numpy_dtype
from xla_emit.interpreter.pto_handlers import Array, Handler, handlers_by_class, ub_window
from xla_emit.interpreter.pto_semantics_base import COMPARE
from xla_emit.interpreter.pto_tile import Value


def _unsigned(a: Array) -> Array:
    return a.view(np.dtype(f"u{a.dtype.itemsize}"))


_BINARY: dict[str, Callable[[Array, Array], Array]] = {
    "addf": np.add,
    "subf": np.subtract,
    "mulf": np.multiply,
    "divf": np.divide,
    "maxf": np.maximum,
    "minf": np.minimum,
    "addi": np.add,
    "subi": np.subtract,
    "muli": np.multiply,
    "maxi": np.maximum,
    "mini": np.minimum,
    "andi": np.bitwise_and,
    "ori": np.bitwise_or,
    "xori": np.bitwise_xor,
    "shli": np.left_shift,
    "shrsi": np.right_shift,
    "shrui": lambda a, b: _unsigned(a) >> _unsigned(b),
}
_MASKED_BINARY = {"vadd": "addf", "vsub": "subf", "vmul": "mulf", "vdiv": "divf"}
_MASKED_BINARY |= {"vmax": "maxf", "vmin": "minf"}
_UNARY: dict[str, Callable[[Array], Array]] = {
    "negf": np.negative,
    "absf": np.abs,
    "exp": np.exp,
    "ln": np.log,
    "sqrt": np.sqrt,
    "relu": lambda a: np.maximum(a, 0),
}
_MASKED_UNARY = {"vabs": "absf", "vexp": "exp", "vln": "ln", "vsqrt": "sqrt", "vrelu": "relu"}
_MASKED_UNARY |= {"vneg": "negf"}
_REDUCE: dict[str, Callable[..., Any]] = {"add": np.sum, "max": np.max, "min": np.min}


def _shape(type_: Attribute) -> tuple[int, np.dtype[Any]]:
    assert isinstance(type_, VMIVRegType)
    return type_.count.data, numpy_dtype(type_.element_type)


def _mask_count(type_: Attribute) -> int:
    assert isinstance(type_, VMIMaskType)
    return type_.count.data


def _string(op: Operation, name: str) -> str | None:
    attr = op.properties.get(name) or op.attributes.get(name)
    return attr.data if isinstance(attr, StringAttr) else None


def _result(op: Operation, values: Array) -> Array:
    _, dtype = _shape(op.results[0].type)
    with np.errstate(all="ignore"):
        return np.asarray(values).astype(dtype)


def _check_shifts(ex: Any, op: Operation, a: Array, b: Array) -> None:
    bits = 8 * a.dtype.itemsize
    if op.name.endswith(("shli", "shrsi", "shrui")) and ((b < 0) | (b >= bits)).any():
        raise ex.error(op, f"shifts by amounts outside [0, {bits})")


def _binary(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    a, b = args[0], args[1]
    assert isinstance(a, np.ndarray) and isinstance(b, np.ndarray)
    _check_shifts(ex, op, a, b)
    with np.errstate(all="ignore"):
        values = _BINARY[op.name[8:]](a, b)
    return [_result(op, values)]


def _unary(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    with np.errstate(all="ignore"):
        return [_result(op, _UNARY[op.name[8:]](args[0]))]  # type: ignore[arg-type]


def _zeroing(ex: Any, op: Operation, values: Array, masks: list[Value]) -> list[Value]:
    """An inactive lane is 0 (`pmode = "zero"`, the default)."""
    mode = _string(op, "pmode") or "zero"
    if mode != "zero":
        raise ex.error(op, f"the executor models pmode 'zero', not '{mode}'")
    out = _result(op, values)
    if masks:
        out = np.where(masks[0], out, 0).astype(out.dtype)  # type: ignore[call-overload]
    return [out]


def _masked_binary(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    with np.errstate(all="ignore"):
        values = _BINARY[_MASKED_BINARY[op.name[8:]]](args[0], args[1])  # type: ignore[arg-type]
    return _zeroing(ex, op, values, args[2:])


def _masked_unary(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    with np.errstate(all="ignore"):
        values = _UNARY[_MASKED_UNARY[op.name[8:]]](args[0])  # type: ignore[arg-type]
    return _zeroing(ex, op, values, args[1:])


def _compare(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    """`cmpf` predicates are ordered (`o..`: false on NaN) or unordered (`u..`: true);
    `cmpi` ones signed (`s..`), unsigned (`u..`) or `eq`/`ne`."""
    predicate = _string(op, "predicate") or ""
    a, b = args[0], args[1]
    assert isinstance(a, np.ndarray) and isinstance(b, np.ndarray)
    kind = re.fullmatch(r"([osu]?)(eq|ne|lt|le|gt|ge)", predicate)
    if kind is None:
        raise ex.error(op, f"unknown predicate '{predicate}'")
    prefix, relation = kind.groups()
    if op.name == "pto.vmi.cmpi" and prefix == "u":
        a, b = _unsigned(a), _unsigned(b)
    result = COMPARE[relation](a, b)
    if op.name == "pto.vmi.cmpf":
        unordered = np.isnan(a) | np.isnan(b)
        result = np.where(unordered, prefix == "u", result)
    return [result]


def _select(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    mask, true_value, false_value = args
    return [np.where(mask, true_value, false_value)]  # type: ignore[arg-type]


def _broadcast(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    count, dtype = _shape(op.results[0].type)
    return [np.full(count, args[0], dtype)]


def _iota(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    count, dtype = _shape(op.results[0].type)
    order = _string(op, "order")
    if order is not None:
        raise ex.error(op, f"the executor models the increasing iota, not order '{order}'")
    return [(args[0] + np.arange(count)).astype(dtype)]  # type: ignore[operator]


def _constant(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    value = op.properties.get("value") or op.attributes.get("value")
    if not isinstance(value, DenseIntOrFPElementsAttr):
        raise ex.error(op, "expects a dense constant")
    values = np.array(value.get_values())
    if op.results[0].type.__class__ is VMIMaskType:
        return [np.broadcast_to(values.astype(bool), (_mask_count(op.results[0].type),)).copy()]
    count, dtype = _shape(op.results[0].type)
    return [np.broadcast_to(values.astype(dtype), (count,)).copy()]


def _create_mask(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    return [np.arange(_mask_count(op.results[0].type)) < int(args[0])]  # type: ignore[arg-type]


def _pset(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    count = _mask_count(op.results[0].type)
    pattern = _string(op, "pattern") or ""
    first = re.fullmatch(r"PAT_VL(\d+)", pattern)
    if pattern == "PAT_ALL":
        return [np.ones(count, bool)]
    if first is None or "group" in op.properties:
        raise ex.error(op, f"the executor does not model mask pattern '{pattern}' here")
    return [np.arange(count) < int(first.group(1))]


def _load(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    count, dtype = _shape(op.results[0].type)
    return [ub_window(ex, op, args[0], args[1], count).astype(dtype)]


def _store(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    value, base, offset = args
    assert isinstance(value, np.ndarray)
    window = ub_window(ex, op, base, offset, value.size)
    window[...] = value.astype(window.dtype)
    return []


def _reduce(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    source, mask = args
    assert isinstance(source, np.ndarray) and isinstance(mask, np.ndarray)
    if op.properties.get("group") is not None:
        raise ex.error(op, "the executor models full reductions, not grouped ones")
    kind = "add" if op.name == "pto.vmi.vcadd" else op.name[15:18]
    active = source[mask]
    if active.size == 0 and kind != "add":
        raise ex.error(op, "reduces no active lane")
    with np.errstate(all="ignore"):
        value = _REDUCE[kind](active) if active.size else 0
    return [_result(op, np.array([value]))]


_BY_NAME: dict[str, Handler] = {
    **{f"pto.vmi.{name}": _binary for name in _BINARY},
    **{f"pto.vmi.{name}": _masked_binary for name in _MASKED_BINARY},
    **{f"pto.vmi.{name}": _unary for name in _UNARY},
    **{f"pto.vmi.{name}": _masked_unary for name in _MASKED_UNARY},
    "pto.vmi.cmpf": _compare,
    "pto.vmi.cmpi": _compare,
    "pto.vmi.select": _select,
    "pto.vmi.broadcast": _broadcast,
    "pto.vmi.iota": _iota,
    "pto.vmi.constant": _constant,
    "pto.vmi.constant_mask": _constant,
    "pto.vmi.create_mask": _create_mask,
    "pto.vmi.pset": _pset,
    "pto.vmi.load": _load,
    "pto.vmi.store": _store,
    **{f"pto.vmi.reduce_{kind}": _reduce for kind in ("addf", "addi", "maxf", "maxi")},
    **{f"pto.vmi.reduce_{kind}": _reduce for kind in ("minf", "mini")},
    "pto.vmi.vcadd": _reduce,
}

VMI_HANDLERS = handlers_by_class(_BY_NAME)
