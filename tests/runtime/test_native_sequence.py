"""Computations run natively as a `NativeSequence` (launches decided once) against the
interpreter, bit for bit; rows of 1000 elements make blocks of 128 threads cross a row's
end (`xla-host-thread-loops` splits those loops). Skipped where llvmlite is missing."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import numpy as np
import pytest

from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.runtime import ModuleRuntime

if TYPE_CHECKING:
    from xla_emit.runtime.native_kernels import NativeKernelCache

ROWS = """
HloModule rows

max_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}

fused_row_max {
  x = f32[8,1000] parameter(0)
  neg_inf = f32[] constant(-inf)
  ROOT row_max = f32[8] reduce(x, neg_inf), dimensions={1}, to_apply=max_f32
}

fused_shift {
  x = f32[8,1000] parameter(0)
  row_max = f32[8] parameter(1)
  max_b = f32[8,1000] broadcast(row_max), dimensions={0}
  shifted = f32[8,1000] subtract(x, max_b)
  three = f32[] constant(3)
  three_b = f32[8,1000] broadcast(three), dimensions={}
  ROOT scaled = f32[8,1000] multiply(shifted, three_b)
}

ENTRY main {
  x = f32[8,1000] parameter(0)
  row_max = f32[8] fusion(x), kind=kInput, calls=fused_row_max
  ROOT scaled = f32[8,1000] fusion(x, row_max), kind=kLoop, calls=fused_shift
}
"""

TUPLE_ROOT = ROWS.replace(
    "  ROOT scaled = f32[8,1000] fusion(x, row_max), kind=kLoop, calls=fused_shift\n",
    "  scaled = f32[8,1000] fusion(x, row_max), kind=kLoop, calls=fused_shift\n"
    "  ROOT both = (f32[8,1000], f32[8]) tuple(scaled, row_max)\n",
)


def inputs() -> list[np.ndarray]:
    rng = np.random.default_rng(3)
    x = rng.standard_normal((8, 1000)).astype(np.float32)
    x[2, 999] = x[3, 0] = 40.0  # each row's maximum at a row's end or start
    return [x]


@cache
def kernel_cache() -> NativeKernelCache:
    """One for both modules: their fusions are the same, so compiled once."""
    from xla_emit.runtime.native_kernels import NativeKernelCache

    return NativeKernelCache(disk=False)


@cache
def native_and_interpreted(text: str) -> tuple[ModuleRuntime, list[np.ndarray], list[np.ndarray]]:
    """Both runs, once per module text (the kernels' compiles dominate these tests)."""
    module = parse_hlo_module(text, "rows.hlo")
    native = ModuleRuntime(module, native=kernel_cache())
    ours = native.run(inputs())
    expected = ModuleRuntime(parse_hlo_module(text, "rows.hlo")).run(inputs())
    return native, ours, expected


@pytest.fixture(autouse=True)
def _needs_llvmlite() -> None:  # pyright: ignore[reportUnusedFunction]
    pytest.importorskip("llvmlite.binding", reason="the native engine needs llvmlite")


def test_a_sequence_runs_the_launches_with_the_interpreters_bits() -> None:
    runtime, ours, expected = native_and_interpreted(ROWS)
    assert runtime._sequences[runtime.module.entry] is not None  # pyright: ignore[reportPrivateUsage]
    assert [run.name for run in runtime.runs] == ["row_max", "scaled"]
    assert len(ours) == len(expected) == 1
    assert ours[0].tobytes() == expected[0].tobytes()
    # Hand-worked: row 2's maximum is its last element, so that element comes out 0.
    assert ours[0][2, 999] == 0.0 and ours[0][3, 0] == 0.0


def test_a_second_run_gives_fresh_outputs() -> None:
    runtime, ours, _ = native_and_interpreted(ROWS)
    again = runtime.run([inputs()[0] * 2])
    assert again[0] is not ours[0]
    assert not np.array_equal(again[0], ours[0])
    assert again[0].tobytes() == (ours[0] * 2).tobytes()  # x - max and * 3 scale exactly by 2


def test_a_tuple_root_takes_the_general_route() -> None:
    runtime, ours, expected = native_and_interpreted(TUPLE_ROOT)
    assert runtime._sequences[runtime.module.entry] is None  # pyright: ignore[reportPrivateUsage]
    assert [o.tobytes() for o in ours] == [e.tobytes() for e in expected]
