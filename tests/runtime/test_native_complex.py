"""Complex numbers on the native engine (`convert-complex-to-standard`, structs in memory).

Each HLO op on c64 runs as a one-fusion module natively and in the interpreter, on
every pair of complex numbers whose parts are 0, -0, 1.5, -2, inf, -inf or NaN. The
ops that keep the interpreter's order of operations (add, subtract, multiply, negate,
the parts, compare, select) match it bit for bit, and so do division (Smith's method
and Annex G's infinities) and abs on these values. `sign` (re / |z|, with |z| by MLIR's
formula) and division also match XLA:CPU's own outputs for the same pairs
(`data/complex_edges.xla_cpu.npz`: x, y and `jax.jit(lambda a, b: a / b)`, `a * b`,
`jnp.sign(a)` on XLA:CPU, jax 0.12). Transcendental functions are held to stated bounds
against numpy in complex128 on random values and against the interpreter and XLA:CPU
(`data/complex_functions.xla_cpu.npz`) on the 49 edge values with finite parts; where
XLA:CPU computes by MLIR's formulas, all 49 have its NaNs, infinities and zeros. A NaN is any NaN
(numpy and LLVM set its sign differently). The zoo's FFT model runs natively with the
interpreter's results. Skipped where llvmlite is missing.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from xla_emit.hlo.npz import read_inputs
from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.runtime import KernelCache, ModuleRuntime
from xla_emit.runtime.compare import as_parts, compare, ulp_distance

pytest.importorskip("llvmlite.binding", reason="the native engine needs llvmlite ([llvm] extra)")

from xla_emit.runtime.native_kernels import NativeKernelCache

ZOO = Path(__file__).resolve().parents[1] / "corpus" / "zoo"
XLA_EDGES = Path(__file__).parent / "data" / "complex_edges.xla_cpu.npz"
XLA_FUNCTIONS = Path(__file__).parent / "data" / "complex_functions.xla_cpu.npz"
_PARTS = np.array([0.0, -0.0, 1.5, -2.0, np.inf, -np.inf, np.nan], np.float32)


def edge_values() -> tuple[np.ndarray, np.ndarray]:
    """Every pair (x, y) of complex numbers built from the edge parts: 49 x 49."""
    pairs = np.array(list(itertools.product(_PARTS, repeat=2)), np.float32)
    numbers = pairs.view(np.complex64)[:, 0]
    x, y = (np.array(v) for v in zip(*itertools.product(numbers, repeat=2), strict=True))
    return x.astype(np.complex64), y.astype(np.complex64)


def module_text(body: str, operands: list[str], result: str) -> str:
    """One loop fusion computing `body` (its root is %r) of parameters %p0, %p1, ..."""
    params = ", ".join(f"p{i}: {t}" for i, t in enumerate(operands))
    entry_params = ", ".join(f"a{i}: {t}" for i, t in enumerate(operands))
    lines = [f"  %p{i} = {t}{{0}} parameter({i})" for i, t in enumerate(operands)]
    args = ", ".join(f"%a{i}" for i in range(len(operands)))
    entry = [f"  %a{i} = {t}{{0}} parameter({i})" for i, t in enumerate(operands)]
    return "\n".join(
        [
            "HloModule complex_op",
            "",
            f"%fused ({params}) -> {result} {{",
            *lines,
            f"  ROOT {body}",
            "}",
            "",
            f"ENTRY %main ({entry_params}) -> {result} {{",
            *entry,
            f"  ROOT %f = {result}{{0}} fusion({args}), kind=kLoop, calls=%fused",
            "}",
            "",
        ]
    )


def run_both(text: str, inputs: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    module = parse_hlo_module(text, "complex_op.hlo")
    native = ModuleRuntime(module, native=NativeKernelCache(disk=False)).run(inputs)
    interpreted = ModuleRuntime(module, KernelCache()).run(inputs)
    return native[0], interpreted[0]


def floats(array: np.ndarray) -> np.ndarray:
    return as_parts(array) if array.dtype.kind == "c" else array


def assert_same_values(got: np.ndarray, want: np.ndarray, lanes: tuple[np.ndarray, ...]) -> None:
    """Bit for bit, except that any NaN equals any NaN."""
    assert got.dtype == want.dtype and got.shape == want.shape
    a, b = floats(got), floats(want)
    if a.dtype.kind == "f":
        bits = f"u{a.itemsize}"
        same = (a.view(bits) == b.view(bits)) | (np.isnan(a) & np.isnan(b))
    else:
        same = a == b
    if a.ndim > got.ndim:
        same = same.all(axis=-1)
    bad = np.flatnonzero(~same)
    described = [f"{tuple(lane[i] for lane in lanes)}: {got[i]} vs {want[i]}" for i in bad[:5]]
    assert bad.size == 0, f"{bad.size} lanes differ, e.g. " + "; ".join(described)


C64 = "c64[2401]"
BINARY = ["add", "subtract", "multiply", "divide"]


@pytest.mark.parametrize("opcode", BINARY)
def test_binary_ops_match_the_interpreter_on_edge_values(opcode: str) -> None:
    x, y = edge_values()
    got, want = run_both(
        module_text(f"%r = {C64}{{0}} {opcode}(%p0, %p1)", [C64, C64], C64), [x, y]
    )
    assert_same_values(got, want, (x, y))


@pytest.mark.parametrize("direction", ["EQ", "NE"])
def test_compares_match_the_interpreter_on_edge_values(direction: str) -> None:
    x, y = edge_values()
    body = f"%r = pred[2401]{{0}} compare(%p0, %p1), direction={direction}"
    got, want = run_both(module_text(body, [C64, C64], "pred[2401]"), [x, y])
    assert_same_values(got, want, (x, y))


UNARY = {"negate": C64, "real": "f32[2401]", "imag": "f32[2401]", "abs": "f32[2401]"}


@pytest.mark.parametrize("opcode", list(UNARY))
def test_unary_ops_match_the_interpreter_on_edge_values(opcode: str) -> None:
    x, _ = edge_values()
    result = UNARY[opcode]
    got, want = run_both(module_text(f"%r = {result}{{0}} {opcode}(%p0)", [C64], result), [x])
    assert_same_values(got, want, (x,))


@pytest.mark.parametrize("opcode", ["divide", "multiply", "sign"])
def test_ops_match_xla_cpu_on_edge_values(opcode: str) -> None:
    with np.load(XLA_EDGES) as archive:
        x, y, xla = archive["x"], archive["y"], archive[opcode]
    if opcode == "sign":
        text, inputs = module_text(f"%r = {C64}{{0}} sign(%p0)", [C64], C64), [x]
    else:
        text, inputs = module_text(f"%r = {C64}{{0}} {opcode}(%p0, %p1)", [C64, C64], C64), [x, y]
    got, interpreted = run_both(text, inputs)
    assert_same_values(got, xla, (x, y))
    # The interpreter's sign divides by a correctly rounded |z|: 1 ulp off XLA's at most.
    assert compare(xla, interpreted, max_ulp=1, scale_tolerance=0.0).matches


def test_complex_select_and_parts_match_the_interpreter() -> None:
    x, y = edge_values()
    real, imag = np.real(x).copy(), np.imag(y).copy()
    body = "%r = c64[2401]{0} complex(%p0, %p1)"
    got, want = run_both(module_text(body, ["f32[2401]", "f32[2401]"], C64), [real, imag])
    assert_same_values(got, want, (real, imag))
    assert np.array_equal(as_parts(got)[:, 0].view(np.uint32), real.view(np.uint32))
    keep = (np.arange(x.size) % 3 == 0).astype(np.bool_)
    text = module_text("%r = c64[2401]{0} select(%p0, %p1, %p2)", ["pred[2401]", C64, C64], C64)
    got, want = run_both(text, [keep, x, y])
    assert_same_values(got, want, (x, y))


# Transcendental functions: the C library's f32 functions combined by MLIR's formulas,
# against numpy in complex128 on finite values (their own edge cases follow MLIR's
# formulas, which the interpreter does not model). The bound is in float32 epsilons of
# |f(z)|: log near |z| = 1 and the sinh part of sin and cos for a small imaginary part
# lose bits to cancellation in those formulas (and so in XLA's kernels).
EPSILONS = {
    "exponential": 2, "log": 64, "sqrt": 4, "sine": 64, "cosine": 64, "tanh": 8, "tan": 8,
    "exponential-minus-one": 4, "log-plus-one": 4, "rsqrt": 4,
}  # fmt: skip
_NUMPY = {
    "exponential": np.exp, "log": np.log, "sqrt": np.sqrt, "sine": np.sin, "cosine": np.cos,
    "tanh": np.tanh, "tan": np.tan, "exponential-minus-one": lambda z: np.exp(z) - 1,
    "log-plus-one": lambda z: np.log(1 + z), "rsqrt": lambda z: 1 / np.sqrt(z),
}  # fmt: skip


def uniform_complex(seed: int, low: float, high: float) -> np.ndarray:
    parts = np.random.default_rng(seed).uniform(low, high, (2401, 2)).astype(np.float32)
    return parts.view(np.complex64)[:, 0].copy()


def within_epsilons(got: np.ndarray, exact: np.ndarray, epsilons: float) -> None:
    error = np.abs(got.astype(np.complex128) - exact) / np.abs(exact)
    bound = epsilons * np.finfo(got.real.dtype).eps
    assert error.max() <= bound, f"{error.max() / np.finfo(got.real.dtype).eps:.1f} epsilons"


@pytest.mark.parametrize("opcode", list(EPSILONS))
def test_transcendental_functions_within_stated_bounds_of_numpy(opcode: str) -> None:
    x = uniform_complex(26, -4, 4)
    got, interpreted = run_both(module_text(f"%r = {C64}{{0}} {opcode}(%p0)", [C64], C64), [x])
    within_epsilons(got, _NUMPY[opcode](x.astype(np.complex128)), EPSILONS[opcode])
    assert compare(interpreted, got, max_ulp=1 << 30, scale_tolerance=1e-5).matches


# XLA:CPU computes these by MLIR's formulas too (with its own exp, log, ... on the
# parts, a last bit apart from the C library's): all 49 edge values' NaNs, infinities and
# zeros bit for bit. It special-cases exp, sqrt, sin and cos (exp(inf + 0i) = inf + 0i
# where e^re sin(im) is NaN; sqrt(-2 - 0i) = +1.41i), which are held to the interpreter.
AS_XLA_CPU = ("log", "log-plus-one", "exponential-minus-one", "tanh", "tan", "rsqrt")


def assert_special_parts_same(got: np.ndarray, want: np.ndarray) -> None:
    """Where a part of `want` is NaN, infinite or zero (of either sign), `got`'s is too."""
    a, b = as_parts(got), as_parts(want)
    special = ~np.isfinite(b) | (b == 0)
    same = (a.view(np.uint32) == b.view(np.uint32)) | (np.isnan(a) & np.isnan(b))
    assert same[special].all(), [(want[i], got[i]) for i in np.flatnonzero(~same.all(axis=1))]


