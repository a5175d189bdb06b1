"""Every tool reads a bundle: xla-emit-run, xla-emit-opt and xla-emit-dump on recorded ones.

Oracles: XLA:CPU's outputs in the bundle, the kernels a run really launches (the
module runtime's own record), XLA's thunk sequence and pass logs.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from xla_emit.emitters.partitioner import sanitize_function_name
from xla_emit.hlo.npz import load_arrays, read_inputs, write_npz
from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.jax.bundle import OUTPUTS, SOURCE_HLO, open_bundle
from xla_emit.jax.routes import NATIVE, TRITON, xla_kernels
from xla_emit.runtime.module_runtime import ModuleRuntime
from xla_emit.tools import dump, opt, run

BUNDLES = Path(__file__).resolve().parents[1] / "corpus" / "bundles"
MLPS = sorted(BUNDLES.glob("jax-*/mlp"))
MLP = MLPS[0]


def native_kernel_bundle() -> tuple[Path, str]:
    """A recorded bundle and one of its kernels that XLA emitted natively."""
    for folder in sorted(path.parent for path in BUNDLES.glob("jax-*/*/bundle.json")):
        for kernel in xla_kernels(open_bundle(folder)):
            if kernel.route == NATIVE and "mlir-passes.log" in kernel.files:
                return folder, kernel.name
    raise AssertionError("no recorded bundle has a natively emitted kernel")


@pytest.mark.parametrize("folder", MLPS, ids=[p.parent.name for p in MLPS])
def test_run_compares_every_output_with_xla_cpu(folder: Path, capsys: pytest.CaptureFixture[str]):
    assert run.main([str(folder)]) == 0
    lines = capsys.readouterr().out.splitlines()
    outputs = load_arrays(str(folder / OUTPUTS), "outputs")
    assert len(lines) == len(outputs)
    for number, line in enumerate(lines):
        assert line.startswith(f"out{number}: float32[8, 32] against XLA:CPU: ")
        assert line.endswith(("(within tolerance)", "bit-identical"))


def test_run_check_fails_on_outputs_xla_cpu_did_not_give(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    folder = tmp_path / "bundle"
    shutil.copytree(MLP, folder)
    expected = load_arrays(str(folder / OUTPUTS), "outputs")
    write_npz(str(folder / OUTPUTS), {"out0": expected["out0"] * np.float32(1.01)})

    assert run.main([str(folder)]) == 0  # a report without --check
    assert "(within tolerance)" not in capsys.readouterr().out
    assert run.main([str(folder), "--check"]) == 1
    assert "error: out0 outside the tolerance against XLA:CPU's outputs" in capsys.readouterr().err


def test_opt_emits_one_fusion_of_a_bundle(capsys: pytest.CaptureFixture[str]):
    assert opt.main([str(MLP), "--fusion", "triton_softmax.2"]) == 0
    printed = capsys.readouterr().out
    # XLA runs it on the Triton route, and so does xla-emit-run: one tile kernel.
    entries = re.findall(r"xtile\.entry_func @(\w+)\(", printed)
    assert entries == ["triton_softmax_2"]

    assert opt.main([str(MLP), "--fusion", "softmax"]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "no fusion named 'softmax' (its fusions: gemm_fusion" in error


def test_opt_emits_hlo_before_xlas_passes_as_run_launches_it(capsys: pytest.CaptureFixture[str]):
    source = MLP / SOURCE_HLO
    module = parse_hlo_module(source.read_text(), str(source))
    runtime = ModuleRuntime(module)
    runtime.run(read_inputs(str(MLP / "inputs.npz"), module.entry))
    launched = {sanitize_function_name(r.name) for r in runtime.runs if "(library)" not in r.name}

    assert opt.main([str(source)]) == 0
    captured = capsys.readouterr()
    entries = re.findall(r"func\.func @(\w+)\(.*attributes \{xla\.entry\}", captured.out)
    assert launched and set(entries) == launched and len(entries) == len(launched)
    assert "has no fusions (HLO before XLA's passes?)" in captured.err


def test_dump_lists_xlas_kernels_of_a_bundle(capsys: pytest.CaptureFixture[str]):
    assert dump.main([str(MLP)]) == 0
    lines = capsys.readouterr().out.splitlines()
    kernels = xla_kernels(open_bundle(MLP))
    assert len(lines) == 2 + len(kernels)
    for line, kernel in zip(lines[2:], kernels, strict=True):
        assert line.split()[1] == kernel.name
    routes = [re.split(r"\s{2,}", line.strip())[2] for line in lines[2:]]
    assert routes.count(TRITON) == sum(k.route == TRITON for k in kernels) == 1


def test_dump_replays_a_native_kernels_pass_log(capsys: pytest.CaptureFixture[str]):
    folder, kernel = native_kernel_bundle()
    assert dump.main([str(folder), "--fusion", kernel]) == 0
    listing = capsys.readouterr().out.splitlines()
    assert listing[0].split()[:2] == ["#", "pass"] and len(listing) > 3
    assert dump.main([str(folder), "--fusion", kernel, "--replay", "--no-outputs"]) == 0
    assert "same ops?" in capsys.readouterr().out


def test_dump_says_why_a_triton_kernel_has_no_pass_log(capsys: pytest.CaptureFixture[str]):
    assert dump.main([str(MLP), "--fusion", "triton_softmax.2"]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert "no MLIR pass log: XLA's route for it is Triton, not a native emitter" in error
