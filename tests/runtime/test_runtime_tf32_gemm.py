"""f32 gemm fusions on the Triton route: TF32 inputs, and what `--check` holds them to."""

from __future__ import annotations

import numpy as np
import pytest

from xla_emit.hlo import evaluate_module
from xla_emit.hlo.ir import HloModule
from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.interpreter.tile.dot import to_tf32
from xla_emit.runtime.dot_bounds import tf32_dot_bound, tf32_dot_depth
from xla_emit.runtime.expectations import OutputKind, output_expectations
from xla_emit.runtime.module_runtime import ModuleRuntime
from xla_emit.runtime.tf32_outputs import Tf32Move, compare_after_tf32, tf32_moves

# An f32 gemm fusion as XLA:GPU writes one for an H100 (K tiles of 32, output tiles
# [16, 8]); ROOT is the dot itself, or its transpose.
_GEMM = """HloModule m

%fused (p0: f32[32,96], p1: f32[96,24]) -> f32[SHAPE] {
  %p0 = f32[32,96]{1,0} parameter(0)
  %p1 = f32[96,24]{1,0} parameter(1)
  %d = f32[32,24]{1,0} dot(%p0, %p1), lhs_contracting_dims={1}, rhs_contracting_dims={0},
    backend_config={"sizes":["32"]}
  ROOT_LINE
}

ENTRY %main (a: f32[32,96], b: f32[96,24]) -> f32[SHAPE] {
  %a = f32[32,96]{1,0} parameter(0)
  %b = f32[96,24]{1,0} parameter(1)
  ROOT %f = f32[SHAPE]{1,0} fusion(%a, %b), kind=kCustom, calls=%fused,
    backend_config={"fusion_backend_config":{"kind":"KIND",
    "block_level_fusion_config":{"num_warps":"2","output_tiles":[{"sizes":["TILE"]}]}}}
}
"""


def _module(transposed: bool = False, kind: str = "__triton_nested_gemm_fusion") -> HloModule:
    if transposed:
        text = _GEMM.replace(
            "ROOT_LINE", "ROOT %t = f32[24,32]{1,0} transpose(%d), dimensions={1,0}"
        )
        text = text.replace("SHAPE", "24,32").replace("TILE", '8","16')
    else:
        text = _plain_root()
    return parse_hlo_module(text.replace("KIND", kind), "gemm.hlo")


def _plain_root() -> str:
    text = _GEMM.replace("  ROOT_LINE\n", "").replace("  %d = f32", "  ROOT %d = f32")
    return text.replace("SHAPE", "32,24").replace("TILE", '16","8')


def _inputs() -> list[np.ndarray]:
    rng = np.random.default_rng(11)
    return [rng.standard_normal((32, 96)).astype(np.float32) for _ in range(1)] + [
        rng.standard_normal((96, 24)).astype(np.float32)
    ]


