"""cuFFT's meaning in the runtime's kernel library, and `fft` modules run by `xla-emit-run`.

Oracles: numpy.fft on the same inputs (the runtime computes DFT matrices, the
evaluator numpy's FFT) and XLA:CPU's outputs of jax programs.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from xla_emit.hlo import parse_hlo_module
from xla_emit.runtime import ModuleRuntime
from xla_emit.tools.run import main

DATA = Path(__file__).parent.parent / "hlo" / "fft"
KINDS = {
    "FFT": ("c64", "3,4,6", "c64", "3,4,6", lambda x: np.fft.fftn(x, axes=(1, 2))),
    "IFFT": ("c128", "3,4,6", "c128", "3,4,6", lambda x: np.fft.ifftn(x, axes=(1, 2))),
    "RFFT": ("f32", "3,4,6", "c64", "3,4,4", lambda x: np.fft.rfftn(x, axes=(1, 2))),
    "IRFFT": ("c64", "3,4,4", "f32", "3,4,6", lambda x: np.fft.irfftn(x, s=(4, 6), axes=(1, 2))),
}


def _input(ptype: str, dims: str) -> np.ndarray:
    shape = tuple(int(d) for d in dims.split(","))
    rng = np.random.default_rng(3)
    if ptype == "f32":
        return rng.standard_normal(shape).astype(np.float32)
    x = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    return x.astype(np.complex64 if ptype == "c64" else np.complex128)


@pytest.mark.parametrize("kind", list(KINDS))
def test_runtime_fft_matches_numpy(kind: str) -> None:
    in_type, in_dims, out_type, out_dims, reference = KINDS[kind]
    text = (
        f"HloModule m\n\nENTRY e {{\n  x = {in_type}[{in_dims}] parameter(0)\n"
        f"  ROOT f = {out_type}[{out_dims}] fft(x), fft_type={kind}, fft_length={{4,6}}\n}}\n"
    )
    x = _input(in_type, in_dims)
    (out,) = ModuleRuntime(parse_hlo_module(text)).run([x])
    tolerance = 1e-12 if in_type == "c128" else 1e-5
    np.testing.assert_allclose(out, reference(x), rtol=tolerance, atol=tolerance)
    assert out.dtype == {"c64": np.complex64, "c128": np.complex128, "f32": np.float32}[out_type]


def test_fft_module_round_trips_complex_npz_through_both_engines(tmp_path: Path) -> None:
    hlo = tmp_path / "f.hlo"
    hlo.write_text(
        "HloModule m\n\nENTRY e {\n  x = c64[2,8] parameter(0)\n"
        "  f = c64[2,8] fft(x), fft_type=FFT, fft_length={8}\n"
        "  ROOT i = c64[2,8] fft(f), fft_type=IFFT, fft_length={8}\n}\n"
    )
    x = _input("c64", "2,8")
    np.savez(tmp_path / "in.npz", arg0=x)
    for flags, name in (([], "run.npz"), (["--reference"], "ref.npz")):
        args = [str(hlo), "--inputs", str(tmp_path / "in.npz"), "-o", str(tmp_path / name)]
        assert main(args + flags) == 0
        out = np.load(tmp_path / name)["out0"]
        assert out.dtype == np.complex64
        np.testing.assert_allclose(out, x, atol=1e-6)


def test_complex_fusion_is_a_located_error_in_the_compiled_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hlo = tmp_path / "c.hlo"
    hlo.write_text(
        "HloModule m\n\nENTRY e {\n  x = c64[4] parameter(0)\n  ROOT m = c64[4] multiply(x, x)\n}\n"
    )
    assert main([str(hlo), "--random-inputs", "0", "-o", str(tmp_path / "o.npz")]) == 1
    assert "c.hlo:5:8: error: Unsupported: multiply 'm' on complex c64" in capsys.readouterr().err
    assert (
        main([str(hlo), "--random-inputs", "0", "--reference", "-o", str(tmp_path / "r.npz")]) == 0
    )
