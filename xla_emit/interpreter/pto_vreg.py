"""The PTO executor's VPTO register ops: vector registers, predicates, UB loads and stores.

A `!pto.vreg<NxT>` value is a numpy array of N lanes of T; a `!pto.mask<bK>` value
is a bool array of 256/K lanes (`b32`: 64, as `!pto.vreg<64xf32>` has). A UB pointer
is the numpy array the executor holds for it; `vlds %p[%off]` reads lanes
`p[off : off + N]` (offsets count elements, as PTOAS's micro-ISA pages write
`UB[base + i * sizeof(T)]`), `vsts` writes the lanes its mask makes active.

Predicated arithmetic follows A5's ZEROING predication (PTOAS's VMI pages: the
hardware predicates only in zeroing mode): an active lane computes, an inactive
lane is 0. `vcadd` puts the sum of the active lanes in lane 0 and zeroes the rest;
`vcmp`/`vcmps` set a lane where the seed mask is active and the comparison holds;
`vsel` takes `src0` where the mask is set, else `src1`; `vtrc` rounds each lane to
an integer value in its float type (modes R, A, F, C, Z). Forms the executor does not
model (other load/store distributions, post-update pointers, mask patterns other than
`PAT_ALL`, `PAT_ALLF` and `PAT_VL<n>`) are located errors.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute, Operation

from xla_emit.dialects.pto.vpto_types import MaskType, VRegType
from xla_emit.interpreter.element_types import numpy_dtype
from xla_emit.interpreter.pto_handlers import Array, Handler, handlers_by_class, ub_window
from xla_emit.interpreter.pto_semantics_base import COMPARE, ROUNDING
from xla_emit.interpreter.pto_tile import Value

_MASK_LANES = {"b8": 256, "b16": 128, "b32": 64}

_BINARY: dict[str, Callable[[Array, Array], Array]] = {
    "vadd": np.add,
    "vsub": np.subtract,
    "vmul": np.multiply,
    "vmax": np.maximum,
    "vmin": np.minimum,
    "vand": np.bitwise_and,
    "vor": np.bitwise_or,
    "vxor": np.bitwise_xor,
}
_UNARY: dict[str, Callable[[Array], Array]] = {
    "vabs": np.abs,
    "vneg": np.negative,
    "vexp": np.exp,
    "vln": np.log,
    "vsqrt": np.sqrt,
    "vrelu": lambda x: np.maximum(x, 0),
    "vnot": np.invert,
}
_WITH_SCALAR: dict[str, Callable[[Array, Array], Array]] = {
    "vadds": np.add,
    "vmuls": np.multiply,
    "vmaxs": np.maximum,
    "vmins": np.minimum,
}


def _lanes(type_: Attribute) -> tuple[int, np.dtype[Any]]:
    assert isinstance(type_, VRegType)
    return type_.count.data, numpy_dtype(type_.element_type)


def _mask_lanes(type_: Attribute) -> int:
    assert isinstance(type_, MaskType)
    return _MASK_LANES[type_.granularity.data]


def _string(op: Operation, name: str, default: str) -> str:
    attr = op.properties.get(name) or op.attributes.get(name)
    return attr.data if isinstance(attr, StringAttr) else default


def _predicated(ex: Any, op: Operation, values: Array, mask: Value) -> list[Value]:
    """`values` on the mask's active lanes, 0 on the others (zeroing predication)."""
    count, dtype = _lanes(op.results[0].type)
    assert isinstance(mask, np.ndarray)
    if mask.shape != (count,):
        raise ex.error(op, f"a mask of {mask.size} lanes predicates a vector of {count}")
    with np.errstate(all="ignore"):
        out = np.where(mask, values, 0).astype(dtype)
    return [out]


