"""Hero choice: which emitter each fused computation gets, and why (XLA's rules)."""

from __future__ import annotations

import pytest
from emitter_kernel_checks import parse

from xla_emit.emitters.hero import EmitterKind, ReductionGroups, analyze_fusion, reduction_groups

ADD = """
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
"""


def ints(values: tuple[int, ...] | list[int]) -> str:
    return ",".join(map(str, values))


def fused(body: tuple[str, ...]) -> str:
    """A module with the fused computation `fused` made of the `body` instructions."""
    instructions = "\n".join(f"  {line}" for line in body)
    return f"""HloModule m
{ADD}
fused {{
{instructions}
}}

ENTRY main {{
  ROOT f = f32[1] constant({{0}})
}}
"""


def kind_and_hero(body: tuple[str, ...]) -> tuple[EmitterKind, str]:
    analysis = analyze_fusion(parse(fused(body)).computation("fused"))
    return analysis.kind, analysis.hero.name


@pytest.mark.parametrize(
    ("body", "kind", "hero"),
    [
        # Elementwise only: the loop emitter, the root is its own hero.
        (
            (
                "p0 = f32[64,128] parameter(0)",
                "ROOT n = f32[64,128] negate(p0)",
            ),
            EmitterKind.LOOP,
            "n",
        ),
        # A row reduction found through an elementwise epilogue with a constant operand.
        (
            (
                "p0 = f32[64,128] parameter(0)",
                "z = f32[] constant(0)",
                "r = f32[64] reduce(p0, z), dimensions={1}, to_apply=add",
                "c = f32[] constant(2)",
                "cb = f32[64] broadcast(c), dimensions={}",
                "ROOT d = f32[64] divide(r, cb)",
            ),
            EmitterKind.REDUCTION,
            "r",
        ),
        # A column reduction.
        (
            (
                "p0 = f32[64,128] parameter(0)",
                "z = f32[] constant(0)",
                "ROOT r = f32[128] reduce(p0, z), dimensions={0}, to_apply=add",
            ),
            EmitterKind.REDUCTION,
            "r",
        ),
        # The seed's transpose: the minor dim moves and both swapped dims are >= 16.
        (
            (
                "p0 = f32[64,128] parameter(0)",
                "t = f32[128,64] transpose(p0), dimensions={1,0}",
                "ROOT a = f32[128,64] abs(t)",
            ),
            EmitterKind.TRANSPOSE,
            "t",
        ),
        # Epilogue ops with several computed operands still lead to a single transpose.
        (
            (
                "p0 = f32[64,128] parameter(0)",
                "t = f32[128,64] transpose(p0), dimensions={1,0}",
                "e = f32[128,64] exponential(t)",
                "ROOT a = f32[128,64] add(t, e)",
            ),
            EmitterKind.TRANSPOSE,
            "t",
        ),
        # Two transposes below the root: no single hero, the loop emitter.
        (
            (
                "p0 = f32[64,128] parameter(0)",
                "t = f32[128,64] transpose(p0), dimensions={1,0}",
                "n = f32[64,128] negate(p0)",
                "u = f32[128,64] transpose(n), dimensions={1,0}",
                "ROOT a = f32[128,64] add(t, u)",
            ),
            EmitterKind.LOOP,
            "a",
        ),
        # A reduction is only found through single-operand ops.
        (
            (
                "p0 = f32[64,128] parameter(0)",
                "z = f32[] constant(0)",
                "r = f32[64] reduce(p0, z), dimensions={1}, to_apply=add",
                "ROOT a = f32[64] add(r, r)",
            ),
            EmitterKind.LOOP,
            "a",
        ),
    ],
)
def test_hero_choice(body: tuple[str, ...], kind: EmitterKind, hero: str) -> None:
    assert kind_and_hero(body) == (kind, hero)


