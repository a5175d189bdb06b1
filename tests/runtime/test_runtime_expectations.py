"""`--check` demands what each output's computation allows, and still catches broken kernels.

Bounds are checked against numbers worked by hand; the bf16 sum case is one
the plain ulp/scale comparison rejects although the kernel is right.
"""

from __future__ import annotations

import math
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects import arith

from xla_emit.api import parse_hlo
from xla_emit.emitters import elemental_ops
from xla_emit.emitters.reduction_parts import ReductionTiling
from xla_emit.emitters.row_reduction import RowReductionTiling
from xla_emit.hlo.evaluator import evaluate_module
from xla_emit.hlo.npz import random_inputs
from xla_emit.hlo.shape import PrimitiveType
from xla_emit.indexing.indexing_map import IndexingMap
from xla_emit.indexing.interval import Interval
from xla_emit.runtime.compare import compare
from xla_emit.runtime.expectations import (
    OutputKind,
    ReorderedSum,
    compare_exactly,
    compare_within_bound,
    output_expectations,
)
from xla_emit.runtime.kernels import KernelCache
from xla_emit.runtime.module_runtime import ModuleRuntime
from xla_emit.runtime.stages import check_pipeline
from xla_emit.tools.run import main

CORPUS = Path(__file__).resolve().parents[1] / "corpus"

BF16_SUM = """HloModule bf16_sum

%add (a: bf16[], b: bf16[]) -> bf16[] {
  %a = bf16[] parameter(0)
  %b = bf16[] parameter(1)
  ROOT %s = bf16[] add(%a, %b)
}

ENTRY %main (x: bf16[8,4096]) -> bf16[8] {
  %x = bf16[8,4096]{1,0} parameter(0)
  %zero = bf16[] constant(0)
  ROOT %r = bf16[8]{0} reduce(%x, %zero), dimensions={1}, to_apply=%add
}
"""

MIXED = """HloModule mixed

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

ENTRY %main (x: f32[4,16]) -> (f32[4,16], f32[4,16], bf16[4], f32[4]) {
  %x = f32[4,16] parameter(0)
  %y = f32[4,16] multiply(%x, %x)
  %e = f32[4,16] exponential(%x)
  %zero = f32[] constant(0)
  %s = f32[4] reduce(%y, %zero), dimensions={1}, to_apply=%add
  %c = bf16[4] convert(%s)
  %t = f32[4] reduce(%e, %zero), dimensions={1}, to_apply=%add
  ROOT %out = (f32[4,16], f32[4,16], bf16[4], f32[4]) tuple(%y, %e, %c, %t)
}
"""


def test_each_output_gets_what_its_computation_allows() -> None:
    module = parse_hlo(MIXED)
    inputs = random_inputs(module.entry, 0)
    kinds = [e.kind for e in output_expectations(module, inputs)]
    # x*x: exact; exp: approximated; sum of x*x (rounded to bf16): a reordered sum;
    # a sum of approximated values: the ulp tolerance.
    assert kinds == [
        OutputKind.EXACT,
        OutputKind.APPROXIMATE,
        OutputKind.REORDERED_SUM,
        OutputKind.APPROXIMATE,
    ]
    reordered = output_expectations(module, inputs)[2].reordered
    assert reordered is not None
    assert (reordered.length, reordered.accumulator, reordered.output) == (
        16,
        PrimitiveType.F32,
        PrimitiveType.BF16,
    )
    squares = inputs[0].astype(np.float64) ** 2
    np.testing.assert_allclose(reordered.magnitudes, squares.sum(axis=1), rtol=1e-6)


