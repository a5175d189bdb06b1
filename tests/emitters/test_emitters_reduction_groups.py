"""Reduction groups: several reduces of one input shape tiled by one kernel.

XLA's reduction emitter runs every hero of a reduction group in one thread loop (each
hero's accumulators carried side by side, side outputs written in the same loop), one
`shuffle_reduce` per hero and one epilogue for all of the group's roots. Row reductions
of one and of several warps (shared memory), column reductions (a vector of partials per
thread) and a variadic hero beside a plain one must compute the numpy evaluator's bits;
the reducers are order-free (max, min, xor, and) so that the kernel's tree order cannot
excuse a difference.
"""

from __future__ import annotations

import numpy as np
import pytest
from emitter_kernel_checks import assert_same, parse, run_fusion

from xla_emit.emitters.fusion import fused_computation
from xla_emit.emitters.hero import EmitterKind, analyze_fusion
from xla_emit.hlo.evaluator import evaluate_instruction, flatten_value
from xla_emit.hlo.npz import random_inputs

REDUCERS = """
max_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] maximum(a, b)
}

xor_s32 {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT c = s32[] xor(a, b)
}

argmin {
  v0 = f32[] parameter(0)
  i0 = s32[] parameter(1)
  v1 = f32[] parameter(2)
  i1 = s32[] parameter(3)
  less = pred[] compare(v0, v1), direction=LT
  v = f32[] select(less, v0, v1)
  i = s32[] select(less, i0, i1)
  ROOT t = (f32[], s32[]) tuple(v, i)
}
"""


def _shape_texts(dims: tuple[int, ...], reduced: tuple[int, ...]) -> tuple[str, str, str]:
    """The input's dims, the kept dims and the reduced dims, as HLO text writes them."""
    kept = ",".join(str(d) for i, d in enumerate(dims) if i not in reduced)
    return ",".join(map(str, dims)), kept, ",".join(map(str, reduced))


def two_heroes(dims: tuple[int, ...], reduced: tuple[int, ...]) -> str:
    """`max(x)` and `convert(xor(bitcast-convert(x)))` beside the side output `negate(x)`."""
    shape, kept, dims_attr = _shape_texts(dims, reduced)
    return f"""HloModule two_heroes
{REDUCERS}
fused {{
  x = f32[{shape}] parameter(0)
  lo = f32[] constant(-inf)
  m = f32[{kept}] reduce(x, lo), dimensions={{{dims_attr}}}, to_apply=max_f32
  bits = s32[{shape}] bitcast-convert(x)
  zero = s32[] constant(0)
  r = s32[{kept}] reduce(bits, zero), dimensions={{{dims_attr}}}, to_apply=xor_s32
  u = u16[{kept}] convert(r)
  n = f32[{shape}] negate(x)
  ROOT t = (f32[{kept}], f32[{shape}], u16[{kept}]) tuple(m, n, u)
}}

ENTRY main {{
  x = f32[{shape}] parameter(0)
  ROOT f = (f32[{kept}], f32[{shape}], u16[{kept}]) fusion(x), kind=kInput, calls=fused
}}
"""


VARIADIC_BESIDE_PLAIN = f"""HloModule variadic_beside_plain
{REDUCERS}
fused {{
  x = f32[8,64] parameter(0)
  iota = s32[8,64] iota(), iota_dimension=1
  inf = f32[] constant(inf)
  none = s32[] constant(-1)
  a = (f32[8], s32[8]) reduce(x, iota, inf, none), dimensions={{1}}, to_apply=argmin
  lo = f32[] constant(-inf)
  m = f32[8] reduce(x, lo), dimensions={{1}}, to_apply=max_f32
  ROOT t = ((f32[8], s32[8]), f32[8]) tuple(a, m)
}}

ENTRY main {{
  x = f32[8,64] parameter(0)
  ROOT f = ((f32[8], s32[8]), f32[8]) fusion(x), kind=kInput, calls=fused
}}
"""


def _check_against_the_evaluator(text: str, heroes: int) -> None:
    module = parse(text)
    fusion = module.entry.root
    analysis = analyze_fusion(fused_computation(fusion))
    assert analysis.kind is EmitterKind.REDUCTION
    assert len(analysis.reduction_group) == heroes
    arguments = random_inputs(module.entry, 7)
    expected = flatten_value(evaluate_instruction(fusion, arguments))  # pyright: ignore[reportArgumentType]
    actual = run_fusion(module, fusion, arguments)
    assert len(actual) == len(expected)
    for position, (want, got) in enumerate(zip(expected, actual, strict=True)):
        assert_same(_signless(np.asarray(want)), np.asarray(got), True, f"output {position}")


def _signless(array: np.ndarray) -> np.ndarray:
    """The kernel's view of an unsigned array: its signed bit pattern (MLIR's signless ints)."""
    if array.dtype.kind == "u":
        return array.view(np.dtype(f"i{array.dtype.itemsize}"))
    return array


