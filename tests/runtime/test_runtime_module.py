"""The module runtime against the reference evaluator; kernel cache; stage-by-stage checks."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects.func import FuncOp

from xla_emit import api
from xla_emit.hlo.evaluator import evaluate_module
from xla_emit.hlo.ir import HloModule
from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.interpreter import CheckOptions
from xla_emit.runtime import KernelCache, ModuleRuntime, compile_fusion, kernel_fusions

BF16 = ml_dtypes.bfloat16

CHAINED = """
HloModule chained

scale {
  p = f32[8,64] parameter(0)
  c = f32[] constant(2)
  b = f32[8,64] broadcast(c), dimensions={}
  ROOT m = f32[8,64] multiply(p, b)
}

shift {
  p = f32[8,64] parameter(0)
  q = f32[8,64] parameter(1)
  ROOT s = f32[8,64] subtract(p, q)
}

ENTRY main {
  x = f32[8,64] parameter(0)
  y = f32[8,64] parameter(1)
  a = f32[8,64] fusion(x), kind=kLoop, calls=scale
  b = f32[8,64] fusion(y), kind=kLoop, calls=scale
  d = f32[8,64] fusion(a, b), kind=kLoop, calls=shift
  t = (f32[8,64], f32[8,64]) tuple(d, a)
  g = f32[8,64] get-tuple-element(t), index=0
  r = f32[512] bitcast(g)
  e = f32[8,64] exponential(a)
  ROOT out = (f32[512], f32[8,64]) tuple(r, e)
}
"""


def _inputs(module: HloModule, seed: int = 0) -> list[np.ndarray]:
    from xla_emit.hlo.npz import random_inputs

    return random_inputs(module.entry, seed)


def test_fusions_aliases_and_wrapped_instructions_match_the_reference() -> None:
    module = parse_hlo_module(CHAINED, "chained.hlo")
    inputs = _inputs(module)
    runtime = ModuleRuntime(module, KernelCache(checks=CheckOptions()))
    outputs = runtime.run(inputs)
    expected = evaluate_module(module, inputs)
    assert len(outputs) == 2
    for output, reference in zip(outputs, expected, strict=True):
        assert output.shape == reference.shape
        np.testing.assert_array_equal(output, reference)
    # scale (twice, one kernel), shift and the wrapped exponential.
    assert [run.name for run in runtime.runs] == ["a", "b", "d", "wrapped_e"]
    assert len(runtime.kernels) == 3


def test_kernel_fusions_lists_what_a_run_launches() -> None:
    module = parse_hlo_module(CHAINED, "chained.hlo")
    assert [fusion.name for fusion in kernel_fusions(module)] == ["a", "b", "d", "wrapped_e"]


def test_bf16_gelu_module_is_bit_exact() -> None:
    text = Path("examples/gelu.hlo").read_text().replace("6,512,4096", "4,256")
    module = parse_hlo_module(text, "gelu.hlo")
    inputs = _inputs(module, 3)
    (output,) = ModuleRuntime(module).run(inputs)
    (expected,) = evaluate_module(module, inputs)
    assert output.dtype == BF16
    np.testing.assert_array_equal(output.view(np.uint16), expected.view(np.uint16))


def test_unsigned_integers_travel_through_signless_kernels() -> None:
    text = """
HloModule unsigned

