"""Reference semantics of cuDNN's convolution gradients: adjoints of the forward convolution.

`__cudnn$convBackwardInput(dy, w)` and `__cudnn$convBackwardFilter(x, dy)` carry
the window and `dim_labels` of the forward convolution y = conv(x, w). The
forward convolution is linear in x and in w; each gradient is the transpose of
that linear map applied to dy. Here the forward map is run backwards tap by
tap: where the forward reads padded-input position p * stride + t * dilation
into output position p, the adjoint adds dy at p back into that position, then
undoes padding and base dilation (positions that padding added or a negative
pad cut off get nothing). Sums are exact (float64), rounded once.
"""

from __future__ import annotations

import itertools

import numpy as np

from xla_emit.hlo.eval_linalg import dilate_and_pad, round_to, window_output_size, window_slices
from xla_emit.hlo.ir import ConvolutionDimensions, HloInstruction, WindowDimension
from xla_emit.hlo.shape import ArrayShape


def _dims(instruction: HloInstruction) -> ConvolutionDimensions:
    dims = instruction.convolution_dimensions
    assert dims is not None  # conv_config checked it
    return dims


def _window(instruction: HloInstruction, kernel_spatial: list[int]) -> tuple[WindowDimension, ...]:
    return instruction.window or tuple(WindowDimension(size) for size in kernel_spatial)


def _input_order(dims: ConvolutionDimensions) -> list[int]:
    return [dims.input_batch, dims.input_feature, *dims.input_spatial]


def _kernel_order(dims: ConvolutionDimensions) -> list[int]:
    return [dims.kernel_output_feature, dims.kernel_input_feature, *dims.kernel_spatial]


def _output_order(dims: ConvolutionDimensions) -> list[int]:
    return [dims.output_batch, dims.output_feature, *dims.output_spatial]


def _padded_positions(x_shape: list[int], window: tuple[WindowDimension, ...]) -> np.ndarray:
    """For each padded, dilated position of an [n, c, spatial...] input: its flat x index or -1."""
    flat = np.arange(int(np.prod(x_shape)), dtype=np.int64).reshape(x_shape)
    return dilate_and_pad(flat, range(2, len(x_shape)), window, -1)


def _flip_reversed(k: np.ndarray, window: tuple[WindowDimension, ...]) -> np.ndarray:
    for i, w in enumerate(window):
        if w.reversal:
            k = np.flip(k, 2 + i)
    return k


def backward_input(
    instruction: HloInstruction, dy: np.ndarray, w: np.ndarray, result: ArrayShape
) -> np.ndarray:
    dims = _dims(instruction)
    g = np.transpose(dy, _output_order(dims)).astype(np.float64)  # [n, o, out...]
    k = np.transpose(w, _kernel_order(dims)).astype(np.float64)  # [o, i, taps...]
    window = _window(instruction, list(k.shape[2:]))
    k = _flip_reversed(k, window)
    x_shape = [result.dimensions[d] for d in _input_order(dims)]
    positions = _padded_positions(x_shape, window)
    out_sizes = [window_output_size(positions.shape[2 + i], win) for i, win in enumerate(window)]
    groups = instruction.feature_group_count
    in_per_group, out_per_group = k.shape[1], k.shape[0] // groups
    grad = np.zeros(positions.shape, np.float64)
    for tap in itertools.product(*(range(win.size) for win in window)):
        taps = k[(slice(None), slice(None), *tap)]
        region = (slice(None), slice(None), *window_slices(tap, window, out_sizes))
        for group in range(groups):
            outs = slice(group * out_per_group, (group + 1) * out_per_group)
            ins = slice(group * in_per_group, (group + 1) * in_per_group)
            grad[region][:, ins] += np.einsum("no...,oc->nc...", g[:, outs], taps[outs])
    keep = positions >= 0
    dx = np.bincount(positions[keep], grad[keep], minlength=int(np.prod(x_shape)))
    dx = dx.reshape(x_shape).transpose(np.argsort(_input_order(dims)))
    return round_to(dx, result.element_type)


def backward_filter(
    instruction: HloInstruction, x: np.ndarray, dy: np.ndarray, result: ArrayShape
) -> np.ndarray:
    dims = _dims(instruction)
    xs = np.transpose(x, _input_order(dims)).astype(np.float64)  # [n, c, in...]
    g = np.transpose(dy, _output_order(dims)).astype(np.float64)  # [n, o, out...]
    k_shape = [result.dimensions[d] for d in _kernel_order(dims)]
    window = _window(instruction, k_shape[2:])
    padded = dilate_and_pad(xs, range(2, xs.ndim), window, 0)
    out_sizes = [window_output_size(padded.shape[2 + i], win) for i, win in enumerate(window)]
    groups = instruction.feature_group_count
    in_per_group, out_per_group = k_shape[1], k_shape[0] // groups
    dk = np.zeros(k_shape, np.float64)
    for tap in itertools.product(*(range(win.size) for win in window)):
        patch = padded[(slice(None), slice(None), *window_slices(tap, window, out_sizes))]
        for group in range(groups):
            outs = slice(group * out_per_group, (group + 1) * out_per_group)
            ins = slice(group * in_per_group, (group + 1) * in_per_group)
            inputs = patch[:, ins].reshape(patch.shape[0], in_per_group, -1)
            grads = g[:, outs].reshape(g.shape[0], out_per_group, -1)
            dk[(outs, slice(None), *tap)] = np.einsum("ncp,nop->oc", inputs, grads)
    dk = _flip_reversed(dk, window)
    return round_to(dk.transpose(np.argsort(_kernel_order(dims))), result.element_type)
