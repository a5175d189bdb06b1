"""What XLA:GPU's library custom calls ask for, read from their `backend_config`.

XLA hands a dot to cuBLAS as `custom-call(...), custom_call_target="__cublas$gemm"`
(or `__cublas$lt$matmul`) with a `gemm_backend_config` (dimension numbers,
alpha, beta, epilogue), and a convolution to cuDNN as `__cudnn$convForward`,
`__cudnn$convBiasActivationForward`, `__cudnn$convBackwardInput` or
`__cudnn$convBackwardFilter` with a `cudnn_conv_backend_config`; the window and
`dim_labels` stay ordinary attributes. Those results are tuples whose last
element is a scratch buffer.

A convolution gradient keeps the window and `dim_labels` of the forward
convolution it differentiates (XLA's conv rewriter swaps them back so): for
`__cudnn$convBackwardInput(dy, w)` the labels' input side describes the
result dx, their output side dy; for `__cudnn$convBackwardFilter(x, dy)` the
kernel side describes the result dw. Each is the adjoint of the forward map.

`__cublas$triangularSolve(a, b)` is XLA's `triangular-solve` with its options
as JSON; jax's cuSOLVER calls (`cusolver_potrf_ffi`, `cusolver_getrf_ffi`,
`cusolver_geqrf_ffi`, `cusolver_orgqr_ffi`, `cusolver_syevd_ffi`) are typed FFI
calls whose backend_config is an MLIR dictionary (`{lower = true}`); their
matrices are the last two dimensions, the leading ones a batch, and there is
no scratch result (the FFI handler allocates its own).

This module only reads those facts; the evaluator and the runtime's kernel
library each compute with them (`LibraryKernels`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from xla_emit.diagnostics import UserError
from xla_emit.hlo.infer_compute import infer_convolution
from xla_emit.hlo.ir import DotDimensions, HloInstruction
from xla_emit.hlo.shape import ArrayShape, PrimitiveType, flatten_shape
from xla_emit.hlo.shape_checks import ShapeError

GEMM_TARGETS = frozenset({"__cublas$gemm", "__cublas$lt$matmul"})
CONV_FORWARD = "__cudnn$convForward"
CONV_BIAS_ACTIVATION = "__cudnn$convBiasActivationForward"
CONV_BACKWARD_INPUT = "__cudnn$convBackwardInput"
CONV_BACKWARD_FILTER = "__cudnn$convBackwardFilter"
CONV_TARGETS = frozenset(
    {CONV_FORWARD, CONV_BIAS_ACTIVATION, CONV_BACKWARD_INPUT, CONV_BACKWARD_FILTER}
)
TOPK_TARGETS = frozenset({"TopK", "__gpu$TopK"})
TRIANGULAR_SOLVE = "__cublas$triangularSolve"
POTRF, GETRF, GEQRF, ORGQR, SYEVD = (
    "cusolver_potrf_ffi",
    "cusolver_getrf_ffi",
    "cusolver_geqrf_ffi",
    "cusolver_orgqr_ffi",
    "cusolver_syevd_ffi",
)
# XLA's own Cholesky call (for an HLO `cholesky`): (a) -> (factor, workspace, s32 info),
# with CholeskyOptions `{"lower":true}` as JSON.
CUSOLVER_CHOLESKY = "__cusolver$cholesky"
SOLVER_TARGETS = frozenset({POTRF, GETRF, GEQRF, ORGQR, SYEVD, CUSOLVER_CHOLESKY})
# s32[..., k] 0-based LU pivots (row i was swapped with row pivots[i]) -> s32[..., m] permutation.
PIVOTS_TO_PERMUTATION = "cu_lu_pivots_to_permutation"
LIBRARY_TARGETS = (
    GEMM_TARGETS
    | CONV_TARGETS
    | TOPK_TARGETS
    | SOLVER_TARGETS
    | {TRIANGULAR_SOLVE, PIVOTS_TO_PERMUTATION}
)
GEMM_EPILOGUES = frozenset({"DEFAULT", "BIAS", "RELU", "BIAS_RELU"})
# The activations XLA's fused-convolution rewriter writes into a cuDNN forward call.
CONV_ACTIVATIONS = frozenset({"kNone", "kRelu", "kRelu6", "kElu", "kLeakyRelu"})
TRANSPOSE_KINDS = frozenset({"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"})

# Custom-call targets XLA:GPU (and jax's GPU lowerings) write that we do not run, and why.
UNSUPPORTED_TARGETS: dict[str, str] = {
    "__cudnn$convForwardGraph": "an f8 convolution whose epilogue is a serialized cuDNN graph",
    "__cudnn$convReorderFilter": "int8x32 filter reordering for cuDNN's vectorized int8 layout",
    "__cudnn$convReorderFilterAndBias": "int8x32 filter and bias reordering",
    "__cudnn$norm": "cuDNN layer norm: written only with --xla_gpu_enable_cudnn_layer_norm",
    "__cudnn$blockScaledDot": "block-scaled (MX) f8/f4 dot",
    "__cudnn$fmhaSoftmax": "cuDNN flash attention (jax.nn.dot_product_attention, cudnn)",
    "__cudnn$fmhaSoftmaxDropout": "cuDNN flash attention with dropout",
    "__cudnn$fmhaScaleBiasSoftmax": "cuDNN flash attention with a bias",
    "__cudnn$fmhaScaleBiasSoftmaxDropout": "cuDNN flash attention with a bias and dropout",
    "__cudnn$fmhaSoftmaxF8": "cuDNN f8 flash attention",
    "__cudnn$fmhaSoftmaxBackward": "cuDNN flash attention gradient",
    "__cudnn$fmhaSoftmaxDropoutBackward": "cuDNN flash attention gradient with dropout",
    "__cudnn$fmhaScaleBiasSoftmaxBackward": "cuDNN flash attention gradient with a bias",
    "__cudnn$fmhaScaleBiasSoftmaxDropoutBackward": "cuDNN flash attention gradient, bias, dropout",
    "__cudnn$fmhaSoftmaxBackwardF8": "cuDNN f8 flash attention gradient",
    "__cublas$lt$matmul$f8": "f8 gemm with scales (cublasLt)",
    "__cublas$lt$matmul$mx": "block-scaled (MX) gemm (cublasLt)",
    "__cublas$lt$groupedMatmul": "grouped (ragged) gemm (cublasLt)",
    "__cub$DeviceRadixSort": "CUB radix sort, which XLA writes for large sorts",
    "cusolver_gesvd_ffi": "singular value decomposition",
    "cusolver_gesvdj_ffi": "Jacobi singular value decomposition",
    "cusolver_syevj_ffi": "Jacobi symmetric eigensolver (small batched matrices)",
    "cusolver_sytrd_ffi": "tridiagonal reduction",
    "cublas_geqrf_batched_ffi": "batched QR of many small matrices",
    "__gpu$xla.gpu.triton": "a Pallas kernel handed over as serialized Triton IR",
    "xla_ffi_python_gpu_callback": "a call back into the host's Python (jax callbacks)",
}


@dataclass(frozen=True)
class GemmConfig:
    dimensions: DotDimensions
    alpha: float
    beta: float
    epilogue: str


@dataclass(frozen=True)
class ConvConfig:
    result_scale: float
    side_input_scale: float
    activation: str
    leakyrelu_alpha: float


@dataclass(frozen=True)
class TriangularSolveConfig:
    """XLA's TriangularSolveOptions: solve op(a) x = b (left side) or x op(a) = b."""

    left_side: bool
    lower: bool
    unit_diagonal: bool
    transpose_a: str


