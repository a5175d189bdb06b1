"""Reference semantics of XLA:GPU's library custom calls (cuBLAS gemm, cuDNN conv, TopK).

Each is the HLO op it replaced plus what the backend_config adds: gemm
`alpha * dot + beta * c`, then the epilogue's bias and ReLU; cuDNN
`act(scale * conv + side_input_scale * side + bias)`. Sums are exact
(float64) and rounded once to the result type, like the library's f32
accumulator rounded at the end.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from xla_emit.hlo.eval_linalg import exact_convolution, exact_dot, round_to
from xla_emit.hlo.ir import HloInstruction
from xla_emit.hlo.library_calls import (
    CONV_TARGETS,
    GEMM_TARGETS,
    check_library_target,
    conv_config,
    gemm_config,
)
from xla_emit.hlo.shape import ArrayShape, flatten_shape


def custom_call(instruction: HloInstruction, operands: Sequence[np.ndarray]) -> object:
    check_library_target(instruction)
    leaves = flatten_shape(instruction.shape)
    target = instruction.custom_call_target
    if target in GEMM_TARGETS:
        results = [_gemm(instruction, operands, leaves[0])]
    elif target in CONV_TARGETS:
        results = [_convolution(instruction, operands, leaves[0])]
    else:
        results = list(_top_k(operands[0], leaves[0].dimensions[-1]))
    # The remaining leaves are the library's scratch space.
    results += [np.zeros(s.dimensions, s.element_type.dtype) for s in leaves[len(results) :]]
    return results[0] if isinstance(instruction.shape, ArrayShape) else tuple(results)


def _gemm(
    instruction: HloInstruction, operands: Sequence[np.ndarray], result: ArrayShape
) -> np.ndarray:
    config = gemm_config(instruction)
    out_type = result.element_type
    wide = exact_dot(operands[0], operands[1], config.dimensions, out_type) * config.alpha
    extra = list(operands[2:])
    if config.beta != 0:
        wide = wide + config.beta * extra.pop(0).astype(np.float64)
    if config.epilogue.startswith("BIAS"):
        wide = wide + extra.pop(0).astype(np.float64)  # broadcast along the rows
    if config.epilogue.endswith("RELU"):
        wide = np.maximum(wide, 0)
    return round_to(wide, out_type).reshape(result.dimensions)


def _convolution(
    instruction: HloInstruction, operands: Sequence[np.ndarray], result: ArrayShape
) -> np.ndarray:
    config = conv_config(instruction)
    out_type = result.element_type
    wide = exact_convolution(instruction, operands[0], operands[1], out_type)
    wide = wide * config.result_scale
    dims = instruction.convolution_dimensions
    assert dims is not None
    if len(operands) > 2:  # the bias, one value per output feature
        shape = [1] * wide.ndim
        shape[dims.output_feature] = -1
        wide = wide + operands[2].astype(np.float64).reshape(shape)
    if len(operands) > 3 and config.side_input_scale != 0:
        wide = wide + config.side_input_scale * operands[3].astype(np.float64)
    if config.activation == "kRelu":
        wide = np.maximum(wide, 0)
    return round_to(wide, out_type)


def _top_k(x: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k largest along the last dimension, ties to the lower index (a stable sort)."""
    order = np.argsort(-x.astype(np.float64), axis=-1, kind="stable")[..., :k]
    return np.take_along_axis(x, order, axis=-1), order.astype(np.int32)
