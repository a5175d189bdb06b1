"""`--check` ends with a summary: each kernel's stages and the rule each output was held to.

The oracles: the run's own `--time` launch list (the kernels and library
calls the summary must name), `expectations.output_expectations` for the
rule, and a pass known to change results (`expand-math-to-polynomials` with
two terms) for a check that must fail, on a TPU kernel as on a GPU one.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from xla_emit.tools.run import main

ROOT = Path(__file__).parents[2]
GEMM = ROOT / "examples" / "gemm_bias.hlo"
EXAMPLES = ROOT / "examples"

TPU_EXP = """\
func.func @expo(%x: memref<8x128xf32, #tpu.memory_space<vmem>>,
                %out: memref<8x128xf32, #tpu.memory_space<vmem>>) {
  %c0 = arith.constant 0 : index
  %v = vector.load %x[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  %e = math.exp %v : vector<8x128xf32>
  vector.store %e, %out[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  return
}
"""

EXACT_HLO = """\
HloModule exact

fused_neg {
  a = f32[4,8] parameter(0)
  ROOT n = f32[4,8] negate(a)
}

ENTRY main {
  p0 = f32[4,8] parameter(0)
  ROOT n = f32[4,8] fusion(p0), kind=kLoop, calls=fused_neg
}
"""


def summary_of(err: str) -> list[str]:
    start = err.index("check summary, against ")
    return [line.strip() for line in err[start:].splitlines()[1:] if line.startswith("  ")]


def run_and_read(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    status = main(list(args))
    return status, capsys.readouterr().err


def test_summary_names_every_kernel_library_call_and_rule(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = str(tmp_path / "o.npz")
    status, err = run_and_read(capsys, str(GEMM), "--time", "-o", out)
    assert status == 0
    launches = re.findall(r"^kernel (.+): [\d.]+ s,", err, re.MULTILINE)
    status, err = run_and_read(capsys, str(GEMM), "--check", "-o", out)
    assert status == 0
    summary = summary_of(err)
    # A dot is approximate: the ulp rule, with its numbers.
    assert summary[0] == "out0 held to: within 4 ulp or 1e-05 x the largest magnitude"
    kernels = [line.split(":")[0] for line in summary if line.startswith("kernel ")]
    library = [line.split(":")[0] for line in summary if "a library call" in line]
    expected = [f"kernel {n}" if "(" not in n else n for n in launches]
    assert sorted(kernels + library) == sorted(expected)
    assert "dot.1 (library)" in launches
    stages = re.findall(r"^(\S+): ok \(", err, re.MULTILINE)
    verdicts = ", ".join(f"{s} ok" for s in stages)
    assert summary[1].startswith(f"kernel loop_neg: {verdicts}; unchanged by the other ")
    assert summary[-1].startswith(f"{len(stages)} of ") and summary[-1].endswith(": ok")


def test_exact_outputs_are_held_bit_for_bit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    module = tmp_path / "exact.hlo"
    module.write_text(EXACT_HLO)
    status, err = run_and_read(capsys, str(module), "--check", "-o", str(tmp_path / "o.npz"))
    assert status == 0
    assert summary_of(err)[0] == "out0 held to: bit for bit"


@pytest.fixture
def tpu_kernel(tmp_path: Path) -> tuple[Path, Path]:
    kernel = tmp_path / "expo.mlir"
    kernel.write_text(TPU_EXP)
    inputs = tmp_path / "in.npz"
    x = np.linspace(-3, 3, 8 * 128, dtype=np.float32).reshape(8, 128)
    np.savez(inputs, arg0=x, arg1=np.zeros((8, 128), np.float32))
    return kernel, inputs


def test_tpu_check_runs_every_pass_and_fails_on_a_wrong_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, tpu_kernel: tuple[Path, Path]
) -> None:
    kernel, inputs = tpu_kernel
    args = [str(kernel), "--inputs", str(inputs), "-o", str(tmp_path / "o.npz"), "--check"]
    status, err = run_and_read(capsys, *args, "-p", "expand-math-to-polynomials{terms=2}")
    assert status == 1
    assert "expand-math-to-polynomials: DIFFERS" in err
    assert "kernel @expo: emitted ok, expand-math-to-polynomials DIFFERS" in summary_of(err)
    assert err.rstrip().endswith(
        "error: outputs differ from the TPU kernel as given after pass 'expand-math-to-polynomials'"
    )


def test_tpu_check_passes_a_pass_that_keeps_results(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    inputs = tmp_path / "in.npz"
    x = np.arange(8 * 1024, dtype=np.float32).reshape(8, 1024)
    np.savez(inputs, arg0=x, arg1=np.zeros((8, 32), np.float32), arg2=np.array(200))
    kernel = str(EXAMPLES / "tpu" / "misaligned.mlir")
    args = [kernel, "--inputs", str(inputs), "-o", str(tmp_path / "o.npz"), "--check"]
    status, err = run_and_read(capsys, *args, "-p", "tpu-realign-accesses")
    assert status == 0, err
    assert "kernel @window: emitted ok, tpu-realign-accesses ok" in summary_of(err)
    # The window the kernel copies: columns 200..231 of every row.
    np.testing.assert_array_equal(np.load(tmp_path / "o.npz")["out1"], x[:, 200:232])


def test_pto_check_runs_every_stage_of_the_pipeline(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    inputs = tmp_path / "in.npz"
    x = np.random.default_rng(0).standard_normal(16 * 64).astype(np.float32)
    np.savez(inputs, arg0=x, arg1=np.zeros(16 * 64, np.float32))
    kernel = str(EXAMPLES / "pto" / "online_softmax.mlir")
    out = str(tmp_path / "o.npz")
    args = [kernel, "--inputs", str(inputs), "-o", out, "-p", "pto-level2-pipeline"]
    status, err = run_and_read(capsys, *args, "--check")
    assert status == 0, err
    summary = summary_of(err)
    kernel_line = next(line for line in summary if line.startswith("kernel @online_softmax: "))
    stages = re.findall(r"^(\S+): ok \(", err, re.MULTILINE)
    assert len(stages) > 1 and all(f"{s} ok" in kernel_line for s in stages)
    # Without --check nothing is compared, and nothing says it was.
    assert "check summary" not in run_and_read(capsys, *args)[1]


def test_progress_covers_every_stage_and_launch(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = str(tmp_path / "o.npz")
    status, err = run_and_read(capsys, str(GEMM), "--time", "-o", out)
    launches = [
        name
        for name in re.findall(r"^kernel (.+): [\d.]+ s,", err, re.MULTILINE)
        if not name.endswith("(library)")
    ]
    status, err = run_and_read(capsys, str(GEMM), "--check", "--progress", "-o", out)
    assert status == 0
    checked = re.findall(r"^(\S+): ok \(", err, re.MULTILINE)
    count = len(checked)
    expected = [f"check: stage {n + 1}/{count} ({s})" for n, s in enumerate(checked)]
    assert re.findall(r"^check: stage .*$", err, re.MULTILINE) == expected
    shown = re.findall(r"^run: launch \d+ \((.+)\)$", err, re.MULTILINE)
    assert shown == launches
