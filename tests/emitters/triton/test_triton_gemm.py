"""Gemm fusions on the Triton route: a loop over K tiles, `tt.dot` after the pipeline."""

from __future__ import annotations

import numpy as np
from xdsl.dialects import scf
from xla_emit.dialects import stablehlo, triton

from xla_emit.emitters.triton.emitter import emit_triton_fusion
from xla_emit.hlo.evaluator import evaluate_module
from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.interpreter.tile.dot import to_tf32
from xla_emit.interpreter.tile.executor import TileExecutor
from xla_emit.runtime.module_runtime import ModuleRuntime
from xla_emit.runtime.triton_kernels import compile_triton_fusion

# As XLA:GPU writes a bf16 gemm fusion (jax 0.12, H100): the dot's contracting tile in its
# own backend_config, output tiles of [16, 8]; 40 = 2.5 tiles of 16 along K, so the last
# K tile is partial and its missing elements must count as zeros.
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
""".replace(
    "CONFIG",
    'backend_config={"fusion_backend_config":{"kind":"__triton_nested_gemm_fusion",'
    '"block_level_fusion_config":{"num_warps":"2","output_tiles":[{"sizes":["16","8"]}]}}}',
)


def _inputs() -> list[np.ndarray]:
    rng = np.random.default_rng(5)
    return [
        rng.standard_normal((32, 40)).astype("bfloat16"),
        rng.standard_normal((40, 24)).astype("bfloat16"),
    ]


def test_the_k_loop_sums_products_exactly_then_rounds_once() -> None:
    module = parse_hlo_module(_GEMM, "m.hlo")
    kernel = emit_triton_fusion(module.entry.root)
    kernel.verify()
    (loop,) = [op for op in kernel.walk() if isinstance(op, scf.ForOp)]
    assert len([op for op in loop.body.walk() if isinstance(op, stablehlo.DotGeneralOp)]) == 1
    (out,) = TileExecutor(kernel, num_warps=2).run(_inputs())
    a, b = (x.astype(np.float32) for x in _inputs())
    # bf16 products are exact in f32; the f32 sums of 40 terms differ from exact by far
    # less than half a bf16 ulp nearly everywhere, so rounding once agrees with the
    # exactly summed product to within one bf16 ulp.
    exact = a.astype(np.float64) @ b.astype(np.float64)
    ulp = 2.0 ** (np.floor(np.log2(np.abs(exact))) - 7)  # bf16 keeps 8 significant bits
    assert np.all(np.abs(out.astype(np.float64) - exact) <= ulp)
    (expected,) = evaluate_module(module, _inputs())
    assert np.mean(out.view(np.uint16) == np.asarray(expected).view(np.uint16)) > 0.95


def test_the_pipeline_ends_in_tt_dot_and_computes_the_same_bits() -> None:
    fusion = parse_hlo_module(_GEMM, "m.hlo").entry.root
    emitted = TileExecutor(emit_triton_fusion(fusion), num_warps=2).run(_inputs())
    lowered_module = compile_triton_fusion(fusion)
    assert any(isinstance(op, triton.DotOp) for op in lowered_module.walk())
    lowered = TileExecutor(lowered_module, num_warps=2).run(_inputs())
    assert emitted[0].tobytes() == lowered[0].tobytes()


def test_tf32_rounds_to_ten_mantissa_bits_ties_away() -> None:
    values = np.array([1 + 2**-10, 1 + 2**-11, 1 + 3 * 2**-11, -(1 + 2**-11), np.inf], np.float32)
    assert to_tf32(values).tolist() == [1 + 2**-10, 1 + 2**-10, 1 + 2**-9, -(1 + 2**-10), np.inf]


def test_a_triton_gemm_config_tiles_as_the_same_nested_gemm_config_does() -> None:
    # Older XLA writes `__triton_gemm` with block_m/n/k instead of output tiles and the
    # dot's K tile: the same tiles give the same kernel and the same bits.
    legacy = _GEMM.replace(', backend_config={"sizes":["16"]}', "").replace(
        '"kind":"__triton_nested_gemm_fusion",'
        '"block_level_fusion_config":{"num_warps":"2","output_tiles":[{"sizes":["16","8"]}]}',
        '"kind":"__triton_gemm","triton_gemm_config":{"block_m":"16","block_n":"8",'
        '"block_k":"16","split_k":"1","num_stages":"1","num_warps":"2"}',
    )
    assert '__triton_gemm"' in legacy and '"sizes"' not in legacy
    nested_fusion = parse_hlo_module(_GEMM, "m.hlo").entry.root
    legacy_fusion = parse_hlo_module(legacy, "legacy.hlo").entry.root
    assert str(emit_triton_fusion(legacy_fusion)) == str(emit_triton_fusion(nested_fusion))
    runtime = ModuleRuntime(parse_hlo_module(legacy, "legacy.hlo"))
    (out,) = runtime.run(_inputs())
    (expected,) = TileExecutor(emit_triton_fusion(nested_fusion), num_warps=2).run(_inputs())
    assert out.tobytes() == expected.tobytes()
    assert [(r.name, r.lanes) for r in runtime.runs] == [("f", 2 * 3)]
