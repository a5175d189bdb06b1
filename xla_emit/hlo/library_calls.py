"""What XLA:GPU's library custom calls ask for, read from their `backend_config`.

XLA hands a dot to cuBLAS as `custom-call(...), custom_call_target="__cublas$gemm"`
(or `__cublas$lt$matmul`) with a `gemm_backend_config` (dimension numbers,
alpha, beta, epilogue), and a convolution to cuDNN as `__cudnn$convForward` or
`__cudnn$convBiasActivationForward` with a `cudnn_conv_backend_config`; the
window and `dim_labels` stay ordinary attributes. Both results are tuples
whose last element is a scratch buffer. This module only reads those
facts; the evaluator and the runtime's kernel library each compute with them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from xla_emit.diagnostics import UserError
from xla_emit.hlo.ir import DotDimensions, HloInstruction

GEMM_TARGETS = frozenset({"__cublas$gemm", "__cublas$lt$matmul"})
CONV_TARGETS = frozenset({"__cudnn$convForward", "__cudnn$convBiasActivationForward"})
TOPK_TARGETS = frozenset({"TopK", "__gpu$TopK"})
LIBRARY_TARGETS = GEMM_TARGETS | CONV_TARGETS | TOPK_TARGETS
GEMM_EPILOGUES = frozenset({"DEFAULT", "BIAS", "RELU", "BIAS_RELU"})
CONV_ACTIVATIONS = frozenset({"kNone", "kRelu"})


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


def _fail(instruction: HloInstruction, message: str) -> UserError:
    target = instruction.custom_call_target
    message = f"custom-call '{instruction.name}' ({target}): {message}"
    return UserError(message, instruction.location)


def backend_config(instruction: HloInstruction, key: str) -> dict[str, object]:
    """The JSON object `key` inside the instruction's backend_config."""
    raw = dict(instruction.extra_attributes).get("backend_config")
    if raw is None:
        raise _fail(instruction, "has no backend_config")
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
        raise _fail(instruction, f"the activation {activation} is not supported")
    return ConvConfig(
        float(config.get("conv_result_scale", 1)),  # type: ignore[arg-type]
        float(config.get("side_input_scale", 0)),  # type: ignore[arg-type]
        activation,
    )


def check_library_target(instruction: HloInstruction) -> None:
    """A located error for a custom-call target nothing here implements."""
    if instruction.custom_call_target not in LIBRARY_TARGETS:
        known = ", ".join(sorted(LIBRARY_TARGETS))
        raise _fail(instruction, f"unsupported custom-call target (supported: {known})")
