"""xla-emit-run without --reference: .hlo modules and .mlir kernels in the interpreter."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from xla_emit.tools.run import main

SMALL_GELU = Path("examples/gelu.hlo").read_text().replace("6,512,4096", "4,256")

OOB_KERNEL = """
func.func @main(%a: tensor<32xf32>, %out: tensor<32xf32>) -> tensor<32xf32> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 31 : index]}
  %c1 = arith.constant 1 : index
  %i = arith.addi %t, %c1 : index
  %x = tensor.extract %a[%i] : tensor<32xf32>
  %o = tensor.insert %x into %out[%t] : tensor<32xf32>
  return %o : tensor<32xf32>
}
"""


def test_hlo_module_matches_the_reference(tmp_path: Path) -> None:
    hlo = tmp_path / "gelu.hlo"
    hlo.write_text(SMALL_GELU)
    assert main([str(hlo), "--random-inputs", "7", "-o", str(tmp_path / "run.npz")]) == 0
    assert (
        main([str(hlo), "--random-inputs", "7", "--reference", "-o", str(tmp_path / "ref.npz")])
        == 0
    )
    interpreted, reference = np.load(tmp_path / "run.npz"), np.load(tmp_path / "ref.npz")
    # bf16 travels as uint16 bit patterns.
    assert interpreted["out0"].dtype == np.uint16
    np.testing.assert_array_equal(interpreted["out0"], reference["out0"])


def test_check_and_time_report_every_stage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hlo = tmp_path / "gelu.hlo"
    hlo.write_text(SMALL_GELU)
    assert main([str(hlo), "--check", "--time"]) == 0
    err = capsys.readouterr().err
    assert "emitted: ok (out0: bit-identical)" in err
    assert "xla-flatten-tensors: ok (out0: bit-identical)" in err
    assert "pass xla-flatten-tensors:" in err
    assert "kernel fusion:" in err and "lanes/s" in err


def test_mlir_kernel_with_inputs_and_passes(tmp_path: Path) -> None:
    kernel = tmp_path / "gelu.mlir"
    kernel.write_text(Path("examples/gelu/04_flattened.mlir").read_text())
    x = (np.random.default_rng(2).standard_normal(12582912) * 2).astype(ml_dtypes.bfloat16)
    np.savez(tmp_path / "in.npz", arg0=x.view(np.uint16))
    out = tmp_path / "out.npz"
    code = main(
        [
            str(kernel),
            "--inputs",
            str(tmp_path / "in.npz"),
            "-p",
            "xla-vectorize-loads-stores,xla-gpu-optimize-loops",
            "-o",
            str(out),
        ]
    )
    assert code == 0
    result = np.load(out)["out0"].view(ml_dtypes.bfloat16)
    c = [ml_dtypes.bfloat16(v) for v in (0.5, 1.0, 0.796875, 0.044677734375)]
    tanh = (
        np.tanh(((x + ((x * x) * x) * c[3]) * c[2]).astype(np.float64))
        .astype(np.float32)
        .astype(ml_dtypes.bfloat16)
    )
    expected = x * ((tanh + c[1]) * c[0])
    np.testing.assert_array_equal(result.view(np.uint16), expected.view(np.uint16))


def test_mlir_check_blames_the_pass_that_changes_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kernel = tmp_path / "exp.mlir"
    kernel.write_text("""
func.func @main(%a: tensor<64xf32>, %out: tensor<64xf32>) -> tensor<64xf32> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 63 : index]}
  %x = tensor.extract %a[%t] : tensor<64xf32>
  %e = math.exp %x : f32
  %o = tensor.insert %e into %out[%t] : tensor<64xf32>
  return %o : tensor<64xf32>
}
""")
    assert main([str(kernel), "--check", "-p", "expand-math-to-polynomials{terms=2}"]) == 1
    err = capsys.readouterr().err
    assert "expand-math-to-polynomials: DIFFERS" in err
    assert (
        "error: outputs differ from the input kernel after pass 'expand-math-to-polynomials'" in err
    )


def test_out_of_bounds_kernel_is_a_located_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kernel = tmp_path / "oob.mlir"
    kernel.write_text(OOB_KERNEL)
    assert main([str(kernel)]) == 1
    err = capsys.readouterr().err
    assert f"{kernel}:6:3: error: 'tensor.extract' op index [32] is out of bounds" in err
    assert "(thread 31, block 0)" in err
    assert "Traceback" not in err


def test_reference_is_refused_for_mlir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kernel = tmp_path / "k.mlir"
    kernel.write_text(OOB_KERNEL)
    assert main([str(kernel), "--reference"]) == 1
    assert "an .mlir kernel has no reference" in capsys.readouterr().err


class _Terminal:
    """A stderr that says it is a terminal and keeps what is written."""

    def __init__(self) -> None:
        self.text = ""

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.text += text
        return len(text)

    def flush(self) -> None:
        pass


def test_progress_bar_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    from xla_emit.runtime.commands import progress_bar

    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    show = progress_bar("kernel")
    assert show is not None
    show(50, 100)
    show(100, 100)
    assert terminal.text == ""  # a run shorter than the delay draws nothing
    show = progress_bar("kernel", delay=0.0)
    assert show is not None
    show(50, 100)
    show(100, 100)
    # tqdm's bar where it is installed, else a plain line; both end at 100%.
    assert terminal.text.startswith("\rkernel")
    assert "100%" in terminal.text
    monkeypatch.undo()
    assert progress_bar("kernel") is None  # pytest's captured stderr is not a terminal


def test_negative_random_seed_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["examples/gelu.hlo", "--random-inputs", "-5"])
    assert exit_info.value.code == 2
    assert "argument --random-inputs: invalid seed value: '-5'" in capsys.readouterr().err