@pytest.mark.parametrize(
    ("shape", "permutation", "tiled"),
    [
        ((20, 160, 170), (2, 1, 0), True),  # the seed's
        ((64, 128), (1, 0), True),
        ((8, 128, 4), (0, 2, 1), False),  # the minor dims 4 and 128: 4 < 8
        ((128, 8, 8), (2, 1, 0), False),  # 8 and 128 are >= 8, but 8 * 128 < 64 * 128
        ((128, 4, 64), (2, 1, 0), True),  # minor dims 64 and 128
        ((128, 12, 12), (0, 2, 1), False),
        ((32, 64, 128), (1, 0, 2), False),  # the minor dim stays: no shared memory needed
    ],
)
def test_tiled_transpose_condition(
    shape: tuple[int, ...], permutation: tuple[int, ...], tiled: bool
) -> None:
    out = tuple(shape[d] for d in permutation)
    body = (
        f"p0 = f32[{ints(shape)}] parameter(0)",
        f"ROOT t = f32[{ints(out)}] transpose(p0), dimensions={{{ints(permutation)}}}",
    )
    kind, _ = kind_and_hero(body)
    assert kind is (EmitterKind.TRANSPOSE if tiled else EmitterKind.LOOP)


# The kind follows XLA's IsUnnestedReductionFasterThanElemental: a row needs 32 reduced
# elements or a size dividing 32; a column under 32 rows (or a narrow one under 64, 128,
# 256 rows) is left to the loop emitter.
@pytest.mark.parametrize(
    ("shape", "dims", "groups", "kind"),
    [
        ((8, 16), (1,), ReductionGroups(True, (1, 8, 16)), EmitterKind.REDUCTION),
        ((8, 16), (0,), ReductionGroups(False, (1, 8, 16)), EmitterKind.LOOP),
        ((4, 8, 16), (0,), ReductionGroups(False, (1, 4, 128)), EmitterKind.LOOP),
        ((4, 8, 16), (1,), ReductionGroups(False, (4, 8, 16)), EmitterKind.LOOP),
        ((4, 8, 16), (1, 2), ReductionGroups(True, (1, 4, 128)), EmitterKind.REDUCTION),
        # size-1 dims do not count
        ((4, 1, 16), (1, 2), ReductionGroups(True, (1, 4, 16)), EmitterKind.REDUCTION),
        ((4, 8, 16), (0, 1, 2), ReductionGroups(True, (1, 1, 512)), EmitterKind.REDUCTION),
        # reduced dims on both sides of a kept one: XLA's batched row reduction
        ((4, 8, 16), (0, 2), ReductionGroups(True, (4, 8, 16)), EmitterKind.REDUCTION),
        ((4, 8, 16, 2), (0, 2), None, EmitterKind.LOOP),
        ((5, 10), (1,), ReductionGroups(True, (1, 5, 10)), EmitterKind.LOOP),
        ((40, 16), (0,), ReductionGroups(False, (1, 40, 16)), EmitterKind.LOOP),
        ((40, 32), (0,), ReductionGroups(False, (1, 40, 32)), EmitterKind.REDUCTION),
        ((100, 7), (0,), ReductionGroups(False, (1, 100, 7)), EmitterKind.LOOP),
        ((128, 7), (0,), ReductionGroups(False, (1, 128, 7)), EmitterKind.REDUCTION),
        ((255, 2), (0,), ReductionGroups(False, (1, 255, 2)), EmitterKind.LOOP),
        ((256, 2), (0,), ReductionGroups(False, (1, 256, 2)), EmitterKind.REDUCTION),
    ],
)
def test_reduction_groups(
    shape: tuple[int, ...],
    dims: tuple[int, ...],
    groups: ReductionGroups | None,
    kind: EmitterKind,
) -> None:
    kept = [s for d, s in enumerate(shape) if d not in dims]
    body = (
        f"p0 = f32[{ints(shape)}] parameter(0)",
        "z = f32[] constant(0)",
        f"ROOT r = f32[{ints(kept)}] reduce(p0, z), dimensions={{{ints(dims)}}}, to_apply=add",
    )
    reduce = parse(fused(body)).computation("fused").root
    assert reduction_groups(reduce) == groups
    assert kind_and_hero(body)[0] is kind


def test_a_reduce_and_its_epilogue_as_two_roots_are_a_reduction() -> None:
    """Both roots have the reduce as hero (XLA's H100 module writes `sign(erf(r))` and
    `abs(erf(r))` through one epilogue of its reduction emitter, seed 1100388)."""
    body = (
        "p0 = f32[64,128] parameter(0)",
        "z = f32[] constant(0)",
        "r = f32[64] reduce(p0, z), dimensions={1}, to_apply=add",
        "n = f32[64] negate(r)",
        "ROOT t = (f32[64], f32[64]) tuple(r, n)",
    )
    assert kind_and_hero(body)[0] is EmitterKind.REDUCTION