def _fail(instruction: HloInstruction, message: str) -> UserError:
    target = instruction.custom_call_target
    message = f"custom-call '{instruction.name}' ({target}): {message}"
    return UserError(message, instruction.location)


def _raw_backend_config(instruction: HloInstruction) -> str:
    raw = dict(instruction.extra_attributes).get("backend_config")
    if raw is None:
        raise _fail(instruction, "has no backend_config")
    return raw


def backend_config(instruction: HloInstruction, key: str) -> dict[str, object]:
    """The JSON object `key` inside the instruction's backend_config."""
    raw = _raw_backend_config(instruction)
    if raw.startswith('"'):  # the older, quoted spelling
        raw = json.loads(raw)
    try:
        config = json.loads(raw)
    except (json.JSONDecodeError, TypeError) as error:
        raise _fail(instruction, f"backend_config is not JSON ({error})") from None
    if not isinstance(config, dict):
        raise _fail(instruction, "backend_config is not a JSON object")
    inner = config.get(key, config)  # the oldest form is the bare inner object
    if not isinstance(inner, dict):
        raise _fail(instruction, f"backend_config has no object '{key}'")
    return inner  # type: ignore[return-value]


_FFI_ENTRY = re.compile(r"\s*([A-Za-z_][\w.]*)\s*=\s*([^,:]+?)\s*(?::\s*\w+\s*)?$")


