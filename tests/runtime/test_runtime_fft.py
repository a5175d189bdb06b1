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


COMPLEX_KERNELS = """HloModule m

add {
  a = c64[] parameter(0)
  b = c64[] parameter(1)
  ROOT s = c64[] add(a, b)
}

ENTRY e {
  x = c64[16,64] parameter(0)
  y = f32[16,64] parameter(1)
  z = c64[] constant((0, 0))
  c = c64[16,64] complex(y, y)
  p = c64[16,64] multiply(x, c)
  q = c64[16,64] divide(p, x)
  e = c64[16,64] exponential(q)
  r = c64[16] reduce(e, z), dimensions={1}, to_apply=add
  t = c64[64,16] transpose(e), dimensions={1,0}
  k = c64[2] constant({(1, 2), (3, -4)})
  re = f32[16,64] real(e)
  im = f32[16,64] imag(e)
  ab = f32[16,64] abs(e)
  eq = pred[16,64] compare(q, c), direction=EQ
  w = c128[16,64] convert(y)
  ROOT o = (c64[16], c64[64,16], c64[2], f32[16,64], f32[16,64], f32[16,64], pred[16,64],
    c128[16,64]) tuple(r, t, k, re, im, ab, eq, w)
}
"""


FFT_FILTER = """HloModule m

ENTRY e {
  x = f32[4,16] parameter(0)
  f = c64[4,9] fft(x), fft_type=RFFT, fft_length={16}
  k = c64[] constant((0.5, -1))
  b = c64[4,9] broadcast(k), dimensions={}
  m = c64[4,9] multiply(f, b)
  ROOT i = f32[4,16] fft(m), fft_type=IRFFT, fft_length={16}
}
"""


def test_fft_filter_passes_check_at_every_stage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hlo = tmp_path / "f.hlo"
    hlo.write_text(FFT_FILTER)
    assert main([str(hlo), "--random-inputs", "0", "--check"]) == 0
    assert "DIFFERS" not in capsys.readouterr().out


@pytest.mark.slow
def test_complex_kernels_pass_check_at_every_stage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hlo = tmp_path / "c.hlo"
    hlo.write_text(COMPLEX_KERNELS)
    assert main([str(hlo), "--random-inputs", "0", "--check"]) == 0
    assert "DIFFERS" not in capsys.readouterr().out


def test_complex_kernels_match_hand_computed_values() -> None:
    x = _input("c64", "16,64")
    y = np.random.default_rng(4).standard_normal((16, 64)).astype(np.float32)
    outputs = ModuleRuntime(parse_hlo_module(COMPLEX_KERNELS)).run([x, y])
    e = np.exp(y.astype(np.complex128) * (1 + 1j))  # x (y + iy) / x = (1 + i) y
    expected = [e.sum(axis=1), e.T, [1 + 2j, 3 - 4j], e.real, e.imag, np.abs(e)]
    for out, want in zip(outputs, expected, strict=False):
        np.testing.assert_allclose(out, want, rtol=1e-4, atol=1e-4)
    assert outputs[0].dtype == np.complex64 and outputs[3].dtype == np.float32
    assert outputs[7].dtype == np.complex128
    np.testing.assert_array_equal(outputs[7], y.astype(np.complex128))


@pytest.mark.parametrize("version", ["jax0102", "jax012"])
@pytest.mark.parametrize("name", ["fft", "rfft"])
def test_jax_fft_programs_run_compiled_and_match_xla(name: str, version: str) -> None:
    module = parse_hlo_module((DATA / f"{name}.{version}.hlo").read_text(), name)
    stored = np.load(DATA / f"{name}.xla_cpu.npz")
    (out,) = ModuleRuntime(module).run([stored["arg0"]])
    want = stored["out0"]
    np.testing.assert_allclose(out, want, rtol=0, atol=2e-6 * np.abs(want).max())
