"""cuDNN's convolution gradients in the runtime's kernel library: im2col and col2im.

The calls carry the forward convolution's window and `dim_labels`
(`hlo.library_calls`). As cuDNN's implicit-gemm algorithms do, both are
matrix products over the forward convolution's patches: the filter gradient
is patches^T @ dy per group; the input gradient is dy @ w^T per group,
scattered back onto the patches' positions (col2im), after which padding and
base dilation are undone. Arrays are NHWC-like ([batch, spatial..., feature])
and the kernel HWIO-like ([spatial..., in, out]); the accumulator is f32 (f64
for f64). The evaluator computes the same adjoints tap by tap in float64.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from xla_emit.hlo.ir import ConvolutionDimensions, HloInstruction, WindowDimension
from xla_emit.hlo.library_calls import conv_config
from xla_emit.hlo.shape import ArrayShape, PrimitiveType


def _accumulator(ptype: PrimitiveType) -> np.dtype[np.generic]:
    return np.dtype(np.float64 if ptype is PrimitiveType.F64 else np.float32)


def _dims(instruction: HloInstruction) -> ConvolutionDimensions:
    conv_config(instruction)  # the backend config and dim_labels are well formed
    dims = instruction.convolution_dimensions
    assert dims is not None
    return dims


def _nhwc_x(dims: ConvolutionDimensions) -> list[int]:
    return [dims.input_batch, *dims.input_spatial, dims.input_feature]


def _nhwc_y(dims: ConvolutionDimensions) -> list[int]:
    return [dims.output_batch, *dims.output_spatial, dims.output_feature]


def _hwio(dims: ConvolutionDimensions) -> list[int]:
    return [*dims.kernel_spatial, dims.kernel_input_feature, dims.kernel_output_feature]


def _padded_size(size: int, w: WindowDimension) -> int:
    return w.pad_low + ((size - 1) * w.base_dilation + 1 if size else 0) + w.pad_high


def _pad(x: np.ndarray, window: Sequence[WindowDimension]) -> np.ndarray:
    """Base-dilate and pad (negative pads crop) the spatial axes 1.. of an NHWC array."""
    for i, w in enumerate(window):
        axis, size = 1 + i, x.shape[1 + i]
        shape = list(x.shape)
        shape[axis] = _padded_size(size, w) - min(w.pad_low, 0) - min(w.pad_high, 0)
        grown = np.zeros(shape, x.dtype)
        place = [slice(None)] * x.ndim
        start = max(w.pad_low, 0)
        place[axis] = slice(start, start + (size - 1) * w.base_dilation + 1, w.base_dilation)
        grown[tuple(place)] = x
        keep = [slice(None)] * x.ndim
        keep[axis] = slice(max(-w.pad_low, 0), shape[axis] - max(-w.pad_high, 0))
        x = grown[tuple(keep)]
    return x


def _unpad(g: np.ndarray, window: Sequence[WindowDimension], sizes: Sequence[int]) -> np.ndarray:
    """The adjoint of `_pad`: the gradient of each original element, padding dropped."""
    for i, w in enumerate(window):
        axis = 1 + i
        widths = [(0, 0)] * g.ndim
        widths[axis] = (max(-w.pad_low, 0), max(-w.pad_high, 0))  # what a crop removed: zeros
        g = np.pad(g, widths)
        keep = [slice(None)] * g.ndim
        start = max(w.pad_low, 0)
        keep[axis] = slice(start, start + (sizes[i] - 1) * w.base_dilation + 1, w.base_dilation)
        g = g[tuple(keep)]
    return g


def _patch_index(
    window: Sequence[WindowDimension], out_sizes: Sequence[int]
) -> tuple[np.ndarray, ...]:
    """Per spatial axis, the padded position read by (out..., taps...): out*stride + tap*dil."""
    spatial = len(window)
    index: list[np.ndarray] = []
    for i, w in enumerate(window):
        shape = [1] * (2 * spatial)
        out = np.arange(out_sizes[i]).reshape([*shape[:i], -1, *shape[i + 1 :]])
        tap_shape = [1] * (2 * spatial)
        tap_shape[spatial + i] = -1
        taps = np.arange(w.size).reshape(tap_shape)
        index.append(out * w.stride + taps * w.window_dilation)
    return tuple(index)


def _window(instruction: HloInstruction, taps: Sequence[int]) -> tuple[WindowDimension, ...]:
    return instruction.window or tuple(WindowDimension(t) for t in taps)


def _reversed_axes(window: Sequence[WindowDimension]) -> tuple[int, ...]:
    """The kernel's spatial axes (HWIO) that the window reverses."""
    return tuple(i for i, w in enumerate(window) if w.reversal)