def ffi_config(instruction: HloInstruction) -> dict[str, bool | int | float]:
    """A typed FFI call's attributes, `{lower = true, algorithm = 0 : ui8}`, by name."""
    raw = dict(instruction.extra_attributes).get("backend_config", "{}").strip()
    if not (raw.startswith("{") and raw.endswith("}")):
        raise _fail(instruction, f"backend_config {raw} is not an attribute dictionary")
    entries: dict[str, bool | int | float] = {}
    body = raw[1:-1].strip()
    for item in body.split(",") if body else []:
        match = _FFI_ENTRY.match(item)
        if match is None:
            raise _fail(instruction, f"cannot read the backend_config entry '{item.strip()}'")
        name, value = match.groups()
        if value in ("true", "false"):
            entries[name] = value == "true"
            continue
        try:
            entries[name] = float(value) if "." in value or "e" in value else int(value)
        except ValueError:
            raise _fail(instruction, f"backend_config entry '{name}' is not a number") from None
    return entries


def _ints(value: object) -> tuple[int, ...]:
    items = value if isinstance(value, list) else []
    return tuple(int(v) for v in items)  # type: ignore[arg-type]


def gemm_config(instruction: HloInstruction) -> GemmConfig:
    config = backend_config(instruction, "gemm_backend_config")
    dims = config.get("dot_dimension_numbers", {})
    assert isinstance(dims, dict)
    epilogue = str(config.get("epilogue", "DEFAULT"))
    if epilogue not in GEMM_EPILOGUES:
        raise _fail(instruction, f"the epilogue {epilogue} is not supported")
    return GemmConfig(
        DotDimensions(
            _ints(dims.get("lhs_batch_dimensions")),
            _ints(dims.get("lhs_contracting_dimensions")),
            _ints(dims.get("rhs_batch_dimensions")),
            _ints(dims.get("rhs_contracting_dimensions")),
        ),
        float(config.get("alpha_real", 1)),  # type: ignore[arg-type]
        float(config.get("beta", 0)),  # type: ignore[arg-type]
        epilogue,
    )


def conv_config(instruction: HloInstruction) -> ConvConfig:
    config = backend_config(instruction, "cudnn_conv_backend_config")
    activation = str(config.get("activation_mode", "kNone"))
    if activation not in CONV_ACTIVATIONS:
        known = ", ".join(sorted(CONV_ACTIVATIONS))
        raise _fail(instruction, f"the activation {activation} is not supported ({known} are)")
    if activation != "kNone" and instruction.custom_call_target != CONV_BIAS_ACTIVATION:
        raise _fail(instruction, f"only {CONV_BIAS_ACTIVATION} applies an activation")
    if instruction.convolution_dimensions is None:
        raise _fail(instruction, "a cuDNN convolution needs dim_labels")
    return ConvConfig(
        float(config.get("conv_result_scale", 1)),  # type: ignore[arg-type]
        float(config.get("side_input_scale", 0)),  # type: ignore[arg-type]
        activation,
        float(config.get("leakyrelu_alpha", 0)),  # type: ignore[arg-type]
    )


def triangular_solve_config(instruction: HloInstruction) -> TriangularSolveConfig:
    config = backend_config(instruction, "triangular_solve_options")
    transpose = str(config.get("transpose_a", "NO_TRANSPOSE"))
    if transpose not in TRANSPOSE_KINDS:
        raise _fail(instruction, f"transpose_a {transpose} is not one of {sorted(TRANSPOSE_KINDS)}")
    return TriangularSolveConfig(
        bool(config.get("left_side", False)),
        bool(config.get("lower", False)),
        bool(config.get("unit_diagonal", False)),
        transpose,
    )


def lower_triangle(instruction: HloInstruction) -> bool:
    """A Cholesky or syevd call's `lower`: which triangle of the matrix it reads (and writes)."""
    if instruction.custom_call_target == CUSOLVER_CHOLESKY:
        return bool(backend_config(instruction, "cholesky_options").get("lower", False))
    return bool(ffi_config(instruction).get("lower", False))


