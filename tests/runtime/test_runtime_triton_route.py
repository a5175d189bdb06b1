"""`__triton` fusions run as tile programs in the module runtime, and `--check` checks their
stages."""

from __future__ import annotations

import numpy as np

from xla_emit.hlo.evaluator import evaluate_module
from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.runtime.module_runtime import ModuleRuntime
from xla_emit.runtime.stages import check_pipeline

# As XLA:GPU compiles a masked row max-shift with default options (the config's spelling
# is XLA's): a `__triton` fusion between two loop fusions.
_MODULE = """HloModule m

%max (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %r = f32[] maximum(%a, %b)
}

%shifted (p: f32[24,40]) -> f32[24,40] {
  %p = f32[24,40]{1,0} parameter(0)
  %ninf = f32[] constant(-inf)
  %m = f32[24]{0} reduce(%p, %ninf), dimensions={1}, to_apply=%max
  %mb = f32[24,40]{1,0} broadcast(%m), dimensions={0}
  ROOT %d = f32[24,40]{1,0} subtract(%p, %mb)
}

%negated (q: f32[24,40]) -> f32[24,40] {
  %q = f32[24,40]{1,0} parameter(0)
  ROOT %n = f32[24,40]{1,0} negate(%q)
}

%doubled (q: f32[24,40]) -> f32[24,40] {
  %q = f32[24,40]{1,0} parameter(0)
  ROOT %n = f32[24,40]{1,0} add(%q, %q)
}

ENTRY %main (x: f32[24,40]) -> f32[24,40] {
  %x = f32[24,40]{1,0} parameter(0)
  %neg = f32[24,40]{1,0} fusion(%x), kind=kLoop, calls=%negated
  %t = f32[24,40]{1,0} fusion(%neg), kind=kCustom, calls=%shifted, CONFIG
  ROOT %y = f32[24,40]{1,0} fusion(%t), kind=kLoop, calls=%doubled
}
""".replace(
    "CONFIG",
    'backend_config={"fusion_backend_config":{"kind":"__triton","block_level_fusion_config":'
    '{"num_warps":"1","output_tiles":[{"sizes":["2","40"]}],"num_ctas":1,"num_stages":1}}}',
)


def _inputs() -> list[np.ndarray]:
    return [np.random.default_rng(0).standard_normal((24, 40)).astype(np.float32)]


def test_the_triton_fusion_runs_as_one_launch_of_its_programs() -> None:
    module = parse_hlo_module(_MODULE, "m.hlo")
    runtime = ModuleRuntime(module)
    (out,) = runtime.run(_inputs())
    (expected,) = evaluate_module(module, _inputs())
    assert out.tobytes() == np.asarray(expected).tobytes()
    # 12 programs of 2 rows each, launched once.
    assert [(run.name, run.lanes) for run in runtime.runs if run.name == "t"] == [("t", 12)]


def test_check_runs_every_stage_of_both_pipelines() -> None:
    module = parse_hlo_module(_MODULE, "m.hlo")
    expected = evaluate_module(module, _inputs())
    result = check_pipeline(module, _inputs(), expected)
    names = [stage.stage for stage in result.stages]
    assert names[0] == "emitted"
    assert names.index("stablehlo-lower-to-arith") < names.index("stablehlo-lower-to-triton")
    assert result.first_failure is None, result.report()


_GEMM = """HloModule m

%fused (p0: bf16[32,40], p1: bf16[40,24]) -> bf16[32,24] {
  %p0 = bf16[32,40]{1,0} parameter(0)
  %p1 = bf16[40,24]{1,0} parameter(1)
  ROOT %d = bf16[32,24]{1,0} dot(%p0, %p1), lhs_contracting_dims={1},
    rhs_contracting_dims={0}, backend_config={"sizes":["16"]}
}

ENTRY %main (a: bf16[32,40], b: bf16[40,24]) -> bf16[32,24] {
  %a = bf16[32,40]{1,0} parameter(0)
  %b = bf16[40,24]{1,0} parameter(1)
  ROOT %f = bf16[32,24]{1,0} fusion(%a, %b), kind=kCustom, calls=%fused, CONFIG
}
"""


def _gemm(element: str) -> str:
    config = (
        'backend_config={"fusion_backend_config":{"kind":"__triton_nested_gemm_fusion",'
        '"block_level_fusion_config":{"num_warps":"2","output_tiles":[{"sizes":["16","8"]}]}}}'
    )
    return _GEMM.replace("CONFIG", config).replace("bf16", element)


