"""Whole corpus modules on the native engine against the interpreter and XLA's outputs.

The native engine keeps each thread's order of operations, so its outputs are the
interpreter's bit for bit, except where a kernel calls a transcendental function
(exp, tanh, log, ...): the host computes exp and tanh inline and takes the C library's
log, ..., the interpreter numpy's, and they may differ in the last bit or two; those
outputs are held to the project's ulp rule instead. Skipped where llvmlite is missing.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from xla_emit.hlo.npz import read_inputs
from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.runtime import KernelCache, ModuleRuntime
from xla_emit.runtime.compare import compare

pytest.importorskip("llvmlite.binding", reason="the native engine needs llvmlite ([llvm] extra)")

from xla_emit.runtime.native_kernels import NativeKernelCache

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "gpu"
# Reductions (row, column, multi-row, variadic) and tiled transposes: barriers, shuffles
# and shared memory, all without transcendental functions.
EXACT = ["row_sum", "transpose_2d", "gelu_bf16", "dynamic_update_slice"]
EXACT_SLOW = ["argmax_rows", "column_max", "multi_dim_sum"]
WITH_LIBM = ["softmax", "layernorm", "transpose_3d", "gelu_f32"]


def run_both(name: str) -> tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray]]:
    path = CORPUS / name / "gpu.hlo"
    module = parse_hlo_module(path.read_text(), str(path))
    inputs = read_inputs(str(path.parent / "inputs.npz"), module.entry)
    native = ModuleRuntime(module, native=NativeKernelCache(disk=False)).run(inputs)
    interpreted = ModuleRuntime(module, KernelCache()).run(inputs)
    with np.load(path.parent / "outputs.npz") as archive:
        xla = [archive[f"out{i}"] for i in range(len(native))]
    return native, interpreted, xla


def assert_bit_for_bit(name: str) -> None:
    native, interpreted, xla = run_both(name)
    for got, want, recorded in zip(native, interpreted, xla, strict=True):
        assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
        comparison = compare(recorded.view(got.dtype).reshape(got.shape), got)
        assert comparison.matches, comparison.describe()


@pytest.mark.parametrize("name", EXACT)
def test_native_matches_the_interpreter_bit_for_bit(name: str) -> None:
    assert_bit_for_bit(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", EXACT_SLOW)
def test_more_reductions_match_bit_for_bit(name: str) -> None:
    assert_bit_for_bit(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", WITH_LIBM)
def test_kernels_calling_the_c_library_match_within_ulps(name: str) -> None:
    native, interpreted, xla = run_both(name)
    for got, want, recorded in zip(native, interpreted, xla, strict=True):
        assert compare(want, got).matches, compare(want, got).describe()
        assert compare(recorded.reshape(got.shape), got).matches


ZOO = CORPUS.parent / "zoo"
# Zoo models on the native engine; scatter_add and max_pool_grad update their outputs
# with atomics, fft_filter's fusion computes in complex numbers.
ZOO_MODELS = [
    "transformer_block", "mlp_step_bf16", "argsort_topk", "scan_rnn", "cholesky_solve",
    "scatter_add", "max_pool_grad", "fft_filter",
]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("name", ZOO_MODELS)
def test_zoo_models_run_natively_with_the_interpreters_results(name: str) -> None:
    path = ZOO / f"{name}.hlo"
    module = parse_hlo_module(path.read_text(), str(path))
    inputs = read_inputs(str(path.with_suffix(".inputs.npz")), module.entry)
    native = ModuleRuntime(module, native=NativeKernelCache(disk=False)).run(inputs)
    interpreted = ModuleRuntime(module, KernelCache()).run(inputs)
    for got, want in zip(native, interpreted, strict=True):
        exact = want.dtype.kind in "biu" or want.dtype.itemsize == 2
        comparison = compare(want, got)
        assert comparison.identical if exact else comparison.matches, comparison.describe()


def test_disk_cache_serves_a_second_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("XLA_EMIT_CACHE", str(tmp_path))
    path = CORPUS / "transpose_2d" / "gpu.hlo"
    module = parse_hlo_module(path.read_text(), str(path))
    inputs = read_inputs(str(path.parent / "inputs.npz"), module.entry)
    first = ModuleRuntime(module, native=NativeKernelCache()).run(inputs)
    assert len(list(tmp_path.glob("*.json"))) == 1
    # A fresh cache (as in a new process) reads the IR back instead of running the passes.
    import xla_emit.runtime.native_kernels as native_kernels

    def no_passes(*_args: object) -> None:
        raise AssertionError("compiled again despite the disk cache")

    monkeypatch.setattr(native_kernels, "compile_fusion", no_passes)
    second = ModuleRuntime(module, native=NativeKernelCache()).run(inputs)
    assert [a.tobytes() for a in first] == [b.tobytes() for b in second]


def test_run_engine_native_check_names_the_engine(tmp_path: Path) -> None:
    path = CORPUS / "row_sum" / "gpu.hlo"
    result = subprocess.run(
        [sys.executable, "-m", "xla_emit.tools.run", str(path), "--engine", "native",
         "--inputs", str(path.parent / "inputs.npz"), "--check", "-o", str(tmp_path / "o.npz")],
        capture_output=True, text=True, env={"XLA_EMIT_CACHE": str(tmp_path), "PATH": ""},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "engine: native" in result.stderr
    assert "output(s) match the reference evaluator" in result.stderr


def test_a_bad_header_is_a_one_line_error() -> None:
    from xla_emit.diagnostics import UserError
    from xla_emit.runtime.native import compile_llvm_ir

    with pytest.raises(UserError, match="no header line"):
        compile_llvm_ir("define void @f() {\n  ret void\n}\n")


@pytest.mark.parametrize(
    "arguments",
    [["--reference"], ["--fusion", "fusion"]],
    ids=["reference", "kernel-file"],
)
def test_engine_native_refuses_what_it_does_not_run(arguments: list[str], tmp_path: Path) -> None:
    kernel = tmp_path / "k.mlir"
    kernel.write_text("func.func @f() {\n  func.return\n}\n")
    target = str(CORPUS / "row_sum" / "gpu.hlo") if arguments[0] == "--reference" else str(kernel)
    extra = arguments if arguments[0] == "--reference" else []
    result = subprocess.run(
        [sys.executable, "-m", "xla_emit.tools.run", target, "--engine", "native", *extra],
        capture_output=True, text=True,
    )  # fmt: skip
    assert result.returncode == 1
    assert result.stderr.strip() == (
        "error: --engine native runs the kernels of an HLO module (not --reference)"
    )
