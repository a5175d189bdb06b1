"""Every stage of the seed's GELU (examples/gelu/*.mlir, bf16[6,512,4096]) against numpy.

The oracle is GELU in numpy with ml_dtypes, rounding to bf16 after every op
and evaluating tanh in f64 rounded through f32 (the reference evaluator's
rule for transcendental functions). Results must be bit-exact.
"""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from xla_emit.interpreter import CheckOptions, Executor
from xla_emit.ir import parse_mlir

BF16 = ml_dtypes.bfloat16
STAGES = sorted((Path(__file__).parents[2] / "examples" / "gelu").glob("*.mlir"))


def numpy_gelu(x: np.ndarray) -> np.ndarray:
    """The HLO's GELU, op by op in bf16 (constants as the HLO rounds them)."""
    c = [BF16(v) for v in (0.5, 1.0, 0.79785, 0.044708)]
    cube = (x * x) * x
    inner = (x + cube * c[3]) * c[2]
    tanh = np.tanh(inner.astype(np.float64)).astype(np.float32).astype(BF16)
    return x * ((tanh + c[1]) * c[0])


@pytest.fixture(scope="module")
def gelu_input() -> np.ndarray:
    x = np.random.default_rng(0).standard_normal((6, 512, 4096), dtype=np.float32) * 3
    return x.astype(BF16)


@pytest.fixture(scope="module")
def expected(gelu_input: np.ndarray) -> np.ndarray:
    return numpy_gelu(gelu_input)


def test_all_six_stages_are_present() -> None:
    assert [p.name[:2] for p in STAGES] == ["01", "02", "03", "04", "05", "06"]


@pytest.mark.parametrize("stage", STAGES, ids=[p.stem for p in STAGES])
def test_stage_is_bit_exact(stage: Path, gelu_input: np.ndarray, expected: np.ndarray) -> None:
    module, source_map = parse_mlir(stage.read_text(), str(stage))
    executor = Executor(module, checks=CheckOptions.none(), locator=source_map)
    (result,) = executor.run([gelu_input])
    assert executor.grid.threads_per_block == 128 and executor.grid.num_blocks == 24576
    np.testing.assert_array_equal(
        result.reshape(-1).view(np.uint16), expected.reshape(-1).view(np.uint16)
    )


def test_final_stage_passes_every_safety_check(
    gelu_input: np.ndarray, expected: np.ndarray
) -> None:
    module, source_map = parse_mlir(STAGES[-1].read_text(), str(STAGES[-1]))
    (result,) = Executor(module, checks=CheckOptions(), locator=source_map).run([gelu_input])
    np.testing.assert_array_equal(
        result.reshape(-1).view(np.uint16), expected.reshape(-1).view(np.uint16)
    )
