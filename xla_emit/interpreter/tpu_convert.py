"""The TPU executor's handlers for Mosaic's conversions, packing and masks (catalog rows).

Semantics are Mosaic's (`tpu_ops.td`) on whole logical vectors:

- `tpu.fptosi`, `tpu.fptoui`: round by `rounding_mode` (`towards_zero` truncates,
  `to_nearest_even` rounds half to even); NaN gives 0 and values out of the
  integer's range saturate, as XLA's convert does;
- `tpu.sitofp`, `tpu.uitofp`, `tpu.truncf`: the exact value rounded once to the
  float type by `rounding_mode` (never twice through f32); `towards_zero` never
  overflows to infinity; `tpu.extf` is exact;
- `tpu.pack_elementwise`: source k (converted: f32 to bf16 to nearest even,
  integers truncated) in bits [k * w, (k + 1) * w) of each word;
  `tpu.unpack_elementwise` takes field `index` back and converts it to the
  result type (integers sign-extended);
- `tpu.pack_subelements`, `tpu.unpack_subelements`: on native vregs, whose row r
  lives in sublane r // packing, subelement r % packing (as `tpu.bitcast`);
  `interleaved` puts source k's subelement q of a sublane at subelement
  q * n + k, `compressed` stacks the sources' rows; positions a pack leaves out
  are unspecified;
- `tpu.create_mask`: true in the box [low, high); `tpu.create_subelement_mask`:
  true for rows (sublane * subelements + subelement) in [from, to), or outside
  [to, from) when `to < from`; `tpu.mask_cast` repeats each packed value into a
  finer packing or keeps one of each group for a coarser one (the group must
  agree: otherwise the chip's result is undefined and the op fails);
- `tpu.weird`: true for NaN and infinities;
- `tpu.bitcast_vreg`: `tpu.bitcast` of one native vreg.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import ml_dtypes
import numpy as np
import numpy.typing as npt
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, IntegerType
from xdsl.ir import Attribute, Operation, SSAValue, TypeAttribute

from xla_emit.diagnostics import UserError
from xla_emit.dialects import tpu
from xla_emit.dialects.tpu.catalog import CreateMaskOp
from xla_emit.dialects.tpu.enums import PackFormatAttr, RoundingModeAttr
from xla_emit.interpreter.element_types import element_type, numpy_dtype, wrap_integer
from xla_emit.interpreter.tpu_compute import bitcast, unspecified

WORD_BITS = 32  # a vreg word


class WholeValues(Protocol):
    """What these handlers need of the TPU executor."""

    def value(self, value: SSAValue) -> Any: ...
    def integer(self, value: SSAValue) -> int: ...
    def error(self, op: Operation, message: str) -> UserError: ...


def _field(op: Operation, name: str) -> Any:
    """An operand, result or property of a catalog op, by its `tpu_ops.td` name."""
    return getattr(op, name)


def _int(op: Operation, name: str) -> int:
    attr = getattr(op, name)
    assert isinstance(attr, IntegerAttr)
    return attr.value.data


def _flag(op: Operation, name: str, default: bool) -> bool:
    attr = getattr(op, name)
    return default if attr is None else bool(attr.value.data)


def _ints(op: Operation, name: str) -> list[int]:
    attr = getattr(op, name)
    assert isinstance(attr, DenseArrayBase)
    return [int(v) for v in attr.get_values()]


def _mode(op: Operation) -> str:
    attr = _field(op, "rounding_mode")
    assert isinstance(attr, RoundingModeAttr)
    return attr.value.data


def _bits(type_: Attribute) -> int:
    scalar = element_type(type_)
    if isinstance(scalar, IntegerType):
        return scalar.width.data
    return np.dtype(numpy_dtype(scalar)).itemsize * 8


def _as_array(value: Any) -> npt.NDArray[Any]:
    return np.asarray(value)


def _like_operand(result: npt.NDArray[Any], operand: Any) -> Any:
    """A scalar result for a scalar operand (the conversions are elementwise)."""
    return result if isinstance(operand, np.ndarray) else result.item()


# ----------------------------------------------------------------------------- float rounding


def _magnitude_step(values: npt.NDArray[Any], up: npt.NDArray[np.bool_]) -> npt.NDArray[Any]:
    """The neighbouring float one unit in the last place away from (`up`) or toward zero."""
    unsigned = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[values.dtype.itemsize]
    bits = values.view(unsigned)
    stepped = np.where(up, bits + unsigned(1), bits - unsigned(1)).astype(unsigned)
    return stepped.view(values.dtype)


def round_float(exact: npt.NDArray[np.float64], dtype: np.dtype[Any], mode: str) -> Any:
    """`exact` rounded once to `dtype`: to nearest (ties to even) or towards zero.

    numpy and ml_dtypes may round a float64 twice (through f32), so the nearest
    candidate is checked against its neighbour on the other side of `exact`.
    """
    first = exact.astype(dtype)
    finite = np.isfinite(exact)
    overflowed = finite & ~np.isfinite(first.astype(np.float64))
    largest = np.asarray(ml_dtypes.finfo(dtype).max, dtype=dtype)
    first = np.where(overflowed, np.copysign(largest, exact).astype(dtype), first).astype(dtype)
    value = first.astype(np.float64)
    inexact = finite & (value != exact)
    away = np.abs(value) < np.abs(exact)
    other = np.where(inexact, _magnitude_step(first, away), first).astype(dtype)
    other_value = other.astype(np.float64)
    if mode == "towards_zero":
        return np.where(np.abs(value) <= np.abs(exact), first, other).astype(dtype)
    gap, other_gap = np.abs(value - exact), np.abs(other_value - exact)
    even = (first.view(f"u{dtype.itemsize}") & 1) == 0
    keep = (gap < other_gap) | ((gap == other_gap) & even)
    nearest = np.where(keep, first, other).astype(dtype)
    # Past the largest finite value, round to nearest overflows as the format does.
    beyond = overflowed & (np.abs(exact) > float(largest))
    return np.where(beyond, exact.astype(dtype), nearest).astype(dtype)


# ----------------------------------------------------------------------------- conversions


def _integer_range(bits: int, unsigned: bool) -> tuple[int, int]:
    if unsigned:
        return 0, (1 << bits) - 1
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


def _to_container(values: npt.NDArray[np.int64], type_: Attribute) -> npt.NDArray[Any]:
    """Integers (in range for the type, signed or unsigned) in the type's signed container."""
    bits = _bits(type_)
    dtype = numpy_dtype(element_type(type_))
    if dtype == np.bool_:
        return (values & 1).astype(np.bool_)
    contained = values.astype(np.uint64).astype(dtype)
    return wrap_integer(contained, bits) if bits < dtype.itemsize * 8 else contained