COMPLEX = """HloModule complex_ops

ENTRY %main (z: c64[2], w: c64[2]) -> (c64[2], f32[2], c64[2], c64[2], c64[2]) {
  %z = c64[2] parameter(0)
  %w = c64[2] parameter(1)
  %sum = c64[2] add(%z, %w)
  %abs = f32[2] abs(%z)
  %product = c64[2] multiply(%z, %w)
  %quotient = c64[2] divide(%z, %w)
  %root = c64[2] sqrt(%z)
  ROOT %out = (c64[2], f32[2], c64[2], c64[2], c64[2]) tuple(%sum, %abs, %product, %quotient, %root)
}
"""


def test_complex_products_and_functions_are_approximations() -> None:
    # XLA computes them in the component type by formulas (XLA:CPU's c64 |z| of
    # 2.3 - 5.2j was 2 ulp from the correctly rounded one; (a + ai)^2 had real part
    # fma(a, a, -a*a) = -1.9e-8, not 0): only sums are bit-exact.
    module = parse_hlo(COMPLEX)
    inputs = random_inputs(module.entry, 0)
    kinds = [e.kind for e in output_expectations(module, inputs)]
    assert kinds == [OutputKind.EXACT] + [OutputKind.APPROXIMATE] * 4


def test_bound_matches_hand_worked_numbers() -> None:
    u = 2.0**-8
    slack = 2 * 3 * 2.0**-53 * 2.0  # the float64 exact sum's own rounding: 2 n u64 sum|x_i|
    same_type = ReorderedSum(
        3,
        3,
        PrimitiveType.BF16,
        PrimitiveType.BF16,
        np.array([1.0]),
        np.array([2.0]),
        np.array([0.5]),
    )
    assert same_type.bound()[0] == 0.5 + slack
    # f32 accumulated, stored as bf16: one more rounding, relative to |exact| + the bound,
    # plus half bf16's smallest subnormal.
    narrowed = ReorderedSum(
        100,
        10,
        PrimitiveType.F32,
        PrimitiveType.BF16,
        np.array([-4.0]),
        np.array([10.0]),
        np.array([1e-5]),
    )
    inner = 1e-5 + 2 * 100 * 2.0**-53 * 10.0
    expected = inner + u * (4.0 + inner) + 2.0**-133 / 2
    assert narrowed.bound()[0] == pytest.approx(expected, rel=1e-12)


def test_bound_comparison_rejects_infinities_and_nans_out_of_place() -> None:
    loose = ReorderedSum(
        4096,
        4096,
        PrimitiveType.BF16,
        PrimitiveType.BF16,
        np.array([0.0, 0.0]),
        np.array([1e30, 1.0]),
        np.array([1e30, 1e30]),
    )
    expected = np.array([np.inf, 1.0], dtype=ml_dtypes.bfloat16)
    actual = np.array([3.0, np.nan], dtype=ml_dtypes.bfloat16)
    result = compare_within_bound(expected, actual, loose)
    assert not result.matches
    assert result.first_difference == (0,)
    assert "depth*u >= 1, so the bound says little" in result.describe()


def test_plain_bf16_row_sum_passes_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    module = parse_hlo(BF16_SUM)
    inputs = random_inputs(module.entry, 0)
    expected = evaluate_module(module, inputs)
    actual = ModuleRuntime(module, KernelCache()).run(inputs)
    # The ulp/scale tolerance alone calls the tree-ordered sum wrong.
    assert not compare(expected[0], actual[0]).matches
    hlo = tmp_path / "bf16_sum.hlo"
    hlo.write_text(BF16_SUM)
    assert main([str(hlo), "--check"]) == 0
    err = capsys.readouterr().err
    assert "emitted: ok (out0: within the reordered-sum bound (off the exact sum by " in err
    assert "4096 bf16 elements, at most 26 additions deep; the reference is off by up to " in err


def test_corpus_bf16_row_sum_passes_check(capsys: pytest.CaptureFixture[str]) -> None:
    hlo = CORPUS / "bf16_row_sum.hlo"
    inputs = CORPUS / "bf16_row_sum.inputs.npz"
    assert main([str(hlo), "--inputs", str(inputs), "--check"]) == 0
    assert "DIFFERS" not in capsys.readouterr().err


