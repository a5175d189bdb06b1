"""Every zoo model through the module runtime (default pipeline) against XLA:CPU's outputs.

Reductions with side outputs (the MLP steps' bias gradients, the CNN's batch norm)
run through the reduction emitters like any other reduction.

A model whose fusions need an emitter that does not exist yet must stop at a
located "Unsupported: ..." error naming the op (and is marked xfail with it);
anything else, including a traceback, fails.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.hlo import parse_hlo_module
from xla_emit.hlo.evaluator import evaluate_values
from xla_emit.hlo.npz import read_inputs
from xla_emit.hlo.shape import PrimitiveType, flatten_shape
from xla_emit.runtime import ModuleRuntime
from xla_emit.runtime.tf32_outputs import Tf32Move, compare_after_tf32, tf32_moves

ZOO_DIR = Path(__file__).resolve().parents[1] / "corpus" / "zoo"
# jax 0.10.2's modules at the top, other versions' in `jax-<version>/` (inputs shared).
ZOO = sorted(p.relative_to(ZOO_DIR).with_suffix("").as_posix() for p in ZOO_DIR.glob("**/*.hlo"))
# Relative to the largest output: f32 sums in another order than XLA's; the bf16 MLP's
# f32 loss also sees XLA:CPU keep some bf16 products unrounded.
TOLERANCE = {"mlp_step_bf16": 1e-3, "jax-0.12/mlp_step_bf16": 1e-3}
F32_RELATIVE = 2e-6
# XLA:CPU adds the bf16 MLP's 32 bias-gradient rows one after another; XLA:GPU's column
# reduction adds them in a shuffle tree (checked bit for bit below), so the updated bias
# may differ from XLA:CPU's by the last bit (relative to the largest output).
BF16_SUM_ORDER = {"mlp_step_bf16": 2.0**-7, "jax-0.12/mlp_step_bf16": 2.0**-7}
# An f32 output that TF32 dots move (`tf32_outputs`) uses at least this much of its
# allowance (twice the move, plus the f32 tolerance): measured 0.44 (the Cholesky solve)
# to 0.5.
TF32_USE = 1 / 3


@pytest.mark.parametrize("name", ZOO)
def test_module_runtime_matches_xla_on_the_zoo(name: str) -> None:
    path = ZOO_DIR / f"{name}.hlo"
    module = parse_hlo_module(path.read_text(), str(path))
    arguments = read_inputs(str(inputs_of(name)), module.entry)
    try:
        outputs = ModuleRuntime(module).run(arguments)
    except UserError as error:
        first = str(error).splitlines()[0]
        assert first.startswith(f"{path}:") and "error: Unsupported: " in first, first
        pytest.xfail(first)
    assert_matches_xla(name, outputs, tf32_moves(module, arguments))


def inputs_of(name: str) -> Path:
    """A model's inputs: its own file, else the jax 0.10.2 model's (made from the same seed)."""
    own = ZOO_DIR / f"{name}.inputs.npz"
    return own if own.exists() else ZOO_DIR / f"{Path(name).name}.inputs.npz"


def test_every_model_class_is_compiled_by_both_jax_versions() -> None:
    classes = {
        "resnet_step",
        "cholesky_solve",
        "fft_filter",
        "lstm",
        "max_pool_grad",
        "dropout",
        "mixture_of_experts",
    }
    assert classes <= set(ZOO)
    assert {f"jax-0.12/{name}" for name in classes} <= set(ZOO)
    lstm = (ZOO_DIR / "jax-0.12" / "lstm.hlo").read_text()
    assert "fusion-start(" in lstm and "fusion-done(" in lstm  # async pairs in the scan
    for dropout in ("dropout", "jax-0.12/dropout"):  # threefry's 20 rounds, each an xor
        assert (ZOO_DIR / f"{dropout}.hlo").read_text().count(" xor(") >= 20


def assert_matches_xla(
    name: str, outputs: list[np.ndarray], moves: list[Tf32Move | None] | None = None
) -> None:
    """bf16 and integers bit for bit (but for the reordered bf16 sums above), f32 within
    `F32_RELATIVE` (or the model's `TOLERANCE`) of the largest output, plus twice TF32's
    move per element where `moves` has one (an f32 gemm fusion multiplies TF32 values as
    XLA:GPU does, XLA:CPU in f32), of which such outputs use at least `TF32_USE`."""
    with np.load(ZOO_DIR / f"{name}.outputs.npz") as expected:
        assert len(expected.files) == len(outputs)
        for number, ours in enumerate(outputs):
            xla = expected[f"out{number}"]
            if name in BF16_SUM_ORDER and ours.dtype == ml_dtypes.bfloat16:
                values = xla.view(ml_dtypes.bfloat16).astype(np.float64)
                bound = BF16_SUM_ORDER[name] * float(np.abs(values).max())
                assert float(np.abs(ours.astype(np.float64) - values).max()) <= bound, number
                continue
            if ours.dtype == ml_dtypes.bfloat16 or ours.dtype.kind != "f":
                stored = ours.view(np.uint16) if ours.dtype == ml_dtypes.bfloat16 else ours
                np.testing.assert_array_equal(stored, xla, err_msg=f"{name} out{number}")
                continue
            relative = TOLERANCE.get(name, F32_RELATIVE)
            scale = relative * max(float(np.abs(xla).max()), 1.0)
            errors = np.abs(ours.astype(np.float64) - xla)
            move = moves[number] if moves is not None else None
            if move is not None and move.largest > 0:
                used = float((errors / (scale + move.allowance())).max())
                assert TF32_USE <= used <= 1, f"{name} out{number}: {used:.3g} of the allowance"
                assert_tf32_rule_holds(xla, ours, move)
                continue
            assert float(errors.max()) <= scale, number


def assert_tf32_rule_holds(xla: np.ndarray, ours: np.ndarray, move: Tf32Move) -> None:
    """What `xla-emit-run BUNDLE` demands against XLA:CPU's outputs: ours pass; one element
    off by twice the allowance (twice TF32's move plus f32's 1e-5 of the scale) fails."""
    assert compare_after_tf32(xla, ours, move).matches
    wrong = ours.copy().reshape(-1)
    allowed = move.allowance() + 1e-5 * float(np.abs(xla).max())
    wrong[-1] = np.float32(float(xla.reshape(-1)[-1]) + 2 * allowed)
    assert not compare_after_tf32(xla, wrong.reshape(ours.shape), move).matches


def butterfly_sum_bf16(rows: np.ndarray) -> np.ndarray:
    """Rows added as a warp shuffle adds them (lane i with lane i + 16, then + 8, ...),
    rounding to bf16 after every add."""
    values = rows.astype(ml_dtypes.bfloat16)
    while values.shape[0] > 1:
        half = values.shape[0] // 2
        values = (values[:half] + values[half:]).astype(ml_dtypes.bfloat16)
    return values[0]


def test_bf16_bias_update_sums_in_the_column_reduction_order() -> None:
    """The bf16 MLP's 32-row bias gradient (a column reduction with a side output): one row
    per thread of a column, then one warp shuffle, as XLA:GPU's column reduction orders it."""
    path = ZOO_DIR / "mlp_step_bf16.hlo"
    module = parse_hlo_module(path.read_text(), str(path))
    arguments = read_inputs(str(ZOO_DIR / "mlp_step_bf16.inputs.npz"), module.entry)
    values = evaluate_values(module.entry, arguments)
    by_name = {instruction.name: instruction for instruction in module.entry.instructions}
    relu_gradient = np.asarray(values[by_name["input_reduce_select_fusion"]][1])
    assert relu_gradient.shape == (32, 128)
    bf16 = ml_dtypes.bfloat16
    step = (butterfly_sum_bf16(relu_gradient) * bf16(0.1001)).astype(bf16)
    expected = (np.asarray(arguments[1]).astype(bf16) - step).astype(bf16)
    ours = ModuleRuntime(module).run(arguments)[2]
    np.testing.assert_array_equal(ours.view(np.uint16), expected.view(np.uint16))


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "xla_emit.tools.run", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)


