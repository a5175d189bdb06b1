"""The TPU executor's handler for jaxlib 0.12's `tpu.conv`: a convolution added to `acc`.

Semantics are `lax.conv_general_dilated`'s, which Pallas lowers to it
(`jax/_src/pallas/mosaic/lowering.py`): the dimension numbers say which dims of
the input, kernel and output are batch, feature and spatial; the input is
dilated by `lhs_dilation` (zeros between elements), padded by `padding` (low and
high per spatial dim, negative crops), and the kernel, reversed along the dims
`window_reversal` marks and dilated by `rhs_dilation`, slides over it with
`window_strides`. With `feature_group_count` G the input features and the
kernel's output features split into G groups, each convolved on its own. Narrow
floats multiply and sum in f32 and round once, as the matrix unit accumulates.
`batch_group_count` other than 1 is not supported.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr
from xdsl.ir import Operation, SSAValue

from xla_emit.diagnostics import UserError
from xla_emit.dialects import tpu
from xla_emit.interpreter.element_types import numpy_dtype


class WholeValues(Protocol):
    def array(self, value: SSAValue) -> npt.NDArray[np.generic]: ...
    def error(self, op: Operation, message: str) -> UserError: ...


def _ints(op: Operation, name: str) -> list[int]:
    attr = op.properties[name]
    assert isinstance(attr, DenseArrayBase)
    return [int(v) for v in attr.get_values()]


def _count(op: Operation, name: str) -> int:
    attr = op.properties.get(name)
    return attr.value.data if isinstance(attr, IntegerAttr) else 1


def _dilated(values: npt.NDArray[Any], dilation: list[int], first: int) -> npt.NDArray[Any]:
    """`values` with `d - 1` zeros between neighbours along each dim from `first` on."""
    shape = list(values.shape)
    for i, d in enumerate(dilation):
        shape[first + i] = (shape[first + i] - 1) * d + 1 if shape[first + i] else 0
    result = np.zeros(shape, values.dtype)
    result[(slice(None),) * first + tuple(slice(None, None, d) for d in dilation)] = values
    return result


def _padded(values: npt.NDArray[Any], padding: list[int]) -> npt.NDArray[Any]:
    """Spatial dims (from 2 on) padded low and high; negative padding crops."""
    pairs = [(padding[2 * i], padding[2 * i + 1]) for i in range(len(padding) // 2)]
    grown = np.pad(values, [(0, 0), (0, 0), *((max(lo, 0), max(hi, 0)) for lo, hi in pairs)])
    crop = tuple(
        slice(max(-lo, 0), grown.shape[2 + i] - max(-hi, 0)) for i, (lo, hi) in enumerate(pairs)
    )
    return grown[(slice(None), slice(None), *crop)]


def conv(ex: WholeValues, op: Operation) -> list[Any]:
    lhs, rhs, acc = (ex.array(v) for v in op.operands)
    numbers = op.properties["dimension_numbers"]
    assert isinstance(numbers, tpu.ConvDimensionNumbersAttr)
    if _count(op, "batch_group_count") != 1:
        raise ex.error(op, "with a batch_group_count other than 1 is not supported")
    dtype = np.dtype(numpy_dtype(op.results[0].type))
    wide = np.float32 if dtype.kind in "fV" else np.int64
    # Input as (batch, feature, spatial...), kernel as (out feature, in feature, spatial...).
    x = lhs.transpose(
        numbers.dim("input_batch_dimension"),
        numbers.dim("input_feature_dimension"),
        *numbers.dims("input_spatial_dimensions"),
    ).astype(wide)
    w = rhs.transpose(
        numbers.dim("kernel_output_feature_dimension"),
        numbers.dim("kernel_input_feature_dimension"),
        *numbers.dims("kernel_spatial_dimensions"),
    ).astype(wide)
    spatial = x.ndim - 2
    reversal = op.properties["window_reversal"]
    assert isinstance(reversal, DenseArrayBase)
    reversed_dims = tuple(2 + i for i, r in enumerate(reversal.get_values()) if r)
    w = np.flip(w, reversed_dims) if reversed_dims else w
    w = _dilated(w, _ints(op, "rhs_dilation"), 2)
    x = _padded(_dilated(x, _ints(op, "lhs_dilation"), 2), _ints(op, "padding"))
    window = w.shape[2:]
    if any(x.shape[2 + i] < window[i] for i in range(spatial)):
        raise ex.error(op, f"has a window {list(window)} larger than its padded input")
    strides = _ints(op, "window_strides")
    windows = np.lib.stride_tricks.sliding_window_view(x, window, axis=tuple(range(2, x.ndim)))
    windows = windows[(slice(None), slice(None), *(slice(None, None, s) for s in strides))]
    groups = _count(op, "feature_group_count")
    features, out_features = x.shape[1], w.shape[0]
    if features % groups or out_features % groups or w.shape[1] * groups != features:
        raise ex.error(
            op,
            f"has {features} input and {out_features} output features, which do not split "
            f"into {groups} groups of the kernel's {w.shape[1]} input features",
        )
    per_group, out_per_group = features // groups, out_features // groups
    parts = []
    window_axes = list(range(2 + spatial, 2 + 2 * spatial))
    for g in range(groups):
        part = np.tensordot(
            windows[:, g * per_group : (g + 1) * per_group],
            w[g * out_per_group : (g + 1) * out_per_group],
            axes=([1, *window_axes], [1, *range(2, 2 + spatial)]),
        )
        parts.append(np.moveaxis(part, -1, 1))
    out = np.concatenate(parts, axis=1)  # (batch, feature, spatial...)
    order = [
        numbers.dim("output_batch_dimension"),
        numbers.dim("output_feature_dimension"),
        *numbers.dims("output_spatial_dimensions"),
    ]
    result = out.transpose(np.argsort(order))
    if result.shape != acc.shape:
        raise ex.error(
            op, f"computes a {list(result.shape)} result, but its accumulator is {list(acc.shape)}"
        )
    return [(acc.astype(wide) + result).astype(dtype)]


CONV_HANDLERS = ((tpu.CATALOG_BY_NAME["tpu.conv"], conv),)