def read_map_without_last_vector(self: RowReductionTiling) -> IndexingMap:
    """A broken row reduction's loop map: each row's last vector of elements is not read."""
    last = self.reduced_positions - 1
    read_map = ReductionTiling.read_map(self)
    return read_map.with_constraint(self.loop_step + self.lane_in_row, Interval(0, last - 1))


def test_a_row_sum_missing_one_element_differs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Break the emitter: each thread row skips the last vector of elements of its row."""
    monkeypatch.setattr(RowReductionTiling, "read_map", read_map_without_last_vector)
    hlo = CORPUS / "bf16_row_sum.hlo"
    inputs = CORPUS / "bf16_row_sum.inputs.npz"
    assert main([str(hlo), "--inputs", str(inputs), "--check"]) == 1
    err = capsys.readouterr().err
    assert "emitted: DIFFERS (out0: outside the reordered-sum bound (off the exact sum by " in err
    assert "64 f32 elements, at most 7 additions deep; the reference is off by up to " in err
    assert "error: outputs differ from the reference evaluator after pass 'emitted'" in err


def test_elementwise_output_one_ulp_off_differs() -> None:
    """An elementwise output must be bit-exact: one ulp is caught (the ulp tolerance took 4)."""
    module = parse_hlo(MIXED)
    inputs = random_inputs(module.entry, 0)
    expected = evaluate_module(module, inputs)
    off = expected[0].copy()
    off[1, 2] = np.nextafter(off[1, 2], np.float32(np.inf))
    assert compare(off, expected[0]).matches
    result = compare_exactly(off, expected[0])
    assert not result.matches
    assert result.describe().startswith(
        "not bit-identical, though the kernel computes what the reference does in the same "
        "order: max abs error "
    )
    assert "first difference at [1, 2]" in result.describe()
    report = check_pipeline(module, inputs, [off, *expected[1:]], stop_at_first_failure=True)
    assert report.first_failure is not None
    assert report.first_failure.stage == "emitted"


def test_nan_payloads_do_not_matter_for_exact_outputs() -> None:
    expected = np.array([np.nan, 1.0], np.float32)
    actual = np.array([-np.nan, 1.0], np.float32)
    result = compare_exactly(expected, actual)
    assert result.matches
    assert math.isnan(float(actual[0]))


def test_a_broken_elementwise_kernel_differs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Break the emitter: f32 multiply emitted as an add (x*x becomes x+x)."""
    monkeypatch.setitem(elemental_ops._FLOAT_BINARY, "multiply", arith.AddfOp)  # pyright: ignore[reportPrivateUsage]
    hlo = tmp_path / "mixed.hlo"
    hlo.write_text(MIXED)
    assert main([str(hlo), "--check"]) == 1
    err = capsys.readouterr().err
    assert "emitted: DIFFERS (out0: not bit-identical, though the kernel computes" in err


def test_outputs_behind_a_call_keep_the_ulp_tolerance() -> None:
    text = """HloModule calls

%inner (a: f32[4]) -> (f32[4], f32[4]) {
  %a = f32[4] parameter(0)
  %e = f32[4] exponential(%a)
  ROOT %t = (f32[4], f32[4]) tuple(%a, %e)
}

ENTRY %main (x: f32[4]) -> (f32[4], f32[4]) {
  %x = f32[4] parameter(0)
  ROOT %c = (f32[4], f32[4]) call(%x), to_apply=%inner
}
"""
    module = parse_hlo(text)
    kinds = [e.kind for e in output_expectations(module, random_inputs(module.entry, 0))]
    assert kinds == [OutputKind.APPROXIMATE, OutputKind.APPROXIMATE]


