"""Reference semantics of XLA:GPU's library custom calls (cuBLAS, cuDNN, cuSOLVER, TopK).

Each is the HLO op it replaced plus what the backend_config adds: gemm
`alpha * dot + beta * c`, then the epilogue's bias and ReLU; cuDNN forward
`act(scale * conv + side_input_scale * side + bias)`, its gradients the
adjoints of the forward convolution (`eval_conv_grads`); the solvers in
`eval_solvers`. Sums are exact (float64) and rounded once to the result type,
like the library's f32 accumulator rounded at the end.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from xla_emit.hlo import eval_conv_grads, eval_solvers
from xla_emit.hlo.eval_linalg import exact_convolution, exact_dot, round_to
from xla_emit.hlo.ir import HloInstruction
from xla_emit.hlo.library_calls import LibraryKernels, conv_config, gemm_config, run_library_call
from xla_emit.hlo.shape import ArrayShape


def custom_call(
    instruction: HloInstruction, operands: Sequence[np.ndarray]
) -> np.ndarray | tuple[np.ndarray, ...]:
    return run_library_call(instruction, operands, REFERENCE_KERNELS)


def _widened(x: np.ndarray) -> np.ndarray:
    """`x` in float64, or complex128 (a c64 addend cast to float64 lost its imaginary part)."""
    return x.astype(np.complex128 if np.iscomplexobj(x) else np.float64)


def _gemm(
    instruction: HloInstruction, operands: Sequence[np.ndarray], leaves: Sequence[ArrayShape]
) -> list[np.ndarray]:
    config = gemm_config(instruction)
    result = leaves[0]
    out_type = result.element_type
    wide = exact_dot(operands[0], operands[1], config.dimensions, out_type) * config.alpha
    extra = list(operands[2:])
    if config.beta != 0:
        wide = wide + config.beta * _widened(extra.pop(0))
    if config.epilogue.startswith("BIAS"):
        wide = wide + _widened(extra.pop(0))  # broadcast along the rows
    if config.epilogue.endswith("RELU"):
        wide = np.maximum(wide, 0)
    return [round_to(wide, out_type).reshape(result.dimensions)]


def _activation(wide: np.ndarray, mode: str, leaky_alpha: float) -> np.ndarray:
    if mode == "kRelu":
        return np.maximum(wide, 0)
    if mode == "kRelu6":
        return np.clip(wide, 0, 6)
    if mode == "kElu":
        return np.where(wide > 0, wide, np.expm1(np.minimum(wide, 0)))
    if mode == "kLeakyRelu":
        return np.where(wide > 0, wide, leaky_alpha * wide)
    return wide


def _convolution(
    instruction: HloInstruction, operands: Sequence[np.ndarray], leaves: Sequence[ArrayShape]
) -> list[np.ndarray]:
    config = conv_config(instruction)
    out_type = leaves[0].element_type
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
    wide = _activation(wide, config.activation, config.leakyrelu_alpha)
    return [round_to(wide, out_type)]


def _conv_backward_input(
    instruction: HloInstruction, operands: Sequence[np.ndarray], leaves: Sequence[ArrayShape]
) -> list[np.ndarray]:
    conv_config(instruction)
    return [eval_conv_grads.backward_input(instruction, operands[0], operands[1], leaves[0])]


def _conv_backward_filter(
    instruction: HloInstruction, operands: Sequence[np.ndarray], leaves: Sequence[ArrayShape]
) -> list[np.ndarray]:
    conv_config(instruction)
    return [eval_conv_grads.backward_filter(instruction, operands[0], operands[1], leaves[0])]


def _top_k(x: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k largest along the last dimension, ties to the lower index (a stable sort)."""
    order = np.argsort(-x.astype(np.float64), axis=-1, kind="stable")[..., :k]
    return np.take_along_axis(x, order, axis=-1), order.astype(np.int32)


REFERENCE_KERNELS = LibraryKernels(
    gemm=_gemm,
    convolution=_convolution,
    conv_backward_input=_conv_backward_input,
    conv_backward_filter=_conv_backward_filter,
    top_k=_top_k,
    triangular_solve=eval_solvers.triangular_solve,
    potrf=eval_solvers.potrf,
    getrf=eval_solvers.getrf,
    geqrf=eval_solvers.geqrf,
    orgqr=eval_solvers.orgqr,
    syevd=eval_solvers.syevd,
    pivots_to_permutation=eval_solvers.pivots_to_permutation,
)
