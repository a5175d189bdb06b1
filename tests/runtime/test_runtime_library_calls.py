"""Programs jax 0.10.2 and 0.12 compile for an H100 around library calls, run whole.

`tests/hlo/library_calls/` holds XLA:GPU's optimized HLO for a conv with a
bias-ReLU epilogue and its gradient (`__cudnn$convBiasActivationForward`,
`__cudnn$convBackwardInput`, `__cudnn$convBackwardFilter`), a Cholesky factor
and solve (`cusolver_potrf_ffi`, `__cublas$triangularSolve`), a batched
triangular solve, LU, QR (`cusolver_getrf_ffi`, `cusolver_geqrf_ffi`,
`cusolver_orgqr_ffi`), an eigendecomposition (`cusolver_syevd_ffi`) and a
batched gemm, with XLA:CPU's outputs of the same jax functions on the stored
inputs. Both the evaluator and the module runtime must give XLA's answers.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from xla_emit.hlo import evaluate_module, parse_hlo_module
from xla_emit.runtime import ModuleRuntime

DATA = Path(__file__).parent.parent / "hlo" / "library_calls"
PROGRAMS = sorted({p.name.split(".")[0] for p in DATA.glob("*.hlo")})
VERSIONS = ["jax0102", "jax012"]


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("name", PROGRAMS)
@pytest.mark.parametrize("engine", ["evaluator", "runtime"])
def test_library_call_programs_match_xla(name: str, version: str, engine: str) -> None:
    module = parse_hlo_module((DATA / f"{name}.{version}.hlo").read_text(), name)
    stored = np.load(DATA / f"{name}.xla_cpu.npz")
    args = [stored[f"arg{i}"] for i in range(len(module.entry.parameters))]
    if engine == "evaluator":
        outputs = list(evaluate_module(module, args))
    else:
        outputs = ModuleRuntime(module).run(args)
    expected = [stored[f"out{i}"] for i in range(len(outputs))]
    assert f"out{len(outputs)}" not in stored
    for index, (out, want) in enumerate(zip(outputs, expected, strict=True)):
        if name == "eigh" and index == 1:  # eigenvectors: any sign is right
            out, want = np.abs(out), np.abs(want)
        scale = max(1.0, float(np.max(np.abs(want))))
        np.testing.assert_allclose(out, want, rtol=0, atol=2e-6 * scale, err_msg=f"out{index}")


def test_conv_gradient_program_has_both_gradient_calls() -> None:
    text = (DATA / "conv_grad.jax012.hlo").read_text()
    assert "__cudnn$convBackwardInput" in text and "__cudnn$convBackwardFilter" in text
