"""Random fusions of elementwise ops and index transformations, emitted and run.

Values read at several indices (through transposes, reverses and slices)
make the partitioner cut the graph; whatever it decides, the kernel must
compute what the evaluator computes.
"""

from __future__ import annotations

from emitter_kernel_checks import check_module_fusions, parse
from hypothesis import given, settings
from hypothesis import strategies as st

from xla_emit.hlo.npz import random_inputs

SHAPE = "f32[4,4]"
UNARY = ["negate", "abs", "tanh", "floor", "sine"]
BINARY = ["add", "subtract", "multiply", "maximum", "minimum"]


@st.composite
def fused_computations(draw: st.DrawFn) -> list[str]:
    """Instructions of a fused computation over f32[4,4] values, the last one the root."""
    names = ["x0", "x1"]
    lines = [f"x0 = {SHAPE} parameter(0)", f"x1 = {SHAPE} parameter(1)"]
    for position in range(draw(st.integers(1, 7))):
        name = f"v{position}"
        kind = draw(st.sampled_from(["unary", "binary", "transpose", "reverse", "shift"]))
        a = draw(st.sampled_from(names))
        if kind == "unary":
            lines.append(f"{name} = {SHAPE} {draw(st.sampled_from(UNARY))}({a})")
        elif kind == "binary":
            b = draw(st.sampled_from(names))
            lines.append(f"{name} = {SHAPE} {draw(st.sampled_from(BINARY))}({a}, {b})")
        elif kind == "transpose":
            lines.append(f"{name} = {SHAPE} transpose({a}), dimensions={{1,0}}")
        elif kind == "reverse":
            lines.append(
                f"{name} = {SHAPE} reverse({a}), dimensions={{{draw(st.sampled_from('01'))}}}"
            )
        else:
            # Rows 1..3 of `a` then row 0 of the other operand: a slice, pad-free rotation.
            b = draw(st.sampled_from(names))
            lines.append(f"{name}_top = f32[3,4] slice({a}), slice={{[1:4], [0:4]}}")
            lines.append(f"{name}_bottom = f32[1,4] slice({b}), slice={{[0:1], [0:4]}}")
            lines.append(
                f"{name} = {SHAPE} concatenate({name}_top, {name}_bottom), dimensions={{0}}"
            )
        names.append(name)
    lines[-1] = "ROOT " + lines[-1]
    return lines


@settings(max_examples=60, deadline=None)
@given(fused_computations(), st.integers(0, 2**16))
def test_random_fusions_match_the_evaluator(body: list[str], seed: int) -> None:
    instructions = "\n".join(f"  {line}" for line in body)
    text = f"""HloModule random

fused {{
{instructions}
}}

ENTRY main {{
  a = {SHAPE} parameter(0)
  b = {SHAPE} parameter(1)
  ROOT f = {SHAPE} fusion(a, b), kind=kLoop, calls=fused
}}
"""
    module = parse(text)
    assert len(check_module_fusions(module, random_inputs(module.entry, seed))) == 1
