"""The congruence analysis of SSA values: unit rules by hand, and soundness by brute force on
random programs. The congruence arithmetic itself is tested in tests/indexing."""

import itertools
from dataclasses import dataclass

from hypothesis import example, given, settings
from hypothesis import strategies as st
from xdsl.dialects import scf
from xdsl.dialects.func import FuncOp
from xdsl.ir import SSAValue
from xla_emit.passes.analysis.divisibility_analysis import DivisibilityAnalysis

from xla_emit.indexing.congruence import Answer
from xla_emit.ir import parse_mlir

# ----- soundness: random straight-line index programs, evaluated exhaustively


@dataclass(frozen=True)
class Step:
    kind: str
    args: tuple[int, ...]  # operand value numbers (or constants for "const"/shift amounts)


BINARY = ("addi", "subi", "muli", "minsi", "maxsi", "remsi_value")


@st.composite
def programs(draw: st.DrawFn) -> tuple[tuple[int, int], list[Step]]:
    multiples = (draw(st.sampled_from([1, 2, 3, 4, 8, 16])), draw(st.sampled_from([1, 2, 4, 6, 8])))
    steps: list[Step] = []
    count = 3  # v0, v1: the inputs after assume_multiple; v2: the i1 condition (not a number)
    numbers = [0, 1]
    for _ in range(draw(st.integers(1, 7))):
        kind = draw(st.sampled_from(["const", *BINARY, "shli", "divsi", "remsi", "select"]))
        if kind == "const":
            steps.append(Step(kind, (draw(st.integers(-12, 40)),)))
        elif kind in ("shli",):
            steps.append(Step(kind, (draw(st.sampled_from(numbers)), draw(st.integers(0, 3)))))
        elif kind in ("divsi", "remsi"):
            divisor = draw(st.sampled_from([-4, -3, -2, 1, 2, 3, 4, 8]))
            steps.append(Step(kind, (draw(st.sampled_from(numbers)), divisor)))
        elif kind == "select":
            steps.append(
                Step(kind, (draw(st.sampled_from(numbers)), draw(st.sampled_from(numbers))))
            )
        else:
            steps.append(
                Step(kind, (draw(st.sampled_from(numbers)), draw(st.sampled_from(numbers))))
            )
        numbers.append(count)
        count += 1
    return multiples, steps


def _mlir(multiples: tuple[int, int], steps: list[Step]) -> str:
    lines = [
        "func.func @f(%a: index, %b: index, %v2: i1) {",
        f"  %v0 = tpu.assume_multiple %a, {multiples[0]} : index",
        f"  %v1 = tpu.assume_multiple %b, {multiples[1]} : index",
    ]
    for number, step in enumerate(steps, start=3):
        name = f"%v{number}"
        if step.kind == "const":
            lines.append(f"  {name} = arith.constant {step.args[0]} : index")
        elif step.kind in ("shli", "divsi", "remsi"):
            lines.append(f"  %k{number} = arith.constant {step.args[1]} : index")
            lines.append(f"  {name} = arith.{step.kind} %v{step.args[0]}, %k{number} : index")
        elif step.kind == "select":
            lines.append(f"  {name} = arith.select %v2, %v{step.args[0]}, %v{step.args[1]} : index")
        else:
            op = "remsi" if step.kind == "remsi_value" else step.kind
            lines.append(f"  {name} = arith.{op} %v{step.args[0]}, %v{step.args[1]} : index")
    lines += ["  return", "}"]
    return "\n".join(lines)


def _c_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _evaluate(steps: list[Step], a: int, b: int, condition: bool) -> list[int | None] | None:
    """All values of one run (None marks the i1); None when the run divides by zero."""
    values: list[int | None] = [a, b, None]
    for step in steps:
        x = values[step.args[0]] if step.kind != "const" else None
        y = (
            values[step.args[1]]
            if len(step.args) > 1 and step.kind not in ("shli", "divsi", "remsi")
            else None
        )
        if step.kind == "const":
            values.append(step.args[0])
            continue
        assert x is not None
        if step.kind == "shli":
            values.append(x << step.args[1])
        elif step.kind == "divsi":
            values.append(_c_div(x, step.args[1]))
        elif step.kind == "remsi":
            values.append(x - step.args[1] * _c_div(x, step.args[1]))
        else:
            assert y is not None
            if step.kind == "remsi_value":
                if y == 0:
                    return None
                values.append(x - y * _c_div(x, y))
            elif step.kind == "select":
                values.append(x if condition else y)
            else:
                values.append(
                    {
                        "addi": x + y,
                        "subi": x - y,
                        "muli": x * y,
                        "minsi": min(x, y),
                        "maxsi": max(x, y),
                    }[step.kind]
                )
    return values


def _named_values(function: FuncOp) -> dict[str, SSAValue]:
    named: dict[str, SSAValue] = {}
    for op in function.walk():
        for result in op.results:
            if result.name_hint is not None:
                named[result.name_hint] = result
    return named


