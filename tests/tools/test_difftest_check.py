"""The differential tester's comparison rules (tools/difftest/check.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parents[2] / "tools" / "difftest"))

from check import _in_type


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