def _float_to_int(op: Operation, source: Any, unsigned: bool, mode: str) -> Any:
    wide = _as_array(source).astype(np.float64)
    rounded = np.trunc(wide) if mode == "towards_zero" else np.rint(wide)
    low, high = _integer_range(_bits(op.results[0].type), unsigned)
    clipped = np.clip(np.nan_to_num(rounded, nan=0.0), low, high)
    # float64 holds integers to 2**53: wider bounds are clipped in int64.
    exact = np.clip(clipped.astype(np.int64), low, min(high, np.iinfo(np.int64).max))
    return _like_operand(_to_container(exact, op.results[0].type), source)


def fptosi(ex: WholeValues, op: Operation) -> list[Any]:
    return [_float_to_int(op, ex.value(op.operands[0]), False, _mode(op))]


def fptoui(ex: WholeValues, op: Operation) -> list[Any]:
    return [_float_to_int(op, ex.value(op.operands[0]), True, _mode(op))]


def _int_to_float(ex: WholeValues, op: Operation, unsigned: bool) -> list[Any]:
    source = ex.value(op.operands[0])
    bits = _bits(op.operands[0].type)
    if bits > 53:
        raise ex.error(op, f"from i{bits} is not supported by the interpreter (i53 at most)")
    values = _as_array(source).astype(np.int64)
    if unsigned:
        values = values & ((1 << bits) - 1)
    dtype = np.dtype(numpy_dtype(op.results[0].type))
    return [_like_operand(round_float(values.astype(np.float64), dtype, _mode(op)), source)]


def sitofp(ex: WholeValues, op: Operation) -> list[Any]:
    return _int_to_float(ex, op, unsigned=False)


def uitofp(ex: WholeValues, op: Operation) -> list[Any]:
    return _int_to_float(ex, op, unsigned=True)


def extf(ex: WholeValues, op: Operation) -> list[Any]:
    source = ex.value(op.operands[0])
    dtype = numpy_dtype(op.results[0].type)
    return [_like_operand(_as_array(source).astype(np.float64).astype(dtype), source)]