def _with_constants(kind: str) -> tuple[tuple[int, int], list[Step]]:
    """`c5 <kind> v0` and `c3 <kind> c5`: each rule meets constants and a multiple of 8."""
    second = (3, 0) if kind in BINARY or kind == "select" else (0, 3)
    return (8, 1), [
        Step("const", (5,)),
        Step("const", (3,)),
        Step(kind, second),
        Step(kind, (4, 3)),
    ]


_EXAMPLES = [_with_constants(kind) for kind in (*BINARY, "select")] + [
    (
        (8, 1),
        [Step("const", (5,)), Step("const", (-3,)), Step(kind, (0, 2)), Step(kind, (4, amount))],
    )
    for kind, amount in (("shli", 2), ("divsi", -3), ("remsi", -3), ("divsi", 2))
]


def _apply_examples(test):  # type: ignore[no-untyped-def]
    for program in _EXAMPLES:
        test = example(program)(test)
    return test


@_apply_examples
@settings(max_examples=150, deadline=None)
@given(programs())
def test_analysis_is_sound(program: tuple[tuple[int, int], list[Step]]) -> None:
    multiples, steps = program
    module, _ = parse_mlir(_mlir(multiples, steps), "<random>")
    function = next(op for op in module.walk() if isinstance(op, FuncOp))
    named = _named_values(function)
    runs = []
    for a, b, condition in itertools.product(range(-24, 25), range(-24, 25), (False, True)):
        if a % multiples[0] or b % multiples[1]:
            continue  # the program promised these are multiples
        values = _evaluate(steps, a, b, condition)
        if values is not None:
            runs.append(values)
    analysis = DivisibilityAnalysis()
    for number in [0, 1, *range(3, 3 + len(steps))]:
        observed = {run[number] for run in runs}
        congruence = analysis.congruence(named[f"v{number}"])
        for value in observed:
            assert value is not None
            if congruence.is_constant:
                assert value == congruence.residue
            else:
                assert (value - congruence.residue) % congruence.modulus == 0, (
                    number,
                    congruence,
                    value,
                )
        for k in range(1, 17):
            result = analysis.divisibility(named[f"v{number}"], k)
            if result.answer is Answer.PROVEN:
                assert all(v % k == 0 for v in observed if v is not None)
            elif result.answer is Answer.DISPROVEN:
                assert all(v % k != 0 for v in observed if v is not None)
                if result.remainder is not None:
                    assert all(v % k == result.remainder for v in observed if v is not None)


LOOP = """
func.func @f(%lb_in: index, %step_in: index) {{
  %lb = tpu.assume_multiple %lb_in, {lb_multiple} : index
  %s = tpu.assume_multiple %step_in, {step_multiple} : index
  %lb_offset = arith.constant {lb_offset} : index
  %lb1 = arith.addi %lb, %lb_offset : index
  %step_offset = arith.constant {step_offset} : index
  %step = arith.addi %s, %step_offset : index
  %ub = arith.constant 60 : index
  %init = arith.constant {init} : index
  %delta = arith.constant {delta} : index
  %end = scf.for %i = %lb1 to %ub step %step iter_args(%off = %init) -> (index) {{
    %next = arith.addi %off, %delta : index
    scf.yield %next : index
  }}
  return
}}
"""


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([1, 2, 4, 8]),
    st.sampled_from([1, 2, 4, 8]),
    st.integers(0, 9),
    st.integers(1, 9),
    st.integers(-6, 12),
    st.integers(-9, 24),
)
def test_loop_values_are_sound(
    lb_multiple: int, step_multiple: int, lb_offset: int, step_offset: int, init: int, delta: int
) -> None:
    text = LOOP.format(
        lb_multiple=lb_multiple,
        step_multiple=step_multiple,
        lb_offset=lb_offset,
        step_offset=step_offset,
        init=init,
        delta=delta,
    )
    module, _ = parse_mlir(text, "<loop>")
    function = next(op for op in module.walk() if isinstance(op, FuncOp))
    loop = next(op for op in function.walk() if isinstance(op, scf.ForOp))
    loop_body_args = loop.body.block.args
    analysis = DivisibilityAnalysis()
    iv, off = analysis.congruence(loop_body_args[0]), analysis.congruence(loop_body_args[1])
    ivs: set[int] = set()
    offsets: set[int] = set()
    for lb in range(0, 40, lb_multiple):
        for s in range(0, 24, step_multiple):
            step = s + step_offset
            current = init
            for value in range(lb + lb_offset, 60, step):
                ivs.add(value)
                offsets.add(current)
                current += delta
    for congruence, observed in ((iv, ivs), (off, offsets)):
        for value in observed:
            if congruence.is_constant:
                assert value == congruence.residue
            else:
                assert (value - congruence.residue) % congruence.modulus == 0, (congruence, value)
