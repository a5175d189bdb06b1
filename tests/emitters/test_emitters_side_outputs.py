"""Reductions with side outputs: fusions whose other roots have the reduce input's size.

XLA's reduction emitter computes such roots per input element in the
reduction's own loop. Random shapes (row and column reductions, side outputs
reshaped against the reduce's view of them, f32 and bf16) must compute what
the numpy evaluator computes: the side outputs bit for bit, the maximum
too, a sum within the tolerance of another summation order.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from emitter_kernel_checks import assert_same, parse, run_fusion
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from xla_emit.diagnostics import UserError
from xla_emit.emitters import emit_fusion
from xla_emit.emitters.fusion import fused_computation
from xla_emit.emitters.hero import EmitterKind, analyze_fusion
from xla_emit.hlo.evaluator import evaluate_instruction, flatten_value
from xla_emit.hlo.npz import random_inputs


def dims_text(dims: tuple[int, ...]) -> str:
    return ",".join(str(d) for d in dims)


def side_output_module(
    dtype: str,
    side_dims: tuple[int, ...],
    view_dims: tuple[int, ...],
    reduced: tuple[int, ...],
    reducer: str,
    side_first: bool,
) -> str:
    """`side = x - y` written beside `reduce(bitcast(side * side))` over `reduced` of the view."""
    side = f"{dtype}[{dims_text(side_dims)}]"
    out_dims = tuple(d for i, d in enumerate(view_dims) if i not in reduced)
    out = f"{dtype}[{dims_text(out_dims)}]"
    roots = [f"{side} side", f"{out} r"] if side_first else [f"{out} r", f"{side} side"]
    tuple_type = ", ".join(root.split()[0] for root in roots)
    tuple_operands = ", ".join(root.split()[1] for root in roots)
    init = "-inf" if reducer == "maximum" else "0"
    return f"""HloModule side_outputs

combine {{
  a = {dtype}[] parameter(0)
  b = {dtype}[] parameter(1)
  ROOT c = {dtype}[] {reducer}(a, b)
}}

fused {{
  x = {side} parameter(0)
  y = {side} parameter(1)
  side = {side} subtract(x, y)
  square = {side} multiply(side, side)
  view = {dtype}[{dims_text(view_dims)}] bitcast(square)
  init = {dtype}[] constant({init})
  r = {out} reduce(view, init), dimensions={{{dims_text(reduced)}}}, to_apply=combine
  ROOT t = ({tuple_type}) tuple({tuple_operands})
}}