SUM_OF_A_DOT = """HloModule sum_of_a_dot

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

%sum_rows (p: f32[4,8], q: f32[4,8]) -> f32[4] {
  %p = f32[4,8] parameter(0)
  %q = f32[4,8] parameter(1)
  %m = f32[4,8] multiply(%p, %q)
  %zero = f32[] constant(0)
  ROOT %r = f32[4] reduce(%m, %zero), dimensions={1}, to_apply=%add
}

ENTRY %main (x: f32[4,16], w: f32[16,8], v: f32[4,8]) -> (f32[4], f32[4]) {
  %x = f32[4,16] parameter(0)
  %w = f32[16,8] parameter(1)
  %v = f32[4,8] parameter(2)
  %d = f32[4,8] dot(%x, %w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  %of_dot = f32[4] fusion(%d, %v), kind=kInput, calls=%sum_rows
  %of_inputs = f32[4] fusion(%v, %v), kind=kInput, calls=%sum_rows
  ROOT %out = (f32[4], f32[4]) tuple(%of_dot, %of_inputs)
}
"""


def test_a_fusion_summing_a_dot_keeps_the_ulp_tolerance() -> None:
    """The reordered-sum bound holds a kernel to the exact sum of the reference's summands;
    summands a dot computed (in cuBLAS's order) before the fusion are not those, so the
    bound would blame a right kernel (a mixture of experts' weighted sum did)."""
    module = parse_hlo(SUM_OF_A_DOT)
    inputs = random_inputs(module.entry, 0)
    kinds = [e.kind for e in output_expectations(module, inputs)]
    assert kinds == [OutputKind.APPROXIMATE, OutputKind.REORDERED_SUM]


# XLA's H100 module for difftest seed 2003119: a loop fusion sums 12 f32 values to an f32[],
# and the entry computation bitcasts it to f32[1].
SUM_BEHIND_A_BITCAST = """HloModule sum_behind_a_bitcast

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

%fused_reduce (init: f32[], x: f32[1,3,4]) -> f32[] {
  %x = f32[1,3,4]{2,1,0} parameter(1)
  %flat = f32[12]{0} bitcast(%x)
  %init = f32[] parameter(0)
  ROOT %r = f32[] reduce(%flat, %init), dimensions={0}, to_apply=%add
}

ENTRY %main (x: f32[1,3,4], c: f32[]) -> f32[1] {
  %c = f32[] parameter(1)
  %x = f32[1,3,4]{2,1,0} parameter(0)
  %sum = f32[] fusion(%c, %x), kind=kLoop, calls=%fused_reduce
  ROOT %out = f32[1]{0} bitcast(%sum)
}
"""


def test_a_sum_behind_the_entrys_bitcast_keeps_the_reordered_sum_bound() -> None:
    # The terms cancel to 0.0539 from magnitudes up to 10: XLA:CPU (and the kernel) adding in
    # order give 0.053900719, numpy's pairwise order 0.053898811, 512 f32 ulp apart. Both are
    # within the bound of the sum (exact 0.0538994); the ulp tolerance took the numpy one
    # for a wrong value.
    module = parse_hlo(SUM_BEHIND_A_BITCAST)
    x = np.array(
        [-3.8422282, 10.180703, 5.5241714, 8.630733, 0.08415365, 0.774045, -1.9152417,
         -3.7674181, -5.0056038, -1.0978006, -5.095725, -4.415889],
        np.float32,
    ).reshape(1, 3, 4)  # fmt: skip
    inputs = [x, np.zeros((), np.float32)]
    (expectation,) = output_expectations(module, inputs)
    assert expectation.kind is OutputKind.REORDERED_SUM
    in_order = np.float32(0)
    for value in x.ravel():
        in_order = np.float32(in_order + value)
    pairwise = np.array([np.sum(x.ravel())], np.float32)
    assert not compare(np.array([in_order]), pairwise).matches
    assert expectation.compare(np.array([in_order]), pairwise).matches
    # One term left out is still caught.
    missing = np.array([in_order - x.ravel()[4]], np.float32)
    assert not expectation.compare(np.array([in_order]), missing).matches
