"""Arrays as JSON-safe records, and the edge values inputs are drawn from.

Shared by the generator (our venv) and the XLA worker (the jax venv), so it needs only
numpy and ml_dtypes. bf16 travels as its bit pattern, every array as its raw bytes.
"""

from __future__ import annotations

import base64

import ml_dtypes
import numpy as np

# HLO element type -> numpy dtype.
DTYPES: dict[str, np.dtype] = {
    "pred": np.dtype(np.bool_),
    "s8": np.dtype(np.int8),
    "s16": np.dtype(np.int16),
    "s32": np.dtype(np.int32),
    "s64": np.dtype(np.int64),
    "u8": np.dtype(np.uint8),
    "u16": np.dtype(np.uint16),
    "u32": np.dtype(np.uint32),
    "u64": np.dtype(np.uint64),
    "f16": np.dtype(np.float16),
    "bf16": np.dtype(ml_dtypes.bfloat16),
    "f32": np.dtype(np.float32),
    "f64": np.dtype(np.float64),
    "c64": np.dtype(np.complex64),
    "c128": np.dtype(np.complex128),
}
_NAMES = {dtype: name for name, dtype in DTYPES.items()}


def encode(array: np.ndarray) -> dict[str, object]:
    """`array` as a record: element type, shape and base64 of its bytes (C order)."""
    data = np.asarray(array)  # (not ascontiguousarray: it makes scalars 1-d)
    return {
        "type": _NAMES[data.dtype],
        "shape": list(data.shape),
        "data": base64.b64encode(data.tobytes()).decode("ascii"),
    }


def decode(record: dict[str, object]) -> np.ndarray:
    dtype = DTYPES[str(record["type"])]
    raw = base64.b64decode(str(record["data"]))
    shape = tuple(int(d) for d in record["shape"])  # type: ignore[union-attr]
    return np.frombuffer(raw, dtype=dtype).reshape(shape).copy()


def _float_edges(dtype: np.dtype) -> list[float]:
    info = ml_dtypes.finfo(dtype)
    tiny, sub, big = float(info.tiny), float(info.smallest_subnormal), float(info.max)
    return [0.0, -0.0, np.inf, -np.inf, np.nan, big, -big, tiny, -tiny, sub, -sub,
            1.0, -1.0, 0.5, -2.5, 2.5, 3.0]  # fmt: skip


def edge_array(rng: np.random.Generator, ptype: str, shape: tuple[int, ...]) -> np.ndarray:
    """Random values of `ptype`, about a quarter of them edge values (0, -0, +-inf, NaN,
    min, max, the smallest normal and subnormal)."""
    dtype = DTYPES[ptype]
    count = int(np.prod(shape, dtype=np.int64))
    edges = rng.random(count) < 0.25
    if ptype == "pred":
        return (rng.random(count) < 0.5).reshape(shape)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        small = rng.integers(-9 if dtype.kind == "i" else 0, 10, count)
        wide = rng.integers(info.min, info.max, count, dtype=dtype, endpoint=True)
        values = np.where(rng.random(count) < 0.6, small.astype(dtype), wide)
        # In the element type itself: u64's max is no int64 (a float pool would round it).
        pool = np.array(sorted({0, 1, int(info.min), int(info.max), int(info.max) // 2 + 1}), dtype)
        values[edges] = pool[rng.integers(0, len(pool), int(edges.sum()))]
        return values.reshape(shape)
    if dtype.kind == "c":
        part = "f32" if ptype == "c64" else "f64"
        values = np.empty(shape, dtype)
        # Parts set one by one: real + 1j * imag would turn an infinite part into NaN.
        values.real, values.imag = edge_array(rng, part, shape), edge_array(rng, part, shape)
        return values
    values = (rng.standard_normal(count) * 4.0).astype(np.float64)
    pool = np.array(_float_edges(dtype), dtype=np.float64)
    values[edges] = pool[rng.integers(0, len(pool), int(edges.sum()))]
    with np.errstate(over="ignore", invalid="ignore"):
        return values.astype(dtype).reshape(shape)


def index_array(
    rng: np.random.Generator, ptype: str, shape: tuple[int, ...], bound: int
) -> np.ndarray:
    """Indices around [0, bound): mostly in range, sometimes just outside (XLA clamps)."""
    low = -2 if DTYPES[ptype].kind == "i" else 0
    return rng.integers(low, bound + 2, shape).astype(DTYPES[ptype])


def flush_denormals(array: np.ndarray) -> np.ndarray:
    """`array` with its subnormal floats (parts, for complex) made zeros of their sign, as
    XLA:CPU sees and writes them (it runs with flush-to-zero and denormals-are-zero)."""
    if array.dtype.kind == "c":
        flushed = array.copy()
        flushed.real, flushed.imag = flush_denormals(array.real), flush_denormals(array.imag)
        return flushed
    if array.dtype.kind != "f" and array.dtype != DTYPES["bf16"]:
        return array
    tiny = float(ml_dtypes.finfo(array.dtype).tiny)
    wide = array.astype(np.float64)
    subnormal = (wide != 0) & (np.abs(wide) < tiny)
    return np.where(subnormal, np.copysign(0.0, wide), wide).astype(array.dtype)
