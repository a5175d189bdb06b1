"""Tile programs run from their plans and launch-invariant values: the plain path's bits and steps.

Every gemm fusion of the Triton corpus (and a few normalizations) is compiled twice and run
on random inputs: once as the runtime runs it (launched twice, so that the second launch
reuses the values kept from the first), once plainly (no value kept between launches, no
loop run side by side). The outputs must be the same bits and each launch must charge the
same steps. The values kept must also be the launch-invariant ones only: a launch on other
inputs gives what a fresh executor gives.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.hlo.fusion_configs import TRITON, fusion_backend_kind, triton_launch_config
from xla_emit.hlo.ir import HloInstruction
from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.interpreter.budget import run_limits
from xla_emit.interpreter.tile import executor as executor_module
from xla_emit.interpreter.tile import plan, xtile_ops
from xla_emit.interpreter.tile.executor import TileExecutor
from xla_emit.limits import RunLimits
from xla_emit.runtime.triton_kernels import compile_triton_fusion

_CORPUS = Path(__file__).parents[2] / "corpus" / "triton"
_NORMALIZATIONS = {
    "jax-0.12/softmax_bf16/triton_softmax.2",
    "jax-0.12/layernorm_backward_f32/fusion.18",
    "jax-0.12/top_p_sample/input_reduce_fusion",
}


@cache
def _fusions() -> dict[str, HloInstruction]:
    from xla_emit.emitters.triton.route import runs_as_triton

    found: dict[str, HloInstruction] = {}
    for hlo in sorted(_CORPUS.glob("jax-*/*/gpu.hlo")):
        module = parse_hlo_module(hlo.read_text(), str(hlo))
        for computation in module.computations:
            for instruction in computation.instructions:
                if instruction.opcode != "fusion" or not runs_as_triton(instruction):
                    continue
                name = f"{hlo.parent.parent.name}/{hlo.parent.name}/{instruction.name}"
                if fusion_backend_kind(instruction) != TRITON or name in _NORMALIZATIONS:
                    found[name] = instruction
    return found


def _names() -> list[str]:
    return sorted(_fusions()) if _CORPUS.exists() else []


def _inputs(fusion: HloInstruction, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    arrays = []
    for operand in fusion.operands:
        shape = operand.array_shape
        dtype = shape.element_type.dtype
        values = rng.standard_normal(tuple(shape.dimensions))
        if np.issubdtype(dtype, np.integer):
            values = rng.integers(0, 4, tuple(shape.dimensions))
        elif dtype == np.bool_:
            values = values > 0
        arrays.append(values.astype(ml_dtypes.bfloat16 if dtype == ml_dtypes.bfloat16 else dtype))
    return arrays


def _executor(fusion: HloInstruction) -> TileExecutor:
    return TileExecutor(
        compile_triton_fusion(fusion), num_warps=triton_launch_config(fusion).num_warps
    )


def _launch(executor: TileExecutor, inputs: list[np.ndarray]) -> tuple[list[bytes], int]:
    outputs = executor.run(inputs)
    return [o.tobytes() for o in outputs], executor.step_counter.spent


def _plainly(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing launch-invariant, no loop side by side: every op interpreted at every launch."""
    monkeypatch.setattr(plan, "launch_invariant", lambda _function: frozenset())
    monkeypatch.setattr(xtile_ops, "run_batched", lambda *_args: None)


@pytest.mark.skipif(not _names(), reason="the Triton corpus (tests/corpus/triton) is not here")
@pytest.mark.parametrize("name", _names())
def test_a_kernel_s_second_launch_gives_the_plain_run_s_bits_and_steps(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fusion = _fusions()[name]
    inputs, others = _inputs(fusion, 1), _inputs(fusion, 2)
    fast = _executor(fusion)
    first, again, other = _launch(fast, inputs), _launch(fast, inputs), _launch(fast, others)
    assert fast.kept_values(), "no value was kept between launches"
    with monkeypatch.context() as patch:
        _plainly(patch)
        slow = _executor(fusion)
        plain, plain_other = _launch(slow, inputs), _launch(slow, others)
        assert not slow.kept_values()
    assert first == plain and again == plain
    assert other == plain_other


def _one_gemm() -> HloInstruction:
    return _fusions()["jax-0.12/mlp_step_bf16/gemm_fusion_dot.1"]


@pytest.mark.skipif(not _names(), reason="the Triton corpus (tests/corpus/triton) is not here")
def test_the_step_budget_stops_a_later_launch_at_the_op_it_stops_the_first() -> None:
    fusion = _one_gemm()
    inputs = _inputs(fusion, 1)
    executor = _executor(fusion)
    executor.run(inputs)
    steps = executor.step_counter.spent
    # Every budget up to the whole run's steps stops both launches at the same op.
    for budget in range(1, steps, max(1, steps // 7)):
        messages = []
        for fresh in (True, False):
            with run_limits(RunLimits(max_steps=budget)), pytest.raises(UserError) as error:
                (_executor(fusion) if fresh else executor).run(inputs)
            messages.append(error.value.message)
        assert messages[0] == messages[1]


@pytest.mark.skipif(not _names(), reason="the Triton corpus (tests/corpus/triton) is not here")
def test_kept_values_count_against_the_memory_budget_as_the_plain_run_s_do() -> None:
    # The least budget a fresh executor's launch fits in (bisected): a later launch, with
    # values kept, fits in it too and one byte less stops both.
    fusion = _one_gemm()
    inputs = _inputs(fusion, 1)

    def fits(executor: TileExecutor, budget: int) -> bool:
        try:
            with run_limits(RunLimits(max_memory=budget)):
                executor.run(inputs)
        except UserError:
            return False
        return True

    low, high = 0, 1 << 24
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if fits(_executor(fusion), middle) else (middle, high)
    warm = _executor(fusion)
    warm.run(inputs)
    assert fits(warm, high)
    assert not fits(warm, high - 1)


@pytest.mark.skipif(not _names(), reason="the Triton corpus (tests/corpus/triton) is not here")
def test_past_the_bytes_an_executor_keeps_values_are_made_again_at_each_launch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fusion = _one_gemm()
    inputs = _inputs(fusion, 1)
    expected = _launch(_executor(fusion), inputs)
    generous = fast_kept_values(fusion, inputs)
    monkeypatch.setattr(executor_module, "_KEEP_BYTES", 0)
    frugal = _executor(fusion)
    assert _launch(frugal, inputs) == expected and _launch(frugal, inputs) == expected
    # Only values without storage of their own (index scalars) are kept.
    assert frugal.kept_bytes == 0
    assert frugal.kept_values() < generous


def fast_kept_values(fusion: HloInstruction, inputs: list[np.ndarray]) -> int:
    executor = _executor(fusion)
    executor.run(inputs)
    return executor.kept_values()