def truncf(ex: WholeValues, op: Operation) -> list[Any]:
    source = ex.value(op.operands[0])
    dtype = np.dtype(numpy_dtype(op.results[0].type))
    exact = _as_array(source).astype(np.float64)
    return [_like_operand(round_float(exact, dtype, _mode(op)), source)]


def weird(ex: WholeValues, op: Operation) -> list[Any]:
    source = ex.value(op.operands[0])
    values = _as_array(source).astype(np.float64)
    return [_like_operand(np.isnan(values) | np.isinf(values), source)]


# ----------------------------------------------------------------------------- elementwise packing


def _type_attr(op: Operation, name: str) -> Attribute:
    attr = getattr(op, name)
    assert isinstance(attr, TypeAttribute)
    return attr


def _field_bits(values: npt.NDArray[Any], narrow: Attribute) -> npt.NDArray[np.uint64]:
    """Each value converted to the narrow type, as its bit pattern."""
    bits = _bits(narrow)
    if isinstance(narrow, IntegerType):
        return values.astype(np.int64).view(np.uint64) & np.uint64((1 << bits) - 1)
    dtype = np.dtype(numpy_dtype(narrow))
    rounded = round_float(values.astype(np.float64), dtype, "to_nearest_even")
    return rounded.view(f"u{dtype.itemsize}").astype(np.uint64)


def pack_elementwise(ex: WholeValues, op: Operation) -> list[Any]:
    narrow = _type_attr(op, "target_type")
    width = _bits(narrow)
    word = np.zeros(np.shape(ex.value(op.operands[0])), dtype=np.uint64)
    for k, source in enumerate(op.operands):
        word |= _field_bits(_as_array(ex.value(source)), narrow) << np.uint64(k * width)
    return [_to_container(word.view(np.int64), op.results[0].type)]


def _from_field(
    fields: npt.NDArray[np.uint64], narrow: Attribute, result: Attribute, unsigned: bool = False
) -> npt.NDArray[Any]:
    """Bit fields of the narrow type converted to the result's element type."""
    bits = _bits(narrow)
    if isinstance(narrow, IntegerType):
        values = fields.astype(np.int64)
        if not unsigned:
            values = np.where(values >= 1 << (bits - 1), values - (1 << bits), values)
        if isinstance(element_type(result), IntegerType):
            return _to_container(values, result)
        return values.astype(np.float64).astype(numpy_dtype(result))
    dtype = np.dtype(numpy_dtype(narrow))
    floats = fields.astype(f"u{dtype.itemsize}").view(dtype)
    return floats.astype(np.float64).astype(numpy_dtype(result))


def unpack_elementwise(ex: WholeValues, op: Operation) -> list[Any]:
    narrow = _type_attr(op, "source_type")
    width = _bits(narrow)
    words = _as_array(ex.value(op.operands[0])).astype(np.int64).view(np.uint64)
    shift = np.uint64(_int(op, "index") * width)
    fields = (words >> shift) & np.uint64((1 << width) - 1)
    return [_from_field(fields, narrow, op.results[0].type)]


# ----------------------------------------------------------------------------- subelement packing


def _packing(type_: Attribute) -> int:
    return WORD_BITS // _bits(type_)


def _format(op: Operation) -> str:
    attr = _field(op, "pack_format")
    assert isinstance(attr, PackFormatAttr)
    return attr.value.data


def _converted_rows(ex: WholeValues, op: Operation, value: Any, result: Attribute) -> Any:
    """A wide source converted elementwise to the packed result's element type."""
    source = _as_array(value)
    narrow = element_type(result)
    if isinstance(narrow, IntegerType):
        if source.dtype.kind == "f" or source.dtype == ml_dtypes.bfloat16:
            return _float_to_int(
                op, source, _flag(op, "unsigned_integers", False), "to_nearest_even"
            )
        return _to_container(source.astype(np.int64), result)
    dtype = np.dtype(numpy_dtype(result))
    if source.dtype.kind in "iub":
        raise ex.error(op, "packing integers into floats is not supported by the interpreter")
    return round_float(source.astype(np.float64), dtype, "to_nearest_even")


