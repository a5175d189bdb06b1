"""The runtime picks a kernel's backend from `--backend` or the module's attributes and types."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.ir import parse_mlir
from xla_emit.runtime.backends import BACKENDS, GPU, PTO, TPU, backend_of
from xla_emit.runtime.commands import InterpreterOptions, run_kernel_file
from xla_emit.runtime.pto_kernels import parse_pto_program
from xla_emit.tools.run import main

ROOT = Path(__file__).resolve().parents[2]


def _backend(path: str, requested: str | None = None) -> str:
    module, _ = parse_pto_program(str(ROOT / path))
    return backend_of(module, requested).name


@pytest.mark.parametrize(
    ("path", "backend"),
    [
        ("examples/gelu/01_emitted.mlir", "gpu"),
        ("examples/gelu/06_unrolled.mlir", "gpu"),
        ("examples/tpu/misaligned.mlir", "tpu"),
        ("examples/pto/softmax_columns.mlir", "pto"),
        ("examples/pto/ttrans_manual.pto", "pto"),
    ],
)
def test_examples_name_their_backend(path: str, backend: str) -> None:
    assert _backend(path) == backend


def test_an_explicit_request_wins() -> None:
    assert _backend("examples/gelu/01_emitted.mlir", "tpu") == "tpu"


def test_module_attribute_names_the_backend() -> None:
    text = (
        'module attributes {xla_emit.backend = "pto"} {\n  func.func @f() {\n    return\n  }\n}\n'
    )
    module, _ = parse_mlir(text, "<test>")
    assert backend_of(module) is PTO


def test_pto_types_and_tpu_attributes_without_module_attributes() -> None:
    pto_module, _ = parse_mlir("func.func @g(%p: !pto.ptr<f32>) {\n  return\n}\n", "<test>")
    assert backend_of(pto_module) is PTO
    tpu_module, _ = parse_mlir(
        "func.func @k(%i: i32) attributes {dimension_semantics = []} {\n  return\n}\n", "<test>"
    )
    assert backend_of(tpu_module) is TPU
    gpu_module, _ = parse_mlir(
        "func.func @k(%t: tensor<4xf32>) -> tensor<4xf32> {\n  return %t : tensor<4xf32>\n}\n",
        "<test>",
    )
    assert backend_of(gpu_module) is GPU


def test_unknown_backend_attribute_is_a_user_error() -> None:
    text = 'module attributes {xla_emit.backend = "npu"} {\n}\n'
    module, _ = parse_mlir(text, "<test>")
    with pytest.raises(UserError, match="unknown backend 'npu'"):
        backend_of(module)


def test_every_backend_declares_its_seams() -> None:
    assert set(BACKENDS) == {"gpu", "tpu", "pto"}
    assert GPU.default_pipeline == "xla-gpu-pipeline"
    for backend in BACKENDS.values():
        assert backend.dialects and backend.input_convention


def test_pto_as_runs_through_the_kernel_runner() -> None:
    outputs = run_kernel_file(
        str(ROOT / "examples/pto/ttrans_manual.pto"), None, 3, InterpreterOptions()
    )
    source, transposed = outputs[-2:]
    np.testing.assert_array_equal(transposed, source.T)


def test_hlo_modules_refuse_another_backend(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main([str(ROOT / "examples/gelu.hlo"), "--backend", "pto"])
    assert status == 1
    assert "HLO modules compile for the gpu backend, not 'pto'" in capsys.readouterr().err


def test_backend_flag_runs_a_kernel_on_the_named_executor(tmp_path: Path) -> None:
    x = np.random.default_rng(4).standard_normal((8, 1024)).astype(np.float32)
    inputs, outputs = tmp_path / "in.npz", tmp_path / "out.npz"
    np.savez(inputs, arg0=x, arg1=np.zeros((8, 32), np.float32), arg2=np.array(128))
    kernel = str(ROOT / "examples/tpu/misaligned.mlir")
    assert main([kernel, "--backend", "tpu", "--inputs", str(inputs), "-o", str(outputs)]) == 0
    with np.load(outputs) as data:
        np.testing.assert_array_equal(data["out1"], x[:, 128:160])
