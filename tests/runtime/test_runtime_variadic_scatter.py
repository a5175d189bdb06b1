"""A scatter of several operands whose indices repeat: XLA's `ScatterExpander` applies the
updates one after another, and so does our kernel (one thread, in update order).

Oracle: the same updates applied one by one in numpy (a sum and a running maximum, and a
"keep the last update" combiner, whose result depends on the order).
"""

from __future__ import annotations

import numpy as np
import pytest

from xla_emit.api import parse_hlo, run_hlo, run_reference
from xla_emit.runtime import ModuleRuntime

SCATTER = """HloModule variadic_scatter

combine {
  a0 = f32[] parameter(0)
  b0 = s32[] parameter(1)
  a1 = f32[] parameter(2)
  b1 = s32[] parameter(3)
  s = f32[] FIRST(a0, a1)
  m = s32[] maximum(b0, b1)
  ROOT t = (f32[], s32[]) tuple(s, m)
}

fused {
  x = f32[5,3]{1,0} parameter(0)
  y = s32[5,3]{1,0} parameter(1)
  idx = s32[6,1]{1,0} parameter(2)
  ux = f32[6,3]{1,0} parameter(3)
  uy = s32[6,3]{1,0} parameter(4)
  ROOT r = (f32[5,3]{1,0}, s32[5,3]{1,0}) scatter(x, y, idx, ux, uy), update_window_dims={1}, \
inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=combine
}

ENTRY e {
  x = f32[5,3]{1,0} parameter(0)
  y = s32[5,3]{1,0} parameter(1)
  idx = s32[6,1]{1,0} parameter(2)
  ux = f32[6,3]{1,0} parameter(3)
  uy = s32[6,3]{1,0} parameter(4)
  ROOT f = (f32[5,3]{1,0}, s32[5,3]{1,0}) fusion(x, y, idx, ux, uy), kind=kInput, calls=fused
}
"""
# Rows 1 and 3 are hit several times; index 7 is out of range (its window is dropped).
INDICES = np.array([[1], [3], [1], [0], [7], [1]], np.int32)


def _inputs() -> list[np.ndarray]:
    rng = np.random.default_rng(4)
    return [
        rng.integers(-4, 4, (5, 3)).astype(np.float32),
        rng.integers(-9, 9, (5, 3)).astype(np.int32),
        INDICES,
        rng.integers(-4, 4, (6, 3)).astype(np.float32),
        rng.integers(-20, 20, (6, 3)).astype(np.int32),
    ]


def _one_by_one(first: str, inputs: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    x, y, indices, ux, uy = (a.copy() for a in inputs)
    for update, (row,) in enumerate(indices):
        if not 0 <= row < x.shape[0]:
            continue
        x[row] = x[row] + ux[update] if first == "add" else ux[update]
        y[row] = np.maximum(y[row], uy[update])
    return x, y


@pytest.mark.parametrize("first", ["add", "keep_last"])
def test_colliding_updates_all_land_in_order(first: str) -> None:
    # `keep_last`: the combiner returns the update, so the last update of a row wins.
    combiner = "add" if first == "add" else "select"
    text = SCATTER.replace("FIRST(a0, a1)", "add(a0, a1)")
    if combiner == "select":
        text = text.replace("s = f32[] add(a0, a1)", "s = f32[] copy(a1)")
    inputs = _inputs()
    expected = _one_by_one(first, inputs)
    for ours in (run_hlo(text, inputs), run_reference(text, inputs)):
        for got, want in zip(ours, expected, strict=True):
            np.testing.assert_array_equal(got, want)


def test_the_kernel_is_one_thread() -> None:
    module = parse_hlo(SCATTER.replace("FIRST(a0, a1)", "add(a0, a1)"))
    runtime = ModuleRuntime(module)
    runtime.run(_inputs())
    (launch,) = runtime.runs
    assert launch.lanes == 1
