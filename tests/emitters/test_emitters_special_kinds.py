"""The concatenate, in-place dynamic-update-slice and input-slices emitters on random shapes.

Each case is a module with one fusion, compiled through the default pipeline
and run in the interpreter (`run_hlo`), against the numpy HLO evaluator
(`run_reference`), which shares no code with the emitters. The values are
exact in f32 (copies, negation, absolute values, sums of two values), so the
outputs must match bit for bit. Each test also checks that XLA's emitter
choice picked the kind under test.
"""

from __future__ import annotations

import numpy as np
from emitter_kernel_checks import bits, parse
from hypothesis import given, settings
from hypothesis import strategies as st

from xla_emit.api import run_hlo, run_reference
from xla_emit.emitters.fusion import fused_computation, fusion_instructions
from xla_emit.emitters.hero import EmitterKind, analyze_fusion

EXAMPLES = settings(max_examples=12, deadline=None)
dims = st.lists(st.integers(1, 6), min_size=1, max_size=3)


def shape_text(dtype: str, sizes: list[int]) -> str:
    return f"{dtype}[{','.join(map(str, sizes))}]"


def fusion_module(params: list[str], body: list[str], result: str) -> str:
    """A module whose entry calls a fused computation `body` on one parameter per shape."""
    fused = [f"  x{i} = {shape} parameter({i})" for i, shape in enumerate(params)]
    entry = [f"  p{i} = {shape} parameter({i})" for i, shape in enumerate(params)]
    operands = ", ".join(f"p{i}" for i in range(len(params)))
    return "\n".join(
        [
            "HloModule test",
            "",
            "fused {",
            *fused,
            *[f"  {line}" for line in body],
            "}",
            "",
            "ENTRY main {",
            *entry,
            f"  ROOT f = {result} fusion({operands}), kind=kLoop, calls=fused",
            "}",
        ]
    )


def emitter_kind(text: str) -> EmitterKind:
    (fusion,) = fusion_instructions(parse(text))
    return analyze_fusion(fused_computation(fusion)).kind


def assert_runs_like_the_evaluator(text: str, inputs: list[np.ndarray]) -> None:
    expected = run_reference(text, inputs)
    actual = run_hlo(text, inputs)
    assert len(actual) == len(expected)
    for want, got in zip(expected, actual, strict=True):
        assert got.shape == want.shape
        np.testing.assert_array_equal(bits(np.asarray(got)), bits(np.asarray(want)))


def random_array(rng: np.random.Generator, sizes: list[int]) -> np.ndarray:
    return rng.standard_normal(sizes).astype(np.float32)


@EXAMPLES
@given(
    sizes=dims,
    data=st.data(),
    num_operands=st.integers(2, 5),
    epilogue=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_concatenate_fusions(
    sizes: list[int], data: st.DataObject, num_operands: int, epilogue: bool, seed: int
) -> None:
    dim = data.draw(st.integers(0, len(sizes) - 1))
    operand_sizes = [
        [data.draw(st.integers(1, 7)) if d == dim else size for d, size in enumerate(sizes)]
        for _ in range(num_operands)
    ]
    params = [shape_text("f32", s) for s in operand_sizes]
    total = list(sizes)
    total[dim] = sum(s[dim] for s in operand_sizes)
    result = shape_text("f32", total)
    negated = [f"n{i} = {params[i]} negate(x{i})" for i in range(num_operands)]
    operands = ", ".join(f"n{i}" for i in range(num_operands))
    concat = f"c = {result} concatenate({operands}), dimensions={{{dim}}}"
    body = [*negated, ("" if epilogue else "ROOT ") + concat]
    if epilogue:
        body.append(f"ROOT r = {result} abs(c)")
    text = fusion_module(params, body, result)
    expected_kind = EmitterKind.CONCATENATE if num_operands <= 4 else EmitterKind.LOOP
    assert emitter_kind(text) is expected_kind
    rng = np.random.default_rng(seed)
    assert_runs_like_the_evaluator(text, [random_array(rng, s) for s in operand_sizes])


@EXAMPLES
@given(sizes=dims, data=st.data(), seed=st.integers(0, 2**16))
def test_in_place_dynamic_update_slice_fusions(
    sizes: list[int], data: st.DataObject, seed: int
) -> None:
    update_sizes = [data.draw(st.integers(1, size)) for size in sizes]
    # Starts reach past both ends: XLA clamps them to [0, size - update_size].
    starts = [data.draw(st.integers(-3, size + 3)) for size in sizes]
    operand, update = shape_text("f32", sizes), shape_text("f32", update_sizes)
    params = [operand, update, *["s32[]"] * len(sizes)]
    indices = ", ".join(f"x{2 + d}" for d in range(len(sizes)))
    body = [
        f"n = {update} negate(x1)",
        f"ROOT r = {operand} dynamic-update-slice(x0, n, {indices})",
    ]
    text = fusion_module(params, body, operand)
    assert emitter_kind(text) is EmitterKind.IN_PLACE_DUS
    rng = np.random.default_rng(seed)
    starts_arrays = [np.array(start, np.int32) for start in starts]
    inputs = [random_array(rng, sizes), random_array(rng, update_sizes), *starts_arrays]
    assert_runs_like_the_evaluator(text, inputs)


@st.composite
def unit_slices(draw: st.DrawFn, sizes: list[int]) -> tuple[list[int], list[int]]:
    starts = [draw(st.integers(0, size - 1)) for size in sizes]
    limits = [draw(st.integers(start + 1, size)) for start, size in zip(starts, sizes, strict=True)]
    return starts, limits


@EXAMPLES
@given(sizes=dims, data=st.data(), seed=st.integers(0, 2**16))
def test_input_slices_fusions(sizes: list[int], data: st.DataObject, seed: int) -> None:
    shape = shape_text("f32", sizes)
    body = [f"a = {shape} add(x0, x1)"]
    roots: list[tuple[str, str]] = []
    for position in range(data.draw(st.integers(2, 3))):
        starts, limits = data.draw(unit_slices(sizes))
        bounds = list(zip(starts, limits, strict=True))
        sliced = shape_text("f32", [limit - start for start, limit in bounds])
        ranges = ", ".join(f"[{start}:{limit}]" for start, limit in bounds)
        source = data.draw(st.sampled_from(["a", "x1"]))
        body.append(f"s{position} = {sliced} slice({source}), slice={{{ranges}}}")
        roots.append((f"s{position}", sliced))
    result = f"({', '.join(s for _, s in roots)})"
    body.append(f"ROOT t = {result} tuple({', '.join(n for n, _ in roots)})")
    text = fusion_module([shape, shape], body, result)
    assert emitter_kind(text) is EmitterKind.INPUT_SLICES
    rng = np.random.default_rng(seed)
    assert_runs_like_the_evaluator(text, [random_array(rng, sizes), random_array(rng, sizes)])