@pytest.mark.parametrize("opcode", list(EPSILONS))
def test_functions_on_edge_values(opcode: str) -> None:
    with np.load(XLA_FUNCTIONS) as archive:
        z, xla = archive["z"], archive[opcode]
    text = module_text(f"%r = c64[49]{{0}} {opcode}(%p0)", ["c64[49]"], "c64[49]")
    got, interpreted = run_both(text, [z])
    finite = np.isfinite(z)
    for expected in (interpreted, xla) if opcode in AS_XLA_CPU else (interpreted,):
        want, have = expected[finite].astype(np.complex128), got[finite].astype(np.complex128)
        assert np.array_equal(np.isfinite(want), np.isfinite(have))
        error = np.abs(have - want)[np.isfinite(want)]
        bound = EPSILONS[opcode] * np.finfo(np.float32).eps * np.abs(want[np.isfinite(want)])
        assert (error <= bound).all(), opcode
    if opcode in AS_XLA_CPU:
        assert_special_parts_same(got, xla)


def test_power_within_stated_bounds_of_numpy() -> None:
    x, w = uniform_complex(26, -4, 4), uniform_complex(27, -2, 2)
    text = module_text(f"%r = {C64}{{0}} power(%p0, %p1)", [C64, C64], C64)
    got, _ = run_both(text, [x, w])
    within_epsilons(got, np.power(x.astype(np.complex128), w.astype(np.complex128)), 16)


