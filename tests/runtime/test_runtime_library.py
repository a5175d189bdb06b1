"""The runtime's kernel library and control flow: library calls, sort kernels, while, conditional.

Oracles are hand-worked numbers and loops in the test; the module runtime
runs the HLO through its own code (library calls, emitted kernels).
"""

from __future__ import annotations

import itertools
import json

import ml_dtypes
import numpy as np
import pytest

from xla_emit.hlo import parse_hlo_module
from xla_emit.hlo.ir import DotDimensions, WindowDimension
from xla_emit.hlo.shape import ArrayShape, PrimitiveType
from xla_emit.runtime import ModuleRuntime, library

BF16 = ml_dtypes.bfloat16


def run(text: str, *args: np.ndarray) -> list[np.ndarray]:
    return ModuleRuntime(parse_hlo_module(text)).run(list(args))


def test_bf16_gemm_accumulates_in_f32_and_rounds_once() -> None:
    lhs = np.array([[256, 1, 1]], BF16)
    rhs = np.ones((3, 1), BF16)
    dims = DotDimensions((), (1,), (), (0,))
    out = library.gemm(lhs, rhs, dims, ArrayShape(PrimitiveType.BF16, (1, 1)))
    assert out.dtype == np.float32 and float(out[0, 0]) == 258.0  # f32 accumulator


def test_batched_gemm_with_contracting_dimension_first() -> None:
    rng = np.random.default_rng(1)
    lhs = rng.integers(-3, 4, (4, 2, 3)).astype(np.float32)  # [k, batch, m]
    rhs = rng.integers(-3, 4, (2, 4, 5)).astype(np.float32)  # [batch, k, n]
    dims = DotDimensions((1,), (0,), (0,), (1,))
    out = library.gemm(lhs, rhs, dims, ArrayShape(PrimitiveType.F32, (2, 3, 5)))
    expected = np.zeros((2, 3, 5), np.float32)
    for b, m, n, k in itertools.product(range(2), range(3), range(5), range(4)):
        expected[b, m, n] += lhs[k, b, m] * rhs[b, k, n]
    np.testing.assert_array_equal(out, expected)


def test_nhwc_convolution_with_stride_padding_and_groups_matches_a_loop() -> None:
    rng = np.random.default_rng(2)
    x = rng.integers(-2, 3, (1, 5, 4, 4)).astype(np.float32)
    w = rng.integers(-2, 3, (3, 2, 2, 6)).astype(np.float32)  # HWIO, 2 groups of 2 inputs
    window = (WindowDimension(3, 2, 1, 1), WindowDimension(2, 1, 0, 1))
    out = library._conv_nhwc(x, w, window, groups=2)  # pyright: ignore[reportPrivateUsage]
    padded = np.zeros((1, 7, 5, 4), np.float32)
    padded[:, 1:6, 0:4] = x
    expected = np.zeros((1, 3, 4, 6), np.float32)
    for i, j, o, di, dj, c in itertools.product(
        range(3), range(4), range(6), range(3), range(2), range(2)
    ):
        group = o // 3
        expected[0, i, j, o] += padded[0, 2 * i + di, j + dj, 2 * group + c] * w[di, dj, c, o]
    np.testing.assert_array_equal(out, expected)


def test_top_k_keeps_the_lower_index_among_equal_values() -> None:
    values, indices = library.top_k(np.array([[1, 7, 7, 3, 7]], np.float32), 3)
    np.testing.assert_array_equal(values, [[7, 7, 7]])
    np.testing.assert_array_equal(indices, [[1, 2, 4]])


def test_library_sort_is_stable_under_a_coarse_comparator() -> None:
    keys = np.array([[5, 12, 7, 15, 1]], np.int32)

    def tens_first(lanes: list[np.ndarray]) -> np.ndarray:
        return lanes[0] // 10 < lanes[1] // 10  # only the tens digit counts

    (out,) = library.sort([keys], 1, tens_first)
    np.testing.assert_array_equal(out, [[5, 7, 1, 12, 15]])


SORT_BY_KEY = """\
HloModule s

lt {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  ROOT r = pred[] compare(a, b), direction=GT
}

ENTRY e {
  k = f32[2,6] parameter(0)
  i = s32[2,6] iota(), iota_dimension=1
  ROOT s = (f32[2,6], s32[2,6]) sort(k, i), dimensions={1}, is_stable=true, to_apply=lt
}
"""