def _binary(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    with np.errstate(all="ignore"):
        values = _BINARY[op.name[4:]](args[0], args[1])  # type: ignore[arg-type]
    return _predicated(ex, op, values, args[2])


def _divide(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    lhs, rhs = args[0], args[1]
    assert isinstance(lhs, np.ndarray) and isinstance(rhs, np.ndarray)
    if lhs.dtype.kind in "iu":  # integer division rounds toward zero
        safe = np.where(rhs == 0, 1, rhs)
        values = (np.abs(lhs) // np.abs(safe)) * np.sign(lhs) * np.sign(safe)
    else:
        with np.errstate(all="ignore"):
            values = lhs / rhs
    return _predicated(ex, op, values, args[2])


def _unary(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    with np.errstate(all="ignore"):
        values = _UNARY[op.name[4:]](args[0])  # type: ignore[arg-type]
    return _predicated(ex, op, values, args[1])


def _with_scalar(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    vector = args[0]
    assert isinstance(vector, np.ndarray)
    scalar = np.asarray(args[1], dtype=vector.dtype)
    values = _WITH_SCALAR[op.name[4:]](vector, scalar)
    return _predicated(ex, op, values, args[2])


# vtrc's modes are tcvt's rounding modes under one-letter names.
_TRUNCATIONS: dict[str, Callable[[Array], Array]] = {
    "R": ROUNDING["CAST_RINT"],
    "A": ROUNDING["CAST_ROUND"],
    "F": ROUNDING["CAST_FLOOR"],
    "C": ROUNDING["CAST_CEIL"],
    "Z": ROUNDING["CAST_TRUNC"],
}


def _truncate(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    """`vtrc`: each lane rounded to an integer value, kept in its float type."""
    mode = _string(op, "round_mode", "")
    if mode not in _TRUNCATIONS:
        raise ex.error(op, f"the executor rounds in modes {', '.join(_TRUNCATIONS)}, not '{mode}'")
    return _predicated(ex, op, _TRUNCATIONS[mode](args[0]), args[1])  # type: ignore[arg-type]


def _broadcast(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    count, dtype = _lanes(op.results[0].type)
    if op.name == "pto.vdup":
        if not isinstance(args[0], int | float):
            raise ex.error(op, "the executor duplicates scalars only")
        return _predicated(ex, op, np.full(count, args[0], dtype), args[1])
    return [np.full(count, args[0], dtype)]


def _reduce_add(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    source, mask = args
    assert isinstance(source, np.ndarray) and isinstance(mask, np.ndarray)
    out = np.zeros_like(source)
    out[0] = np.sum(np.where(mask, source, 0), dtype=source.dtype)
    return [out]


def _compare(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    mode = _string(op, "cmp_mode", "")
    if mode not in COMPARE:
        raise ex.error(op, f"compare mode '{mode}' is not one of {', '.join(COMPARE)}")
    lhs, rhs, seed = args
    assert isinstance(lhs, np.ndarray) and isinstance(seed, np.ndarray)
    right = rhs if isinstance(rhs, np.ndarray) else np.asarray(rhs, lhs.dtype)
    return [np.logical_and(seed, COMPARE[mode](lhs, right))]


def _select(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    src0, src1, mask = args
    return [np.where(mask, src0, src1)]  # type: ignore[arg-type]


def _pattern_mask(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    count = _mask_lanes(op.results[0].type)
    pattern = _string(op, "pattern", "")
    if pattern == "PAT_ALL":
        return [np.ones(count, bool)]
    if pattern == "PAT_ALLF":
        return [np.zeros(count, bool)]
    first = re.fullmatch(r"PAT_VL(\d+)", pattern)
    if first is None:
        raise ex.error(op, f"the executor does not model mask pattern '{pattern}'")
    return [np.arange(count) < int(first.group(1))]


def _tail_mask(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    """`plt_bK %n`: the first n lanes, and the count left for the next call."""
    count = _mask_lanes(op.results[0].type)
    remaining = int(args[0])  # type: ignore[arg-type]
    return [np.arange(count) < remaining, 0 if remaining < count else remaining - count]


def _window(ex: Any, op: Operation, base: Value, offset: Value, count: int) -> Array:
    if len(op.results) > (0 if op.name == "pto.vsts" else 1):
        raise ex.error(op, "the executor does not model the post-update form")
    dist = _string(op, "dist", "NORM")
    if not dist.startswith("NORM"):
        raise ex.error(op, f"the executor does not model distribution '{dist}'")
    return ub_window(ex, op, base, offset, count)


def _load(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    count, dtype = _lanes(op.results[0].type)
    return [_window(ex, op, args[0], args[1], count).astype(dtype)]


def _store(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    value, base, offset, mask = args
    assert isinstance(value, np.ndarray) and isinstance(mask, np.ndarray)
    window = _window(ex, op, base, offset, value.size)
    window[mask] = value[mask].astype(window.dtype)
    return []


def _scope(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    ex._run_block(op.regions[0].block)
    return []


_BY_NAME: dict[str, Handler] = {
    **{f"pto.{name}": _binary for name in _BINARY},
    "pto.vdiv": _divide,
    **{f"pto.{name}": _unary for name in _UNARY},
    **{f"pto.{name}": _with_scalar for name in _WITH_SCALAR},
    "pto.vbr": _broadcast,
    "pto.vdup": _broadcast,
    "pto.vcadd": _reduce_add,
    "pto.vcmp": _compare,
    "pto.vcmps": _compare,
    "pto.vsel": _select,
    "pto.vtrc": _truncate,
    **{f"pto.{kind}_{g}": _pattern_mask for kind in ("pset", "pge") for g in _MASK_LANES},
    **{f"pto.plt_{g}": _tail_mask for g in _MASK_LANES},
    "pto.vlds": _load,
    "pto.vsts": _store,
    "pto.vecscope": _scope,
}

VREG_HANDLERS = handlers_by_class(_BY_NAME)
