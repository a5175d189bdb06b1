"""A Pallas kernel's attributes must fit its arguments and its index maps.

Each case breaks one corpus kernel by one edit; `tpu-verify-alignment` and the
grid runner both refuse it with the same message, at the kernel.
"""

from __future__ import annotations

import pytest
from pallas_corpus import arrays, kernel_text
from xdsl.context import Context
from xla_emit.passes.diagnostics import OpError
from xla_emit.passes.tpu.tpu_verify_alignment import TpuVerifyAlignmentPass

from xla_emit.diagnostics import UserError
from xla_emit.interpreter.tpu_grid import run_pallas_kernel
from xla_emit.ir.parse import parse_mlir

CASES = [
    (
        "matmul",
        "iteration_bounds = array<i64: 2, 2, 2>",
        "iteration_bounds = array<i64: 2, 2>",
        "dimension_semantics has 3 entries, but the grid (iteration_bounds) has 2 dimensions",
    ),
    (
        "layernorm",
        "transform_indices = @transform_3",
        "transform_indices = @transform_9",
        "window_params[3] names @transform_9, which is not defined",
    ),
    (
        "scalar_prefetch_gather",
        "scalar_prefetch = 1 : i64",
        "scalar_prefetch = 0 : i64",
        "window_params has 2 entries, but the kernel has 3 inputs and outputs",
    ),
    (
        "attention",
        "window_bounds = array<i64: 8, 128>}, {pipeline_mode",
        "window_bounds = array<i64: 8, 128, 1>}, {pipeline_mode",
        "@transform_0 must take the program ids and prefetch refs and return 3 i32 block "
        "indices, but has type (i32) -> (i32, i32)",
    ),
]


@pytest.mark.parametrize(("name", "old", "new", "message"), CASES)
def test_broken_contract_is_refused(name: str, old: str, new: str, message: str) -> None:
    text = kernel_text(name)
    assert old in text
    broken, _ = parse_mlir(text.replace(old, new, 1), f"{name}.mlir")
    with pytest.raises(OpError) as caught:
        TpuVerifyAlignmentPass().apply(Context(), broken)
    assert caught.value.message == message
    assert caught.value.op.name == "func.func"
    outputs = arrays(name, "outputs")
    with pytest.raises(UserError) as refused:
        run_pallas_kernel(broken, arrays(name, "inputs"), [o.shape for o in outputs])
    assert str(refused.value).endswith(message)