def test_sort_runs_its_comparator_as_a_kernel() -> None:
    keys = np.array([[3, 1, 3, 0, 2, 1], [0, 0, 1, 0, 0, 2]], np.float32)
    runtime = ModuleRuntime(parse_hlo_module(SORT_BY_KEY))
    values, order = runtime.run([keys])
    np.testing.assert_array_equal(values, [[3, 3, 2, 1, 1, 0], [2, 1, 0, 0, 0, 0]])
    np.testing.assert_array_equal(order, [[0, 2, 4, 1, 5, 3], [5, 2, 0, 1, 3, 4]])
    assert any(r.name == "s_comparator" for r in runtime.runs)


LOOP = """\
HloModule w

cond {
  s = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(3)
  ROOT c = pred[] compare(i, n), direction=LT
}

body {
  s = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  v = f32[4] get-tuple-element(s), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  half = f32[] constant(0.5)
  h = f32[4] broadcast(half), dimensions={}
  w = f32[4] multiply(v, h)
  ROOT t = (s32[], f32[4]) tuple(j, w)
}

ENTRY e {
  v = f32[4] parameter(0)
  z = s32[] constant(0)
  t = (s32[], f32[4]) tuple(z, v)
  r = (s32[], f32[4]) while(t), condition=cond, body=body
  ROOT o = f32[4] get-tuple-element(r), index=1
}
"""


def test_while_launches_the_same_kernels_every_trip() -> None:
    runtime = ModuleRuntime(parse_hlo_module(LOOP))
    (out,) = runtime.run([np.array([8, -4, 2, 1], np.float32)])
    np.testing.assert_array_equal(out, [1, -0.5, 0.25, 0.125])
    # Three trips of the body and four tests of the condition, each op its own kernel,
    # but every distinct kernel compiled once.
    launches = [r.name for r in runtime.runs]
    assert launches.count("wrapped_c") == 4 and launches.count("wrapped_w") == 3
    assert len(runtime.kernels) == len(set(launches))


BRANCHES = """\
HloModule c

neg {
  x = f32[2] parameter(0)
  ROOT n = f32[2] negate(x)
}

twice {
  x = f32[2] parameter(0)
  ROOT d = f32[2] add(x, x)
}

ENTRY e {
  i = s32[] parameter(0)
  x = f32[2] parameter(1)
  ROOT c = f32[2] conditional(i, x, x), branch_computations={neg, twice}
}
"""


@pytest.mark.parametrize(("index", "expected"), [(0, [-1, 3]), (1, [2, -6]), (-5, [2, -6])])
def test_conditional_runs_one_branch(index: int, expected: list[float]) -> None:
    (out,) = run(BRANCHES, np.array(index, np.int32), np.array([1, -3], np.float32))
    np.testing.assert_array_equal(out, expected)


def test_cublas_custom_call_runs_as_a_library_call() -> None:
    config = {
        "gemm_backend_config": {
            "alpha_real": 1,
            "beta": 1,
            "dot_dimension_numbers": {
                "lhs_contracting_dimensions": ["0"],
                "rhs_contracting_dimensions": ["0"],
            },
            "epilogue": "DEFAULT",
        }
    }
    text = (
        "HloModule g\n\nENTRY e {\n  a = f32[2,2] parameter(0)\n  b = f32[2,3] parameter(1)\n"
        "  c = f32[2,3] parameter(2)\n  g = (f32[2,3], s8[8]) custom-call(a, b, c), "
        f'custom_call_target="__cublas$gemm", backend_config={json.dumps(config)}\n'
        "  ROOT r = f32[2,3] get-tuple-element(g), index=0\n}\n"
    )
    a = np.array([[1, 2], [3, 4]], np.float32)  # contracted on dim 0: a^T @ b
    b = np.array([[1, 0, 1], [0, 1, 1]], np.float32)
    c = np.full((2, 3), 10, np.float32)
    (out,) = run(text, a, b, c)
    np.testing.assert_array_equal(out, [[11, 13, 14], [12, 14, 16]])


def test_opt_barrier_is_an_alias_in_the_runtime() -> None:
    text = (
        "HloModule b\n\nENTRY e {\n  x = f32[3] parameter(0)\n  t = (f32[3]) tuple(x)\n"
        "  b = (f32[3]) opt-barrier(t)\n  ROOT g = f32[3] get-tuple-element(b), index=0\n}\n"
    )
    runtime = ModuleRuntime(parse_hlo_module(text))
    x = np.array([1, 2, 3], np.float32)
    (out,) = runtime.run([x])
    assert out is x and not runtime.runs  # no kernel, no copy
