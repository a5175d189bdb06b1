"""The differential tester's XLA worker (tools/difftest): the flags both compiles get.

The live test needs the jax venv (`DIFFTEST_JAX_PYTHON`) and is marked slow (it starts
jax); the flag itself is checked without jax.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parents[2] / "tools" / "difftest"))

from xla_flags import with_tester_flags

# bf16 sine of an integer: with excess precision XLA:GPU's module takes the sine of the
# integer itself, not of its bf16 rounding (60666 rounds to 60672).
_SINE_OF_CONVERT = """HloModule sine_of_convert

ENTRY %main (u: u16[2]) -> bf16[2] {
  %u = u16[2] parameter(0)
  %c = bf16[2] convert(%u)
  ROOT %s = bf16[2] sine(%c)
}
"""


def test_worker_compiles_without_excess_precision() -> None:
    assert with_tester_flags("") == "--xla_allow_excess_precision=false"
    flags = with_tester_flags("--xla_dump_to=/tmp/x").split()
    assert flags == ["--xla_dump_to=/tmp/x", "--xla_allow_excess_precision=false"]


@pytest.mark.slow
def test_h100_module_rounds_the_convert_as_xla_cpu_does() -> None:
    from check import JAX_PYTHON, XlaWorker, compare_with_xla

    if not os.path.exists(JAX_PYTHON):
        pytest.skip(f"no jax venv at {JAX_PYTHON}")
    from arrays import decode

    inputs = [np.array([60666, 3], np.uint16)]
    worker = XlaWorker()
    try:
        reply = worker.ask(_SINE_OF_CONVERT, inputs, [(2,)])
    finally:
        worker.close()
    (output,) = [decode(r) for r in reply["outputs"]]  # type: ignore[union-attr]
    # sin(60672) = 0.99997 and sin(3) = 0.14112 rounded to bf16, as XLA:CPU printed them
    # (sin(60666) = 0.9624 would be 0.9609375).
    np.testing.assert_array_equal(output, np.array([1.0, 0.1416015625], ml_dtypes.bfloat16))
    gpu_hlo = str(reply["gpu_hlo"])
    assert re.search(r"= bf16\[2\]\{0\} convert\(%param", gpu_hlo), gpu_hlo
    assert compare_with_xla(gpu_hlo, inputs, [output]).kind == "agree"