def test_c128_divides_as_the_interpreter_and_calls_double_functions() -> None:
    x, y = (v.astype(np.complex128) for v in edge_values())
    c128 = "c128[2401]"
    text = module_text(f"%r = {c128}{{0}} divide(%p0, %p1)", [c128, c128], c128)
    got, want = run_both(text, [x, y])
    # Special values bit for bit; a finite quotient within 1 ulp (numpy multiplies by the
    # reciprocal of Smith's denominator, MLIR divides by it, both in float64 here).
    finite = np.isfinite(want) & (want != 0) & np.isfinite(got) & (got != 0)
    assert_same_values(got[~finite], want[~finite], (x[~finite], y[~finite]))
    assert ulp_distance(as_parts(want[finite]), as_parts(got[finite])).max() <= 1
    z = uniform_complex(26, -4, 4).astype(np.complex128)
    got, _ = run_both(module_text(f"%r = {c128}{{0}} exponential(%p0)", [c128], c128), [z])
    within_epsilons(got, np.exp(z), 4)


def test_abs_within_two_ulps_of_the_interpreter_on_finite_values() -> None:
    # max * sqrt(1 + (min/max)^2) rounds five times; the interpreter's |z| once.
    rng = np.random.default_rng(7)
    x = rng.standard_normal((2401, 2)).astype(np.float32).view(np.complex64)[:, 0].copy()
    got, want = run_both(module_text("%r = f32[2401]{0} abs(%p0)", [C64], "f32[2401]"), [x])
    assert ulp_distance(want, got).max() <= 2


