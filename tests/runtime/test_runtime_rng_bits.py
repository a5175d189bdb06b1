"""`rng-bit-generator` in the module runtime: XLA:CPU's bits (tests/corpus/rng) turned
into uniform floats by a fusion, as jax does, and the state handed on."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from xla_emit.api import run_hlo

CORPUS = np.load(Path(__file__).parent.parent / "corpus" / "rng" / "rng_bit_generator.npz")

UNIFORM = """HloModule uniform

to_unit {
  b = u32[3,5]{1,0} parameter(0)
  nine = u32[] constant(9)
  nines = u32[3,5]{1,0} broadcast(nine), dimensions={}
  m = u32[3,5]{1,0} shift-right-logical(b, nines)
  one = u32[] constant(1065353216)
  ones = u32[3,5]{1,0} broadcast(one), dimensions={}
  o = u32[3,5]{1,0} or(m, ones)
  f = f32[3,5]{1,0} bitcast-convert(o)
  c = f32[] constant(1)
  cs = f32[3,5]{1,0} broadcast(c), dimensions={}
  ROOT u = f32[3,5]{1,0} subtract(f, cs)
}

ENTRY main {
  s = u64[2]{0} parameter(0)
  r = (u64[2]{0}, u32[3,5]{1,0}) rng-bit-generator(s), algorithm=ALGORITHM
  s1 = u64[2]{0} get-tuple-element(r), index=0
  b = u32[3,5]{1,0} get-tuple-element(r), index=1
  u = f32[3,5]{1,0} fusion(b), kind=kLoop, calls=to_unit
  ROOT t = (u64[2]{0}, f32[3,5]{1,0}) tuple(s1, u)
}
"""


@pytest.mark.parametrize(
    ("algorithm", "case"),
    [("rng_three_fry", "THREE_FRY"), ("rng_philox", "PHILOX"), ("rng_default", "DEFAULT")],
)
def test_uniform_floats_from_xla_bits(algorithm: str, case: str) -> None:
    state = CORPUS["key"].view(np.uint64)
    new_state, uniform = run_hlo(UNIFORM.replace("ALGORITHM", algorithm), [state])
    np.testing.assert_array_equal(new_state.view(np.uint32), CORPUS[f"{case}_3x5_uint32_state"])
    bits = CORPUS[f"{case}_3x5_uint32_bits"]
    expected = ((bits >> 9) | np.uint32(0x3F800000)).view(np.float32) - np.float32(1)
    np.testing.assert_array_equal(uniform, expected)


@pytest.mark.parametrize(
    ("algorithm", "case", "dtype"),
    [("rng_philox", "PHILOX", "u32"), ("rng_three_fry", "THREE_FRY", "u64")],
)
def test_the_module_jax_writes_runs_whole(algorithm: str, case: str, dtype: str) -> None:
    """jax's u32[4] key reaches the u64[2] state through width-changing bitcast-converts,
    compiled as kernels, and the new state goes back the same way."""
    text = (
        "HloModule rng\nENTRY main {\n  k = u32[4]{0} parameter(0)\n"
        "  k2 = u32[2,2]{1,0} reshape(k)\n  s = u64[2]{0} bitcast-convert(k2)\n"
        f"  r = (u64[2]{{0}}, {dtype}[3,5]{{1,0}}) rng-bit-generator(s), algorithm={algorithm}\n"
        "  s1 = u64[2]{0} get-tuple-element(r), index=0\n"
        "  s2 = u32[2,2]{1,0} bitcast-convert(s1)\n  s3 = u32[4]{0} reshape(s2)\n"
        f"  b = {dtype}[3,5]{{1,0}} get-tuple-element(r), index=1\n"
        f"  ROOT t = (u32[4]{{0}}, {dtype}[3,5]{{1,0}}) tuple(s3, b)\n}}\n"
    )
    state, bits = run_hlo(text, [CORPUS["key"]])
    width = {"u32": "uint32", "u64": "uint64"}[dtype]
    np.testing.assert_array_equal(state, CORPUS[f"{case}_3x5_{width}_state"])
    np.testing.assert_array_equal(bits, CORPUS[f"{case}_3x5_{width}_bits"])
