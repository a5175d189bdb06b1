"""Whole programs of the Triton corpus through the module runtime, against XLA's outputs.

Each `tests/corpus/triton/<jax>/<program>/gpu.hlo` is XLA:GPU's optimized module (its
`__triton` and gemm fusions on the Triton route here), run on the corpus inputs and
compared with XLA:CPU's outputs. Tolerance, per output: integers bit for bit; floats
within 8 machine epsilons of the output's largest magnitude, or twice as far from XLA:CPU
as the numpy evaluator is, whichever is larger. XLA:CPU compiles the same function into
its own graph and sums rows and dot products in its own order, our tile kernels sum in
Triton's, and f32 exp/rsqrt differ by ulps: the measured distances are at most 1.4e-2 of
the scale for bf16 (eps 7.8e-3) and 8.1e-7 for f32 (eps 1.2e-7, the kv-cache step's
attention sums), and within 2.2x the evaluator's own. The bf16 MLP step's f32 loss is
3.9e-4 of its scale from XLA:CPU's, as far as the evaluator's: XLA:CPU computes its bf16
elementwise ops in f32, XLA:GPU's fusions (and ours) in bf16. The kv-cache step's f32 gemm
fusions multiply TF32 values, as XLA:GPU does by default on an H100 (XLA:CPU in f32): each
element may be off by twice TF32's move on it besides (`tf32_outputs.tf32_moves`: the
evaluator run with the TF32 dots' operands rounded, against the evaluator as is), and
the outputs TF32 moves use at least a third of that (measured: 0.49 to 0.5).
"""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from xla_emit.hlo import evaluate_module, parse_hlo_module
from xla_emit.hlo.npz import read_inputs
from xla_emit.runtime.module_runtime import ModuleRuntime
from xla_emit.runtime.tf32_outputs import tf32_moves

_CORPUS = Path(__file__).parents[1] / "corpus" / "triton"
_PROGRAMS = sorted(p.parent for p in _CORPUS.glob("jax-*/*/gpu.hlo"))
_EPSILONS = 8
# How much of the TF32 allowance an output TF32 moves must use at least: the allowance is
# twice the move, and our kernels move each output as the evaluator's TF32 run does.
_TF32_USE = 1 / 3


def _run_and_compare(folder: Path) -> ModuleRuntime:
    module = parse_hlo_module((folder / "gpu.hlo").read_text(), str(folder / "gpu.hlo"))
    runtime = ModuleRuntime(module)
    arguments = read_inputs(str(folder / "inputs.npz"), module.entry)
    outputs = runtime.run(arguments)
    references = evaluate_module(module, arguments)
    moves = tf32_moves(module, arguments, references)
    with np.load(folder / "outputs.npz") as xla:
        assert len(outputs) == len(xla.files)
        for number, (ours, reference, move) in enumerate(
            zip(outputs, references, moves, strict=True)
        ):
            expected = xla[f"out{number}"]
            what = f"{folder.parent.name}/{folder.name} out{number}"
            if ours.dtype == ml_dtypes.bfloat16:
                expected = expected.view(ml_dtypes.bfloat16)
            if ours.dtype.kind in "biu":
                np.testing.assert_array_equal(ours, expected, err_msg=what)
                continue
            xla64 = expected.astype(np.float64)
            scale = float(np.abs(xla64).max(initial=0.0))
            eps = float(ml_dtypes.finfo(ours.dtype).eps)
            errors = np.abs(ours.astype(np.float64) - xla64)
            evaluator = np.abs(np.asarray(reference).astype(np.float64) - xla64).max(initial=0)
            bound = max(_EPSILONS * eps * scale, 2 * evaluator)
            if move is not None and move.largest > 0:
                allowed = bound + move.allowance()
                used = float((errors / allowed).max())
                assert used <= 1, f"{what}: {used:.3g} of the TF32 allowance"
                assert used >= _TF32_USE, f"{what}: only {used:.3g} of the TF32 allowance"
                continue
            error = errors.max(initial=0)
            assert error <= bound, f"{what}: {error:.3g} of scale {scale:.3g}"
    return runtime


@pytest.mark.skipif(not _PROGRAMS, reason="the Triton corpus (tests/corpus/triton) is not here")
def test_layernorm_backward_runs_whole_on_the_triton_route() -> None:
    folder = _CORPUS / "jax-0.12" / "layernorm_backward_f32"
    runtime = _run_and_compare(folder)
    # Its two __triton fusions ran as tile programs (launch sizes from XLA's output tiles).
    assert sorted(r.lanes for r in runtime.runs if r.name.startswith("fusion.")) == [32, 128]


@pytest.mark.skipif(not _PROGRAMS, reason="the Triton corpus (tests/corpus/triton) is not here")
@pytest.mark.parametrize("jax", ["jax-0.10.2", "jax-0.12"])
def test_a_split_k_gemm_runs_its_k_slices_as_tile_programs_then_xla_s_reduce(jax: str) -> None:
    # XLA splits the long K of bf16[16,8192] x bf16[8192,16] into 64 slices of 128: the
    # gemm fusion is a dot batched over the slices (f32[64,16,16], one program per slice
    # and [16, 8] output tile), a reduce fusion adds the partial products and rounds.
    runtime = _run_and_compare(_CORPUS / jax / "split_k_bf16")
    lanes = {r.name: r.lanes for r in runtime.runs}
    assert lanes["gemm_fusion_dot"] == 64 * 2
    assert "input_reduce_fusion" in lanes


@pytest.mark.slow
@pytest.mark.parametrize("folder", _PROGRAMS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_program_matches_xla(folder: Path) -> None:
    _run_and_compare(folder)