def backward_filter(
    instruction: HloInstruction, operands: Sequence[np.ndarray], leaves: Sequence[ArrayShape]
) -> list[np.ndarray]:
    dims, result = _dims(instruction), leaves[0]
    wide = _accumulator(result.element_type)
    x = operands[0].transpose(_nhwc_x(dims)).astype(wide)
    dy = operands[1].transpose(_nhwc_y(dims)).astype(wide)
    hwio = [result.dimensions[d] for d in _hwio(dims)]
    window = _window(instruction, hwio[:-2])
    spatial = len(window)
    patches = _pad(x, window)[(slice(None), *_patch_index(window, dy.shape[1:-1]))]
    # patches: [batch, out..., taps..., in features]
    groups = instruction.feature_group_count
    in_per_group, out_per_group = hwio[-2], hwio[-1] // groups
    rows = int(np.prod(dy.shape[:-1]))
    pieces = []
    for g in range(groups):
        cols = patches[..., g * in_per_group : (g + 1) * in_per_group].reshape(rows, -1)
        grads = dy[..., g * out_per_group : (g + 1) * out_per_group].reshape(rows, -1)
        pieces.append((cols.T @ grads).reshape(*hwio[:spatial], in_per_group, out_per_group))
    dw = np.flip(np.concatenate(pieces, axis=-1), _reversed_axes(window))
    return [dw.transpose(np.argsort(_hwio(dims))).astype(result.element_type.dtype)]


def backward_input(
    instruction: HloInstruction, operands: Sequence[np.ndarray], leaves: Sequence[ArrayShape]
) -> list[np.ndarray]:
    dims, result = _dims(instruction), leaves[0]
    wide = _accumulator(result.element_type)
    dy = operands[0].transpose(_nhwc_y(dims)).astype(wide)
    w = operands[1].transpose(_hwio(dims)).astype(wide)
    window = _window(instruction, w.shape[:-2])
    w = np.flip(w, _reversed_axes(window))
    spatial = len(window)
    x_shape = [result.dimensions[d] for d in _nhwc_x(dims)]
    padded = [_padded_size(x_shape[1 + i], win) for i, win in enumerate(window)]
    groups = instruction.feature_group_count
    in_per_group, out_per_group = w.shape[-2], w.shape[-1] // groups
    out_sizes = list(dy.shape[1:-1])
    rows = int(np.prod(dy.shape[:-1]))
    grad = np.zeros([x_shape[0], *padded, x_shape[-1]], wide)
    index = (slice(None), *_patch_index(window, out_sizes))
    for g in range(groups):
        grads = dy[..., g * out_per_group : (g + 1) * out_per_group].reshape(rows, -1)
        kernel = w[..., g * out_per_group : (g + 1) * out_per_group].reshape(-1, out_per_group)
        cols = np.matmul(grads, kernel.T)
        cols = cols.reshape(*dy.shape[:-1], *w.shape[:spatial], in_per_group)
        target = np.zeros_like(grad[..., :in_per_group])
        # col2im: overlapping windows add up (a slice and index arrays, as numpy allows).
        np.add.at(target, index, cols)  # pyright: ignore[reportArgumentType]
        group = slice(g * in_per_group, (g + 1) * in_per_group)
        grad[..., group] = np.add(grad[..., group], target)
    dx = _unpad(grad, window, x_shape[1:-1])
    return [dx.transpose(np.argsort(_nhwc_x(dims))).astype(result.element_type.dtype)]