def test_the_zoo_fft_model_runs_natively_with_the_interpreters_results() -> None:
    path = ZOO / "fft_filter.hlo"
    module = parse_hlo_module(path.read_text(), str(path))
    inputs = read_inputs(str(path.with_suffix(".inputs.npz")), module.entry)
    native = ModuleRuntime(module, native=NativeKernelCache(disk=False)).run(inputs)
    interpreted = ModuleRuntime(module, KernelCache()).run(inputs)
    assert native[0].tobytes() == interpreted[0].tobytes()
    with np.load(path.with_suffix(".outputs.npz")) as archive:
        xla = archive["out0"]
    assert np.abs(native[0] - xla).max() <= 1e-6 * np.abs(xla).max()


COMPLEX_ROW_SUM = """HloModule complex_row_sum

%add (a: c64[], b: c64[]) -> c64[] {
  %a = c64[] parameter(0)
  %b = c64[] parameter(1)
  ROOT %s = c64[] add(%a, %b)
}

%fused (p0: c64[8,256]) -> c64[8] {
  %p0 = c64[8,256]{1,0} parameter(0)
  %zero = c64[] constant((0, 0))
  ROOT %r = c64[8]{0} reduce(%p0, %zero), dimensions={1}, to_apply=%add
}

ENTRY %main (x: c64[8,256]) -> c64[8] {
  %x = c64[8,256]{1,0} parameter(0)
  ROOT %f = c64[8]{0} fusion(%x), kind=kInput, calls=%fused
}
"""


def test_a_complex_row_sum_matches_the_interpreter_bit_for_bit() -> None:
    # The reduction shuffles the real part, then the imaginary part: two thread loops,
    # the first one's shuffled value read in the next.
    x = uniform_complex(5, -1, 1)
    x = np.resize(x, (8, 256)).astype(np.complex64)
    got, want = run_both(COMPLEX_ROW_SUM, [x])
    assert got.tobytes() == want.tobytes()