def test_bf16_f32_gemm_fusions_run_on_the_triton_route_an_f64_one_as_a_library_dot() -> None:
    rng = np.random.default_rng(3)
    # A bf16 or f32 fusion is one launch of 32/16 x 24/8 = 6 programs (f32 on TF32 inputs);
    # the f64 one runs its dot as a library call (listed as `d (library)`): no tensor core
    # multiplies f64 in Triton's dot.
    for element, route in (("bf16", [("f", 6)]), ("f32", [("f", 6)]), ("f64", [])):
        module = parse_hlo_module(_gemm(element), "m.hlo")
        dtype = "bfloat16" if element == "bf16" else element.replace("f", "float")
        inputs = [rng.standard_normal(s).astype(dtype) for s in ((32, 40), (40, 24))]
        runtime = ModuleRuntime(module)
        (out,) = runtime.run(inputs)
        (expected,) = evaluate_module(module, inputs)
        ours, reference = out.astype(np.float64), np.asarray(expected).astype(np.float64)
        # bf16 rounds the result; TF32 the inputs (10 mantissa bits): 1/50 of the scale.
        assert np.abs(ours - reference).max() <= 0.02 * np.abs(reference).max()
        assert [(r.name, r.lanes) for r in runtime.runs if r.name == "f"] == route


def test_a_normalization_with_an_op_the_triton_emitter_lacks_runs_on_the_emitters() -> None:
    text = _MODULE.replace(
        "ROOT %d = f32[24,40]{1,0} subtract(%p, %mb)",
        "%s = f32[24,40]{1,0} subtract(%p, %mb)\n  ROOT %d = f32[24,40]{1,0} cbrt(%s)",
    )
    module = parse_hlo_module(text, "m.hlo")
    runtime = ModuleRuntime(module)
    (out,) = runtime.run(_inputs())
    (expected,) = evaluate_module(module, _inputs())
    assert np.allclose(out, np.asarray(expected), rtol=1e-6)
    # One kernel of the emitters: a lane per output element, not 12 programs.
    assert [(run.name, run.lanes) for run in runtime.runs if run.name == "t"] != [("t", 12)]


# A __triton fusion negating integers (`0 - x`: s32's minimum wraps to itself) and
# summing each row of 4 (sums wrap too).
_INTEGER_NEGATE = """HloModule m

%add (a: s32[], b: s32[]) -> s32[] {
  %a = s32[] parameter(0)
  %b = s32[] parameter(1)
  ROOT %r = s32[] add(%a, %b)
}

%negated_sums (p: s32[2,4]) -> s32[2] {
  %p = s32[2,4]{1,0} parameter(0)
  %n = s32[2,4]{1,0} negate(%p)
  %zero = s32[] constant(0)
  ROOT %s = s32[2]{0} reduce(%n, %zero), dimensions={1}, to_apply=%add
}

ENTRY %main (x: s32[2,4]) -> s32[2] {
  %x = s32[2,4]{1,0} parameter(0)
  ROOT %t = s32[2]{0} fusion(%x), kind=kCustom, calls=%negated_sums, CONFIG
}
""".replace(
    "CONFIG",
    'backend_config={"fusion_backend_config":{"kind":"__triton","block_level_fusion_config":'
    '{"num_warps":"1","output_tiles":[{"sizes":["1"]}],"num_ctas":1,"num_stages":1}}}',
)


def test_an_integer_negate_runs_on_the_triton_route() -> None:
    module = parse_hlo_module(_INTEGER_NEGATE, "m.hlo")
    x = np.array([[0, 1, -1, 7], [-(2**31), 5, 3, -2]], dtype=np.int32)
    runtime = ModuleRuntime(module)
    (out,) = runtime.run([x])
    # -(0 + 1 - 1 + 7) = -7; -(-2^31) wraps to -2^31, then - 5 - 3 + 2 wraps to 2^31 - 6.
    assert out.tolist() == [-7, 2**31 - 6]
    (expected,) = evaluate_module(module, [x])
    assert out.tobytes() == np.asarray(expected).tobytes()
    assert [(run.name, run.lanes) for run in runtime.runs if run.name == "t"] == [("t", 2)]
