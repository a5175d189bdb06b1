"""The runtime's kernel library: what XLA:GPU hands to cuBLAS and cuDNN, in numpy.

XLA:GPU does not emit dots and convolutions itself: a `dot` (alone or in a
`kind=kCustom` gemm fusion) and a `__cublas$gemm` custom call become cuBLAS
calls, `__cudnn$conv*` custom calls become cuDNN calls, and TopK has a
library kernel. These functions are those calls: they accumulate in f32 (f64
for f64, wrapping int64 for integers) as the libraries do, and round once
to the result type. This code is independent of the reference evaluator,
which computes the same ops exactly, so `--check` compares two
implementations.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from xla_emit.diagnostics import UserError
from xla_emit.hlo.ir import DotDimensions, HloInstruction, WindowDimension
from xla_emit.hlo.library_calls import (
    LibraryKernels,
    conv_config,
    gemm_config,
    run_library_call,
)
from xla_emit.hlo.shape import ArrayShape, PrimitiveType
from xla_emit.runtime import library_conv_grads, library_solvers


def accumulator_dtype(ptype: PrimitiveType) -> np.dtype[np.generic]:
    """The type a library accumulates `ptype` results in."""
    if ptype is PrimitiveType.F64 or ptype.is_complex:
        return np.dtype(np.float64 if ptype is PrimitiveType.F64 else ptype.dtype)
    if ptype.is_float:
        return np.dtype(np.float32)
    return np.dtype(np.int64)


def to_result(accumulated: np.ndarray, ptype: PrimitiveType) -> np.ndarray:
    return accumulated.astype(ptype.dtype)


def gemm(lhs: np.ndarray, rhs: np.ndarray, dims: DotDimensions, result: ArrayShape) -> np.ndarray:
    """A batched matrix multiply in the accumulator type; the layout of `result` is logical."""
    wide = accumulator_dtype(result.element_type)
    lhs_rest = [d for d in range(lhs.ndim) if d not in (*dims.lhs_batch, *dims.lhs_contracting)]
    rhs_rest = [d for d in range(rhs.ndim) if d not in (*dims.rhs_batch, *dims.rhs_contracting)]
    batch = [lhs.shape[d] for d in dims.lhs_batch]
    m = int(np.prod([lhs.shape[d] for d in lhs_rest], dtype=np.int64))
    k = int(np.prod([lhs.shape[d] for d in dims.lhs_contracting], dtype=np.int64))
    n = int(np.prod([rhs.shape[d] for d in rhs_rest], dtype=np.int64))
    a = lhs.transpose([*dims.lhs_batch, *lhs_rest, *dims.lhs_contracting]).astype(wide)
    b = rhs.transpose([*dims.rhs_batch, *dims.rhs_contracting, *rhs_rest]).astype(wide)
    product = np.matmul(a.reshape([*batch, m, k]), b.reshape([*batch, k, n]))
    return product.reshape(result.dimensions)


def dot(instruction: HloInstruction, lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    assert instruction.dot_dimensions is not None
    result = instruction.array_shape
    return to_result(gemm(lhs, rhs, instruction.dot_dimensions, result), result.element_type)


def custom_call(
    instruction: HloInstruction, operands: Sequence[np.ndarray]
) -> np.ndarray | tuple[np.ndarray, ...]:
    """A library custom call (its scratch-space results come back zeroed)."""
    return run_library_call(instruction, operands, RUNTIME_KERNELS)


def _cublas_gemm(
    instruction: HloInstruction, operands: Sequence[np.ndarray], leaves: Sequence[ArrayShape]
) -> list[np.ndarray]:
    config = gemm_config(instruction)
    result = leaves[0]
    wide = accumulator_dtype(result.element_type)
    out = gemm(operands[0], operands[1], config.dimensions, result) * wide.type(config.alpha)
    rest = list(operands[2:])
    if config.beta != 0:
        out = out + wide.type(config.beta) * rest.pop(0).astype(wide)
    if config.epilogue in ("BIAS", "BIAS_RELU"):
        out = out + rest.pop(0).astype(wide)
    if config.epilogue in ("RELU", "BIAS_RELU"):
        out = np.maximum(out, 0)
    return [to_result(out, result.element_type)]


def _cudnn_convolution(
    instruction: HloInstruction, operands: Sequence[np.ndarray], leaves: Sequence[ArrayShape]
) -> list[np.ndarray]:
    config = conv_config(instruction)
    result = leaves[0]
    dims = instruction.convolution_dimensions
    if dims is None:
        message = f"'{instruction.name}': a cuDNN call needs dim_labels"
        raise UserError(message, instruction.location)
    wide = accumulator_dtype(result.element_type)
    # Input to [batch, spatial..., feature], kernel to [spatial..., in, out]: NHWC and HWIO.
    x = operands[0].transpose([dims.input_batch, *dims.input_spatial, dims.input_feature])
    w = operands[1].transpose(
        [*dims.kernel_spatial, dims.kernel_input_feature, dims.kernel_output_feature]
    )
    window = instruction.window or tuple(WindowDimension(s) for s in w.shape[:-2])
    out = _conv_nhwc(x.astype(wide), w.astype(wide), window, instruction.feature_group_count)
    out = out * wide.type(config.result_scale)
    if len(operands) > 2:
        out = out + operands[2].astype(wide)  # bias per output feature (the last dim here)
    # Back from [batch, spatial..., feature] to the result's dimension order.
    order = [dims.output_batch, *dims.output_spatial, dims.output_feature]
    out = out.transpose(np.argsort(order))
    if len(operands) > 3 and config.side_input_scale != 0:
        out = out + wide.type(config.side_input_scale) * operands[3].astype(wide)
    out = _cudnn_activation(out, config.activation, config.leakyrelu_alpha)
    return [to_result(out, result.element_type)]


def _cudnn_activation(out: np.ndarray, mode: str, leaky_alpha: float) -> np.ndarray:
    """cuDNN's fused activations, in the accumulator type."""
    if mode == "kRelu":
        return np.maximum(out, 0)
    if mode == "kRelu6":
        return np.minimum(np.maximum(out, 0), 6)
    if mode == "kElu":
        return np.where(out > 0, out, np.exp(np.minimum(out, 0)) - 1)
    if mode == "kLeakyRelu":
        return np.where(out > 0, out, out * out.dtype.type(leaky_alpha))
    return out