@pytest.mark.parametrize("name", ZOO)
def test_xla_emit_run_checks_every_zoo_model(tmp_path: Path, name: str) -> None:
    """`xla-emit-run --check`: every stage of every kernel against the evaluator, exit 0,
    and the written outputs are XLA's."""
    out = tmp_path / "out.npz"
    path = ZOO_DIR / f"{name}.hlo"
    inputs = inputs_of(name)
    result = run_cli(str(path), "--check", "--inputs", str(inputs), "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert "DIFFERS" not in result.stdout + result.stderr
    module = parse_hlo_module(path.read_text(), str(path))
    leaves = flatten_shape(module.entry.root.shape)
    with np.load(out) as written:
        outputs = [
            written[f"out{n}"].view(ml_dtypes.bfloat16)
            if leaf.element_type == PrimitiveType.BF16
            else written[f"out{n}"]
            for n, leaf in enumerate(leaves)
        ]
    arguments = read_inputs(str(inputs), module.entry)
    assert_matches_xla(name, outputs, tf32_moves(module, arguments))


def test_xla_emit_run_reference_on_the_transformer(tmp_path: Path) -> None:
    out = tmp_path / "out.npz"
    inputs = ZOO_DIR / "transformer_block.inputs.npz"
    hlo = str(ZOO_DIR / "transformer_block.hlo")
    result = run_cli(hlo, "--reference", "--inputs", str(inputs), "-o", str(out))
    assert result.returncode == 0, result.stderr
    with np.load(out) as ours, np.load(ZOO_DIR / "transformer_block.outputs.npz") as xla:
        for key in xla.files:
            bound = F32_RELATIVE * max(float(np.abs(xla[key]).max()), 1.0)
            np.testing.assert_allclose(ours[key], xla[key], rtol=0, atol=bound, err_msg=key)


POOL_GRADIENT = """\
HloModule g

ge {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=GE
}

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY e {
  x = f32[4] parameter(0)
  s = f32[2] parameter(1)
  z = f32[] constant(0)
  ROOT r = f32[4] select-and-scatter(x, s, z), window={size=2 stride=2}, select=ge, scatter=add
}
"""


def test_an_op_without_an_emitter_is_named_with_its_location(tmp_path: Path) -> None:
    path = tmp_path / "pool_gradient.hlo"
    path.write_text(POOL_GRADIENT)
    result = run_cli(str(path), "--random-inputs", "1")
    assert result.returncode == 1
    first = result.stderr.splitlines()[0]
    assert first == (
        f"{path}:19:8: error: Unsupported: select-and-scatter 'r' (no emitter computes its "
        "indexing)"
    )
    assert "Traceback" not in result.stderr
