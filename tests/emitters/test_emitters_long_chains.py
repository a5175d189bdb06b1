"""A fusion of thousands of chained elementwise ops emits (no Python recursion per op) and runs."""

import numpy as np

from xla_emit import api


def chain_hlo(length: int) -> str:
    """p -> log-plus-one(abs) -> negate -> ... : `length` elementwise ops in one loop fusion."""
    body = ["  p0 = f32[256] parameter(0)", "  v0 = f32[256] abs(p0)"]
    for i in range(1, length):
        opcode = ("negate", "abs", "log-plus-one")[i % 3]
        body.append(f"  v{i} = f32[256] {opcode}(v{i - 1})")
    body[-1] = "  ROOT" + body[-1][1:]
    return (
        "HloModule chain\n\nfused {\n" + "\n".join(body) + "\n}\n\n"
        "ENTRY e {\n  p = f32[256] parameter(0)\n"
        "  ROOT f = f32[256] fusion(p), kind=kLoop, calls=fused\n}\n"
    )


def test_three_thousand_op_chain_matches_the_evaluator() -> None:
    hlo = chain_hlo(3000)
    x = np.random.default_rng(0).standard_normal(256).astype(np.float32)
    (compiled,) = api.run_hlo(hlo, [x])
    (reference,) = api.run_reference(hlo, [x])
    np.testing.assert_array_equal(compiled, reference)
