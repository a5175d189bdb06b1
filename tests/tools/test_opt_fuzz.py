"""Mutated programs never crash xla-emit-opt: every failure is a located user error.

Each example is mutated (a span deleted, a line duplicated, a number or a
token replaced) and run through parsing, verification and a pipeline. The
only acceptable outcomes are success and `UserError`; anything else is a
traceback a user would see.
"""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xla_emit.diagnostics import UserError
from xla_emit.runtime.timing import Timer
from xla_emit.tools.opt import driver_options, parse_arguments
from xla_emit.tools.opt_driver import Driver

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = {
    "seed_gelu": ("tests/filecheck/dialects/seed_gelu.mlir", "xla-gpu-pipeline"),
    "scf_stage": ("examples/gelu/03_scf.mlir", "xla-flatten-tensors,xla-vectorize-loads-stores"),
    "tpu": ("examples/tpu/misaligned.mlir", "tpu-verify-alignment"),
    "pto": ("examples/pto/softmax_columns.mlir", "pto-level2-pipeline"),
}
TOKENS = [
    "%", "(", ")", "{", "}", "[", "]", ":", ",", "->", "0", "-1", "128", "index", "f32",
    "tensor<4xf32>", "xla_gpu.loop", "#map", "\"", "<", ">", "floordiv", "in", "=", "@main",
]  # fmt: skip


def mutate(text: str, data: st.DataObject) -> str:
    kind = data.draw(st.sampled_from(["delete", "insert", "duplicate_line", "replace_number"]))
    position = data.draw(st.integers(0, len(text)))
    if kind == "delete":
        return text[:position] + text[position + data.draw(st.integers(1, 12)) :]
    if kind == "insert":
        return text[:position] + data.draw(st.sampled_from(TOKENS)) + text[position:]
    lines = text.split("\n")
    line = data.draw(st.integers(0, len(lines) - 1))
    if kind == "duplicate_line":
        return "\n".join([*lines[: line + 1], lines[line], *lines[line + 1 :]])
    replaced = "".join(
        str(data.draw(st.sampled_from([0, 1, 3, 7, 64, 100000, -2]))) if c.isdigit() else c
        for c in lines[line]
    )
    return "\n".join([*lines[:line], replaced, *lines[line + 1 :]])


@pytest.mark.parametrize("example", sorted(EXAMPLES))
@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_mutated_programs_fail_only_with_user_errors(example: str, data: st.DataObject) -> None:
    path, pipeline = EXAMPLES[example]
    text = mutate((ROOT / path).read_text(), data)
    driver = Driver(driver_options(parse_arguments(["-p", pipeline])), Timer())
    try:
        driver.run_chunk(text, path)
    except UserError as error:
        assert error.location is None or error.location.file == path
