"""A gemm's loop over K tiles run side by side: the bits and steps of the plain loop.

Every kernel here runs twice, once as it runs in the runtime and once with the batched
path turned off (each iteration interpreted in turn); outputs and step counts must be the
same, and the batched path must have been taken. The plain path is checked against a
brute-force oracle: each output element summed in f32 scalars, K tile by K tile.
"""

from __future__ import annotations

import lzma
from pathlib import Path

import ml_dtypes
import numpy as np
import numpy.typing as npt
import pytest
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp
from xla_emit.dialects import triton

from xla_emit.diagnostics import UserError
from xla_emit.emitters.triton.emitter import emit_triton_fusion
from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.interpreter.budget import run_limits
from xla_emit.interpreter.tile import batched_loop, xtile_ops
from xla_emit.interpreter.tile.dot import to_tf32
from xla_emit.interpreter.tile.executor import TileExecutor
from xla_emit.ir.parse import parse_mlir
from xla_emit.limits import RunLimits
from xla_emit.runtime.triton_kernels import compile_triton_fusion

# A bf16 gemm fusion as XLA writes one (K tiles of 16, output tiles [16, 8]); K = 40 is 2.5
# tiles, so the last tile is partial. LHS_DIMS picks a plain or a transposed lhs.
_GEMM = """HloModule m

%fused (p0: bf16[LHS], p1: bf16[40,24]) -> bf16[32,24] {
  %p0 = bf16[LHS]{1,0} parameter(0)
  %p1 = bf16[40,24]{1,0} parameter(1)
  ROOT %d = bf16[32,24]{1,0} dot(%p0, %p1), lhs_contracting_dims={K},
    rhs_contracting_dims={0}, backend_config={"sizes":["16"]}
}

ENTRY %main (a: bf16[LHS], b: bf16[40,24]) -> bf16[32,24] {
  %a = bf16[LHS]{1,0} parameter(0)
  %b = bf16[40,24]{1,0} parameter(1)
  ROOT %f = bf16[32,24]{1,0} fusion(%a, %b), kind=kCustom, calls=%fused,
    backend_config={"fusion_backend_config":{"kind":"__triton_nested_gemm_fusion",
    "block_level_fusion_config":{"num_warps":"2","output_tiles":[{"sizes":["16","8"]}]}}}
}
"""

_CORPUS = Path(__file__).parents[2] / "corpus" / "triton"
_XLA_GEMM_TTIR = (
    _CORPUS / "jax-0.12" / "attention_bf16" / "triton" / "gemm_fusion_dot_general.2.ttir.txt.xz"
)


def _gemm(transposed: bool) -> str:
    lhs, k = ("40,32", "0") if transposed else ("32,40", "1")
    return _GEMM.replace("LHS", lhs).replace(
        "lhs_contracting_dims={K}", f"lhs_contracting_dims={{{k}}}"
    )


def _inputs(shapes: list[tuple[int, ...]], seed: int = 3) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(shape).astype(ml_dtypes.bfloat16) for shape in shapes]


def _never(*_args: object) -> None:
    """Stands in for the batched path: every loop runs plainly."""


