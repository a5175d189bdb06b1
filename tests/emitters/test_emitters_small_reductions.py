"""Reductions of short rows and narrow columns: XLA's multi-row and small-column tilings.

Each fusion is emitted, run in the interpreter and compared with the numpy evaluator:
integer sums and float maxima exactly (neither depends on the order of the combines),
float sums within the tolerance of another summation order. The tilings' maps are XLA's
(`tests/filecheck/emitters/multi_row_reduction.hlo`, `small_column_reduction.hlo`).
"""

from __future__ import annotations

import numpy as np
import pytest
from emitter_kernel_checks import assert_same, parse, run_fusion

from xla_emit.emitters.fusion import fused_computation
from xla_emit.emitters.hero import EmitterKind, analyze_fusion
from xla_emit.emitters.multi_row_reduction import MultiRowReductionTiling
from xla_emit.emitters.reduction import reduction_tiling
from xla_emit.emitters.small_column_reduction import SmallColumnReductionTiling
from xla_emit.hlo.evaluator import evaluate_instruction, flatten_value
from xla_emit.hlo.npz import random_inputs

REDUCERS = {"add": "0", "maximum": "-inf"}


def reduce_module(dtype: str, dims: tuple[int, ...], reduced: tuple[int, ...], reducer: str) -> str:
    """`reduce(negate(p))` over `reduced`, with a side output `negate(p)` beside it."""
    shape = f"{dtype}[{','.join(map(str, dims))}]"
    kept = [d for i, d in enumerate(dims) if i not in reduced]
    out = f"{dtype}[{','.join(map(str, kept))}]"
    init = REDUCERS[reducer] if dtype != "s32" else "0"
    return f"""HloModule small_reduction

combine {{
  a = {dtype}[] parameter(0)
  b = {dtype}[] parameter(1)
  ROOT c = {dtype}[] {reducer}(a, b)
}}

fused {{
  p = {shape} parameter(0)
  n = {shape} negate(p)
  init = {dtype}[] constant({init})
  r = {out} reduce(n, init), dimensions={{{",".join(map(str, reduced))}}}, to_apply=combine
  ROOT t = ({out}, {shape}) tuple(r, n)
}}

ENTRY main {{
  p = {shape} parameter(0)
  ROOT f = ({out}, {shape}) fusion(p), kind=kInput, calls=fused
}}
"""


CASES = [
    # (dtype, dims, reduced dims, reducer, tiling)
    ("f32", (100, 16), (1,), "add", MultiRowReductionTiling),
    ("s32", (100, 16), (1,), "add", MultiRowReductionTiling),
    ("f32", (15, 2), (1,), "maximum", MultiRowReductionTiling),
    ("bf16", (40, 8), (1,), "maximum", MultiRowReductionTiling),
    ("s32", (4, 64, 8), (0, 2), "add", MultiRowReductionTiling),
    ("s32", (300, 32), (1,), "add", MultiRowReductionTiling),
    ("f32", (100, 8), (0,), "add", SmallColumnReductionTiling),
    ("s32", (100, 8), (0,), "add", SmallColumnReductionTiling),
    ("s32", (512, 2), (0,), "add", SmallColumnReductionTiling),
    ("bf16", (256, 16), (0,), "maximum", SmallColumnReductionTiling),
    ("s32", (3, 70, 32), (1,), "add", SmallColumnReductionTiling),
]


@pytest.mark.parametrize(
    ("dtype", "dims", "reduced", "reducer", "tiling_class"),
    CASES,
    ids=[f"{c[0]}{list(c[1])}-{list(c[2])}-{c[3]}" for c in CASES],
)
def test_small_reductions_match_the_evaluator(
    dtype: str,
    dims: tuple[int, ...],
    reduced: tuple[int, ...],
    reducer: str,
    tiling_class: type,
) -> None:
    module = parse(reduce_module(dtype, dims, reduced, reducer))
    fusion = module.entry.root
    analysis = analyze_fusion(fused_computation(fusion))
    assert analysis.kind is EmitterKind.REDUCTION
    assert isinstance(reduction_tiling(analysis), tiling_class)
    arguments = random_inputs(module.entry, seed=sum(dims))
    expected = flatten_value(evaluate_instruction(fusion, arguments))  # pyright: ignore[reportArgumentType]
    actual = run_fusion(module, fusion, arguments)
    exact = dtype == "s32" or reducer == "maximum"
    assert_same(np.asarray(expected[0]), np.asarray(actual[0]), exact, "reduce")
    assert_same(np.asarray(expected[1]), np.asarray(actual[1]), True, "side output")