@pytest.mark.parametrize(
    ("dims", "reduced"),
    [
        ((16, 256), (1,)),  # rows of one warp
        ((2, 2048), (1,)),  # rows of 4 warps: shared memory, a second shuffle per hero
        ((64, 2, 32), (0,)),  # columns: a vector of partials per thread and hero
        ((2,), (0,)),  # seed 802057's shape: a row of 2
    ],
)
def test_two_heroes_and_a_side_output_match_the_evaluator(
    dims: tuple[int, ...], reduced: tuple[int, ...]
) -> None:
    _check_against_the_evaluator(two_heroes(dims, reduced), heroes=2)


def test_a_variadic_hero_beside_a_plain_one_matches_the_evaluator() -> None:
    _check_against_the_evaluator(VARIADIC_BESIDE_PLAIN, heroes=2)


def test_the_group_has_one_epilogue_for_all_its_roots() -> None:
    analysis = analyze_fusion(fused_computation(parse(two_heroes((16, 256), (1,))).entry.root))
    assert [h.name for h in analysis.reduction_group] == ["m", "r"]
    assert [r.name for r in analysis.reduction_epilogue_roots] == ["m", "u"]
    assert analysis.side_outputs == (1,)


def test_reduces_of_other_reduced_dims_are_no_group() -> None:
    """A column reduce beside a row reduce of the same input tiles otherwise: no group; the
    loop emitter computes the fusion (as before groups)."""
    text = (
        two_heroes((16, 256), (1,))
        .replace(
            "s32[16] reduce(bits, zero), dimensions={1}",
            "s32[256] reduce(bits, zero), dimensions={0}",
        )
        .replace("u16[16]", "u16[256]")
    )
    analysis = analyze_fusion(fused_computation(parse(text).entry.root))
    assert analysis.kind is EmitterKind.LOOP


DISJOINT_INPUTS = f"""HloModule disjoint_inputs
{REDUCERS}
fused {{
  x = f32[16,256] parameter(0)
  y = s32[16,256] parameter(1)
  lo = f32[] constant(-inf)
  m = f32[16] reduce(x, lo), dimensions={{1}}, to_apply=max_f32
  zero = s32[] constant(0)
  r = s32[16] reduce(y, zero), dimensions={{1}}, to_apply=xor_s32
  ROOT t = (f32[16], s32[16]) tuple(m, r)
}}

ENTRY main {{
  x = f32[16,256] parameter(0)
  y = s32[16,256] parameter(1)
  ROOT f = (f32[16], s32[16]) fusion(x, y), kind=kInput, calls=fused
}}
"""


def test_reduces_of_disjoint_inputs_share_one_group() -> None:
    """XLA launches such reduces as groups of their own (`blockIdx.y`); ours runs them as one
    group, with the same values."""
    _check_against_the_evaluator(DISJOINT_INPUTS, heroes=2)


def one_hero_two_roots(dims: tuple[int, ...], reduced: tuple[int, ...]) -> str:
    """`sign(erf(max(x)))` and `abs(erf(max(x)))` (an epilogue op of two users) beside the
    side output `negate(x)`: seed 1100388's fusion, as XLA's H100 module writes it."""
    shape, kept, dims_attr = _shape_texts(dims, reduced)
    return f"""HloModule one_hero_two_roots
{REDUCERS}
fused {{
  x = f32[{shape}] parameter(0)
  lo = f32[] constant(-inf)
  m = f32[{kept}] reduce(x, lo), dimensions={{{dims_attr}}}, to_apply=max_f32
  e = f32[{kept}] erf(m)
  s = f32[{kept}] sign(e)
  a = f32[{kept}] abs(e)
  n = f32[{shape}] negate(x)
  ROOT t = (f32[{kept}], f32[{kept}], f32[{shape}]) tuple(s, a, n)
}}

ENTRY main {{
  x = f32[{shape}] parameter(0)
  ROOT f = (f32[{kept}], f32[{kept}], f32[{shape}]) fusion(x), kind=kInput, calls=fused
}}
"""


@pytest.mark.parametrize(("dims", "reduced"), [((2,), (0,)), ((16, 256), (1,))])
def test_one_hero_under_two_roots_matches_the_evaluator(
    dims: tuple[int, ...], reduced: tuple[int, ...]
) -> None:
    _check_against_the_evaluator(one_hero_two_roots(dims, reduced), heroes=1)


def test_one_hero_under_two_roots_has_one_epilogue() -> None:
    """XLA's `__epilogue__sign_1_1_abs_1_1_clone_1` returns both roots (seed 1100388)."""
    text = one_hero_two_roots((16, 256), (1,))
    analysis = analyze_fusion(fused_computation(parse(text).entry.root))
    assert [r.name for r in analysis.reduction_epilogue_roots] == ["s", "a"]
    assert analysis.side_outputs == (2,)
