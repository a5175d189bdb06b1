"""Reference semantics of `dot` and `convolution`.

Floating-point products and sums are computed in float64 and rounded once to
the result type (through f32 for 16-bit types, XLA's accumulation type), so
the oracle is as exact as the inputs allow; XLA's own f32 sums may differ in
the last bits because they add in another order. Integer dots wrap like the
result type. On request (`dot(..., tf32=True)`) a dot first rounds its f32 operands
to TF32, as an H100's tensor cores do at XLA:GPU's default precision.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from xla_emit.hlo.ir import DotDimensions, HloInstruction, WindowDimension
from xla_emit.hlo.shape import PrimitiveType


def round_to(wide: np.ndarray, ptype: PrimitiveType) -> np.ndarray:
    """A float64 (or int64) result in `ptype`; 16-bit floats are rounded through f32."""
    if ptype in (PrimitiveType.BF16, PrimitiveType.F16):
        return wide.astype(np.float32).astype(ptype.dtype)
    return wide.astype(ptype.dtype)


def _wide(x: np.ndarray, ptype: PrimitiveType) -> np.ndarray:
    if ptype.is_complex or x.dtype.kind == "c":
        return x.astype(np.complex128)
    return x.astype(np.float64 if ptype.is_float or x.dtype.kind == "f" else np.int64)


# TF32 keeps f32's exponent range and 10 of its 23 mantissa bits: 11 significant bits.
_TF32_SIGNIFICANT_BITS = 11
_F32_MIN_EXPONENT = -125  # frexp's exponent of f32's smallest normal, 2^-126 = 0.5 * 2^-125


def round_to_tf32(values: np.ndarray) -> np.ndarray:
    """f32 values rounded to TF32 (`cvt.rna.tf32.f32`: to nearest, ties away from zero),
    computed in float64: each value to a multiple of its TF32 quantum, 2^(e - 11) for a
    value m 2^e with 0.5 <= |m| < 1, and the subnormals' fixed 2^-136 below f32's normals
    (TF32 drops the same 13 low mantissa bits there). Infinities and NaNs stay; a value
    that rounds past f32's largest becomes infinite, as the hardware's does."""
    # Signalling NaNs warn as they widen; they stay NaNs.
    with np.errstate(invalid="ignore", over="ignore"):
        wide = values.astype(np.float64)
        finite = np.isfinite(wide)
        _, exponent = np.frexp(np.where(finite, wide, 0.0))
        quantum = np.ldexp(1.0, np.maximum(exponent, _F32_MIN_EXPONENT) - _TF32_SIGNIFICANT_BITS)
        # |x| / quantum < 2^11 is exact in float64, and so is adding 0.5: floor rounds ties up.
        magnitude = np.floor(np.abs(wide) / quantum + 0.5) * quantum
        return np.where(finite, np.copysign(magnitude, wide), wide).astype(np.float32)


def dot(
    instruction: HloInstruction, lhs: np.ndarray, rhs: np.ndarray, tf32: bool = False
) -> np.ndarray:
    """The dot rounded once to its type; with `tf32`, of its f32 operands rounded to TF32."""
    assert instruction.dot_dimensions is not None
    out_type = instruction.array_shape.element_type
    if tf32:
        lhs, rhs = (round_to_tf32(x) if x.dtype == np.float32 else x for x in (lhs, rhs))
    return round_to(exact_dot(lhs, rhs, instruction.dot_dimensions, out_type), out_type)


def exact_dot(
    lhs: np.ndarray, rhs: np.ndarray, dims: DotDimensions, out_type: PrimitiveType
) -> np.ndarray:
    """The dot in float64 (int64 for integers): batch, lhs free, then rhs free dimensions."""
    lhs_free = [d for d in range(lhs.ndim) if d not in dims.lhs_batch + dims.lhs_contracting]
    rhs_free = [d for d in range(rhs.ndim) if d not in dims.rhs_batch + dims.rhs_contracting]
    batch = [lhs.shape[d] for d in dims.lhs_batch]
    rows = int(np.prod([lhs.shape[d] for d in lhs_free], dtype=np.int64))
    depth = int(np.prod([lhs.shape[d] for d in dims.lhs_contracting], dtype=np.int64))
    cols = int(np.prod([rhs.shape[d] for d in rhs_free], dtype=np.int64))
    left = np.transpose(lhs, [*dims.lhs_batch, *lhs_free, *dims.lhs_contracting])
    right = np.transpose(rhs, [*dims.rhs_batch, *dims.rhs_contracting, *rhs_free])
    left = _wide(left, out_type).reshape([*batch, rows, depth])
    right = _wide(right, out_type).reshape([*batch, depth, cols])
    product = np.matmul(left, right)
    free = [lhs.shape[d] for d in lhs_free] + [rhs.shape[d] for d in rhs_free]
    return product.reshape([*batch, *free])


def dilate_and_pad(
    x: np.ndarray, axes: Sequence[int], window: Sequence[WindowDimension], fill: object
) -> np.ndarray:
    """`x` with base dilation (holes of `fill`) and low/high padding (negative crops) on `axes`."""
    shape = list(x.shape)
    placement: list[slice] = [slice(None)] * x.ndim
    crop: list[slice] = [slice(None)] * x.ndim
    for axis, w in zip(axes, window, strict=True):
        size = x.shape[axis]
        dilated = (size - 1) * w.base_dilation + 1 if size else 0
        low, high = max(w.pad_low, 0), max(w.pad_high, 0)
        shape[axis] = low + dilated + high
        placement[axis] = slice(low, low + dilated, w.base_dilation)
        crop[axis] = slice(max(-w.pad_low, 0), shape[axis] - max(-w.pad_high, 0))
    result = np.full(shape, fill, dtype=x.dtype)
    result[tuple(placement)] = x
    return result[tuple(crop)]


def window_output_size(padded: int, w: WindowDimension) -> int:
    extent = (w.size - 1) * w.window_dilation + 1
    return 0 if padded < extent else (padded - extent) // w.stride + 1


def window_slices(
    position: Sequence[int], window: Sequence[WindowDimension], out_sizes: Sequence[int]
) -> tuple[slice, ...]:
    """For one window element, the strided slice of the padded input it visits."""
    slices: list[slice] = []
    for p, w, n in zip(position, window, out_sizes, strict=True):
        start = p * w.window_dilation
        slices.append(slice(start, start + (n - 1) * w.stride + 1, w.stride))
    return tuple(slices)


def convolution(instruction: HloInstruction, lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    out_type = instruction.array_shape.element_type
    return round_to(exact_convolution(instruction, lhs, rhs, out_type), out_type)


def exact_convolution(
    instruction: HloInstruction, lhs: np.ndarray, rhs: np.ndarray, out_type: PrimitiveType
) -> np.ndarray:
    """The convolution in float64, in the output's dimension order."""
    dims = instruction.convolution_dimensions
    assert dims is not None
    x = _wide(np.transpose(lhs, [dims.input_batch, dims.input_feature, *dims.input_spatial]),
              out_type)  # fmt: skip
    k = _wide(
        np.transpose(rhs, [dims.kernel_output_feature, dims.kernel_input_feature,
                           *dims.kernel_spatial]),
        out_type,
    )  # fmt: skip
    spatial = len(dims.input_spatial)
    window = instruction.window or tuple(WindowDimension(k.shape[2 + i]) for i in range(spatial))
    for i, w in enumerate(window):
        if w.reversal:
            k = np.flip(k, 2 + i)
    x = dilate_and_pad(x, range(2, 2 + spatial), window, 0)
    out_sizes = [window_output_size(x.shape[2 + i], w) for i, w in enumerate(window)]
    groups = instruction.feature_group_count
    in_per_group, out_per_group = k.shape[1], k.shape[0] // groups
    out = np.zeros((x.shape[0], k.shape[0], *out_sizes), x.dtype)
    for position in itertools.product(*(range(w.size) for w in window)):
        patch = x[(slice(None), slice(None), *window_slices(position, window, out_sizes))]
        taps = k[(slice(None), slice(None), *position)]
        for g in range(groups):
            inputs = patch[:, g * in_per_group : (g + 1) * in_per_group]
            weights = taps[g * out_per_group : (g + 1) * out_per_group]
            out[:, g * out_per_group : (g + 1) * out_per_group] += np.einsum(
                "nc...,oc->no...", inputs, weights
            )
    placed = [dims.output_batch, dims.output_feature, *dims.output_spatial]
    return np.transpose(out, np.argsort(placed))