def _conv_nhwc(
    x: np.ndarray, w: np.ndarray, window: Sequence[WindowDimension], groups: int
) -> np.ndarray:
    """im2col: gather every output pixel's receptive field, then one matmul per group."""
    spatial = len(window)
    x = _dilate_and_pad(x, window)
    out_sizes = [
        (x.shape[1 + i] - (win.size - 1) * win.window_dilation - 1) // win.stride + 1
        for i, win in enumerate(window)
    ]
    # Index arrays per spatial dim: out position * stride + tap * dilation.
    columns = []
    for taps in np.ndindex(*(win.size for win in window)):
        index = tuple(
            (
                np.arange(out_sizes[i]) * window[i].stride + taps[i] * window[i].window_dilation
            ).reshape([-1 if j == i else 1 for j in range(spatial)])
            for i in range(spatial)
        )
        columns.append(x[(slice(None), *index)])  # [batch, out..., in features]
    patches = np.stack(columns, axis=-2)  # [batch, out..., taps, in]
    in_per_group, out_features = w.shape[-2], w.shape[-1]
    out_per_group = out_features // groups
    kernel = w.reshape(-1, in_per_group, out_features)  # [taps, in per group, out]
    pieces = []
    for g in range(groups):
        group_in = patches[..., g * in_per_group : (g + 1) * in_per_group]
        group_w = kernel[..., g * out_per_group : (g + 1) * out_per_group]
        flat_in = group_in.reshape(*group_in.shape[:-2], -1)
        pieces.append(flat_in @ group_w.reshape(-1, out_per_group))
    return np.concatenate(pieces, axis=-1)


def _dilate_and_pad(x: np.ndarray, window: Sequence[WindowDimension]) -> np.ndarray:
    """Base dilation and padding of the spatial dims (1..) of an NHWC array."""
    for i, win in enumerate(window):
        axis = 1 + i
        if win.base_dilation > 1:
            size = x.shape[axis]
            shape = list(x.shape)
            shape[axis] = (size - 1) * win.base_dilation + 1
            dilated = np.zeros(shape, x.dtype)
            index = [slice(None)] * x.ndim
            index[axis] = slice(None, None, win.base_dilation)
            dilated[tuple(index)] = x
            x = dilated
        widths = [(0, 0)] * x.ndim
        widths[axis] = (max(win.pad_low, 0), max(win.pad_high, 0))
        x = np.pad(x, widths)
        keep = [slice(None)] * x.ndim
        keep[axis] = slice(max(-win.pad_low, 0), x.shape[axis] - max(-win.pad_high, 0))
        x = x[tuple(keep)]
    return x