def check_library_target(instruction: HloInstruction) -> None:
    """A located error for a custom-call target nothing here implements, with the reason."""
    target = instruction.custom_call_target or ""
    if target in UNSUPPORTED_TARGETS:
        raise _fail(instruction, f"unsupported custom-call target: {UNSUPPORTED_TARGETS[target]}")
    if target not in LIBRARY_TARGETS:
        known = ", ".join(sorted(LIBRARY_TARGETS))
        raise _fail(instruction, f"unsupported custom-call target (supported: {known})")
    if target in SOLVER_TARGETS | {TRIANGULAR_SOLVE}:
        _check_solver_types(instruction)
        _check_solver_results(instruction)
    if target in (CONV_BACKWARD_INPUT, CONV_BACKWARD_FILTER):
        _check_gradient_shapes(instruction)
    if target == PIVOTS_TO_PERMUTATION:
        shape = instruction.operands[0].shape if instruction.operands else None
        if not isinstance(shape, ArrayShape) or shape.element_type.value != "s32" or not shape.rank:
            raise _fail(instruction, f"takes s32[..., k] pivots, not {shape}")


def _check_solver_types(instruction: HloInstruction) -> None:
    for operand in instruction.operands:
        shape = operand.shape
        if not isinstance(shape, ArrayShape) or shape.element_type.value not in ("f32", "f64"):
            raise _fail(instruction, f"operand '{operand.name}' is {shape}; f32 and f64 run")
        if shape.rank < 1 or (instruction.custom_call_target != ORGQR and shape.rank < 2):
            raise _fail(instruction, f"operand '{operand.name}' is {shape}; it needs matrices")


def check_pivots(instruction: HloInstruction, pivots: np.ndarray, size: int) -> None:
    """LU pivots must name rows of the permutation; a located error otherwise."""
    bad = (pivots < 0) | (pivots >= size)
    if bad.any():
        value = int(pivots[bad].reshape(-1)[0])
        raise _fail(instruction, f"pivot {value} is outside the permutation's 0..{size - 1}")


def _check_solver_results(instruction: HloInstruction) -> None:
    """The result leaves a solver call must declare, given its matrix operand."""
    target = instruction.custom_call_target
    a = instruction.operands[0].shape
    assert isinstance(a, ArrayShape)
    square = (POTRF, SYEVD, TRIANGULAR_SOLVE, CUSOLVER_CHOLESKY)
    if target in square and a.dimensions[-1] != a.dimensions[-2]:
        raise _fail(instruction, f"needs square matrices, not {a}")
    if target == TRIANGULAR_SOLVE:
        _check_triangular_operands(instruction, a)
        a = instruction.operands[1].shape  # the result has b's shape
        assert isinstance(a, ArrayShape)
    *batch, m, n = a.dimensions
    real, s32 = a.element_type, PrimitiveType.S32
    expected: dict[str, list[ArrayShape]] = {
        TRIANGULAR_SOLVE: [a],
        POTRF: [a, ArrayShape(s32, tuple(batch))],
        GETRF: [a, ArrayShape(s32, (*batch, min(m, n))), ArrayShape(s32, tuple(batch))],
        GEQRF: [a, ArrayShape(real, (*batch, min(m, n)))],
        ORGQR: [a],
        SYEVD: [a, ArrayShape(real, (*batch, n)), ArrayShape(s32, tuple(batch))],
    }
    leaves = flatten_shape(instruction.shape)
    if target == CUSOLVER_CHOLESKY:  # the workspace's size is XLA's choice
        workspace = leaves[1] if len(leaves) == 3 else ArrayShape(real, (0,))
        expected[target] = [a, workspace.with_type(real), ArrayShape(s32, tuple(batch))]
    wanted = expected[target or ""]
    if len(leaves) < len(wanted) or any(
        not got.same_dims_and_type(want) for got, want in zip(leaves, wanted, strict=False)
    ):
        listed = ", ".join(str(s) for s in wanted)
        raise _fail(instruction, f"results must start with ({listed}), not {instruction.shape}")


def _check_triangular_operands(instruction: HloInstruction, a: ArrayShape) -> None:
    b = instruction.operands[1].shape
    assert isinstance(b, ArrayShape)
    left = triangular_solve_config(instruction).left_side
    solved = b.dimensions[-2] if left else b.dimensions[-1]
    if a.dimensions[:-2] != b.dimensions[:-2] or a.dimensions[-1] != solved:
        side = "rows" if left else "columns"
        raise _fail(instruction, f"a {a} does not fit b {b} (a's order must be b's {side})")


