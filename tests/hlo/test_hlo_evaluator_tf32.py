"""The reference evaluator's TF32 dots: operands rounded as an H100's tensor cores round them.

Oracles: hand-worked roundings, the tile executor's own TF32 rounding (bit arithmetic, an
independent implementation of `cvt.rna.tf32.f32`) and numpy loops over the rounded values.
"""

from __future__ import annotations

import numpy as np
import pytest

from xla_emit.hlo import evaluate_module, parse_hlo_module
from xla_emit.hlo.eval_linalg import round_to_tf32
from xla_emit.hlo.ir import HloInstruction, HloModule
from xla_emit.interpreter.tile.dot import to_tf32


@pytest.mark.parametrize(
    ("value", "rounded"),
    [
        (1 + 2.0**-12, 1.0),  # under half a TF32 ulp (2^-10 at 1)
        (1 + 2.0**-11, 1 + 2.0**-10),  # a tie: away from zero
        (-(1 + 3 * 2.0**-11), -(1 + 2.0**-9)),  # a tie between 1+2^-10 and 1+2^-9
        (3 * 2.0**-12 + 2.0**-23, 3 * 2.0**-12),  # in [2^-11, 2^-10) the TF32 ulp is 2^-21
        (2.0**-149, 0.0),  # subnormals keep f32's top 10 mantissa bits: quantum 2^-136
        (2.0**-137, 2.0**-136),  # a subnormal tie
        (-0.0, -0.0),
        (float(np.finfo(np.float32).max), np.inf),  # rounds past f32's largest
        (np.inf, np.inf),
    ],
)
def test_round_to_tf32_hand_worked(value: float, rounded: float) -> None:
    result = round_to_tf32(np.array([value], np.float32))
    assert result.dtype == np.float32
    assert result.view(np.uint32)[0] == np.array([rounded], np.float32).view(np.uint32)[0]


def test_round_to_tf32_keeps_nans() -> None:
    assert np.isnan(round_to_tf32(np.array([np.nan, -np.nan], np.float32))).all()


def test_round_to_tf32_agrees_with_the_tile_executor_bit_for_bit() -> None:
    bits = np.random.default_rng(5).integers(0, 2**32, 200_000, dtype=np.uint64)
    bits = bits.astype(np.uint32)
    # Ties and subnormals are rare among random bit patterns: force some of each.
    ties = (bits & np.uint32(0xFFFFE000)) | np.uint32(0x1000)
    subnormals = bits & np.uint32(0x807FFFFF)
    values = np.concatenate([bits, ties, subnormals]).view(np.float32)
    values = values[np.isfinite(values)]
    ours, theirs = round_to_tf32(values), to_tf32(values)
    np.testing.assert_array_equal(ours.view(np.uint32), theirs.view(np.uint32))


# Three steps of h <- h w in a while loop, then one more dot of the result with v.
_LOOP = """HloModule loop

cond {
  s = (s32[], f32[4,8], f32[8,8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(3)
  ROOT c = pred[] compare(i, n), direction=LT
}

body {
  s = (s32[], f32[4,8], f32[8,8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  h = f32[4,8] get-tuple-element(s), index=1
  w = f32[8,8] get-tuple-element(s), index=2
  one = s32[] constant(1)
  j = s32[] add(i, one)
  step = f32[4,8] dot(h, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT t = (s32[], f32[4,8], f32[8,8]) tuple(j, step, w)
}

ENTRY e {
  a = f32[4,8] parameter(0)
  w = f32[8,8] parameter(1)
  v = f32[8,2] parameter(2)
  zero = s32[] constant(0)
  init = (s32[], f32[4,8], f32[8,8]) tuple(zero, a, w)
  loop = (s32[], f32[4,8], f32[8,8]) while(init), condition=cond, body=body
  h = f32[4,8] get-tuple-element(loop), index=1
  ROOT out = f32[4,2] dot(h, v), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
"""


def _inputs() -> list[np.ndarray]:
    rng = np.random.default_rng(3)
    return [rng.standard_normal(shape).astype(np.float32) for shape in ((4, 8), (8, 8), (8, 2))]


def _dots(module: HloModule) -> dict[str, HloInstruction]:
    return {i.name: i for c in module.computations for i in c.instructions if i.opcode == "dot"}


def _oracle(inputs: list[np.ndarray], step_tf32: bool, out_tf32: bool) -> np.ndarray:
    a, w, v = inputs

    def dot(x: np.ndarray, y: np.ndarray, tf32: bool) -> np.ndarray:
        if tf32:
            x, y = to_tf32(x), to_tf32(y)
        return (x.astype(np.float64) @ y.astype(np.float64)).astype(np.float32)

    h = a
    for _ in range(3):
        h = dot(h, w, step_tf32)
    return dot(h, v, out_tf32)


@pytest.mark.parametrize(("step", "out"), [(True, True), (True, False), (False, True)])
def test_tf32_dots_round_their_operands_in_loop_bodies_too(step: bool, out: bool) -> None:
    module = parse_hlo_module(_LOOP, "loop.hlo")
    dots = _dots(module)
    chosen = [dots[name] for name, wanted in (("step", step), ("out", out)) if wanted]
    [result] = evaluate_module(module, _inputs(), tf32_dots=chosen)
    np.testing.assert_array_equal(result, _oracle(_inputs(), step, out))
    # TF32 moved the result: the oracle without rounding is another array.
    assert not np.array_equal(result, _oracle(_inputs(), False, False))


def test_without_tf32_dots_the_evaluator_multiplies_exactly_again() -> None:
    module = parse_hlo_module(_LOOP, "loop.hlo")
    evaluate_module(module, _inputs(), tf32_dots=list(_dots(module).values()))
    [result] = evaluate_module(module, _inputs())
    np.testing.assert_array_equal(result, _oracle(_inputs(), False, False))