def top_k(x: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k largest along the last dimension; equal values keep index order."""
    # Ascending stable order of the reversed row, read backwards: descending values, and
    # among equal values the lower original index first.
    flipped = np.flip(np.argsort(np.flip(x, -1), axis=-1, kind="stable"), -1)
    order = x.shape[-1] - 1 - flipped
    top = order[..., :k]
    return np.take_along_axis(x, top, axis=-1), top.astype(np.int32)


# Compares lanes of pairs: (lhs of operand 0, rhs of operand 0, lhs of operand 1, ...) -> pred.
PairComparison = Callable[[list[np.ndarray]], np.ndarray]
# Pairs per comparator launch, bounding the memory of the all-pairs comparison.
_MAX_PAIRS = 1 << 20


def sort(operands: Sequence[np.ndarray], axis: int, compare: PairComparison) -> list[np.ndarray]:
    """A stable sort of every row along `axis`, by a comparator run on all pairs of a row.

    Element j goes before element i when `compare(j, i)`, or when j comes
    first in the row and `compare(i, j)` is false (a tie keeps the order), so
    i's place is the number of elements that go before it.
    """
    length = operands[0].shape[axis]
    rows = [np.moveaxis(x, axis, -1).reshape(-1, length) for x in operands]
    per_launch = _rows_per_launch(length)
    places = [
        _places([r[start : start + per_launch] for r in rows], compare)
        for start in range(0, rows[0].shape[0], per_launch)
    ]
    place = np.concatenate(places) if places else np.zeros((0, length), np.int64)
    results: list[np.ndarray] = []
    for x, r in zip(operands, rows, strict=True):
        out = np.empty_like(r)
        np.put_along_axis(out, place, r, axis=1)
        moved_shape = np.moveaxis(x, axis, -1).shape
        results.append(np.moveaxis(out.reshape(moved_shape), -1, axis))
    return results


def _rows_per_launch(length: int) -> int:
    return max(1, _MAX_PAIRS // max(length * length, 1))


def sort_launch_lanes(shape: Sequence[int], axis: int) -> list[int]:
    """The lane counts of the comparator launches `sort` makes for an operand of `shape`."""
    length = shape[axis]
    rows = int(np.prod(shape, dtype=np.int64)) // max(length, 1)
    per_launch = _rows_per_launch(length)
    sizes = [min(per_launch, rows - start) for start in range(0, rows, per_launch)]
    return sorted({size * length * length for size in sizes})


def _places(rows: list[np.ndarray], compare: PairComparison) -> np.ndarray:
    count, length = rows[0].shape
    lanes: list[np.ndarray] = []
    for r in rows:
        lanes.append(np.repeat(r, length, axis=1).reshape(-1))  # element i of pair (i, j)
        lanes.append(np.tile(r, (1, length)).reshape(-1))  # element j
    first_before = np.asarray(compare(lanes)).astype(bool).reshape(count, length, length)
    # first_before[., i, j]: i goes before j.
    j_before_i = np.swapaxes(first_before, 1, 2)
    j_earlier = np.arange(length)[None, :] < np.arange(length)[:, None]  # [i, j]: j < i
    goes_before = j_before_i | (j_earlier[None] & ~first_before)
    return goes_before.sum(axis=2)


RUNTIME_KERNELS = LibraryKernels(
    gemm=_cublas_gemm,
    convolution=_cudnn_convolution,
    conv_backward_input=library_conv_grads.backward_input,
    conv_backward_filter=library_conv_grads.backward_filter,
    top_k=top_k,
    triangular_solve=library_solvers.triangular_solve,
    potrf=library_solvers.potrf,
    getrf=library_solvers.getrf,
    geqrf=library_solvers.geqrf,
    orgqr=library_solvers.orgqr,
    syevd=library_solvers.syevd,
    pivots_to_permutation=library_solvers.pivots_to_permutation,
)