def _check_gradient_shapes(instruction: HloInstruction) -> None:
    """A gradient's shapes must fit its forward convolution: conv(x, w) has dy's shape."""
    leaves = flatten_shape(instruction.shape)
    if len(instruction.operands) != 2 or instruction.convolution_dimensions is None:
        raise _fail(instruction, "takes two operands and dim_labels")
    first, second = instruction.operands
    result = HloInstruction(f"{instruction.name}.result", "parameter", leaves[0])
    if instruction.custom_call_target == CONV_BACKWARD_INPUT:
        x, w, dy = result, second, first
    else:
        x, w, dy = first, result, second
    forward = replace(instruction, opcode="convolution", operands=[x, w], shape=dy.shape)
    try:
        shape = infer_convolution(forward)
    except ShapeError as error:
        raise _fail(instruction, f"as the forward convolution: {error}") from None
    if not shape.same_dims_and_type(dy.shape):
        raise _fail(
            instruction,
            f"the forward convolution of {x.shape} and {w.shape} gives {shape}, "
            f"but the output gradient is {dy.shape}",
        )


# (the call, its operands, its result leaves) -> the leaves it computes (scratch left out)
LibraryKernel = Callable[
    [HloInstruction, Sequence[np.ndarray], Sequence[ArrayShape]], list[np.ndarray]
]
TopKKernel = Callable[[np.ndarray, int], tuple[np.ndarray, np.ndarray]]


@dataclass(frozen=True)
class LibraryKernels:
    """One implementation of every library call; the evaluator and the runtime each have one."""

    gemm: LibraryKernel
    convolution: LibraryKernel  # forward, with or without bias and activation
    conv_backward_input: LibraryKernel
    conv_backward_filter: LibraryKernel
    top_k: TopKKernel
    triangular_solve: LibraryKernel
    potrf: LibraryKernel
    getrf: LibraryKernel
    geqrf: LibraryKernel
    orgqr: LibraryKernel
    syevd: LibraryKernel
    pivots_to_permutation: LibraryKernel

    def kernel(self, target: str) -> LibraryKernel:
        if target in GEMM_TARGETS:
            return self.gemm
        if target == CONV_BACKWARD_INPUT:
            return self.conv_backward_input
        if target == CONV_BACKWARD_FILTER:
            return self.conv_backward_filter
        if target in CONV_TARGETS:
            return self.convolution
        if target in TOPK_TARGETS:
            top_k = self.top_k
            return lambda _call, operands, leaves: list(
                top_k(operands[0], leaves[0].dimensions[-1])
            )
        if target == CUSOLVER_CHOLESKY:
            return self._cholesky_with_workspace
        by_target = {
            TRIANGULAR_SOLVE: self.triangular_solve,
            POTRF: self.potrf,
            GETRF: self.getrf,
            GEQRF: self.geqrf,
            ORGQR: self.orgqr,
            SYEVD: self.syevd,
            PIVOTS_TO_PERMUTATION: self.pivots_to_permutation,
        }
        return by_target[target]

    def _cholesky_with_workspace(
        self,
        instruction: HloInstruction,
        operands: Sequence[np.ndarray],
        leaves: Sequence[ArrayShape],
    ) -> list[np.ndarray]:
        """XLA's Cholesky call is potrf with the workspace between the factor and info."""
        factor, info = self.potrf(instruction, operands, [leaves[0], leaves[2]])
        return [factor, _zeros(leaves[1]), info]


def _zeros(shape: ArrayShape) -> np.ndarray:
    return np.zeros(shape.dimensions, shape.element_type.dtype)


def run_library_call(
    instruction: HloInstruction, operands: Sequence[np.ndarray], kernels: LibraryKernels
) -> np.ndarray | tuple[np.ndarray, ...]:
    """Dispatches a library custom call to its kernel and assembles XLA's result tuple.

    The leaves after the kernel's own results are the library's scratch space;
    they come back zeroed.
    """
    check_library_target(instruction)
    leaves = flatten_shape(instruction.shape)
    results = kernels.kernel(instruction.custom_call_target or "")(instruction, operands, leaves)
    for result, leaf in zip(results, leaves, strict=False):
        assert result.shape == leaf.dimensions and result.dtype == leaf.element_type.dtype, (
            f"{instruction.name}: kernel gave {result.dtype}{list(result.shape)} for {leaf}"
        )
    results += [np.zeros(s.dimensions, s.element_type.dtype) for s in leaves[len(results) :]]
    return results[0] if isinstance(instruction.shape, ArrayShape) else tuple(results)
