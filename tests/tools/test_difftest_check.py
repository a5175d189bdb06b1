"""The differential tester's comparison rules (tools/difftest/check.py)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import ml_dtypes
import numpy as np

sys.path.insert(0, str(Path(__file__).parents[2] / "tools" / "difftest"))

from check import _in_type, flushed_inside

from xla_emit.hlo.evaluator import evaluate_module, flushing_subnormals
from xla_emit.hlo.parser import parse_hlo_module


def test_complex_output_of_a_16_bit_program_is_compared_in_16_bit_parts() -> None:
    # Seed 805389: an f16 product reduce (orders part by up to 3 ulp) converted to c128;
    # XLA:CPU 27.453125, ours 27.4375: 1 f16 ulp, 8192 ulp of c64.
    xla = np.array(complex(27.453125, 27.453125), np.complex128)
    ours = np.array(complex(27.4375, 27.4375), np.complex128)
    assert _in_type(np.dtype(np.float16))(xla, ours).matches
    assert not _in_type(np.dtype(np.float32))(xla, ours).matches


def test_16_bit_parts_still_catch_a_real_difference() -> None:
    xla = np.array([complex(27.453125, 1.0)], np.complex128)
    wrong_real = np.array([complex(27.453125 + 8 * 0.015625, 1.0)], np.complex128)
    wrong_imag = np.array([complex(27.453125, 1.5)], np.complex128)
    assert not _in_type(np.dtype(np.float16))(xla, wrong_real).matches
    assert not _in_type(np.dtype(np.float16))(xla, wrong_imag).matches


# Seed 806084, cut down: bf16 `log(expm1(power(p, q)))`. power(-3.29e38, -1) is -3.04e-39,
# an f32 (and bf16) subnormal: XLA:CPU flushes it to -0 (log(expm1(-0)) = -inf), a GPU and
# ours keep it (log of a negative: NaN). XLA:CPU printed [-inf, 3.984375].
_FLUSHED_INSIDE = """HloModule flushed_inside

ENTRY %main (p: bf16[2], q: bf16[2]) -> bf16[2] {
  %p = bf16[2] parameter(0)
  %q = bf16[2] parameter(1)
  %w = bf16[2] power(%p, %q)
  %e = bf16[2] exponential-minus-one(%w)
  ROOT %l = bf16[2] log(%e)
}
"""


def _bf16(values: list[float]) -> np.ndarray:
    return np.array(values, np.float32).astype(ml_dtypes.bfloat16)


def test_a_subnormal_the_program_computes_is_flushed_by_xla_cpu_only() -> None:
    inputs = [_bf16([-3.3e38, 2.0]), _bf16([-1.0, 2.0])]
    xla_cpu = [_bf16([-math.inf, 3.984375])]
    assert flushed_inside(_FLUSHED_INSIDE, inputs, xla_cpu, program_has_dot=False)
    # The evaluator flushing inside is XLA:CPU's answer; as IEEE computes, NaN.
    module = parse_hlo_module(_FLUSHED_INSIDE, "flushed_inside.hlo")
    assert np.isnan(float(evaluate_module(module, inputs)[0][0]))
    with flushing_subnormals():
        assert float(evaluate_module(module, inputs)[0][0]) == -math.inf


def test_flushing_inside_explains_no_other_difference() -> None:
    inputs = [_bf16([-3.3e38, 2.0]), _bf16([-1.0, 2.0])]
    # A wrong value beside the flushed one: the rule does not hide it.
    assert not flushed_inside(
        _FLUSHED_INSIDE, inputs, [_bf16([-math.inf, 4.5])], program_has_dot=False
    )
    # No subnormal inside (power(-2, -1) = -0.5): a difference is not this rule's.
    normal = [_bf16([-2.0, 2.0]), _bf16([-1.0, 2.0])]
    assert not flushed_inside(
        _FLUSHED_INSIDE, normal, [_bf16([-math.inf, 3.984375])], program_has_dot=False
    )


def test_a_subnormal_quotient_in_f32_is_flushed_by_xla_cpu_only() -> None:
    # Seed 1009656, cut down: log(1.18e-38 / -3.47), a subnormal quotient: -inf on XLA:CPU.
    program = """HloModule flushed_quotient

ENTRY %main (a: f32[2], b: f32[2]) -> f32[2] {
  %a = f32[2] parameter(0)
  %b = f32[2] parameter(1)
  %q = f32[2] divide(%a, %b)
  ROOT %l = f32[2] log(%q)
}
"""
    inputs = [np.array([1.1754944e-38, 2.0], np.float32), np.array([-3.4672816, 1.0], np.float32)]
    xla_cpu = [np.array([-math.inf, 0.6931472], np.float32)]
    assert flushed_inside(program, inputs, xla_cpu, program_has_dot=False)
    assert not flushed_inside(
        program, inputs, [np.array([-math.inf, 0.75], np.float32)], program_has_dot=False
    )
