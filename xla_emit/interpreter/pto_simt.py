"""The PTO executor's SIMT ops: a SIMT section's threads, global loads and stores,
atomics and the integer products.

`pto.section.simt<<<X, Y, Z>>>` (and `pto.simt_launch @f<<<X, Y, Z>>>(args)`) runs
its body once per thread, x fastest, one thread after another; `get_tid_*` and
`get_block_dim_*` read the running thread and the section's extents. Running
threads one after another is one interleaving a SIMT core may take: each atomic
reads and writes as one step, so a kernel whose result is order-independent (sums,
extrema, counters) gets its value, and each atomic returns the old value its
thread saw in that order. A section whose body uses lane collectives
(`redux_*`, `shuffle_*`, `vote_*`, `get_laneid`) runs in lockstep instead: each op
for every thread before the next op, lanes numbered by linear thread id in warps of
32 (PTOAS's SIMT page: a redux returns its reduction to every lane, a vote its
predicate's all/any/uniform/ballot, a shuffle the value of lane `index`, `lane -
offset`, `lane + offset` or `lane ^ mask` in its `width`-lane subgroup; a source
outside the subgroup is a located error, as PTOAS leaves it to the target). Such a
body must be straight-line code.

`ldg %p[%i]` / `stg %v, %p[%i]` read and write element i of the global buffer;
an atomic updates element 0 of its pointer (offset with `addptr`). `atomic_max` /
`atomic_min` compare as their signedness says; `mulhi` is the high half of the
double-width product, `mul_i32toi64` the whole product. `convert` of a float to an
integer rounds as its mode says (`r` to nearest even, `a` away from zero, `f` down,
`c` up, `z` toward zero) and saturates to the integer's range (PTOAS requires `sat`
there); other conversions execute in mode `r` only, NaN to an integer is an error.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects.builtin import IntegerAttr, IntegerType
from xdsl.ir import Operation

from xla_emit.interpreter.element_types import numpy_dtype
from xla_emit.interpreter.pto_handlers import Handler, handlers_by_class
from xla_emit.interpreter.pto_tile import Value

_AXES = {"x": 0, "y": 1, "z": 2}


def _signed(op: Operation) -> bool:
    attr = op.properties.get("signedness")
    return attr is None or "unsigned" not in str(attr)


def _run_threads(ex: Any, extents: tuple[int, int, int], body: Callable[[], None]) -> None:
    saved = (ex.thread, ex.threads)
    ex.threads = extents
    try:
        for z in range(extents[2]):
            for y in range(extents[1]):
                for x in range(extents[0]):
                    ex.thread = (x, y, z)
                    body()
    finally:
        ex.thread, ex.threads = saved


def _section(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    extents = []
    for name in ("dimX", "dimY", "dimZ"):
        attr = op.properties.get(name) or op.attributes.get(name)
        assert isinstance(attr, IntegerAttr)
        extents.append(attr.value.data)
    block = op.regions[0].block
    shape = (extents[0], extents[1], extents[2])
    if any(inner.name in _LANE_OPS for inner in block.walk()):
        _run_lockstep(ex, shape, block)
    else:
        _run_threads(ex, shape, lambda: ex._run_block(block))
    return []


def _run_lockstep(ex: Any, extents: tuple[int, int, int], block: Any) -> None:
    """Each op of `block` for every thread (x fastest) before the next op."""
    threads = [
        (x, y, z) for z in range(extents[2]) for y in range(extents[1]) for x in range(extents[0])
    ]
    saved = (ex.thread, ex.threads, ex.env)
    envs = [dict(ex.env) for _ in threads]
    ex.threads = extents
    try:
        for op in block.ops:
            if op.regions:
                raise ex.error(op, "lane collectives run in straight-line SIMT code only")
            if op.name in _LANE_OPS:
                values = [[env[v] for v in op.operands] for env in envs]
                for env, result in zip(envs, _LANE_OPS[op.name](ex, op, values), strict=True):
                    env[op.results[0]] = result
                continue
            if op is block.last_op and not op.results and op.name.endswith("yield"):
                break
            for thread, env in zip(threads, envs, strict=True):
                ex.thread, ex.env = thread, env
                ex.run_op(op)
    finally:
        ex.thread, ex.threads, ex.env = saved


_WARP = 32


def _warps(count: int) -> list[range]:
    return [range(start, min(start + _WARP, count)) for start in range(0, count, _WARP)]


def _lane_id(ex: Any, op: Operation, values: list[list[Value]]) -> list[Value]:
    return [t % _WARP for t in range(len(values))]


def _redux(ex: Any, op: Operation, values: list[list[Value]]) -> list[Value]:
    kind = op.name[len("pto.redux_") :]
    type_ = op.results[0].type
    out: list[Value] = [0] * len(values)
    for warp in _warps(len(values)):
        lanes = [values[t][0] for t in warp]
        if isinstance(type_, IntegerType):
            bits = type_.width.data
            keyed = [int(v) % 2**bits if not _signed(op) else int(v) for v in lanes]  # type: ignore[arg-type]
            total = sum(keyed) if kind == "add" else (max if kind == "max" else min)(keyed)
            value: Value = _wrapped(total, bits)
        else:
            dtype = numpy_dtype(type_)
            acc = np.asarray(lanes, dtype)
            value = (np.add.reduce(acc) if kind == "add" else getattr(acc, kind)()).item()
        for t in warp:
            out[t] = value
    return out


def _vote(ex: Any, op: Operation, values: list[list[Value]]) -> list[Value]:
    kind = op.name[len("pto.vote_") :]
    out: list[Value] = [0] * len(values)
    for warp in _warps(len(values)):
        bits = [bool(values[t][0]) for t in warp]
        if kind == "ballot":
            value: Value = _wrapped(sum(1 << lane for lane, b in enumerate(bits) if b), 32)
        else:
            value = {"all": all(bits), "any": any(bits), "uni": len(set(bits)) == 1}[kind]
        for t in warp:
            out[t] = int(value) if kind != "ballot" else value
    return out


def _shuffle(ex: Any, op: Operation, values: list[list[Value]]) -> list[Value]:
    kind = op.name[len("pto.shuffle_") :]
    attr = op.properties.get("width") or op.attributes.get("width")
    width = attr.value.data if isinstance(attr, IntegerAttr) else _WARP
    out: list[Value] = []
    for t, (_, control) in enumerate(values):
        base, local = t - t % width, t % width
        step = int(control)  # type: ignore[arg-type]
        source_local = {
            "idx": step,
            "up": local - step,
            "down": local + step,
            "bfly": local ^ step,
        }[kind]
        source = base + source_local
        if not 0 <= source_local < width or source >= len(values):
            raise ex.error(op, f"lane {t} reads lane {source}, outside its subgroup")
        out.append(values[source][0])
    return out


_LANE_OPS: dict[str, Callable[[Any, Operation, list[list[Value]]], list[Value]]] = {
    "pto.get_laneid": _lane_id,
    **{f"pto.redux_{kind}": _redux for kind in ("add", "max", "min")},
    **{f"pto.vote_{kind}": _vote for kind in ("all", "any", "uni", "ballot")},
    **{f"pto.shuffle_{kind}": _shuffle for kind in ("idx", "up", "down", "bfly")},
}


def _launch(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    callee = op.properties.get("callee") or op.attributes.get("callee")
    function = ex.functions[callee.root_reference.data]  # type: ignore[union-attr]
    extents = tuple(int(v) for v in args[:3])  # type: ignore[arg-type]
    _run_threads(ex, extents, lambda: ex._call(function, list(args[3:])))  # type: ignore[arg-type]
    return []


def _thread_query(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    axis = _AXES[op.name[-1]]
    return [ex.thread[axis] if op.name.startswith("pto.get_tid") else ex.threads[axis]]


def _element(ex: Any, op: Operation, base: Value, index: int) -> tuple[np.ndarray, int]:
    if not isinstance(base, np.ndarray):
        raise ex.error(op, "expects a global buffer")
    flat = base.reshape(-1)
    if not 0 <= index < flat.size:
        raise ex.error(op, f"element {index} is outside the {flat.size}-element buffer")
    return flat, index


def _wrapped(value: int, bits: int, signed: bool = True) -> int:
    unsigned = value % 2**bits
    return unsigned - 2**bits if signed and unsigned >= 2 ** (bits - 1) else unsigned


def _load(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    flat, i = _element(ex, op, args[0], int(args[1]))  # type: ignore[arg-type]
    return [flat[i].item()]


def _store(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    flat, i = _element(ex, op, args[1], int(args[2]))  # type: ignore[arg-type]
    value = args[0]
    if flat.dtype.kind in "iu":  # a signless value's bit pattern
        value = _wrapped(int(value), 8 * flat.dtype.itemsize, flat.dtype.kind == "i")  # type: ignore[arg-type]
    flat[i] = value
    return []


def _ordered(op: Operation, value: np.generic) -> int | float:
    """The value as the op compares it (an unsigned view of an integer if unsigned)."""
    if isinstance(value, np.integer) and not _signed(op):
        return int(value) % 2 ** (8 * value.itemsize)
    return value.item()


_UPDATES: dict[str, Callable[[Operation, np.generic, np.generic], Any]] = {
    "add": lambda op, old, v: old + v,
    "sub": lambda op, old, v: old - v,
    "and": lambda op, old, v: old & v,
    "or": lambda op, old, v: old | v,
    "xor": lambda op, old, v: old ^ v,
    "exch": lambda op, old, v: v,
    "max": lambda op, old, v: v if _ordered(op, v) > _ordered(op, old) else old,
    "min": lambda op, old, v: v if _ordered(op, v) < _ordered(op, old) else old,
}


def _atomic(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    flat, _ = _element(ex, op, args[0], 0)
    old = flat[0].copy()
    if op.name == "pto.atomic_cas":
        compare, value = (flat.dtype.type(v) for v in args[1:3])  # type: ignore[arg-type]
        if old == compare:
            flat[0] = value
    else:
        value = flat.dtype.type(args[1])  # type: ignore[arg-type]
        with np.errstate(all="ignore"):
            flat[0] = _UPDATES[op.name[11:]](op, old, value)
    return [old.item()]


def _product(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    width = op.operands[0].type
    assert isinstance(width, IntegerType)
    bits = width.width.data
    a, b = (int(v) for v in args)  # type: ignore[arg-type]
    if not _signed(op):
        a, b = a % 2**bits, b % 2**bits
    product = a * b
    if op.name == "pto.mulhi":
        product >>= bits
    result = op.results[0].type
    assert isinstance(result, IntegerType)
    return [_wrapped(product, result.width.data)]


_ROUNDINGS: dict[str, Callable[[float], float]] = {
    "r": lambda v: float(np.rint(v)),
    "a": lambda v: float(np.sign(v) * np.floor(abs(v) + 0.5)),
    "f": np.floor,
    "c": np.ceil,
    "z": np.trunc,
}


def _convert(ex: Any, op: Operation, args: list[Value]) -> list[Value]:
    source, target = op.operands[0].type, op.results[0].type
    mode = str(op.rounding.data)  # type: ignore[attr-defined]
    dtype = numpy_dtype(target)
    if isinstance(target, IntegerType) and not isinstance(source, IntegerType):
        value = float(args[0])  # type: ignore[arg-type]
        if math.isnan(value) or mode not in _ROUNDINGS:
            raise ex.error(op, f"converts {value} with rounding '{mode}'")
        bits = target.width.data
        low, high = (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1) if _signed(op) else (0, 2**bits - 1)
        saturated = int(min(max(_ROUNDINGS[mode](value), low), high))
        return [_wrapped(saturated, bits)]  # the bit pattern, as a signless integer holds it
    if mode != "r":
        raise ex.error(op, f"the executor converts {source} to {target} in rounding 'r' only")
    return [np.asarray(args[0]).astype(dtype).item()]


_BY_NAME: dict[str, Handler] = {
    "pto.section.simt": _section,
    "pto.simt_launch": _launch,
    **{f"pto.get_tid_{axis}": _thread_query for axis in _AXES},
    **{f"pto.get_block_dim_{axis}": _thread_query for axis in _AXES},
    "pto.ldg": _load,
    "pto.stg": _store,
    **{f"pto.atomic_{kind}": _atomic for kind in (*_UPDATES, "cas")},
    "pto.mulhi": _product,
    "pto.mul_i32toi64": _product,
    "pto.convert": _convert,
}

SIMT_HANDLERS = handlers_by_class(_BY_NAME)