ENTRY main {
  a = u32[64] parameter(0)
  b = u32[64] parameter(1)
  ROOT q = u32[64] divide(a, b)
}
"""
    module = parse_hlo_module(text, "unsigned.hlo")
    a = np.array([2**32 - 1, 7, 2**31 + 5] * 21 + [9], np.uint32)
    b = np.array([2, 3, 4] * 21 + [1], np.uint32)
    (output,) = ModuleRuntime(module).run([a, b])
    assert output.dtype == np.uint32
    np.testing.assert_array_equal(output, a // b)


def test_pipeline_check_passes_every_stage() -> None:
    report = api.check_hlo_pipeline(CHAINED, _inputs(parse_hlo_module(CHAINED, "c.hlo")))
    assert report.first_failure is None
    names = [stage.stage for stage in report.stages]
    assert names[0] == "emitted" and "xla-flatten-tensors" in names
    assert all(stage.matches for stage in report.stages)


EXP_KERNEL = """
func.func @main(%a: tensor<64xf32>, %out: tensor<64xf32>) -> tensor<64xf32> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 63 : index]}
  %x = tensor.extract %a[%t] : tensor<64xf32>
  %e = math.exp %x : f32
  %o = tensor.insert %e into %out[%t] : tensor<64xf32>
  return %o : tensor<64xf32>
}
"""


def test_kernel_check_names_the_first_pass_that_changes_results() -> None:
    # A 3-term Taylor series is a poor exp: the check must blame that pass, not canonicalize.
    module = api.parse_kernel(EXP_KERNEL)
    x = np.linspace(-4, 4, 64, dtype=np.float32)
    report = api.check_kernel_pipeline(
        module, [x], "canonicalize,expand-math-to-polynomials{terms=3},cse"
    )
    failure = report.first_failure
    assert failure is not None and failure.stage == "expand-math-to-polynomials"
    assert [stage.stage for stage in report.stages] == ["emitted", "expand-math-to-polynomials"]
    assert "max ulp error" in report.report()


def test_compile_fusion_runs_the_pipeline() -> None:
    module = parse_hlo_module(CHAINED, "chained.hlo")
    fusion = kernel_fusions(module)[0]
    passes: list[str] = []
    kernel = compile_fusion(
        module, fusion, "xla-gpu-pipeline", lambda name, _m, _s: passes.append(name)
    )
    assert "xla-flatten-tensors" in passes
    assert "xla_gpu.loop" not in str(kernel)


@pytest.mark.parametrize("pipeline", ["", "xla-gpu-pipeline"])
def test_api_run_hlo_and_compile_hlo(pipeline: str) -> None:
    module = parse_hlo_module(CHAINED, "c.hlo")
    inputs = _inputs(module, 5)
    outputs = api.run_hlo(CHAINED, inputs, pipeline=pipeline)
    expected = api.run_reference(CHAINED, inputs)
    for output, reference in zip(outputs, expected, strict=True):
        np.testing.assert_array_equal(output, reference)
    kernels = api.compile_hlo(CHAINED, pipeline)
    assert {"a", "d"} <= {op.sym_name.data for op in kernels.walk() if isinstance(op, FuncOp)}


def test_kernel_errors_name_the_fusion() -> None:
    from xla_emit.diagnostics import UserError
    from xla_emit.ir import parse_mlir

    # A kernel that reads past its input, standing in for a miscompiled fusion.
    bad_kernel = """
func.func @a(%p: tensor<8x64xf32>, %out: tensor<8x64xf32>) -> tensor<8x64xf32> attributes {xla.entry} {
  %t = gpu.thread_id  x {xla.range = [0 : index, 63 : index]}
  %c8 = arith.constant 8 : index
  %x = tensor.extract %p[%c8, %t] : tensor<8x64xf32>
  %o = tensor.insert %x into %out[%c8, %t] : tensor<8x64xf32>
  return %o : tensor<8x64xf32>
}
"""  # noqa: E501 - IR listing, one op per line
    module = parse_hlo_module(CHAINED, "chained.hlo")
    cache = KernelCache(compiler=lambda _m, _f, _p, _a: parse_mlir(bad_kernel, "bad.mlir")[0])
    with pytest.raises(UserError) as caught:
        ModuleRuntime(module, cache).run(_inputs(module))
    text = caught.value.format()
    assert (
        "'tensor.extract' op index [8, 0] is out of bounds for argument 0 of shape [8, 64] "
        "(dimension 0) (thread 0, block 0)" in text
    )
    assert "chained.hlo:" in text and "note: in the kernel of 'a'" in text