def _plain(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(xtile_ops, "run_batched", _never)


def _run_both(
    module: ModuleOp, inputs: list[np.ndarray], monkeypatch: pytest.MonkeyPatch
) -> tuple[list[np.ndarray], list[np.ndarray], int, int]:
    (loop,) = [op for op in module.walk() if isinstance(op, scf.ForOp)]
    assert batched_loop.loop_plan(loop) is not None, "the batched path would not be taken"
    fast = TileExecutor(module, num_warps=2)
    fast_out = fast.run(inputs)
    with monkeypatch.context() as patch:
        _plain(patch)
        slow = TileExecutor(module, num_warps=2)
        slow_out = slow.run(inputs)
    return fast_out, slow_out, fast.step_counter.spent, slow.step_counter.spent


def _same(fast: list[np.ndarray], slow: list[np.ndarray], fast_steps: int, slow_steps: int) -> None:
    assert [a.tobytes() for a in fast] == [b.tobytes() for b in slow]
    assert fast_steps == slow_steps


def _oracle(
    a: np.ndarray, b: np.ndarray, k_tile: int, out: npt.DTypeLike = ml_dtypes.bfloat16
) -> np.ndarray:
    """a [M, K] @ b [K, N] as the kernel sums it: per K tile, f32 products added one by one
    from zero, each tile's sum then added to the f32 accumulator; rounded to `out` once."""
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    rows, depth = a32.shape
    result = np.zeros((rows, b32.shape[1]), np.float32)
    for i in range(rows):
        for j in range(b32.shape[1]):
            accumulator = np.float32(0)
            for start in range(0, depth, k_tile):
                tile_sum = np.float32(0)
                for k in range(start, min(start + k_tile, depth)):
                    tile_sum = np.float32(tile_sum + a32[i, k] * b32[k, j])
                accumulator = np.float32(accumulator + tile_sum)
            result[i, j] = accumulator
    return result.astype(out)


@pytest.mark.parametrize("transposed", [False, True])
def test_the_emitted_loop_gives_the_plain_loop_s_bits_and_steps(
    transposed: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    fusion = parse_hlo_module(_gemm(transposed), "m.hlo").entry.root
    shapes = [(40, 32) if transposed else (32, 40), (40, 24)]
    inputs = _inputs(shapes)
    fast, slow, fast_steps, slow_steps = _run_both(emit_triton_fusion(fusion), inputs, monkeypatch)
    _same(fast, slow, fast_steps, slow_steps)
    lhs = inputs[0].T if transposed else inputs[0]
    assert slow[0].tobytes() == _oracle(lhs, inputs[1], 16).tobytes()


def test_an_f32_gemm_sums_tf32_products_as_the_oracle_does() -> None:
    # The same fusion in f32: inputs rounded to TF32, then the kernel's f32 sums.
    fusion = parse_hlo_module(_gemm(False).replace("bf16", "f32"), "m.hlo").entry.root
    rng = np.random.default_rng(4)
    inputs = [rng.standard_normal(s).astype(np.float32) for s in ((32, 40), (40, 24))]
    (out,) = TileExecutor(compile_triton_fusion(fusion), num_warps=2).run(inputs)
    expected = _oracle(to_tf32(inputs[0]), to_tf32(inputs[1]), 16, np.float32)
    assert out.tobytes() == expected.tobytes()


def test_the_lowered_loop_splits_tt_dot_into_its_sum_and_its_addition(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fusion = parse_hlo_module(_gemm(False), "m.hlo").entry.root
    module = compile_triton_fusion(fusion)
    (loop,) = [op for op in module.walk() if isinstance(op, scf.ForOp)]
    plan = batched_loop.loop_plan(loop)
    assert plan is not None and len(plan.split_dots) == 1
    assert isinstance(plan.split_dots[0], triton.DotOp)
    # Only the additions into the accumulator run in order.
    assert plan.accumulating_dot is plan.split_dots[0]
    _same(*_run_both(module, _inputs([(32, 40), (40, 24)]), monkeypatch))


@pytest.mark.skipif(not _XLA_GEMM_TTIR.exists(), reason="the Triton corpus is not here")
def test_xla_s_own_ttir_gives_the_plain_loop_s_bits_and_steps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    module = parse_mlir(lzma.decompress(_XLA_GEMM_TTIR.read_bytes()).decode(), "ttir")[0]
    (loop,) = [op for op in module.walk() if isinstance(op, scf.ForOp)]
    plan = batched_loop.loop_plan(loop)
    # Its accumulator goes through tt.reshape to the dot and back.
    assert plan is not None and plan.accumulating_dot is not None
    inputs = _inputs([(4, 128, 64), (4, 128, 64)])
    _same(*_run_both(module, inputs, monkeypatch))


def test_a_step_budget_inside_the_loop_stops_it_as_the_plain_loop_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fusion = parse_hlo_module(_gemm(False), "m.hlo").entry.root
    module = emit_triton_fusion(fusion)
    inputs = _inputs([(32, 40), (40, 24)])
    messages = []
    for plain in (False, True):
        with monkeypatch.context() as patch:
            if plain:
                _plain(patch)
            with run_limits(RunLimits(max_steps=14)), pytest.raises(UserError) as error:
                TileExecutor(module, num_warps=2).run(inputs)
        messages.append(error.value.message)
    assert messages[0] == messages[1]
    assert "step budget of 14" in messages[0]


def test_an_extract_outside_the_buffer_in_a_batched_loop_names_the_pid(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fusion = parse_hlo_module(_gemm(False), "m.hlo").entry.root
    module = emit_triton_fusion(fusion)
    inputs = _inputs([(32, 40), (40, 24)])
    # One program more than the 2 x 3 output tiles: pid 6's lhs tile starts at row 32.
    messages = []
    for plain in (False, True):
        with monkeypatch.context() as patch:
            if plain:
                _plain(patch)
            with pytest.raises(UserError) as error:
                TileExecutor(module, num_warps=2, programs=7).run(inputs)
        messages.append(error.value.message)
    assert messages[0] == messages[1]
    assert "pid 6: the tile at offsets [32, 0] starts outside" in messages[0]


def _plain_run_fits(module: ModuleOp, inputs: list[np.ndarray], budget: int) -> bool:
    try:
        with run_limits(RunLimits(max_memory=budget)):
            TileExecutor(module, num_warps=2).run(inputs)
    except UserError:
        return False
    return True


def test_a_memory_budget_the_plain_loop_fits_in_never_stops_the_batched_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fusion = parse_hlo_module(_gemm(False), "m.hlo").entry.root
    module = compile_triton_fusion(fusion)
    inputs = _inputs([(32, 40), (40, 24)])
    # The least budget the plain loop runs in (bisected), then the batched path under it.
    with monkeypatch.context() as patch:
        _plain(patch)
        low, high = 0, 1 << 20
        while high - low > 1:
            middle = (low + high) // 2
            low, high = (low, middle) if _plain_run_fits(module, inputs, middle) else (middle, high)
        (expected,) = TileExecutor(module, num_warps=2).run(inputs)
    with run_limits(RunLimits(max_memory=high)):
        (out,) = TileExecutor(module, num_warps=2).run(inputs)
    assert out.tobytes() == expected.tobytes()