def _exact(inputs: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    a, b = (x.astype(np.float64) for x in inputs)
    return a @ b, np.abs(a) @ np.abs(b)


@pytest.mark.parametrize("transposed", [False, True])
def test_an_f32_gemm_runs_as_a_tile_program_on_tf32_inputs(transposed: bool) -> None:
    module = _module(transposed)
    runtime = ModuleRuntime(module)
    (out,) = runtime.run(_inputs())
    assert [(r.name, r.lanes) for r in runtime.runs] == [("f", 2 * 3)]
    exact, _ = _exact(_inputs())
    tf32 = to_tf32(_inputs()[0]).astype(np.float64) @ to_tf32(_inputs()[1]).astype(np.float64)
    got = out.T if transposed else out
    # Far nearer the dot of the TF32-rounded inputs than the exact dot: the inputs were rounded.
    assert np.abs(got - tf32).max() < np.abs(got - exact).max() / 50


@pytest.mark.parametrize("transposed", [False, True])
def test_check_holds_the_output_to_the_tf32_dot_bound(transposed: bool) -> None:
    module = _module(transposed)
    inputs = _inputs()
    (expectation,) = output_expectations(module, inputs)
    assert expectation.kind is OutputKind.TF32_DOT
    (out,) = ModuleRuntime(module).run(inputs)
    exact, magnitudes = _exact(inputs)
    assert expectation.compare(
        exact.astype(np.float32).T if transposed else exact.astype(np.float32), out
    ).matches
    # The bound, worked by hand: (2 u_t + u_t^2) P for the inputs, plus the f32 sums of 32
    # products per K tile and 3 tiles (depth 35).
    bound = tf32_dot_bound(magnitudes, tf32_dot_depth(96, 32))
    assert tf32_dot_depth(96, 32) == 35
    u_t, u = 2.0**-11, 2.0**-24
    assert np.allclose(
        bound, (2 * u_t + u_t**2 + 35 * u * (1 + u) ** 34 * (1 + u_t) ** 2) * magnitudes
    )
    got = out.T if transposed else out
    distance = np.abs(got - exact)
    assert np.all(distance <= bound)
    assert distance.max() > bound.max() / 100  # TF32's rounding is what the bound covers


def test_an_output_off_by_more_than_the_bound_fails_the_check() -> None:
    module = _module()
    inputs = _inputs()
    (expectation,) = output_expectations(module, inputs)
    (out,) = ModuleRuntime(module).run(inputs)
    exact, magnitudes = _exact(inputs)
    bound = tf32_dot_bound(magnitudes, tf32_dot_depth(96, 32))
    wrong = out.copy()
    wrong[3, 5] = np.float32(exact[3, 5] + 2 * bound[3, 5])
    result = expectation.compare(exact.astype(np.float32), wrong)
    assert not result.matches
    assert result.first_difference == (3, 5)
    assert "TF32" in (result.verdict or "")


def _gemm_then_exp() -> HloModule:
    """The gemm fusion, then exp(0.1 x) of its output: an output a TF32 dot feeds."""
    text = _plain_root().replace("KIND", "__triton_nested_gemm_fusion")
    text = text.replace(
        "  ROOT %f = f32[32,24]{1,0} fusion(",
        "  %f = f32[32,24]{1,0} fusion(",
    ).replace(
        '"output_tiles":[{"sizes":["16","8"]}]}}}\n}',
        '"output_tiles":[{"sizes":["16","8"]}]}}}\n'
        "  %c = f32[] constant(0.1)\n"
        "  %s = f32[32,24]{1,0} broadcast(%c), dimensions={}\n"
        "  %m = f32[32,24]{1,0} multiply(%f, %s)\n"
        "  ROOT %e = f32[32,24]{1,0} exponential(%m)\n}",
    )
    return parse_hlo_module(text, "gemm_exp.hlo")


def _exp_of_dot(inputs: list[np.ndarray], tf32: bool) -> np.ndarray:
    """The oracle: numpy's float64 dot of (TF32-rounded) inputs, then XLA's f32 ops."""
    a, b = (to_tf32(x) if tf32 else x for x in inputs)
    dot = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)
    return np.exp(dot * np.float32(0.1))


def test_an_output_after_a_tf32_dot_is_held_to_twice_tf32_s_move() -> None:
    module, inputs = _gemm_then_exp(), _inputs()
    (expectation,) = output_expectations(module, inputs)
    assert expectation.kind is OutputKind.TF32_APPROXIMATE
    move = expectation.tf32_move
    assert move is not None
    plain, rounded = _exp_of_dot(inputs, False), _exp_of_dot(inputs, True)
    scale = float(np.abs(plain).max())
    measured = float(np.abs(rounded.astype(np.float64) - plain).max())
    assert abs(move.largest - measured) <= 1e-6 * scale  # exp's last bits may differ
    assert move.allowance() == 2 * move.largest
    assert "TF32's move" in expectation.rule(np.dtype(np.float32))

    (expected,) = evaluate_module(module, inputs)
    (out,) = ModuleRuntime(module).run(inputs)
    result = expectation.compare(expected, out)
    assert result.matches, result.describe()
    # Tight: our kernel moves the output as TF32 does, about half the allowance.
    allowed = 2 * move.largest + 1e-5 * scale
    used = float(np.abs(out.astype(np.float64) - expected).max()) / allowed
    assert 0.4 <= used <= 0.6
    assert f"uses {used:.2f} of it" in (result.verdict or "")


def test_an_output_after_a_tf32_dot_off_by_twice_its_allowance_fails() -> None:
    module, inputs = _gemm_then_exp(), _inputs()
    (expectation,) = output_expectations(module, inputs)
    assert expectation.tf32_move is not None
    (expected,) = evaluate_module(module, inputs)
    (out,) = ModuleRuntime(module).run(inputs)
    scale = float(np.abs(expected).max())
    allowed = expectation.tf32_move.allowance() + 1e-5 * scale
    wrong = out.copy()
    wrong[7, 2] = np.float32(float(expected[7, 2]) - 2 * allowed)
    result = expectation.compare(expected, wrong)
    assert not result.matches
    assert result.first_difference == (7, 2)
    assert "outside 2 x TF32's move" in (result.verdict or "")


def test_against_xla_cpu_the_same_moves_apply() -> None:
    # XLA:CPU multiplies in f32: its outputs are the plain run's, up to f32 rounding.
    module, inputs = _gemm_then_exp(), _inputs()
    (move,) = tf32_moves(module, inputs)
    assert move is not None
    xla_cpu = _exp_of_dot(inputs, False)
    (out,) = ModuleRuntime(module).run(inputs)
    assert compare_after_tf32(xla_cpu, out, move).matches
    assert not compare_after_tf32(xla_cpu, out, None).matches  # f32's tolerance alone
    assert not compare_after_tf32(xla_cpu, out, Tf32Move(move.largest / 4)).matches
