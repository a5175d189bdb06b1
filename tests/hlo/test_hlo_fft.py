"""`fft` (FFT, IFFT, RFFT, IRFFT) and complex c64/c128 values in the parser and the evaluator.

Oracles: numpy.fft on the same inputs, a DFT sum written out, hand-worked
complex arithmetic, and XLA:CPU's outputs of jax programs XLA:GPU compiled
for an H100 (`tests/hlo/fft/`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.hlo import evaluate_module, parse_hlo_module, print_module

DATA = Path(__file__).parent / "fft"


def run(text: str, *args: np.ndarray) -> list[np.ndarray]:
    return list(evaluate_module(parse_hlo_module(text, "m.hlo"), list(args)))


def module(body: str) -> str:
    return f"HloModule m\n\nENTRY e {{\n{body}\n}}\n"


def _complex(shape: tuple[int, ...], seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(np.complex64)


def test_fft_is_the_dft_sum() -> None:
    x = _complex((3, 5), 0)
    (out,) = run(module("  x = c64[3,5] parameter(0)\n  ROOT f = c64[3,5] fft(x), fft_type=FFT, "
                        "fft_length={5}"), x)  # fmt: skip
    k = np.arange(5)
    dft = np.exp(-2j * np.pi * np.outer(k, k) / 5)
    np.testing.assert_allclose(out, x.astype(np.complex128) @ dft.T, rtol=1e-5, atol=1e-5)
    assert out.dtype == np.complex64


@pytest.mark.parametrize(
    ("kind", "in_type", "in_dims", "out_type", "out_dims", "reference"),
    [
        ("FFT", "c64", "2,4,6", "c64", "2,4,6", lambda x: np.fft.fft2(x)),
        ("IFFT", "c128", "2,4,6", "c128", "2,4,6", lambda x: np.fft.ifft2(x)),
        ("RFFT", "f32", "2,4,6", "c64", "2,4,4", lambda x: np.fft.rfft2(x)),
        ("IRFFT", "c64", "2,4,4", "f32", "2,4,6", lambda x: np.fft.irfft2(x, s=(4, 6))),
    ],
)
def test_two_dimensional_fft_kinds_match_numpy(
    kind: str, in_type: str, in_dims: str, out_type: str, out_dims: str, reference: object
) -> None:
    shape = tuple(int(d) for d in in_dims.split(","))
    x = _complex(shape, 1)
    x = (
        x.real.copy()
        if in_type == "f32"
        else x.astype(np.complex128 if in_type == "c128" else x.dtype)
    )
    text = module(f"  x = {in_type}[{in_dims}] parameter(0)\n  ROOT f = {out_type}[{out_dims}] "
                  f"fft(x), fft_type={kind}, fft_length={{4,6}}")  # fmt: skip
    (out,) = run(text, x)
    assert callable(reference)
    np.testing.assert_allclose(out, reference(x), rtol=1e-5, atol=1e-5)


def test_complex_arithmetic_and_parts_by_hand() -> None:
    text = module(
        "  a = c64[2] parameter(0)\n  b = c64[2] parameter(1)\n"
        "  k = c64[2] constant({(1, 2), (0, -1)})\n  p = c64[2] multiply(a, k)\n"
        "  q = c64[2] divide(p, b)\n  r = f32[2] real(q)\n  i = f32[2] imag(q)\n"
        "  m = f32[2] abs(a)\n  c = c64[2] complex(r, m)\n"
        "  e = pred[2] compare(a, b), direction=EQ\n"
        "  ROOT t = (f32[2], f32[2], f32[2], c64[2], pred[2]) tuple(r, i, m, c, e)"
    )
    a = np.array([3 + 4j, 1j], np.complex64)
    b = np.array([1 + 1j, 1j], np.complex64)
    r, i, m, c, e = run(text, a, b)
    # (3+4i)(1+2i) = -5+10i, / (1+i) = 2.5+7.5i;  i * -i = 1, / i = -i.
    np.testing.assert_allclose(r, [2.5, 0], atol=1e-6)
    np.testing.assert_allclose(i, [7.5, -1], atol=1e-6)
    np.testing.assert_array_equal(m, [5, 1])
    np.testing.assert_allclose(c, [2.5 + 5j, 1j], atol=1e-6)
    np.testing.assert_array_equal(e, [False, True])
    assert r.dtype == np.float32 and c.dtype == np.complex64


def test_real_and_imag_of_a_real_operand() -> None:
    text = module("  x = f32[2] parameter(0)\n  r = f32[2] real(x)\n  i = f32[2] imag(x)\n"
                  "  ROOT t = (f32[2], f32[2]) tuple(r, i)")  # fmt: skip
    r, i = run(text, np.array([1.5, -2], np.float32))
    np.testing.assert_array_equal(r, [1.5, -2])
    np.testing.assert_array_equal(i, [0, 0])


def test_complex_literals_print_and_parse_back() -> None:
    text = module("  ROOT k = c128[2] constant({(1.5, -2), (0, 0.25)})")
    printed = print_module(parse_hlo_module(text))
    assert "constant({(1.5, -2.0), (0.0, 0.25)})" in printed
    (again,) = run(printed)
    np.testing.assert_array_equal(again, [1.5 - 2j, 0.25j])


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("  x = c64[4] parameter(0)\n  ROOT f = c64[4] fft(x), fft_type=FFT, fft_length={8}",
         r"m.hlo:5:8: error: fft 'f': FFT with fft_length \[8\] needs trailing dimensions \[8\]"),
        ("  x = f32[4] parameter(0)\n  ROOT f = c64[4] fft(x), fft_type=FFT, fft_length={4}",
         "FFT takes c64 or c128, not f32"),
        ("  x = f32[8] parameter(0)\n  ROOT f = c64[5] fft(x), fft_type=DCT, fft_length={8}",
         "fft_type must be one of FFT, IFFT, RFFT, IRFFT, found DCT"),
        ("  x = c64[4] parameter(0)\n  ROOT f = pred[4] compare(x, x), direction=LT",
         "complex numbers have no order"),
        ("  x = c64[4] parameter(0)\n  ROOT f = c64[4] floor(x)", "is not defined on complex c64"),
        ("  x = c64[4] parameter(0)\n  ROOT f = c64[4] abs(x)", "declared as c64.* give f32"),
        ("  ROOT k = c64[] constant((1, 2)", "to close an array literal|expected"),
    ],
)  # fmt: skip
def test_bad_fft_and_complex_programs_are_located_errors(body: str, message: str) -> None:
    with pytest.raises(UserError, match=message):
        parse_hlo_module(module(body), "m.hlo")


@pytest.mark.parametrize("version", ["jax0102", "jax012"])
@pytest.mark.parametrize("name", ["fft", "rfft"])
def test_jax_fft_programs_match_xla(name: str, version: str) -> None:
    parsed = parse_hlo_module((DATA / f"{name}.{version}.hlo").read_text(), name)
    stored = np.load(DATA / f"{name}.xla_cpu.npz")
    (out,) = evaluate_module(parsed, [stored["arg0"]])
    np.testing.assert_allclose(
        out, stored["out0"], rtol=0, atol=2e-6 * np.abs(stored["out0"]).max()
    )


@pytest.mark.parametrize("engine", ["evaluator", "runtime"])
def test_complex_dot_keeps_the_imaginary_parts(engine: str) -> None:
    from xla_emit.runtime import ModuleRuntime

    text = module(
        "  a = c64[3,4] parameter(0)\n  b = c64[4,2] parameter(1)\n"
        "  ROOT d = c64[3,2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}"
    )
    a, b = _complex((3, 4), 5), _complex((4, 2), 6)
    parsed = parse_hlo_module(text)
    if engine == "evaluator":
        (out,) = evaluate_module(parsed, [a, b])
    else:
        (out,) = ModuleRuntime(parsed).run([a, b])
    expected = np.zeros((3, 2), np.complex128)
    for i, j, k in np.ndindex(3, 2, 4):
        expected[i, j] += complex(a[i, k]) * complex(b[k, j])
    np.testing.assert_allclose(out, expected, rtol=1e-5)
    assert out.dtype == np.complex64


def test_complex_to_real_convert_is_a_located_error_as_in_xla() -> None:
    text = module("  x = c64[2] parameter(0)\n  ROOT c = f32[2] convert(x)")
    with pytest.raises(UserError, match=r"m.hlo:5:8: .*converts only to a complex type"):
        parse_hlo_module(text, "m.hlo")