def pack_subelements(ex: WholeValues, op: Operation) -> list[Any]:
    result_type = op.results[0].type
    count = _packing(result_type) // _packing(op.operands[0].type)
    dtype = np.dtype(numpy_dtype(result_type))
    first = _as_array(ex.value(op.operands[0]))
    slots = [np.full(first.shape, unspecified(dtype), dtype=dtype) for _ in range(count)]
    for position, source in zip(_ints(op, "positions"), op.operands, strict=True):
        slots[position] = _converted_rows(ex, op, ex.value(source), result_type)
    if _format(op) == "compressed":
        return [np.concatenate(slots, axis=-2)]
    source_packing = _packing(op.operands[0].type)
    *leading, rows, lanes = first.shape
    # (k, ..., sublane, q, lane) -> (..., sublane, q, k, lane): subelement q * count + k.
    stacked = np.stack(
        [s.reshape(*leading, rows // source_packing, source_packing, lanes) for s in slots]
    )
    moved = np.moveaxis(stacked, 0, -2)
    return [moved.reshape(*leading, rows * count, lanes)]


def unpack_subelements(ex: WholeValues, op: Operation) -> list[Any]:
    source = _as_array(ex.value(op.operands[0]))
    source_type, result_type = op.operands[0].type, op.results[0].type
    count = _packing(source_type) // _packing(result_type)
    index = _int(op, "index")
    *leading, rows, lanes = source.shape
    if _format(op) == "compressed":
        part = rows // count
        picked = source[..., index * part : (index + 1) * part, :]
    else:
        result_packing = _packing(result_type)
        split = source.reshape(
            *leading, rows // (result_packing * count), result_packing, count, lanes
        )
        picked = split[..., index, :].reshape(*leading, rows // count, lanes)
    narrow = element_type(source_type)
    if isinstance(narrow, IntegerType):
        fields = picked.astype(np.int64).view(np.uint64) & np.uint64((1 << _bits(narrow)) - 1)
        unsigned = _flag(op, "unsigned_integers", False)
        return [_from_field(fields, narrow, result_type, unsigned)]
    return [picked.astype(np.float64).astype(numpy_dtype(result_type))]


# ----------------------------------------------------------------------------- masks


def _mask_shape(op: Operation) -> tuple[int, ...]:
    return op.results[0].type.get_shape()  # type: ignore[attr-defined]


def create_mask(ex: WholeValues, op: Operation) -> list[Any]:
    assert isinstance(op, CreateMaskOp)
    shape = _mask_shape(op)
    grid = np.indices(shape, dtype=np.int64)
    inside = np.ones(shape, dtype=bool)
    for dim, (low, high) in enumerate(zip(op.low, op.high, strict=True)):
        inside &= (grid[dim] >= ex.integer(low)) & (grid[dim] < ex.integer(high))
    return [inside]


def create_subelement_mask(ex: WholeValues, op: Operation) -> list[Any]:
    shape = _mask_shape(op)
    subelements = shape[2] if len(shape) == 3 else 1
    sublanes = np.arange(shape[0])[:, None, None]
    rows = sublanes * subelements + np.arange(subelements)[None, None, :]
    start, end = _int(op, "from"), _int(op, "to")
    # from <= to: [from, to) is set; to < from: [to, from) is unset.
    low, high = min(start, end), max(start, end)
    between = (rows >= low) & (rows < high)
    chosen = between if start <= end else ~between
    return [np.broadcast_to(chosen, (shape[0], shape[1], subelements)).reshape(shape).copy()]


def mask_cast(ex: WholeValues, op: Operation) -> list[Any]:
    source = _as_array(ex.value(op.operands[0]))
    shape = _mask_shape(op)
    packed = source.reshape(*source.shape[:2], -1)
    have, want = packed.shape[2], (shape[2] if len(shape) == 3 else 1)
    if want >= have:
        return [np.repeat(packed, want // have, axis=2).reshape(shape)]
    groups = packed.reshape(*packed.shape[:2], want, have // want)
    if not (groups == groups[..., :1]).all():
        raise ex.error(
            op, "casts a mask whose values packed together differ: the chip's result is undefined"
        )
    return [groups[..., 0].reshape(shape)]


def bitcast_vreg(ex: WholeValues, op: Operation) -> list[Any]:
    return bitcast(ex, op)  # type: ignore[arg-type]


# Each handler is named after its op.
CONVERT_HANDLERS: tuple[tuple[type[Operation], Callable[[Any, Operation], list[Any]]], ...] = tuple(
    (tpu.CATALOG_BY_NAME[f"tpu.{run.__name__}"], run)
    for run in (
        fptosi,
        fptoui,
        sitofp,
        uitofp,
        extf,
        truncf,
        weird,
        pack_elementwise,
        unpack_elementwise,
        pack_subelements,
        unpack_subelements,
        create_mask,
        create_subelement_mask,
        mask_cast,
        bitcast_vreg,
    )
)
