"""The TPU executor's handlers for Mosaic's vector shape and reduction ops (catalog rows).

Semantics are Mosaic's (`tpu_ops.td`) and Pallas's (`jax/_src/pallas/mosaic`), on
whole logical vectors:

- `tpu.transpose`: permutes dimensions (`permutation[i]` is the source dim of dim i);
- `tpu.concatenate`: joins its sources along `dimension`;
- `tpu.repeat`: `times` copies of the source, one after another along `dimension`
  (Mosaic canonicalizes it to a concatenation of copies);
- `tpu.bitcast`: reinterprets bits; packing 32-bit rows into 16-bit ones doubles the
  second-minor dim, row 2r taking the low halves of row r and row 2r+1 the high ones,
  as `pltpu.bitcast` defines it; unpacking reverses that;
- `tpu.all_reduce`: reduces along `dim` and gives every position along `dim` the
  result; on a mask, `sum` counts the set elements. Kinds: sum, max, min, arg_max,
  arg_min, and jaxlib 0.12's maxf/minf (NaN wins, as `arith.maximumf`), maxsi/minsi
  (signed) and maxui/minui (the bits read unsigned);
- `tpu.reduce` (jaxlib 0.12): the same kinds over `dimensions`, which are dropped;
- `tpu.reduce_precision` (jaxlib 0.12): rounds to `mantissa_bits` (to nearest even)
  and clamps to the range of `exponent_bits`, as XLA's reduce-precision: too large
  becomes infinity, too small a signed zero, NaN stays NaN;
- `tpu.reduce_index`: the index of the first maximum (arg_max) or minimum (arg_min)
  along `axis`, that dim dropped;
- `tpu.gather`: the source's slices at the static `indices` along `dimension`;
- `tpu.dynamic_gather`: `dimensions` collapsed into one of size M, each output element
  takes the element at `indices mod M` there (`np.take_along_axis` for one dim);
- `tpu.reciprocal`: 1 / x, exact (with `approx` the chip's answer is an approximation;
  Pallas's interpret mode, the reference, computes the exact one); `tpu.logistic`:
  1 / (1 + exp(-x));
- `tpu.broadcast_in_sublanes`: sublane i takes the value in lane `lane + i`
  everywhere; outside the vreg's lanes it is unspecified (NaN, or the most negative
  integer).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import ml_dtypes
import numpy as np
import numpy.typing as npt
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, VectorType
from xdsl.ir import Attribute, Operation, SSAValue

from xla_emit.diagnostics import UserError
from xla_emit.dialects import tpu
from xla_emit.interpreter.element_types import numpy_dtype


class WholeValues(Protocol):
    """What these handlers need of the TPU executor."""

    def array(self, value: SSAValue) -> npt.NDArray[np.generic]: ...
    def error(self, op: Operation, message: str) -> UserError: ...


def _int(op: Operation, name: str) -> int:
    attr = getattr(op, name)
    assert isinstance(attr, IntegerAttr)
    return attr.value.data


def _ints(op: Operation, name: str) -> list[int]:
    attr = getattr(op, name)
    assert isinstance(attr, DenseArrayBase)
    return [int(v) for v in attr.get_values()]


def _kind(op: Operation) -> str:
    attr = op.properties.get("kind")
    assert isinstance(attr, tpu.ReductionKindAttr)
    return attr.value.data


def _result_type(op: Operation) -> VectorType[Attribute]:
    type_ = op.results[0].type
    assert isinstance(type_, VectorType)
    return type_


def _result_dtype(op: Operation) -> np.dtype[Any]:
    return np.dtype(numpy_dtype(_result_type(op).element_type))


def transpose(ex: WholeValues, op: Operation) -> list[Any]:
    return [np.transpose(ex.array(op.operands[0]), _ints(op, "permutation")).copy()]


def concatenate(ex: WholeValues, op: Operation) -> list[Any]:
    sources = [ex.array(value) for value in op.operands]
    return [np.concatenate(sources, axis=_int(op, "dimension"))]


def repeat(ex: WholeValues, op: Operation) -> list[Any]:
    source = ex.array(op.operands[0])
    return [np.concatenate([source] * _int(op, "times"), axis=_int(op, "dimension"))]


def _unsigned(bits: int) -> type[np.unsignedinteger[Any]]:
    return {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[bits]


def bitcast(ex: WholeValues, op: Operation) -> list[Any]:
    source = ex.array(op.operands[0])
    dtype = _result_dtype(op)
    source_bits, target_bits = source.dtype.itemsize * 8, dtype.itemsize * 8
    *leading, rows, lanes = source.shape
    raw = np.ascontiguousarray(source).view(_unsigned(source_bits))
    if source_bits > target_bits:
        packing = source_bits // target_bits
        parts = raw.view(_unsigned(target_bits)).reshape(*leading, rows, lanes, packing)
        result = np.swapaxes(parts, -1, -2).reshape(*leading, rows * packing, lanes)
    elif source_bits < target_bits:
        packing = target_bits // source_bits
        parts = np.swapaxes(raw.reshape(*leading, rows // packing, packing, lanes), -1, -2)
        result = np.ascontiguousarray(parts).view(_unsigned(target_bits))[..., 0]
    else:
        result = raw
    return [np.ascontiguousarray(result).view(dtype)]


def _wide(source: npt.NDArray[np.generic]) -> npt.NDArray[np.generic]:
    """Narrow floats are compared and summed in f32, as the vector unit does."""
    return source.astype(np.float32) if source.dtype == ml_dtypes.bfloat16 else source


def _unsigned_extreme(pick: Callable[..., Any]) -> Callable[..., Any]:
    """max or min of integers whose bits are read unsigned."""

    def run(values: npt.NDArray[Any], axis: int | tuple[int, ...]) -> Any:
        unsigned = values.view(f"u{values.dtype.itemsize}")
        return np.asarray(pick(unsigned, axis=axis)).view(values.dtype)

    return run


_REDUCE: dict[str, Callable[..., Any]] = {
    "sum": np.sum,
    "max": np.max,
    "min": np.min,
    "arg_max": np.argmax,
    "arg_min": np.argmin,
    "maxf": np.max,  # NaN-propagating, as arith.maximumf
    "minf": np.min,
    "maxsi": np.max,
    "minsi": np.min,
    "maxui": _unsigned_extreme(np.max),
    "minui": _unsigned_extreme(np.min),
}
_FLOAT_KINDS = ("maxf", "minf")
_INTEGER_KINDS = ("maxsi", "minsi", "maxui", "minui")


def _check_kind(ex: WholeValues, op: Operation, kind: str, source: npt.NDArray[Any]) -> None:
    is_float = source.dtype.kind in "fV"
    if kind not in _REDUCE or source.dtype == np.bool_:
        raise ex.error(op, f"with kind '{kind}' is not supported by the interpreter")
    if (kind in _FLOAT_KINDS and not is_float) or (kind in _INTEGER_KINDS and is_float):
        takes = "floats" if kind in _FLOAT_KINDS else "integers"
        raise ex.error(op, f"with kind '{kind}' takes {takes}, not {source.dtype}")


def all_reduce(ex: WholeValues, op: Operation) -> list[Any]:
    source, kind = ex.array(op.operands[0]), _kind(op)
    dtype, shape = _result_dtype(op), _result_type(op).get_shape()
    if source.dtype == np.bool_ and kind == "sum":
        return [np.full(shape, np.count_nonzero(source), dtype=dtype)]
    _check_kind(ex, op, kind, source)
    dim = _int(op, "dim")
    reduced = _REDUCE[kind](_wide(source), axis=dim)
    expanded = np.expand_dims(np.asarray(reduced), dim)
    return [np.broadcast_to(expanded, shape).astype(dtype)]


def reduce(ex: WholeValues, op: Operation) -> list[Any]:
    source, kind = ex.array(op.operands[0]), _kind(op)
    dims = tuple(_ints(op, "dimensions"))
    _check_kind(ex, op, kind, source)
    if kind.startswith("arg_") and len(dims) != 1:
        raise ex.error(op, f"with kind '{kind}' reduces one dimension, not {len(dims)}")
    reduced = _REDUCE[kind](_wide(source), axis=dims[0] if kind.startswith("arg_") else dims)
    return [np.asarray(reduced).astype(_result_dtype(op)).reshape(_result_type(op).get_shape())]


def reduce_precision(ex: WholeValues, op: Operation) -> list[Any]:
    source = ex.array(op.operands[0])
    if source.dtype.kind not in "fV" or source.dtype.itemsize > 4:
        raise ex.error(
            op, f"is supported by the interpreter on floats up to 32 bits, not {source.dtype}"
        )
    exponent_bits, mantissa_bits = _int(op, "exponent_bits"), _int(op, "mantissa_bits")
    wide = source.astype(np.float32)
    bits = wide.view(np.uint32).astype(np.uint64)
    if mantissa_bits < 23:
        dropped = 23 - mantissa_bits
        last_kept = (bits >> np.uint64(dropped)) & np.uint64(1)
        # Ties round to even: half of the dropped range, minus one, plus the last kept bit.
        bias = np.uint64((1 << (dropped - 1)) - 1) + last_kept
        bits = ((bits + bias) & np.uint64(0xFFFFFFFF)) & ~np.uint64((1 << dropped) - 1)
    if exponent_bits < 8:
        exponent = bits & np.uint64(0x7F800000)
        reduced_bias = (1 << (exponent_bits - 1)) - 1
        sign = bits & np.uint64(0x80000000)
        too_large = exponent > np.uint64((127 + reduced_bias) << 23)
        too_small = exponent <= np.uint64((127 - reduced_bias) << 23)
        bits = np.where(too_large, sign | np.uint64(0x7F800000), np.where(too_small, sign, bits))
    result = bits.astype(np.uint32).view(np.float32)
    if mantissa_bits > 0:
        result = np.where(np.isnan(wide), wide, result)
    return [result.astype(source.dtype)]


def reduce_index(ex: WholeValues, op: Operation) -> list[Any]:
    source, kind = ex.array(op.operands[0]), _kind(op)
    if kind not in ("arg_max", "arg_min"):
        raise ex.error(op, f"with kind '{kind}' is not supported (arg_max or arg_min)")
    found = _REDUCE[kind](_wide(source), axis=_int(op, "axis"))
    return [np.asarray(found).astype(_result_dtype(op))]


def gather(ex: WholeValues, op: Operation) -> list[Any]:
    source = ex.array(op.operands[0])
    return [np.take(source, _ints(op, "indices"), axis=_int(op, "dimension"))]


def dynamic_gather(ex: WholeValues, op: Operation) -> list[Any]:
    source, indices = ex.array(op.operands[0]), ex.array(op.operands[1])
    dims = _ints(op, "dimensions")
    rest = [d for d in range(source.ndim) if d not in dims]
    moved = np.moveaxis(source, dims, list(range(len(rest), source.ndim)))
    collapsed = moved.reshape(*moved.shape[: len(rest)], -1)
    grid = np.indices(indices.shape)
    where = (*(grid[d] for d in rest), indices.astype(np.int64) % collapsed.shape[-1])
    return [collapsed[where]]


def reciprocal(ex: WholeValues, op: Operation) -> list[Any]:
    source = ex.array(op.operands[0])
    return [np.divide(1.0, _wide(source)).astype(source.dtype)]


def logistic(ex: WholeValues, op: Operation) -> list[Any]:
    source = ex.array(op.operands[0])
    wide = _wide(source)
    return [np.divide(1.0, 1.0 + np.exp(np.negative(wide))).astype(source.dtype)]


def broadcast_in_sublanes(ex: WholeValues, op: Operation) -> list[Any]:
    source = ex.array(op.operands[0])
    if source.ndim != 2 or source.dtype.itemsize != 4:
        raise ex.error(op, "is supported by the interpreter on 32-bit 2-D vregs only")
    sublanes, lanes = source.shape
    first = _int(op, "lane")
    dtype = _result_dtype(op)
    result = np.empty(_result_type(op).get_shape(), dtype=dtype)
    for i in range(sublanes):
        lane = first + i
        inside = 0 <= lane < lanes
        result[i, :] = source[i, lane] if inside else unspecified(dtype)
    return [result]


def unspecified(dtype: np.dtype[Any]) -> object:
    """A vector element the op leaves undefined: NaN, or the most negative integer."""
    if dtype.kind in "fV":  # bfloat16 and float8 are kind V
        return np.nan
    return False if dtype == np.bool_ else np.iinfo(dtype).min


_BY_NAME: dict[str, Callable[[Any, Operation], list[Any]]] = {
    "transpose": transpose,
    "concatenate": concatenate,
    "repeat": repeat,
    "bitcast": bitcast,
    "all_reduce": all_reduce,
    "reduce": reduce,
    "reduce_precision": reduce_precision,
    "reduce_index": reduce_index,
    "broadcast_in_sublanes": broadcast_in_sublanes,
    "gather": gather,
    "dynamic_gather": dynamic_gather,
    "reciprocal": reciprocal,
    "logistic": logistic,
}
CATALOG_HANDLERS: tuple[tuple[type[Operation], Callable[[Any, Operation], list[Any]]], ...] = tuple(
    (tpu.CATALOG_BY_NAME[f"tpu.{name}"], run) for name, run in _BY_NAME.items()
)