ENTRY main {{
  x = {side} parameter(0)
  y = {side} parameter(1)
  ROOT f = ({tuple_type}) fusion(x, y), kind=kInput, calls=fused
}}
"""


@st.composite
def reductions_with_side_outputs(draw: st.DrawFn) -> str:
    """A row reduction (minor dims reduced) or a column one (a major run reduced, the
    minor kept), over a view that may regroup the side output's dims."""
    view_dims = tuple(draw(st.lists(st.integers(2, 64), min_size=2, max_size=3)))
    assert math.prod(view_dims) > 0
    if len(view_dims) == 2:
        reduced = draw(st.sampled_from([(1,), (0,)]))
    else:
        reduced = draw(st.sampled_from([(2,), (1, 2), (0,), (1,), (0, 1)]))
    if draw(st.booleans()):
        side_dims = view_dims
    else:
        # The side output splits the view's major dim in two (a bitcast, as in batch norm).
        major = view_dims[0]
        split = draw(st.sampled_from([d for d in range(1, major + 1) if major % d == 0]))
        side_dims = (split, major // split, *view_dims[1:])
    dtype = draw(st.sampled_from(["f32", "bf16"]))
    # bf16 sums depend on the order of the adds (the evaluator's is sequential, the
    # kernel's a tree); a maximum does not, so bf16 reductions take the maximum.
    reducer = draw(st.sampled_from(["add", "maximum"])) if dtype == "f32" else "maximum"
    return side_output_module(dtype, side_dims, view_dims, reduced, reducer, draw(st.booleans()))


@settings(max_examples=25, deadline=None)
@given(reductions_with_side_outputs(), st.integers(0, 2**16))
def test_side_outputs_match_the_evaluator(text: str, seed: int) -> None:
    module = parse(text)
    fusion = module.entry.root
    analysis = analyze_fusion(fused_computation(fusion))
    # Reductions too small for the reduction emitter to pay off go to the loop emitter, as
    # in XLA (whose multi-output fusion pass then never builds such a fusion).
    assume(analysis.kind is EmitterKind.REDUCTION)
    arguments = random_inputs(module.entry, seed)
    expected = flatten_value(evaluate_instruction(fusion, arguments))  # pyright: ignore[reportArgumentType]
    actual = run_fusion(module, fusion, arguments)
    order_free = analysis.hero.called_computations[0].root.opcode == "maximum"
    for position, (want, got) in enumerate(zip(expected, actual, strict=True)):
        exact = order_free or position in analysis.side_outputs
        assert_same(np.asarray(want), np.asarray(got), exact, f"output {position}")


@pytest.mark.parametrize(
    ("side_dims", "view_dims", "reduced", "side_outputs"),
    [((16, 8, 8), (128, 8), (0,), (1,)), ((6, 50), (6, 50), (1,), (1,))],
)
def test_reductions_with_side_outputs_use_the_reduction_emitter(
    side_dims: tuple[int, ...],
    view_dims: tuple[int, ...],
    reduced: tuple[int, ...],
    side_outputs: tuple[int, ...],
) -> None:
    text = side_output_module("f32", side_dims, view_dims, reduced, "add", side_first=False)
    analysis = analyze_fusion(fused_computation(parse(text).entry.root))
    assert analysis.kind is EmitterKind.REDUCTION
    assert analysis.hero.opcode == "reduce"
    assert analysis.side_outputs == side_outputs


SIDE_OUTPUT_OF_ANOTHER_SIZE = """HloModule other_size

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}

fused {
  x = f32[4,8] parameter(0)
  zero = f32[] constant(0)
  r = f32[4] reduce(x, zero), dimensions={1}, to_apply=add
  half = f32[4,4] slice(x), slice={[0:4], [0:4]}
  ROOT t = (f32[4], f32[4,4]) tuple(r, half)
}

ENTRY main {
  x = f32[4,8] parameter(0)
  ROOT f = (f32[4], f32[4,4]) fusion(x), kind=kInput, calls=fused
}
"""


def test_a_root_of_another_size_than_the_reduce_input_is_no_side_output() -> None:
    module = parse(SIDE_OUTPUT_OF_ANOTHER_SIZE)
    assert analyze_fusion(fused_computation(module.entry.root)).kind is EmitterKind.LOOP
    with pytest.raises(UserError) as error:
        emit_fusion(module, module.entry.root)
    assert str(error.value).splitlines()[0] == (
        "<test>:13:3: error: Unsupported: multi-output loop fusion with outputs of shapes "
        "f32[4] and f32[4,4]"
    )


def _column_major_sums_module(side_layout: str) -> str:
    """`-x` beside the sums of x's rows of two, the sums laid out column-major."""
    return f"""HloModule column_major_sums

add {{
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = f32[] add(a, b)
}}

fused {{
  x = f32[3,5,2]{{2,1,0}} parameter(0)
  side = f32[3,5,2]{side_layout} negate(x)
  zero = f32[] constant(0)
  r = f32[3,5]{{0,1}} reduce(x, zero), dimensions={{2}}, to_apply=add
  ROOT t = (f32[3,5,2]{side_layout}, f32[3,5]{{0,1}}) tuple(side, r)
}}

ENTRY main {{
  x = f32[3,5,2]{{2,1,0}} parameter(0)
  ROOT f = (f32[3,5,2]{side_layout}, f32[3,5]{{0,1}}) fusion(x), kind=kInput, calls=fused
}}
"""


@pytest.mark.parametrize("side_layout", ["{2,1,0}", "{0,1,2}"])
def test_a_column_major_reduce_output_keeps_the_reduction_emitter(side_layout: str) -> None:
    # XLA's H100 module for seed 1805512 of the differential tester: outputs' layouts do not
    # decide the emitter, the reduce's input does. The sums are written at their logical
    # index whatever the layout: x[i, j, k] = 10i + 2j + k sums to 20i + 4j + 1.
    module = parse(_column_major_sums_module(side_layout))
    fusion = module.entry.root
    analysis = analyze_fusion(fused_computation(fusion))
    assert analysis.kind is EmitterKind.REDUCTION
    assert analysis.side_outputs == (0,)
    i, j, k = np.meshgrid(np.arange(3), np.arange(5), np.arange(2), indexing="ij")
    x = (10 * i + 2 * j + k).astype(np.float32)
    side, sums = run_fusion(module, fusion, [x])
    np.testing.assert_array_equal(side, -x)
    np.testing.assert_array_equal(sums, 20 * i[:, :, 0] + 4 * j[:, :, 0] + 1)
