"""Our Triton kernels, run in the tile executor, against the numpy HLO evaluator."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import math
from xla_emit.dialects import stablehlo, xtile

from xla_emit.diagnostics import UserError
from xla_emit.emitters.triton.emitter import emit_triton_fusion
from xla_emit.hlo.evaluator import evaluate_module
from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.interpreter.tile.executor import TileExecutor

_CONFIG = (
    'backend_config={"fusion_backend_config":{"kind":"__triton","block_level_fusion_config":'
    '{"num_warps":"WARPS","output_tiles":[{"sizes":[TILE]}]}}}'
)


def _module(body: str, params: str, result: str, tile: str, warps: int = 1):
    config = _CONFIG.replace("TILE", tile).replace("WARPS", str(warps))
    args = ", ".join(f"%x{i}" for i in range(params.count(":")))
    text = f"""HloModule m

%max (a: f32[], b: f32[]) -> f32[] {{
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %r = f32[] maximum(%a, %b)
}}

%add (a: f32[], b: f32[]) -> f32[] {{
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %r = f32[] add(%a, %b)
}}

%fused ({params}) -> {result} {{
{body}
}}

ENTRY %main ({params.replace("p", "x")}) -> {result} {{
{_entry_params(params)}
  ROOT %f = {result} fusion({args}), kind=kCustom, calls=%fused, {config}
}}
"""
    return parse_hlo_module(text, "m.hlo")


def _entry_params(params: str) -> str:
    lines = []
    for i, param in enumerate(params.split(", ")):
        shape = param.split(": ")[1]
        lines.append(f"  %x{i} = {shape} parameter({i})")
    return "\n".join(lines)


def _run(module, inputs):
    fusion = module.entry.root
    kernel = emit_triton_fusion(fusion)
    kernel.verify()
    warps = int(fusion.extra_attributes[-1][1].split('"num_warps":"')[1].split('"')[0])
    return kernel, TileExecutor(kernel, num_warps=warps).run(inputs)


# x - max(x) per row: order-independent, so equal to the evaluator bit for bit. Rows of 12
# are padded to 16 (the reduce masks with -inf) and 5 rows in tiles of 2 leave a partial
# tile whose missing row is neither read into the result nor written.
_MAX_SHIFT = """  %p0 = f32[5,12]{1,0} parameter(0)
  %ninf = f32[] constant(-inf)
  %m = f32[5]{0} reduce(%p0, %ninf), dimensions={1}, to_apply=%max
  %mb = f32[5,12]{1,0} broadcast(%m), dimensions={0}
  ROOT %d = f32[5,12]{1,0} subtract(%p0, %mb)"""


def test_max_shift_with_partial_tiles_equals_the_evaluator_bit_for_bit() -> None:
    module = _module(_MAX_SHIFT, "p0: f32[5,12]", "f32[5,12]", '"2","12"')
    rng = np.random.default_rng(0)
    # Negative values only: a masked 0 instead of -inf would change the max.
    x = -np.abs(rng.standard_normal((5, 12))).astype(np.float32) - 1
    kernel, (out,) = _run(module, [x])
    (expected,) = evaluate_module(module, [x])
    assert out.tobytes() == np.asarray(expected).tobytes()
    masks = [op for op in kernel.walk() if isinstance(op, xtile.MaskOp)]
    assert [list(m.bounds.get_values()) for m in masks] == [[2, 12]]


# The layernorm XLA made a `__triton` fusion of (jax 0.10.2, transformer_block.hlo): a
# bitcast from [16,1,64], row sums over whole rows, output tiles of [1, 8].
_LAYERNORM = """  %p0 = f32[16,1,64]{2,1,0} parameter(0)
  %x = f32[16,64]{1,0} bitcast(%p0)
  %zero = f32[] constant(0)
  %sum = f32[16]{0} reduce(%x, %zero), dimensions={1}, to_apply=%add
  %c = f32[] constant(0.015625)
  %cb = f32[16]{0} broadcast(%c), dimensions={}
  %mean = f32[16]{0} multiply(%sum, %cb)
  %mb = f32[16,64]{1,0} broadcast(%mean), dimensions={0}
  %centered = f32[16,64]{1,0} subtract(%x, %mb)
  %sq = f32[16,64]{1,0} multiply(%centered, %centered)
  %var = f32[16]{0} reduce(%sq, %zero), dimensions={1}, to_apply=%add
  %v = f32[16]{0} multiply(%var, %cb)
  %eps = f32[] constant(1e-05)
  %eb = f32[16]{0} broadcast(%eps), dimensions={}
  %ve = f32[16]{0} add(%v, %eb)
  %r = f32[16]{0} rsqrt(%ve)
  %rb = f32[16,64]{1,0} broadcast(%r), dimensions={0}
  ROOT %y = f32[16,64]{1,0} multiply(%centered, %rb)"""


def test_layernorm_tiles_compute_the_evaluator_within_sum_and_rsqrt_rounding() -> None:
    module = _module(_LAYERNORM, "p0: f32[16,1,64]", "f32[16,64]", '"1","8"')
    x = np.random.default_rng(1).standard_normal((16, 1, 64)).astype(np.float32)
    kernel, (out,) = _run(module, [x])
    (expected,) = evaluate_module(module, [x])
    # Sums of 64 in another order (relative error <= 64 u each) and an rsqrt within an ulp:
    # a few ulp of the normalized values, whose magnitude is about 1.
    assert np.max(np.abs(out - expected)) < 64 * 2**-23 * 8
    ops = {op.name for op in kernel.walk()}
    assert {"xtile.extract", "stablehlo.reshape", "stablehlo.reduce", "math.rsqrt"} <= ops


def test_the_sum_is_triton_s_tree_not_the_evaluator_s_order() -> None:
    """A row sum of 512 f32 in one program: equal to Triton's order worked out with the
    reduce-order model, and within the classic n u sum|x| bound of the exact sum."""
    body = """  %p0 = f32[4,512]{1,0} parameter(0)
  %zero = f32[] constant(0)
  ROOT %s = f32[4]{0} reduce(%p0, %zero), dimensions={1}, to_apply=%add"""
    module = _module(body, "p0: f32[4,512]", "f32[4]", '"1"', warps=2)
    x = (np.random.default_rng(2).standard_normal((4, 512)) * 1e4).astype(np.float32)
    _, (out,) = _run(module, [x])
    exact = x.astype(np.float64).sum(axis=1)
    bound = 512 * 2**-24 * np.abs(x).astype(np.float64).sum(axis=1)
    assert np.all(np.abs(out - exact) <= bound)
    # One element per thread (the tile has a unit dim), 32 lanes, 2 warps: thread t of warp
    # w folds x[64 r + 32 w + t] over r, then lanes and warps meet in butterflies.
    rows = x.reshape(4, 8, 2, 32)
    acc = rows[:, 0]
    for r in range(1, 8):
        acc = acc + rows[:, r]
    for step in (16, 8, 4, 2, 1):
        acc = acc + acc[..., np.arange(32) ^ step]
    acc = acc[..., 0]
    acc = acc + acc[:, [1, 0]]
    assert out.tobytes() == (acc[:, 0] + np.float32(0)).tobytes()


def test_bf16_elementwise_ops_round_after_every_op() -> None:
    body = """  %p0 = bf16[4,32]{1,0} parameter(0)
  %e = bf16[4,32]{1,0} exponential(%p0)
  %m = bf16[4,32]{1,0} multiply(%e, %p0)
  ROOT %a = bf16[4,32]{1,0} add(%m, %p0)"""
    module = _module(body, "p0: bf16[4,32]", "bf16[4,32]", '"2","16"')
    x = np.random.default_rng(3).standard_normal((4, 32)).astype("bfloat16")
    kernel, (out,) = _run(module, [x])
    (expected,) = evaluate_module(module, [x])
    assert out.view(np.uint16).tolist() == np.asarray(expected).view(np.uint16).tolist()
    assert any(isinstance(op, math.ExpOp) for op in kernel.walk())
    assert any(isinstance(op, stablehlo.MultiplyOp) for op in kernel.walk())


def test_an_op_the_emitter_lacks_is_a_located_error() -> None:
    body = """  %p0 = f32[4,32]{1,0} parameter(0)
  ROOT %c = f32[4,32]{1,0} cbrt(%p0)"""
    module = _module(body, "p0: f32[4,32]", "f32[4,32]", '"1","32"')
    with pytest.raises(UserError, match="'cbrt' is not supported by the Triton emitter") as caught:
        emit_triton_fusion(module.entry.root)
    assert caught.value.location.line == 17  # type: ignore[attr-defined]
